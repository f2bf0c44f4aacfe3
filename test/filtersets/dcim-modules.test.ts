import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/app.js';
import type { ApiClient } from '../support/client.js';
import {
  changeLoggedTests,
  createAll,
  filterSetSuite,
  patchAll,
  setValue,
  useApp,
  type Row,
  type Suite,
} from '../support/filtersets.js';

/**
 * The set-up NetBox's component filter-set test cases share: three regions, site groups, sites (and a site X),
 * locations, racks, tenants, device types, roles and devices (active, planned, offline).
 */
async function dcimWorld(api: ApiClient, deviceNames = ['Device 1', 'Device 2', 'Device 3'], typeAttributes: Row = {}) {
  const three = <T>(f: (i: number) => T): T[] => [1, 2, 3].map(f);
  const regions = await createAll(
    api,
    '/api/dcim/regions/',
    three((i) => ({ name: `Region ${i}`, slug: `region-${i}` })),
  );
  const groups = await createAll(
    api,
    '/api/dcim/site-groups/',
    three((i) => ({ name: `Site Group ${i}`, slug: `site-group-${i}` })),
  );
  const sites = await createAll(api, '/api/dcim/sites/', [
    ...three((i) => ({ name: `Site ${i}`, slug: `site-${i}`, region: regions[i - 1]!.id, group: groups[i - 1]!.id })),
    { name: 'Site X', slug: 'site-x' },
  ]);
  const manufacturers = await createAll(
    api,
    '/api/dcim/manufacturers/',
    three((i) => ({ name: `Manufacturer ${i}`, slug: `manufacturer-${i}` })),
  );
  const device_types = await createAll(
    api,
    '/api/dcim/device-types/',
    three((i) => ({
      manufacturer: manufacturers[i - 1]!.id,
      model: `Device Type ${i}`,
      slug: `device-type-${i}`,
      ...typeAttributes,
    })),
  );
  const roles = await createAll(
    api,
    '/api/dcim/device-roles/',
    three((i) => ({ name: `Device Role ${i}`, slug: `device-role-${i}` })),
  );
  const locations = await createAll(
    api,
    '/api/dcim/locations/',
    three((i) => ({ name: `Location ${i}`, slug: `location-${i}`, site: sites[i - 1]!.id })),
  );
  // NetBox bulk-creates devices without clean(), which would refuse a rack outside the device's location.
  const racks = await createAll(
    api,
    '/api/dcim/racks/',
    three((i) => ({ name: `Rack ${i}`, site: sites[i - 1]!.id, location: locations[i - 1]!.id })),
  );
  const tenants = await createAll(
    api,
    '/api/tenancy/tenants/',
    three((i) => ({ name: `Tenant ${i}`, slug: `tenant-${i}` })),
  );
  const devices = await createAll(
    api,
    '/api/dcim/devices/',
    ['active', 'planned', 'offline'].map((status, i) => ({
      name: deviceNames[i],
      tenant: tenants[i]!.id,
      device_type: device_types[i]!.id,
      role: roles[i]!.id,
      site: sites[i]!.id,
      location: locations[i]!.id,
      rack: racks[i]!.id,
      status,
    })),
  );
  return { regions, groups, sites, manufacturers, device_types, roles, locations, racks, tenants, devices };
}

type World = Awaited<ReturnType<typeof dcimWorld>>;

/** NetBox's tests of the device's location (region, site group, site, location, rack) on a list of components. */
function placementTests(suite: Suite<World>, expected: number): void {
  const pairs: [string, (w: World) => Row[], string, string][] = [
    ['test_region', (w) => w.regions, 'region', 'slug'],
    ['test_site_group', (w) => w.groups, 'site_group', 'slug'],
    ['test_site', (w) => w.sites, 'site', 'slug'],
    ['test_location', (w) => w.locations, 'location', 'slug'],
    ['test_rack', (w) => w.racks, 'rack', 'name'],
  ];
  for (const [name, objects, filter, by] of pairs) {
    it(name, async () => {
      const [a, b] = objects(suite.data);
      expect(await suite.count({ [`${filter}_id`]: [a!.id, b!.id] })).toBe(expected);
      expect(await suite.count({ [filter]: [a![by], b![by]] })).toBe(expected);
    });
  }
}

