import type { NetBoxTestCase } from '../generic.js';
import type { PortedClass } from '../harness.js';

/** Ported from NetBox 4.6.8 wireless/tests/test_api.py (AppTestCase.test_root: see cases/index.ts). */

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

const tenantsOf = (t: PortedClass): Promise<Json[]> =>
  t.makeAll('tenancy.tenant', [
    { name: 'Tenant 1', slug: 'tenant-1' },
    { name: 'Tenant 2', slug: 'tenant-2' },
  ]);

export const wirelessCases: NetBoxTestCase[] = [
  {
    source: 'wireless/tests/test_api.py::WirelessLANGroupTestCase',
    model: 'wireless.wirelesslangroup',
    briefFields: ['_depth', 'description', 'display', 'id', 'name', 'slug', 'url', 'wirelesslan_count'],
    bulkUpdateData: { description: 'New description', comments: 'New comment' },
    setUp: async (t) => {
      await t.makeAll(
        'wireless.wirelesslangroup',
        [1, 2, 3].map((i) => ({ name: `Wireless LAN Group ${i}`, slug: `wireless-lan-group-${i}` })),
      );
      return {
        createData: [
          { name: 'Wireless LAN Group 4', slug: 'wireless-lan-group-4', comments: '' },
          { name: 'Wireless LAN Group 5', slug: 'wireless-lan-group-5', comments: 'LAN Group 5 comment' },
          { name: 'Wireless LAN Group 6', slug: 'wireless-lan-group-6' },
        ],
      };
    },
  },
  {
    source: 'wireless/tests/test_api.py::WirelessLANTestCase',
    model: 'wireless.wirelesslan',
    briefFields: ['description', 'display', 'id', 'ssid', 'url'],
    setUp: async (t) => {
      const sites = await t.makeAll('dcim.site', [
        { name: 'Site 1', slug: 'site-1' },
        { name: 'Site 2', slug: 'site-2' },
      ]);
      const tenants = await tenantsOf(t);
      const groups = await t.makeAll(
        'wireless.wirelesslangroup',
        [1, 2, 3].map((i) => ({ name: `Group ${i}`, slug: `group-${i}` })),
      );
      await t.makeAll(
        'wireless.wirelesslan',
        [1, 2, 3].map((i) => ({ ssid: `WLAN${i}`, status: 'active' })),
      );
      const disabled = { status: 'disabled', tenant: tenants[0]!.id };
      return {
        createData: [
          { ssid: 'WLAN4', group: groups[0]!.id, ...disabled, auth_type: 'open' },
          { ssid: 'WLAN5', group: groups[1]!.id, ...disabled, auth_type: 'wpa-personal' },
          { ssid: 'WLAN6', ...disabled, auth_type: 'wpa-enterprise', scope_type: 'dcim.site', scope_id: sites[1]!.id },
        ],
        bulkUpdateData: {
          status: 'deprecated',
          group: groups[2]!.id,
          tenant: tenants[1]!.id,
          description: 'New description',
          auth_type: 'wpa-personal',
          auth_cipher: 'aes',
          auth_psk: 'abc123def456',
        },
      };
    },
  },
  {
    source: 'wireless/tests/test_api.py::WirelessLinkTestCase',
    model: 'wireless.wirelesslink',
    briefFields: ['description', 'display', 'id', 'ssid', 'url'],
    bulkUpdateData: { status: 'planned', distance: 100, distance_unit: 'm' },
    userPermissions: ['dcim.view_interface'],
    setUp: async (t) => {
      const device = await testDevice(t, 'test-device');
      const interfaces = await t.makeAll(
        'dcim.interface',
        Array.from({ length: 12 }, (_, i) => ({
          device: device.id,
          name: `radio${i}`,
          type: 'ieee802.11ac',
          rf_channel: '5g-32-5160-20',
          rf_channel_frequency: 5160,
          rf_channel_width: 20,
        })),
      );
      const tenants = await tenantsOf(t);
      await t.makeAll(
        'wireless.wirelesslink',
        [0, 1, 2].map((i) => ({
          ssid: `LINK${i + 1}`,
          interface_a: interfaces[2 * i]!.id,
          interface_b: interfaces[2 * i + 1]!.id,
          tenant: tenants[0]!.id,
        })),
      );
      return {
        createData: [3, 4, 5].map((i) => ({
          interface_a: interfaces[2 * i]!.id,
          interface_b: interfaces[2 * i + 1]!.id,
          ssid: `LINK${i + 1}`,
          tenant: tenants[1]!.id,
        })),
      };
    },
  },
];
