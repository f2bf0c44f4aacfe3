import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../support/models.js';
import { connectDatabase, type Database } from '../../../runtime/db/connect.js';
import { migrate } from '../../../runtime/db/migrate.js';
import { domainFunctions } from '../../../runtime/domain/index.js';
import { VIRTUAL_TYPES, WIRELESS_TYPES } from '../../../runtime/domain/interfaces.js';
import type { ChoiceField } from '../../../runtime/spec.js';
import { schema, settingsWith } from './write-item.js';

/**
 * Filter functions named in YAML, run against an in-memory SQLite database migrated with the repository's
 * models (foreign keys off, so that each table holds only the rows a filter looks at): which rows each
 * value selects, and the 400 message for a value the filter cannot use.
 */

let db: Database;

beforeAll(async () => {
  db = connectDatabase('sqlite::memory:');
  await migrate(db, migrations);
  const q = db.knex;
  await q.raw('PRAGMA foreign_keys = OFF');
  await q('dcim_interface').insert([
    { id: 1, device_id: 1, name: 'ge-0', type: '1000base-t', untagged_vlan_id: 10, primary_mac_address_id: 21 },
    { id: 2, device_id: 1, name: 'ae0', type: 'lag' },
    { id: 3, device_id: 1, name: 'wlan0', type: 'ieee802.11ax', qinq_svlan_id: 11 },
    { id: 4, device_id: 1, name: 'br0', type: 'bridge' },
  ]);
  const mac = (id: number, address: string, assigned: number | null) => ({
    id,
    mac_address: address,
    assigned_object_type: assigned === null ? null : 'dcim.interface',
    assigned_object_id: assigned,
  });
  await q('dcim_macaddress').insert([
    mac(21, 'AA:BB:CC:DD:EE:01', 1),
    mac(22, 'AA:BB:CC:DD:EE:03', 3),
    mac(23, 'AA:BB:CC:DD:EE:04', null),
  ]);
  await q('dcim_interface_tagged_vlans').insert([{ from_id: 4, to_id: 12 }]);
  await q('ipam_vlan').insert([
    { id: 10, vid: 100, name: 'users' },
    { id: 11, vid: 200, name: 'service' },
    { id: 12, vid: 100, name: 'users-b' },
  ]);
  await q('dcim_device').insert([
    { id: 1, device_type_id: 1, role_id: 1, site_id: 1, primary_ip4_id: 5 },
    { id: 2, device_type_id: 1, role_id: 1, site_id: 1, primary_ip6_id: 6 },
    { id: 3, device_type_id: 1, role_id: 1, site_id: 1 },
  ]);
  const address = (id: number, text: string, assigned: number | null) => ({
    id,
    address: text,
    address_family: 4,
    address_start: '0',
    address_end: '0',
    address_len: 24,
    assigned_object_type: assigned === null ? null : 'dcim.interface',
    assigned_object_id: assigned,
  });
  await q('ipam_ipaddress').insert([address(5, '192.0.2.1/24', 1), address(6, '192.0.2.2/24', null)]);
  await q('ipam_vlangroup').insert([
    { id: 1, name: 'low', slug: 'low', vid_ranges: JSON.stringify([[1, 100]]) },
    {
      id: 2,
      name: 'split',
      slug: 'split',
      vid_ranges: JSON.stringify([
        [50, 60],
        [200, 300],
      ]),
    },
  ]);
  const change = (id: number, time: string) => ({
    id,
    time,
    request_id: '00000000-0000-4000-8000-000000000000',
    action: 'create',
    changed_object_type: 'dcim.site',
    changed_object_id: id,
    object_type_name: 'dcim | site',
    object_repr: `Site ${id}`,
    related_object_type: id === 2 ? 'dcim.device' : null,
    related_object_id: id === 2 ? 7 : null,
  });
  await q('core_objectchange').insert([
    change(1, '2024-01-01T00:00:00.000000Z'),
    change(2, '2024-01-01T12:30:00.000000Z'),
    change(3, '2024-01-02T00:00:00.000000Z'),
  ]);
  await q('users_objectpermission').insert([
    { id: 1, name: 'view sites', object_types: JSON.stringify(['dcim.site']), actions: JSON.stringify(['view']) },
    {
      id: 2,
      name: 'edit devices',
      object_types: JSON.stringify(['dcim.device', 'dcim.interface']),
      actions: JSON.stringify(['view', 'change']),
    },
  ]);
});