/** NetBox's DeviceComponentFilterSetTests (descriptions 'First', 'Second'…). */
function deviceComponentTests(suite: Suite<World>): void {
  it('test_q', async () => {
    expect(await suite.count({ q: 'First' })).toBe(1);
  });
  it('test_description', async () => {
    expect(await suite.count({ description: ['First', 'Second'] })).toBe(2);
  });
  it('test_device_type', async () => {
    const [a, b] = suite.data.device_types;
    expect(await suite.count({ device_type_id: [a!.id, b!.id] })).toBe(2);
    expect(await suite.count({ device_type: [a!.model, b!.model] })).toBe(2);
  });
  it('test_device_role', async () => {
    const [a, b] = suite.data.roles;
    expect(await suite.count({ device_role_id: [a!.id, b!.id] })).toBe(2);
    expect(await suite.count({ device_role: [a!.slug, b!.slug] })).toBe(2);
  });
  it('test_device_status', async () => {
    expect(await suite.count({ device_status: ['active', 'planned'] })).toBe(2);
  });
  it('test_tenant', async () => {
    const [a, b] = suite.data.tenants;
    expect(await suite.count({ tenant_id: [a!.id, b!.id] })).toBe(2);
    expect(await suite.count({ tenant: [a!.slug, b!.slug] })).toBe(2);
  });
}

/**
 * NetBox 4.6.8 dcim/tests/test_filtersets.py for module type profiles, module types, modules, module bays,
 * device bays, inventory items, their templates and inventory item roles.
 */
