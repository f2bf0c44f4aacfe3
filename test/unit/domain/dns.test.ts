import { describe, expect, it } from 'vitest';
import { nameServerRecordChanges } from '../../../models/plugins/netbox_dns/functions.js';

/** The NetBox DNS example plugin's managed apex NS records: what a zone's name servers make of its records. */
describe('nameServerRecordChanges', () => {
  const ns = (zone: number, value: string): { zone: number; name: string; type: 'NS'; value: string } => ({
    zone,
    name: '@',
    type: 'NS',
    value,
  });

  it.each([
    [
      'a new zone gets a record per name server, in order',
      [[1, ['ns1.x', 'ns2.x']]],
      [],
      [ns(1, 'ns1.x'), ns(1, 'ns2.x')],
      [],
    ],
    ['records that match are kept', [[1, ['ns1.x']]], [{ id: 7, zone: 1, value: 'ns1.x' }], [], []],
    [
      'a removed name server loses its record, an added one gets one',
      [[1, ['ns2.x']]],
      [{ id: 7, zone: 1, value: 'ns1.x' }],
      [ns(1, 'ns2.x')],
      [7],
    ],
    [
      'a repeated record is removed',
      [[1, ['ns1.x']]],
      [
        { id: 7, zone: 1, value: 'ns1.x' },
        { id: 8, zone: 1, value: 'ns1.x' },
      ],
      [],
      [8],
    ],
    ['a zone without name servers loses every record', [[1, []]], [{ id: 7, zone: 1, value: 'ns1.x' }], [], [7]],
    [
      'each zone is compared with its own name servers',
      [
        [1, ['ns1.x']],
        [2, ['ns1.x']],
      ],
      [{ id: 7, zone: 2, value: 'ns1.x' }],
      [ns(1, 'ns1.x')],
      [],
    ],
  ] as const)('%s', (_name, servers, records, create, remove) => {
    const map = new Map(servers.map(([zone, names]) => [zone, [...names]] as [number, string[]]));
    expect(nameServerRecordChanges(map, records)).toEqual({ create, remove });
  });
});
