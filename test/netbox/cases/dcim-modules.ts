import { expect } from 'vitest';
import type { NetBoxTestCase } from '../generic.js';
import type { PortedClass } from '../harness.js';

/**
 * Ported from NetBox 4.6.8 dcim/tests/test_api.py: module type profiles, module types, modules, module bays,
 * device bays, inventory items, their templates and inventory item roles.
 */

const description = { description: 'New description' };
type Json = Record<string, any>;
/** Interface templates are another branch's (h-ports): the module tests use console port templates instead. */
const COMPONENTS = 'console-port';

/** NetBox's utilities.testing.create_test_device: a device with a default site, type and role. */
async function testDevice(t: PortedClass, name: string): Promise<Json> {
  const existing = async (label: string, slug: string, body: Json): Promise<Json> => {
    const response = await t.admin.get(`${t.path(label)}?slug=${slug}`);
    return response.body.count > 0 ? (response.body.results[0] as Json) : t.make(label, { slug, ...body });
  };
  const site = await existing('dcim.site', 'site-1', { name: 'Site 1' });
  const manufacturer = await existing('dcim.manufacturer', 'manufacturer-1', { name: 'Manufacturer 1' });
  const type = await existing('dcim.devicetype', 'device-type-1', {
    model: 'Device Type 1',
    manufacturer: manufacturer.id,
  });
  const role = await existing('dcim.devicerole', 'device-role-1', { name: 'Device Role 1' });
  return t.make('dcim.device', { name, site: site.id, device_type: type.id, role: role.id });
}

/** A module type with one template of each given name, and a module bay of a new device to install it in. */
async function installation(
  t: PortedClass,
  test: string,
  names: string[],
  bay: Json = {},
): Promise<{ device: Json; moduleType: Json; bay: Json }> {
  const manufacturer = (await t.admin.get(`${t.path('dcim.manufacturer')}?slug=generic`)).body.results[0] as Json;
  const device = await testDevice(t, `Device for ${test} Test`);
  const moduleType = await t.make('dcim.moduletype', { manufacturer: manufacturer.id, model: `${test} Module Type` });
  for (const name of names)
    await t.make(`dcim.${COMPONENTS.replace('-', '')}template`, { module_type: moduleType.id, name });
  const made = await t.make('dcim.modulebay', { device: device.id, name: `${test} Bay`, ...bay });
  return { device, moduleType, bay: made };
}

/** The names (and module ids) of a device's console ports. */
async function componentsOf(t: PortedClass, device: Json): Promise<Json[]> {
  const response = await t.admin.get(`${t.path('dcim.consoleport')}?device_id=${device.id}&ordering=name`);
  return (response.body.results as Json[]).map((c) => ({ name: c.name, module: c.module?.id ?? null }));
}

const SCHEMAS = ['string', 'integer', 'boolean'].map((type) => ({ properties: { foo: { type } } }));

