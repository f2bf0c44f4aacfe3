import type { NetBoxTestCase } from '../generic.js';
import type { PortedClass } from '../harness.js';

/**
 * Ported from NetBox 4.6.8 dcim/tests/test_api.py: virtual chassis, virtual device contexts, MAC addresses,
 * rack groups, rack types and rack reservations.
 */

type Json = Record<string, any>;

/** A site, a manufacturer, a device type and a device role, as most classes here start. */
async function deviceBasics(
  t: PortedClass,
  names: { site?: string; type?: string; role?: string } = {},
): Promise<{ site: Json; manufacturer: Json; type: Json; role: Json }> {
  const siteName = names.site ?? 'Test Site';
  const site = await t.make('dcim.site', { name: siteName, slug: siteName.toLowerCase().replaceAll(' ', '-') });
  const manufacturer = await t.make('dcim.manufacturer', { name: 'Manufacturer 1', slug: 'manufacturer-1' });
  const typeName = names.type ?? 'Device Type';
  const type = await t.make('dcim.devicetype', {
    manufacturer: manufacturer.id,
    model: typeName,
    slug: typeName.toLowerCase().replaceAll(' ', '-'),
  });
  const roleName = names.role ?? 'Device Role';
  const role = await t.make('dcim.devicerole', {
    name: roleName,
    slug: roleName.toLowerCase().replaceAll(' ', '-'),
    color: 'ff0000',
  });
  return { site, manufacturer, type, role };
}

export const dcimChassisCases: NetBoxTestCase[] = [
  {
    source: 'dcim/tests/test_api.py::VirtualChassisTestCase',
    model: 'dcim.virtualchassis',
    briefFields: ['description', 'display', 'id', 'master', 'member_count', 'name', 'url'],
    setUp: async (t) => {
      const { site, type, role } = await deviceBasics(t);
      const devices = await t.makeAll(
        'dcim.device',
        Array.from({ length: 12 }, (_, i) => ({
          name: `Device ${i + 1}`,
          device_type: type.id,
          role: role.id,
          site: site.id,
        })),
      );
      // 13 interfaces per device, named after the device's position in its chassis (1/0, 1/1, …).
      await t.makeAll(
        'dcim.interface',
        devices.flatMap((device, i) =>
          Array.from({ length: 13 }, (_, j) => ({
            device: device.id,
            name: `${(i % 3) + 1}/${j}`,
            type: '1000base-t',
          })),
        ),
      );
      // Three chassis of three members each; a chassis created with a master makes it member 1.
      const chassis = await t.makeAll(
        'dcim.virtualchassis',
        [0, 1, 2].map((i) => ({
          name: `Virtual Chassis ${i + 1}`,
          master: devices[i * 3]!.id,
          domain: `domain-${i + 1}`,
        })),
      );
      const members = [0, 1, 2].flatMap((c) =>
        [1, 2].map((k) => ({ id: devices[c * 3 + k]!.id, virtual_chassis: chassis[c]!.id, vc_position: k + 1 })),
      );
      const response = await t.admin.patch(t.path('dcim.device'), members);
      if (response.status !== 200) throw new Error(response.text);
      return {
        updateData: { name: 'Virtual Chassis X', domain: 'domain-x', master: devices[1]!.id },
        createData: [4, 5, 6].map((i) => ({ name: `Virtual Chassis ${i}`, domain: `domain-${i}` })),
        bulkUpdateData: { domain: 'newdomain', master: null },
      };
    },
  },
];
