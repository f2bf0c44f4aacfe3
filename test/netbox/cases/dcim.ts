import { expect } from 'vitest';
import type { NetBoxTestCase } from '../generic.js';
import { renderConfigTests } from './render-config.js';
import type { PortedClass } from '../harness.js';
import { traceTest } from './cable-traces.js';

/**
 * Ported from NetBox 4.6.8 dcim/tests/test_api.py, for the served models. Rack groups, virtual device
 * contexts, cables and config templates are not served: data that names them is left out where noted.
 */

const description = { description: 'New description' };

type Json = Record<string, any>;

/** The same tag-editing tests as NetBox's SiteTestCase (test_add_tags and friends). */
async function tagged(t: PortedClass, names: string[], assigned: string[]): Promise<{ site: Json; url: string }> {
  const tags = await t.makeAll(
    'extras.tag',
    names.map((name) => ({ name, slug: name.toLowerCase() })),
  );
  const [site] = await t.queryset();
  const ids = tags.filter((tag) => assigned.includes(tag.name)).map((tag) => tag.id);
  expect((await t.admin.patch(`${t.path()}${site!.id}/`, { tags: ids })).status).toBe(200);
  return { site: site!, url: `${t.path()}${site!.id}/` };
}

async function tagNames(t: PortedClass, site: Json): Promise<string[]> {
  return ((await t.get(site.id))!.tags as Json[]).map((tag) => tag.name).sort();
}

