import { expect } from 'vitest';
import type { NetBoxTestCase } from '../generic.js';
import type { PortedClass } from '../harness.js';

/** Ported from NetBox 4.6.8 ipam/tests/test_api.py (ASN ranges, IP ranges and FHRP groups: ipam-ranges.ts; VLAN translation is not served). */

const description = { description: 'New description' };

async function device(t: PortedClass, names: string[]): Promise<Record<string, any>[]> {
  const site = await t.make('dcim.site', { name: 'Site 1', slug: 'site-1' });
  const manufacturer = await t.make('dcim.manufacturer', { name: 'Manufacturer 1', slug: 'manufacturer-1' });
  const type = await t.make('dcim.devicetype', {
    manufacturer: manufacturer.id,
    model: 'Device Type 1',
    slug: 'device-type-1',
  });
  const role = await t.make('dcim.devicerole', { name: 'Device Role 1', slug: 'device-role-1' });
  return t.makeAll(
    'dcim.device',
    names.map((name) => ({ name, site: site.id, device_type: type.id, role: role.id, status: 'active' })),
  );
}

export const ipamCases: NetBoxTestCase[] = [
  {
    source: 'ipam/tests/test_api.py::ASNTestCase',
    model: 'ipam.asn',
    briefFields: ['asn', 'description', 'display', 'id', 'url'],
    bulkUpdateData: description,
    setUp: async (t) => {
      const [rir1, rir2] = await t.makeAll('ipam.rir', [
        { name: 'RIR 1', slug: 'rir-1', is_private: true },
        { name: 'RIR 2', slug: 'rir-2', is_private: true },
      ]);
      const [role1, role2] = await t.makeAll('ipam.role', [
        { name: 'Role 1', slug: 'role-1' },
        { name: 'Role 2', slug: 'role-2' },
      ]);
      const [site1, site2] = await t.makeAll('dcim.site', [
        { name: 'Site 1', slug: 'site-1' },
        { name: 'Site 2', slug: 'site-2' },
      ]);
      const [tenant1, tenant2] = await t.makeAll('tenancy.tenant', [
        { name: 'Tenant 1', slug: 'tenant-1' },
        { name: 'Tenant 2', slug: 'tenant-2' },
      ]);
      await t.makeAll('ipam.asn', [
        { asn: 65000, rir: rir1!.id, role: role1!.id, tenant: tenant1!.id, sites: [site1!.id] },
        { asn: 65001, rir: rir1!.id, role: role1!.id, tenant: tenant2!.id, sites: [site2!.id] },
        { asn: 4200000000, rir: rir2!.id, role: role2!.id, tenant: tenant1!.id, sites: [site1!.id] },
        { asn: 4200000001, rir: rir2!.id, role: role2!.id, tenant: tenant2!.id, sites: [site2!.id] },
      ]);
      return {
        createData: [
          { asn: 64512, rir: rir1!.id, role: role1!.id },
          { asn: 65002, rir: rir1!.id, role: role2!.id },
          { asn: 4200000002, rir: rir2!.id },
        ],
      };
    },
  },
  {
    source: 'ipam/tests/test_api.py::VRFTestCase',
    model: 'ipam.vrf',
    briefFields: ['description', 'display', 'id', 'name', 'prefix_count', 'rd', 'url'],
    bulkUpdateData: description,
    setUp: async (t) => {
      await t.makeAll('ipam.vrf', [
        { name: 'VRF 1', rd: '65000:1' },
        { name: 'VRF 2', rd: '65000:2' },
        { name: 'VRF 3' },
      ]);
      return {
        createData: [
          { name: 'VRF 4', rd: '65000:4' },
          { name: 'VRF 5', rd: '65000:5' },
          { name: 'VRF 6', rd: '65000:6' },
        ],
      };
    },
  },
  {
    source: 'ipam/tests/test_api.py::RouteTargetTestCase',
    model: 'ipam.routetarget',
    briefFields: ['description', 'display', 'id', 'name', 'url'],
    bulkUpdateData: description,
    setUp: async (t) => {
      await t.makeAll('ipam.routetarget', [{ name: '65000:1001' }, { name: '65000:1002' }, { name: '65000:1003' }]);
      return { createData: [{ name: '65000:1004' }, { name: '65000:1005' }, { name: '65000:1006' }] };
    },
  },
  {
    source: 'ipam/tests/test_api.py::RIRTestCase',
    model: 'ipam.rir',
    briefFields: ['aggregate_count', 'description', 'display', 'id', 'name', 'slug', 'url'],
    bulkUpdateData: description,
    setUp: async (t) => {
      await t.makeAll('ipam.rir', [
        { name: 'RIR 1', slug: 'rir-1' },
        { name: 'RIR 2', slug: 'rir-2' },
        { name: 'RIR 3', slug: 'rir-3' },
      ]);
      return {
        createData: [
          { name: 'RIR 4', slug: 'rir-4' },
          { name: 'RIR 5', slug: 'rir-5' },
          { name: 'RIR 6', slug: 'rir-6' },
        ],
      };
    },
  },
  {
    source: 'ipam/tests/test_api.py::AggregateTestCase',
    model: 'ipam.aggregate',
    briefFields: ['description', 'display', 'family', 'id', 'prefix', 'url'],
    bulkUpdateData: description,
    setUp: async (t) => {
      const [rir1, rir2] = await t.makeAll('ipam.rir', [
        { name: 'RIR 1', slug: 'rir-1' },
        { name: 'RIR 2', slug: 'rir-2' },
      ]);
      await t.makeAll('ipam.aggregate', [
        { prefix: '10.0.0.0/8', rir: rir1!.id },
        { prefix: '172.16.0.0/12', rir: rir1!.id },
        { prefix: '192.168.0.0/16', rir: rir1!.id },
      ]);
      return {
        createData: [
          { prefix: '100.0.0.0/8', rir: rir2!.id },
          { prefix: '101.0.0.0/8', rir: rir2!.id },
          { prefix: '102.0.0.0/8', rir: rir2!.id },
        ],
      };
    },
    leftOut: {
      test_graphql_aggregate_prefix_exact: 'GraphQL is not served (by design).',
      test_graphql_aggregate_contains_skips_invalid: 'GraphQL is not served (by design).',
    },
  },
  {
    source: 'ipam/tests/test_api.py::RoleTestCase',
    model: 'ipam.role',
    briefFields: ['asn_count', 'description', 'display', 'id', 'name', 'prefix_count', 'slug', 'url', 'vlan_count'],
    bulkUpdateData: description,
    setUp: async (t) => {
      const [role1] = await t.makeAll('ipam.role', [
        { name: 'Role 1', slug: 'role-1' },
        { name: 'Role 2', slug: 'role-2' },
        { name: 'Role 3', slug: 'role-3' },
      ]);
      const rir = await t.make('ipam.rir', { name: 'RIR 1', slug: 'rir-1', is_private: true });
      await t.makeAll('ipam.asn', [
        { asn: 65000, rir: rir.id, role: role1!.id },
        { asn: 65001, rir: rir.id, role: role1!.id },
      ]);
      return {
        createData: [
          { name: 'Role 4', slug: 'role-4' },
          { name: 'Role 5', slug: 'role-5' },
          { name: 'Role 6', slug: 'role-6' },
        ],
      };
    },
  },
  {
    source: 'ipam/tests/test_api.py::PrefixTestCase',
    model: 'ipam.prefix',
    briefFields: ['_depth', 'description', 'display', 'family', 'id', 'prefix', 'url'],
    bulkUpdateData: description,
    setUp: async (t) => {
      await t.makeAll('ipam.prefix', [
        { prefix: '192.168.1.0/24' },
        { prefix: '192.168.2.0/24' },
        { prefix: '192.168.3.0/24' },
      ]);
      return { createData: [{ prefix: '192.168.4.0/24' }, { prefix: '192.168.5.0/24' }, { prefix: '192.168.6.0/24' }] };
    },
    tests: {
      test_create_with_invalid_prefix: async (t) => {
        const user = await t.user();
        await user.addPermissions('ipam.add_prefix');
        const response = await user.client.post(t.path(), { prefix: 'invalid' });
        expect(response.status).toBe(400);
        expect(response.body.prefix[0]).toBe('Invalid IP prefix format: invalid');
      },
      test_clean_validates_scope: async (t) => {
        const [prefix] = await t.queryset();
        const site = await t.make('dcim.site', { name: 'Test Site', slug: 'test-site' });
        const user = await t.user();
        await user.addPermissions('ipam.change_prefix');
        const response = await user.client.patch(`${t.path()}${prefix!.id}/`, {
          scope_type: 'dcim.site',
          scope_id: site.id,
        });
        expect(response.status, response.text).toBe(200);
      },
      test_list_available_prefixes: async (t) => {
        const vrf = await t.make('ipam.vrf', { name: 'VRF 1' });
        const prefix = await t.make('ipam.prefix', { prefix: '192.0.2.0/24', vrf: vrf.id });
        await t.make('ipam.prefix', { prefix: '192.0.2.64/26', vrf: vrf.id });
        await t.make('ipam.prefix', { prefix: '192.0.2.192/27', vrf: vrf.id });
        const user = await t.user();
        await user.addPermissions('ipam.view_prefix');
        const response = await user.client.get(`${t.path()}${prefix.id}/available-prefixes/`);
        expect(response.body.map((p: any) => p.prefix)).toEqual(['192.0.2.0/26', '192.0.2.128/26', '192.0.2.224/27']);
      },
      test_create_single_available_prefix: async (t) => {
        const vrf = await t.make('ipam.vrf', { name: 'VRF 1' });
        const prefix = await t.make('ipam.prefix', { prefix: '192.0.2.0/28', vrf: vrf.id, is_pool: true });
        const url = `${t.path()}${prefix.id}/available-prefixes/`;
        const user = await t.user();
        await user.addPermissions('ipam.view_prefix', 'ipam.add_prefix');
        const expected = ['192.0.2.0/30', '192.0.2.4/30', '192.0.2.8/30', '192.0.2.12/30'];
        for (const [i, wanted] of expected.entries()) {
          const data = { prefix_length: 30, description: `Test Prefix ${i + 1}` };
          const response = await user.client.post(url, data);
          expect(response.status, response.text).toBe(201);
          expect(response.body.prefix).toBe(wanted);
          expect(response.body.vrf.id).toBe(vrf.id);
          expect(response.body.description).toBe(data.description);
        }
        const full = await user.client.post(url, { prefix_length: 30 });
        expect(full.status).toBe(409);
        expect(full.body).toHaveProperty('detail');
        const invalid = await user.client.post(url, { prefix_length: '30' });
        expect(invalid.status).toBe(400);
        expect(invalid.body[0]).toHaveProperty('prefix_length');
      },
      test_create_multiple_available_prefixes: async (t) => {
        const vrf = await t.make('ipam.vrf', { name: 'VRF 1' });
        const prefix = await t.make('ipam.prefix', { prefix: '192.0.2.0/28', vrf: vrf.id, is_pool: true });
        const url = `${t.path()}${prefix.id}/available-prefixes/`;
        const user = await t.user();
        await user.addPermissions('ipam.view_prefix', 'ipam.add_prefix');
        const data = [1, 2, 3, 4, 5].map((i) => ({ prefix_length: 30, description: `Prefix ${i}` }));
        const refused = await user.client.post(url, data);
        expect(refused.status).toBe(409);
        expect(refused.body).toHaveProperty('detail');
        const still = await user.client.get(url);
        expect(still.status).toBe(200);
        expect(still.body[0].prefix).toBe('192.0.2.0/28');
        const created = await user.client.post(url, data.slice(0, 4));
        expect(created.status, created.text).toBe(201);
        expect(created.body).toHaveLength(4);
      },
      test_list_available_ips: async (t) => {
        const vrf = await t.make('ipam.vrf', { name: 'VRF 1' });
        const prefix = await t.make('ipam.prefix', { prefix: '192.0.2.0/29', vrf: vrf.id, is_pool: true });
        const url = `${t.path()}${prefix.id}/available-ips/`;
        const user = await t.user();
        await user.addPermissions('ipam.view_prefix', 'ipam.view_ipaddress');
        const pool = await user.client.get(url);
        expect(pool.status).toBe(200);
        expect(pool.body).toHaveLength(8);
        await t.admin.patch(`${t.path()}${prefix.id}/`, { is_pool: false });
        expect((await user.client.get(url)).body).toHaveLength(6);
      },
      test_create_single_available_ip: async (t) => {
        const vrf = await t.make('ipam.vrf', { name: 'VRF 1' });
        const prefix = await t.make('ipam.prefix', { prefix: '192.0.2.0/30', vrf: vrf.id, is_pool: true });
        const url = `${t.path()}${prefix.id}/available-ips/`;
        const user = await t.user();
        await user.addPermissions('ipam.view_prefix', 'ipam.add_ipaddress');
        for (let i = 1; i < 5; i += 1) {
          const response = await user.client.post(url, { description: `Test IP ${i}` });
          expect(response.status, response.text).toBe(201);
          expect(response.body.vrf.id).toBe(vrf.id);
          expect(response.body.description).toBe(`Test IP ${i}`);
        }
        const full = await user.client.post(url, {});
        expect(full.status).toBe(409);
        expect(full.body).toHaveProperty('detail');
      },
      test_create_multiple_available_ips: async (t) => {
        const vrf = await t.make('ipam.vrf', { name: 'VRF 1' });
        const prefix = await t.make('ipam.prefix', { prefix: '192.0.2.0/29', vrf: vrf.id, is_pool: true });
        const url = `${t.path()}${prefix.id}/available-ips/`;
        const user = await t.user();
        await user.addPermissions('ipam.view_prefix', 'ipam.add_ipaddress');
        const nine = Array.from({ length: 9 }, (_, i) => ({ description: `Test IP ${i + 1}` }));
        const refused = await user.client.post(url, nine);
        expect(refused.status).toBe(409);
        expect(refused.body).toHaveProperty('detail');
        const eight = await user.client.post(url, nine.slice(0, 8));
        expect(eight.status, eight.text).toBe(201);
        expect(eight.body).toHaveLength(8);
      },
      test_create_available_ip_with_mask: async (t) => {
        const prefix = await t.make('ipam.prefix', { prefix: '192.0.2.0/24' });
        const url = `${t.path()}${prefix.id}/available-ips/`;
        const user = await t.user();
        await user.addPermissions('ipam.view_prefix', 'ipam.add_ipaddress');
        const created = await user.client.post(url, { prefix_length: 32, description: 'Test IP 1' });
        expect(created.status, created.text).toBe(201);
        expect(created.body.address).toBe('192.0.2.1/32');
        expect(created.body.description).toBe('Test IP 1');
        expect((await user.client.post(url, { prefix_length: 23 })).status).toBe(400);
      },
    },
    leftOut: { test_graphql_tenant_prefixes_contains_nested_skips_invalid: 'GraphQL is not served (by design).' },
  },
  {
    source: 'ipam/tests/test_api.py::IPAddressTestCase',
    model: 'ipam.ipaddress',
    briefFields: ['address', 'description', 'display', 'family', 'id', 'url'],
    bulkUpdateData: description,
    setUp: async (t) => {
      await t.makeAll('ipam.ipaddress', [
        { address: '192.168.0.1/24' },
        { address: '192.168.0.2/24' },
        { address: '192.168.0.3/24' },
      ]);
      return {
        createData: [{ address: '192.168.0.4/24' }, { address: '192.168.0.5/24' }, { address: '192.168.0.6/24' }],
      };
    },
    tests: {
      test_create_with_invalid_address: async (t) => {
        const user = await t.user();
        await user.addPermissions('ipam.add_ipaddress');
        const response = await user.client.post(t.path(), { address: 'invalid' });
        expect(response.status).toBe(400);
        expect(response.body.address[0]).toBe('Invalid IP address format: invalid');
      },
      test_assign_object: async (t) => {
        const [device1, device2] = await device(t, ['Device 1', 'Device 2']);
        const [interface1, interface2] = await t.makeAll('dcim.interface', [
          { name: 'Interface 1', device: device1!.id, type: '1000base-t' },
          { name: 'Interface 2', device: device1!.id, type: '1000base-t' },
        ]);
        const interface3 = await t.make('dcim.interface', {
          name: 'Interface 3',
          device: device2!.id,
          type: '1000base-t',
        });
        const ip1 = await t.make('ipam.ipaddress', {
          address: '192.168.0.4/24',
          assigned_object_type: 'dcim.interface',
          assigned_object_id: interface1!.id,
        });
        await t.make('ipam.ipaddress', { address: '192.168.1.4/24' });
        expect((await t.admin.patch(`/api/dcim/devices/${device1!.id}/`, { primary_ip4: ip1.id })).status).toBe(200);
        const user = await t.user();
        await user.addPermissions('ipam.change_ipaddress');
        const url = `${t.path()}${ip1.id}/`;
        expect((await user.client.patch(url, { assigned_object_id: interface2!.id })).status).toBe(200);
        expect((await user.client.patch(url, { assigned_object_id: interface3.id })).status).toBe(400);
      },
    },
    leftOut: {
      test_graphql_device_primary_ip4_assigned_nested: 'GraphQL is not served (by design).',
      test_graphql_device_primary_ip4_parent_nested_skips_invalid: 'GraphQL is not served (by design).',
    },
  },
  {
    source: 'ipam/tests/test_api.py::VLANGroupTestCase',
    model: 'ipam.vlangroup',
    briefFields: ['description', 'display', 'id', 'name', 'slug', 'url', 'vlan_count'],
    bulkUpdateData: description,
    setUp: async (t) => {
      await t.makeAll('ipam.vlangroup', [
        { name: 'VLAN Group 1', slug: 'vlan-group-1' },
        { name: 'VLAN Group 2', slug: 'vlan-group-2' },
        { name: 'VLAN Group 3', slug: 'vlan-group-3' },
      ]);
      return {
        createData: [4, 5, 6].map((i) => ({
          name: `VLAN Group ${i}`,
          slug: `vlan-group-${i}`,
          vid_ranges: [[1, 4094]],
        })),
      };
    },
    tests: {
      test_list_available_vlans: async (t) => {
        const user = await t.user();
        await user.addPermissions('ipam.view_vlangroup', 'ipam.view_vlan');
        // NetBox adds VLANs 10, 20 and 30 outside the group's range through the ORM; the API refuses such
        // VLANs, so they are added while the range still covers them.
        const group = await t.make('ipam.vlangroup', {
          name: 'VLAN Group X',
          slug: 'vlan-group-x',
          vid_ranges: [[10, 199]],
        });
        await t.makeAll(
          'ipam.vlan',
          [10, 20, 30].map((vid) => ({ vid, name: `VLAN ${vid}`, group: group.id })),
        );
        expect((await t.admin.patch(`${t.path()}${group.id}/`, { vid_ranges: [[100, 199]] })).status).toBe(200);
        const url = `${t.path()}${group.id}/available-vlans/`;
        const all = await user.client.get(`${url}?limit=0`);
        expect(all.body).toHaveLength(100);
        const vids = new Set(all.body.map((v: any) => v.vid));
        for (const vid of [10, 20, 30]) expect(vids.has(vid)).toBe(false);
        expect((await user.client.get(`${url}?limit=10`)).body).toHaveLength(10);
      },
      test_create_single_available_vlan: async (t) => {
        const user = await t.user();
        await user.addPermissions('ipam.view_vlangroup', 'ipam.view_vlan', 'ipam.add_vlan');
        const [group] = await t.queryset();
        await t.make('ipam.vlan', { vid: 1, name: 'VLAN 1', group: group!.id });
        const response = await user.client.post(`${t.path()}${group!.id}/available-vlans/`, { name: 'First VLAN' });
        expect(response.status, response.text).toBe(201);
        expect(response.body.name).toBe('First VLAN');
        expect(response.body.group.id).toBe(group!.id);
        expect(response.body.vid).toBe(2);
      },
      test_create_multiple_available_vlans: async (t) => {
        const user = await t.user();
        await user.addPermissions('ipam.view_vlangroup', 'ipam.view_vlan', 'ipam.add_vlan');
        const [group] = await t.queryset();
        await t.makeAll(
          'ipam.vlan',
          [1, 3, 5].map((vid) => ({ vid, name: `VLAN ${vid}`, group: group!.id })),
        );
        const data = [{ name: 'First VLAN' }, { name: 'Second VLAN' }, { name: 'Third VLAN' }];
        const response = await user.client.post(`${t.path()}${group!.id}/available-vlans/`, data);
        expect(response.status, response.text).toBe(201);
        expect(response.body.map((v: any) => [v.name, v.group.id, v.vid])).toEqual([
          ['First VLAN', group!.id, 2],
          ['Second VLAN', group!.id, 4],
          ['Third VLAN', group!.id, 6],
        ]);
      },
    },
  },
  {
    source: 'ipam/tests/test_api.py::VLANTestCase',
    model: 'ipam.vlan',
    briefFields: ['description', 'display', 'id', 'name', 'url', 'vid'],
    bulkUpdateData: description,
    setUp: async (t) => {
      const [group1, group2] = await t.makeAll('ipam.vlangroup', [
        { name: 'VLAN Group 1', slug: 'vlan-group-1' },
        { name: 'VLAN Group 2', slug: 'vlan-group-2' },
      ]);
      const vlans = await t.makeAll('ipam.vlan', [
        { name: 'VLAN 1', vid: 1, group: group1!.id },
        { name: 'VLAN 2', vid: 2, group: group1!.id },
        { name: 'VLAN 3', vid: 3, group: group1!.id },
        { name: 'SVLAN 1', vid: 1001, qinq_role: 'svlan' },
      ]);
      return {
        createData: [
          { vid: 4, name: 'VLAN 4', group: group2!.id },
          { vid: 5, name: 'VLAN 5', group: group2!.id },
          { vid: 6, name: 'VLAN 6', group: group2!.id },
          { vid: 2001, name: 'CVLAN 1', qinq_role: 'cvlan', qinq_svlan: vlans[3]!.id },
        ],
      };
    },
    tests: {
      test_delete_vlan_with_prefix: async (t) => {
        const [vlan] = await t.queryset();
        await t.make('ipam.prefix', { prefix: '192.0.2.0/24', vlan: vlan!.id });
        const user = await t.user();
        await user.addPermissions('ipam.delete_vlan');
        const response = await user.client.delete(`${t.path()}${vlan!.id}/`);
        expect(response.status).toBe(409);
        expect(response.body.detail.startsWith('Unable to delete object.')).toBe(true);
      },
    },
  },
  {
    source: 'ipam/tests/test_api.py::ServiceTemplateTestCase',
    model: 'ipam.servicetemplate',
    briefFields: ['description', 'display', 'id', 'name', 'ports', 'protocol', 'url'],
    bulkUpdateData: description,
    setUp: async (t) => {
      await t.makeAll('ipam.servicetemplate', [
        { name: 'Service Template 1', protocol: 'tcp', ports: [1, 2] },
        { name: 'Service Template 2', protocol: 'tcp', ports: [3, 4] },
        { name: 'Service Template 3', protocol: 'tcp', ports: [5, 6] },
      ]);
      return {
        createData: [
          { name: 'Service Template 4', protocol: 'tcp', ports: [7, 8] },
          { name: 'Service Template 5', protocol: 'tcp', ports: [9, 10] },
          { name: 'Service Template 6', protocol: 'tcp', ports: [11, 12] },
        ],
      };
    },
  },
  {
    source: 'ipam/tests/test_api.py::ServiceTestCase',
    model: 'ipam.service',
    briefFields: ['description', 'display', 'id', 'name', 'ports', 'protocol', 'url'],
    bulkUpdateData: description,
    setUp: async (t) => {
      const [device1, device2] = await device(t, ['Device 1', 'Device 2']);
      await t.makeAll(
        'ipam.service',
        [1, 2, 3].map((i) => ({
          parent_object_type: 'dcim.device',
          parent_object_id: device1!.id,
          name: `Service ${i}`,
          protocol: 'tcp',
          ports: [i],
        })),
      );
      return {
        createData: [4, 5, 6].map((i) => ({
          parent_object_id: device2!.id,
          parent_object_type: 'dcim.device',
          name: `Service ${i}`,
          protocol: 'tcp',
          ports: [i],
        })),
      };
    },
  },
  {
    source: 'ipam/tests/test_api.py::VLANTranslationPolicyTestCase',
    model: 'ipam.vlantranslationpolicy',
    briefFields: ['description', 'display', 'id', 'name', 'url'],
    bulkUpdateData: { description: 'New description' },
    setUp: async (t) => {
      const policy = (i: number): Record<string, unknown> => ({ name: `Policy ${i}`, description: `foobar${i}` });
      await t.makeAll('ipam.vlantranslationpolicy', [1, 2, 3].map(policy));
      return { createData: [4, 5, 6].map(policy) };
    },
  },
  {
    source: 'ipam/tests/test_api.py::VLANTranslationRuleTestCase',
    model: 'ipam.vlantranslationrule',
    briefFields: ['description', 'display', 'id', 'local_vid', 'policy', 'remote_vid', 'url'],
    setUp: async (t) => {
      const policies = await t.makeAll('ipam.vlantranslationpolicy', [
        { name: 'Policy 1', description: 'foobar1' },
        { name: 'Policy 2', description: 'foobar2' },
        { name: 'Policy 3', description: 'foobar2' },
      ]);
      await t.makeAll('ipam.vlantranslationrule', [
        { policy: policies[0]!.id, local_vid: 100, remote_vid: 200, description: 'foo' },
        { policy: policies[0]!.id, local_vid: 101, remote_vid: 201, description: 'bar' },
        { policy: policies[1]!.id, local_vid: 102, remote_vid: 202, description: 'baz' },
      ]);
      return {
        createData: [
          { policy: policies[0]!.id, local_vid: 300, remote_vid: 400 },
          { policy: policies[0]!.id, local_vid: 301, remote_vid: 401 },
          { policy: policies[1]!.id, local_vid: 302, remote_vid: 402 },
        ],
        bulkUpdateData: { policy: policies[2]!.id, description: 'New description' },
      };
    },
  },
];
