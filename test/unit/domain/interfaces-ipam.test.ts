import { describe, expect, it } from 'vitest';
import { canonicalMac, checkModeAllowsVlans, prepareInterface } from '../../../runtime/domain/interfaces.js';
import { domainFunctions } from '../../../runtime/domain/index.js';
import {
  checkVidRanges,
  prepareIpAddress,
  validateAggregate,
  validateIpAddress,
  validatePrefix,
  validateVlanGroup,
} from '../../../runtime/domain/ipam.js';
import { emptyQueries, errorsAfter, schema, sqlBuilder, writeItem } from './write-item.js';

/** Interface (802.1Q, MAC) and IPAM rules that need no query. */

describe('canonicalMac', () => {
  it.each([
    ['aa:bb:cc:dd:ee:ff', 'AA:BB:CC:DD:EE:FF'],
    ['AA-BB-CC-DD-EE-FF', 'AA:BB:CC:DD:EE:FF'],
    ['aabb.ccdd.eeff', 'AA:BB:CC:DD:EE:FF'],
    ['aabbccddeeff', 'AA:BB:CC:DD:EE:FF'],
    ['00:00:5e:00:53:01', '00:00:5E:00:53:01'],
  ])('%s → %s', (text, mac) => {
    expect(canonicalMac(text)).toBe(mac);
  });

  it.each([
    '',
    'aa:bb:cc:dd:ee',
    'aa:bb:cc:dd:ee:ff:00',
    'gg:bb:cc:dd:ee:ff',
    '00:00:5e:00:53:01/24',
    'aa:bb:cc:dd:ee:f',
  ])('rejects %j', (text) => {
    expect(canonicalMac(text)).toBeNull();
  });
});

describe('checkModeAllowsVlans (NetBox InterfaceSerializer.validate)', () => {
  const UNTAGGED = 'Interface mode does not support untagged vlan';
  const TAGGED = 'Interface mode does not support tagged vlans';
  const QINQ = 'Interface mode does not support q-in-q service vlan';
  it.each([
    ['no mode and no VLANs', { mode: null }, {}],
    ['access with an untagged VLAN', { mode: 'access', untagged_vlan: 5 }, {}],
    ['tagged with both kinds', { mode: 'tagged', untagged_vlan: 5, tagged_vlans: [6, 7] }, {}],
    ['q-in-q with a service VLAN and tagged VLANs', { mode: 'q-in-q', qinq_svlan: 3, tagged_vlans: [6] }, {}],
    ['no mode with an untagged VLAN', { mode: null, untagged_vlan: 5 }, { untagged_vlan: [UNTAGGED] }],
    ['no mode with tagged VLANs', { mode: '', tagged_vlans: [6] }, { tagged_vlans: [TAGGED] }],
    ['access with tagged VLANs', { mode: 'access', tagged_vlans: [6] }, { tagged_vlans: [TAGGED] }],
    ['tagged-all with tagged VLANs', { mode: 'tagged-all', tagged_vlans: [6] }, { tagged_vlans: [TAGGED] }],
    ['tagged-all with no tagged VLANs', { mode: 'tagged-all', tagged_vlans: [] }, {}],
    ['tagged with a service VLAN', { mode: 'tagged', qinq_svlan: 3 }, { qinq_svlan: [QINQ] }],
    [
      'no mode with every kind (all reported together)',
      { mode: null, untagged_vlan: 5, tagged_vlans: [6], qinq_svlan: 3 },
      { qinq_svlan: [QINQ], untagged_vlan: [UNTAGGED], tagged_vlans: [TAGGED] },
    ],
  ])('%s', async (_name, values, errors) => {
    const item = writeItem('dcim.interface', values);
    await checkModeAllowsVlans(item);
    expect(errorsAfter(item)).toEqual(errors);
  });

  it('checks the stored mode against newly written VLANs on update', async () => {
    const item = writeItem(
      'dcim.interface',
      { untagged_vlan: 5 },
      { existing: { mode: null, untagged_vlan: null }, input: { untagged_vlan: 5, tagged_vlans: [] } },
    );
    await checkModeAllowsVlans(item);
    expect(errorsAfter(item)).toEqual({ untagged_vlan: [UNTAGGED] });
  });

  it('checks a new mode against the stored tagged VLANs when the write leaves them', async () => {
    const q = sqlBuilder();
    const through = (schema.model('dcim.interface').fields.get('tagged_vlans') as { through: string }).through;
    await q.schema.createTable(through, (t) => {
      t.bigInteger('from_id');
      t.bigInteger('to_id');
    });
    await q(through).insert([
      { from_id: 1, to_id: 6 },
      { from_id: 2, to_id: 7 },
    ]);
    try {
      const toAccess = writeItem('dcim.interface', { mode: 'access' }, { id: 1, existing: { mode: 'tagged' }, q });
      await checkModeAllowsVlans(toAccess);
      expect(errorsAfter(toAccess)).toEqual({ tagged_vlans: [TAGGED] });
      const toQinq = writeItem('dcim.interface', { mode: 'q-in-q' }, { id: 1, existing: { mode: 'tagged' }, q });
      await checkModeAllowsVlans(toQinq);
      expect(errorsAfter(toQinq)).toEqual({});
      const untouched = writeItem('dcim.interface', { mode: 'access' }, { id: 3, existing: { mode: 'tagged' }, q });
      await checkModeAllowsVlans(untouched);
      expect(errorsAfter(untouched)).toEqual({});
    } finally {
      await q.destroy();
    }
  });
});

