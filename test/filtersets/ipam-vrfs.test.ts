import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/app.js';
import { changeLoggedTests, createAll, filterSetSuite, patchAll, useApp } from '../support/filtersets.js';

/** NetBox 4.6.8 ipam/tests/test_filtersets.py (ASNs, VRFs, route targets, RIRs, aggregates and roles), for the models this service serves. */
describe.each(DIALECTS)('ipam-vrfs filter sets on %s', (dialect) => {
  const shared = useApp(dialect);

  describe('ASNTestCase', () => {
    const suite = filterSetSuite(shared, 'ipam.asn', async (api) => {
      const rirs = await createAll(api, '/api/ipam/rirs/', [
        { name: 'RIR 1', slug: 'rir-1', is_private: true },
        { name: 'RIR 2', slug: 'rir-2', is_private: true },
        { name: 'RIR 3', slug: 'rir-3', is_private: true },
      ]);
      const roles = await createAll(api, '/api/ipam/roles/', [
        { name: 'Role 1', slug: 'role-1' },
        { name: 'Role 2', slug: 'role-2' },
        { name: 'Role 3', slug: 'role-3' },
      ]);
      const tenants = await createAll(api, '/api/tenancy/tenants/', [
        { name: 'Tenant 1', slug: 'tenant-1' },
        { name: 'Tenant 2', slug: 'tenant-2' },
        { name: 'Tenant 3', slug: 'tenant-3' },
        { name: 'Tenant 4', slug: 'tenant-4' },
        { name: 'Tenant 5', slug: 'tenant-5' },
      ]);
      const asns = await createAll(api, '/api/ipam/asns/', [
        { asn: 65001, rir: rirs[0]!.id, role: roles[0]!.id, tenant: tenants[0]!.id, description: 'foobar1' },
        { asn: 65002, rir: rirs[1]!.id, role: roles[1]!.id, tenant: tenants[1]!.id, description: 'foobar2' },
        { asn: 65003, rir: rirs[2]!.id, role: roles[2]!.id, tenant: tenants[2]!.id, description: 'foobar3' },
        { asn: 4200000000, rir: rirs[0]!.id, role: roles[0]!.id, tenant: tenants[0]!.id },
        { asn: 4200000001, rir: rirs[1]!.id, role: roles[1]!.id, tenant: tenants[1]!.id },
        { asn: 4200000002, rir: rirs[2]!.id, role: roles[2]!.id, tenant: tenants[2]!.id },
      ]);
      const site_groups = await createAll(api, '/api/dcim/site-groups/', [
        { name: 'Site Group 1', slug: 'site-group-1' },
        { name: 'Site Group 2', slug: 'site-group-2' },
        { name: 'Site Group 3', slug: 'site-group-3' },
      ]);
      const sites = await createAll(api, '/api/dcim/sites/', [
        { name: 'Site 1', slug: 'site-1', group: site_groups[0]!.id },
        { name: 'Site 2', slug: 'site-2', group: site_groups[1]!.id },
        { name: 'Site 3', slug: 'site-3', group: site_groups[2]!.id },
      ]);
      const providers = await createAll(api, '/api/circuits/providers/', [
        { name: 'Provider 1', slug: 'provider-1' },
        { name: 'Provider 2', slug: 'provider-2' },
        { name: 'Provider 3', slug: 'provider-3' },
      ]);
      // NetBox sets each ASN's sites; here a site lists its ASNs.
      await patchAll(api, '/api/dcim/sites/', [
        { id: sites[0]!.id, asns: [asns[0]!.id, asns[3]!.id] },
        { id: sites[1]!.id, asns: [asns[1]!.id, asns[4]!.id] },
        { id: sites[2]!.id, asns: [asns[2]!.id, asns[5]!.id] },
      ]);
      await patchAll(api, '/api/circuits/providers/', [
        { id: providers[0]!.id, asns: [asns[0]!.id] },
        { id: providers[1]!.id, asns: [asns[1]!.id] },
        { id: providers[2]!.id, asns: [asns[2]!.id] },
      ]);
      return { rirs, roles, tenants, asns, site_groups, sites, providers };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_asn', async () => {
      expect(await suite.count({ asn: [65001, 4200000000] })).toBe(2);
    });
    it('test_tenant', async () => {
      const d = suite.data;
      const tenants = d.tenants.slice(0, 2);
      expect(await suite.count({ tenant_id: [tenants[0]!.id, tenants[1]!.id] })).toBe(4);
      expect(await suite.count({ tenant: [tenants[0]!.slug, tenants[1]!.slug] })).toBe(4);
    });
    it('test_rir', async () => {
      const d = suite.data;
      const rirs = d.rirs.slice(0, 2);
      expect(await suite.count({ rir_id: [rirs[0]!.id, rirs[1]!.id] })).toBe(4);
      expect(await suite.count({ rir: [rirs[0]!.slug, rirs[1]!.slug] })).toBe(4);
    });
    it('test_role', async () => {
      const roles = suite.data.roles.slice(0, 2);
      expect(await suite.count({ role_id: [roles[0]!.id, roles[1]!.id] })).toBe(4);
      expect(await suite.count({ role: [roles[0]!.slug, roles[1]!.slug] })).toBe(4);
    });
    it('test_site_group', async () => {
      const d = suite.data;
      const site_groups = d.site_groups.slice(0, 2);
      expect(await suite.count({ site_group_id: [site_groups[0]!.id, site_groups[1]!.id] })).toBe(4);
      expect(await suite.count({ site_group: [site_groups[0]!.slug, site_groups[1]!.slug] })).toBe(4);
    });
    it('test_site', async () => {
      const d = suite.data;
      const sites = d.sites.slice(0, 2);
      expect(await suite.count({ site_id: [sites[0]!.id, sites[1]!.id] })).toBe(4);
      expect(await suite.count({ site: [sites[0]!.slug, sites[1]!.slug] })).toBe(4);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_provider', async () => {
      const d = suite.data;
      const providers = d.providers.slice(0, 2);
      expect(await suite.count({ provider_id: [providers[0]!.id, providers[1]!.id] })).toBe(2);
    });
  });

  describe('VRFTestCase', () => {
    const suite = filterSetSuite(shared, 'ipam.vrf', async (api) => {
      const route_targets = await createAll(api, '/api/ipam/route-targets/', [
        { name: '65000:1001' },
        { name: '65000:1002' },
        { name: '65000:1003' },
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
      const vrfs = await createAll(api, '/api/ipam/vrfs/', [
        { name: 'VRF 1', rd: '65000:100', tenant: tenants[0]!.id, enforce_unique: false, description: 'foobar1' },
        { name: 'VRF 2', rd: '65000:200', tenant: tenants[0]!.id, enforce_unique: false, description: 'foobar2' },
        { name: 'VRF 3', rd: '65000:300', tenant: tenants[1]!.id, enforce_unique: false },
        { name: 'VRF 4', rd: '65000:400', tenant: tenants[1]!.id, enforce_unique: true },
        { name: 'VRF 5', rd: '65000:500', tenant: tenants[2]!.id, enforce_unique: true },
        { name: 'VRF 6', rd: '65000:600', tenant: tenants[2]!.id, enforce_unique: true },
      ]);
      await patchAll(api, '/api/ipam/vrfs/', [
        { id: vrfs[0]!.id, import_targets: [route_targets[0]!.id], export_targets: [route_targets[0]!.id] },
        { id: vrfs[1]!.id, import_targets: [route_targets[1]!.id], export_targets: [route_targets[1]!.id] },
        { id: vrfs[2]!.id, import_targets: [route_targets[2]!.id], export_targets: [route_targets[2]!.id] },
      ]);
      return { route_targets, tenant_groups, tenants, vrfs };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['VRF 1', 'VRF 2'] })).toBe(2);
    });
    it('test_rd', async () => {
      expect(await suite.count({ rd: ['65000:100', '65000:200'] })).toBe(2);
    });
    it('test_enforce_unique', async () => {
      expect(await suite.count({ enforce_unique: 'true' })).toBe(3);
      expect(await suite.count({ enforce_unique: 'false' })).toBe(3);
    });
    it('test_import_target', async () => {
      const d = suite.data;
      const route_targets = d.route_targets.slice(0, 2);
      expect(await suite.count({ import_target_id: [route_targets[0]!.id, route_targets[1]!.id] })).toBe(2);
      expect(await suite.count({ import_target: [route_targets[0]!.name, route_targets[1]!.name] })).toBe(2);
    });
    it('test_export_target', async () => {
      const d = suite.data;
      const route_targets = d.route_targets.slice(0, 2);
      expect(await suite.count({ export_target_id: [route_targets[0]!.id, route_targets[1]!.id] })).toBe(2);
      expect(await suite.count({ export_target: [route_targets[0]!.name, route_targets[1]!.name] })).toBe(2);
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
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
  });

  describe('RouteTargetTestCase', () => {
    const suite = filterSetSuite(shared, 'ipam.routetarget', async (api) => {
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
      const route_targets = await createAll(api, '/api/ipam/route-targets/', [
        { name: '65000:1001', tenant: tenants[0]!.id, description: 'foobar1' },
        { name: '65000:1002', tenant: tenants[0]!.id, description: 'foobar2' },
        { name: '65000:1003', tenant: tenants[0]!.id },
        { name: '65000:1004', tenant: tenants[0]!.id },
        { name: '65000:2001', tenant: tenants[1]!.id },
        { name: '65000:2002', tenant: tenants[1]!.id },
        { name: '65000:2003', tenant: tenants[1]!.id },
        { name: '65000:2004', tenant: tenants[1]!.id },
        { name: '65000:3001', tenant: tenants[2]!.id },
        { name: '65000:3002', tenant: tenants[2]!.id },
        { name: '65000:3003', tenant: tenants[2]!.id },
        { name: '65000:3004', tenant: tenants[2]!.id },
      ]);
      const vrfs = await createAll(api, '/api/ipam/vrfs/', [
        { name: 'VRF 1', rd: '65000:100' },
        { name: 'VRF 2', rd: '65000:200' },
        { name: 'VRF 3', rd: '65000:300' },
      ]);
      const l2vpns = await createAll(
        api,
        '/api/vpn/l2vpns/',
        [1, 2, 3].map((i) => ({ name: `L2VPN ${i}`, slug: `l2vpn-${i}`, type: 'vxlan', identifier: i * 100 })),
      );
      await patchAll(api, '/api/vpn/l2vpns/', [
        {
          id: l2vpns[0]!.id,
          import_targets: [route_targets[0]!.id, route_targets[1]!.id],
          export_targets: [route_targets[2]!.id, route_targets[3]!.id],
        },
        {
          id: l2vpns[1]!.id,
          import_targets: [route_targets[4]!.id, route_targets[5]!.id],
          export_targets: [route_targets[6]!.id, route_targets[7]!.id],
        },
      ]);
      await patchAll(api, '/api/ipam/vrfs/', [
        {
          id: vrfs[0]!.id,
          import_targets: [route_targets[0]!.id, route_targets[1]!.id],
          export_targets: [route_targets[2]!.id, route_targets[3]!.id],
        },
        {
          id: vrfs[1]!.id,
          import_targets: [route_targets[4]!.id, route_targets[5]!.id],
          export_targets: [route_targets[6]!.id, route_targets[7]!.id],
        },
      ]);
      return { tenant_groups, tenants, route_targets, vrfs, l2vpns };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['65000:1001', '65000:1002', '65000:1003'] })).toBe(3);
    });
    it('test_importing_vrf', async () => {
      const d = suite.data;
      const vrfs = d.vrfs.slice(0, 2);
      expect(await suite.count({ importing_vrf_id: [vrfs[0]!.id, vrfs[1]!.id] })).toBe(4);
      expect(await suite.count({ importing_vrf: [vrfs[0]!.rd, vrfs[1]!.rd] })).toBe(4);
    });
    it('test_exporting_vrf', async () => {
      const d = suite.data;
      const vrfs = d.vrfs.slice(0, 2);
      expect(await suite.count({ exporting_vrf_id: [vrfs[0]!.id, vrfs[1]!.id] })).toBe(4);
      expect(await suite.count({ exporting_vrf: [vrfs[0]!.rd, vrfs[1]!.rd] })).toBe(4);
    });
    it('test_importing_l2vpn', async () => {
      const [a, b] = suite.data.l2vpns;
      expect(await suite.count({ importing_l2vpn_id: [a!.id, b!.id] })).toBe(4);
      expect(await suite.count({ importing_l2vpn: [a!.identifier, b!.identifier] })).toBe(4);
    });
    it('test_exporting_l2vpn', async () => {
      const [a, b] = suite.data.l2vpns;
      expect(await suite.count({ exporting_l2vpn_id: [a!.id, b!.id] })).toBe(4);
      expect(await suite.count({ exporting_l2vpn: [a!.identifier, b!.identifier] })).toBe(4);
    });
    it('test_tenant', async () => {
      const d = suite.data;
      const tenants = d.tenants.slice(0, 2);
      expect(await suite.count({ tenant_id: [tenants[0]!.id, tenants[1]!.id] })).toBe(8);
      expect(await suite.count({ tenant: [tenants[0]!.slug, tenants[1]!.slug] })).toBe(8);
    });
    it('test_tenant_group', async () => {
      const d = suite.data;
      const tenant_groups = d.tenant_groups.slice(0, 2);
      expect(await suite.count({ tenant_group_id: [tenant_groups[0]!.id, tenant_groups[1]!.id] })).toBe(8);
      expect(await suite.count({ tenant_group: [tenant_groups[0]!.slug, tenant_groups[1]!.slug] })).toBe(8);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
  });

  describe('RIRTestCase', () => {
    const suite = filterSetSuite(shared, 'ipam.rir', async (api) => {
      const rirs = await createAll(api, '/api/ipam/rirs/', [
        { name: 'RIR 1', slug: 'rir-1', is_private: false, description: 'foobar1' },
        { name: 'RIR 2', slug: 'rir-2', is_private: false, description: 'foobar2' },
        { name: 'RIR 3', slug: 'rir-3', is_private: false, description: 'foobar3' },
        { name: 'RIR 4', slug: 'rir-4', is_private: true },
        { name: 'RIR 5', slug: 'rir-5', is_private: true },
        { name: 'RIR 6', slug: 'rir-6', is_private: true },
      ]);
      return { rirs };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['RIR 1', 'RIR 2'] })).toBe(2);
    });
    it('test_slug', async () => {
      expect(await suite.count({ slug: ['rir-1', 'rir-2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_is_private', async () => {
      expect(await suite.count({ is_private: 'true' })).toBe(3);
      expect(await suite.count({ is_private: 'false' })).toBe(3);
    });
  });

  describe('AggregateTestCase', () => {
    const suite = filterSetSuite(shared, 'ipam.aggregate', async (api) => {
      const rirs = await createAll(api, '/api/ipam/rirs/', [
        { name: 'RIR 1', slug: 'rir-1' },
        { name: 'RIR 2', slug: 'rir-2' },
        { name: 'RIR 3', slug: 'rir-3' },
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
      const aggregates = await createAll(api, '/api/ipam/aggregates/', [
        {
          prefix: '10.1.0.0/16',
          rir: rirs[0]!.id,
          tenant: tenants[0]!.id,
          date_added: '2020-01-01',
          description: 'foobar1',
        },
        {
          prefix: '10.2.0.0/16',
          rir: rirs[0]!.id,
          tenant: tenants[1]!.id,
          date_added: '2020-01-02',
          description: 'foobar2',
        },
        { prefix: '10.3.0.0/16', rir: rirs[1]!.id, tenant: tenants[2]!.id, date_added: '2020-01-03' },
        { prefix: '2001:db8:1::/48', rir: rirs[1]!.id, tenant: tenants[0]!.id, date_added: '2020-01-04' },
        { prefix: '2001:db8:2::/48', rir: rirs[2]!.id, tenant: tenants[1]!.id, date_added: '2020-01-05' },
        { prefix: '2001:db8:3::/48', rir: rirs[2]!.id, tenant: tenants[2]!.id, date_added: '2020-01-06' },
      ]);
      return { rirs, tenant_groups, tenants, aggregates };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_family', async () => {
      expect(await suite.count({ family: '4' })).toBe(3);
    });
    it('test_date_added', async () => {
      expect(await suite.count({ date_added: ['2020-01-01', '2020-01-02'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_prefix', async () => {
      expect(await suite.count({ prefix: '10.1.0.0/16' })).toBe(1);
    });
    it('test_rir', async () => {
      const d = suite.data;
      const rirs = d.rirs.slice(0, 2);
      expect(await suite.count({ rir_id: [rirs[0]!.id, rirs[1]!.id] })).toBe(4);
      expect(await suite.count({ rir: [rirs[0]!.slug, rirs[1]!.slug] })).toBe(4);
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

  describe('RoleTestCase', () => {
    const suite = filterSetSuite(shared, 'ipam.role', async (api) => {
      const roles = await createAll(api, '/api/ipam/roles/', [
        { name: 'Role 1', slug: 'role-1', description: 'foobar1' },
        { name: 'Role 2', slug: 'role-2', description: 'foobar2' },
        { name: 'Role 3', slug: 'role-3' },
      ]);
      return { roles };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Role 1', 'Role 2'] })).toBe(2);
    });
    it('test_slug', async () => {
      expect(await suite.count({ slug: ['role-1', 'role-2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
  });
});
