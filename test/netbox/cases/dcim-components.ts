import type { NetBoxTestCase } from '../generic.js';
import type { PortedClass } from '../harness.js';
import { traceTest } from './cable-traces.js';

/** Ported from NetBox 4.6.8 dcim/tests/test_api.py: device components and their templates. */

const description = { description: 'New description' };

type Json = Record<string, any>;

/** NetBox's component test set-up: a manufacturer, a device type, a site, a role and "Device 1". */
async function device(t: PortedClass): Promise<{ type: Json; device: Json }> {
  const manufacturer = await t.make('dcim.manufacturer', { name: 'Test Manufacturer 1', slug: 'test-manufacturer-1' });
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
  const made = await t.make('dcim.device', { device_type: type.id, role: role.id, name: 'Device 1', site: site.id });
  return { type, device: made };
}

export const dcimComponentsCases: NetBoxTestCase[] = [
  {
    source: 'dcim/tests/test_api.py::ConsolePortTemplateTestCase',
    model: 'dcim.consoleporttemplate',
    briefFields: ['description', 'display', 'id', 'name', 'url'],
    bulkUpdateData: description,
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
      const moduleType = await t.make('dcim.moduletype', { manufacturer: manufacturer.id, model: 'Module Type 1' });
      await t.makeAll(
        'dcim.consoleporttemplate',
        [1, 2, 3].map((i) => ({ device_type: type.id, name: `Console Port Template ${i}` })),
      );
      return {
        createData: [
          { device_type: type.id, name: 'Console Port Template 4' },
          { device_type: type.id, name: 'Console Port Template 5' },
          { module_type: moduleType.id, name: 'Console Port Template 6' },
          { module_type: moduleType.id, name: 'Console Port Template 7' },
        ],
      };
    },
  },
  {
    source: 'dcim/tests/test_api.py::ConsolePortTestCase',
    model: 'dcim.consoleport',
    briefFields: ['_occupied', 'cable', 'description', 'device', 'display', 'id', 'name', 'url'],
    bulkUpdateData: description,
    userPermissions: ['dcim.view_device'],
    tests: { test_trace: traceTest('dcim.consoleserverport') },
    setUp: async (t) => {
      const { device: made } = await device(t);
      await t.makeAll(
        'dcim.consoleport',
        [1, 2, 3].map((i) => ({ device: made.id, name: `Console Port ${i}` })),
      );
      return {
        createData: [
          { device: made.id, name: 'Console Port 4', speed: 9600 },
          { device: made.id, name: 'Console Port 5', speed: 115200 },
          { device: made.id, name: 'Console Port 6', speed: null },
        ],
      };
    },
  },
];
