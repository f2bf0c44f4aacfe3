import { expect } from 'vitest';
import type { NetBoxTestCase } from '../generic.js';

const description = { description: 'New description' };

/** Ported from NetBox 4.6.8 ipam/tests/test_api.py: IP ranges, ASN ranges, FHRP groups and their assignments. */
export const ipamRangeCases: NetBoxTestCase[] = [
  {
    source: 'ipam/tests/test_api.py::IPRangeTestCase',
    model: 'ipam.iprange',
    briefFields: ['description', 'display', 'end_address', 'family', 'id', 'start_address', 'url'],
    bulkUpdateData: description,
    setUp: async (t) => {
      await t.makeAll('ipam.iprange', [
        { start_address: '192.168.1.10/24', end_address: '192.168.1.50/24' },
        { start_address: '192.168.2.10/24', end_address: '192.168.2.50/24' },
        { start_address: '192.168.3.10/24', end_address: '192.168.3.50/24' },
      ]);
      return {
        createData: [
          { start_address: '192.168.4.10/24', end_address: '192.168.4.50/24' },
          { start_address: '192.168.5.10/24', end_address: '192.168.5.50/24' },
          { start_address: '192.168.6.10/24', end_address: '192.168.6.50/24' },
          // Single-address range (start == end)
          { start_address: '192.168.7.10/24', end_address: '192.168.7.10/24' },
        ],
      };
    },
    tests: {
      test_list_available_ips: async (t) => {
        const range = await t.make('ipam.iprange', { start_address: '192.0.2.10/24', end_address: '192.0.2.19/24' });
        const user = await t.user();
        await user.addPermissions('ipam.view_iprange', 'ipam.view_ipaddress');
        const response = await user.client.get(`${t.path()}${range.id}/available-ips/`);
        expect(response.status).toBe(200);
        expect(response.body).toHaveLength(10);
      },
      test_create_single_available_ip: async (t) => {
        const vrf = await t.make('ipam.vrf', { name: 'Test VRF 1', rd: '1234' });
        const range = await t.make('ipam.iprange', {
          start_address: '192.0.2.1/24',
          end_address: '192.0.2.3/24',
          vrf: vrf.id,
        });
        const url = `${t.path()}${range.id}/available-ips/`;
        const user = await t.user();
        await user.addPermissions('ipam.view_iprange', 'ipam.add_ipaddress');
        for (let i = 1; i <= 3; i++) {
          const response = await user.client.post(url, { description: `Test IP #${i}` });
          expect(response.status, response.text).toBe(201);
          expect(response.body.vrf.id).toBe(vrf.id);
          expect(response.body.description).toBe(`Test IP #${i}`);
        }
        const refused = await user.client.post(url, {});
        expect(refused.status).toBe(409);
        expect(refused.body).toHaveProperty('detail');
      },
      test_create_multiple_available_ips: async (t) => {
        const range = await t.make('ipam.iprange', { start_address: '192.0.2.1/24', end_address: '192.0.2.8/24' });
        const url = `${t.path()}${range.id}/available-ips/`;
        const user = await t.user();
        await user.addPermissions('ipam.view_iprange', 'ipam.add_ipaddress');
        const nine = Array.from({ length: 9 }, (_, i) => ({ description: `Test IP #${i + 1}` }));
        const refused = await user.client.post(url, nine);
        expect(refused.status).toBe(409);
        expect(refused.body).toHaveProperty('detail');
        const eight = await user.client.post(url, nine.slice(0, 8));
        expect(eight.status, eight.text).toBe(201);
        expect(eight.body).toHaveLength(8);
      },
    },
    leftOut: {
      test_graphql_tenant_ip_ranges_parent_nested_skips_invalid: 'GraphQL is not served (by design).',
      test_graphql_tenant_ip_ranges_contains_nested_skips_invalid: 'GraphQL is not served (by design).',
    },
  },
  {
    source: 'ipam/tests/test_api.py::ASNRangeTestCase',
    model: 'ipam.asnrange',
    briefFields: ['description', 'display', 'id', 'name', 'url'],
    bulkUpdateData: description,
    setUp: async (t) => {
      const [rir1, rir2] = await t.makeAll('ipam.rir', [
        { name: 'RIR 1', slug: 'rir-1', is_private: true },
        { name: 'RIR 2', slug: 'rir-2', is_private: true },
      ]);
      const [tenant1, tenant2] = await t.makeAll('tenancy.tenant', [
        { name: 'Tenant 1', slug: 'tenant-1' },
        { name: 'Tenant 2', slug: 'tenant-2' },
      ]);
      await t.makeAll(
        'ipam.asnrange',
        [1, 2, 3].map((i) => ({
          name: `ASN Range ${i}`,
          slug: `asn-range-${i}`,
          rir: rir1!.id,
          tenant: tenant1!.id,
          start: i * 100,
          end: i * 100 + 99,
        })),
      );
      return {
        rir: rir1!.id,
        createData: [4, 5, 6].map((i) => ({
          name: `ASN Range ${i}`,
          slug: `asn-range-${i}`,
          rir: rir2!.id,
          start: i * 100,
          end: i * 100 + 99,
          tenant: tenant2!.id,
        })),
      };
    },
    tests: {
      test_list_available_asns: async (t, data) => {
        const range = await t.make('ipam.asnrange', {
          name: 'Range 1',
          slug: 'range-1',
          rir: data.rir,
          start: 101,
          end: 110,
        });
        const user = await t.user();
        await user.addPermissions('ipam.view_asnrange', 'ipam.view_asn');
        const response = await user.client.get(`${t.path()}${range.id}/available-asns/`);
        expect(response.status).toBe(200);
        expect(response.body).toHaveLength(10);
      },
      test_create_single_available_asn: async (t, data) => {
        const range = await t.make('ipam.asnrange', {
          name: 'Range 1',
          slug: 'range-1',
          rir: data.rir,
          start: 101,
          end: 110,
        });
        const user = await t.user();
        await user.addPermissions('ipam.view_asnrange', 'ipam.add_asn');
        const response = await user.client.post(`${t.path()}${range.id}/available-asns/`, { description: 'New ASN' });
        expect(response.status, response.text).toBe(201);
        expect(response.body.rir.id).toBe(data.rir);
        expect(response.body.description).toBe('New ASN');
      },
      test_create_multiple_available_asns: async (t, data) => {
        const range = await t.make('ipam.asnrange', {
          name: 'Range 1',
          slug: 'range-1',
          rir: data.rir,
          start: 101,
          end: 110,
        });
        const url = `${t.path()}${range.id}/available-asns/`;
        const user = await t.user();
        await user.addPermissions('ipam.view_asnrange', 'ipam.add_asn');
        const eleven = Array.from({ length: 11 }, (_, i) => ({ description: `New ASN ${i + 1}` }));
        const refused = await user.client.post(url, eleven);
        expect(refused.status).toBe(409);
        expect(refused.body).toHaveProperty('detail');
        const ten = await user.client.post(url, eleven.slice(0, 10));
        expect(ten.status, ten.text).toBe(201);
        expect(ten.body).toHaveLength(10);
      },
    },
  },
  {
    source: 'ipam/tests/test_api.py::FHRPGroupTestCase',
    model: 'ipam.fhrpgroup',
    briefFields: ['description', 'display', 'group_id', 'id', 'protocol', 'url'],
    bulkUpdateData: {
      protocol: 'glbp',
      group_id: 200,
      auth_type: 'md5',
      auth_key: 'foobarbaz999',
      name: 'foobar-999',
      description: 'New description',
    },
    setUp: async (t) => {
      await t.makeAll('ipam.fhrpgroup', [
        { protocol: 'vrrp2', group_id: 10, auth_type: 'plaintext', auth_key: 'foobar123' },
        { protocol: 'vrrp3', group_id: 20, auth_type: 'md5', auth_key: 'foobar123' },
        { protocol: 'hsrp', group_id: 30 },
      ]);
      return {
        createData: [
          { protocol: 'vrrp2', group_id: 110, auth_type: 'plaintext', auth_key: 'foobar123' },
          { protocol: 'vrrp3', group_id: 120, auth_type: 'md5', auth_key: 'barfoo456' },
          { protocol: 'glbp', group_id: 130 },
        ],
      };
    },
  },
  {
    source: 'ipam/tests/test_api.py::FHRPGroupAssignmentTestCase',
    model: 'ipam.fhrpgroupassignment',
    briefFields: ['display', 'group', 'id', 'interface_id', 'interface_type', 'priority', 'url'],
    bulkUpdateData: { priority: 100 },
    userPermissions: ['ipam.view_fhrpgroup'],
    setUp: async (t) => {
      const site = await t.make('dcim.site', { name: 'Site 1', slug: 'site-1' });
      const manufacturer = await t.make('dcim.manufacturer', { name: 'Manufacturer 1', slug: 'manufacturer-1' });
      const type = await t.make('dcim.devicetype', {
        manufacturer: manufacturer.id,
        model: 'Device Type 1',
        slug: 'device-type-1',
      });
      const role = await t.make('dcim.devicerole', { name: 'Device Role 1', slug: 'device-role-1' });
      const devices = await t.makeAll(
        'dcim.device',
        [1, 2, 3].map((i) => ({ name: `device${i}`, site: site.id, device_type: type.id, role: role.id })),
      );
      const interfaces = await t.makeAll(
        'dcim.interface',
        devices.flatMap((d) => [0, 1, 2].map((i) => ({ device: d.id, name: `eth${i}`, type: 'other' }))),
      );
      await t.makeAll(
        'ipam.ipaddress',
        interfaces.map((iface, i) => ({
          address: `192.168.${i % 3}.${2 + Math.floor(i / 3)}/24`,
          assigned_object_type: 'dcim.interface',
          assigned_object_id: iface.id,
        })),
      );
      const groups = await t.makeAll(
        'ipam.fhrpgroup',
        [10, 20, 30].map((group_id) => ({ protocol: 'vrrp2', group_id })),
      );
      const on = (group: number, iface: number, priority: number) => ({
        group: groups[group]!.id,
        interface_type: 'dcim.interface',
        interface_id: interfaces[iface]!.id,
        priority,
      });
      await t.makeAll('ipam.fhrpgroupassignment', [
        on(0, 0, 10),
        on(1, 1, 10),
        on(2, 2, 10),
        on(0, 3, 20),
        on(1, 4, 20),
        on(2, 5, 20),
      ]);
      return { createData: [on(0, 6, 30), on(1, 7, 30), on(2, 8, 30)] };
    },
  },
];
