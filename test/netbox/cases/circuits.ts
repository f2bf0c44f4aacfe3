import type { NetBoxTestCase } from '../generic.js';
import type { PortedClass } from '../harness.js';

/** Ported from NetBox 4.6.8 circuits/tests/test_api.py. */
export const circuitsCases: NetBoxTestCase[] = [
  {
    source: 'circuits/tests/test_api.py::ProviderTestCase',
    model: 'circuits.provider',
    briefFields: ['circuit_count', 'description', 'display', 'id', 'name', 'slug', 'url'],
    bulkUpdateData: { comments: 'New comments' },
    setUp: async (t) => {
      const rir = await t.make('ipam.rir', { name: 'RFC 6996', slug: 'rfc-6996', is_private: true });
      const asns = await t.makeAll(
        'ipam.asn',
        Array.from({ length: 8 }, (_, i) => ({ asn: 65000 + i, rir: rir.id })),
      );
      await t.makeAll(
        'circuits.provider',
        [1, 2, 3].map((i) => ({ name: `Provider ${i}`, slug: `provider-${i}` })),
      );
      return {
        createData: [4, 5, 6].map((i, n) => ({
          name: `Provider ${i}`,
          slug: `provider-${i}`,
          asns: [asns[2 * n]!.id, asns[2 * n + 1]!.id],
        })),
      };
    },
  },
  {
    source: 'circuits/tests/test_api.py::CircuitTypeTestCase',
    model: 'circuits.circuittype',
    briefFields: ['circuit_count', 'description', 'display', 'id', 'name', 'slug', 'url'],
    bulkUpdateData: { description: 'New description' },
    setUp: async (t) => {
      await t.makeAll(
        'circuits.circuittype',
        [1, 2, 3].map((i) => ({ name: `Circuit Type ${i}`, slug: `circuit-type-${i}` })),
      );
      return { createData: [4, 5, 6].map((i) => ({ name: `Circuit Type ${i}`, slug: `circuit-type-${i}` })) };
    },
  },
  {
    source: 'circuits/tests/test_api.py::CircuitTestCase',
    model: 'circuits.circuit',
    briefFields: ['cid', 'description', 'display', 'id', 'provider', 'url'],
    bulkUpdateData: { status: 'planned' },
    userPermissions: ['circuits.view_provider', 'circuits.view_circuittype'],
    setUp: async (t) => {
      const [provider1, provider2] = await t.makeAll('circuits.provider', [
        { name: 'Provider 1', slug: 'provider-1' },
        { name: 'Provider 2', slug: 'provider-2' },
      ]);
      const [account1, account2] = await t.makeAll('circuits.provideraccount', [
        { name: 'Provider Account 1', provider: provider1!.id, account: '1234' },
        { name: 'Provider Account 2', provider: provider2!.id, account: '2345' },
      ]);
      const [type1, type2] = await t.makeAll('circuits.circuittype', [
        { name: 'Circuit Type 1', slug: 'circuit-type-1' },
        { name: 'Circuit Type 2', slug: 'circuit-type-2' },
      ]);
      await t.makeAll(
        'circuits.circuit',
        [1, 2, 3].map((i) => ({
          cid: `Circuit ${i}`,
          provider: provider1!.id,
          provider_account: account1!.id,
          type: type1!.id,
        })),
      );
      const create = { provider: provider2!.id, type: type2!.id };
      return {
        createData: [
          { cid: 'Circuit 4', ...create, provider_account: account2!.id },
          { cid: 'Circuit 5', ...create, provider_account: account2!.id },
          // NetBox omits the provider account here to test the uniqueness constraint.
          { cid: 'Circuit 6', ...create },
        ],
      };
    },
  },
  {
    source: 'circuits/tests/test_api.py::CircuitTerminationTestCase',
    model: 'circuits.circuittermination',
    briefFields: ['_occupied', 'cable', 'circuit', 'description', 'display', 'id', 'term_side', 'url'],
    bulkUpdateData: { port_speed: 123456 },
    userPermissions: ['circuits.view_circuit'],
    setUp: async (t) => {
      const provider = await t.make('circuits.provider', { name: 'Provider 1', slug: 'provider-1' });
      const type = await t.make('circuits.circuittype', { name: 'Circuit Type 1', slug: 'circuit-type-1' });
      const [site1, site2] = await t.makeAll('dcim.site', [
        { name: 'Site 1', slug: 'site-1' },
        { name: 'Site 2', slug: 'site-2' },
      ]);
      const [network1, network2] = await t.makeAll('circuits.providernetwork', [
        { provider: provider.id, name: 'Provider Network 1' },
        { provider: provider.id, name: 'Provider Network 2' },
      ]);
      const circuits = await t.makeAll(
        'circuits.circuit',
        [1, 2, 3].map((i) => ({ cid: `Circuit ${i}`, provider: provider.id, type: type.id })),
      );
      const site = (id: number): Record<string, unknown> => ({ termination_type: 'dcim.site', termination_id: id });
      const network = (id: number): Record<string, unknown> => ({
        termination_type: 'circuits.providernetwork',
        termination_id: id,
      });
      await t.makeAll('circuits.circuittermination', [
        { circuit: circuits[0]!.id, term_side: 'A', ...site(site1!.id) },
        { circuit: circuits[0]!.id, term_side: 'Z', ...network(network1!.id) },
        { circuit: circuits[1]!.id, term_side: 'A', ...site(site2!.id) },
        { circuit: circuits[1]!.id, term_side: 'Z', ...network(network2!.id) },
      ]);
      return {
        createData: [
          { circuit: circuits[2]!.id, term_side: 'A', ...site(site1!.id), port_speed: 200000 },
          { circuit: circuits[2]!.id, term_side: 'Z', ...network(network1!.id), port_speed: 200000 },
        ],
      };
    },
  },
  {
    source: 'circuits/tests/test_api.py::ProviderAccountTestCase',
    model: 'circuits.provideraccount',
    briefFields: ['account', 'description', 'display', 'id', 'name', 'url'],
    userPermissions: ['circuits.view_provider'],
    setUp: async (t) => {
      const [provider1, provider2] = await t.makeAll('circuits.provider', [
        { name: 'Provider 1', slug: 'provider-1' },
        { name: 'Provider 2', slug: 'provider-2' },
      ]);
      await t.makeAll(
        'circuits.provideraccount',
        [1, 2, 3].map((i) => ({
          name: `Provider Account ${i}`,
          provider: provider1!.id,
          account: `${i}${i + 1}${i + 2}${i + 3}`,
        })),
      );
      return {
        createData: [
          { name: 'Provider Account 4', provider: provider1!.id, account: '4567' },
          { name: 'Provider Account 5', provider: provider1!.id, account: '5678' },
          // NetBox omits the name here to test the uniqueness constraint.
          { provider: provider1!.id, account: '6789' },
        ],
        bulkUpdateData: { provider: provider2!.id, description: 'New description' },
      };
    },
  },
  {
    source: 'circuits/tests/test_api.py::ProviderNetworkTestCase',
    model: 'circuits.providernetwork',
    briefFields: ['description', 'display', 'id', 'name', 'url'],
    userPermissions: ['circuits.view_provider'],
    setUp: async (t) => {
      const [provider1, provider2] = await t.makeAll('circuits.provider', [
        { name: 'Provider 1', slug: 'provider-1' },
        { name: 'Provider 2', slug: 'provider-2' },
      ]);
      await t.makeAll(
        'circuits.providernetwork',
        [1, 2, 3].map((i) => ({ name: `Provider Network ${i}`, provider: provider1!.id })),
      );
      return {
        createData: [4, 5, 6].map((i) => ({ name: `Provider Network ${i}`, provider: provider1!.id })),
        bulkUpdateData: { provider: provider2!.id, description: 'New description' },
      };
    },
  },
  {
    source: 'circuits/tests/test_api.py::CircuitGroupTestCase',
    model: 'circuits.circuitgroup',
    briefFields: ['display', 'id', 'name', 'url'],
    bulkUpdateData: { description: 'New description' },
    setUp: async (t) => {
      await t.makeAll(
        'circuits.circuitgroup',
        [1, 2, 3].map((i) => ({ name: `Circuit Group ${i}`, slug: `circuit-group-${i}` })),
      );
      return { createData: [4, 5, 6].map((i) => ({ name: `Circuit Group ${i}`, slug: `circuit-group-${i}` })) };
    },
  },
  {
    source: 'circuits/tests/test_api.py::CircuitGroupAssignmentTestCase',
    model: 'circuits.circuitgroupassignment',
    briefFields: ['display', 'group', 'id', 'member', 'member_id', 'member_type', 'priority', 'url'],
    bulkUpdateData: { priority: 'inactive' },
    userPermissions: ['circuits.view_circuit', 'circuits.view_circuitgroup'],
    setUp: async (t) => {
      const groups = await t.makeAll(
        'circuits.circuitgroup',
        [1, 2, 3, 4, 5, 6].map((i) => ({ name: `Circuit Group ${i}`, slug: `circuit-group-${i}` })),
      );
      const provider = await t.make('circuits.provider', { name: 'Provider 1', slug: 'provider-1' });
      const type = await t.make('circuits.circuittype', { name: 'Circuit Type 1', slug: 'circuit-type-1' });
      const circuits = await t.makeAll(
        'circuits.circuit',
        [1, 2, 3, 4, 5, 6].map((i) => ({ cid: `Circuit ${i}`, provider: provider.id, type: type.id })),
      );
      const priorities = ['primary', 'secondary', 'tertiary'];
      const assignment = (i: number): Record<string, unknown> => ({
        group: groups[i]!.id,
        member_type: 'circuits.circuit',
        member_id: circuits[i]!.id,
        priority: priorities[i % 3],
      });
      await t.makeAll('circuits.circuitgroupassignment', [0, 1, 2].map(assignment));
      return { createData: [3, 4, 5].map(assignment) };
    },
  },
  {
    source: 'circuits/tests/test_api.py::VirtualCircuitTypeTestCase',
    model: 'circuits.virtualcircuittype',
    briefFields: ['description', 'display', 'id', 'name', 'slug', 'url', 'virtual_circuit_count'],
    bulkUpdateData: { description: 'New description' },
    setUp: async (t) => {
      const type = (i: number): Record<string, unknown> => ({
        name: `Virtual Circuit Type ${i}`,
        slug: `virtual-circuit-type-${i}`,
      });
      await t.makeAll('circuits.virtualcircuittype', [1, 2, 3].map(type));
      return { createData: [4, 5, 6].map(type) };
    },
  },
  {
    source: 'circuits/tests/test_api.py::VirtualCircuitTestCase',
    model: 'circuits.virtualcircuit',
    briefFields: ['cid', 'description', 'display', 'id', 'provider_network', 'url'],
    bulkUpdateData: { status: 'planned' },
    setUp: async (t) => {
      const common = await virtualCircuitBasics(t);
      await t.makeAll(
        'circuits.virtualcircuit',
        [1, 2, 3].map((i) => ({ ...common, cid: `Virtual Circuit ${i}` })),
      );
      return {
        createData: [4, 5, 6].map((i) => ({ ...common, cid: `Virtual Circuit ${i}`, status: 'planned' })),
      };
    },
  },
  {
    source: 'circuits/tests/test_api.py::VirtualCircuitTerminationTestCase',
    model: 'circuits.virtualcircuittermination',
    briefFields: ['description', 'display', 'id', 'interface', 'role', 'url', 'virtual_circuit'],
    bulkUpdateData: { description: 'New description' },
    setUp: async (t) => {
      const manufacturer = await t.make('dcim.manufacturer', { name: 'Manufacturer 1', slug: 'manufacturer-1' });
      const deviceType = await t.make('dcim.devicetype', {
        manufacturer: manufacturer.id,
        model: 'Device Type 1',
        slug: 'device-type-1',
      });
      const role = await t.make('dcim.devicerole', { name: 'Device Role 1', slug: 'device-role-1' });
      const site = await t.make('dcim.site', { name: 'Site 1', slug: 'site-1' });
      const devices = await t.makeAll(
        'dcim.device',
        ['hub', 'spoke1', 'spoke2', 'spoke3'].map((name) => ({
          site: site.id,
          name,
          device_type: deviceType.id,
          role: role.id,
        })),
      );
      const physical = await t.makeAll(
        'dcim.interface',
        devices.map((d) => ({ device: d.id, name: 'eth0', type: '1000base-t' })),
      );
      const virtual = (d: number, name: string): Record<string, unknown> => ({
        device: devices[d]!.id,
        name,
        parent: physical[d]!.id,
        type: 'virtual',
      });
      // NetBox gives the spokes' eth0.9 the hub's eth0 as parent (its bulk_create skips the check that a parent
      // is on the same device); here each takes its own device's eth0.
      const interfaces = await t.makeAll('dcim.interface', [
        virtual(0, 'eth0.1'),
        virtual(0, 'eth0.2'),
        virtual(0, 'eth0.3'),
        virtual(1, 'eth0.1'),
        virtual(2, 'eth0.1'),
        virtual(3, 'eth0.1'),
        virtual(0, 'eth0.9'),
        virtual(1, 'eth0.9'),
        virtual(2, 'eth0.9'),
        virtual(3, 'eth0.9'),
      ]);
      const common = await virtualCircuitBasics(t);
      const circuits = await t.makeAll(
        'circuits.virtualcircuit',
        [1, 2, 3, 4].map((i) => ({ ...common, cid: `Virtual Circuit ${i}` })),
      );
      const termination = (c: number, role: string, i: number): Record<string, unknown> => ({
        virtual_circuit: circuits[c]!.id,
        role,
        interface: interfaces[i]!.id,
      });
      await t.makeAll('circuits.virtualcircuittermination', [
        termination(0, 'peer', 0),
        termination(0, 'peer', 3),
        termination(1, 'peer', 1),
        termination(1, 'peer', 4),
        termination(2, 'peer', 2),
        termination(2, 'peer', 5),
      ]);
      return {
        createData: [
          termination(3, 'hub', 6),
          termination(3, 'spoke', 7),
          termination(3, 'spoke', 8),
          termination(3, 'spoke', 9),
        ],
      };
    },
  },
];

/** A provider network, an account of its provider and a virtual circuit type: what a virtual circuit needs. */
async function virtualCircuitBasics(t: PortedClass): Promise<Record<string, unknown>> {
  const provider = await t.make('circuits.provider', { name: 'Provider 1', slug: 'provider-1' });
  const network = await t.make('circuits.providernetwork', { provider: provider.id, name: 'Provider Network 1' });
  const account = await t.make('circuits.provideraccount', { provider: provider.id, account: 'Provider Account 1' });
  const type = await t.make('circuits.virtualcircuittype', {
    name: 'Virtual Circuit Type 1',
    slug: 'virtual-circuit-type-1',
  });
  return { provider_network: network.id, provider_account: account.id, type: type.id };
}
