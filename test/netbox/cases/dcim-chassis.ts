import { expect } from 'vitest';
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
  names: { site?: string; type?: string; role?: string; manufacturer?: string } = {},
): Promise<{ site: Json; manufacturer: Json; type: Json; role: Json }> {
  const siteName = names.site ?? 'Test Site';
  const site = await t.make('dcim.site', { name: siteName, slug: siteName.toLowerCase().replaceAll(' ', '-') });
  const manufacturerName = names.manufacturer ?? 'Manufacturer 1';
  const manufacturer = await t.make('dcim.manufacturer', {
    name: manufacturerName,
    slug: manufacturerName.toLowerCase().replaceAll(' ', '-'),
  });
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

/** NetBox's create_test_device: a device at a site of its own type and role. */
async function testDevice(t: PortedClass, name: string): Promise<Json> {
  const { site, type, role } = await deviceBasics(t, {
    site: `${name} site`,
    type: `${name} type`,
    role: `${name} role`,
    manufacturer: `${name} manufacturer`,
  });
  return t.make('dcim.device', { name, site: site.id, device_type: type.id, role: role.id });
}

/** An address assigned to a device interface. */
const onInterface = (id: number): Json => ({ assigned_object_type: 'dcim.interface', assigned_object_id: id });

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
  {
    source: 'dcim/tests/test_api.py::VirtualDeviceContextTestCase',
    model: 'dcim.virtualdevicecontext',
    briefFields: ['description', 'device', 'display', 'id', 'identifier', 'name', 'url'],
    bulkUpdateData: { status: 'planned' },
    setUp: async (t) => {
      const { site, type, role } = await deviceBasics(t);
      const devices = await t.makeAll(
        'dcim.device',
        [1, 2, 3].map((i) => ({ name: `Device ${i}`, device_type: type.id, role: role.id, site: site.id })),
      );
      await t.makeAll('dcim.virtualdevicecontext', [
        ...[1, 2].map((i) => ({ device: devices[1]!.id, name: `VDC ${i}`, identifier: i, status: 'active' })),
        ...[1, 2, 3, 4, 5].map((i) => ({ device: devices[2]!.id, name: `VDC ${i}`, identifier: i, status: 'active' })),
      ]);
      return {
        createData: [
          { device: devices[0]!.id, status: 'active', name: 'VDC 1', identifier: 1 },
          { device: devices[0]!.id, status: 'active', name: 'VDC 2', identifier: 2 },
          // Omit identifier to test uniqueness constraint
          { device: devices[1]!.id, status: 'active', name: 'VDC 3' },
        ],
      };
    },
    tests: {
      test_get_object_includes_nat_on_primary_ip: async (t) => {
        const device = await testDevice(t, 'vdc-nat-device');
        const [eth0, eth1] = await t.makeAll('dcim.interface', [
          { device: device.id, name: 'eth0', type: 'other' },
          { device: device.id, name: 'eth1', type: 'other' },
        ]);
        const real4 = await t.make('ipam.ipaddress', { address: '10.0.2.10/32', ...onInterface(eth0!.id) });
        const nat4 = await t.make('ipam.ipaddress', { address: '198.51.100.30/32', nat_inside: real4.id });
        const real6 = await t.make('ipam.ipaddress', { address: '2001:db8:2::10/128', ...onInterface(eth1!.id) });
        const nat6 = await t.make('ipam.ipaddress', { address: '2001:db8:2::20/128', nat_inside: real6.id });
        const vdc = await t.make('dcim.virtualdevicecontext', {
          name: 'VDC NAT',
          identifier: 98,
          device: device.id,
          status: 'active',
        });
        const patched = await t.admin.patch(`${t.path()}${vdc.id}/`, { primary_ip4: nat4.id, primary_ip6: real6.id });
        expect(patched.status, patched.text).toBe(200);
        const user = await t.user();
        await user.addPermissions('dcim.view_virtualdevicecontext', 'ipam.view_ipaddress');
        const response = await user.client.get(`${t.path()}${vdc.id}/`);
        expect(response.status).toBe(200);
        expect(response.body.primary_ip4.nat_inside.address).toBe(real4.address);
        expect(response.body.primary_ip4.nat_outside).toEqual([]);
        expect(response.body.primary_ip6.nat_inside).toBeNull();
        expect(response.body.primary_ip6.nat_outside.map((ip: Json) => ip.address)).toEqual([nat6.address]);
      },
      test_get_object_includes_dns_name_on_primary_ip: async (t) => {
        const device = await testDevice(t, 'vdc-dns-device');
        const [eth0, eth1] = await t.makeAll('dcim.interface', [
          { device: device.id, name: 'eth0', type: 'other' },
          { device: device.id, name: 'eth1', type: 'other' },
        ]);
        const ip4 = await t.make('ipam.ipaddress', {
          address: '192.0.2.30/32',
          dns_name: 'vdc4.example.com',
          ...onInterface(eth0!.id),
        });
        const ip6 = await t.make('ipam.ipaddress', {
          address: '2001:db8::30/128',
          dns_name: 'vdc6.example.com',
          ...onInterface(eth1!.id),
        });
        const vdc = await t.make('dcim.virtualdevicecontext', {
          name: 'VDC DNS',
          identifier: 99,
          device: device.id,
          status: 'active',
          primary_ip4: ip4.id,
          primary_ip6: ip6.id,
        });
        const user = await t.user();
        await user.addPermissions('dcim.view_virtualdevicecontext', 'ipam.view_ipaddress');
        const response = await user.client.get(`${t.path()}${vdc.id}/`);
        expect(response.status).toBe(200);
        expect(response.body.primary_ip4.dns_name).toBe('vdc4.example.com');
        expect(response.body.primary_ip6.dns_name).toBe('vdc6.example.com');
        expect(['vdc4.example.com', 'vdc6.example.com']).toContain(response.body.primary_ip.dns_name);
      },
    },
  },
  {
    source: 'dcim/tests/test_api.py::RackGroupTestCase',
    model: 'dcim.rackgroup',
    briefFields: ['description', 'display', 'id', 'name', 'rack_count', 'slug', 'url'],
    bulkUpdateData: { description: 'New description' },
    setUp: async (t) => {
      await t.makeAll(
        'dcim.rackgroup',
        [1, 2, 3].map((i) => ({ name: `Rack Group ${i}`, slug: `rack-group-${i}` })),
      );
      return { createData: [4, 5, 6].map((i) => ({ name: `Rack Group ${i}`, slug: `rack-group-${i}` })) };
    },
  },
  {
    source: 'dcim/tests/test_api.py::RackReservationTestCase',
    model: 'dcim.rackreservation',
    briefFields: ['description', 'display', 'id', 'status', 'units', 'url', 'user'],
    bulkUpdateData: { description: 'New description' },
    userPermissions: ['dcim.view_rack', 'users.view_user'],
    setUp: async (t) => {
      const user = await t.make('users.user', { username: 'user1', password: 'User1-Password', is_active: true });
      const site = await t.make('dcim.site', { name: 'Test Site 1', slug: 'test-site-1' });
      const [rack1, rack2] = await t.makeAll('dcim.rack', [
        { site: site.id, name: 'Rack 1' },
        { site: site.id, name: 'Rack 2' },
      ]);
      await t.makeAll(
        'dcim.rackreservation',
        [1, 2, 3].map((i) => ({
          rack: rack1!.id,
          units: [3 * i - 2, 3 * i - 1, 3 * i],
          user: user.id,
          description: `Reservation #${i}`,
        })),
      );
      const statuses = ['active', 'pending', 'stale'];
      return {
        createData: [4, 5, 6].map((i, k) => ({
          rack: rack2!.id,
          units: [3 * i - 2, 3 * i - 1, 3 * i],
          status: statuses[k],
          user: user.id,
          description: `Reservation #${i}`,
        })),
      };
    },
    tests: {
      test_unit_count: async (t) => {
        const user = await t.user(['dcim.view_rack', 'users.view_user']);
        await user.addPermissions('dcim.view_rackreservation');
        const response = await user.client.get(t.path());
        expect(response.status).toBe(200);
        for (const result of response.body.results as Json[]) expect(result.unit_count).toBe(result.units.length);
      },
    },
  },
  {
    source: 'dcim/tests/test_api.py::RackTypeTestCase',
    model: 'dcim.racktype',
    briefFields: ['description', 'display', 'id', 'manufacturer', 'model', 'rack_count', 'slug', 'url'],
    bulkUpdateData: { description: 'new description' },
    userPermissions: ['dcim.view_manufacturer'],
    setUp: async (t) => {
      const [m1, m2] = await t.makeAll('dcim.manufacturer', [
        { name: 'Manufacturer 1', slug: 'manufacturer-1' },
        { name: 'Manufacturer 2', slug: 'manufacturer-2' },
      ]);
      const type = (manufacturer: Json, i: number): Json => ({
        manufacturer: manufacturer.id,
        model: `Rack Type ${i}`,
        slug: `rack-type-${i}`,
        form_factor: '4-post-cabinet',
      });
      await t.makeAll(
        'dcim.racktype',
        [1, 2, 3].map((i) => type(m1!, i)),
      );
      return { createData: [4, 5, 6].map((i) => type(m2!, i)) };
    },
  },
];
