import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/app.js';
import {
  changeLoggedTests,
  createAll,
  filterSetSuite,
  leftOut,
  patchAll,
  setValue,
  useApp,
  withObjects,
  type Row,
} from '../support/filtersets.js';

/** NetBox 4.6.8 dcim/tests/test_filtersets.py (device types, roles, platforms, devices and interfaces), for the models this service serves. */
describe.each(DIALECTS)('dcim-devices filter sets on %s', (dialect) => {
  const shared = useApp(dialect);

  describe('ManufacturerTestCase', () => {
    const suite = filterSetSuite(shared, 'dcim.manufacturer', async (api) => {
      const manufacturers = await createAll(api, '/api/dcim/manufacturers/', [
        { name: 'Manufacturer 1', slug: 'manufacturer-1', description: 'foobar1' },
        { name: 'Manufacturer 2', slug: 'manufacturer-2', description: 'foobar2' },
        { name: 'Manufacturer 3', slug: 'manufacturer-3', description: 'foobar3' },
      ]);
      return { manufacturers };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Manufacturer 1', 'Manufacturer 2'] })).toBe(2);
    });
    it('test_slug', async () => {
      expect(await suite.count({ slug: ['manufacturer-1', 'manufacturer-2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
  });

  describe('DeviceTypeTestCase', () => {
    const suite = filterSetSuite(shared, 'dcim.devicetype', async (api, app) => {
      const manufacturers = await createAll(api, '/api/dcim/manufacturers/', [
        { name: 'Manufacturer 1', slug: 'manufacturer-1' },
        { name: 'Manufacturer 2', slug: 'manufacturer-2' },
        { name: 'Manufacturer 3', slug: 'manufacturer-3' },
      ]);
      const platforms = await createAll(api, '/api/dcim/platforms/', [
        { name: 'Platform 1', slug: 'platform-1', manufacturer: manufacturers[0]!.id },
        { name: 'Platform 2', slug: 'platform-2', manufacturer: manufacturers[1]!.id },
        { name: 'Platform 3', slug: 'platform-3', manufacturer: manufacturers[2]!.id },
      ]);
      const device_types = await createAll(api, '/api/dcim/device-types/', [
        {
          manufacturer: manufacturers[0]!.id,
          default_platform: platforms[0]!.id,
          model: 'Model 1',
          slug: 'model-1',
          part_number: 'Part Number 1',
          u_height: 1,
          is_full_depth: true,
          weight: 10,
          weight_unit: 'lb',
          description: 'foobar1',
        },
        {
          manufacturer: manufacturers[1]!.id,
          default_platform: platforms[1]!.id,
          model: 'Model 2',
          slug: 'model-2',
          part_number: 'Part Number 2',
          u_height: 2,
          is_full_depth: true,
          subdevice_role: 'parent',
          airflow: 'front-to-rear',
          weight: 20,
          weight_unit: 'lb',
          description: 'foobar2',
        },
        {
          manufacturer: manufacturers[2]!.id,
          model: 'Model 3',
          slug: 'model-3',
          part_number: 'Part Number 3',
          u_height: 0,
          is_full_depth: false,
          subdevice_role: 'child',
          airflow: 'rear-to-front',
          weight: 30,
          weight_unit: 'kg',
          description: 'foobar3',
        },
      ]);
      // Images are uploads here: the names NetBox's test stores are set directly, as is the height of the
      // child type (the API wants a child 0U, NetBox's test saves it without validation). Component templates
      // are not served.
      await setValue(app, 'dcim.devicetype', [device_types[2]!.id], 'u_height', 3);
      await setValue(app, 'dcim.devicetype', [device_types[0]!.id], 'front_image', 'devicetype-images/front.png');
      await setValue(app, 'dcim.devicetype', [device_types[0]!.id], 'rear_image', 'devicetype-images/rear.png');
      return { manufacturers, platforms, device_types };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_model', async () => {
      expect(await suite.count({ model: ['Model 1', 'Model 2'] })).toBe(2);
    });
    it('test_slug', async () => {
      expect(await suite.count({ slug: ['model-1', 'model-2'] })).toBe(2);
    });
    it('test_part_number', async () => {
      expect(await suite.count({ part_number: ['Part Number 1', 'Part Number 2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_u_height', async () => {
      expect(await suite.count({ u_height: [1, 2] })).toBe(2);
    });
    it('test_is_full_depth', async () => {
      expect(await suite.count({ is_full_depth: true })).toBe(2);
      expect(await suite.count({ is_full_depth: false })).toBe(1);
    });
    it('test_subdevice_role', async () => {
      expect(await suite.count({ subdevice_role: 'parent' })).toBe(1);
    });
    it('test_airflow', async () => {
      expect(await suite.count({ airflow: 'front-to-rear' })).toBe(1);
    });
    it('test_manufacturer', async () => {
      const d = suite.data;
      const manufacturers = d.manufacturers.slice(0, 2);
      expect(await suite.count({ manufacturer_id: [manufacturers[0]!.id, manufacturers[1]!.id] })).toBe(2);
      expect(await suite.count({ manufacturer: [manufacturers[0]!.slug, manufacturers[1]!.slug] })).toBe(2);
    });
    it('test_default_platform', async () => {
      const d = suite.data;
      const platforms = d.platforms.slice(0, 2);
      expect(await suite.count({ default_platform_id: [platforms[0]!.id, platforms[1]!.id] })).toBe(2);
      expect(await suite.count({ default_platform: [platforms[0]!.slug, platforms[1]!.slug] })).toBe(2);
    });
    it('test_has_front_image', async () => {
      expect(await suite.count({ has_front_image: true })).toBe(1);
      expect(await suite.count({ has_front_image: false })).toBe(2);
    });
    it('test_has_rear_image', async () => {
      expect(await suite.count({ has_rear_image: true })).toBe(1);
      expect(await suite.count({ has_rear_image: false })).toBe(2);
    });
    leftOut(
      'test_device_bays',
      "NetBox's data gives device type 2 (a child type) a device bay template, which its bulk_create lets by clean(); here a device bay needs a parent type",
    );
    it('test_weight', async () => {
      expect(await suite.count({ weight: [10, 20] })).toBe(2);
    });
    it('test_weight_unit', async () => {
      expect(await suite.count({ weight_unit: 'lb' })).toBe(2);
    });
  });

  describe('DeviceRoleTestCase', () => {
    const suite = filterSetSuite(shared, 'dcim.devicerole', async (api) => {
      const parent_roles = await createAll(api, '/api/dcim/device-roles/', [
        { name: 'Device Role 1', slug: 'device-role-1', color: 'ff0000', vm_role: true, description: 'foobar1' },
        { name: 'Device Role 2', slug: 'device-role-2', color: '00ff00', vm_role: true, description: 'foobar2' },
        { name: 'Device Role 3', slug: 'device-role-3', color: '0000ff', vm_role: false },
      ]);
      const roles = await createAll(api, '/api/dcim/device-roles/', [
        { name: 'Device Role 1A', slug: 'device-role-1a', color: 'aa0000', vm_role: true, parent: parent_roles[0]!.id },
        { name: 'Device Role 2A', slug: 'device-role-2a', color: '00aa00', vm_role: true, parent: parent_roles[1]!.id },
        {
          name: 'Device Role 3A',
          slug: 'device-role-3a',
          color: '0000aa',
          vm_role: false,
          parent: parent_roles[2]!.id,
        },
      ]);
      const child_roles = await createAll(api, '/api/dcim/device-roles/', [
        { name: 'Device Role 1A1', slug: 'device-role-1a1', color: 'bb0000', vm_role: true, parent: roles[0]!.id },
        { name: 'Device Role 2A1', slug: 'device-role-2a1', color: '00bb00', vm_role: true, parent: roles[1]!.id },
        { name: 'Device Role 3A1', slug: 'device-role-3a1', color: '0000bb', vm_role: false, parent: roles[2]!.id },
      ]);
      return { parent_roles, roles, child_roles };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Device Role 1', 'Device Role 2'] })).toBe(2);
    });
    it('test_slug', async () => {
      expect(await suite.count({ slug: ['device-role-1', 'device-role-2'] })).toBe(2);
    });
    it('test_color', async () => {
      expect(await suite.count({ color: ['ff0000', '00ff00'] })).toBe(2);
    });
    it('test_vm_role', async () => {
      expect(await suite.count({ vm_role: 'true' })).toBe(6);
      expect(await suite.count({ vm_role: 'false' })).toBe(3);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_parent', async () => {
      const roles = suite.data.parent_roles.slice(0, 2);
      expect(await suite.count({ parent_id: [roles[0]!.id, roles[1]!.id] })).toBe(2);
      expect(await suite.count({ parent: [roles[0]!.slug, roles[1]!.slug] })).toBe(2);
    });
    it('test_ancestor', async () => {
      const roles = suite.data.parent_roles.slice(0, 2);
      expect(await suite.count({ ancestor_id: [roles[0]!.id, roles[1]!.id] })).toBe(4);
      expect(await suite.count({ ancestor: [roles[0]!.slug, roles[1]!.slug] })).toBe(4);
    });
  });

  describe('PlatformTestCase', () => {
    const suite = filterSetSuite(shared, 'dcim.platform', async (api) => {
      const manufacturers = await createAll(api, '/api/dcim/manufacturers/', [
        { name: 'Manufacturer 1', slug: 'manufacturer-1' },
        { name: 'Manufacturer 2', slug: 'manufacturer-2' },
        { name: 'Manufacturer 3', slug: 'manufacturer-3' },
      ]);
      const platforms = await createAll(api, '/api/dcim/platforms/', [
        { name: 'Platform 1', slug: 'platform-1', manufacturer: manufacturers[0]!.id, description: 'foobar1' },
        { name: 'Platform 2', slug: 'platform-2', manufacturer: manufacturers[1]!.id, description: 'foobar2' },
        { name: 'Platform 3', slug: 'platform-3', manufacturer: manufacturers[2]!.id, description: 'foobar3' },
        { name: 'Platform 4', slug: 'platform-4' },
      ]);
      const child_platforms = await createAll(api, '/api/dcim/platforms/', [
        { parent: platforms[0]!.id, name: 'Platform 1A', slug: 'platform-1a', manufacturer: manufacturers[0]!.id },
        { parent: platforms[1]!.id, name: 'Platform 2A', slug: 'platform-2a', manufacturer: manufacturers[1]!.id },
        { parent: platforms[2]!.id, name: 'Platform 3A', slug: 'platform-3a', manufacturer: manufacturers[2]!.id },
      ]);
      const grandchild_platforms = await createAll(api, '/api/dcim/platforms/', [
        {
          parent: child_platforms[0]!.id,
          name: 'Platform 1A1',
          slug: 'platform-1a1',
          manufacturer: manufacturers[0]!.id,
        },
        {
          parent: child_platforms[1]!.id,
          name: 'Platform 2A1',
          slug: 'platform-2a1',
          manufacturer: manufacturers[1]!.id,
        },
        {
          parent: child_platforms[2]!.id,
          name: 'Platform 3A1',
          slug: 'platform-3a1',
          manufacturer: manufacturers[2]!.id,
        },
      ]);
      return { manufacturers, platforms, child_platforms, grandchild_platforms };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Platform 1', 'Platform 2'] })).toBe(2);
    });
    it('test_slug', async () => {
      expect(await suite.count({ slug: ['platform-1', 'platform-2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_parent', async () => {
      const platforms = suite.data.platforms.slice(0, 2);
      expect(await suite.count({ parent_id: [platforms[0]!.id, platforms[1]!.id] })).toBe(2);
      expect(await suite.count({ parent: [platforms[0]!.slug, platforms[1]!.slug] })).toBe(2);
    });
    it('test_ancestor', async () => {
      const platforms = suite.data.platforms.slice(0, 2);
      expect(await suite.count({ ancestor_id: [platforms[0]!.id, platforms[1]!.id] })).toBe(4);
      expect(await suite.count({ ancestor: [platforms[0]!.slug, platforms[1]!.slug] })).toBe(4);
    });
    it('test_manufacturer', async () => {
      const d = suite.data;
      const manufacturers = d.manufacturers.slice(0, 2);
      expect(await suite.count({ manufacturer_id: [manufacturers[0]!.id, manufacturers[1]!.id] })).toBe(6);
      expect(await suite.count({ manufacturer: [manufacturers[0]!.slug, manufacturers[1]!.slug] })).toBe(6);
    });
    it('test_available_for_device_type', async () => {
      const manufacturer = suite.data.manufacturers[0]!;
      const body = { manufacturer: manufacturer.id, model: 'Device Type 1', slug: 'device-type-1', u_height: 1 };
      await withObjects(suite.app.api, '/api/dcim/device-types/', [body], async ([device_type]) => {
        expect(await suite.count({ available_for_device_type: device_type!.id })).toBe(4);
      });
    });
  });

  describe('DeviceTestCase', () => {
    const suite = filterSetSuite(shared, 'dcim.device', async (api) => {
      const manufacturers = await createAll(api, '/api/dcim/manufacturers/', [
        { name: 'Manufacturer 1', slug: 'manufacturer-1' },
        { name: 'Manufacturer 2', slug: 'manufacturer-2' },
        { name: 'Manufacturer 3', slug: 'manufacturer-3' },
      ]);
      const device_types = await createAll(api, '/api/dcim/device-types/', [
        { manufacturer: manufacturers[0]!.id, model: 'Model 1', slug: 'model-1', is_full_depth: true },
        { manufacturer: manufacturers[1]!.id, model: 'Model 2', slug: 'model-2', is_full_depth: true },
        { manufacturer: manufacturers[2]!.id, model: 'Model 3', slug: 'model-3', is_full_depth: false },
      ]);
      const roles = await createAll(api, '/api/dcim/device-roles/', [
        { name: 'Device Role 1', slug: 'device-role-1' },
        { name: 'Device Role 2', slug: 'device-role-2' },
        { name: 'Device Role 3', slug: 'device-role-3' },
      ]);
      const platforms = await createAll(api, '/api/dcim/platforms/', [
        { name: 'Platform 1', slug: 'platform-1' },
        { name: 'Platform 2', slug: 'platform-2' },
        { name: 'Platform 3', slug: 'platform-3' },
      ]);
      const regions = await createAll(api, '/api/dcim/regions/', [
        { name: 'Region 1', slug: 'region-1' },
        { name: 'Region 2', slug: 'region-2' },
        { name: 'Region 3', slug: 'region-3' },
      ]);
      const groups = await createAll(api, '/api/dcim/site-groups/', [
        { name: 'Site Group 1', slug: 'site-group-1' },
        { name: 'Site Group 2', slug: 'site-group-2' },
        { name: 'Site Group 3', slug: 'site-group-3' },
      ]);
      const sites = await createAll(api, '/api/dcim/sites/', [
        { name: 'Site 1', slug: 'site-1', region: regions[0]!.id, group: groups[0]!.id },
        { name: 'Site 2', slug: 'site-2', region: regions[1]!.id, group: groups[1]!.id },
        { name: 'Site 3', slug: 'site-3', region: regions[2]!.id, group: groups[2]!.id },
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
      const [cluster_type] = await createAll(api, '/api/virtualization/cluster-types/', [
        { name: 'Cluster Type 1', slug: 'cluster-type-1' },
      ]);
      const cluster_groups = await createAll(api, '/api/virtualization/cluster-groups/', [
        { name: 'Cluster Group 1', slug: 'cluster-group-1' },
        { name: 'Cluster Group 2', slug: 'cluster-group-2' },
        { name: 'Cluster Group 3', slug: 'cluster-group-3' },
      ]);
      const clusters = await createAll(api, '/api/virtualization/clusters/', [
        { name: 'Cluster 1', type: cluster_type!.id, group: cluster_groups[0]!.id },
        { name: 'Cluster 2', type: cluster_type!.id, group: cluster_groups[1]!.id },
        { name: 'Cluster 3', type: cluster_type!.id, group: cluster_groups[2]!.id },
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
      const devices = await createAll(api, '/api/dcim/devices/', [
        {
          name: 'Device 1',
          device_type: device_types[0]!.id,
          role: roles[0]!.id,
          platform: platforms[0]!.id,
          tenant: tenants[0]!.id,
          serial: 'ABC',
          asset_tag: '1001',
          site: sites[0]!.id,
          location: locations[0]!.id,
          rack: racks[0]!.id,
          position: 1,
          face: 'front',
          latitude: 10,
          longitude: 10,
          status: 'active',
          cluster: clusters[0]!.id,
          local_context_data: { foo: 123 },
          description: 'foobar1',
        },
        {
          name: 'Device 2',
          device_type: device_types[1]!.id,
          role: roles[1]!.id,
          platform: platforms[1]!.id,
          tenant: tenants[1]!.id,
          serial: 'DEF',
          asset_tag: '1002',
          site: sites[1]!.id,
          location: locations[1]!.id,
          rack: racks[1]!.id,
          position: 2,
          face: 'front',
          latitude: 20,
          longitude: 20,
          status: 'staged',
          airflow: 'front-to-rear',
          cluster: clusters[1]!.id,
          description: 'foobar2',
        },
        {
          name: 'Device 3',
          device_type: device_types[2]!.id,
          role: roles[2]!.id,
          platform: platforms[2]!.id,
          tenant: tenants[2]!.id,
          serial: 'GHI',
          asset_tag: '1003',
          site: sites[2]!.id,
          location: locations[2]!.id,
          rack: racks[2]!.id,
          position: 3,
          face: 'rear',
          latitude: 30,
          longitude: 30,
          status: 'failed',
          airflow: 'rear-to-front',
          cluster: clusters[2]!.id,
          description: 'foobar3',
        },
      ]);
      // Console, power, front and rear ports, module and device bays are not served.
      const interfaces = await createAll(api, '/api/dcim/interfaces/', [
        { device: devices[0]!.id, name: 'Interface 1', type: '1000base-t' },
        { device: devices[1]!.id, name: 'Interface 2', type: '1000base-t' },
      ]);
      await createAll(api, '/api/dcim/mac-addresses/', [
        {
          mac_address: '00-00-00-00-00-01',
          assigned_object_type: 'dcim.interface',
          assigned_object_id: interfaces[0]!.id,
        },
        {
          mac_address: '00-00-00-00-00-02',
          assigned_object_type: 'dcim.interface',
          assigned_object_id: interfaces[1]!.id,
        },
      ]);
      const ipaddresses = await createAll(api, '/api/ipam/ip-addresses/', [
        { address: '192.0.2.1/24', assigned_object_type: 'dcim.interface', assigned_object_id: interfaces[0]!.id },
        { address: '192.0.2.2/24', assigned_object_type: 'dcim.interface', assigned_object_id: interfaces[1]!.id },
        { address: '192.0.2.3/24' },
        { address: '2001:db8::1/64', assigned_object_type: 'dcim.interface', assigned_object_id: interfaces[0]!.id },
        { address: '2001:db8::2/64', assigned_object_type: 'dcim.interface', assigned_object_id: interfaces[1]!.id },
        { address: '2001:db8::3/64' },
      ]);
      // NetBox's chassis has no name (it is created without validation).
      const [chassis] = await createAll(api, '/api/dcim/virtual-chassis/', [
        { name: 'Virtual Chassis', master: devices[0]!.id },
      ]);
      await createAll(api, '/api/dcim/virtual-device-contexts/', [
        { device: devices[0]!.id, name: 'VDC 1', identifier: 1, status: 'active' },
      ]);
      await patchAll(api, '/api/dcim/devices/', [
        {
          id: devices[0]!.id,
          primary_ip4: ipaddresses[0]!.id,
          primary_ip6: ipaddresses[3]!.id,
          virtual_chassis: chassis!.id,
          vc_position: 1,
          vc_priority: 1,
        },
        {
          id: devices[1]!.id,
          primary_ip4: ipaddresses[1]!.id,
          primary_ip6: ipaddresses[4]!.id,
          virtual_chassis: chassis!.id,
          vc_position: 2,
          vc_priority: 2,
        },
      ]);
      return {
        manufacturers,
        device_types,
        roles,
        platforms,
        regions,
        groups,
        sites,
        locations,
        racks,
        cluster_type,
        cluster_groups,
        clusters,
        tenant_groups,
        tenants,
        devices,
        interfaces,
        ipaddresses,
      };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Device 1', 'Device 2'] })).toBe(2);
      expect(await suite.count({ name: ['DEVICE 1', 'DEVICE 2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_asset_tag', async () => {
      expect(await suite.count({ asset_tag: ['1001', '1002'] })).toBe(2);
    });
    it('test_face', async () => {
      expect(await suite.count({ face: 'front' })).toBe(2);
    });
    it('test_position', async () => {
      expect(await suite.count({ position: [1, 2] })).toBe(2);
    });
    it('test_latitude', async () => {
      expect(await suite.count({ latitude: [10, 20] })).toBe(2);
    });
    it('test_longitude', async () => {
      expect(await suite.count({ longitude: [10, 20] })).toBe(2);
    });
    it('test_vc_position', async () => {
      expect(await suite.count({ vc_position: [1, 2] })).toBe(2);
    });
    it('test_vc_priority', async () => {
      expect(await suite.count({ vc_priority: [1, 2] })).toBe(2);
    });
    it('test_manufacturer', async () => {
      const d = suite.data;
      const manufacturers = d.manufacturers.slice(0, 2);
      expect(await suite.count({ manufacturer_id: [manufacturers[0]!.id, manufacturers[1]!.id] })).toBe(2);
      expect(await suite.count({ manufacturer: [manufacturers[0]!.slug, manufacturers[1]!.slug] })).toBe(2);
    });
    it('test_devicetype', async () => {
      const d = suite.data;
      const device_types = d.device_types.slice(0, 2);
      expect(await suite.count({ device_type_id: [device_types[0]!.id, device_types[1]!.id] })).toBe(2);
      expect(await suite.count({ device_type: [device_types[0]!.slug, device_types[1]!.slug] })).toBe(2);
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
    it('test_region', async () => {
      const d = suite.data;
      const regions = d.regions.slice(0, 2);
      expect(await suite.count({ region_id: [regions[0]!.id, regions[1]!.id] })).toBe(2);
      expect(await suite.count({ region: [regions[0]!.slug, regions[1]!.slug] })).toBe(2);
    });
    it('test_site_group', async () => {
      const d = suite.data;
      const site_groups = d.groups.slice(0, 2);
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
      const d = suite.data;
      const locations = d.locations.slice(0, 2);
      expect(await suite.count({ location_id: [locations[0]!.id, locations[1]!.id] })).toBe(2);
      expect(await suite.count({ location: [locations[0]!.slug, locations[1]!.slug] })).toBe(2);
    });
    it('test_rack', async () => {
      const d = suite.data;
      const racks = d.racks.slice(0, 2);
      expect(await suite.count({ rack_id: [racks[0]!.id, racks[1]!.id] })).toBe(2);
    });
    it('test_cluster', async () => {
      const d = suite.data;
      const clusters = d.clusters.slice(0, 2);
      expect(await suite.count({ cluster_id: [clusters[0]!.id, clusters[1]!.id] })).toBe(2);
    });
    it('test_cluster_group', async () => {
      const d = suite.data;
      const cluster_groups = d.cluster_groups.slice(0, 2);
      expect(await suite.count({ cluster_group_id: [cluster_groups[0]!.id, cluster_groups[1]!.id] })).toBe(2);
      expect(await suite.count({ cluster_group: [cluster_groups[0]!.slug, cluster_groups[1]!.slug] })).toBe(2);
    });
    it('test_model', async () => {
      expect(await suite.count({ model: ['model-1', 'model-2'] })).toBe(2);
    });
    it('test_status', async () => {
      expect(await suite.count({ status: ['active', 'staged'] })).toBe(2);
    });
    it('test_is_full_depth', async () => {
      expect(await suite.count({ is_full_depth: 'true' })).toBe(2);
      expect(await suite.count({ is_full_depth: 'false' })).toBe(1);
    });
    it('test_airflow', async () => {
      expect(await suite.count({ airflow: 'front-to-rear' })).toBe(1);
    });
    it('test_mac_address', async () => {
      expect(await suite.count({ mac_address: ['00-00-00-00-00-01', '00-00-00-00-00-02'] })).toBe(2);
    });
    it('test_serial', async () => {
      expect(await suite.count({ serial: ['ABC', 'DEF'] })).toBe(2);
      expect(await suite.count({ serial: ['abc', 'def'] })).toBe(2);
    });
    it('test_has_primary_ip', async () => {
      expect(await suite.count({ has_primary_ip: 'true' })).toBe(2);
      expect(await suite.count({ has_primary_ip: 'false' })).toBe(1);
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
    it('test_virtual_chassis_id', async () => {
      const chassis = await suite.app.api.get('/api/dcim/virtual-chassis/?limit=1');
      expect(await suite.count({ virtual_chassis_id: [chassis.body.results[0].id] })).toBe(2);
    });
    it('test_virtual_chassis_member', async () => {
      expect(await suite.count({ virtual_chassis_member: 'true' })).toBe(2);
      expect(await suite.count({ virtual_chassis_member: 'false' })).toBe(1);
    });
    it('test_interfaces', async () => {
      expect(await suite.count({ interfaces: 'true' })).toBe(2);
      expect(await suite.count({ interfaces: 'false' })).toBe(1);
    });
    leftOut(
      'test_device_bays',
      "NetBox's data gives device 2 (of a child type) a device bay, which its bulk_create lets by clean(); here a device bay needs a parent type",
    );
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
    it('test_has_virtual_device_context', async () => {
      expect(await suite.count({ has_virtual_device_context: 'true' })).toBe(1);
      expect(await suite.count({ has_virtual_device_context: 'false' })).toBe(2);
    });
  });

  describe('InterfaceTestCase', () => {
    /** NetBox's set-up data, its two cables and its wireless link included. */
    const suite = filterSetSuite(shared, 'dcim.interface', async (api) => {
      const regions = await createAll(api, '/api/dcim/regions/', [
        { name: 'Region 1', slug: 'region-1' },
        { name: 'Region 2', slug: 'region-2' },
        { name: 'Region 3', slug: 'region-3' },
      ]);
      const groups = await createAll(api, '/api/dcim/site-groups/', [
        { name: 'Site Group 1', slug: 'site-group-1' },
        { name: 'Site Group 2', slug: 'site-group-2' },
        { name: 'Site Group 3', slug: 'site-group-3' },
      ]);
      const sites = await createAll(api, '/api/dcim/sites/', [
        { name: 'Site 1', slug: 'site-1', region: regions[0]!.id, group: groups[0]!.id },
        { name: 'Site 2', slug: 'site-2', region: regions[1]!.id, group: groups[1]!.id },
        { name: 'Site 3', slug: 'site-3', region: regions[2]!.id, group: groups[2]!.id },
        { name: 'Site X', slug: 'site-x' },
      ]);
      const [manufacturer] = await createAll(api, '/api/dcim/manufacturers/', [
        { name: 'Manufacturer 1', slug: 'manufacturer-1' },
      ]);
      const device_types = await createAll(
        api,
        '/api/dcim/device-types/',
        [1, 2, 3].map((i) => ({ manufacturer: manufacturer!.id, model: `Device Type ${i}`, slug: `device-type-${i}` })),
      );
      const roles = await createAll(
        api,
        '/api/dcim/device-roles/',
        [1, 2, 3].map((i) => ({ name: `Device Role ${i}`, slug: `device-role-${i}` })),
      );
      const locations = await createAll(
        api,
        '/api/dcim/locations/',
        [0, 1, 2].map((i) => ({ name: `Location ${i + 1}`, slug: `location-${i + 1}`, site: sites[i]!.id })),
      );
      const racks = await createAll(
        api,
        '/api/dcim/racks/',
        [0, 1, 2].map((i) => ({ name: `Rack ${i + 1}`, site: sites[i]!.id, location: locations[i]!.id })),
      );
      const tenants = await createAll(
        api,
        '/api/tenancy/tenants/',
        [1, 2, 3].map((i) => ({ name: `Tenant ${i}`, slug: `tenant-${i}` })),
      );
      const place = (site: number, type: number, role: number) => ({
        device_type: device_types[type]!.id,
        role: roles[role]!.id,
        site: sites[site]!.id,
        ...(site < 3 ? { location: locations[site]!.id, rack: racks[site]!.id } : {}),
      });
      const [chassis] = await createAll(api, '/api/dcim/virtual-chassis/', [{ name: 'Virtual Chassis' }]);
      const member = (position: number) => ({ virtual_chassis: chassis!.id, vc_position: position, vc_priority: 1 });
      const devices = await createAll(api, '/api/dcim/devices/', [
        { name: 'Device 1A', tenant: tenants[0]!.id, ...place(0, 0, 0), ...member(1), status: 'active' },
        { name: 'Device 1B', tenant: tenants[1]!.id, ...place(2, 2, 2), ...member(2), status: 'planned' },
        { name: 'Device 2', tenant: tenants[2]!.id, ...place(1, 1, 1), status: 'offline' },
        { name: 'Device 3', tenant: tenants[2]!.id, ...place(2, 2, 2), status: 'offline' },
        { name: null, ...place(3, 2, 2), status: 'offline' },
      ]);
      await patchAll(api, '/api/dcim/virtual-chassis/', [{ id: chassis!.id, master: devices[0]!.id }]);
      const vrfs = await createAll(
        api,
        '/api/ipam/vrfs/',
        [1, 2, 3].map((i) => ({ name: `VRF ${i}`, rd: `65000:${i}` })),
      );
      const vlans = await createAll(
        api,
        '/api/ipam/vlans/',
        [1, 2, 3].map((i) => ({ name: `SVLAN ${i}`, vid: 1000 + i, qinq_role: 'svlan' })),
      );
      const vlan_translation_policies = await createAll(
        api,
        '/api/ipam/vlan-translation-policies/',
        [1, 2, 3].map((i) => ({ name: `Policy ${i}` })),
      );
      const interfaces = await createAll(api, '/api/dcim/interfaces/', [
        {
          device: devices[0]!.id,
          name: 'Interface 1',
          vlan_translation_policy: vlan_translation_policies[0]!.id,
          label: 'A',
          type: '1000base-x-sfp',
          enabled: true,
          mgmt_only: true,
          mtu: 100,
          mode: 'access',
          description: 'First',
          vrf: vrfs[0]!.id,
          speed: 1000000,
          duplex: 'half',
          poe_mode: 'pse',
          poe_type: 'type1-ieee802.3af',
        },
        { device: devices[1]!.id, name: 'VC Chassis Interface', type: '1000base-x-sfp', enabled: true },
        {
          device: devices[2]!.id,
          name: 'Interface 2',
          vlan_translation_policy: vlan_translation_policies[0]!.id,
          label: 'B',
          type: '1000base-x-gbic',
          enabled: true,
          mgmt_only: true,
          mtu: 200,
          mode: 'tagged',
          description: 'Second',
          vrf: vrfs[1]!.id,
          speed: 1000000,
          duplex: 'full',
          poe_mode: 'pd',
          poe_type: 'type1-ieee802.3af',
        },
        {
          device: devices[3]!.id,
          name: 'Interface 3',
          vlan_translation_policy: vlan_translation_policies[1]!.id,
          label: 'C',
          type: '1000base-t',
          enabled: false,
          mgmt_only: false,
          mtu: 300,
          mode: 'tagged-all',
          description: 'Third',
          vrf: vrfs[2]!.id,
          speed: 100000,
          duplex: 'half',
          poe_mode: 'pse',
          poe_type: 'type2-ieee802.3at',
        },
        {
          device: devices[4]!.id,
          name: 'Interface 4',
          vlan_translation_policy: vlan_translation_policies[1]!.id,
          label: 'D',
          type: 'other',
          enabled: true,
          mgmt_only: true,
          tx_power: 40,
          speed: 16_000_000_000,
          duplex: 'full',
          poe_mode: 'pd',
          poe_type: 'type2-ieee802.3at',
          mode: 'q-in-q',
          qinq_svlan: vlans[0]!.id,
        },
        {
          device: devices[4]!.id,
          name: 'Interface 5',
          label: 'E',
          type: 'other',
          enabled: true,
          mgmt_only: true,
          tx_power: 40,
          mode: 'q-in-q',
          qinq_svlan: vlans[1]!.id,
        },
        {
          device: devices[4]!.id,
          name: 'Interface 6',
          label: 'F',
          type: 'other',
          enabled: false,
          mgmt_only: false,
          tx_power: 40,
          mode: 'q-in-q',
          qinq_svlan: vlans[2]!.id,
        },
        {
          device: devices[4]!.id,
          name: 'Interface 7',
          type: 'ieee802.11ac',
          rf_role: 'ap',
          rf_channel: '2.4g-1-2412-22',
          rf_channel_frequency: 2412,
          rf_channel_width: 22,
        },
        {
          device: devices[4]!.id,
          name: 'Interface 8',
          type: 'ieee802.11ac',
          rf_role: 'station',
          rf_channel: '5g-32-5160-20',
          rf_channel_frequency: 5160,
          rf_channel_width: 20,
        },
      ]);
      await createAll(api, '/api/dcim/mac-addresses/', [
        {
          mac_address: '00-00-00-00-00-01',
          assigned_object_type: 'dcim.interface',
          assigned_object_id: interfaces[0]!.id,
        },
        {
          mac_address: '00-00-00-00-00-02',
          assigned_object_type: 'dcim.interface',
          assigned_object_id: interfaces[2]!.id,
        },
        {
          mac_address: '00-00-00-00-00-03',
          assigned_object_type: 'dcim.interface',
          assigned_object_id: interfaces[3]!.id,
        },
      ]);
      const vdcs = await createAll(api, '/api/dcim/virtual-device-contexts/', [
        { device: devices[4]!.id, name: 'VDC 1', identifier: 1, status: 'active' },
        { device: devices[4]!.id, name: 'VDC 2', identifier: 2, status: 'planned' },
      ]);
      const inVdcs: Record<string, number[]> = {
        'Interface 4': [vdcs[0]!.id, vdcs[1]!.id],
        'Interface 5': [vdcs[0]!.id, vdcs[1]!.id],
        'Interface 6': [vdcs[0]!.id],
        'Interface 7': [vdcs[0]!.id],
        'Interface 8': [vdcs[1]!.id],
      };
      await patchAll(
        api,
        '/api/dcim/interfaces/',
        interfaces
          .filter((i) => (i.name as string) in inVdcs)
          .map((i) => ({ id: i.id, vdcs: inVdcs[i.name as string] })),
      );
      // Interfaces 1–3 belong to a module in a bay of their device.
      const [moduleType] = await createAll(api, '/api/dcim/module-types/', [
        { manufacturer: manufacturer!.id, model: 'Module Type 1' },
      ]);
      const numbered = interfaces.filter((i) => /^Interface [123]$/.test(i.name as string));
      const bays = await createAll(
        api,
        '/api/dcim/module-bays/',
        numbered.map((i, n) => ({ device: (i.device as { id: number }).id, name: `Module Bay ${n + 1}` })),
      );
      const modules = await createAll(
        api,
        '/api/dcim/modules/',
        bays.map((bay) => ({
          device: (bay.device as { id: number }).id,
          module_bay: bay.id,
          module_type: moduleType!.id,
        })),
      );
      await patchAll(
        api,
        '/api/dcim/interfaces/',
        numbered.map((i, n) => ({ id: i.id, module: modules[n]!.id })),
      );
      // Cables, as NetBox's set-up makes them.
      await createAll(
        api,
        '/api/dcim/cables/',
        [
          [0, 5],
          [1, 6],
        ].map(([a, b]) => ({
          a_terminations: [{ object_type: 'dcim.interface', object_id: interfaces[a!]!.id }],
          b_terminations: [{ object_type: 'dcim.interface', object_id: interfaces[b!]!.id }],
        })),
      );
      // And the wireless link between the two radios.
      await createAll(api, '/api/wireless/wireless-links/', [
        { interface_a: interfaces[7]!.id, interface_b: interfaces[8]!.id },
      ]);
      return {
        regions,
        groups,
        sites,
        device_types,
        roles,
        locations,
        racks,
        tenants,
        devices,
        vrfs,
        vlans,
        vlan_translation_policies,
        interfaces,
      };
    });
    changeLoggedTests(suite);
    // NetBox's DeviceComponentFilterSetTests (test_description is the class's own).
    it('test_q', async () => {
      expect(await suite.count({ q: 'First' })).toBe(1);
    });
    it('test_device_type', async () => {
      const device_types = suite.data.device_types.slice(0, 2);
      expect(await suite.count({ device_type_id: [device_types[0]!.id, device_types[1]!.id] })).toBe(2);
      expect(await suite.count({ device_type: [device_types[0]!.model, device_types[1]!.model] })).toBe(2);
    });
    it('test_device_role', async () => {
      const role = suite.data.roles.slice(0, 2);
      expect(await suite.count({ device_role_id: [role[0]!.id, role[1]!.id] })).toBe(2);
      expect(await suite.count({ device_role: [role[0]!.slug, role[1]!.slug] })).toBe(2);
    });
    it('test_device_status', async () => {
      expect(await suite.count({ device_status: ['active', 'planned'] })).toBe(2);
    });
    it('test_tenant', async () => {
      const tenants = suite.data.tenants.slice(0, 2);
      expect(await suite.count({ tenant_id: [tenants[0]!.id, tenants[1]!.id] })).toBe(2);
      expect(await suite.count({ tenant: [tenants[0]!.slug, tenants[1]!.slug] })).toBe(2);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Interface 1', 'Interface 2'] })).toBe(2);
    });
    it('test_label', async () => {
      expect(await suite.count({ label: ['A', 'B'] })).toBe(2);
    });
    it('test_enabled', async () => {
      expect(await suite.count({ enabled: 'true' })).toBe(7);
      expect(await suite.count({ enabled: 'false' })).toBe(2);
    });
    it('test_mtu', async () => {
      expect(await suite.count({ mtu: [100, 200] })).toBe(2);
    });
    it('test_speed', async () => {
      expect(await suite.count({ speed: [16_000_000_000, 1_000_000, 100_000] })).toBe(4);
    });
    it('test_duplex', async () => {
      expect(await suite.count({ duplex: ['half', 'full'] })).toBe(4);
    });
    it('test_mgmt_only', async () => {
      expect(await suite.count({ mgmt_only: 'true' })).toBe(4);
      expect(await suite.count({ mgmt_only: 'false' })).toBe(5);
    });
    it('test_poe_mode', async () => {
      expect(await suite.count({ poe_mode: ['pd', 'pse'] })).toBe(4);
    });
    it('test_poe_type', async () => {
      expect(await suite.count({ poe_type: ['type1-ieee802.3af', 'type2-ieee802.3at'] })).toBe(4);
    });
    it('test_mode', async () => {
      expect(await suite.count({ mode: ['access'] })).toBe(1);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['First', 'Second'] })).toBe(2);
    });
    it('test_parent', async () => {
      const first = suite.data.interfaces[0]!;
      const children = [1, 2, 3].map((i) => ({
        device: first.device.id,
        name: `Child ${i}`,
        parent: first.id,
        type: 'virtual',
      }));
      await withObjects(suite.app.api, suite.list, children, async () => {
        expect(await suite.count({ parent_id: [first.id] })).toBe(3);
      });
    });
    it('test_bridge', async () => {
      const first = suite.data.interfaces[0]!;
      const children = [1, 2, 3].map((i) => ({
        device: first.device.id,
        name: `Bridged ${i}`,
        bridge: first.id,
        type: '1000base-t',
      }));
      await withObjects(suite.app.api, suite.list, children, async () => {
        expect(await suite.count({ bridge_id: [first.id] })).toBe(3);
      });
    });
    it('test_lag', async () => {
      const { api } = suite.app;
      const device = suite.data.devices[0]!;
      await withObjects(api, suite.list, [{ device: device.id, name: 'LAG', type: 'lag' }], async ([lag]) => {
        const members = [1, 2, 3].map((i) => ({
          device: device.id,
          name: `Member ${i}`,
          lag: lag!.id,
          type: '1000base-t',
        }));
        await withObjects(api, suite.list, members, async () => {
          expect(await suite.count({ lag_id: [lag!.id] })).toBe(3);
        });
      });
    });
    it('test_region', async () => {
      const d = suite.data;
      const regions = d.regions.slice(0, 2);
      expect(await suite.count({ region_id: [regions[0]!.id, regions[1]!.id] })).toBe(2);
      expect(await suite.count({ region: [regions[0]!.slug, regions[1]!.slug] })).toBe(2);
    });
    it('test_site_group', async () => {
      const d = suite.data;
      const site_groups = d.groups.slice(0, 2);
      expect(await suite.count({ site_group_id: [site_groups[0]!.id, site_groups[1]!.id] })).toBe(2);
      expect(await suite.count({ site_group: [site_groups[0]!.slug, site_groups[1]!.slug] })).toBe(2);
    });
    it('test_site', async () => {
      const sites = suite.data.sites.slice(0, 2);
      expect(await suite.count({ site_id: [sites[0]!.id, sites[1]!.id] })).toBe(2);
      expect(await suite.count({ site: [sites[0]!.slug, sites[1]!.slug] })).toBe(2);
    });
    it('test_location', async () => {
      const d = suite.data;
      const locations = d.locations.slice(0, 2);
      expect(await suite.count({ location_id: [locations[0]!.id, locations[1]!.id] })).toBe(2);
      expect(await suite.count({ location: [locations[0]!.slug, locations[1]!.slug] })).toBe(2);
    });
    it('test_rack', async () => {
      const d = suite.data;
      const racks = d.racks.slice(0, 2);
      expect(await suite.count({ rack_id: [racks[0]!.id, racks[1]!.id] })).toBe(2);
      expect(await suite.count({ rack: [racks[0]!.name, racks[1]!.name] })).toBe(2);
    });
    it('test_virtual_chassis_id', async () => {
      const chassis = await suite.app.api.get('/api/dcim/virtual-chassis/?limit=1');
      expect(await suite.count({ virtual_chassis_id: [chassis.body.results[0].id] })).toBe(2);
    });
    it('test_device', async () => {
      const d = suite.data;
      const devices = d.devices.slice(0, 2);
      expect(await suite.count({ device_id: [devices[0]!.id, devices[1]!.id] })).toBe(2);
      expect(await suite.count({ device: [devices[0]!.name, devices[1]!.name] })).toBe(2);
    });
    it('test_virtual_chassis_member_or_master', async () => {
      const [master, member] = suite.data.devices;
      expect(await suite.count({ virtual_chassis_member_or_master_id: [master!.id] })).toBe(2);
      expect(await suite.count({ virtual_chassis_member_or_master_id: [member!.id] })).toBe(1);
      expect(await suite.count({ virtual_chassis_member_or_master: [master!.name] })).toBe(2);
      expect(await suite.count({ virtual_chassis_member_or_master: [member!.name] })).toBe(1);
    });
    it('test_virtual_chassis_member', async () => {
      // Device 1A & 3 have 1 management interface, Device 1B has 1 interfaces
      const devices = suite.data.devices.filter((d) => ['Device 1A', 'Device 3'].includes(d.name as string));
      expect(await suite.count({ virtual_chassis_member_id: [devices[0]!.id, devices[1]!.id] })).toBe(3);
      expect(await suite.count({ virtual_chassis_member: [devices[0]!.name, devices[1]!.name] })).toBe(3);
    });
    it('test_module', async () => {
      const modules = (await suite.app.api.get('/api/dcim/modules/?ordering=id&limit=2')).body.results as {
        id: number;
      }[];
      expect(await suite.count({ module_id: [modules[0]!.id, modules[1]!.id] })).toBe(2);
    });
    it('test_cabled', async () => {
      expect(await suite.count({ cabled: 'true' })).toBe(4);
      expect(await suite.count({ cabled: 'false' })).toBe(5);
    });
    it('test_occupied', async () => {
      expect(await suite.count({ occupied: 'true' })).toBe(6);
      expect(await suite.count({ occupied: 'false' })).toBe(3);
    });
    it('test_connected', async () => {
      expect(await suite.count({ connected: 'true' })).toBe(6);
      expect(await suite.count({ connected: 'false' })).toBe(3);
    });
    it('test_connected_excludes_incomplete_pass_through_path', async () => {
      const { api } = suite.app;
      const [device, peer] = suite.data.devices as Row[];
      const made: [string, number][] = [];
      const make = async (list: string, body: Row): Promise<Row> => {
        const [row] = await createAll(api, list, [body]);
        made.push([list, row!.id as number]);
        return row!;
      };
      try {
        const connected = await make('/api/dcim/interfaces/', {
          device: device!.id,
          name: 'Connected Filter Interface',
          type: '1000base-t',
        });
        const connectedPeer = await make('/api/dcim/interfaces/', {
          device: peer!.id,
          name: 'Connected Filter Peer Interface',
          type: '1000base-t',
        });
        const incomplete = await make('/api/dcim/interfaces/', {
          device: device!.id,
          name: 'Connected Filter Incomplete Path Interface',
          type: '1000base-t',
        });
        const panel = await make('/api/dcim/devices/', {
          name: 'Connected Filter Patch Panel',
          site: device!.site.id,
          device_type: device!.device_type.id,
          role: device!.role.id,
        });
        const rear = await make('/api/dcim/rear-ports/', {
          device: panel.id,
          name: 'Patch Rear Port',
          type: '8p8c',
          positions: 1,
        });
        const front = await make('/api/dcim/front-ports/', {
          device: panel.id,
          name: 'Patch Front Port',
          type: '8p8c',
          rear_ports: [{ position: 1, rear_port: rear.id, rear_port_position: 1 }],
        });
        const end = (type: string, id: unknown) => [{ object_type: type, object_id: id }];
        await make('/api/dcim/cables/', {
          a_terminations: end('dcim.interface', connected.id),
          b_terminations: end('dcim.interface', connectedPeer.id),
        });
        await make('/api/dcim/cables/', {
          a_terminations: end('dcim.interface', incomplete.id),
          b_terminations: end('dcim.frontport', front.id),
        });
        const ids = [connected.id, connectedPeer.id, incomplete.id] as number[];
        const within = async (params: Record<string, string>): Promise<number[]> => {
          const response = await api.get(
            `/api/dcim/interfaces/?${new URLSearchParams({ ...params, limit: '0' }).toString()}&${ids.map((id) => `id=${id}`).join('&')}`,
          );
          expect(response.status, response.text).toBe(200);
          return (response.body.results as Row[]).map((r) => r.id as number).sort((a, b) => a - b);
        };
        expect(await within({ cabled: 'true' })).toEqual([...ids].sort((a, b) => a - b));
        expect(await within({ connected: 'true' })).toEqual([connected.id, connectedPeer.id].sort((a, b) => a - b));
        expect(await within({ connected: 'false' })).toEqual([incomplete.id]);
      } finally {
        // NetBox rolls the test back: the class's other tests count interfaces and devices.
        for (const [list, id] of made.reverse()) await api.delete(`${list}${id}/`);
      }
    });
    it('test_kind', async () => {
      expect(await suite.count({ kind: 'physical' })).toBe(7);
      expect(await suite.count({ kind: 'virtual' })).toBe(0);
    });
    it('test_mac_address', async () => {
      expect(await suite.count({ mac_address: ['00-00-00-00-00-01', '00-00-00-00-00-02'] })).toBe(2);
    });
    it('test_type', async () => {
      expect(await suite.count({ type: ['1000base-t', '1000base-x-gbic'] })).toBe(2);
    });
    it('test_rf_role', async () => {
      expect(await suite.count({ rf_role: ['ap', 'station'] })).toBe(2);
    });
    it('test_rf_channel', async () => {
      expect(await suite.count({ rf_channel: ['2.4g-1-2412-22', '5g-32-5160-20'] })).toBe(2);
    });
    it('test_rf_channel_frequency', async () => {
      expect(await suite.count({ rf_channel_frequency: [2412, 5160] })).toBe(2);
    });
    it('test_rf_channel_width', async () => {
      expect(await suite.count({ rf_channel_width: [22, 20] })).toBe(2);
    });
    it('test_tx_power', async () => {
      expect(await suite.count({ tx_power: [40] })).toBe(3);
    });
    it('test_vrf', async () => {
      const d = suite.data;
      const vrfs = d.vrfs.slice(0, 2);
      expect(await suite.count({ vrf_id: [vrfs[0]!.id, vrfs[1]!.id] })).toBe(2);
      expect(await suite.count({ vrf: [vrfs[0]!.rd, vrfs[1]!.rd] })).toBe(2);
    });
    it('test_vdc', async () => {
      expect(await suite.count({ vdc: ['VDC 1'] })).toBe(4);
      const vdc = await suite.app.api.get('/api/dcim/virtual-device-contexts/?name=VDC 2');
      expect(await suite.count({ vdc_id: [vdc.body.results[0].id] })).toBe(3);
    });
    it('test_vdc_identifier', async () => {
      const vdc = await suite.app.api.get('/api/dcim/virtual-device-contexts/?name=VDC 2');
      expect(await suite.count({ vdc_identifier: [vdc.body.results[0].identifier] })).toBe(3);
    });
    it('test_vlan', async () => {
      const vlan = suite.data.vlans[0]!;
      expect(await suite.count({ vlan_id: vlan.id })).toBe(1);
      expect(await suite.count({ vlan: vlan.vid })).toBe(1);
    });
    it('test_vlan_translation_policy', async () => {
      const [a, b] = suite.data.vlan_translation_policies;
      expect(await suite.count({ vlan_translation_policy_id: [a!.id, b!.id] })).toBe(4);
      expect(await suite.count({ vlan_translation_policy: [a!.name, b!.name] })).toBe(4);
    });
  });
});
