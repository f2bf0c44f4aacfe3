import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/app.js';
import { changeLoggedTests, createAll, filterSetSuite, useApp } from '../support/filtersets.js';

/** NetBox 4.6.8 dcim/tests/test_filtersets.py: device components and their templates. */
describe.each(DIALECTS)('dcim-components filter sets on %s', (dialect) => {
  const shared = useApp(dialect);

  describe('ConsolePortTemplateTestCase', () => {
    const suite = filterSetSuite(shared, 'dcim.consoleporttemplate', async (api) => {
      const [manufacturer] = await createAll(api, '/api/dcim/manufacturers/', [
        { name: 'Manufacturer 1', slug: 'manufacturer-1' },
      ]);
      const device_types = await createAll(
        api,
        '/api/dcim/device-types/',
        [1, 2, 3].map((i) => ({ manufacturer: manufacturer!.id, model: `Model ${i}`, slug: `model-${i}` })),
      );
      await createAll(
        api,
        '/api/dcim/console-port-templates/',
        [0, 1, 2].map((i) => ({
          device_type: device_types[i]!.id,
          name: `Console Port ${i + 1}`,
          description: `foobar${i + 1}`,
        })),
      );
      return { device_types };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_device_type_id', async () => {
      const [a, b] = suite.data.device_types;
      expect(await suite.count({ device_type_id: [a!.id, b!.id] })).toBe(2);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Console Port 1', 'Console Port 2'] })).toBe(2);
    });
  });

  describe('ConsolePortTestCase', () => {
    /** Not served, so left out of the data: the cables. */
    const suite = filterSetSuite(shared, 'dcim.consoleport', async (api) => {
      const regions = await createAll(
        api,
        '/api/dcim/regions/',
        [1, 2, 3].map((i) => ({ name: `Region ${i}`, slug: `region-${i}` })),
      );
      const groups = await createAll(
        api,
        '/api/dcim/site-groups/',
        [1, 2, 3].map((i) => ({ name: `Site Group ${i}`, slug: `site-group-${i}` })),
      );
      const sites = await createAll(api, '/api/dcim/sites/', [
        ...[0, 1, 2].map((i) => ({
          name: `Site ${i + 1}`,
          slug: `site-${i + 1}`,
          region: regions[i]!.id,
          group: groups[i]!.id,
        })),
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
      const statuses = ['active', 'planned', 'offline'];
      const devices = await createAll(api, '/api/dcim/devices/', [
        ...[0, 1, 2].map((i) => ({
          name: `Device ${i + 1}`,
          tenant: tenants[i]!.id,
          device_type: device_types[i]!.id,
          role: roles[i]!.id,
          site: sites[i]!.id,
          location: locations[i]!.id,
          rack: racks[i]!.id,
          status: statuses[i],
        })),
        // For cable connections
        { name: null, device_type: device_types[0]!.id, role: roles[0]!.id, site: sites[3]!.id, status: 'offline' },
      ]);
      const [module_type] = await createAll(api, '/api/dcim/module-types/', [
        { manufacturer: manufacturer!.id, model: 'Module Type 1' },
      ]);
      const bays = await createAll(
        api,
        '/api/dcim/module-bays/',
        [0, 1, 2].map((i) => ({ device: devices[i]!.id, name: `Module Bay ${i + 1}` })),
      );
      const modules = await createAll(
        api,
        '/api/dcim/modules/',
        [0, 1, 2].map((i) => ({ device: devices[i]!.id, module_bay: bays[i]!.id, module_type: module_type!.id })),
      );
      const ports = await createAll(
        api,
        '/api/dcim/console-ports/',
        ['First', 'Second', 'Third'].map((description, i) => ({
          device: devices[i]!.id,
          module: modules[i]!.id,
          name: `Console Port ${i + 1}`,
          label: 'ABC'[i],
          description,
        })),
      );
      // Cables: console ports 1 and 2 to console server ports on the unnamed device; the third is not connected.
      const peers = await createAll(
        api,
        '/api/dcim/console-server-ports/',
        [1, 2].map((i) => ({ device: devices[3]!.id, name: `Console Server Port ${i}` })),
      );
      await createAll(
        api,
        '/api/dcim/cables/',
        [0, 1].map((i) => ({
          a_terminations: [{ object_type: 'dcim.consoleport', object_id: ports[i]!.id }],
          b_terminations: [{ object_type: 'dcim.consoleserverport', object_id: peers[i]!.id }],
        })),
      );
      return { regions, groups, sites, device_types, roles, locations, racks, tenants, devices, modules };
    });
    changeLoggedTests(suite);
    const pairs = async (params: Record<string, (o: Record<string, any>) => unknown>, rows: Record<string, any>[]) => {
      for (const [name, value] of Object.entries(params))
        expect(await suite.count({ [name]: rows.slice(0, 2).map(value) as string[] }), name).toBe(2);
    };
    it('test_q', async () => {
      expect(await suite.count({ q: 'First' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Console Port 1', 'Console Port 2'] })).toBe(2);
    });
    it('test_label', async () => {
      expect(await suite.count({ label: ['A', 'B'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['First', 'Second'] })).toBe(2);
    });
    it('test_device_type', async () => {
      await pairs({ device_type_id: (o) => o.id, device_type: (o) => o.model }, suite.data.device_types);
    });
    it('test_device_role', async () => {
      await pairs({ device_role_id: (o) => o.id, device_role: (o) => o.slug }, suite.data.roles);
    });
    it('test_device_status', async () => {
      expect(await suite.count({ device_status: ['active', 'planned'] })).toBe(2);
    });
    it('test_tenant', async () => {
      await pairs({ tenant_id: (o) => o.id, tenant: (o) => o.slug }, suite.data.tenants);
    });
    it('test_region', async () => {
      await pairs({ region_id: (o) => o.id, region: (o) => o.slug }, suite.data.regions);
    });
    it('test_site_group', async () => {
      await pairs({ site_group_id: (o) => o.id, site_group: (o) => o.slug }, suite.data.groups);
    });
    it('test_site', async () => {
      await pairs({ site_id: (o) => o.id, site: (o) => o.slug }, suite.data.sites);
    });
    it('test_location', async () => {
      await pairs({ location_id: (o) => o.id, location: (o) => o.slug }, suite.data.locations);
    });
    it('test_rack', async () => {
      await pairs({ rack_id: (o) => o.id, rack: (o) => o.name }, suite.data.racks);
    });
    it('test_device', async () => {
      await pairs({ device_id: (o) => o.id, device: (o) => o.name }, suite.data.devices);
    });
    it('test_module', async () => {
      await pairs({ module_id: (o) => o.id }, suite.data.modules);
    });
    for (const filter of ['cabled', 'occupied', 'connected'])
      it(`test_${filter}`, async () => {
        expect(await suite.count({ [filter]: 'true' })).toBe(2);
        expect(await suite.count({ [filter]: 'false' })).toBe(1);
      });
  });
});