describe('prepareMacAddress (NetBox MACAddressField)', () => {
  it('stores the MAC address in its canonical form, and leaves a value it cannot read to validation', async () => {
    const prepare = domainFunctions['dcim.prepareMacAddress'].fn;
    const item = writeItem('dcim.macaddress', { mac_address: 'aa-bb-cc-dd-ee-ff' });
    await prepare(item);
    expect(item.values.mac_address).toBe('AA:BB:CC:DD:EE:FF');
    const odd = writeItem('dcim.macaddress', { mac_address: 'not a mac' });
    await prepare(odd);
    expect(odd.values.mac_address).toBe('not a mac');
  });
});

describe('prepareInterface (NetBox Interface.save)', () => {
  it('drops the untagged VLAN of an interface without a mode', () => {
    const item = writeItem('dcim.interface', { mode: null, untagged_vlan: 5 });
    prepareInterface(item);
    expect(item.values.untagged_vlan).toBeNull();
    const access = writeItem('dcim.interface', { mode: 'access', untagged_vlan: 5 });
    prepareInterface(access);
    expect(access.values.untagged_vlan).toBe(5);
  });

  it('clears the stored tagged VLANs of an existing interface that is no longer tagged', () => {
    const item = writeItem('dcim.interface', { mode: 'access' }, { existing: { mode: 'tagged', tagged_vlans: [6] } });
    prepareInterface(item);
    expect(item.values.tagged_vlans).toEqual([]);
    expect(item.input.tagged_vlans).toEqual([]);
  });

  it('keeps tagged VLANs that the write names (set after saving, as DRF does) and those of a tagged interface', () => {
    const named = writeItem('dcim.interface', { mode: 'q-in-q', tagged_vlans: [6] }, { existing: { mode: 'tagged' } });
    prepareInterface(named);
    expect(named.values.tagged_vlans).toEqual([6]);
    const tagged = writeItem(
      'dcim.interface',
      { description: 'x' },
      { existing: { mode: 'tagged', tagged_vlans: [6] } },
    );
    prepareInterface(tagged);
    expect(tagged.values.tagged_vlans).toEqual([6]);
    // A new interface has nothing stored to clear.
    const created = writeItem('dcim.interface', { mode: 'access' });
    prepareInterface(created);
    expect(created.values).not.toHaveProperty('tagged_vlans');
  });
});

describe('checkVidRanges (NetBox VLANGroup.clean)', () => {
  it.each([
    [[[1, 4094]], null],
    [[], null],
    [[[10, 10]], null],
    [
      [
        [100, 199],
        [1, 99],
      ],
      null,
    ],
    [
      [
        [1, 10],
        [11, 20],
      ],
      null,
    ],
    [[[0, 10]], 'Starting VLAN ID in range (0) cannot be less than 1'],
    [[[1, 4095]], 'Ending VLAN ID in range (4095) cannot exceed 4094'],
    [[[20, 10]], 'Ending VLAN ID in range must be greater than or equal to the starting VLAN ID (20-10)'],
    [
      [
        [1, 10],
        [10, 20],
      ],
      'Ranges cannot overlap.',
    ],
    [
      [
        [50, 60],
        [1, 100],
      ],
      'Ranges cannot overlap.',
    ],
    // Each range is checked in order before any overlap.
    [
      [
        [1, 10],
        [5, 20],
        [0, 3],
      ],
      'Starting VLAN ID in range (0) cannot be less than 1',
    ],
    [[[1.5, 10]], 'Range boundaries must be defined as integers.'],
    [[['1', '10']], 'Range boundaries must be defined as integers.'],
    [[[1, 2, 3]], 'Ranges must be specified in the form (lower, upper).'],
    [[5], 'Ranges must be specified in the form (lower, upper).'],
    [{ low: 1 }, 'Ranges must be specified in the form (lower, upper).'],
    [null, 'Ranges must be specified in the form (lower, upper).'],
  ])('%j → %j', (ranges, problem) => {
    expect(checkVidRanges(ranges)).toBe(problem);
  });

  it('reports on vid_ranges when a VLAN group is written', () => {
    const item = writeItem('ipam.vlangroup', { vid_ranges: [[0, 5]] });
    validateVlanGroup(item);
    expect(errorsAfter(item)).toEqual({ vid_ranges: ['Starting VLAN ID in range (0) cannot be less than 1'] });
  });
});

