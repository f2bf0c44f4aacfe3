import type { NetBoxTestCase } from '../generic.js';
import type { PortedClass } from '../harness.js';
import { pathsTest, traceTest } from './cable-traces.js';

/**
 * Ported from NetBox 4.6.8 dcim/tests/test_api.py: the console server, power, front and rear port test cases,
 * power outlets, and the templates of each (with interface templates). Module types are not served yet, so
 * `create_data` entries that name one are left out.
 */

const description = { description: 'New description' };
const TEMPLATE_BRIEF = ['description', 'display', 'id', 'name', 'url'];
const COMPONENT_BRIEF = ['_occupied', 'cable', 'description', 'device', 'display', 'id', 'name', 'url'];

type Json = Record<string, any>;

/** The device type of every template case: `Device Type 1` of `Test Manufacturer 1`. */
async function deviceType(t: PortedClass): Promise<Json> {
  const manufacturer = await t.make('dcim.manufacturer', { name: 'Test Manufacturer 1', slug: 'test-manufacturer-1' });
  return t.make('dcim.devicetype', { manufacturer: manufacturer.id, model: 'Device Type 1', slug: 'device-type-1' });
}

/** The device type and module type of the front and rear port template cases. */
async function portTypes(t: PortedClass): Promise<{ device_type: number; module_type: number }> {
  const type = await deviceType(t);
  const module = await t.make('dcim.moduletype', { manufacturer: type.manufacturer.id, model: 'Module Type 1' });
  return { device_type: type.id, module_type: module.id };
}

/** The device of every component case: `Device 1` at `Site 1`. */
async function device(t: PortedClass): Promise<Json> {
  const type = await deviceType(t);
  const site = await t.make('dcim.site', { name: 'Site 1', slug: 'site-1' });
  const role = await t.make('dcim.devicerole', {
    name: 'Test Device Role 1',
    slug: 'test-device-role-1',
    color: 'ff0000',
  });
  return t.make('dcim.device', { device_type: type.id, role: role.id, name: 'Device 1', site: site.id });
}

/** Objects named `<prefix> <i>` for each i, with the same other values. */
const named = (prefix: string, numbers: number[], values: Json): Json[] =>
  numbers.map((i) => ({ ...values, name: `${prefix} ${i}` }));

