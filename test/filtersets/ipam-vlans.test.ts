import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/app.js';
import { changeLoggedTests, createAll, filterSetSuite, patchAll, useApp, withObjects } from '../support/filtersets.js';

/** NetBox 4.6.8 ipam/tests/test_filtersets.py: VLAN groups, VLANs, VLAN translation policies and rules. */
describe.each(DIALECTS)('ipam-vlans filter sets on %s', (dialect) => {
  const shared = useApp(dialect);

  describe('VLANGroupTestCase', () => {
    const suite = filterSetSuite(shared, 'ipam.vlangroup', async (api) => {
      const [region] = await createAll(api, '/api/dcim/regions/', [{ name: 'Region 1', slug: 'region-1' }]);
      const [sitegroup] = await createAll(api, '/api/dcim/site-groups/', [
        { name: 'Site Group 1', slug: 'site-group-1' },
      ]);
      const [site] = await createAll(api, '/api/dcim/sites/', [{ name: 'Site 1', slug: 'site-1' }]);
      const [location] = await createAll(api, '/api/dcim/locations/', [
        { name: 'Location 1', slug: 'location-1', site: site!.id },
      ]);
      const [rack] = await createAll(api, '/api/dcim/racks/', [{ name: 'Rack 1', site: site!.id }]);
      const [clustertype] = await createAll(api, '/api/virtualization/cluster-types/', [
        { name: 'Cluster Type 1', slug: 'cluster-type-1' },
      ]);
      const [clustergroup] = await createAll(api, '/api/virtualization/cluster-groups/', [
        { name: 'Cluster Group 1', slug: 'cluster-group-1' },
      ]);
      const [cluster] = await createAll(api, '/api/virtualization/clusters/', [
        { name: 'Cluster 1', type: clustertype!.id },
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
      const vlan_groups = await createAll(api, '/api/ipam/vlan-groups/', [
        {
          name: 'VLAN Group 1',
          slug: 'vlan-group-1',
          vid_ranges: [
            [1, 10],
            [100, 199],
          ],
          scope_type: 'dcim.region',
          scope_id: region!.id,
          description: 'foobar1',
          tenant: tenants[0]!.id,
        },
        {
          name: 'VLAN Group 2',
          slug: 'vlan-group-2',
          vid_ranges: [
            [1, 10],
            [200, 299],
          ],
          scope_type: 'dcim.sitegroup',
          scope_id: sitegroup!.id,
          description: 'foobar2',
          tenant: tenants[1]!.id,
        },
        {
          name: 'VLAN Group 3',
          slug: 'vlan-group-3',
          vid_ranges: [
            [1, 10],
            [300, 399],
          ],
          scope_type: 'dcim.site',
          scope_id: site!.id,
          description: 'foobar3',
          tenant: tenants[1]!.id,
        },
        {
          name: 'VLAN Group 4',
          slug: 'vlan-group-4',
          vid_ranges: [
            [1, 10],
            [400, 499],
          ],
          scope_type: 'dcim.location',
          scope_id: location!.id,
        },
        {
          name: 'VLAN Group 5',
          slug: 'vlan-group-5',
          vid_ranges: [
            [1, 10],
            [500, 599],
          ],
          scope_type: 'dcim.rack',
          scope_id: rack!.id,
        },
        {
          name: 'VLAN Group 6',
          slug: 'vlan-group-6',
          vid_ranges: [
            [1, 10],
            [600, 699],
          ],
          scope_type: 'virtualization.clustergroup',
          scope_id: clustergroup!.id,
        },
        {
          name: 'VLAN Group 7',
          slug: 'vlan-group-7',
          vid_ranges: [
            [1, 10],
            [700, 799],
          ],
          scope_type: 'virtualization.cluster',
          scope_id: cluster!.id,
        },
        { name: 'VLAN Group 8', slug: 'vlan-group-8' },
      ]);
      return {
        region,
        sitegroup,
        site,
        location,
        rack,
        clustertype,
        clustergroup,
        cluster,
        tenant_groups,
        tenants,
        vlan_groups,
      };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['VLAN Group 1', 'VLAN Group 2'] })).toBe(2);
    });
    it('test_slug', async () => {
      expect(await suite.count({ slug: ['vlan-group-1', 'vlan-group-2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_contains_vid', async () => {
      expect(await suite.count({ contains_vid: 123 })).toBe(2);
      expect(await suite.count({ contains_vid: 1 })).toBe(8);
      expect(await suite.count({ contains_vid: 12 })).toBe(1);
      expect(await suite.count({ contains_vid: 4095 })).toBe(0);
    });
    it('test_total_vlan_ids', async () => {
      expect(await suite.count({ total_vlan_ids: [110] })).toBe(7);
      expect(await suite.count({ total_vlan_ids: [4094] })).toBe(1);
    });
    it('test_region', async () => {
      expect(await suite.count({ region: suite.data.region!.id })).toBe(1);
    });
    it('test_site_group', async () => {
      expect(await suite.count({ site_group: suite.data.sitegroup!.id })).toBe(1);
    });
    it('test_site', async () => {
      expect(await suite.count({ site: suite.data.site!.id })).toBe(1);
    });
    it('test_location', async () => {
      expect(await suite.count({ location: suite.data.location!.id })).toBe(1);
    });
    it('test_rack', async () => {
      expect(await suite.count({ rack: suite.data.rack!.id })).toBe(1);
    });
    it('test_cluster_group', async () => {
      expect(await suite.count({ cluster_group: suite.data.clustergroup!.id })).toBe(1);
    });
    it('test_cluster', async () => {
      expect(await suite.count({ cluster: suite.data.cluster!.id })).toBe(1);
    });
    it('test_tenant', async () => {
      const d = suite.data;
      const tenants = d.tenants.slice(0, 2);
      expect(await suite.count({ tenant_id: [tenants[0]!.id, tenants[1]!.id] })).toBe(3);
      expect(await suite.count({ tenant: [tenants[0]!.slug, tenants[1]!.slug] })).toBe(3);
    });
    it('test_tenant_group', async () => {
      const d = suite.data;
      const tenant_groups = d.tenant_groups.slice(0, 2);
      expect(await suite.count({ tenant_group_id: [tenant_groups[0]!.id, tenant_groups[1]!.id] })).toBe(3);
      expect(await suite.count({ tenant_group: [tenant_groups[0]!.slug, tenant_groups[1]!.slug] })).toBe(3);
    });
  });

  describe('VLANTestCase', () => {
    const suite = filterSetSuite(shared, 'ipam.vlan', async (api) => {
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
        { name: 'Site 4', slug: 'site-4', region: regions[0]!.id, group: site_groups[0]!.id },
        { name: 'Site 5', slug: 'site-5', region: regions[1]!.id, group: site_groups[1]!.id },
        { name: 'Site 6', slug: 'site-6', region: regions[2]!.id, group: site_groups[2]!.id },
        { name: 'Site 7', slug: 'site-7' },
      ]);
      const locations = await createAll(api, '/api/dcim/locations/', [
        { name: 'Location 1', slug: 'location-1', site: sites[0]!.id },
        { name: 'Location 2', slug: 'location-2', site: sites[1]!.id },
        { name: 'Location 3', slug: 'location-3', site: sites[2]!.id },
      ]);
      const racks = await createAll(api, '/api/dcim/racks/', [
        { name: 'Rack 1', site: sites[0]!.id, location: locations[0]!.id },
        { name: 'Rack 2', site: sites[1]!.id, location: locations[1]!.id },
        { name: 'Rack 3', site: sites[2]!.id, location: locations[2]!.id },
      ]);
      const [manufacturer] = await createAll(api, '/api/dcim/manufacturers/', [
        { name: 'Manufacturer 1', slug: 'manufacturer-1' },
      ]);
      const [device_type] = await createAll(api, '/api/dcim/device-types/', [
        { manufacturer: manufacturer!.id, model: 'Device Type 1', slug: 'device-type-1' },
      ]);
      const [role] = await createAll(api, '/api/dcim/device-roles/', [
        { name: 'Device Role 1', slug: 'device-role-1' },
      ]);
      const devices = await createAll(api, '/api/dcim/devices/', [
        {
          name: 'Device 1',
          site: sites[0]!.id,
          location: locations[0]!.id,
          rack: racks[0]!.id,
          device_type: device_type!.id,
          role: role!.id,
        },
        {
          name: 'Device 2',
          site: sites[1]!.id,
          location: locations[1]!.id,
          rack: racks[1]!.id,
          device_type: device_type!.id,
          role: role!.id,
        },
        {
          name: 'Device 3',
          site: sites[2]!.id,
          location: locations[2]!.id,
          rack: racks[2]!.id,
          device_type: device_type!.id,
          role: role!.id,
        },
      ]);
      const interfaces = await createAll(api, '/api/dcim/interfaces/', [
        { device: devices[0]!.id, name: 'Interface 1', type: '1000base-t' },
        { device: devices[1]!.id, name: 'Interface 2', type: '1000base-t' },
        { device: devices[2]!.id, name: 'Interface 3', type: '1000base-t' },
      ]);
      const cluster_groups = await createAll(api, '/api/virtualization/cluster-groups/', [
        { name: 'Cluster Group 1', slug: 'cluster-group-1' },
        { name: 'Cluster Group 2', slug: 'cluster-group-2' },
        { name: 'Cluster Group 3', slug: 'cluster-group-3' },
      ]);
      const [cluster_type] = await createAll(api, '/api/virtualization/cluster-types/', [
        { name: 'Cluster Type 1', slug: 'cluster-type-1' },
      ]);
      const clusters = await createAll(api, '/api/virtualization/clusters/', [
        {
          name: 'Cluster 1',
          type: cluster_type!.id,
          group: cluster_groups[0]!.id,
          scope_type: 'dcim.site',
          scope_id: sites[0]!.id,
        },
        {
          name: 'Cluster 2',
          type: cluster_type!.id,
          group: cluster_groups[1]!.id,
          scope_type: 'dcim.site',
          scope_id: sites[1]!.id,
        },
        {
          name: 'Cluster 3',
          type: cluster_type!.id,
          group: cluster_groups[2]!.id,
          scope_type: 'dcim.site',
          scope_id: sites[2]!.id,
        },
        {
          name: 'Cluster 4',
          type: cluster_type!.id,
          group: cluster_groups[0]!.id,
          scope_type: 'dcim.location',
          scope_id: locations[0]!.id,
        },
      ]);
      const virtual_machines = await createAll(api, '/api/virtualization/virtual-machines/', [
        { name: 'Virtual Machine 1', cluster: clusters[0]!.id },
        { name: 'Virtual Machine 2', cluster: clusters[1]!.id },
        { name: 'Virtual Machine 3', cluster: clusters[2]!.id },
        { name: 'Virtual Machine 4', cluster: clusters[3]!.id },
      ]);
      const vm_interfaces = await createAll(api, '/api/virtualization/interfaces/', [
        { virtual_machine: virtual_machines[0]!.id, name: 'VM Interface 1' },
        { virtual_machine: virtual_machines[1]!.id, name: 'VM Interface 2' },
        { virtual_machine: virtual_machines[2]!.id, name: 'VM Interface 3' },
        { virtual_machine: virtual_machines[3]!.id, name: 'VM Interface 4' },
      ]);
      const groups = await createAll(api, '/api/ipam/vlan-groups/', [
        { name: 'Region 1', slug: 'region-1', scope_type: 'dcim.region', scope_id: regions[0]!.id },
        { name: 'Region 2', slug: 'region-2', scope_type: 'dcim.region', scope_id: regions[1]!.id },
        { name: 'Region 3', slug: 'region-3', scope_type: 'dcim.region', scope_id: regions[2]!.id },
        { name: 'Site Group 1', slug: 'site-group-1', scope_type: 'dcim.sitegroup', scope_id: site_groups[0]!.id },
        { name: 'Site Group 2', slug: 'site-group-2', scope_type: 'dcim.sitegroup', scope_id: site_groups[1]!.id },
        { name: 'Site Group 3', slug: 'site-group-3', scope_type: 'dcim.sitegroup', scope_id: site_groups[2]!.id },
        { name: 'Site 1', slug: 'site-1', scope_type: 'dcim.site', scope_id: sites[0]!.id },
        { name: 'Site 2', slug: 'site-2', scope_type: 'dcim.site', scope_id: sites[1]!.id },
        { name: 'Site 3', slug: 'site-3', scope_type: 'dcim.site', scope_id: sites[2]!.id },
        { name: 'Location 1', slug: 'location-1', scope_type: 'dcim.location', scope_id: locations[0]!.id },
        { name: 'Location 2', slug: 'location-2', scope_type: 'dcim.location', scope_id: locations[1]!.id },
        { name: 'Location 3', slug: 'location-3', scope_type: 'dcim.location', scope_id: locations[2]!.id },
        { name: 'Rack 1', slug: 'rack-1', scope_type: 'dcim.rack', scope_id: racks[0]!.id },
        { name: 'Rack 2', slug: 'rack-2', scope_type: 'dcim.rack', scope_id: racks[1]!.id },
        { name: 'Rack 3', slug: 'rack-3', scope_type: 'dcim.rack', scope_id: racks[2]!.id },
        {
          name: 'Cluster Group 1',
          slug: 'cluster-group-1',
          scope_type: 'virtualization.clustergroup',
          scope_id: cluster_groups[0]!.id,
        },
        {
          name: 'Cluster Group 2',
          slug: 'cluster-group-2',
          scope_type: 'virtualization.clustergroup',
          scope_id: cluster_groups[1]!.id,
        },
        {
          name: 'Cluster Group 3',
          slug: 'cluster-group-3',
          scope_type: 'virtualization.clustergroup',
          scope_id: cluster_groups[2]!.id,
        },
        { name: 'Cluster 1', slug: 'cluster-1', scope_type: 'virtualization.cluster', scope_id: clusters[0]!.id },
        { name: 'Cluster 2', slug: 'cluster-2', scope_type: 'virtualization.cluster', scope_id: clusters[1]!.id },
        { name: 'Cluster 3', slug: 'cluster-3', scope_type: 'virtualization.cluster', scope_id: clusters[2]!.id },
        { name: 'Cluster 4', slug: 'cluster-4', scope_type: 'virtualization.cluster', scope_id: clusters[3]!.id },
        { name: 'VLAN Group 1', slug: 'vlan-group-1' },
        { name: 'VLAN Group 2', slug: 'vlan-group-2' },
        { name: 'VLAN Group 3', slug: 'vlan-group-3' },
        { name: 'VLAN Group 4', slug: 'vlan-group-4' },
      ]);
      const roles = await createAll(api, '/api/ipam/roles/', [
        { name: 'Role 1', slug: 'role-1' },
        { name: 'Role 2', slug: 'role-2' },
        { name: 'Role 3', slug: 'role-3' },
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
      const vlans = await createAll(api, '/api/ipam/vlans/', [
        { vid: 1, name: 'Region 1', group: groups[0]!.id, description: 'foobar1' },
        { vid: 2, name: 'Region 2', group: groups[1]!.id, description: 'foobar2' },
        { vid: 3, name: 'Region 3', group: groups[2]!.id },
        { vid: 4, name: 'Site Group 1', group: groups[3]!.id },
        { vid: 5, name: 'Site Group 2', group: groups[4]!.id },
        { vid: 6, name: 'Site Group 3', group: groups[5]!.id },
        { vid: 7, name: 'Site 1', group: groups[6]!.id },
        { vid: 8, name: 'Site 2', group: groups[7]!.id },
        { vid: 9, name: 'Site 3', group: groups[8]!.id },
        { vid: 10, name: 'Location 1', group: groups[9]!.id },
        { vid: 11, name: 'Location 2', group: groups[10]!.id },
        { vid: 12, name: 'Location 3', group: groups[11]!.id },
        { vid: 13, name: 'Rack 1', group: groups[12]!.id },
        { vid: 14, name: 'Rack 2', group: groups[13]!.id },
        { vid: 15, name: 'Rack 3', group: groups[14]!.id },
        { vid: 16, name: 'Cluster Group 1', group: groups[15]!.id },
        { vid: 17, name: 'Cluster Group 2', group: groups[16]!.id },
        { vid: 18, name: 'Cluster Group 3', group: groups[17]!.id },
        { vid: 19, name: 'Cluster 1', group: groups[18]!.id },
        { vid: 20, name: 'Cluster 2', group: groups[19]!.id },
        { vid: 21, name: 'Cluster 3', group: groups[20]!.id },
        { vid: 22, name: 'Cluster 4', group: groups[21]!.id },
        {
          vid: 101,
          name: 'VLAN 101',
          site: sites[3]!.id,
          group: groups[22]!.id,
          role: roles[0]!.id,
          tenant: tenants[0]!.id,
          status: 'active',
        },
        {
          vid: 102,
          name: 'VLAN 102',
          site: sites[3]!.id,
          group: groups[22]!.id,
          role: roles[0]!.id,
          tenant: tenants[0]!.id,
          status: 'active',
        },
        {
          vid: 201,
          name: 'VLAN 201',
          site: sites[4]!.id,
          group: groups[23]!.id,
          role: roles[1]!.id,
          tenant: tenants[1]!.id,
          status: 'deprecated',
        },
        {
          vid: 202,
          name: 'VLAN 202',
          site: sites[4]!.id,
          group: groups[23]!.id,
          role: roles[1]!.id,
          tenant: tenants[1]!.id,
          status: 'deprecated',
        },
        {
          vid: 301,
          name: 'VLAN 301',
          site: sites[5]!.id,
          group: groups[24]!.id,
          role: roles[2]!.id,
          tenant: tenants[2]!.id,
          status: 'reserved',
        },
        {
          vid: 302,
          name: 'VLAN 302',
          site: sites[5]!.id,
          group: groups[24]!.id,
          role: roles[2]!.id,
          tenant: tenants[2]!.id,
          status: 'reserved',
        },
        { vid: 500, name: 'VLAN Group 1', group: groups[25]!.id },
        { vid: 1000, name: 'Global VLAN' },
        { vid: 2001, name: 'SVLAN 1', site: sites[6]!.id, qinq_role: 'svlan' },
        { vid: 2002, name: 'SVLAN 2', site: sites[6]!.id, qinq_role: 'svlan' },
        { vid: 2003, name: 'SVLAN 3', site: sites[6]!.id, qinq_role: 'svlan' },
      ]);
      const cvlans = await createAll(api, '/api/ipam/vlans/', [
        { vid: 3001, name: 'CVLAN 1', site: sites[6]!.id, qinq_svlan: vlans[29]!.id, qinq_role: 'cvlan' },
        { vid: 3002, name: 'CVLAN 2', site: sites[6]!.id, qinq_svlan: vlans[30]!.id, qinq_role: 'cvlan' },
        { vid: 3003, name: 'CVLAN 3', site: sites[6]!.id, qinq_svlan: vlans[31]!.id, qinq_role: 'cvlan' },
      ]);
      // NetBox sets `untagged_vlan` on these objects without saving them: only the tagged VLANs are stored. The
      // API takes tagged VLANs in 802.1Q mode tagged only.
      await patchAll(api, '/api/dcim/interfaces/', [
        { id: interfaces[0]!.id, mode: 'tagged', tagged_vlans: [vlans[1]!.id] },
        { id: interfaces[1]!.id, mode: 'tagged', tagged_vlans: [vlans[3]!.id] },
        { id: interfaces[2]!.id, mode: 'tagged', tagged_vlans: [vlans[5]!.id] },
      ]);
      await patchAll(api, '/api/virtualization/interfaces/', [
        { id: vm_interfaces[0]!.id, mode: 'tagged', tagged_vlans: [vlans[1]!.id] },
        { id: vm_interfaces[1]!.id, mode: 'tagged', tagged_vlans: [vlans[3]!.id] },
        { id: vm_interfaces[2]!.id, mode: 'tagged', tagged_vlans: [vlans[5]!.id] },
      ]);
      return {
        regions,
        site_groups,
        sites,
        locations,
        racks,
        manufacturer,
        device_type,
        role,
        devices,
        interfaces,
        cluster_groups,
        cluster_type,
        clusters,
        virtual_machines,
        vm_interfaces,
        groups,
        roles,
        tenant_groups,
        tenants,
        vlans,
        cvlans,
      };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['VLAN 101', 'VLAN 102'] })).toBe(2);
    });
    it('test_vid', async () => {
      expect(await suite.count({ vid: ['101', '201', '301'] })).toBe(3);
    });
    it('test_region', async () => {
      const d = suite.data;
      const regions = d.regions.slice(0, 2);
      expect(await suite.count({ region_id: [regions[0]!.id, regions[1]!.id] })).toBe(4);
      expect(await suite.count({ region: [regions[0]!.slug, regions[1]!.slug] })).toBe(4);
    });
    it('test_site_group', async () => {
      const d = suite.data;
      const site_groups = d.site_groups.slice(0, 2);
      expect(await suite.count({ site_group_id: [site_groups[0]!.id, site_groups[1]!.id] })).toBe(4);
      expect(await suite.count({ site_group: [site_groups[0]!.slug, site_groups[1]!.slug] })).toBe(4);
    });
    it('test_site', async () => {
      const d = suite.data;
      const sites = d.sites;
      expect(await suite.count({ site_id: [sites[3]!.id, sites[4]!.id] })).toBe(4);
      expect(await suite.count({ site: [sites[3]!.slug, sites[4]!.slug] })).toBe(4);
    });
    it('test_group', async () => {
      const groups = suite.data.groups.filter((g) => g.name.startsWith('VLAN Group')).slice(0, 2);
      expect(await suite.count({ group_id: [groups[0]!.id, groups[1]!.id] })).toBe(4);
      expect(await suite.count({ group: [groups[0]!.slug, groups[1]!.slug] })).toBe(4);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_role', async () => {
      const d = suite.data;
      const roles = d.roles.slice(0, 2);
      expect(await suite.count({ role_id: [roles[0]!.id, roles[1]!.id] })).toBe(4);
      expect(await suite.count({ role: [roles[0]!.slug, roles[1]!.slug] })).toBe(4);
    });
    it('test_status', async () => {
      expect(await suite.count({ status: ['deprecated', 'reserved'] })).toBe(4);
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
    it('test_available_on_device', async () => {
      const device_id = suite.data.devices[0]!.id;
      expect(await suite.count({ available_on_device: device_id })).toBe(7);
    });
    it('test_available_on_device_cluster_scopes', async () => {
      const { api } = suite.app;
      const device = suite.data.devices[0]!;
      const cluster = suite.data.clusters[0]!;
      await patchAll(api, '/api/dcim/devices/', [{ id: device.id, cluster: cluster.id }]);
      try {
        const response = await api.get(`${suite.list}?available_on_device=${device.id}&limit=0`);
        const names = (response.body.results as { name: string }[]).map((v) => v.name);
        expect(names).toContain('Cluster 1');
        expect(names).toContain('Cluster Group 1');
        expect(names).not.toContain('Cluster 2');
        expect(names).not.toContain('Cluster Group 2');
        const vids = (response.body.results as { vid: number }[]).map((v) => v.vid).sort((a, b) => a - b);
        expect(vids).toEqual([1, 4, 7, 10, 13, 16, 19, 500, 1000]);
      } finally {
        await patchAll(api, '/api/dcim/devices/', [{ id: device.id, cluster: null }]);
      }
    });
    it('test_available_on_virtualmachine', async () => {
      const vms = suite.data.virtual_machines;
      expect(await suite.count({ available_on_virtualmachine: vms[0]!.id })).toBe(7);
      expect(await suite.count({ available_on_virtualmachine: vms[3]!.id })).toBe(8);
    });
    it('test_available_at_site', async () => {
      const site_id = suite.data.sites[0]!.id;
      expect(await suite.count({ available_at_site: site_id })).toBe(5);
    });
    it('test_available_at_site_group', async () => {
      const site_group = suite.data.site_groups[0]!;
      expect(await suite.count({ available_at_site_group: site_group.id })).toBe(3);
    });
    it('test_interface', async () => {
      const { api } = suite.app;
      expect(await suite.count({ interface_id: suite.data.interfaces[0]!.id })).toBe(1);
      // An interface untagged on one VLAN and tagged on another selects both.
      const vlans = suite.data.vlans.slice(0, 2);
      const body = {
        device: suite.data.devices[0]!.id,
        name: 'Interface X',
        type: '1000base-t',
        mode: 'tagged',
        untagged_vlan: vlans[0]!.id,
      };
      await withObjects(api, '/api/dcim/interfaces/', [body], async ([created]) => {
        await patchAll(api, '/api/dcim/interfaces/', [{ id: created!.id, tagged_vlans: [vlans[1]!.id] }]);
        expect(await suite.count({ interface_id: created!.id })).toBe(2);
        // A VLAN both untagged and tagged on the interface is listed once.
        await patchAll(api, '/api/dcim/interfaces/', [{ id: created!.id, tagged_vlans: [vlans[1]!.id, vlans[0]!.id] }]);
        const response = await api.get(`${suite.list}?interface_id=${created!.id}`);
        expect(response.body.count).toBe(2);
        expect(new Set((response.body.results as { id: number }[]).map((v) => v.id)).size).toBe(2);
      });
    });
    it('test_vminterface', async () => {
      const { api } = suite.app;
      expect(await suite.count({ vminterface_id: suite.data.vm_interfaces[0]!.id })).toBe(1);
      // An interface untagged on one VLAN and tagged on another selects both.
      const vlans = suite.data.vlans.slice(0, 2);
      const body = {
        virtual_machine: suite.data.virtual_machines[0]!.id,
        name: 'VM Interface X',
        mode: 'tagged',
        untagged_vlan: vlans[0]!.id,
      };
      await withObjects(api, '/api/virtualization/interfaces/', [body], async ([created]) => {
        await patchAll(api, '/api/virtualization/interfaces/', [{ id: created!.id, tagged_vlans: [vlans[1]!.id] }]);
        expect(await suite.count({ vminterface_id: created!.id })).toBe(2);
        // A VLAN both untagged and tagged on the interface is listed once.
        await patchAll(api, '/api/virtualization/interfaces/', [
          { id: created!.id, tagged_vlans: [vlans[1]!.id, vlans[0]!.id] },
        ]);
        const response = await api.get(`${suite.list}?vminterface_id=${created!.id}`);
        expect(response.body.count).toBe(2);
        expect(new Set((response.body.results as { id: number }[]).map((v) => v.id)).size).toBe(2);
      });
    });
    it('test_qinq_role', async () => {
      expect(await suite.count({ qinq_role: ['svlan', 'cvlan'] })).toBe(6);
    });
    it('test_qinq_svlan', async () => {
      const vlans = suite.data.vlans.filter((v) => v.qinq_role?.value === 'svlan').slice(0, 2);
      expect(await suite.count({ qinq_svlan_id: [vlans[0]!.id, vlans[1]!.id] })).toBe(2);
      expect(await suite.count({ qinq_svlan_vid: [vlans[0]!.vid, vlans[1]!.vid] })).toBe(2);
    });
  });

  describe('VLANTranslationPolicyTestCase', () => {
    const suite = filterSetSuite(shared, 'ipam.vlantranslationpolicy', async (api) => {
      const policies = await createAll(
        api,
        '/api/ipam/vlan-translation-policies/',
        [1, 2, 3].map((i) => ({ name: `Policy ${i}`, description: `foobar${i}` })),
      );
      return { policies };
    });
    changeLoggedTests(suite);
    it('test_name', async () => {
      expect(await suite.count({ name: ['Policy 1', 'Policy 2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
  });

  describe('VLANTranslationRuleTestCase', () => {
    const suite = filterSetSuite(shared, 'ipam.vlantranslationrule', async (api) => {
      const policies = await createAll(api, '/api/ipam/vlan-translation-policies/', [
        { name: 'Policy 1', description: 'foobar1' },
        { name: 'Policy 2', description: 'foobar2' },
      ]);
      const rules = await createAll(api, '/api/ipam/vlan-translation-rules/', [
        { policy: policies[0]!.id, local_vid: 100, remote_vid: 200, description: 'foo' },
        { policy: policies[0]!.id, local_vid: 101, remote_vid: 201, description: 'bar' },
        { policy: policies[1]!.id, local_vid: 100, remote_vid: 200, description: 'baz' },
      ]);
      return { policies, rules };
    });
    changeLoggedTests(suite);
    it('test_policy_id', async () => {
      const [policy] = suite.data.policies;
      expect(await suite.count({ policy_id: [policy!.id] })).toBe(2);
      expect(await suite.count({ policy: [policy!.name] })).toBe(2);
    });
    it('test_local_vid', async () => {
      expect(await suite.count({ local_vid: [100] })).toBe(2);
    });
    it('test_remote_vid', async () => {
      expect(await suite.count({ remote_vid: [200] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foo', 'bar'] })).toBe(2);
    });
  });
});