describe('prefixes and aggregates', () => {
  it.each([
    ['0.0.0.0/0', validatePrefix, 'ipam.prefix', 'Cannot create prefix with /0 mask.'],
    ['::/0', validatePrefix, 'ipam.prefix', 'Cannot create prefix with /0 mask.'],
    ['0.0.0.0/0', validateAggregate, 'ipam.aggregate', 'Cannot create aggregate with /0 mask.'],
  ])('refuse %s', async (prefix, validate, label, message) => {
    const item = writeItem(label, { prefix, vrf: null });
    await validate(item);
    expect(errorsAfter(item)).toEqual({ prefix: [message] });
  });

  it('leave a prefix that is no IP to field parsing', async () => {
    const item = writeItem('ipam.prefix', { prefix: 'nonsense' });
    await validatePrefix(item);
    expect(errorsAfter(item)).toEqual({});
  });

  it('check a global prefix for duplicates only when ENFORCE_GLOBAL_UNIQUE says so', async () => {
    const item = writeItem(
      'ipam.prefix',
      { prefix: '10.0.0.0/8', vrf: null },
      { settings: { ENFORCE_GLOBAL_UNIQUE: false } },
    );
    await validatePrefix(item); // would throw on a query
    expect(errorsAfter(item)).toEqual({});
  });
});

describe('validateIpAddress (NetBox IPAddress.clean), global table without uniqueness', () => {
  const address = (values: Record<string, unknown>) =>
    writeItem(
      'ipam.ipaddress',
      { vrf: null, status: 'active', ...values },
      // No range marked populated holds the address.
      { settings: { ENFORCE_GLOBAL_UNIQUE: false }, q: emptyQueries() },
    );
  const iface = { assigned_object_type: 'dcim.interface', assigned_object_id: 1 };
  const NETWORK = (ip: string) => ({ __all__: [`${ip} is a network ID, which may not be assigned to an interface.`] });
  const BROADCAST = (ip: string) => ({
    __all__: [`${ip} is a broadcast address, which may not be assigned to an interface.`],
  });

  it.each([
    ['a host address on an interface', { address: '192.0.2.1/24', ...iface }, {}],
    ['a network ID unassigned', { address: '192.0.2.0/24' }, {}],
    ['a broadcast address unassigned', { address: '192.0.2.255/24' }, {}],
    ['a network ID on an interface', { address: '192.0.2.0/24', ...iface }, NETWORK('192.0.2.0')],
    ['a broadcast address on an interface', { address: '192.0.2.255/24', ...iface }, BROADCAST('192.0.2.255')],
    ['the lower address of a /31', { address: '192.0.2.0/31', ...iface }, {}],
    ['the upper address of a /31', { address: '192.0.2.1/31', ...iface }, {}],
    ['a /32', { address: '192.0.2.7/32', ...iface }, {}],
    ['an IPv6 subnet-router anycast address', { address: '2001:db8::/64', ...iface }, NETWORK('2001:db8::')],
    ['the last IPv6 address (no broadcast in IPv6)', { address: '2001:db8::ffff:ffff:ffff:ffff/64', ...iface }, {}],
    ['an IPv6 /127', { address: '2001:db8::/127', ...iface }, {}],
    ['a /0', { address: '0.0.0.0/0' }, { address: ['Cannot create IP address with /0 mask.'] }],
    [
      'SLAAC on IPv4',
      { address: '192.0.2.1/24', status: 'slaac' },
      { status: ['Only IPv6 addresses can be assigned SLAAC status'] },
    ],
    ['SLAAC on IPv6', { address: '2001:db8::1/64', status: 'slaac' }, {}],
  ])('%s', async (_name, values, errors) => {
    const item = address(values);
    await validateIpAddress(item);
    expect(errorsAfter(item)).toEqual(errors);
  });
});

describe('prepareIpAddress', () => {
  it.each([
    ['192.0.2.77/24', '192.0.2.0/24'],
    ['2001:db8::1/64', '2001:db8::/64'],
    ['10.1.2.3/32', '10.1.2.3/32'],
  ])('keeps the network of %s (%s) for ordering', (address, network) => {
    const item = writeItem('ipam.ipaddress', { address });
    prepareIpAddress(item);
    expect(item.values._network).toBe(network);
  });
});