export const dcimPortsCases: NetBoxTestCase[] = [
  {
    source: 'dcim/tests/test_api.py::ConsoleServerPortTemplateTestCase',
    model: 'dcim.consoleserverporttemplate',
    briefFields: TEMPLATE_BRIEF,
    bulkUpdateData: description,
    // create_data's templates 6 and 7 belong to a module type: module types are not served yet.
    setUp: async (t) => {
      const type = await deviceType(t);
      await t.makeAll(
        'dcim.consoleserverporttemplate',
        named('Console Server Port Template', [1, 2, 3], { device_type: type.id }),
      );
      return { createData: named('Console Server Port Template', [4, 5], { device_type: type.id }) };
    },
  },
  {
    source: 'dcim/tests/test_api.py::ConsoleServerPortTestCase',
    model: 'dcim.consoleserverport',
    briefFields: COMPONENT_BRIEF,
    bulkUpdateData: description,
    userPermissions: ['dcim.view_device'],
    tests: { test_trace: traceTest('dcim.consoleport') },
    setUp: async (t) => {
      const { id } = await device(t);
      await t.makeAll('dcim.consoleserverport', named('Console Server Port', [1, 2, 3], { device: id }));
      return {
        createData: [
          { device: id, name: 'Console Server Port 4', speed: 9600 },
          { device: id, name: 'Console Server Port 5', speed: 115200 },
          { device: id, name: 'Console Server Port 6', speed: null },
        ],
      };
    },
  },
  {
    source: 'dcim/tests/test_api.py::PowerPortTemplateTestCase',
    model: 'dcim.powerporttemplate',
    briefFields: TEMPLATE_BRIEF,
    bulkUpdateData: description,
    // create_data's templates 6 and 7 belong to a module type: module types are not served yet.
    setUp: async (t) => {
      const type = await deviceType(t);
      await t.makeAll('dcim.powerporttemplate', named('Power Port Template', [1, 2, 3], { device_type: type.id }));
      return { createData: named('Power Port Template', [4, 5], { device_type: type.id }) };
    },
  },
  {
    source: 'dcim/tests/test_api.py::PowerPortTestCase',
    model: 'dcim.powerport',
    briefFields: COMPONENT_BRIEF,
    bulkUpdateData: description,
    userPermissions: ['dcim.view_device'],
    tests: { test_trace: traceTest('dcim.poweroutlet') },
    setUp: async (t) => {
      const { id } = await device(t);
      await t.makeAll('dcim.powerport', named('Power Port', [1, 2, 3], { device: id }));
      return { createData: named('Power Port', [4, 5, 6], { device: id }) };
    },
  },
  {
    source: 'dcim/tests/test_api.py::PowerOutletTemplateTestCase',
    model: 'dcim.poweroutlettemplate',
    briefFields: TEMPLATE_BRIEF,
    bulkUpdateData: description,
    userPermissions: ['dcim.view_devicetype'],
    // create_data's templates 7 and 8 belong to a module type: module types are not served yet.
    setUp: async (t) => {
      const type = await deviceType(t);
      const ports = await t.makeAll(
        'dcim.powerporttemplate',
        named('Power Port Template', [1, 2], { device_type: type.id }),
      );
      await t.makeAll('dcim.poweroutlettemplate', named('Power Outlet Template', [1, 2, 3], { device_type: type.id }));
      return {
        createData: [
          { device_type: type.id, name: 'Power Outlet Template 4', power_port: ports[0]!.id },
          { device_type: type.id, name: 'Power Outlet Template 5', power_port: ports[1]!.id },
          { device_type: type.id, name: 'Power Outlet Template 6', power_port: null },
        ],
      };
    },
  },
  {
    source: 'dcim/tests/test_api.py::PowerOutletTestCase',
    model: 'dcim.poweroutlet',
    briefFields: COMPONENT_BRIEF,
    bulkUpdateData: description,
    userPermissions: ['dcim.view_device'],
    tests: { test_trace: traceTest('dcim.powerport') },
    setUp: async (t) => {
      const { id } = await device(t);
      const ports = await t.makeAll('dcim.powerport', named('Power Port', [1, 2], { device: id }));
      await t.makeAll('dcim.poweroutlet', named('Power Outlet', [1, 2, 3], { device: id }));
      return {
        createData: [
          { device: id, name: 'Power Outlet 4', power_port: ports[0]!.id },
          { device: id, name: 'Power Outlet 5', power_port: ports[1]!.id },
          { device: id, name: 'Power Outlet 6', power_port: null },
        ],
      };
    },
  },
  {
    source: 'dcim/tests/test_api.py::InterfaceTemplateTestCase',
    model: 'dcim.interfacetemplate',
    briefFields: TEMPLATE_BRIEF,
    bulkUpdateData: description,
    // create_data's templates 6 and 7 belong to a module type: module types are not served yet.
    setUp: async (t) => {
      const device_type = (await deviceType(t)).id;
      await t.makeAll(
        'dcim.interfacetemplate',
        named('Interface Template', [1, 2, 3], { device_type, type: '1000base-t' }),
      );
      return { createData: named('Interface Template', [4, 5], { device_type, type: '1000base-t' }) };
    },
  },
  {
    source: 'dcim/tests/test_api.py::FrontPortTemplateTestCase',
    model: 'dcim.frontporttemplate',
    briefFields: TEMPLATE_BRIEF,
    bulkUpdateData: description,
    userPermissions: ['dcim.view_rearporttemplate'],
    setUp: async (t) => {
      const { device_type, module_type } = await portTypes(t);
      const rear = await t.makeAll(
        'dcim.rearporttemplate',
        named('Rear Port Template', [1, 2, 3, 4, 5, 6], { device_type, type: '8p8c' }),
      );
      const mapped = (i: number) => ({ rear_ports: [{ position: 1, rear_port: rear[i]!.id, rear_port_position: 1 }] });
      await t.makeAll('dcim.frontporttemplate', [
        { device_type, name: 'Front Port Template 1', type: '8p8c', ...mapped(0) },
        { device_type, name: 'Front Port Template 2', type: '8p8c', ...mapped(1) },
        { module_type, name: 'Front Port Template 3', type: '8p8c', ...mapped(2) },
      ]);
      return {
        createData: [
          { device_type, name: 'Front Port Template 3', type: '8p8c', ...mapped(3) },
          { device_type, name: 'Front Port Template 4', type: '8p8c', ...mapped(4) },
          { module_type, name: 'Front Port Template 7', type: '8p8c', ...mapped(5) },
        ],
        updateData: { type: 'lc', ...mapped(3) },
      };
    },
  },
  {
    source: 'dcim/tests/test_api.py::FrontPortTestCase',
    model: 'dcim.frontport',
    briefFields: COMPONENT_BRIEF,
    bulkUpdateData: description,
    userPermissions: ['dcim.view_device', 'dcim.view_rearport'],
    tests: { test_front_port_paths: pathsTest() },
    setUp: async (t) => {
      const { id } = await device(t);
      const rear = await t.makeAll(
        'dcim.rearport',
        named('Rear Port', [1, 2, 3, 4, 5, 6], { device: id, type: '8p8c' }),
      );
      const mapped = (i: number) => ({ rear_ports: [{ position: 1, rear_port: rear[i]!.id, rear_port_position: 1 }] });
      await t.makeAll(
        'dcim.frontport',
        [0, 1, 2].map((i) => ({ device: id, name: `Front Port ${i + 1}`, type: '8p8c', ...mapped(i) })),
      );
      return {
        createData: [3, 4, 5].map((i) => ({ device: id, name: `Front Port ${i + 1}`, type: '8p8c', ...mapped(i) })),
        updateData: { type: 'lc', ...mapped(3) },
      };
    },
  },
  {
    source: 'dcim/tests/test_api.py::RearPortTemplateTestCase',
    model: 'dcim.rearporttemplate',
    briefFields: TEMPLATE_BRIEF,
    bulkUpdateData: description,
    setUp: async (t) => {
      const { device_type, module_type } = await portTypes(t);
      const front = await t.makeAll('dcim.frontporttemplate', [
        ...named('Front Port Template', [1, 2], { device_type, type: '8p8c' }),
        ...named('Front Port Template', [3, 4, 5, 6], { module_type, type: '8p8c' }),
      ]);
      const mapped = (i: number) => ({
        front_ports: [{ position: 1, front_port: front[i]!.id, front_port_position: 1 }],
      });
      await t.makeAll('dcim.rearporttemplate', [
        ...[0, 1, 2].map((i) => ({ device_type, name: `Rear Port Template ${i + 1}`, type: '8p8c', ...mapped(i) })),
      ]);
      return {
        createData: [
          { device_type, name: 'Rear Port Template 4', type: '8p8c', ...mapped(3) },
          { device_type, name: 'Rear Port Template 5', type: '8p8c', ...mapped(4) },
          { module_type, name: 'Rear Port Template 6', type: '8p8c', ...mapped(5) },
        ],
        updateData: { type: 'lc', ...mapped(3) },
      };
    },
  },
  {
    source: 'dcim/tests/test_api.py::RearPortTestCase',
    model: 'dcim.rearport',
    briefFields: COMPONENT_BRIEF,
    bulkUpdateData: description,
    userPermissions: ['dcim.view_device', 'dcim.view_frontport'],
    tests: { test_rear_port_paths: pathsTest() },
    setUp: async (t) => {
      const { id } = await device(t);
      const front = await t.makeAll(
        'dcim.frontport',
        named('Front Port', [1, 2, 3, 4, 5, 6], { device: id, type: '8p8c' }),
      );
      const mapped = (i: number) => ({
        front_ports: [{ position: 1, front_port: front[i]!.id, front_port_position: 1 }],
      });
      await t.makeAll(
        'dcim.rearport',
        [0, 1, 2].map((i) => ({ device: id, name: `Rear Port ${i + 1}`, type: '8p8c', ...mapped(i) })),
      );
      return {
        createData: [3, 4, 5].map((i) => ({ device: id, name: `Rear Port ${i + 1}`, type: '8p8c', ...mapped(i) })),
        updateData: { type: 'lc', ...mapped(3) },
      };
    },
  },
];