describe.each(DIALECTS)('dcim-modules filter sets on %s', (dialect) => {
  const shared = useApp(dialect);

  describe('ModuleTypeTestCase', () => {
    const PROFILE_SCHEMA = {
      properties: {
        string: { type: 'string' },
        integer: { type: 'integer' },
        number: { type: 'number' },
        boolean: { type: 'boolean' },
      },
    };
    const suite = filterSetSuite(shared, 'dcim.moduletype', async (api) => {
      const manufacturers = await createAll(
        api,
        '/api/dcim/manufacturers/',
        [1, 2, 3].map((i) => ({ name: `Manufacturer ${i}`, slug: `manufacturer-${i}` })),
      );
      const profiles = await createAll(
        api,
        '/api/dcim/module-type-profiles/',
        [1, 2, 3].map((i) => ({ name: `Module Type Profile ${i}`, schema: PROFILE_SCHEMA })),
      );
      const module_types = await createAll(api, '/api/dcim/module-types/', [
        {
          manufacturer: manufacturers[0]!.id,
          model: 'Model 1',
          part_number: 'Part Number 1',
          weight: 10,
          weight_unit: 'lb',
          description: 'foobar1',
          airflow: 'front-to-rear',
          profile: profiles[0]!.id,
          attributes: { string: 'string1', integer: 1, number: 1.0, boolean: true },
        },
        {
          manufacturer: manufacturers[1]!.id,
          model: 'Model 2',
          part_number: 'Part Number 2',
          weight: 20,
          weight_unit: 'lb',
          description: 'foobar2',
          airflow: 'rear-to-front',
          profile: profiles[1]!.id,
          attributes: { string: 'string2', integer: 2, number: 2.0, boolean_: false },
        },
        {
          manufacturer: manufacturers[2]!.id,
          model: 'Model 3',
          part_number: 'Part Number 3',
          weight: 30,
          weight_unit: 'kg',
          description: 'foobar3',
          profile: profiles[2]!.id,
          // NetBox's bulk_create skips clean(); its `"boolean": None` fails the schema here, so the key is left out.
          attributes: { string: 'string3', integer: 3, number: 3.0 },
        },
      ]);
      await createAll(api, '/api/dcim/console-port-templates/', [
        { module_type: module_types[0]!.id, name: 'Console Port 1' },
        { module_type: module_types[1]!.id, name: 'Console Port 2' },
      ]);
      for (const [path, name] of [
        ['console-server-port-templates', 'Console Server Port'],
        ['power-port-templates', 'Power Port'],
        ['power-outlet-templates', 'Power Outlet'],
        ['interface-templates', 'Interface'],
      ] as const)
        await createAll(api, `/api/dcim/${path}/`, [
          {
            module_type: module_types[0]!.id,
            name: `${name} 1`,
            ...(path.startsWith('interface') ? { type: '1000base-t' } : {}),
          },
          {
            module_type: module_types[1]!.id,
            name: `${name} 2`,
            ...(path.startsWith('interface') ? { type: '1000base-t' } : {}),
          },
        ]);
      await createAll(api, '/api/dcim/module-bay-templates/', [
        { module_type: module_types[0]!.id, name: 'Module Bay 1' },
        { module_type: module_types[1]!.id, name: 'Module Bay 2' },
      ]);
      // Pass-through ports: a rear port on the first type, a front port on the second (either counts).
      await createAll(api, '/api/dcim/rear-port-templates/', [
        { module_type: module_types[0]!.id, name: 'Rear Port 1', type: '8p8c' },
      ]);
      await createAll(api, '/api/dcim/front-port-templates/', [
        { module_type: module_types[1]!.id, name: 'Front Port 2', type: '8p8c' },
      ]);
      return { manufacturers, profiles, module_types };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_model', async () => {
      expect(await suite.count({ model: ['Model 1', 'Model 2'] })).toBe(2);
    });
    it('test_part_number', async () => {
      expect(await suite.count({ part_number: ['Part Number 1', 'Part Number 2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_manufacturer', async () => {
      const [m1, m2] = suite.data.manufacturers;
      expect(await suite.count({ manufacturer_id: [m1!.id, m2!.id] })).toBe(2);
      expect(await suite.count({ manufacturer: [m1!.slug, m2!.slug] })).toBe(2);
    });
    it('test_console_ports', async () => {
      expect(await suite.count({ console_ports: 'true' })).toBe(2);
      expect(await suite.count({ console_ports: 'false' })).toBe(1);
    });
    for (const name of ['console_server_ports', 'power_ports', 'power_outlets', 'interfaces'])
      it(`test_${name}`, async () => {
        expect(await suite.count({ [name]: 'true' })).toBe(2);
        expect(await suite.count({ [name]: 'false' })).toBe(1);
      });
    it('test_pass_through_ports', async () => {
      expect(await suite.count({ pass_through_ports: 'true' })).toBe(2);
      expect(await suite.count({ pass_through_ports: 'false' })).toBe(1);
    });
    it('test_module_bays', async () => {
      expect(await suite.count({ module_bays: 'true' })).toBe(2);
      expect(await suite.count({ module_bays: 'false' })).toBe(1);
    });
    it('test_weight', async () => {
      expect(await suite.count({ weight: [10, 20] })).toBe(2);
    });
    it('test_weight_unit', async () => {
      expect(await suite.count({ weight_unit: 'lb' })).toBe(2);
    });
    it('test_airflow', async () => {
      expect(await suite.count({ airflow: 'front-to-rear' })).toBe(1);
    });
    it('test_profile', async () => {
      const [p1, p2] = suite.data.profiles;
      expect(await suite.count({ profile_id: [p1!.id, p2!.id] })).toBe(2);
      expect(await suite.count({ profile: [p1!.name, p2!.name] })).toBe(2);
    });
    it('test_profile_attributes', async () => {
      expect(await suite.count({ attr_string: 'string1' })).toBe(1);
      expect(await suite.count({ attr_integer: '1' })).toBe(1);
      expect(await suite.count({ attr_number: '2.0' })).toBe(1);
      expect(await suite.count({ attr_boolean: 'true' })).toBe(1);
    });
  });

  describe('ModuleTypeProfileTestCase', () => {
    const SCHEMAS = ['string', 'integer', 'boolean'].map((type) => ({ properties: { foo: { type } } }));
    const suite = filterSetSuite(shared, 'dcim.moduletypeprofile', async (api) => {
      const profiles = await createAll(api, '/api/dcim/module-type-profiles/', [
        { name: 'Module Type Profile 1', description: 'foobar1', schema: SCHEMAS[0] },
        { name: 'Module Type Profile 2', description: 'foobar2 2', schema: SCHEMAS[1] },
        { name: 'Module Type Profile 3', description: 'foobar3', schema: SCHEMAS[2] },
      ]);
      return { profiles };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Module Type Profile 1', 'Module Type Profile 2'] })).toBe(2);
    });
  });

  describe('ModuleBayTemplateTestCase', () => {
    const suite = filterSetSuite(shared, 'dcim.modulebaytemplate', async (api, app) => {
      const [manufacturer] = await createAll(api, '/api/dcim/manufacturers/', [
        { name: 'Manufacturer 1', slug: 'manufacturer-1' },
      ]);
      const device_types = await createAll(
        api,
        '/api/dcim/device-types/',
        [1, 2, 3].map((i) => ({ manufacturer: manufacturer!.id, model: `Model ${i}`, slug: `model-${i}` })),
      );
      const module_types = await createAll(
        api,
        '/api/dcim/module-types/',
        [1, 2].map((i) => ({ manufacturer: manufacturer!.id, model: `Module Type ${i}` })),
      );
      const templates = await createAll(api, '/api/dcim/module-bay-templates/', [
        { device_type: device_types[0]!.id, name: 'Module Bay 1', enabled: true, description: 'foobar1' },
        { device_type: device_types[1]!.id, name: 'Module Bay 2', enabled: false, description: 'foobar2' },
        { device_type: device_types[2]!.id, name: 'Module Bay 3', enabled: true, description: 'foobar3' },
      ]);
      // NetBox's bulk_create gives two of them a device type and a module type, which clean() refuses.
      await setValue(app, 'dcim.modulebaytemplate', [templates[1]!.id], 'module_type', module_types[0]!.id);
      await setValue(app, 'dcim.modulebaytemplate', [templates[2]!.id], 'module_type', module_types[1]!.id);
      return { device_types, module_types };
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
      expect(await suite.count({ name: ['Module Bay 1', 'Module Bay 2'] })).toBe(2);
    });
    it('test_enabled', async () => {
      expect(await suite.count({ enabled: 'true' })).toBe(2);
      expect(await suite.count({ enabled: 'false' })).toBe(1);
    });
    it('test_module_type', async () => {
      const [a, b] = suite.data.module_types;
      expect(await suite.count({ module_type_id: [a!.id, b!.id] })).toBe(2);
    });
  });

  describe('ModuleBayTestCase', () => {
    const suite = filterSetSuite(shared, 'dcim.modulebay', async (api, app) => {
      const world = await dcimWorld(api);
      const { devices } = world;
      const bays = await createAll(api, '/api/dcim/module-bays/', [
        { device: devices[0]!.id, name: 'Module Bay 1', label: 'A', enabled: true, description: 'First' },
        { device: devices[1]!.id, name: 'Module Bay 2', label: 'B', enabled: false, description: 'Second' },
        { device: devices[2]!.id, name: 'Module Bay 3', label: 'C', enabled: true, description: 'Third' },
        { device: devices[2]!.id, name: 'Module Bay 4', label: 'D', enabled: false, description: 'Fourth' },
        { device: devices[2]!.id, name: 'Module Bay 5', label: 'E', enabled: true, description: 'Fifth' },
      ]);
      const [moduleType] = await createAll(api, '/api/dcim/module-types/', [
        { manufacturer: world.manufacturers[0]!.id, model: 'Module Type 1' },
      ]);
      // NetBox's bulk_create skips clean(): the second bay is disabled. Enable it to install, then disable it again.
      await patchAll(api, '/api/dcim/module-bays/', [{ id: bays[1]!.id, enabled: true }]);
      const modules = await createAll(api, '/api/dcim/modules/', [
        { device: devices[0]!.id, module_bay: bays[0]!.id, module_type: moduleType!.id },
        { device: devices[1]!.id, module_bay: bays[1]!.id, module_type: moduleType!.id },
      ]);
      await patchAll(api, '/api/dcim/module-bays/', [{ id: bays[1]!.id, enabled: false }]);
      // NetBox puts bays of device 3 in the modules of devices 1 and 2 (saved without clean()): set directly.
      await setValue(app, 'dcim.modulebay', [bays[3]!.id], 'module', modules[0]!.id);
      await setValue(app, 'dcim.modulebay', [bays[4]!.id], 'module', modules[1]!.id);
      return { ...world, bays, modules };
    });
    changeLoggedTests(suite);
    deviceComponentTests(suite);
    placementTests(suite, 2);
    it('test_name', async () => {
      expect(await suite.count({ name: ['Module Bay 1', 'Module Bay 2'] })).toBe(2);
    });
    it('test_label', async () => {
      expect(await suite.count({ label: ['A', 'B'] })).toBe(2);
    });
    it('test_enabled', async () => {
      expect(await suite.count({ enabled: 'true' })).toBe(3);
      expect(await suite.count({ enabled: 'false' })).toBe(2);
    });
    it('test_device', async () => {
      const [a, b] = suite.data.devices;
      expect(await suite.count({ device_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ device: [a!.name, b!.name] })).toBe(2);
    });
    it('test_module', async () => {
      const { modules } = suite.data;
      expect(await suite.count({ module_id: [modules[0]!.id, modules[1]!.id] })).toBe(2);
    });
  });

  describe('ModuleTestCase', () => {
    const suite = filterSetSuite(shared, 'dcim.module', async (api) => {
      const world = await dcimWorld(api, ['Test Device 1', 'Test Device 2', 'Test Device 3']);
      const { devices, manufacturers } = world;
      const profiles = await createAll(api, '/api/dcim/module-type-profiles/', [
        { name: 'Test CPU' },
        { name: 'Test Hard disk' },
      ]);
      const module_types = await createAll(api, '/api/dcim/module-types/', [
        { manufacturer: manufacturers[0]!.id, model: 'Module Type 1', profile: profiles[0]!.id },
        { manufacturer: manufacturers[1]!.id, model: 'Module Type 2', profile: profiles[1]!.id },
        { manufacturer: manufacturers[2]!.id, model: 'Module Type 3' },
      ]);
      const bays = await createAll(
        api,
        '/api/dcim/module-bays/',
        devices.flatMap((d) => [1, 2, 3].map((i) => ({ device: d.id, name: `Module Bay ${i}` }))),
      );
      const statuses = ['active', 'active', 'active', 'active', 'active', 'active', 'active', 'planned', 'failed'];
      const descriptions = ['foobar1', 'foobar2', 'foobar3'];
      await createAll(
        api,
        '/api/dcim/modules/',
        bays.map((bay, i) => ({
          device: devices[Math.floor(i / 3)]!.id,
          module_bay: bay.id,
          module_type: module_types[i % 3]!.id,
          status: statuses[i],
          serial: 'ABCDEFGHI'[i],
          asset_tag: 'ABCDEFGHI'[i],
          ...(descriptions[i] ? { description: descriptions[i] } : {}),
        })),
      );
      return { ...world, profiles, module_types, bays };
    });
    changeLoggedTests(suite);
    placementTests(suite, 6);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_manufacturer', async () => {
      const [a, b] = suite.data.manufacturers;
      expect(await suite.count({ manufacturer_id: [a!.id, b!.id] })).toBe(6);
      expect(await suite.count({ manufacturer: [a!.slug, b!.slug] })).toBe(6);
    });
    it('test_module_type', async () => {
      const [a, b] = suite.data.module_types;
      expect(await suite.count({ module_type_id: [a!.id, b!.id] })).toBe(6);
      expect(await suite.count({ module_type: [a!.model, b!.model] })).toBe(6);
    });
    it('test_profile', async () => {
      const [cpu, disk] = suite.data.profiles;
      expect(await suite.count({ profile_id: [cpu!.id] })).toBe(3);
      expect(await suite.count({ profile: [cpu!.name] })).toBe(3);
      expect(await suite.count({ profile_id: [disk!.id] })).toBe(3);
      expect(await suite.count({ profile: [disk!.name] })).toBe(3);
      expect(await suite.count({ profile_id: ['null'] })).toBe(3);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_module_bay', async () => {
      const [a, b] = suite.data.bays;
      expect(await suite.count({ module_bay_id: [a!.id, b!.id] })).toBe(2);
    });
    it('test_device', async () => {
      const [a, b] = suite.data.devices;
      expect(await suite.count({ device_id: [a!.id, b!.id] })).toBe(6);
    });
    it('test_status', async () => {
      expect(await suite.count({ status: ['planned', 'failed'] })).toBe(2);
    });
    it('test_serial', async () => {
      expect(await suite.count({ serial: ['A', 'B'] })).toBe(2);
      expect(await suite.count({ serial: ['a', 'b'] })).toBe(2);
    });
    it('test_asset_tag', async () => {
      expect(await suite.count({ asset_tag: ['A', 'B'] })).toBe(2);
    });
  });

  describe('DeviceBayTemplateTestCase', () => {
    const suite = filterSetSuite(shared, 'dcim.devicebaytemplate', async (api) => {
      const [manufacturer] = await createAll(api, '/api/dcim/manufacturers/', [
        { name: 'Manufacturer 1', slug: 'manufacturer-1' },
      ]);
      // NetBox's bulk_create skips clean(), which refuses device bays on types that are no parent.
      const device_types = await createAll(
        api,
        '/api/dcim/device-types/',
        [1, 2, 3].map((i) => ({
          manufacturer: manufacturer!.id,
          model: `Model ${i}`,
          slug: `model-${i}`,
          subdevice_role: 'parent',
        })),
      );
      await createAll(api, '/api/dcim/device-bay-templates/', [
        { device_type: device_types[0]!.id, name: 'Device Bay 1', enabled: true, description: 'foobar1' },
        { device_type: device_types[1]!.id, name: 'Device Bay 2', enabled: false, description: 'foobar2' },
        { device_type: device_types[2]!.id, name: 'Device Bay 3', enabled: true, description: 'foobar3' },
      ]);
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
      expect(await suite.count({ name: ['Device Bay 1', 'Device Bay 2'] })).toBe(2);
    });
    it('test_enabled', async () => {
      expect(await suite.count({ enabled: 'true' })).toBe(2);
      expect(await suite.count({ enabled: 'false' })).toBe(1);
    });
  });

  describe('DeviceBayTestCase', () => {
    const suite = filterSetSuite(shared, 'dcim.devicebay', async (api) => {
      // NetBox's bulk_create skips clean(), which refuses device bays on devices whose type is no parent.
      const world = await dcimWorld(api, undefined, { subdevice_role: 'parent' });
      const { devices } = world;
      await createAll(api, '/api/dcim/device-bays/', [
        { device: devices[0]!.id, name: 'Device Bay 1', label: 'A', enabled: true, description: 'First' },
        { device: devices[1]!.id, name: 'Device Bay 2', label: 'B', enabled: false, description: 'Second' },
        { device: devices[2]!.id, name: 'Device Bay 3', label: 'C', enabled: true, description: 'Third' },
      ]);
      return world;
    });
    changeLoggedTests(suite);
    deviceComponentTests(suite);
    placementTests(suite, 2);
    it('test_name', async () => {
      expect(await suite.count({ name: ['Device Bay 1', 'Device Bay 2'] })).toBe(2);
    });
    it('test_label', async () => {
      expect(await suite.count({ label: ['A', 'B'] })).toBe(2);
    });
    it('test_enabled', async () => {
      expect(await suite.count({ enabled: 'true' })).toBe(2);
      expect(await suite.count({ enabled: 'false' })).toBe(1);
    });
    it('test_device', async () => {
      const [a, b] = suite.data.devices;
      expect(await suite.count({ device_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ device: [a!.name, b!.name] })).toBe(2);
    });
  });

  describe('InventoryItemTemplateTestCase', () => {
    const suite = filterSetSuite(shared, 'dcim.inventoryitemtemplate', async (api) => {
      const manufacturers = await createAll(
        api,
        '/api/dcim/manufacturers/',
        [1, 2, 3].map((i) => ({ name: `Manufacturer ${i}`, slug: `manufacturer-${i}` })),
      );
      const device_types = await createAll(
        api,
        '/api/dcim/device-types/',
        [1, 2, 3].map((i) => ({ manufacturer: manufacturers[0]!.id, model: `Model ${i}`, slug: `model-${i}` })),
      );
      const roles = await createAll(
        api,
        '/api/dcim/inventory-item-roles/',
        [1, 2, 3].map((i) => ({ name: `Inventory Item Role ${i}`, slug: `inventory-item-role-${i}` })),
      );
      const parents = await createAll(
        api,
        '/api/dcim/inventory-item-templates/',
        [0, 1, 2].map((i) => ({
          device_type: device_types[i]!.id,
          name: `Inventory Item ${i + 1}`,
          label: 'ABC'[i],
          role: roles[i]!.id,
          manufacturer: manufacturers[i]!.id,
          part_id: `100${i + 1}`,
          description: `foobar${i + 1}`,
        })),
      );
      await createAll(
        api,
        '/api/dcim/inventory-item-templates/',
        [0, 1, 2].map((i) => ({
          device_type: device_types[i]!.id,
          name: `Inventory Item ${i + 1}A`,
          parent: parents[i]!.id,
        })),
      );
      return { manufacturers, device_types, roles, parents };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Inventory Item 1', 'Inventory Item 2'] })).toBe(2);
    });
    it('test_device_type_id', async () => {
      const [a, b] = suite.data.device_types;
      expect(await suite.count({ device_type_id: [a!.id, b!.id] })).toBe(4);
    });
    it('test_label', async () => {
      expect(await suite.count({ label: ['A', 'B'] })).toBe(2);
    });
    it('test_part_id', async () => {
      expect(await suite.count({ part_id: ['1001', '1002'] })).toBe(2);
    });
    it('test_parent_id', async () => {
      const [a, b] = suite.data.parents;
      expect(await suite.count({ parent_id: [a!.id, b!.id] })).toBe(2);
    });
    it('test_role', async () => {
      const [a, b] = suite.data.roles;
      expect(await suite.count({ role_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ role: [a!.slug, b!.slug] })).toBe(2);
    });
    it('test_manufacturer', async () => {
      const [a, b] = suite.data.manufacturers;
      expect(await suite.count({ manufacturer_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ manufacturer: [a!.slug, b!.slug] })).toBe(2);
    });
  });

  describe('InventoryItemTestCase', () => {
    const suite = filterSetSuite(shared, 'dcim.inventoryitem', async (api) => {
      const world = await dcimWorld(api);
      const { devices, manufacturers } = world;
      const roles = await createAll(
        api,
        '/api/dcim/inventory-item-roles/',
        [1, 2, 3].map((i) => ({ name: `Inventory Item Role ${i}`, slug: `inventory-item-role-${i}` })),
      );
      // NetBox's third component is a console server port (another branch's model): a module bay here.
      const [iface] = await createAll(api, '/api/dcim/interfaces/', [
        { device: devices[0]!.id, name: 'Interface 1', type: '1000base-t' },
      ]);
      const [port] = await createAll(api, '/api/dcim/console-ports/', [
        { device: devices[1]!.id, name: 'Console Port 1' },
      ]);
      const [bay] = await createAll(api, '/api/dcim/module-bays/', [{ device: devices[2]!.id, name: 'Module Bay 1' }]);
      const components: [string, Row][] = [
        ['dcim.interface', iface!],
        ['dcim.consoleport', port!],
        ['dcim.modulebay', bay!],
      ];
      const parents = await createAll(
        api,
        '/api/dcim/inventory-items/',
        [0, 1, 2].map((i) => ({
          device: devices[i]!.id,
          role: roles[i]!.id,
          manufacturer: manufacturers[i]!.id,
          name: `Inventory Item ${i + 1}`,
          label: 'ABC'[i],
          part_id: `100${i + 1}`,
          serial: ['ABC', 'DEF', 'GHI'][i],
          asset_tag: `100${i + 1}`,
          discovered: i < 2,
          status: ['active', 'planned', 'failed'][i],
          description: ['First', 'Second', 'Third'][i],
          component_type: components[i]![0],
          component_id: components[i]![1].id,
        })),
      );
      await createAll(
        api,
        '/api/dcim/inventory-items/',
        [0, 1, 2].map((i) => ({ device: devices[i]!.id, name: `Inventory Item ${i + 1}A`, parent: parents[i]!.id })),
      );
      return { ...world, roles, parents };
    });
    changeLoggedTests(suite);
    placementTests(suite, 4);
    it('test_name', async () => {
      expect(await suite.count({ name: ['Inventory Item 1', 'Inventory Item 2'] })).toBe(2);
    });
    it('test_label', async () => {
      expect(await suite.count({ label: ['A', 'B'] })).toBe(2);
    });
    it('test_part_id', async () => {
      expect(await suite.count({ part_id: ['1001', '1002'] })).toBe(2);
    });
    it('test_asset_tag', async () => {
      expect(await suite.count({ asset_tag: ['1001', '1002'] })).toBe(2);
    });
    it('test_discovered', async () => {
      expect(await suite.count({ discovered: 'true' })).toBe(2);
      expect(await suite.count({ discovered: 'false' })).toBe(4);
    });
    it('test_device_type', async () => {
      const [a, b] = suite.data.device_types;
      expect(await suite.count({ device_type_id: [a!.id, b!.id] })).toBe(4);
      expect(await suite.count({ device_type: [a!.model, b!.model] })).toBe(4);
    });
    it('test_device_role', async () => {
      const [a, b] = suite.data.devices.map((d) => d.role as Row);
      expect(await suite.count({ device_role_id: [a!.id, b!.id] })).toBe(4);
      expect(await suite.count({ device_role: [a!.slug, b!.slug] })).toBe(4);
    });
    it('test_device', async () => {
      const [a, b] = suite.data.devices;
      expect(await suite.count({ device_id: [a!.id, b!.id] })).toBe(4);
      expect(await suite.count({ device: [a!.name, b!.name] })).toBe(4);
    });
    it('test_parent_id', async () => {
      const [a, b] = suite.data.parents;
      expect(await suite.count({ parent_id: [a!.id, b!.id] })).toBe(2);
    });
    it('test_role', async () => {
      const [a, b] = suite.data.roles;
      expect(await suite.count({ role_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ role: [a!.slug, b!.slug] })).toBe(2);
    });
    it('test_manufacturer', async () => {
      const [a, b] = suite.data.manufacturers;
      expect(await suite.count({ manufacturer_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ manufacturer: [a!.slug, b!.slug] })).toBe(2);
    });
    it('test_serial', async () => {
      expect(await suite.count({ serial: ['ABC', 'DEF'] })).toBe(2);
      expect(await suite.count({ serial: ['abc', 'def'] })).toBe(2);
    });
    it('test_component_type', async () => {
      expect(await suite.count({ component_type: ['dcim.interface'] })).toBe(1);
    });
    it('test_status', async () => {
      expect(await suite.count({ status: ['planned', 'failed'] })).toBe(2);
    });
  });

  describe('InventoryItemRoleTestCase', () => {
    const suite = filterSetSuite(shared, 'dcim.inventoryitemrole', async (api) => {
      const roles = await createAll(api, '/api/dcim/inventory-item-roles/', [
        { name: 'Inventory Item Role 1', slug: 'inventory-item-role-1', color: 'ff0000', description: 'foobar1' },
        { name: 'Inventory Item Role 2', slug: 'inventory-item-role-2', color: '00ff00', description: 'foobar2' },
        { name: 'Inventory Item Role 3', slug: 'inventory-item-role-3', color: '0000ff', description: 'foobar3' },
      ]);
      return { roles };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Inventory Item Role 1', 'Inventory Item Role 2'] })).toBe(2);
    });
    it('test_slug', async () => {
      expect(await suite.count({ slug: ['inventory-item-role-1', 'inventory-item-role-2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_color', async () => {
      expect(await suite.count({ color: ['ff0000', '00ff00'] })).toBe(2);
    });
  });
});
