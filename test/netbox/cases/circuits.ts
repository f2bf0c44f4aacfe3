import type { NetBoxTestCase } from '../generic.js';

/**
 * Ported from NetBox 4.6.8 circuits/tests/test_api.py, for the served models. Provider accounts and provider
 * networks are not served: circuits leave out `provider_account`, and terminations at provider networks
 * terminate at a site instead.
 */
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
      const [type1, type2] = await t.makeAll('circuits.circuittype', [
        { name: 'Circuit Type 1', slug: 'circuit-type-1' },
        { name: 'Circuit Type 2', slug: 'circuit-type-2' },
      ]);
      await t.makeAll(
        'circuits.circuit',
        [1, 2, 3].map((i) => ({ cid: `Circuit ${i}`, provider: provider1!.id, type: type1!.id })),
      );
      return {
        createData: [4, 5, 6].map((i) => ({ cid: `Circuit ${i}`, provider: provider2!.id, type: type2!.id })),
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
      const circuits = await t.makeAll(
        'circuits.circuit',
        [1, 2, 3].map((i) => ({ cid: `Circuit ${i}`, provider: provider.id, type: type.id })),
      );
      const site = (id: number): Record<string, unknown> => ({ termination_type: 'dcim.site', termination_id: id });
      await t.makeAll('circuits.circuittermination', [
        { circuit: circuits[0]!.id, term_side: 'A', ...site(site1!.id) },
        { circuit: circuits[0]!.id, term_side: 'Z', ...site(site2!.id) },
        { circuit: circuits[1]!.id, term_side: 'A', ...site(site2!.id) },
        { circuit: circuits[1]!.id, term_side: 'Z', ...site(site1!.id) },
      ]);
      return {
        createData: [
          { circuit: circuits[2]!.id, term_side: 'A', ...site(site1!.id), port_speed: 200000 },
          { circuit: circuits[2]!.id, term_side: 'Z', ...site(site2!.id), port_speed: 200000 },
        ],
      };
    },
  },
];