export const dcimModulesCases: NetBoxTestCase[] = [
  {
    source: 'dcim/tests/test_api.py::ModuleTypeProfileTestCase',
    model: 'dcim.moduletypeprofile',
    briefFields: ['description', 'display', 'id', 'name', 'url'],
    bulkUpdateData: { description: 'New description', comments: 'New comments' },
    setUp: async (t) => {
      await t.makeAll(
        'dcim.moduletypeprofile',
        SCHEMAS.map((schema, i) => ({ name: `Module Type Profile ${i + 1}`, schema })),
      );
      return { createData: SCHEMAS.map((schema, i) => ({ name: `Module Type Profile ${i + 4}`, schema })) };
    },
  },
  {
    source: 'dcim/tests/test_api.py::ModuleTypeTestCase',
    model: 'dcim.moduletype',
    briefFields: ['description', 'display', 'id', 'manufacturer', 'model', 'module_count', 'profile', 'url'],
    bulkUpdateData: { part_number: 'ABC123' },
    userPermissions: ['dcim.view_manufacturer'],
    setUp: async (t) => {
      const [m1, m2] = await t.makeAll('dcim.manufacturer', [
        { name: 'Manufacturer 1', slug: 'manufacturer-1' },
        { name: 'Manufacturer 2', slug: 'manufacturer-2' },
      ]);
      await t.makeAll(
        'dcim.moduletype',
        [1, 2, 3].map((i) => ({ manufacturer: m1!.id, model: `Module Type ${i}` })),
      );
      return { createData: [4, 5, 6].map((i) => ({ manufacturer: m2!.id, model: `Module Type ${i}` })) };
    },
  },
  {
    source: 'dcim/tests/test_api.py::ModuleTestCase',
    model: 'dcim.module',
    briefFields: ['description', 'device', 'display', 'id', 'module_bay', 'module_type', 'url'],
    bulkUpdateData: { serial: '1234ABCD' },
    userPermissions: ['dcim.view_modulebay', 'dcim.view_moduletype', 'dcim.view_moduletypeprofile', 'dcim.view_device'],
    setUp: async (t) => {
      const manufacturer = await t.make('dcim.manufacturer', { name: 'Generic', slug: 'generic' });
      const profiles = await t.makeAll('dcim.moduletypeprofile', [{ name: 'Test CPU' }, { name: 'Test Hard disk' }]);
      const device = await testDevice(t, 'Test Device 1');
      const types = await t.makeAll('dcim.moduletype', [
        { manufacturer: manufacturer.id, model: 'Module Type 1', profile: profiles[0]!.id },
        { manufacturer: manufacturer.id, model: 'Module Type 2', profile: profiles[1]!.id },
        { manufacturer: manufacturer.id, model: 'Module Type 3' },
      ]);
      const bays = await t.makeAll(
        'dcim.modulebay',
        [1, 2, 3, 4, 5, 6].map((i) => ({ device: device.id, name: `Module Bay ${i}` })),
      );
      await t.makeAll(
        'dcim.module',
        [0, 1, 2].map((i) => ({ device: device.id, module_bay: bays[i]!.id, module_type: types[i]!.id })),
      );
      return {
        profiles,
        createData: [3, 4, 5].map((i) => ({
          device: device.id,
          module_bay: bays[i]!.id,
          module_type: types[i - 3]!.id,
          status: 'active',
          serial: ['ABC123', 'DEF456', 'GHI789'][i - 3],
          asset_tag: `Foo${i - 2}`,
        })),
      };
    },
    tests: {
      test_replicate_components: async (t) => {
        const user = await t.user();
        await user.addPermissions('dcim.add_module');
        const { device, moduleType, bay } = await installation(t, 'Replication', ['eth0']);
        const body = { device: device.id, module_bay: bay.id, module_type: moduleType.id, replicate_components: true };
        const response = await user.client.post(t.path(), body);
        expect(response.status, response.text).toBe(201);
        expect(await componentsOf(t, device)).toEqual([{ name: 'eth0', module: response.body.id }]);
      },
      test_no_replicate_components: async (t) => {
        const user = await t.user();
        await user.addPermissions('dcim.add_module');
        const { device, moduleType, bay } = await installation(t, 'No Replication', ['eth0']);
        const body = { device: device.id, module_bay: bay.id, module_type: moduleType.id, replicate_components: false };
        expect((await user.client.post(t.path(), body)).status).toBe(201);
        expect(await componentsOf(t, device)).toEqual([]);
      },
      test_adopt_components: async (t) => {
        const user = await t.user();
        await user.addPermissions('dcim.add_module');
        const { device, moduleType, bay } = await installation(t, 'Adopt', ['eth0']);
        await t.make('dcim.consoleport', { device: device.id, name: 'eth0' });
        const response = await user.client.post(t.path(), {
          device: device.id,
          module_bay: bay.id,
          module_type: moduleType.id,
          adopt_components: true,
          replicate_components: false,
        });
        expect(response.status, response.text).toBe(201);
        expect(await componentsOf(t, device)).toEqual([{ name: 'eth0', module: response.body.id }]);
      },
      test_replicate_components_conflict: async (t) => {
        const user = await t.user();
        await user.addPermissions('dcim.add_module');
        const { device, moduleType, bay } = await installation(t, 'Conflict', ['eth0']);
        await t.make('dcim.consoleport', { device: device.id, name: 'eth0' });
        const body = { device: device.id, module_bay: bay.id, module_type: moduleType.id, replicate_components: true };
        expect((await user.client.post(t.path(), body)).status).toBe(400);
      },
      test_adopt_components_already_owned: async (t) => {
        const user = await t.user();
        await user.addPermissions('dcim.add_module');
        const { device, moduleType, bay } = await installation(t, 'Adopt Owned', ['eth0']);
        const ownerType = await t.make('dcim.moduletype', { manufacturer: moduleType.manufacturer.id, model: 'Owner' });
        const ownerBay = await t.make('dcim.modulebay', { device: device.id, name: 'Owner Bay' });
        const owner = await t.make('dcim.module', {
          device: device.id,
          module_bay: ownerBay.id,
          module_type: ownerType.id,
        });
        await t.make('dcim.consoleport', { device: device.id, name: 'eth0', module: owner.id });
        const body = { device: device.id, module_bay: bay.id, module_type: moduleType.id, adopt_components: true };
        expect((await user.client.post(t.path(), body)).status).toBe(400);
      },
      test_patch_ignores_replicate_and_adopt: async (t) => {
        const user = await t.user();
        await user.addPermissions('dcim.change_module');
        const { device, moduleType, bay } = await installation(t, 'PATCH', ['eth0']);
        const module = await t.make('dcim.module', {
          device: device.id,
          module_bay: bay.id,
          module_type: moduleType.id,
          replicate_components: false,
        });
        const response = await user.client.patch(`${t.path()}${module.id}/`, {
          replicate_components: true,
          adopt_components: true,
          serial: 'PATCHED',
        });
        expect(response.status, response.text).toBe(200);
        expect(response.body.serial).toBe('PATCHED');
        expect(await componentsOf(t, device)).toEqual([]);
      },
      test_adopt_and_replicate_components: async (t) => {
        const user = await t.user();
        await user.addPermissions('dcim.add_module');
        const { device, moduleType, bay } = await installation(t, 'Adopt+Replicate', ['eth0', 'eth1']);
        await t.make('dcim.consoleport', { device: device.id, name: 'eth0' });
        const response = await user.client.post(t.path(), {
          device: device.id,
          module_bay: bay.id,
          module_type: moduleType.id,
          adopt_components: true,
          replicate_components: true,
        });
        expect(response.status, response.text).toBe(201);
        expect(await componentsOf(t, device)).toEqual([
          { name: 'eth0', module: response.body.id },
          { name: 'eth1', module: response.body.id },
        ]);
      },
      test_module_token_no_position: async (t) => {
        const user = await t.user();
        await user.addPermissions('dcim.add_module');
        const { device, moduleType, bay } = await installation(t, 'Token No-Position', ['{module}-eth0']);
        const body = { device: device.id, module_bay: bay.id, module_type: moduleType.id };
        expect((await user.client.post(t.path(), body)).status).toBe(400);
      },
      test_module_token_depth_mismatch: async (t) => {
        const user = await t.user();
        await user.addPermissions('dcim.add_module');
        const { device, moduleType, bay } = await installation(t, 'Token Depth Mismatch', ['{module}-{module}-eth0'], {
          position: '1',
        });
        const body = { device: device.id, module_bay: bay.id, module_type: moduleType.id };
        expect((await user.client.post(t.path(), body)).status).toBe(400);
      },
      test_list_objects_by_profile_id: async (t, data) => {
        const [cpu, disk] = data.profiles as Json[];
        const user = await t.user();
        await user.addPermissions('dcim.view_module');
        for (const profile of [cpu!, disk!])
          expect((await user.client.get(`${t.path()}?profile_id=${profile.id}`)).body.results).toHaveLength(1);
        expect((await user.client.get(`${t.path()}?profile_id=null`)).body.results).toHaveLength(1);
      },
      test_list_objects_by_profile: async (t, data) => {
        const [cpu, disk] = data.profiles as Json[];
        const user = await t.user();
        await user.addPermissions('dcim.view_module');
        for (const profile of [cpu!, disk!])
          expect(
            (await user.client.get(`${t.path()}?profile=${encodeURIComponent(profile.name)}`)).body.results,
          ).toHaveLength(1);
      },
    },
  },
  {
    source: 'dcim/tests/test_api.py::ModuleBayTemplateTestCase',
    model: 'dcim.modulebaytemplate',
    briefFields: ['description', 'display', 'enabled', 'id', 'name', 'url'],
    bulkUpdateData: description,
    userPermissions: ['dcim.view_devicetype'],
    setUp: async (t) => {
      const manufacturer = await t.make('dcim.manufacturer', {
        name: 'Test Manufacturer 1',
        slug: 'test-manufacturer-1',
      });
      const type = await t.make('dcim.devicetype', {
        manufacturer: manufacturer.id,
        model: 'Device Type 1',
        slug: 'device-type-1',
        subdevice_role: 'parent',
      });
      await t.makeAll(
        'dcim.modulebaytemplate',
        [true, false, true].map((enabled, i) => ({
          device_type: type.id,
          name: `Module Bay Template ${i + 1}`,
          enabled,
        })),
      );
      return {
        createData: [
          { device_type: type.id, name: 'Module Bay Template 4', enabled: false },
          { device_type: type.id, name: 'Module Bay Template 5' },
          { device_type: type.id, name: 'Module Bay Template 6' },
        ],
      };
    },
  },
  {
    source: 'dcim/tests/test_api.py::ModuleBayTestCase',
    model: 'dcim.modulebay',
    briefFields: ['_occupied', 'description', 'display', 'enabled', 'id', 'installed_module', 'name', 'url'],
    bulkUpdateData: description,
    userPermissions: ['dcim.view_device'],
    setUp: async (t) => {
      const manufacturer = await t.make('dcim.manufacturer', {
        name: 'Test Manufacturer 1',
        slug: 'test-manufacturer-1',
      });
      const site = await t.make('dcim.site', { name: 'Site 1', slug: 'site-1' });
      const role = await t.make('dcim.devicerole', {
        name: 'Test Device Role 1',
        slug: 'test-device-role-1',
        color: 'ff0000',
      });
      const type = await t.make('dcim.devicetype', {
        manufacturer: manufacturer.id,
        model: 'Device Type 1',
        slug: 'device-type-1',
      });
      const device = await t.make('dcim.device', {
        device_type: type.id,
        role: role.id,
        name: 'Device 1',
        site: site.id,
      });
      for (const [i, enabled] of [true, false, true].entries())
        await t.make('dcim.modulebay', { device: device.id, name: `Device Bay ${i + 1}`, enabled });
      return {
        createData: [
          { device: device.id, name: 'Device Bay 4', enabled: false },
          { device: device.id, name: 'Device Bay 5' },
          { device: device.id, name: 'Device Bay 6' },
        ],
      };
    },
  },
  {
    source: 'dcim/tests/test_api.py::DeviceBayTemplateTestCase',
    model: 'dcim.devicebaytemplate',
    briefFields: ['description', 'display', 'enabled', 'id', 'name', 'url'],
    bulkUpdateData: description,
    userPermissions: ['dcim.view_devicetype'],
    setUp: async (t) => {
      const manufacturer = await t.make('dcim.manufacturer', {
        name: 'Test Manufacturer 1',
        slug: 'test-manufacturer-1',
      });
      const type = await t.make('dcim.devicetype', {
        manufacturer: manufacturer.id,
        model: 'Device Type 1',
        slug: 'device-type-1',
        subdevice_role: 'parent',
      });
      await t.makeAll(
        'dcim.devicebaytemplate',
        [true, false, true].map((enabled, i) => ({
          device_type: type.id,
          name: `Device Bay Template ${i + 1}`,
          enabled,
        })),
      );
      return {
        createData: [
          { device_type: type.id, name: 'Device Bay Template 4', enabled: false },
          { device_type: type.id, name: 'Device Bay Template 5' },
          { device_type: type.id, name: 'Device Bay Template 6' },
        ],
      };
    },
  },
  {
    source: 'dcim/tests/test_api.py::DeviceBayTestCase',
    model: 'dcim.devicebay',
    briefFields: ['_occupied', 'description', 'device', 'display', 'enabled', 'id', 'name', 'url'],
    bulkUpdateData: description,
    userPermissions: ['dcim.view_device'],
    setUp: async (t) => {
      const manufacturer = await t.make('dcim.manufacturer', {
        name: 'Test Manufacturer 1',
        slug: 'test-manufacturer-1',
      });
      const site = await t.make('dcim.site', { name: 'Site 1', slug: 'site-1' });
      const role = await t.make('dcim.devicerole', {
        name: 'Test Device Role 1',
        slug: 'test-device-role-1',
        color: 'ff0000',
      });
      const [parent, child] = await t.makeAll('dcim.devicetype', [
        { manufacturer: manufacturer.id, model: 'Device Type 1', slug: 'device-type-1', subdevice_role: 'parent' },
        {
          manufacturer: manufacturer.id,
          model: 'Device Type 2',
          slug: 'device-type-2',
          subdevice_role: 'child',
          u_height: 0,
        },
      ]);
      const devices = await t.makeAll(
        'dcim.device',
        [1, 2, 3, 4].map((i) => ({
          device_type: (i === 1 ? parent : child)!.id,
          role: role.id,
          name: `Device ${i}`,
          site: site.id,
        })),
      );
      await t.makeAll(
        'dcim.devicebay',
        [true, false, true].map((enabled, i) => ({ device: devices[0]!.id, name: `Device Bay ${i + 1}`, enabled })),
      );
      return {
        createData: [1, 2, 3].map((i) => ({
          device: devices[0]!.id,
          name: `Device Bay ${i + 3}`,
          installed_device: devices[i]!.id,
        })),
      };
    },
  },
  {
    source: 'dcim/tests/test_api.py::InventoryItemTemplateTestCase',
    model: 'dcim.inventoryitemtemplate',
    briefFields: ['_depth', 'description', 'display', 'id', 'name', 'url'],
    bulkUpdateData: description,
    userPermissions: ['dcim.view_devicetype', 'dcim.view_manufacturer'],
    setUp: async (t) => {
      const manufacturer = await t.make('dcim.manufacturer', {
        name: 'Test Manufacturer 1',
        slug: 'test-manufacturer-1',
      });
      const type = await t.make('dcim.devicetype', {
        manufacturer: manufacturer.id,
        model: 'Device Type 1',
        slug: 'device-type-1',
      });
      const role = await t.make('dcim.inventoryitemrole', {
        name: 'Inventory Item Role 1',
        slug: 'inventory-item-role-1',
      });
      const templates: Json[] = [];
      for (const i of [1, 2, 3, 4])
        templates.push(
          await t.make('dcim.inventoryitemtemplate', {
            device_type: type.id,
            name: `Inventory Item Template ${i}`,
            manufacturer: manufacturer.id,
            role: role.id,
          }),
        );
      return {
        createData: [5, 6, 7].map((i) => ({
          device_type: type.id,
          name: `Inventory Item Template ${i}`,
          manufacturer: manufacturer.id,
          role: role.id,
          parent: templates[3]!.id,
        })),
      };
    },
  },
  {
    source: 'dcim/tests/test_api.py::InventoryItemTestCase',
    model: 'dcim.inventoryitem',
    briefFields: ['_depth', 'description', 'device', 'display', 'id', 'name', 'url'],
    bulkUpdateData: description,
    userPermissions: ['dcim.view_device', 'dcim.view_manufacturer'],
    setUp: async (t) => {
      const manufacturer = await t.make('dcim.manufacturer', {
        name: 'Test Manufacturer 1',
        slug: 'test-manufacturer-1',
      });
      const type = await t.make('dcim.devicetype', {
        manufacturer: manufacturer.id,
        model: 'Device Type 1',
        slug: 'device-type-1',
      });
      const site = await t.make('dcim.site', { name: 'Site 1', slug: 'site-1' });
      const role = await t.make('dcim.devicerole', {
        name: 'Test Device Role 1',
        slug: 'test-device-role-1',
        color: 'ff0000',
      });
      const device = await t.make('dcim.device', {
        device_type: type.id,
        role: role.id,
        name: 'Device 1',
        site: site.id,
      });
      const roles = await t.makeAll('dcim.inventoryitemrole', [
        { name: 'Inventory Item Role 1', slug: 'inventory-item-role-1' },
        { name: 'Inventory Item Role 2', slug: 'inventory-item-role-2' },
      ]);
      const interfaces = await t.makeAll(
        'dcim.interface',
        [1, 2, 3].map((i) => ({ device: device.id, name: `Interface ${i}`, type: '1000base-t' })),
      );
      for (const [i, iface] of interfaces.entries())
        await t.make('dcim.inventoryitem', {
          device: device.id,
          name: `Inventory Item ${i + 1}`,
          role: roles[0]!.id,
          manufacturer: manufacturer.id,
          component_type: 'dcim.interface',
          component_id: iface.id,
        });
      return {
        createData: interfaces.map((iface, i) => ({
          device: device.id,
          name: `Inventory Item ${i + 4}`,
          role: roles[1]!.id,
          manufacturer: manufacturer.id,
          component_type: 'dcim.interface',
          component_id: iface.id,
        })),
      };
    },
  },
  {
    source: 'dcim/tests/test_api.py::InventoryItemRoleTestCase',
    model: 'dcim.inventoryitemrole',
    briefFields: ['description', 'display', 'id', 'inventoryitem_count', 'name', 'slug', 'url'],
    bulkUpdateData: description,
    setUp: async (t) => {
      await t.makeAll('dcim.inventoryitemrole', [
        { name: 'Inventory Item Role 1', slug: 'inventory-item-role-1', color: 'ff0000' },
        { name: 'Inventory Item Role 2', slug: 'inventory-item-role-2', color: '00ff00' },
        { name: 'Inventory Item Role 3', slug: 'inventory-item-role-3', color: '0000ff' },
      ]);
      return {
        createData: [4, 5, 6].map((i) => ({
          name: `Inventory Item Role ${i}`,
          slug: `inventory-item-role-${i}`,
          color: 'ffff00',
        })),
      };
    },
  },
];