afterAll(async () => {
  await db.close();
});

/** Ids of `label`'s rows that the filter function selects, or its message for values it refuses. */
async function filtered(
  name: keyof typeof domainFunctions,
  label: string,
  values: string[],
): Promise<number[] | string> {
  const entry = domainFunctions[name];
  if (entry.kind !== 'filter') throw new Error(`${name} is not a filter`);
  const model = schema.model(label);
  const ctx = { q: db.knex, schema, dialect: db.dialect, settings: settingsWith() };
  const condition = await entry.fn(ctx, model, values, '');
  if (typeof condition === 'string') return condition;
  const rows = (await db.knex({ t0: model.table }).select('t0.id').where(condition).orderBy('t0.id')) as {
    id: number;
  }[];
  return rows.map((r) => Number(r.id));
}

describe('interface kinds (NetBox VIRTUAL_IFACE_TYPES, WIRELESS_IFACE_TYPES)', () => {
  it('name NetBox’s types, each a type choice of both interface models', () => {
    expect([...VIRTUAL_TYPES]).toEqual(['virtual', 'lag', 'bridge']);
    expect(WIRELESS_TYPES.size).toBe(16);
    const choices = (schema.model('dcim.interface').fields.get('type') as ChoiceField).choices.map(([v]) => v);
    for (const type of [...VIRTUAL_TYPES, ...WIRELESS_TYPES]) expect(choices, type).toContain(type);
  });

  it.each([
    [['physical'], [1]],
    [['virtual'], [2, 4]],
    [['wireless'], [3]],
    [
      ['physical', 'wireless'],
      [1, 3],
    ],
    [['Virtual '], [2, 4]],
    [['optical'], 'Select a valid choice. optical is not one of the available choices.'],
  ])('kind=%j', async (values, expected) => {
    expect(await filtered('dcim.interfaceKind', 'dcim.interface', values)).toEqual(expected);
  });
});

describe('interfaces by MAC address and VLAN', () => {
  it.each([
    [['aa:bb:cc:dd:ee:01'], [1]],
    [['aabb.ccdd.ee03'], [3]],
    [
      ['AA-BB-CC-DD-EE-01', 'aabbccddee03'],
      [1, 3],
    ],
    [['aa:bb:cc:dd:ee:02'], []],
    [['aa:bb:cc'], 'Enter a valid MAC address.'],
  ])('mac_address=%j', async (values, expected) => {
    expect(await filtered('dcim.interfacesWithMac', 'dcim.interface', values)).toEqual(expected);
  });

  it.each([
    [['aa:bb:cc:dd:ee:01'], [21]],
    [
      ['aabb.ccdd.ee04', 'AA-BB-CC-DD-EE-03'],
      [22, 23],
    ],
    [['aa:bb:cc'], 'Enter a valid MAC address.'],
  ])('MAC addresses mac_address=%j', async (values, expected) => {
    expect(await filtered('dcim.macAddressesWithMac', 'dcim.macaddress', values)).toEqual(expected);
  });

  it.each([
    ['true', [21]],
    ['false', [22, 23]],
    ['maybe', 'Select a valid choice. maybe is not one of the available choices.'],
  ])('MAC addresses primary=%s', async (value, expected) => {
    expect(await filtered('dcim.primaryMacAddresses', 'dcim.macaddress', [value])).toEqual(expected);
  });

  it.each([
    ['dcim.interfacesWithVlanId', ['10'], [1]],
    ['dcim.interfacesWithVlanId', ['11'], [3]],
    ['dcim.interfacesWithVlanId', ['12'], [4]],
    ['dcim.interfacesWithVlanId', ['10', '12'], [1, 4]],
    ['dcim.interfacesWithVlanId', ['99'], []],
    // By VID: every VLAN with that VID, untagged or tagged.
    ['dcim.interfacesWithVid', ['100'], [1, 4]],
    ['dcim.interfacesWithVid', ['200'], [3]],
    ['dcim.interfacesWithVid', ['4000'], []],
    ['dcim.interfacesWithVid', ['ten'], 'Enter a whole number.'],
  ] as const)('%s %j', async (name, values, expected) => {
    expect(await filtered(name, 'dcim.interface', [...values])).toEqual(expected);
  });
});

