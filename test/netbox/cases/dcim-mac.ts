import type { NetBoxTestCase } from '../generic.js';
import type { PortedClass } from '../harness.js';

/** Ported from NetBox 4.6.8 dcim/tests/test_api.py: MAC addresses. */

type Json = Record<string, any>;

/** NetBox's create_test_device: Site 1, Manufacturer 1, Device Type 1 and Device Role 1. */
async function testDevice(t: PortedClass, name: string): Promise<Json> {
  const site = await t.make('dcim.site', { name: 'Site 1', slug: 'site-1' });
  const manufacturer = await t.make('dcim.manufacturer', { name: 'Manufacturer 1', slug: 'manufacturer-1' });
  const type = await t.make('dcim.devicetype', {
    manufacturer: manufacturer.id,
    model: 'Device Type 1',
    slug: 'device-type-1',
  });
  const role = await t.make('dcim.devicerole', { name: 'Device Role 1', slug: 'device-role-1' });
  return t.make('dcim.device', { name, site: site.id, device_type: type.id, role: role.id });
}

export const dcimMacCases: NetBoxTestCase[] = [
  {
    source: 'dcim/tests/test_api.py::MACAddressTestCase',
    model: 'dcim.macaddress',
    briefFields: ['description', 'display', 'id', 'mac_address', 'url'],
    bulkUpdateData: { description: 'New description' },
    setUp: async (t) => {
      const device = await testDevice(t, 'Device 1');
      const interfaces = await t.makeAll(
        'dcim.interface',
        [1, 2, 3, 4, 5].map((i) => ({ device: device.id, name: `Interface ${i}`, type: '1000base-t' })),
      );
      const onInterface = (i: number): Json => ({
        assigned_object_type: 'dcim.interface',
        assigned_object_id: interfaces[i]!.id,
      });
      await t.makeAll('dcim.macaddress', [
        { mac_address: '00:00:00:00:00:01', ...onInterface(0) },
        { mac_address: '00:00:00:00:00:02', ...onInterface(1) },
        { mac_address: '00:00:00:00:00:03', ...onInterface(2) },
      ]);
      return {
        createData: [
          { mac_address: '00:00:00:00:00:04', ...onInterface(3) },
          { mac_address: '00:00:00:00:00:05', ...onInterface(4) },
          { mac_address: '00:00:00:00:00:06' },
        ],
      };
    },
  },
];
