import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/app.js';
import { changeLoggedTests, createAll, filterSetSuite, leftOut, patchAll, useApp } from '../support/filtersets.js';

/** NetBox 4.6.8 ipam/tests/test_filtersets.py (prefixes and IP addresses), for the models this service serves. */
describe.each(DIALECTS)('ipam-addresses filter sets on %s', (dialect) => {
  // NetBox's test data holds 10.0.0.1/24 and 10.0.0.1/25 outside any VRF (written with bulk_create, past
  // the global uniqueness check): the API accepts them only where global uniqueness is not enforced.
  const shared = useApp(dialect, { ENFORCE_GLOBAL_UNIQUE: false });

  describe('PrefixTestCase', () => {
    const suite = filterSetSuite(shared, 'ipam.prefix', async (api) => {
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
      const route_targets = await createAll(api, '/api/ipam/route-targets/', [
        { name: '65000:100' },
        { name: '65000:200' },
        { name: '65000:300' },
      ]);
      const vrfs = await createAll(api, '/api/ipam/vrfs/', [
        { name: 'VRF 1', rd: '65000:100' },
        { name: 'VRF 2', rd: '65000:200' },
        { name: 'VRF 3', rd: '65000:300' },
      ]);
      const vlan_groups = await createAll(api, '/api/ipam/vlan-groups/', [
        { name: 'VLAN Group 1', slug: 'vlan-group-1' },
        { name: 'VLAN Group 2', slug: 'vlan-group-2' },
      ]);
      await patchAll(api, '/api/ipam/vrfs/', [
        { id: vrfs[0]!.id, import_targets: [route_targets[0]!.id, route_targets[1]!.id, route_targets[2]!.id] },
        { id: vrfs[1]!.id, export_targets: [route_targets[1]!.id] },
        { id: vrfs[2]!.id, export_targets: [route_targets[2]!.id] },
      ]);
      const vlans = await createAll(api, '/api/ipam/vlans/', [
        { vid: 1, name: 'VLAN 1', group: vlan_groups[0]!.id },
        { vid: 2, name: 'VLAN 2', group: vlan_groups[1]!.id },
        { vid: 3, name: 'VLAN 3' },
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
      const prefixes = await createAll(api, '/api/ipam/prefixes/', [
        {
          prefix: '10.0.0.0/24',
          tenant: null,
          vrf: null,
          vlan: null,
          role: null,
          is_pool: true,
          mark_utilized: true,
          description: 'foobar1',
        },
        {
          prefix: '10.0.1.0/24',
          tenant: tenants[0]!.id,
          scope_type: 'dcim.site',
          scope_id: sites[0]!.id,
          vrf: vrfs[0]!.id,
          vlan: vlans[0]!.id,
          role: roles[0]!.id,
          description: 'foobar2',
        },
        {
          prefix: '10.0.2.0/24',
          tenant: tenants[1]!.id,
          scope_type: 'dcim.site',
          scope_id: sites[1]!.id,
          vrf: vrfs[1]!.id,
          vlan: vlans[1]!.id,
          role: roles[1]!.id,
          status: 'deprecated',
        },
        {
          prefix: '10.0.3.0/24',
          tenant: tenants[2]!.id,
          scope_type: 'dcim.site',
          scope_id: sites[2]!.id,
          vrf: vrfs[2]!.id,
          vlan: vlans[2]!.id,
          role: roles[2]!.id,
          status: 'reserved',
        },
        {
          prefix: '2001:db8::/64',
          tenant: null,
          vrf: null,
          vlan: null,
          role: null,
          is_pool: true,
          mark_utilized: true,
        },
        {
          prefix: '2001:db8:0:1::/64',
          tenant: tenants[0]!.id,
          scope_type: 'dcim.site',
          scope_id: sites[0]!.id,
          vrf: vrfs[0]!.id,
          vlan: vlans[0]!.id,
          role: roles[0]!.id,
        },
        {
          prefix: '2001:db8:0:2::/64',
          tenant: tenants[1]!.id,
          scope_type: 'dcim.site',
          scope_id: sites[1]!.id,
          vrf: vrfs[1]!.id,
          vlan: vlans[1]!.id,
          role: roles[1]!.id,
          status: 'deprecated',
        },
        {
          prefix: '2001:db8:0:3::/64',
          tenant: tenants[2]!.id,
          scope_type: 'dcim.site',
          scope_id: sites[2]!.id,
          vrf: vrfs[2]!.id,
          vlan: vlans[2]!.id,
          role: roles[2]!.id,
          status: 'reserved',
        },
        { prefix: '10.0.0.0/16' },
        { prefix: '2001:db8::/32' },
      ]);
      return {
        regions,
        site_groups,
        sites,
        route_targets,
        vrfs,
        vlan_groups,
        vlans,
        roles,
        tenant_groups,
        tenants,
        prefixes,
      };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_family', async () => {
      expect(await suite.count({ family: '6' })).toBe(5);
    });
    it('test_prefix', async () => {
      const d = suite.data;
      const prefixes = d.prefixes.slice(0, 2);
      expect(await suite.count({ prefix: [prefixes[0]!.prefix, prefixes[1]!.prefix] })).toBe(2);
    });
    it('test_is_pool', async () => {
      expect(await suite.count({ is_pool: 'true' })).toBe(2);
      expect(await suite.count({ is_pool: 'false' })).toBe(8);
    });
    it('test_mark_utilized', async () => {
      expect(await suite.count({ mark_utilized: 'true' })).toBe(2);
      expect(await suite.count({ mark_utilized: 'false' })).toBe(8);
    });
    it('test_within', async () => {
      expect(await suite.count({ within: '10.0.0.0/16' })).toBe(4);
    });
    it('test_within_include', async () => {
      expect(await suite.count({ within_include: '10.0.0.0/16' })).toBe(5);
    });
    it('test_contains', async () => {
      expect(await suite.count({ contains: '10.0.1.0/24' })).toBe(2);
      expect(await suite.count({ contains: '2001:db8:0:1::/64' })).toBe(2);
    });
    it('test_depth', async () => {
      expect(await suite.count({ depth: '0' })).toBe(8);
      expect(await suite.count({ depth__gt: '0' })).toBe(2);
    });
    it('test_children', async () => {
      expect(await suite.count({ children: '0' })).toBe(8);
      expect(await suite.count({ children__gt: '0' })).toBe(2);
    });
    it('test_mask_length', async () => {
      expect(await suite.count({ mask_length: [24] })).toBe(4);
      expect(await suite.count({ mask_length__gte: 32 })).toBe(5);
      expect(await suite.count({ mask_length__lte: 24 })).toBe(5);
    });
    it('test_vrf', async () => {
      const d = suite.data;
      const vrfs = d.vrfs.slice(0, 2);
      expect(await suite.count({ vrf_id: [vrfs[0]!.id, vrfs[1]!.id] })).toBe(4);
      expect(await suite.count({ vrf: [vrfs[0]!.rd, vrfs[1]!.rd] })).toBe(4);
    });
    it('test_present_in_vrf', async () => {
      const [vrf1, vrf2] = suite.data.vrfs;
      expect(await suite.count({ present_in_vrf_id: vrf1!.id })).toBe(6);
      expect(await suite.count({ present_in_vrf_id: vrf2!.id })).toBe(2);
      expect(await suite.count({ present_in_vrf: vrf1!.rd })).toBe(6);
      expect(await suite.count({ present_in_vrf: vrf2!.rd })).toBe(2);
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
      const sites = d.sites.slice(0, 2);
      expect(await suite.count({ site_id: [sites[0]!.id, sites[1]!.id] })).toBe(4);
      expect(await suite.count({ site: [sites[0]!.slug, sites[1]!.slug] })).toBe(4);
    });
    it('test_vlan_group', async () => {
      const d = suite.data;
      const vlan_groups = d.vlan_groups.slice(0, 2);
      expect(await suite.count({ vlan_group_id: [vlan_groups[0]!.id, vlan_groups[1]!.id] })).toBe(4);
      expect(await suite.count({ vlan_group: [vlan_groups[0]!.slug, vlan_groups[1]!.slug] })).toBe(4);
    });
    it('test_vlan', async () => {
      const d = suite.data;
      const vlans = d.vlans.slice(0, 2);
      expect(await suite.count({ vlan_id: [vlans[0]!.id, vlans[1]!.id] })).toBe(4);
      expect(await suite.count({ vlan_vid: vlans[0]!.vid })).toBe(2);
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
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
  });

  describe('IPAddressTestCase', () => {
    const suite = filterSetSuite(shared, 'ipam.ipaddress', async (api) => {
      const vrfs = await createAll(api, '/api/ipam/vrfs/', [
        { name: 'VRF 1', rd: '65000:100' },
        { name: 'VRF 2', rd: '65000:200' },
        { name: 'VRF 3', rd: '65000:300' },
      ]);
      const [site] = await createAll(api, '/api/dcim/sites/', [{ name: 'Site 1', slug: 'site-1' }]);
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
        { device_type: device_type!.id, name: 'Device 1', site: site!.id, role: role!.id },
        { device_type: device_type!.id, name: 'Device 2', site: site!.id, role: role!.id },
        { device_type: device_type!.id, name: 'Device 3', site: site!.id, role: role!.id },
      ]);
      const interfaces = await createAll(api, '/api/dcim/interfaces/', [
        { device: devices[0]!.id, name: 'Interface 1', type: '1000base-t' },
        { device: devices[1]!.id, name: 'Interface 2', type: '1000base-t' },
        { device: devices[2]!.id, name: 'Interface 3', type: '1000base-t' },
      ]);
      const [clustertype] = await createAll(api, '/api/virtualization/cluster-types/', [
        { name: 'Cluster Type 1', slug: 'cluster-type-1' },
      ]);
      const [cluster] = await createAll(api, '/api/virtualization/clusters/', [
        { type: clustertype!.id, name: 'Cluster 1' },
      ]);
      const virtual_machines = await createAll(api, '/api/virtualization/virtual-machines/', [
        { name: 'Virtual Machine 1', cluster: cluster!.id },
        { name: 'Virtual Machine 2', cluster: cluster!.id },
        { name: 'Virtual Machine 3', cluster: cluster!.id },
      ]);
      const vminterfaces = await createAll(api, '/api/virtualization/interfaces/', [
        { virtual_machine: virtual_machines[0]!.id, name: 'Interface 1' },
        { virtual_machine: virtual_machines[1]!.id, name: 'Interface 2' },
        { virtual_machine: virtual_machines[2]!.id, name: 'Interface 3' },
      ]);
      // FHRP groups are not served: the addresses NetBox assigns to them are unassigned here.
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
      const ipaddresses = await createAll(api, '/api/ipam/ip-addresses/', [
        {
          address: '10.0.0.1/24',
          tenant: null,
          vrf: null,
          status: 'active',
          dns_name: 'ipaddress-a',
          description: 'foobar1',
        },
        {
          address: '10.0.0.2/24',
          tenant: tenants[0]!.id,
          vrf: vrfs[0]!.id,
          assigned_object_type: 'dcim.interface',
          assigned_object_id: interfaces[0]!.id,
          status: 'active',
          dns_name: 'ipaddress-b',
        },
        {
          address: '10.0.0.3/24',
          tenant: tenants[1]!.id,
          vrf: vrfs[1]!.id,
          assigned_object_type: 'dcim.interface',
          assigned_object_id: interfaces[1]!.id,
          status: 'reserved',
          role: 'vip',
          dns_name: 'ipaddress-c',
        },
        {
          address: '10.0.0.4/24',
          tenant: tenants[2]!.id,
          vrf: vrfs[2]!.id,
          assigned_object_type: 'dcim.interface',
          assigned_object_id: interfaces[2]!.id,
          status: 'deprecated',
          role: 'secondary',
          dns_name: 'ipaddress-d',
        },
        { address: '10.0.0.5/24', tenant: null, vrf: null, status: 'active' },
        { address: '10.0.0.1/25', tenant: null, vrf: null, status: 'active' },
        {
          address: '2001:db8::1/64',
          tenant: null,
          vrf: null,
          status: 'active',
          dns_name: 'ipaddress-a',
          description: 'foobar2',
        },
        {
          address: '2001:db8::2/64',
          tenant: tenants[0]!.id,
          vrf: vrfs[0]!.id,
          assigned_object_type: 'virtualization.vminterface',
          assigned_object_id: vminterfaces[0]!.id,
          status: 'active',
          dns_name: 'ipaddress-b',
        },
        {
          address: '2001:db8::3/64',
          tenant: tenants[1]!.id,
          vrf: vrfs[1]!.id,
          assigned_object_type: 'virtualization.vminterface',
          assigned_object_id: vminterfaces[1]!.id,
          status: 'reserved',
          role: 'vip',
          dns_name: 'ipaddress-c',
        },
        {
          address: '2001:db8::4/64',
          tenant: tenants[2]!.id,
          vrf: vrfs[2]!.id,
          assigned_object_type: 'virtualization.vminterface',
          assigned_object_id: vminterfaces[2]!.id,
          status: 'deprecated',
          role: 'secondary',
          dns_name: 'ipaddress-d',
        },
        { address: '2001:db8::5/64', tenant: null, vrf: null, status: 'active' },
        { address: '2001:db8::1/65', tenant: null, vrf: null, status: 'active' },
      ]);
      await patchAll(api, '/api/ipam/ip-addresses/', [
        { id: ipaddresses[1]!.id, nat_inside: ipaddresses[0]!.id },
        { id: ipaddresses[2]!.id, nat_inside: ipaddresses[0]!.id },
      ]);
      const services = await createAll(
        api,
        '/api/ipam/services/',
        [0, 1, 2].map((i) => ({
          parent_object_type: 'dcim.device',
          parent_object_id: devices[i]!.id,
          name: `Service ${i + 1}`,
          protocol: 'tcp',
          ports: [1],
          ipaddresses: [ipaddresses[i]!.id],
        })),
      );
      return {
        vrfs,
        devices,
        interfaces,
        virtual_machines,
        vminterfaces,
        tenant_groups,
        tenants,
        ipaddresses,
        services,
      };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_family', async () => {
      expect(await suite.count({ family: '4' })).toBe(6);
      expect(await suite.count({ family: '6' })).toBe(6);
    });
    it('test_dns_name', async () => {
      expect(await suite.count({ dns_name: ['ipaddress-a', 'ipaddress-b'] })).toBe(4);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_parent', async () => {
      expect(await suite.count({ parent: ['10.0.0.0/30', '2001:db8::/126'] })).toBe(8);
    });
    it('test_filter_address', async () => {
      expect(await suite.count({ address: ['10.0.0.1/24'] })).toBe(1);
      expect(await suite.count({ address: ['10.0.0.1'] })).toBe(2);
      expect(await suite.count({ address: ['10.0.0.1/24', '10.0.0.1/25'] })).toBe(2);
      expect(await suite.count({ address: ['2001:db8::1/64'] })).toBe(1);
      expect(await suite.count({ address: ['2001:db8::1'] })).toBe(2);
      expect(await suite.count({ address: ['2001:db8::1/64', '2001:db8::1/65'] })).toBe(2);
      expect(await suite.count({ address: ['24'] })).toBe(0);
      expect(await suite.count({ address: ['10.0.0.1/255.255.255.0'] })).toBe(1);
      expect(await suite.count({ address: ['10.0.0.1/255.255.255.0', '10.0.0.1/25'] })).toBe(2);
      expect(await suite.count({ address: ['/24'] })).toBe(0);
      expect(await suite.count({ address: ['10.0.0.1/255.255.999.0'] })).toBe(0);
      expect(await suite.count({ address: ['10.0.0.1', '/24', '10.0.0.10/24'] })).toBe(2);
    });
    it('test_mask_length', async () => {
      expect(await suite.count({ mask_length: [24] })).toBe(5);
      expect(await suite.count({ mask_length__gte: 64 })).toBe(6);
      expect(await suite.count({ mask_length__lte: 25 })).toBe(6);
    });
    it('test_vrf', async () => {
      const d = suite.data;
      const vrfs = d.vrfs.slice(0, 2);
      expect(await suite.count({ vrf_id: [vrfs[0]!.id, vrfs[1]!.id] })).toBe(4);
      expect(await suite.count({ vrf: [vrfs[0]!.rd, vrfs[1]!.rd] })).toBe(4);
    });
    it('test_device', async () => {
      const d = suite.data;
      const devices = d.devices.slice(0, 2);
      expect(await suite.count({ device_id: [devices[0]!.id, devices[1]!.id] })).toBe(2);
      expect(await suite.count({ device: [devices[0]!.name, devices[1]!.name] })).toBe(2);
    });
    it('test_virtual_machine', async () => {
      const d = suite.data;
      const vms = d.virtual_machines.slice(0, 2);
      expect(await suite.count({ virtual_machine_id: [vms[0]!.id, vms[1]!.id] })).toBe(2);
      expect(await suite.count({ virtual_machine: [vms[0]!.name, vms[1]!.name] })).toBe(2);
    });
    it('test_interface', async () => {
      const d = suite.data;
      const interfaces = d.interfaces.slice(0, 2);
      expect(await suite.count({ interface_id: [interfaces[0]!.id, interfaces[1]!.id] })).toBe(2);
      expect(await suite.count({ interface: ['Interface 1', 'Interface 2'] })).toBe(2);
    });
    it('test_vminterface', async () => {
      const d = suite.data;
      const vminterfaces = d.vminterfaces.slice(0, 2);
      expect(await suite.count({ vminterface_id: [vminterfaces[0]!.id, vminterfaces[1]!.id] })).toBe(2);
      expect(await suite.count({ vminterface: ['Interface 1', 'Interface 2'] })).toBe(2);
    });
    leftOut('test_fhrpgroup', 'FHRP groups are not served (the filter accepts only null)');
    leftOut('test_assigned', 'FHRP groups are not served: two of the eight assigned addresses are assigned to one');
    it('test_assigned_to_interface', async () => {
      expect(await suite.count({ assigned_to_interface: 'true' })).toBe(6);
      expect(await suite.count({ assigned_to_interface: 'false' })).toBe(6);
    });
    it('test_status', async () => {
      expect(await suite.count({ status: ['deprecated', 'reserved'] })).toBe(4);
    });
    it('test_role', async () => {
      expect(await suite.count({ role: ['secondary', 'vip'] })).toBe(4);
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
    it('test_service', async () => {
      const services = suite.data.services.slice(0, 2);
      expect(await suite.count({ service_id: [services[0]!.id, services[1]!.id] })).toBe(2);
    });
    it('test_nat_inside', async () => {
      const inside = suite.data.ipaddresses[0]!;
      expect(await suite.count({ nat_inside_id: [inside.id] })).toBe(2);
    });
  });
});
