import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/app.js';
import type { ApiClient } from '../support/client.js';
import { changeLoggedTests, createAll, filterSetSuite, query, useApp, type Row } from '../support/filtersets.js';

/** NetBox 4.6.8 circuits/tests/test_filtersets.py. */
describe.each(DIALECTS)('circuits filter sets on %s', (dialect) => {
  const shared = useApp(dialect);

  describe('ProviderTestCase', () => {
    const suite = filterSetSuite(shared, 'circuits.provider', async (api) => {
      const [rir] = await createAll(api, '/api/ipam/rirs/', [{ name: 'RFC 6996', slug: 'rfc-6996', is_private: true }]);
      const asns = await createAll(api, '/api/ipam/asns/', [
        { asn: 64512, rir: rir!.id },
        { asn: 64513, rir: rir!.id },
        { asn: 64514, rir: rir!.id },
      ]);
      const providers = await createAll(api, '/api/circuits/providers/', [
        { name: 'Provider 1', slug: 'provider-1', description: 'foobar1', asns: [asns[0]!.id] },
        { name: 'Provider 2', slug: 'provider-2', description: 'foobar2', asns: [asns[1]!.id] },
        { name: 'Provider 3', slug: 'provider-3', asns: [asns[2]!.id] },
        { name: 'Provider 4', slug: 'provider-4' },
        { name: 'Provider 5', slug: 'provider-5' },
      ]);
      const regions = await createAll(api, '/api/dcim/regions/', [
        { name: 'Test Region 1', slug: 'test-region-1' },
        { name: 'Test Region 2', slug: 'test-region-2' },
      ]);
      const site_groups = await createAll(api, '/api/dcim/site-groups/', [
        { name: 'Site Group 1', slug: 'site-group-1' },
        { name: 'Site Group 2', slug: 'site-group-2' },
        { name: 'Site Group 3', slug: 'site-group-3' },
      ]);
      const sites = await createAll(api, '/api/dcim/sites/', [
        { name: 'Test Site 1', slug: 'test-site-1', region: regions[0]!.id, group: site_groups[0]!.id },
        { name: 'Test Site 2', slug: 'test-site-2', region: regions[1]!.id, group: site_groups[1]!.id },
      ]);
      const circuit_types = await createAll(api, '/api/circuits/circuit-types/', [
        { name: 'Test Circuit Type 1', slug: 'test-circuit-type-1' },
        { name: 'Test Circuit Type 2', slug: 'test-circuit-type-2' },
      ]);
      const circuits = await createAll(api, '/api/circuits/circuits/', [
        { provider: providers[0]!.id, type: circuit_types[0]!.id, cid: 'Circuit 1' },
        { provider: providers[1]!.id, type: circuit_types[1]!.id, cid: 'Circuit 2' },
      ]);
      const circuit_terminations = await createAll(api, '/api/circuits/circuit-terminations/', [
        { circuit: circuits[0]!.id, termination_type: 'dcim.site', termination_id: sites[0]!.id, term_side: 'A' },
        { circuit: circuits[1]!.id, termination_type: 'dcim.site', termination_id: sites[0]!.id, term_side: 'A' },
      ]);
      return { rir, asns, providers, regions, site_groups, sites, circuit_types, circuits, circuit_terminations };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Provider 1', 'Provider 2'] })).toBe(2);
    });
    it('test_slug', async () => {
      expect(await suite.count({ slug: ['provider-1', 'provider-2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_asn', async () => {
      const d = suite.data;
      const asns = d.asns.slice(0, 2);
      expect(await suite.count({ asn_id: [asns[0]!.id, asns[1]!.id] })).toBe(2);
      expect(await suite.count({ asn: [asns[0]!.asn, asns[1]!.asn] })).toBe(2);
    });
    it('test_region', async () => {
      const d = suite.data;
      const regions = d.regions.slice(0, 2);
      expect(await suite.count({ region_id: [regions[0]!.id, regions[1]!.id] })).toBe(2);
      expect(await suite.count({ region: [regions[0]!.slug, regions[1]!.slug] })).toBe(2);
    });
    it('test_site_group', async () => {
      const d = suite.data;
      const site_groups = d.site_groups.slice(0, 2);
      expect(await suite.count({ site_group_id: [site_groups[0]!.id, site_groups[1]!.id] })).toBe(2);
      expect(await suite.count({ site_group: [site_groups[0]!.slug, site_groups[1]!.slug] })).toBe(2);
    });
    it('test_site', async () => {
      const d = suite.data;
      const sites = d.sites.slice(0, 2);
      expect(await suite.count({ site_id: [sites[0]!.id, sites[1]!.id] })).toBe(2);
      expect(await suite.count({ site: [sites[0]!.slug, sites[1]!.slug] })).toBe(2);
    });
  });

  describe('CircuitTypeTestCase', () => {
    const suite = filterSetSuite(shared, 'circuits.circuittype', async (api) => {
      const circuit_types = await createAll(api, '/api/circuits/circuit-types/', [
        { name: 'Circuit Type 1', slug: 'circuit-type-1', description: 'foobar1' },
        { name: 'Circuit Type 2', slug: 'circuit-type-2', description: 'foobar2' },
        { name: 'Circuit Type 3', slug: 'circuit-type-3' },
      ]);
      return { circuit_types };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Circuit Type 1'] })).toBe(1);
    });
    it('test_slug', async () => {
      expect(await suite.count({ slug: ['circuit-type-1'] })).toBe(1);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
  });

  describe('CircuitTestCase', () => {
    const suite = filterSetSuite(shared, 'circuits.circuit', async (api) => {
      const regions = await createAll(api, '/api/dcim/regions/', [
        { name: 'Test Region 1', slug: 'test-region-1' },
        { name: 'Test Region 2', slug: 'test-region-2' },
        { name: 'Test Region 3', slug: 'test-region-3' },
      ]);
      const site_groups = await createAll(api, '/api/dcim/site-groups/', [
        { name: 'Site Group 1', slug: 'site-group-1' },
        { name: 'Site Group 2', slug: 'site-group-2' },
        { name: 'Site Group 3', slug: 'site-group-3' },
      ]);
      const sites = await createAll(api, '/api/dcim/sites/', [
        { name: 'Test Site 1', slug: 'test-site-1', region: regions[0]!.id, group: site_groups[0]!.id },
        { name: 'Test Site 2', slug: 'test-site-2', region: regions[1]!.id, group: site_groups[1]!.id },
        { name: 'Test Site 3', slug: 'test-site-3', region: regions[2]!.id, group: site_groups[2]!.id },
      ]);
      const tenant_groups = await createAll(api, '/api/tenancy/tenant-groups/', [
        { name: 'Tenant group 1', slug: 'tenant-group-1' },
        { name: 'Tenant group 2', slug: 'tenant-group-2' },
        { name: 'Tenant group 3', slug: 'tenant-group-3' },
      ]);
      const tenants = await createAll(api, '/api/tenancy/tenants/', [
        { name: 'Tenant 1', slug: 'tenant-1', group: tenant_groups[0]!.id },
        { name: 'Tenant 2', slug: 'tenant-2', group: tenant_groups[1]!.id },
        { name: 'Tenant 3', slug: 'tenant-3', group: tenant_groups[2]!.id },
      ]);
      const circuit_types = await createAll(api, '/api/circuits/circuit-types/', [
        { name: 'Test Circuit Type 1', slug: 'test-circuit-type-1' },
        { name: 'Test Circuit Type 2', slug: 'test-circuit-type-2' },
      ]);
      const providers = await createAll(api, '/api/circuits/providers/', [
        { name: 'Provider 1', slug: 'provider-1' },
        { name: 'Provider 2', slug: 'provider-2' },
        { name: 'Provider 3', slug: 'provider-3' },
      ]);
      const provider_accounts = await createAll(api, '/api/circuits/provider-accounts/', [
        { name: 'Provider Account 1', provider: providers[0]!.id, account: 'A' },
        { name: 'Provider Account 2', provider: providers[1]!.id, account: 'B' },
        // NetBox's account 3 is provider 3's while its circuits 5 and 6 are provider 2's (bulk_create skips the
        // check that a circuit's account is its provider's): here it is provider 2's.
        { name: 'Provider Account 3', provider: providers[1]!.id, account: 'C' },
      ]);
      const provider_networks = await createAll(api, '/api/circuits/provider-networks/', [
        { name: 'Provider Network 1', provider: providers[1]!.id },
        { name: 'Provider Network 2', provider: providers[1]!.id },
        { name: 'Provider Network 3', provider: providers[1]!.id },
      ]);
      const locations = await createAll(api, '/api/dcim/locations/', [
        { site: sites[0]!.id, name: 'Test Location 1', slug: 'test-location-1', status: 'active' },
        { site: sites[1]!.id, name: 'Test Location 2', slug: 'test-location-2', status: 'active' },
      ]);
      const circuits = await createAll(api, '/api/circuits/circuits/', [
        {
          provider: providers[0]!.id,
          tenant: tenants[0]!.id,
          type: circuit_types[0]!.id,
          provider_account: provider_accounts[0]!.id,
          cid: 'Test Circuit 1',
          install_date: '2020-01-01',
          termination_date: '2021-01-01',
          commit_rate: 1000,
          status: 'active',
          description: 'foobar1',
          distance: 10,
          distance_unit: 'ft',
        },
        {
          provider: providers[0]!.id,
          tenant: tenants[0]!.id,
          type: circuit_types[0]!.id,
          provider_account: provider_accounts[0]!.id,
          cid: 'Test Circuit 2',
          install_date: '2020-01-02',
          termination_date: '2021-01-02',
          commit_rate: 2000,
          status: 'active',
          description: 'foobar2',
          distance: 20,
          distance_unit: 'm',
        },
        {
          provider: providers[0]!.id,
          tenant: tenants[1]!.id,
          type: circuit_types[0]!.id,
          // NetBox gives this circuit of provider 1 the account of provider 2; test_provider_account counts it
          // either way.
          provider_account: provider_accounts[0]!.id,
          cid: 'Test Circuit 3',
          install_date: '2020-01-03',
          termination_date: '2021-01-03',
          commit_rate: 3000,
          status: 'planned',
          distance: 30,
          distance_unit: 'm',
        },
        {
          provider: providers[1]!.id,
          tenant: tenants[1]!.id,
          type: circuit_types[1]!.id,
          provider_account: provider_accounts[1]!.id,
          cid: 'Test Circuit 4',
          install_date: '2020-01-04',
          termination_date: '2021-01-04',
          commit_rate: 4000,
          status: 'planned',
        },
        {
          provider: providers[1]!.id,
          tenant: tenants[2]!.id,
          type: circuit_types[1]!.id,
          provider_account: provider_accounts[2]!.id,
          cid: 'Test Circuit 5',
          install_date: '2020-01-05',
          termination_date: '2021-01-05',
          commit_rate: 5000,
          status: 'offline',
        },
        {
          provider: providers[1]!.id,
          tenant: tenants[2]!.id,
          type: circuit_types[1]!.id,
          provider_account: provider_accounts[2]!.id,
          cid: 'Test Circuit 6',
          install_date: '2020-01-06',
          termination_date: '2021-01-06',
          commit_rate: 6000,
          status: 'offline',
        },
      ]);
      const circuit_terminations = await createAll(api, '/api/circuits/circuit-terminations/', [
        { circuit: circuits[0]!.id, termination_type: 'dcim.site', termination_id: sites[0]!.id, term_side: 'A' },
        {
          circuit: circuits[0]!.id,
          termination_type: 'dcim.location',
          termination_id: locations[0]!.id,
          term_side: 'Z',
        },
        { circuit: circuits[1]!.id, termination_type: 'dcim.site', termination_id: sites[1]!.id, term_side: 'A' },
        {
          circuit: circuits[1]!.id,
          termination_type: 'dcim.location',
          termination_id: locations[1]!.id,
          term_side: 'Z',
        },
        { circuit: circuits[2]!.id, termination_type: 'dcim.site', termination_id: sites[2]!.id, term_side: 'A' },
        ...[3, 4, 5].map((i) => ({
          circuit: circuits[i]!.id,
          termination_type: 'circuits.providernetwork',
          termination_id: provider_networks[i - 3]!.id,
          term_side: 'A',
        })),
      ]);
      return {
        provider_accounts,
        provider_networks,
        regions,
        site_groups,
        sites,
        tenant_groups,
        tenants,
        circuit_types,
        providers,
        locations,
        circuits,
        circuit_terminations,
      };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_cid', async () => {
      expect(await suite.count({ cid: ['Test Circuit 1', 'Test Circuit 2'] })).toBe(2);
    });
    it('test_install_date', async () => {
      expect(await suite.count({ install_date: ['2020-01-01', '2020-01-02'] })).toBe(2);
    });
    it('test_termination_date', async () => {
      expect(await suite.count({ termination_date: ['2021-01-01', '2021-01-02'] })).toBe(2);
    });
    it('test_commit_rate', async () => {
      expect(await suite.count({ commit_rate: ['1000', '2000'] })).toBe(2);
    });
    it('test_provider', async () => {
      const provider = suite.data.providers[0]!;
      expect(await suite.count({ provider_id: [provider.id] })).toBe(3);
      expect(await suite.count({ provider: [provider.slug] })).toBe(3);
    });
    it('test_provider_account', async () => {
      const [a, b] = suite.data.provider_accounts;
      expect(await suite.count({ provider_account_id: [a!.id, b!.id] })).toBe(4);
    });
    it('test_provider_network', async () => {
      const [a, b] = suite.data.provider_networks;
      expect(await suite.count({ provider_network_id: [a!.id, b!.id] })).toBe(2);
    });
    it('test_type', async () => {
      const circuit_type = suite.data.circuit_types[0]!;
      expect(await suite.count({ type_id: [circuit_type.id] })).toBe(3);
      expect(await suite.count({ type: [circuit_type.slug] })).toBe(3);
    });
    it('test_status', async () => {
      expect(await suite.count({ status: ['active', 'planned'] })).toBe(4);
    });
    it('test_distance', async () => {
      expect(await suite.count({ distance: [10, 20] })).toBe(2);
    });
    it('test_distance_unit', async () => {
      expect(await suite.count({ distance_unit: 'ft' })).toBe(1);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_region', async () => {
      const d = suite.data;
      const regions = d.regions.slice(0, 2);
      expect(await suite.count({ region_id: [regions[0]!.id, regions[1]!.id] })).toBe(2);
      expect(await suite.count({ region: [regions[0]!.slug, regions[1]!.slug] })).toBe(2);
    });
    it('test_site_group', async () => {
      const d = suite.data;
      const site_groups = d.site_groups.slice(0, 2);
      expect(await suite.count({ site_group_id: [site_groups[0]!.id, site_groups[1]!.id] })).toBe(2);
      expect(await suite.count({ site_group: [site_groups[0]!.slug, site_groups[1]!.slug] })).toBe(2);
    });
    it('test_site', async () => {
      const d = suite.data;
      const sites = d.sites.slice(0, 2);
      expect(await suite.count({ site_id: [sites[0]!.id, sites[1]!.id] })).toBe(2);
      expect(await suite.count({ site: [sites[0]!.slug, sites[1]!.slug] })).toBe(2);
    });
    it('test_location', async () => {
      const location_ids = suite.data.locations.slice(0, 2).map((l) => l.id as number);
      expect(await suite.count({ location_id: location_ids })).toBe(2);
    });
    it('test_tenant', async () => {
      const d = suite.data;
      const tenants = d.tenants.slice(0, 2);
      expect(await suite.count({ tenant_id: [tenants[0]!.id, tenants[1]!.id] })).toBe(4);
      expect(await suite.count({ tenant: [tenants[0]!.slug, tenants[1]!.slug] })).toBe(4);
    });
    it('test_tenant_group', async () => {
      const d = suite.data;
      const tenant_groups = d.tenant_groups.slice(0, 2);
      expect(await suite.count({ tenant_group_id: [tenant_groups[0]!.id, tenant_groups[1]!.id] })).toBe(4);
      expect(await suite.count({ tenant_group: [tenant_groups[0]!.slug, tenant_groups[1]!.slug] })).toBe(4);
    });
  });

  describe('CircuitTerminationTestCase', () => {
    const suite = filterSetSuite(shared, 'circuits.circuittermination', async (api) => {
      const sites = await createAll(api, '/api/dcim/sites/', [
        { name: 'Site 1', slug: 'site-1' },
        { name: 'Site 2', slug: 'site-2' },
        { name: 'Site 3', slug: 'site-3' },
      ]);
      const circuit_types = await createAll(api, '/api/circuits/circuit-types/', [
        { name: 'Circuit Type 1', slug: 'circuit-type-1' },
      ]);
      const providers = await createAll(api, '/api/circuits/providers/', [
        { name: 'Provider 1', slug: 'provider-1' },
        { name: 'Provider 2', slug: 'provider-2' },
        { name: 'Provider 3', slug: 'provider-3' },
      ]);
      const provider_networks = await createAll(api, '/api/circuits/provider-networks/', [
        { name: 'Provider Network 1', provider: providers[0]!.id },
        { name: 'Provider Network 2', provider: providers[1]!.id },
        { name: 'Provider Network 3', provider: providers[2]!.id },
      ]);
      // Cables are not served here (test_cabled and test_occupied are left out).
      const network = (i: number): Record<string, unknown> => ({
        termination_type: 'circuits.providernetwork',
        termination_id: provider_networks[i]!.id,
      });
      const circuits = await createAll(api, '/api/circuits/circuits/', [
        { provider: providers[0]!.id, type: circuit_types[0]!.id, cid: 'Circuit 1' },
        { provider: providers[1]!.id, type: circuit_types[0]!.id, cid: 'Circuit 2' },
        { provider: providers[2]!.id, type: circuit_types[0]!.id, cid: 'Circuit 3' },
        { provider: providers[0]!.id, type: circuit_types[0]!.id, cid: 'Circuit 4' },
        { provider: providers[1]!.id, type: circuit_types[0]!.id, cid: 'Circuit 5' },
        { provider: providers[2]!.id, type: circuit_types[0]!.id, cid: 'Circuit 6' },
        { provider: providers[2]!.id, type: circuit_types[0]!.id, cid: 'Circuit 7' },
      ]);
      const circuit_terminations = await createAll(api, '/api/circuits/circuit-terminations/', [
        {
          circuit: circuits[0]!.id,
          termination_type: 'dcim.site',
          termination_id: sites[0]!.id,
          term_side: 'A',
          port_speed: 1000,
          upstream_speed: 1000,
          xconnect_id: 'ABC',
          description: 'foobar1',
        },
        {
          circuit: circuits[0]!.id,
          termination_type: 'dcim.site',
          termination_id: sites[1]!.id,
          term_side: 'Z',
          port_speed: 1000,
          upstream_speed: 1000,
          xconnect_id: 'DEF',
          description: 'foobar2',
        },
        {
          circuit: circuits[1]!.id,
          termination_type: 'dcim.site',
          termination_id: sites[1]!.id,
          term_side: 'A',
          port_speed: 2000,
          upstream_speed: 2000,
          xconnect_id: 'GHI',
        },
        {
          circuit: circuits[1]!.id,
          termination_type: 'dcim.site',
          termination_id: sites[2]!.id,
          term_side: 'Z',
          port_speed: 2000,
          upstream_speed: 2000,
          xconnect_id: 'JKL',
        },
        {
          circuit: circuits[2]!.id,
          termination_type: 'dcim.site',
          termination_id: sites[2]!.id,
          term_side: 'A',
          port_speed: 3000,
          upstream_speed: 3000,
          xconnect_id: 'MNO',
        },
        {
          circuit: circuits[2]!.id,
          termination_type: 'dcim.site',
          termination_id: sites[0]!.id,
          term_side: 'Z',
          port_speed: 3000,
          upstream_speed: 3000,
          xconnect_id: 'PQR',
        },
        { circuit: circuits[3]!.id, ...network(0), term_side: 'A' },
        { circuit: circuits[4]!.id, ...network(1), term_side: 'A' },
        { circuit: circuits[5]!.id, ...network(2), term_side: 'A' },
        { circuit: circuits[6]!.id, ...network(0), term_side: 'A', mark_connected: true },
      ]);
      // NetBox cables the first termination to the second.
      const [first, second] = circuit_terminations as { id: number }[];
      const end = (id: number) => [{ object_type: 'circuits.circuittermination', object_id: id }];
      const cable = await api.post('/api/dcim/cables/', {
        a_terminations: end(first!.id),
        b_terminations: end(second!.id),
      });
      expect(cable.status, cable.text).toBe(201);
      return { sites, circuit_types, providers, provider_networks, circuits, circuit_terminations };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_term_side', async () => {
      expect(await suite.count({ term_side: 'A' })).toBe(7);
    });
    it('test_port_speed', async () => {
      expect(await suite.count({ port_speed: ['1000', '2000'] })).toBe(4);
    });
    it('test_upstream_speed', async () => {
      expect(await suite.count({ upstream_speed: ['1000', '2000'] })).toBe(4);
    });
    it('test_xconnect_id', async () => {
      expect(await suite.count({ xconnect_id: ['ABC', 'DEF'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_circuit_id', async () => {
      const circuits = suite.data.circuits.filter((c) => ['Circuit 1', 'Circuit 2'].includes(c.cid));
      expect(await suite.count({ circuit_id: [circuits[0]!.id, circuits[1]!.id] })).toBe(4);
    });
    it('test_provider', async () => {
      const d = suite.data;
      const providers = d.providers.slice(0, 2);
      expect(await suite.count({ provider_id: [providers[0]!.id, providers[1]!.id] })).toBe(6);
      expect(await suite.count({ provider: [providers[0]!.slug, providers[1]!.slug] })).toBe(6);
    });
    it('test_site', async () => {
      const d = suite.data;
      const sites = d.sites.slice(0, 2);
      expect(await suite.count({ site_id: [sites[0]!.id, sites[1]!.id] })).toBe(4);
      expect(await suite.count({ site: [sites[0]!.slug, sites[1]!.slug] })).toBe(4);
    });
    it('test_provider_network', async () => {
      const [a, b] = suite.data.provider_networks;
      expect(await suite.count({ provider_network_id: [a!.id, b!.id] })).toBe(3);
    });
    it('test_cabled', async () => {
      expect(await suite.count({ cabled: 'true' })).toBe(2);
      expect(await suite.count({ cabled: 'false' })).toBe(8);
    });
    it('test_occupied', async () => {
      expect(await suite.count({ occupied: 'true' })).toBe(3);
      expect(await suite.count({ occupied: 'false' })).toBe(7);
    });
  });

  describe('ProviderNetworkTestCase', () => {
    const suite = filterSetSuite(shared, 'circuits.providernetwork', async (api) => {
      const providers = await createAll(api, '/api/circuits/providers/', [
        { name: 'Provider 1', slug: 'provider-1' },
        { name: 'Provider 2', slug: 'provider-2' },
        { name: 'Provider 3', slug: 'provider-3' },
      ]);
      const provider_networks = await createAll(api, '/api/circuits/provider-networks/', [
        { name: 'Provider Network 1', provider: providers[0]!.id, description: 'foobar1' },
        { name: 'Provider Network 2', provider: providers[1]!.id, description: 'foobar2' },
        { name: 'Provider Network 3', provider: providers[2]!.id },
      ]);
      return { providers, provider_networks };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Provider Network 1', 'Provider Network 2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_provider', async () => {
      const [a, b] = suite.data.providers;
      expect(await suite.count({ provider_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ provider: [a!.slug, b!.slug] })).toBe(2);
    });
  });

  describe('ProviderAccountTestCase', () => {
    const suite = filterSetSuite(shared, 'circuits.provideraccount', async (api) => {
      const providers = await createAll(api, '/api/circuits/providers/', [
        { name: 'Provider 1', slug: 'provider-1' },
        { name: 'Provider 2', slug: 'provider-2' },
        { name: 'Provider 3', slug: 'provider-3' },
      ]);
      const provider_accounts = await createAll(api, '/api/circuits/provider-accounts/', [
        { name: 'Provider Account 1', provider: providers[0]!.id, description: 'foobar1', account: '1234' },
        { name: 'Provider Account 2', provider: providers[1]!.id, description: 'foobar2', account: '2345' },
        { name: 'Provider Account 3', provider: providers[2]!.id, account: '3456' },
      ]);
      return { providers, provider_accounts };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Provider Account 1', 'Provider Account 2'] })).toBe(2);
    });
    it('test_account', async () => {
      expect(await suite.count({ account: ['1234', '3456'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_provider', async () => {
      const [a, b] = suite.data.providers;
      expect(await suite.count({ provider_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ provider: [a!.slug, b!.slug] })).toBe(2);
    });
  });

  describe('CircuitGroupTestCase', () => {
    const suite = filterSetSuite(shared, 'circuits.circuitgroup', async (api) => {
      const tenant_groups = await createAll(
        api,
        '/api/tenancy/tenant-groups/',
        [1, 2, 3].map((i) => ({ name: `Tenant group ${i}`, slug: `tenant-group-${i}` })),
      );
      const tenants = await createAll(
        api,
        '/api/tenancy/tenants/',
        [1, 2, 3].map((i) => ({ name: `Tenant ${i}`, slug: `tenant-${i}`, group: tenant_groups[i - 1]!.id })),
      );
      const circuit_groups = await createAll(api, '/api/circuits/circuit-groups/', [
        { name: 'Circuit Group 1', slug: 'circuit-group-1', description: 'foobar1', tenant: tenants[0]!.id },
        { name: 'Circuit Group 2', slug: 'circuit-group-2', description: 'foobar2', tenant: tenants[1]!.id },
        { name: 'Circuit Group 3', slug: 'circuit-group-3', tenant: tenants[1]!.id },
      ]);
      return { tenant_groups, tenants, circuit_groups };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Circuit Group 1'] })).toBe(1);
    });
    it('test_slug', async () => {
      expect(await suite.count({ slug: ['circuit-group-1'] })).toBe(1);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_tenant', async () => {
      const [a, b] = suite.data.tenants;
      expect(await suite.count({ tenant_id: [a!.id, b!.id] })).toBe(3);
      expect(await suite.count({ tenant: [a!.slug, b!.slug] })).toBe(3);
    });
    it('test_tenant_group', async () => {
      const [a, b] = suite.data.tenant_groups;
      expect(await suite.count({ tenant_group_id: [a!.id, b!.id] })).toBe(3);
      expect(await suite.count({ tenant_group: [a!.slug, b!.slug] })).toBe(3);
    });
  });

  describe('CircuitGroupAssignmentTestCase', () => {
    const suite = filterSetSuite(shared, 'circuits.circuitgroupassignment', async (api) => {
      const circuit_groups = await createAll(
        api,
        '/api/circuits/circuit-groups/',
        [1, 2, 3].map((i) => ({ name: `Circuit Group ${i}`, slug: `circuit-group-${i}` })),
      );
      const providers = await createAll(
        api,
        '/api/circuits/providers/',
        [1, 2, 3].map((i) => ({ name: `Provider ${i}`, slug: `provider-${i}` })),
      );
      const [circuit_type] = await createAll(api, '/api/circuits/circuit-types/', [
        { name: 'Circuit Type 1', slug: 'circuit-type-1' },
      ]);
      const circuits = await createAll(
        api,
        '/api/circuits/circuits/',
        [0, 1, 2].map((i) => ({ cid: `Circuit ${i + 1}`, provider: providers[i]!.id, type: circuit_type!.id })),
      );
      const provider_networks = await createAll(
        api,
        '/api/circuits/provider-networks/',
        [0, 1, 2].map((i) => ({ name: `Provider Network ${i + 1}`, provider: providers[i]!.id })),
      );
      const [virtual_circuit_type] = await createAll(api, '/api/circuits/virtual-circuit-types/', [
        { name: 'Virtual Circuit Type 1', slug: 'virtual-circuit-type-1' },
      ]);
      const virtual_circuits = await createAll(
        api,
        '/api/circuits/virtual-circuits/',
        [0, 1, 2].map((i) => ({
          provider_network: provider_networks[i]!.id,
          cid: `Virtual Circuit ${i + 1}`,
          type: virtual_circuit_type!.id,
        })),
      );
      const priorities = ['primary', 'secondary', 'tertiary'];
      const assign = (type: string, members: Row[]) =>
        [0, 1, 2].map((i) => ({
          group: circuit_groups[i]!.id,
          member_type: type,
          member_id: members[i]!.id,
          priority: priorities[i],
        }));
      const assignments = await createAll(api, '/api/circuits/circuit-group-assignments/', [
        ...assign('circuits.circuit', circuits),
        ...assign('circuits.virtualcircuit', virtual_circuits),
      ]);
      return { circuit_groups, providers, circuits, provider_networks, virtual_circuits, assignments };
    });
    changeLoggedTests(suite);
    it('test_group', async () => {
      const [a, b] = suite.data.circuit_groups;
      expect(await suite.count({ group_id: [a!.id, b!.id] })).toBe(4);
      expect(await suite.count({ group: [a!.slug, b!.slug] })).toBe(4);
    });
    it('test_circuit', async () => {
      const [a, b] = suite.data.circuits;
      expect(await suite.count({ circuit_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ circuit: [a!.cid, b!.cid] })).toBe(2);
    });
    it('test_virtual_circuit', async () => {
      const [a, b] = suite.data.virtual_circuits;
      expect(await suite.count({ virtual_circuit_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ virtual_circuit: [a!.cid, b!.cid] })).toBe(2);
    });
    it('test_member_type', async () => {
      const schema = suite.app.context.schema;
      expect(await suite.count({ member_type: ['circuits.circuit'] })).toBe(3);
      expect(await suite.count({ member_type_id: [schema.objectTypeId('circuits.circuit')!] })).toBe(3);
      expect(await suite.count({ member_type_id: [schema.objectTypeId('circuits.virtualcircuit')!] })).toBe(3);
    });
    it('test_provider', async () => {
      const [a, b] = suite.data.providers;
      expect(await suite.count({ provider_id: [a!.id, b!.id] })).toBe(4);
      expect(await suite.count({ provider: [a!.slug, b!.slug] })).toBe(4);
    });
    it('test_member', async () => {
      // NetBox adds an assignment of a virtual circuit whose id is the circuit's (its create skips the check that
      // the member exists); here ids of the two models need not meet, so the added assignment names an existing
      // virtual circuit and the circuit-type filter is given that id: it matches only a circuit's assignment.
      const { api } = suite.app;
      const schema = suite.app.context.schema;
      const virtual_circuit = suite.data.virtual_circuits[0]!;
      const [group] = await createAll(api, '/api/circuits/circuit-groups/', [
        { name: 'Circuit Group 4', slug: 'circuit-group-4' },
      ]);
      const [added] = await createAll(api, '/api/circuits/circuit-group-assignments/', [
        { group: group!.id, member_type: 'circuits.virtualcircuit', member_id: virtual_circuit.id },
      ]);
      try {
        const params = { member_type_id: [schema.objectTypeId('circuits.circuit')!], member_id: [virtual_circuit.id] };
        const response = await api.get(`${suite.list}?${query(params)}`);
        const expected = suite.data.assignments
          .filter((a) => a.member_type === 'circuits.circuit' && a.member_id === virtual_circuit.id)
          .map((a) => a.id);
        expect((response.body.results as Row[]).map((a) => a.id)).toEqual(expected);
      } finally {
        expect((await api.delete(`${suite.list}${added!.id}/`)).status).toBe(204);
        expect((await api.delete(`/api/circuits/circuit-groups/${group!.id}/`)).status).toBe(204);
      }
    });
  });

  describe('VirtualCircuitTypeTestCase', () => {
    const suite = filterSetSuite(shared, 'circuits.virtualcircuittype', async (api) => {
      const virtual_circuit_types = await createAll(api, '/api/circuits/virtual-circuit-types/', [
        { name: 'Virtual Circuit Type 1', slug: 'virtual-circuit-type-1', description: 'foobar1' },
        { name: 'Virtual Circuit Type 2', slug: 'virtual-circuit-type-2', description: 'foobar2' },
        { name: 'Virtual Circuit Type 3', slug: 'virtual-circuit-type-3' },
      ]);
      return { virtual_circuit_types };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Virtual Circuit Type 1'] })).toBe(1);
    });
    it('test_slug', async () => {
      expect(await suite.count({ slug: ['virtual-circuit-type-1'] })).toBe(1);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
  });

  /** Three providers, each with an account and a network (NetBox's virtual circuit test set-ups). */
  async function providersWithNetworks(
    api: ApiClient,
    accountName: (i: number) => Row,
  ): Promise<{ providers: Row[]; provider_accounts: Row[]; provider_networks: Row[] }> {
    const providers = await createAll(
      api,
      '/api/circuits/providers/',
      [1, 2, 3].map((i) => ({ name: `Provider ${i}`, slug: `provider-${i}` })),
    );
    const provider_accounts = await createAll(
      api,
      '/api/circuits/provider-accounts/',
      [0, 1, 2].map((i) => ({ provider: providers[i]!.id, ...accountName(i + 1) })),
    );
    const provider_networks = await createAll(
      api,
      '/api/circuits/provider-networks/',
      [0, 1, 2].map((i) => ({ name: `Provider Network ${i + 1}`, provider: providers[i]!.id })),
    );
    return { providers, provider_accounts, provider_networks };
  }

  describe('VirtualCircuitTestCase', () => {
    const suite = filterSetSuite(shared, 'circuits.virtualcircuit', async (api) => {
      const tenant_groups = await createAll(
        api,
        '/api/tenancy/tenant-groups/',
        [1, 2, 3].map((i) => ({ name: `Tenant group ${i}`, slug: `tenant-group-${i}` })),
      );
      const tenants = await createAll(
        api,
        '/api/tenancy/tenants/',
        [1, 2, 3].map((i) => ({ name: `Tenant ${i}`, slug: `tenant-${i}`, group: tenant_groups[i - 1]!.id })),
      );
      const { providers, provider_accounts, provider_networks } = await providersWithNetworks(api, (i) => ({
        name: `Provider Account ${i}`,
        account: 'ABC'[i - 1],
      }));
      const virtual_circuit_types = await createAll(
        api,
        '/api/circuits/virtual-circuit-types/',
        [1, 2, 3].map((i) => ({ name: `Virtual Circuit Type ${i}`, slug: `virtual-circuit-type-${i}` })),
      );
      const statuses = ['planned', 'active', 'deprovisioning'];
      const virtual_circuits = await createAll(
        api,
        '/api/circuits/virtual-circuits/',
        [0, 1, 2].map((i) => ({
          provider_network: provider_networks[i]!.id,
          provider_account: provider_accounts[i]!.id,
          tenant: tenants[i]!.id,
          cid: `Virtual Circuit ${i + 1}`,
          type: virtual_circuit_types[i]!.id,
          status: statuses[i],
          description: `virtualcircuit${i + 1}`,
        })),
      );
      return {
        tenant_groups,
        tenants,
        providers,
        provider_accounts,
        provider_networks,
        virtual_circuit_types,
        virtual_circuits,
      };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'virtualcircuit1' })).toBe(1);
    });
    it('test_cid', async () => {
      expect(await suite.count({ cid: ['Virtual Circuit 1', 'Virtual Circuit 2'] })).toBe(2);
    });
    it('test_provider', async () => {
      const [a, b] = suite.data.providers;
      expect(await suite.count({ provider_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ provider: [a!.slug, b!.slug] })).toBe(2);
    });
    it('test_provider_account', async () => {
      const [a, b] = suite.data.provider_accounts;
      expect(await suite.count({ provider_account_id: [a!.id, b!.id] })).toBe(2);
    });
    it('test_provider_network', async () => {
      const [a, b] = suite.data.provider_networks;
      expect(await suite.count({ provider_network_id: [a!.id, b!.id] })).toBe(2);
    });
    it('test_type', async () => {
      const [a, b] = suite.data.virtual_circuit_types;
      expect(await suite.count({ type_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ type: [a!.slug, b!.slug] })).toBe(2);
    });
    it('test_status', async () => {
      expect(await suite.count({ status: ['active', 'planned'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['virtualcircuit1', 'virtualcircuit2'] })).toBe(2);
    });
    it('test_tenant', async () => {
      const [a, b] = suite.data.tenants;
      expect(await suite.count({ tenant_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ tenant: [a!.slug, b!.slug] })).toBe(2);
    });
    it('test_tenant_group', async () => {
      const [a, b] = suite.data.tenant_groups;
      expect(await suite.count({ tenant_group_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ tenant_group: [a!.slug, b!.slug] })).toBe(2);
    });
  });

  describe('VirtualCircuitTerminationTestCase', () => {
    const suite = filterSetSuite(shared, 'circuits.virtualcircuittermination', async (api) => {
      const [manufacturer] = await createAll(api, '/api/dcim/manufacturers/', [
        { name: 'Manufacturer 1', slug: 'manufacturer-1' },
      ]);
      const [device_type] = await createAll(api, '/api/dcim/device-types/', [
        { manufacturer: manufacturer!.id, model: 'Device Type 1', slug: 'device-type-1' },
      ]);
      const [device_role] = await createAll(api, '/api/dcim/device-roles/', [
        { name: 'Device Role 1', slug: 'device-role-1' },
      ]);
      const [site] = await createAll(api, '/api/dcim/sites/', [{ name: 'Site 1', slug: 'site-1' }]);
      const devices = await createAll(
        api,
        '/api/dcim/devices/',
        [1, 2, 3].map((i) => ({
          site: site!.id,
          name: `Device ${i}`,
          device_type: device_type!.id,
          role: device_role!.id,
        })),
      );
      const interfaces = await createAll(
        api,
        '/api/dcim/interfaces/',
        devices.flatMap((d) => ['eth0.1', 'eth0.2'].map((name) => ({ device: d.id, name, type: 'virtual' }))),
      );
      const { providers, provider_accounts, provider_networks } = await providersWithNetworks(api, (i) => ({
        account: `Provider Account ${i}`,
      }));
      const [virtual_circuit_type] = await createAll(api, '/api/circuits/virtual-circuit-types/', [
        { name: 'Virtual Circuit Type 1', slug: 'virtual-circuit-type-1' },
      ]);
      const virtual_circuits = await createAll(
        api,
        '/api/circuits/virtual-circuits/',
        [0, 1, 2].map((i) => ({
          provider_network: provider_networks[i]!.id,
          provider_account: provider_accounts[i]!.id,
          cid: `Virtual Circuit ${i + 1}`,
          type: virtual_circuit_type!.id,
        })),
      );
      const terminations = await createAll(
        api,
        '/api/circuits/virtual-circuit-terminations/',
        (
          [
            [0, 'hub', 0],
            [0, 'spoke', 3],
            [1, 'peer', 1],
            [1, 'peer', 4],
            [2, 'peer', 2],
            [2, 'peer', 5],
          ] as const
        ).map(([c, role, i], n) => ({
          virtual_circuit: virtual_circuits[c]!.id,
          role,
          interface: interfaces[i]!.id,
          description: `termination${n + 1}`,
        })),
      );
      return { interfaces, providers, provider_accounts, provider_networks, virtual_circuits, terminations };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'termination1' })).toBe(1);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['termination1', 'termination2'] })).toBe(2);
    });
    it('test_virtual_circuit_id', async () => {
      const [a, b] = suite.data.virtual_circuits;
      expect(await suite.count({ virtual_circuit_id: [a!.id, b!.id] })).toBe(4);
    });
    it('test_provider', async () => {
      const [a, b] = suite.data.providers;
      expect(await suite.count({ provider_id: [a!.id, b!.id] })).toBe(4);
      expect(await suite.count({ provider: [a!.slug, b!.slug] })).toBe(4);
    });
    it('test_provider_network', async () => {
      const [a, b] = suite.data.provider_networks;
      expect(await suite.count({ provider_network_id: [a!.id, b!.id] })).toBe(4);
    });
    it('test_provider_account', async () => {
      const [a, b] = suite.data.provider_accounts;
      expect(await suite.count({ provider_account_id: [a!.id, b!.id] })).toBe(4);
      expect(await suite.count({ provider_account: [a!.account, b!.account] })).toBe(4);
    });
    it('test_interface', async () => {
      const [a, b] = suite.data.interfaces;
      expect(await suite.count({ interface_id: [a!.id, b!.id] })).toBe(2);
    });
  });
});