describe('yes/no filters', () => {
  const invalid = (v: string) => `Select a valid choice. ${v} is not one of the available choices.`;
  it.each([
    ['dcim.hasPrimaryIp', 'dcim.device', 'true', [1, 2]],
    ['dcim.hasPrimaryIp', 'dcim.device', '1', [1, 2]],
    ['dcim.hasPrimaryIp', 'dcim.device', 'False', [3]],
    ['dcim.hasPrimaryIp', 'dcim.device', '0', [3]],
    ['dcim.hasPrimaryIp', 'dcim.device', 'yes', invalid('yes')],
    ['ipam.ipAddressAssigned', 'ipam.ipaddress', 'true', [5]],
    ['ipam.ipAddressAssigned', 'ipam.ipaddress', 'false', [6]],
    ['ipam.ipAddressAssigned', 'ipam.ipaddress', 'maybe', invalid('maybe')],
    ['users.canChange', 'users.objectpermission', 'true', [2]],
    ['users.canChange', 'users.objectpermission', 'false', [1]],
    ['users.canView', 'users.objectpermission', 'true', [1, 2]],
    ['users.canDelete', 'users.objectpermission', 'true', []],
  ] as const)('%s on %s: %s', async (name, label, value, expected) => {
    expect(await filtered(name, label, [value])).toEqual(expected);
  });
});

describe('other filters', () => {
  it.each([
    ['ipam.vlanGroupContainsVid', 'ipam.vlangroup', ['55'], [1, 2]],
    ['ipam.vlanGroupContainsVid', 'ipam.vlangroup', ['100'], [1]],
    ['ipam.vlanGroupContainsVid', 'ipam.vlangroup', ['300'], [2]],
    ['ipam.vlanGroupContainsVid', 'ipam.vlangroup', ['301'], []],
    [
      'ipam.vlanGroupContainsVid',
      'ipam.vlangroup',
      ['x'],
      'Select a valid choice. x is not one of the available choices.',
    ],
    ['ipam.searchVid', 'ipam.vlan', ['100'], [10, 12]],
    ['ipam.searchVid', 'ipam.vlan', ['users'], 'not a VID'],
    ['ipam.searchVid', 'ipam.vlan', ['10000'], 'not a VID'],
  ] as const)('%s %j', async (name, label, values, expected) => {
    expect(await filtered(name, label, [...values])).toEqual(expected);
  });

  it.each([
    ['core.timeAfter', '2024-01-01', [1, 2, 3]],
    ['core.timeAfter', '2024-01-01T12:00:00Z', [2, 3]],
    ['core.timeAfter', '2024-01-01T12:30:00+00:00', [2, 3]],
    ['core.timeAfter', '2024-01-01T13:30:00+01:00', [2, 3]],
    ['core.timeBefore', '2024-01-01T12:30:00Z', [1, 2]],
    ['core.timeBefore', '2024-01-01', [1]],
    ['core.timeAfter', 'yesterday', 'Enter a valid date/time.'],
  ] as const)('%s %s', async (name, value, expected) => {
    expect(await filtered(name, 'core.objectchange', [value])).toEqual(expected);
  });
});