export const dcimCases: NetBoxTestCase[] = [
  {
    source: 'dcim/tests/test_api.py::RegionTestCase',
    model: 'dcim.region',
    briefFields: ['_depth', 'description', 'display', 'id', 'name', 'site_count', 'slug', 'url'],
    bulkUpdateData: { description: 'New description', comments: 'New comments' },
    setUp: async (t) => {
      await t.make('dcim.region', { name: 'Region 1', slug: 'region-1' });
      await t.make('dcim.region', { name: 'Region 2', slug: 'region-2', comments: 'what in the world is happening?' });
      await t.make('dcim.region', { name: 'Region 3', slug: 'region-3' });
      return {
        createData: [
          { name: 'Region 4', slug: 'region-4', comments: 'this is region 4, not region 5' },
          { name: 'Region 5', slug: 'region-5' },
          { name: 'Region 6', slug: 'region-6' },
        ],
      };
    },
  },
  {
    source: 'dcim/tests/test_api.py::SiteGroupTestCase',
    model: 'dcim.sitegroup',
    briefFields: ['_depth', 'description', 'display', 'id', 'name', 'site_count', 'slug', 'url'],
    bulkUpdateData: { description: 'New description', comments: 'I do exist!' },
    setUp: async (t) => {
      await t.make('dcim.sitegroup', { name: 'Site Group 1', slug: 'site-group-1' });
      await t.make('dcim.sitegroup', { name: 'Site Group 2', slug: 'site-group-2', comments: '' });
      await t.make('dcim.sitegroup', { name: 'Site Group 3', slug: 'site-group-3', comments: 'Hi!' });
      return {
        createData: [
          { name: 'Site Group 4', slug: 'site-group-4', comments: '' },
          { name: 'Site Group 5', slug: 'site-group-5', comments: 'not actually empty' },
          { name: 'Site Group 6', slug: 'site-group-6', comments: 'Do I really exist?' },
        ],
      };
    },
  },
  {
    source: 'dcim/tests/test_api.py::SiteTestCase',
    model: 'dcim.site',
    briefFields: ['description', 'display', 'id', 'name', 'slug', 'url'],
    bulkUpdateData: { status: 'planned' },
    setUp: async (t) => {
      const [region1, region2] = [
        await t.make('dcim.region', { name: 'Region 1', slug: 'region-1' }),
        await t.make('dcim.region', { name: 'Region 2', slug: 'region-2' }),
      ];
      const [group1, group2] = [
        await t.make('dcim.sitegroup', { name: 'Site Group 1', slug: 'site-group-1' }),
        await t.make('dcim.sitegroup', { name: 'Site Group 2', slug: 'site-group-2' }),
      ];
      const tenant = await t.make('tenancy.tenant', { name: 'Tenant 1', slug: 'tenant-1' });
      const [site1] = await t.makeAll('dcim.site', [
        { region: region1.id, group: group1.id, tenant: tenant.id, name: 'Site 1', slug: 'site-1' },
        { region: region1.id, group: group1.id, name: 'Site 2', slug: 'site-2' },
        { region: region1.id, group: group1.id, name: 'Site 3', slug: 'site-3' },
      ]);
      await t.makeAll('dcim.location', [
        { site: site1!.id, name: 'Site1 Active A', slug: 'site1-active-a', status: 'active' },
        { site: site1!.id, name: 'Site1 Active B', slug: 'site1-active-b', status: 'active' },
        { site: site1!.id, name: 'Site1 Planned', slug: 'site1-planned', status: 'planned' },
      ]);
      const rir = await t.make('ipam.rir', { name: 'RFC 6996', slug: 'rfc-6996', is_private: true });
      const asns = await t.makeAll(
        'ipam.asn',
        Array.from({ length: 8 }, (_, i) => ({ asn: 65000 + i, rir: rir.id })),
      );
      const base = { region: region2.id, group: group2.id, status: 'active' };
      return {
        createData: [
          { name: 'Site 4', slug: 'site-4', ...base, asns: [asns[0]!.id, asns[1]!.id], tenant: tenant.id },
          { name: 'Site 5', slug: 'site-5', ...base, asns: [asns[2]!.id, asns[3]!.id] },
          { name: 'Site 6', slug: 'site-6', ...base, asns: [asns[4]!.id, asns[5]!.id] },
        ],
      };
    },
    tests: {
      test_add_tags: async (t) => {
        const { site, url } = await tagged(t, ['Alpha', 'Bravo', 'Charlie'], ['Alpha', 'Bravo']);
        const user = await t.user();
        await user.grant(['change']);
        const response = await user.client.patch(url, { add_tags: [{ name: 'Charlie' }] });
        expect(response.status, response.text).toBe(200);
        expect(await tagNames(t, site)).toEqual(['Alpha', 'Bravo', 'Charlie']);
        expect(response.body).not.toHaveProperty('add_tags');
        expect(response.body).not.toHaveProperty('remove_tags');
        expect(response.body).toHaveProperty('tags');
      },
      test_remove_tags: async (t) => {
        const { site, url } = await tagged(t, ['Alpha', 'Bravo', 'Charlie'], ['Alpha', 'Bravo', 'Charlie']);
        const user = await t.user();
        await user.grant(['change']);
        expect((await user.client.patch(url, { remove_tags: [{ name: 'Charlie' }] })).status).toBe(200);
        expect(await tagNames(t, site)).toEqual(['Alpha', 'Bravo']);
      },
      test_remove_tags_not_assigned: async (t) => {
        const { site, url } = await tagged(t, ['Alpha', 'Bravo', 'Charlie'], ['Alpha', 'Bravo']);
        const user = await t.user();
        await user.grant(['change']);
        expect((await user.client.patch(url, { remove_tags: [{ name: 'Charlie' }] })).status).toBe(200);
        expect(await tagNames(t, site)).toEqual(['Alpha', 'Bravo']);
      },
      test_add_and_remove_tags: async (t) => {
        const { site, url } = await tagged(t, ['Alpha', 'Bravo', 'Charlie'], ['Alpha', 'Bravo']);
        const user = await t.user();
        await user.grant(['change']);
        const body = { add_tags: [{ name: 'Charlie' }], remove_tags: [{ name: 'Alpha' }] };
        expect((await user.client.patch(url, body)).status).toBe(200);
        expect(await tagNames(t, site)).toEqual(['Bravo', 'Charlie']);
      },
      test_tags_with_add_tags_error: async (t) => {
        const { url } = await tagged(t, ['Alpha', 'Bravo'], []);
        const user = await t.user();
        await user.grant(['change']);
        const body = { tags: [{ name: 'Alpha' }], add_tags: [{ name: 'Bravo' }] };
        expect((await user.client.patch(url, body)).status).toBe(400);
      },
      test_create_with_add_tags: async (t) => {
        await t.makeAll('extras.tag', [
          { name: 'Alpha', slug: 'alpha' },
          { name: 'Bravo', slug: 'bravo' },
        ]);
        const user = await t.user();
        await user.grant(['add']);
        const body = { name: 'Site 10', slug: 'site-10', add_tags: [{ name: 'Alpha' }, { name: 'Bravo' }] };
        const response = await user.client.post(t.path(), body);
        expect(response.status, response.text).toBe(201);
        expect(await tagNames(t, response.body)).toEqual(['Alpha', 'Bravo']);
      },
      test_create_with_remove_tags_error: async (t) => {
        await t.make('extras.tag', { name: 'Alpha', slug: 'alpha' });
        const user = await t.user();
        await user.grant(['add']);
        const body = { name: 'Site 10', slug: 'site-10', remove_tags: [{ name: 'Alpha' }] };
        expect((await user.client.post(t.path(), body)).status).toBe(400);
      },
      test_add_and_remove_same_tag_error: async (t) => {
        const { url } = await tagged(t, ['Alpha', 'Bravo'], []);
        const user = await t.user();
        await user.grant(['change']);
        const body = { add_tags: [{ name: 'Alpha' }, { name: 'Bravo' }], remove_tags: [{ name: 'Alpha' }] };
        expect((await user.client.patch(url, body)).status).toBe(400);
      },
    },
  },
  {
    source: 'dcim/tests/test_api.py::LocationTestCase',
    model: 'dcim.location',
    briefFields: ['_depth', 'description', 'display', 'id', 'name', 'rack_count', 'slug', 'url'],
    bulkUpdateData: description,
    userPermissions: ['dcim.view_site'],
    setUp: async (t) => {
      const [site1, site2] = await t.makeAll('dcim.site', [
        { name: 'Site 1', slug: 'site-1' },
        { name: 'Site 2', slug: 'site-2' },
      ]);
      const parent1 = await t.make('dcim.location', {
        site: site1!.id,
        name: 'Parent Location 1',
        slug: 'parent-location-1',
        status: 'active',
        comments: 'First!',
      });
      const parent2 = await t.make('dcim.location', {
        site: site2!.id,
        name: 'Parent Location 2',
        slug: 'parent-location-2',
        status: 'active',
        comments: 'Second!',
      });
      for (const [name, slug, status, comments] of [
        ['Location 1', 'location-1', 'active', 'Third!'],
        ['Location 2', 'location-2', 'active', ''],
        ['Location 3', 'location-3', 'active', ''],
        ['GraphQL Planned Location', 'graphql-planned-location', 'planned', ''],
        ['GraphQL Staging Location', 'graphql-staging-location', 'staging', ''],
      ] as const) {
        await t.make('dcim.location', { site: site1!.id, name, slug, parent: parent1.id, status, comments });
      }
      return {
        createData: [
          {
            name: 'Test Location 4',
            slug: 'test-location-4',
            site: site2!.id,
            parent: parent2.id,
            status: 'planned',
            comments: '',
          },
          {
            name: 'Test Location 5',
            slug: 'test-location-5',
            site: site2!.id,
            parent: parent2.id,
            status: 'planned',
            comments: 'Somebody should check on this location',
          },
          { name: 'Test Location 6', slug: 'test-location-6', site: site2!.id, status: 'planned' },
        ],
      };
    },
  },
  {
    source: 'dcim/tests/test_api.py::RackRoleTestCase',
    model: 'dcim.rackrole',
    briefFields: ['description', 'display', 'id', 'name', 'rack_count', 'slug', 'url'],
    bulkUpdateData: description,
    setUp: async (t) => {
      await t.makeAll('dcim.rackrole', [
        { name: 'Rack Role 1', slug: 'rack-role-1', color: 'ff0000' },
        { name: 'Rack Role 2', slug: 'rack-role-2', color: '00ff00' },
        { name: 'Rack Role 3', slug: 'rack-role-3', color: '0000ff' },
      ]);
      return {
        createData: [4, 5, 6].map((i) => ({ name: `Rack Role ${i}`, slug: `rack-role-${i}`, color: 'ffff00' })),
      };
    },
  },
  {
    source: 'dcim/tests/test_api.py::RackTestCase',
    model: 'dcim.rack',
    briefFields: ['description', 'device_count', 'display', 'id', 'name', 'url'],
    bulkUpdateData: { status: 'planned' },
    userPermissions: ['dcim.view_site'],
    setUp: async (t) => {
      const [site1, site2] = await t.makeAll('dcim.site', [
        { name: 'Site 1', slug: 'site-1' },
        { name: 'Site 2', slug: 'site-2' },
      ]);
      const location1 = await t.make('dcim.location', { site: site1!.id, name: 'Location 1', slug: 'location-1' });
      const location2 = await t.make('dcim.location', { site: site2!.id, name: 'Location 2', slug: 'location-2' });
      const [group1, group2] = await t.makeAll('dcim.rackgroup', [
        { name: 'Rack Group 1', slug: 'rack-group-1' },
        { name: 'Rack Group 2', slug: 'rack-group-2' },
      ]);
      const [role1, role2] = await t.makeAll('dcim.rackrole', [
        { name: 'Rack Role 1', slug: 'rack-role-1', color: 'ff0000' },
        { name: 'Rack Role 2', slug: 'rack-role-2', color: '00ff00' },
      ]);
      await t.makeAll(
        'dcim.rack',
        [1, 2, 3].map((i) => ({
          site: site1!.id,
          location: location1.id,
          group: group1!.id,
          role: role1!.id,
          name: `Rack ${i}`,
        })),
      );
      return {
        createData: [4, 5, 6].map((i) => ({
          name: `Test Rack ${i}`,
          site: site2!.id,
          location: location2.id,
          group: group2!.id,
          role: role2!.id,
        })),
      };
    },
    tests: {
      test_get_rack_elevation: async (t) => {
        const [rack] = await t.queryset();
        const user = await t.user(['dcim.view_site']);
        await user.addPermissions('dcim.view_rack');
        const url = `${t.path()}${rack!.id}/elevation/`;
        expect((await user.client.get(url)).body.count).toBe(84);
        expect((await user.client.get(`${url}?q=3`)).body.count).toBe(26);
        expect((await user.client.get(`${url}?q=U3`)).body.count).toBe(22);
        expect((await user.client.get(`${url}?q=U10`)).body.count).toBe(2);
      },
      test_get_rack_elevation_description_is_occupying_device_name: async (t) => {
        const [first] = await t.queryset();
        const rack = (await t.get(first!.id))!;
        const user = await t.user(['dcim.view_site']);
        await user.addPermissions('dcim.view_rack', 'dcim.view_device');
        const manufacturer = await t.make('dcim.manufacturer', { name: 'Manufacturer 1', slug: 'manufacturer-1' });
        const type = await t.make('dcim.devicetype', {
          manufacturer: manufacturer.id,
          model: 'Model 1',
          slug: 'model-1',
        });
        const role = await t.make('dcim.devicerole', { name: 'Role 1', slug: 'role-1' });
        const device = await t.make('dcim.device', {
          name: 'Device A',
          site: rack.site.id,
          rack: rack.id,
          position: 40,
          face: 'front',
          device_type: type.id,
          role: role.id,
        });
        const response = await user.client.get(`${t.path()}${rack.id}/elevation/`);
        expect(response.status).toBe(200);
        const units = response.body.results as Json[];
        const occupied = units.find((u) => u.name === 'U40')!;
        expect(occupied.device.id).toBe(device.id);
        expect(occupied.description).toBe('Device A');
        const free = units.find((u) => u.name === 'U39')!;
        expect(free.device).toBeNull();
        expect(free.description).toBeNull();
      },
      test_get_rack_elevation_svg: async (t) => {
        const [rack] = await t.queryset();
        const user = await t.user(['dcim.view_site']);
        await user.addPermissions('dcim.view_rack');
        const response = await user.client.get(`${t.path()}${rack!.id}/elevation/?render=svg`);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('image/svg+xml');
      },
    },
  },
  {
    source: 'dcim/tests/test_api.py::ManufacturerTestCase',
    model: 'dcim.manufacturer',
    briefFields: ['description', 'display', 'id', 'name', 'slug', 'url'],
    bulkUpdateData: description,
    setUp: async (t) => {
      await t.makeAll(
        'dcim.manufacturer',
        [1, 2, 3].map((i) => ({ name: `Manufacturer ${i}`, slug: `manufacturer-${i}` })),
      );
      return { createData: [4, 5, 6].map((i) => ({ name: `Manufacturer ${i}`, slug: `manufacturer-${i}` })) };
    },
  },
  {
    source: 'dcim/tests/test_api.py::DeviceTypeTestCase',
    model: 'dcim.devicetype',
    briefFields: ['description', 'device_count', 'display', 'id', 'manufacturer', 'model', 'slug', 'url'],
    bulkUpdateData: { part_number: 'ABC123' },
    userPermissions: ['dcim.view_manufacturer'],
    setUp: async (t) => {
      const [m1, m2] = await t.makeAll('dcim.manufacturer', [
        { name: 'Manufacturer 1', slug: 'manufacturer-1' },
        { name: 'Manufacturer 2', slug: 'manufacturer-2' },
      ]);
      await t.makeAll(
        'dcim.devicetype',
        [1, 2, 3].map((i) => ({ manufacturer: m1!.id, model: `Device Type ${i}`, slug: `device-type-${i}` })),
      );
      return {
        createData: [
          { manufacturer: m2!.id, model: 'Device Type 4', slug: 'device-type-4', u_height: 0 },
          { manufacturer: m2!.id, model: 'Device Type 5', slug: 'device-type-5', u_height: 0.5 },
          { manufacturer: m2!.id, model: 'Device Type 6', slug: 'device-type-6', u_height: 1 },
        ],
      };
    },
  },
  {
    source: 'dcim/tests/test_api.py::DeviceRoleTestCase',
    model: 'dcim.devicerole',
    briefFields: [
      '_depth',
      'description',
      'device_count',
      'display',
      'id',
      'name',
      'slug',
      'url',
      'virtualmachine_count',
    ],
    bulkUpdateData: description,
    setUp: async (t) => {
      await t.make('dcim.devicerole', { name: 'Device Role 1', slug: 'device-role-1', color: 'ff0000' });
      await t.make('dcim.devicerole', { name: 'Device Role 2', slug: 'device-role-2', color: '00ff00' });
      await t.make('dcim.devicerole', { name: 'Device Role 3', slug: 'device-role-3', color: '0000ff' });
      return {
        createData: [4, 5, 6].map((i) => ({ name: `Device Role ${i}`, slug: `device-role-${i}`, color: 'ffff00' })),
      };
    },
  },
  {
    source: 'dcim/tests/test_api.py::PlatformTestCase',
    model: 'dcim.platform',
    briefFields: [
      '_depth',
      'description',
      'device_count',
      'display',
      'id',
      'name',
      'slug',
      'url',
      'virtualmachine_count',
    ],
    bulkUpdateData: description,
    setUp: async (t) => {
      for (const i of [1, 2, 3]) await t.make('dcim.platform', { name: `Platform ${i}`, slug: `platform-${i}` });
      return { createData: [4, 5, 6].map((i) => ({ name: `Platform ${i}`, slug: `platform-${i}` })) };
    },
  },
  {
    source: 'dcim/tests/test_api.py::DeviceTestCase',
    model: 'dcim.device',
    briefFields: ['description', 'display', 'id', 'name', 'url'],
    bulkUpdateData: { status: 'failed' },
    userPermissions: [
      'dcim.view_site',
      'dcim.view_rack',
      'dcim.view_location',
      'dcim.view_devicerole',
      'dcim.view_devicetype',
    ],
    setUp: async (t) => {
      const [site1, site2] = await t.makeAll('dcim.site', [
        { name: 'Site 1', slug: 'site-1' },
        { name: 'Site 2', slug: 'site-2' },
      ]);
      const [rack1, rack2] = await t.makeAll('dcim.rack', [
        { name: 'Rack 1', site: site1!.id },
        { name: 'Rack 2', site: site2!.id },
      ]);
      const manufacturer = await t.make('dcim.manufacturer', { name: 'Manufacturer 1', slug: 'manufacturer-1' });
      const [type1, type2] = await t.makeAll('dcim.devicetype', [
        { manufacturer: manufacturer.id, model: 'Device Type 1', slug: 'device-type-1' },
        { manufacturer: manufacturer.id, model: 'Device Type 2', slug: 'device-type-2', u_height: 2 },
      ]);
      const role1 = await t.make('dcim.devicerole', { name: 'Device Role 1', slug: 'device-role-1', color: 'ff0000' });
      const role2 = await t.make('dcim.devicerole', { name: 'Device Role 2', slug: 'device-role-2', color: '00ff00' });
      const clusterType = await t.make('virtualization.clustertype', {
        name: 'Cluster Type 1',
        slug: 'cluster-type-1',
      });
      const [cluster1, cluster2] = await t.makeAll('virtualization.cluster', [
        { name: 'Cluster 1', type: clusterType.id },
        { name: 'Cluster 2', type: clusterType.id },
      ]);
      await t.makeAll(
        'dcim.device',
        (['A', 'B', 'C'] as const).map((key, i) => ({
          device_type: type1!.id,
          role: role1.id,
          name: `Device ${i + 1}`,
          site: site1!.id,
          rack: rack1!.id,
          cluster: cluster1!.id,
          local_context_data: { [key]: i + 1 },
        })),
      );
      return {
        createData: [4, 5, 6].map((i) => ({
          device_type: type2!.id,
          role: role2.id,
          name: `Test Device ${i}`,
          site: site2!.id,
          rack: rack2!.id,
          cluster: cluster2!.id,
        })),
        type2: type2!.id,
      };
    },
    tests: {
      ...renderConfigTests(),
      // NetBox's list URL carries `?slug=device-with-context-data`, a parameter devices do not have (NetBox
      // ignores it): the list is the same without it.
      test_config_context_included_by_default_in_list_view: async (t) => {
        const user = await t.user();
        await user.addPermissions('dcim.view_device');
        const response = await user.client.get(t.path());
        expect(response.body.results[0].config_context?.A).toBe(1);
      },
      test_config_context_excluded: async (t) => {
        const user = await t.user();
        await user.addPermissions('dcim.view_device');
        const response = await user.client.get(`${t.path()}?exclude=config_context`);
        expect(response.body.results[0]).not.toHaveProperty('config_context');
      },
      test_unique_name_per_site_constraint: async (t) => {
        const [first] = await t.queryset();
        const device = (await t.get(first!.id))!;
        const user = await t.user();
        await user.addPermissions('dcim.add_device');
        const body = {
          device_type: device.device_type.id,
          role: device.role.id,
          site: device.site.id,
          name: device.name,
        };
        expect((await user.client.post(t.path(), body)).status).toBe(400);
      },
      test_rack_fit: async (t, data) => {
        const [first] = await t.queryset();
        const device = (await t.get(first!.id))!;
        const user = await t.user();
        await user.addPermissions('dcim.add_device');
        const body = (name: string, position: number): Json => ({
          device_type: data.type2,
          role: device.role.id,
          site: device.site.id,
          name,
          rack: device.rack.id,
          face: 'front',
          position,
        });
        const response = await user.client.post(t.path(), [body('Test Device 7', 1), body('Test Device 8', 2)]);
        expect(response.status).toBe(400);
      },
    },
  },
  {
    source: 'dcim/tests/test_api.py::InterfaceTestCase',
    model: 'dcim.interface',
    briefFields: ['_occupied', 'cable', 'description', 'device', 'display', 'id', 'name', 'url'],
    bulkUpdateData: description,
    userPermissions: ['dcim.view_device'],
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
      const interfaces = await t.makeAll(
        'dcim.interface',
        [1, 2, 3].map((i) => ({ device: device.id, name: `Interface ${i}`, type: '1000base-t' })),
      );
      // NetBox makes them without a status (bulk_create skips validation).
      const vdcs = await t.makeAll(
        'dcim.virtualdevicecontext',
        [1, 2].map((i) => ({ name: `VDC ${i}`, identifier: i, device: device.id, status: 'active' })),
      );
      const vlans = await t.makeAll('ipam.vlan', [
        { name: 'VLAN 1', vid: 1 },
        { name: 'VLAN 2', vid: 2 },
        { name: 'VLAN 3', vid: 3 },
        { name: 'SVLAN 1', vid: 1001, qinq_role: 'svlan' },
      ]);
      const vrfs = await t.makeAll('ipam.vrf', [{ name: 'VRF 1' }, { name: 'VRF 2' }, { name: 'VRF 3' }]);
      const wlans = await t.makeAll('wireless.wirelesslan', [{ ssid: 'WLAN1' }, { ssid: 'WLAN2' }]);
      const wireless_lans = [wlans[0]!.id, wlans[1]!.id];
      const tagged = { tagged_vlans: [vlans[0]!.id, vlans[1]!.id], untagged_vlan: vlans[2]!.id };
      return {
        createData: [
          {
            device: device.id,
            name: 'Interface 4',
            type: 'other',
            mode: 'tagged',
            speed: 16_000_000_000,
            duplex: 'full',
            vrf: vrfs[0]!.id,
            poe_mode: 'pd',
            poe_type: 'type1-ieee802.3af',
            ...tagged,
          },
          {
            device: device.id,
            name: 'Interface 5',
            type: '1000base-t',
            mode: 'tagged',
            bridge: interfaces[0]!.id,
            speed: 100000,
            duplex: 'half',
            vrf: vrfs[1]!.id,
            ...tagged,
          },
          {
            device: device.id,
            name: 'Interface 6',
            vdcs: [vdcs[0]!.id],
            type: 'virtual',
            mode: 'tagged',
            parent: interfaces[1]!.id,
            vrf: vrfs[2]!.id,
            ...tagged,
          },
          {
            device: device.id,
            vdcs: [vdcs[1]!.id],
            name: 'Interface 7',
            type: 'ieee802.11a',
            mode: 'q-in-q',
            tx_power: 10,
            wireless_lans,
            rf_channel: '5g-32-5160-20',
            qinq_svlan: vlans[3]!.id,
          },
          {
            device: device.id,
            vdcs: [vdcs[1]!.id],
            name: 'Interface 8',
            type: 'ieee802.11a',
            mode: 'q-in-q',
            tx_power: 10,
            wireless_lans,
            rf_channel: '',
            qinq_svlan: vlans[3]!.id,
          },
        ],
      };
    },
    tests: {
      test_trace: traceTest('dcim.interface'),
      test_bulk_delete_child_interfaces: async (t) => {
        const all = (await t.admin.get(`${t.path()}?name=Interface 1`)).body.results as Json[];
        const interface1 = all[0]!;
        const user = await t.user(['dcim.view_device']);
        await user.addPermissions('dcim.delete_interface');
        const child = await t.make('dcim.interface', {
          device: interface1.device.id,
          name: 'Interface 1A',
          type: 'virtual',
          parent: interface1.id,
        });
        const count = async (): Promise<number> =>
          (await t.admin.get(`${t.path()}?device_id=${interface1.device.id}&limit=1`)).body.count as number;
        expect(await count()).toBe(4);
        await user.client.delete(`${t.path()}${interface1.id}/`);
        expect(await count()).toBe(4);
        await user.client.delete(t.path(), [{ id: interface1.id }, { id: child.id }]);
        expect(await count()).toBe(2);
      },
      test_create_child_interfaces_mode_invalid_data: async (t) => {
        const user = await t.user(['dcim.view_device']);
        await user.addPermissions('dcim.add_interface');
        const vlans = ((await t.admin.get('/api/ipam/vlans/?limit=3')).body.results as Json[]).map((v) => v.id);
        const device = ((await t.admin.get('/api/dcim/devices/?limit=1')).body.results as Json[])[0]!;
        const attempt = async (mode: string | null, invalid: Json): Promise<void> => {
          const body = { device: device.id, name: 'Interface 1', type: '1000base-t', mode, ...invalid };
          const response = await user.client.post(t.path(), body);
          expect(response.status, JSON.stringify(body)).toBe(400);
          for (const key of Object.keys(invalid)) expect(response.body, key).toHaveProperty(key);
          expect(response.body.data).toBeUndefined();
        };
        const [v0, v1, v2] = vlans as [number, number, number];
        await attempt(null, { untagged_vlan: v0, tagged_vlans: [v1, v2], qinq_svlan: v2 });
        await attempt(null, { untagged_vlan: v0, tagged_vlans: [v1, v2] });
        await attempt(null, { untagged_vlan: v0 });
        for (const mode of [null, 'access', 'tagged-all']) await attempt(mode, { tagged_vlans: [v1, v2] });
        for (const mode of [null, 'access', 'tagged', 'tagged-all']) await attempt(mode, { qinq_svlan: v0 });
      },
    },
  },
  {
    source: 'dcim/tests/test_api.py::PowerPanelTestCase',
    model: 'dcim.powerpanel',
    briefFields: ['description', 'display', 'id', 'name', 'powerfeed_count', 'url'],
    userPermissions: ['dcim.view_site'],
    setUp: async (t) => {
      const [site1, site2] = await t.makeAll('dcim.site', [
        { name: 'Site 1', slug: 'site-1' },
        { name: 'Site 2', slug: 'site-2' },
      ]);
      const locations = await t.makeAll('dcim.location', [
        { name: 'Location 1', slug: 'location-1', site: site1!.id },
        { name: 'Location 2', slug: 'location-2', site: site1!.id },
        { name: 'Location 3', slug: 'location-3', site: site1!.id },
        { name: 'Location 4', slug: 'location-3', site: site2!.id },
      ]);
      await t.makeAll(
        'dcim.powerpanel',
        [0, 1, 2].map((i) => ({ site: site1!.id, location: locations[i]!.id, name: `Power Panel ${i + 1}` })),
      );
      return {
        createData: [0, 1, 2].map((i) => ({
          name: `Power Panel ${i + 4}`,
          site: site1!.id,
          location: locations[i]!.id,
        })),
        // Site 2 and its location: the bulk update keeps each panel's location in its site.
        bulkUpdateData: { site: site2!.id, location: locations[3]!.id },
      };
    },
  },
  {
    source: 'dcim/tests/test_api.py::PowerFeedTestCase',
    model: 'dcim.powerfeed',
    briefFields: ['_occupied', 'cable', 'description', 'display', 'id', 'name', 'url'],
    bulkUpdateData: { status: 'planned' },
    userPermissions: ['dcim.view_powerpanel'],
    setUp: async (t) => {
      const site = await t.make('dcim.site', { name: 'Site 1', slug: 'site-1' });
      const location = await t.make('dcim.location', { site: site.id, name: 'Location 1', slug: 'location-1' });
      const role = await t.make('dcim.rackrole', { name: 'Rack Role 1', slug: 'rack-role-1', color: 'ff0000' });
      const racks = await t.makeAll(
        'dcim.rack',
        [1, 2, 3, 4].map((i) => ({ site: site.id, location: location.id, role: role.id, name: `Rack ${i}` })),
      );
      const panels = await t.makeAll(
        'dcim.powerpanel',
        [1, 2].map((i) => ({ site: site.id, location: location.id, name: `Power Panel ${i}` })),
      );
      const feed = (panel: number, rack: number, name: string, type: string): Json => ({
        power_panel: panels[panel]!.id,
        rack: racks[rack]!.id,
        name,
        type,
      });
      await t.makeAll('dcim.powerfeed', [
        feed(0, 0, 'Power Feed 1A', 'primary'),
        feed(1, 0, 'Power Feed 1B', 'redundant'),
        feed(0, 1, 'Power Feed 2A', 'primary'),
        feed(1, 1, 'Power Feed 2B', 'redundant'),
        feed(0, 2, 'Power Feed 3A', 'primary'),
        feed(1, 2, 'Power Feed 3B', 'redundant'),
      ]);
      return {
        createData: [feed(0, 3, 'Power Feed 4A', 'primary'), feed(1, 3, 'Power Feed 4B', 'redundant')],
      };
    },
  },
];
