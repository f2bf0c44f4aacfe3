import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/app.js';
import {
  changeLoggedTests,
  createAll,
  createTestDevice,
  filterSetSuite,
  patchAll,
  useApp,
  withObjects,
} from '../support/filtersets.js';

/** NetBox 4.6.8 virtualization/tests/test_filtersets.py. */
describe.each(DIALECTS)('virtualization filter sets on %s', (dialect) => {
  const shared = useApp(dialect);

  describe('ClusterTypeTestCase', () => {
    const suite = filterSetSuite(shared, 'virtualization.clustertype', async (api) => {
      const cluster_types = await createAll(api, '/api/virtualization/cluster-types/', [
        { name: 'Cluster Type 1', slug: 'cluster-type-1', description: 'foobar1' },
        { name: 'Cluster Type 2', slug: 'cluster-type-2', description: 'foobar2' },
        { name: 'Cluster Type 3', slug: 'cluster-type-3', description: 'foobar3' },
      ]);
      return { cluster_types };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Cluster Type 1', 'Cluster Type 2'] })).toBe(2);
    });
    it('test_slug', async () => {
      expect(await suite.count({ slug: ['cluster-type-1', 'cluster-type-2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
  });

  describe('ClusterGroupTestCase', () => {
    const suite = filterSetSuite(shared, 'virtualization.clustergroup', async (api) => {
      const cluster_groups = await createAll(api, '/api/virtualization/cluster-groups/', [
        { name: 'Cluster Group 1', slug: 'cluster-group-1', description: 'foobar1' },
        { name: 'Cluster Group 2', slug: 'cluster-group-2', description: 'foobar2' },
        { name: 'Cluster Group 3', slug: 'cluster-group-3', description: 'foobar3' },
      ]);
      return { cluster_groups };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Cluster Group 1', 'Cluster Group 2'] })).toBe(2);
    });
    it('test_slug', async () => {
      expect(await suite.count({ slug: ['cluster-group-1', 'cluster-group-2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
  });

  describe('ClusterTestCase', () => {
    const suite = filterSetSuite(shared, 'virtualization.cluster', async (api) => {
      const cluster_types = await createAll(api, '/api/virtualization/cluster-types/', [
        { name: 'Cluster Type 1', slug: 'cluster-type-1' },
        { name: 'Cluster Type 2', slug: 'cluster-type-2' },
        { name: 'Cluster Type 3', slug: 'cluster-type-3' },
      ]);
      const cluster_groups = await createAll(api, '/api/virtualization/cluster-groups/', [
        { name: 'Cluster Group 1', slug: 'cluster-group-1' },
        { name: 'Cluster Group 2', slug: 'cluster-group-2' },
        { name: 'Cluster Group 3', slug: 'cluster-group-3' },
      ]);
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
      const clusters = await createAll(api, '/api/virtualization/clusters/', [
        {
          name: 'Cluster 1',
          type: cluster_types[0]!.id,
          group: cluster_groups[0]!.id,
          status: 'planned',
          scope_type: 'dcim.site',
          scope_id: sites[0]!.id,
          tenant: tenants[0]!.id,
          description: 'foobar1',
        },
        {
          name: 'Cluster 2',
          type: cluster_types[1]!.id,
          group: cluster_groups[1]!.id,
          status: 'staging',
          scope_type: 'dcim.site',
          scope_id: sites[1]!.id,
          tenant: tenants[1]!.id,
          description: 'foobar2',
        },
        {
          name: 'Cluster 3',
          type: cluster_types[2]!.id,
          group: cluster_groups[2]!.id,
          status: 'active',
          scope_type: 'dcim.site',
          scope_id: sites[2]!.id,
          tenant: tenants[2]!.id,
          description: 'foobar3',
        },
      ]);
      return { cluster_types, cluster_groups, regions, site_groups, sites, tenant_groups, tenants, clusters };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Cluster 1', 'Cluster 2'] })).toBe(2);
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
    it('test_group', async () => {
      const d = suite.data;
      const groups = d.cluster_groups.slice(0, 2);
      expect(await suite.count({ group_id: [groups[0]!.id, groups[1]!.id] })).toBe(2);
      expect(await suite.count({ group: [groups[0]!.slug, groups[1]!.slug] })).toBe(2);
    });
    it('test_status', async () => {
      expect(await suite.count({ status: ['planned', 'staging'] })).toBe(2);
    });
    it('test_type', async () => {
      const d = suite.data;
      const types = d.cluster_types.slice(0, 2);
      expect(await suite.count({ type_id: [types[0]!.id, types[1]!.id] })).toBe(2);
      expect(await suite.count({ type: [types[0]!.slug, types[1]!.slug] })).toBe(2);
    });
    it('test_tenant', async () => {
      const d = suite.data;
      const tenants = d.tenants.slice(0, 2);
      expect(await suite.count({ tenant_id: [tenants[0]!.id, tenants[1]!.id] })).toBe(2);
      expect(await suite.count({ tenant: [tenants[0]!.slug, tenants[1]!.slug] })).toBe(2);
    });
    it('test_tenant_group', async () => {
      const d = suite.data;
      const tenant_groups = d.tenant_groups.slice(0, 2);
      expect(await suite.count({ tenant_group_id: [tenant_groups[0]!.id, tenant_groups[1]!.id] })).toBe(2);
      expect(await suite.count({ tenant_group: [tenant_groups[0]!.slug, tenant_groups[1]!.slug] })).toBe(2);
    });
  });

  describe('VirtualMachineTypeTestCase', () => {
    const suite = filterSetSuite(shared, 'virtualization.virtualmachinetype', async (api) => {
      const platforms = await createAll(
        api,
        '/api/dcim/platforms/',
        [1, 2, 3].map((i) => ({ name: `Platform ${i}`, slug: `platform-${i}` })),
      );
      const [clusterType] = await createAll(api, '/api/virtualization/cluster-types/', [
        { name: 'Cluster Type 1', slug: 'cluster-type-1' },
      ]);
      const [site] = await createAll(api, '/api/dcim/sites/', [{ name: 'Site 1', slug: 'site-1' }]);
      const [cluster] = await createAll(api, '/api/virtualization/clusters/', [
        { name: 'Cluster 1', type: clusterType!.id, scope_type: 'dcim.site', scope_id: site!.id },
      ]);
      const vm_types = await createAll(
        api,
        '/api/virtualization/virtual-machine-types/',
        [1, 2, 3].map((i) => ({
          name: `Virtual Machine Type ${i}`,
          slug: `virtual-machine-type-${i}`,
          default_platform: platforms[i - 1]!.id,
          default_vcpus: [1, 2, 4][i - 1],
          default_memory: [1024, 2048, 4096][i - 1],
          description: `foobar${i}`,
        })),
      );
      const [tenant] = await createAll(api, '/api/tenancy/tenants/', [{ name: 'Tenant 1', slug: 'tenant-1' }]);
      // Populate virtual_machine_count
      await createAll(api, '/api/virtualization/virtual-machines/', [
        { name: 'vm-type-1a', cluster: cluster!.id, virtual_machine_type: vm_types[0]!.id },
        { name: 'vm-type-1b', cluster: cluster!.id, virtual_machine_type: vm_types[0]!.id, tenant: tenant!.id },
        { name: 'vm-type-2a', cluster: cluster!.id, virtual_machine_type: vm_types[1]!.id },
      ]);
      return { platforms, vm_types };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Virtual Machine Type 1', 'Virtual Machine Type 2'] })).toBe(2);
    });
    it('test_slug', async () => {
      expect(await suite.count({ slug: ['virtual-machine-type-1', 'virtual-machine-type-2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_default_platform', async () => {
      const [a, b] = suite.data.platforms;
      expect(await suite.count({ default_platform_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ default_platform: [a!.slug, b!.slug] })).toBe(2);
    });
    it('test_default_vcpus', async () => {
      expect(await suite.count({ default_vcpus: [1, 2] })).toBe(2);
    });
    it('test_default_memory', async () => {
      expect(await suite.count({ default_memory: [1024, 2048] })).toBe(2);
    });
    it('test_virtual_machine_count', async () => {
      expect(await suite.count({ virtual_machine_count: [1, 2] })).toBe(2);
    });
  });

  describe('VirtualMachineTestCase', () => {
    const suite = filterSetSuite(shared, 'virtualization.virtualmachine', async (api) => {
      const cluster_types = await createAll(api, '/api/virtualization/cluster-types/', [
        { name: 'Cluster Type 1', slug: 'cluster-type-1' },
        { name: 'Cluster Type 2', slug: 'cluster-type-2' },
        { name: 'Cluster Type 3', slug: 'cluster-type-3' },
      ]);
      const cluster_groups = await createAll(api, '/api/virtualization/cluster-groups/', [
        { name: 'Cluster Group 1', slug: 'cluster-group-1' },
        { name: 'Cluster Group 2', slug: 'cluster-group-2' },
        { name: 'Cluster Group 3', slug: 'cluster-group-3' },
      ]);
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
        { name: 'Site 1', slug: 'site-1', region: regions[0]!.id, group: site_groups[0]!.id },
        { name: 'Site 2', slug: 'site-2', region: regions[1]!.id, group: site_groups[1]!.id },
        { name: 'Site 3', slug: 'site-3', region: regions[2]!.id, group: site_groups[2]!.id },
      ]);
      const clusters = await createAll(api, '/api/virtualization/clusters/', [
        {
          name: 'Cluster 1',
          type: cluster_types[0]!.id,
          group: cluster_groups[0]!.id,
          scope_type: 'dcim.site',
          scope_id: sites[0]!.id,
        },
        {
          name: 'Cluster 2',
          type: cluster_types[1]!.id,
          group: cluster_groups[1]!.id,
          scope_type: 'dcim.site',
          scope_id: sites[1]!.id,
        },
        {
          name: 'Cluster 3',
          type: cluster_types[2]!.id,
          group: cluster_groups[2]!.id,
          scope_type: 'dcim.site',
          scope_id: sites[2]!.id,
        },
      ]);
      const platforms = await createAll(api, '/api/dcim/platforms/', [
        { name: 'Platform 1', slug: 'platform-1' },
        { name: 'Platform 2', slug: 'platform-2' },
        { name: 'Platform 3', slug: 'platform-3' },
      ]);
      const vm_types = await createAll(
        api,
        '/api/virtualization/virtual-machine-types/',
        [1, 2, 3].map((i) => ({
          name: `Virtual Machine Type ${i}`,
          slug: `virtual-machine-type-${i}`,
          default_platform: platforms[i - 1]!.id,
          default_vcpus: [1, 2, 4][i - 1],
          default_memory: [1024, 2048, 4096][i - 1],
        })),
      );
      const roles = await createAll(api, '/api/dcim/device-roles/', [
        { name: 'Device Role 1', slug: 'device-role-1' },
        { name: 'Device Role 2', slug: 'device-role-2' },
        { name: 'Device Role 3', slug: 'device-role-3' },
      ]);
      const devices = [
        await createTestDevice(api, 'device1', { cluster: clusters[0]!.id, site: sites[0]!.id }),
        await createTestDevice(api, 'device2', { cluster: clusters[1]!.id, site: sites[1]!.id }),
        await createTestDevice(api, 'device3', { cluster: clusters[2]!.id, site: sites[2]!.id }),
      ];
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
      const vms = await createAll(api, '/api/virtualization/virtual-machines/', [
        {
          name: 'Virtual Machine 1',
          virtual_machine_type: vm_types[0]!.id,
          site: sites[0]!.id,
          cluster: clusters[0]!.id,
          device: devices[0]!.id,
          platform: platforms[0]!.id,
          role: roles[0]!.id,
          tenant: tenants[0]!.id,
          status: 'active',
          vcpus: 1,
          memory: 1,
          disk: 1,
          description: 'foobar1',
          local_context_data: { foo: 123 },
          serial: '111-aaa',
        },
        {
          name: 'Virtual Machine 2',
          virtual_machine_type: vm_types[1]!.id,
          site: sites[1]!.id,
          cluster: clusters[1]!.id,
          device: devices[1]!.id,
          platform: platforms[1]!.id,
          role: roles[1]!.id,
          tenant: tenants[1]!.id,
          status: 'staged',
          vcpus: 2,
          memory: 2,
          disk: 2,
          description: 'foobar2',
          serial: '222-bbb',
          start_on_boot: 'off',
        },
        {
          name: 'Virtual Machine 3',
          virtual_machine_type: vm_types[2]!.id,
          site: sites[2]!.id,
          cluster: clusters[2]!.id,
          device: devices[2]!.id,
          platform: platforms[2]!.id,
          role: roles[2]!.id,
          tenant: tenants[2]!.id,
          status: 'offline',
          vcpus: 3,
          memory: 3,
          disk: 3,
          description: 'foobar3',
          start_on_boot: 'on',
        },
      ]);
      const interfaces = await createAll(api, '/api/virtualization/interfaces/', [
        { virtual_machine: vms[0]!.id, name: 'Interface 1' },
        { virtual_machine: vms[1]!.id, name: 'Interface 2' },
        { virtual_machine: vms[2]!.id, name: 'Interface 3' },
      ]);
      await createAll(api, '/api/dcim/mac-addresses/', [
        {
          mac_address: '00-00-00-00-00-01',
          assigned_object_type: 'virtualization.vminterface',
          assigned_object_id: interfaces[0]!.id,
        },
        {
          mac_address: '00-00-00-00-00-02',
          assigned_object_type: 'virtualization.vminterface',
          assigned_object_id: interfaces[1]!.id,
        },
        {
          mac_address: '00-00-00-00-00-03',
          assigned_object_type: 'virtualization.vminterface',
          assigned_object_id: interfaces[2]!.id,
        },
      ]);
      const ipaddresses = await createAll(api, '/api/ipam/ip-addresses/', [
        {
          address: '192.0.2.1/24',
          assigned_object_type: 'virtualization.vminterface',
          assigned_object_id: interfaces[0]!.id,
        },
        {
          address: '192.0.2.2/24',
          assigned_object_type: 'virtualization.vminterface',
          assigned_object_id: interfaces[1]!.id,
        },
        { address: '192.0.2.3/24' },
        {
          address: '2001:db8::1/64',
          assigned_object_type: 'virtualization.vminterface',
          assigned_object_id: interfaces[0]!.id,
        },
        {
          address: '2001:db8::2/64',
          assigned_object_type: 'virtualization.vminterface',
          assigned_object_id: interfaces[1]!.id,
        },
        { address: '2001:db8::3/64' },
      ]);
      await patchAll(api, '/api/virtualization/virtual-machines/', [
        { id: vms[0]!.id, primary_ip4: ipaddresses[0]!.id, primary_ip6: ipaddresses[3]!.id },
        { id: vms[1]!.id, primary_ip4: ipaddresses[1]!.id, primary_ip6: ipaddresses[4]!.id },
      ]);
      return {
        cluster_types,
        cluster_groups,
        regions,
        site_groups,
        sites,
        clusters,
        platforms,
        vm_types,
        roles,
        devices,
        tenant_groups,
        tenants,
        vms,
        interfaces,
        ipaddresses,
      };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Virtual Machine 1', 'Virtual Machine 2'] })).toBe(2);
      expect(await suite.count({ name: ['VIRTUAL MACHINE 1', 'VIRTUAL MACHINE 2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_vcpus', async () => {
      expect(await suite.count({ vcpus: [1, 2] })).toBe(2);
    });
    it('test_memory', async () => {
      expect(await suite.count({ memory: [1, 2] })).toBe(2);
    });
    it('test_disk', async () => {
      expect(await suite.count({ disk: [1, 2] })).toBe(2);
    });
    it('test_status', async () => {
      expect(await suite.count({ status: ['active', 'staged'] })).toBe(2);
    });
    it('test_start_on_boot', async () => {
      expect(await suite.count({ start_on_boot: ['on'] })).toBe(1);
    });
    it('test_cluster_group', async () => {
      const d = suite.data;
      const groups = d.cluster_groups.slice(0, 2);
      expect(await suite.count({ cluster_group_id: [groups[0]!.id, groups[1]!.id] })).toBe(2);
      expect(await suite.count({ cluster_group: [groups[0]!.slug, groups[1]!.slug] })).toBe(2);
    });
    it('test_cluster_type', async () => {
      const d = suite.data;
      const types = d.cluster_types.slice(0, 2);
      expect(await suite.count({ cluster_type_id: [types[0]!.id, types[1]!.id] })).toBe(2);
      expect(await suite.count({ cluster_type: [types[0]!.slug, types[1]!.slug] })).toBe(2);
    });
    it('test_cluster', async () => {
      const d = suite.data;
      const clusters = d.clusters.slice(0, 2);
      expect(await suite.count({ cluster_id: [clusters[0]!.id, clusters[1]!.id] })).toBe(2);
      expect(await suite.count({ cluster: [clusters[0]!.name, clusters[1]!.name] })).toBe(2);
    });
    it('test_device', async () => {
      const devices = suite.data.devices.slice(0, 2);
      expect(await suite.count({ device_id: [devices[0]!.id, devices[1]!.id] })).toBe(2);
      expect(await suite.count({ device: [devices[0]!.name, devices[1]!.name] })).toBe(2);
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
    it('test_role', async () => {
      const d = suite.data;
      const roles = d.roles.slice(0, 2);
      expect(await suite.count({ role_id: [roles[0]!.id, roles[1]!.id] })).toBe(2);
      expect(await suite.count({ role: [roles[0]!.slug, roles[1]!.slug] })).toBe(2);
    });
    it('test_platform', async () => {
      const d = suite.data;
      const platforms = d.platforms.slice(0, 2);
      expect(await suite.count({ platform_id: [platforms[0]!.id, platforms[1]!.id] })).toBe(2);
      expect(await suite.count({ platform: [platforms[0]!.slug, platforms[1]!.slug] })).toBe(2);
    });
    it('test_virtual_machine_type', async () => {
      const [a, b] = suite.data.vm_types;
      expect(await suite.count({ virtual_machine_type_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ virtual_machine_type: [a!.slug, b!.slug] })).toBe(2);
    });
    it('test_mac_address', async () => {
      expect(await suite.count({ mac_address: ['00-00-00-00-00-01', '00-00-00-00-00-02'] })).toBe(2);
    });
    it('test_has_primary_ip', async () => {
      expect(await suite.count({ has_primary_ip: 'true' })).toBe(2);
      expect(await suite.count({ has_primary_ip: 'false' })).toBe(1);
    });
    it('test_local_context_data', async () => {
      expect(await suite.count({ local_context_data: 'true' })).toBe(1);
      expect(await suite.count({ local_context_data: 'false' })).toBe(2);
    });
    it('test_tenant', async () => {
      const d = suite.data;
      const tenants = d.tenants.slice(0, 2);
      expect(await suite.count({ tenant_id: [tenants[0]!.id, tenants[1]!.id] })).toBe(2);
      expect(await suite.count({ tenant: [tenants[0]!.slug, tenants[1]!.slug] })).toBe(2);
    });
    it('test_tenant_group', async () => {
      const d = suite.data;
      const tenant_groups = d.tenant_groups.slice(0, 2);
      expect(await suite.count({ tenant_group_id: [tenant_groups[0]!.id, tenant_groups[1]!.id] })).toBe(2);
      expect(await suite.count({ tenant_group: [tenant_groups[0]!.slug, tenant_groups[1]!.slug] })).toBe(2);
    });
    it('test_primary_ip4', async () => {
      const addresses = suite.data.ipaddresses.filter((a) => a.family.value === 4);
      expect(await suite.count({ primary_ip4_id: [addresses[0]!.id, addresses[1]!.id] })).toBe(2);
      expect(await suite.count({ primary_ip4: [addresses[0]!.address, addresses[1]!.address] })).toBe(2);
      expect(await suite.count({ primary_ip4_id: [addresses[2]!.id] })).toBe(0);
      expect(await suite.count({ primary_ip4: [addresses[2]!.address] })).toBe(0);
    });
    it('test_primary_ip6', async () => {
      const addresses = suite.data.ipaddresses.filter((a) => a.family.value === 6);
      expect(await suite.count({ primary_ip6_id: [addresses[0]!.id, addresses[1]!.id] })).toBe(2);
      expect(await suite.count({ primary_ip6: [addresses[0]!.address, addresses[1]!.address] })).toBe(2);
      expect(await suite.count({ primary_ip6_id: [addresses[2]!.id] })).toBe(0);
      expect(await suite.count({ primary_ip6: [addresses[2]!.address] })).toBe(0);
    });
    it('test_serial_number', async () => {
      expect(await suite.count({ serial: ['111-aaa', '222-bbb'] })).toBe(2);
    });
  });

  describe('VMInterfaceTestCase', () => {
    const suite = filterSetSuite(shared, 'virtualization.vminterface', async (api) => {
      const cluster_types = await createAll(api, '/api/virtualization/cluster-types/', [
        { name: 'Cluster Type 1', slug: 'cluster-type-1' },
        { name: 'Cluster Type 2', slug: 'cluster-type-2' },
        { name: 'Cluster Type 3', slug: 'cluster-type-3' },
      ]);
      const clusters = await createAll(api, '/api/virtualization/clusters/', [
        { name: 'Cluster 1', type: cluster_types[0]!.id },
        { name: 'Cluster 2', type: cluster_types[1]!.id },
        { name: 'Cluster 3', type: cluster_types[2]!.id },
      ]);
      const vrfs = await createAll(api, '/api/ipam/vrfs/', [
        { name: 'VRF 1', rd: '65000:1' },
        { name: 'VRF 2', rd: '65000:2' },
        { name: 'VRF 3', rd: '65000:3' },
      ]);
      const vlans = await createAll(api, '/api/ipam/vlans/', [
        { name: 'SVLAN 1', vid: 1001, qinq_role: 'svlan' },
        { name: 'SVLAN 2', vid: 1002, qinq_role: 'svlan' },
        { name: 'SVLAN 3', vid: 1003, qinq_role: 'svlan' },
      ]);
      const vms = await createAll(api, '/api/virtualization/virtual-machines/', [
        { name: 'Virtual Machine 1', cluster: clusters[0]!.id },
        { name: 'Virtual Machine 2', cluster: clusters[1]!.id },
        { name: 'Virtual Machine 3', cluster: clusters[2]!.id },
      ]);
      const vlan_translation_policies = await createAll(
        api,
        '/api/ipam/vlan-translation-policies/',
        [1, 2, 3].map((i) => ({ name: `Policy ${i}` })),
      );
      // An interface holds its MAC address.
      const interfaces = await createAll(api, '/api/virtualization/interfaces/', [
        {
          virtual_machine: vms[0]!.id,
          name: 'Interface 1',
          vlan_translation_policy: vlan_translation_policies[0]!.id,
          enabled: true,
          mtu: 100,
          vrf: vrfs[0]!.id,
          description: 'foobar1',
          mode: 'access',
        },
        {
          virtual_machine: vms[1]!.id,
          name: 'Interface 2',
          vlan_translation_policy: vlan_translation_policies[0]!.id,
          enabled: true,
          mtu: 200,
          vrf: vrfs[1]!.id,
          description: 'foobar2',
          mode: 'tagged',
        },
        {
          virtual_machine: vms[2]!.id,
          name: 'Interface 3',
          enabled: false,
          mtu: 300,
          vrf: vrfs[2]!.id,
          description: 'foobar3',
          mode: 'q-in-q',
          qinq_svlan: vlans[0]!.id,
        },
      ]);
      await createAll(api, '/api/dcim/mac-addresses/', [
        {
          mac_address: '00-00-00-00-00-01',
          assigned_object_type: 'virtualization.vminterface',
          assigned_object_id: interfaces[0]!.id,
        },
        {
          mac_address: '00-00-00-00-00-02',
          assigned_object_type: 'virtualization.vminterface',
          assigned_object_id: interfaces[1]!.id,
        },
        {
          mac_address: '00-00-00-00-00-03',
          assigned_object_type: 'virtualization.vminterface',
          assigned_object_id: interfaces[2]!.id,
        },
      ]);
      return { cluster_types, clusters, vrfs, vlans, vms, interfaces, vlan_translation_policies };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Interface 1', 'Interface 2'] })).toBe(2);
    });
    it('test_enabled', async () => {
      expect(await suite.count({ enabled: 'true' })).toBe(2);
      expect(await suite.count({ enabled: 'false' })).toBe(1);
    });
    for (const [test, field, name] of [
      ['test_parent', 'parent', 'Child'],
      ['test_bridge', 'bridge', 'Bridged'],
    ] as const) {
      it(test, async () => {
        const first = suite.data.interfaces[0]!;
        const children = [1, 2, 3].map((i) => ({
          virtual_machine: first.virtual_machine.id,
          name: `${name} ${i}`,
          [field]: first.id,
        }));
        await withObjects(suite.app.api, suite.list, children, async () => {
          expect(await suite.count({ [`${field}_id`]: [first.id] })).toBe(3);
        });
      });
    }
    it('test_mtu', async () => {
      expect(await suite.count({ mtu: [100, 200] })).toBe(2);
    });
    it('test_virtual_machine', async () => {
      const d = suite.data;
      const vms = d.vms.slice(0, 2);
      expect(await suite.count({ virtual_machine_id: [vms[0]!.id, vms[1]!.id] })).toBe(2);
      expect(await suite.count({ virtual_machine: [vms[0]!.name, vms[1]!.name] })).toBe(2);
    });
    it('test_mac_address', async () => {
      expect(await suite.count({ mac_address: ['00-00-00-00-00-01', '00-00-00-00-00-02'] })).toBe(2);
    });
    it('test_vrf', async () => {
      const d = suite.data;
      const vrfs = d.vrfs.slice(0, 2);
      expect(await suite.count({ vrf_id: [vrfs[0]!.id, vrfs[1]!.id] })).toBe(2);
      expect(await suite.count({ vrf: [vrfs[0]!.rd, vrfs[1]!.rd] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_mode', async () => {
      expect(await suite.count({ mode: ['access'] })).toBe(1);
    });
    it('test_vlan', async () => {
      const vlan = suite.data.vlans[0]!;
      expect(await suite.count({ vlan_id: vlan.id })).toBe(1);
      expect(await suite.count({ vlan: vlan.vid })).toBe(1);
    });
    it('test_vlan_translation_policy', async () => {
      const [a, b] = suite.data.vlan_translation_policies;
      expect(await suite.count({ vlan_translation_policy_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ vlan_translation_policy: [a!.name, b!.name] })).toBe(2);
    });
  });

  describe('VirtualDiskTestCase', () => {
    const suite = filterSetSuite(shared, 'virtualization.virtualdisk', async (api) => {
      const [clusterType] = await createAll(api, '/api/virtualization/cluster-types/', [
        { name: 'Cluster Type 1', slug: 'cluster-type-1' },
      ]);
      const [cluster] = await createAll(api, '/api/virtualization/clusters/', [
        { name: 'Cluster 1', type: clusterType!.id },
      ]);
      const vms = await createAll(
        api,
        '/api/virtualization/virtual-machines/',
        [1, 2, 3].map((i) => ({ name: `Virtual Machine ${i}`, cluster: cluster!.id })),
      );
      await createAll(
        api,
        '/api/virtualization/virtual-disks/',
        [1, 2, 3].map((i) => ({
          virtual_machine: vms[i - 1]!.id,
          name: `Disk ${i}`,
          size: i,
          description: `foobar${i}`,
        })),
      );
      return { vms };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_virtual_machine', async () => {
      const [a, b] = suite.data.vms;
      expect(await suite.count({ virtual_machine_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ virtual_machine: [a!.name, b!.name] })).toBe(2);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Disk 1', 'Disk 2'] })).toBe(2);
    });
    it('test_size', async () => {
      expect(await suite.count({ size: [1, 2] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
  });
});
