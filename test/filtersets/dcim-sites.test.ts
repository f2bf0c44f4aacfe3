import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/app.js';
import { changeLoggedTests, createAll, filterSetSuite, patchAll, setValue, useApp } from '../support/filtersets.js';

/** NetBox 4.6.8 dcim/tests/test_filtersets.py (regions, sites, locations and racks), for the models this service serves. */
describe.each(DIALECTS)('dcim-sites filter sets on %s', (dialect) => {
  const shared = useApp(dialect);

  describe('RegionTestCase', () => {
    const suite = filterSetSuite(shared, 'dcim.region', async (api) => {
      const parent_regions = await createAll(api, '/api/dcim/regions/', [
        { name: 'Region 1', slug: 'region-1', description: 'foobar1', comments: "There's nothing that" },
        { name: 'Region 2', slug: 'region-2', description: 'foobar2', comments: 'a hundred men or more' },
        { name: 'Region 3', slug: 'region-3', description: 'foobar3', comments: 'could ever do' },
      ]);
      const regions = await createAll(api, '/api/dcim/regions/', [
        { name: 'Region 1A', slug: 'region-1a', parent: parent_regions[0]!.id },
        { name: 'Region 1B', slug: 'region-1b', parent: parent_regions[0]!.id },
        { name: 'Region 2A', slug: 'region-2a', parent: parent_regions[1]!.id },
        { name: 'Region 2B', slug: 'region-2b', parent: parent_regions[1]!.id },
        { name: 'Region 3A', slug: 'region-3a', parent: parent_regions[2]!.id },
        { name: 'Region 3B', slug: 'region-3b', parent: parent_regions[2]!.id },
      ]);
      const child_regions = await createAll(api, '/api/dcim/regions/', [
        { name: 'Region 1A1', slug: 'region-1a1', parent: regions[0]!.id },
        { name: 'Region 1B1', slug: 'region-1b1', parent: regions[1]!.id },
        { name: 'Region 2A1', slug: 'region-2a1', parent: regions[2]!.id },
        { name: 'Region 2B1', slug: 'region-2b1', parent: regions[3]!.id },
        { name: 'Region 3A1', slug: 'region-3a1', parent: regions[4]!.id },
        { name: 'Region 3B1', slug: 'region-3b1', parent: regions[5]!.id },
      ]);
      return { parent_regions, regions, child_regions };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_q_comments', async () => {
      expect(await suite.count({ q: 'there' })).toBe(1);
      expect(await suite.count({ q: 'hundred men could' })).toBe(0);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Region 1', 'Region 2'] })).toBe(2);
    });
    it('test_slug', async () => {
      expect(await suite.count({ slug: ['region-1', 'region-2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_parent', async () => {
      const regions = suite.data.parent_regions.slice(0, 2);
      expect(await suite.count({ parent_id: [regions[0]!.id, regions[1]!.id] })).toBe(4);
      expect(await suite.count({ parent: [regions[0]!.slug, regions[1]!.slug] })).toBe(4);
    });
    it('test_ancestor', async () => {
      const regions = suite.data.parent_regions.slice(0, 2);
      expect(await suite.count({ ancestor_id: [regions[0]!.id, regions[1]!.id] })).toBe(8);
      expect(await suite.count({ ancestor: [regions[0]!.slug, regions[1]!.slug] })).toBe(8);
    });
  });

  describe('SiteGroupTestCase', () => {
    const suite = filterSetSuite(shared, 'dcim.sitegroup', async (api) => {
      const parent_groups = await createAll(api, '/api/dcim/site-groups/', [
        { name: 'Site Group 1', slug: 'site-group-1', description: 'foobar1' },
        { name: 'Site Group 2', slug: 'site-group-2', description: 'foobar2' },
        { name: 'Site Group 3', slug: 'site-group-3', description: 'foobar3' },
      ]);
      const groups = await createAll(api, '/api/dcim/site-groups/', [
        { name: 'Site Group 1A', slug: 'site-group-1a', parent: parent_groups[0]!.id },
        { name: 'Site Group 1B', slug: 'site-group-1b', parent: parent_groups[0]!.id },
        { name: 'Site Group 2A', slug: 'site-group-2a', parent: parent_groups[1]!.id },
        { name: 'Site Group 2B', slug: 'site-group-2b', parent: parent_groups[1]!.id },
        { name: 'Site Group 3A', slug: 'site-group-3a', parent: parent_groups[2]!.id },
        {
          name: 'Site Group 3B',
          slug: 'site-group-3b',
          parent: parent_groups[2]!.id,
          comments: 'this is a parent group',
        },
      ]);
      const child_groups = await createAll(api, '/api/dcim/site-groups/', [
        { name: 'Site Group 1A1', slug: 'site-group-1a1', parent: groups[0]!.id, comments: 'this is a child group' },
        { name: 'Site Group 1B1', slug: 'site-group-1b1', parent: groups[1]!.id },
        { name: 'Site Group 2A1', slug: 'site-group-2a1', parent: groups[2]!.id },
        { name: 'Site Group 2B1', slug: 'site-group-2b1', parent: groups[3]!.id },
        { name: 'Site Group 3A1', slug: 'site-group-3a1', parent: groups[4]!.id },
        { name: 'Site Group 3B1', slug: 'site-group-3b1', parent: groups[5]!.id },
      ]);
      return { parent_groups, groups, child_groups };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_q_comments', async () => {
      expect(await suite.count({ q: 'this' })).toBe(2);
      expect(await suite.count({ q: 'child' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Site Group 1', 'Site Group 2'] })).toBe(2);
    });
    it('test_slug', async () => {
      expect(await suite.count({ slug: ['site-group-1', 'site-group-2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_parent', async () => {
      const site_groups = suite.data.parent_groups.slice(0, 2);
      expect(await suite.count({ parent_id: [site_groups[0]!.id, site_groups[1]!.id] })).toBe(4);
      expect(await suite.count({ parent: [site_groups[0]!.slug, site_groups[1]!.slug] })).toBe(4);
    });
    it('test_ancestor', async () => {
      const site_groups = suite.data.parent_groups.slice(0, 2);
      expect(await suite.count({ ancestor_id: [site_groups[0]!.id, site_groups[1]!.id] })).toBe(8);
      expect(await suite.count({ ancestor: [site_groups[0]!.slug, site_groups[1]!.slug] })).toBe(8);
    });
  });

  describe('SiteTestCase', () => {
    const suite = filterSetSuite(shared, 'dcim.site', async (api) => {
      const regions = await createAll(api, '/api/dcim/regions/', [
        { name: 'Region 1', slug: 'region-1' },
        { name: 'Region 2', slug: 'region-2' },
        { name: 'Region 3', slug: 'region-3' },
      ]);
      const groups = await createAll(api, '/api/dcim/site-groups/', [
        { name: 'Site Group 1', slug: 'site-group-1' },
        { name: 'Site Group 2', slug: 'site-group-2' },
        { name: 'Site Group 3', slug: 'site-group-3' },
      ]);
      const tenant_groups = await createAll(api, '/api/tenancy/tenant-groups/', [
        { name: 'Tenant group 1', slug: 'tenant-group-1' },
        { name: 'Tenant group 2', slug: 'tenant-group-2' },
        { name: 'Tenant group 3', slug: 'tenant-group-3' },
      ]);
      const tenants = await createAll(api, '/api/tenancy/tenants/', [
        { name: 'Tenant 1', slug: 'tenant-1', group: tenant_groups[0]!.id },
        { name: 'Tenant 2', slug: 'tenant-2', group: tenant_groups[1]!.id },
        { name: 'Tenant 3', slug: 'tenant-3', group: tenant_groups[2]!.id },
      ]);
      const [rir] = await createAll(api, '/api/ipam/rirs/', [{ name: 'RFC 6996', slug: 'rfc-6996', is_private: true }]);
      const asns = await createAll(api, '/api/ipam/asns/', [
        { asn: 64512, rir: rir!.id, tenant: tenants[0]!.id },
        { asn: 64513, rir: rir!.id, tenant: tenants[0]!.id },
        { asn: 64514, rir: rir!.id, tenant: tenants[0]!.id },
      ]);
      const sites = await createAll(api, '/api/dcim/sites/', [
        {
          name: 'Site 1',
          slug: 'site-1',
          region: regions[0]!.id,
          group: groups[0]!.id,
          tenant: tenants[0]!.id,
          status: 'active',
          facility: 'Facility 1',
          latitude: 10,
          longitude: 10,
          description: 'foobar1',
        },
        {
          name: 'Site 2',
          slug: 'site-2',
          region: regions[1]!.id,
          group: groups[1]!.id,
          tenant: tenants[1]!.id,
          status: 'planned',
          facility: 'Facility 2',
          latitude: 20,
          longitude: 20,
          description: 'foobar2',
        },
        {
          name: 'Site 3',
          slug: 'site-3',
          region: regions[2]!.id,
          group: groups[2]!.id,
          tenant: tenants[2]!.id,
          status: 'retired',
          facility: 'Facility 3',
          latitude: 30,
          longitude: 30,
        },
      ]);
      await patchAll(api, '/api/dcim/sites/', [
        { id: sites[0]!.id, asns: [asns[0]!.id] },
        { id: sites[1]!.id, asns: [asns[1]!.id] },
        { id: sites[2]!.id, asns: [asns[2]!.id] },
      ]);
      return { regions, groups, tenant_groups, tenants, rir, asns, sites };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Site 1', 'Site 2'] })).toBe(2);
    });
    it('test_slug', async () => {
      expect(await suite.count({ slug: ['site-1', 'site-2'] })).toBe(2);
    });
    it('test_facility', async () => {
      expect(await suite.count({ facility: ['Facility 1', 'Facility 2'] })).toBe(2);
    });
    it('test_asn', async () => {
      expect(await suite.count({ asn: ['64512', '64513'] })).toBe(2);
    });
    it('test_asn_id', async () => {
      const d = suite.data;
      const asns = d.asns.slice(0, 2);
      expect(await suite.count({ asn_id: [asns[0]!.id, asns[1]!.id] })).toBe(2);
    });
    it('test_latitude', async () => {
      expect(await suite.count({ latitude: [10, 20] })).toBe(2);
    });
    it('test_longitude', async () => {
      expect(await suite.count({ longitude: [10, 20] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_status', async () => {
      expect(await suite.count({ status: ['active', 'planned'] })).toBe(2);
    });
    it('test_region', async () => {
      const d = suite.data;
      const regions = d.regions.slice(0, 2);
      expect(await suite.count({ region_id: [regions[0]!.id, regions[1]!.id] })).toBe(2);
      expect(await suite.count({ region: [regions[0]!.slug, regions[1]!.slug] })).toBe(2);
    });
    it('test_site_group', async () => {
      const d = suite.data;
      const groups = d.groups.slice(0, 2);
      expect(await suite.count({ group_id: [groups[0]!.id, groups[1]!.id] })).toBe(2);
      expect(await suite.count({ group: [groups[0]!.slug, groups[1]!.slug] })).toBe(2);
    });
    it('test_tenant', async () => {
      const d = suite.data;
      const tenants = d.tenants.slice(0, 2);
      expect(await suite.count({ tenant_id: [tenants[0]!.id, tenants[1]!.id] })).toBe(2);
      expect(await suite.count({ tenant: [tenants[0]!.slug, tenants[1]!.slug] })).toBe(2);
    });
    it('test_tenant_group', async () => {
      const d = suite.data;
      const tenant_groups = d.tenant_groups.slice(0, 2);
      expect(await suite.count({ tenant_group_id: [tenant_groups[0]!.id, tenant_groups[1]!.id] })).toBe(2);
      expect(await suite.count({ tenant_group: [tenant_groups[0]!.slug, tenant_groups[1]!.slug] })).toBe(2);
    });
  });

  describe('LocationTestCase', () => {
    const suite = filterSetSuite(shared, 'dcim.location', async (api) => {
      const regions = await createAll(api, '/api/dcim/regions/', [
        { name: 'Region 1', slug: 'region-1' },
        { name: 'Region 2', slug: 'region-2' },
        { name: 'Region 3', slug: 'region-3' },
      ]);
      const groups = await createAll(api, '/api/dcim/site-groups/', [
        { name: 'Site Group 1', slug: 'site-group-1' },
        { name: 'Site Group 2', slug: 'site-group-2' },
        { name: 'Site Group 3', slug: 'site-group-3' },
      ]);
      const sites = await createAll(api, '/api/dcim/sites/', [
        { name: 'Site 1', slug: 'site-1', region: regions[0]!.id, group: groups[0]!.id },
        { name: 'Site 2', slug: 'site-2', region: regions[1]!.id, group: groups[1]!.id },
        { name: 'Site 3', slug: 'site-3', region: regions[2]!.id, group: groups[2]!.id },
      ]);
      const parent_locations = await createAll(api, '/api/dcim/locations/', [
        { name: 'Location 1', slug: 'location-1', site: sites[0]!.id },
        { name: 'Location 2', slug: 'location-2', site: sites[1]!.id },
        { name: 'Location 3', slug: 'location-3', site: sites[2]!.id },
      ]);
      const locations = await createAll(api, '/api/dcim/locations/', [
        {
          name: 'Location 1A',
          slug: 'location-1a',
          site: sites[0]!.id,
          parent: parent_locations[0]!.id,
          status: 'planned',
          facility: 'Facility 1',
          description: 'foobar1',
          comments: '',
        },
        {
          name: 'Location 2A',
          slug: 'location-2a',
          site: sites[1]!.id,
          parent: parent_locations[1]!.id,
          status: 'staging',
          facility: 'Facility 2',
          description: 'foobar2',
          comments: 'First comment!',
        },
        {
          name: 'Location 3A',
          slug: 'location-3a',
          site: sites[2]!.id,
          parent: parent_locations[2]!.id,
          status: 'decommissioning',
          facility: 'Facility 3',
          description: 'foobar3',
          comments: '_This_ is a **bold comment**',
        },
      ]);
      const child_locations = await createAll(api, '/api/dcim/locations/', [
        { name: 'Location 1A1', slug: 'location-1a1', site: sites[0]!.id, parent: locations[0]!.id },
        { name: 'Location 2A1', slug: 'location-2a1', site: sites[1]!.id, parent: locations[1]!.id },
        { name: 'Location 3A1', slug: 'location-3a1', site: sites[2]!.id, parent: locations[2]!.id },
      ]);
      return { regions, groups, sites, parent_locations, locations, child_locations };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_q_comments', async () => {
      expect(await suite.count({ q: 'this' })).toBe(1);
      expect(await suite.count({ q: 'comment' })).toBe(2);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Location 1', 'Location 2'] })).toBe(2);
    });
    it('test_slug', async () => {
      expect(await suite.count({ slug: ['location-1', 'location-2'] })).toBe(2);
    });
    it('test_status', async () => {
      expect(await suite.count({ status: ['planned', 'staging'] })).toBe(2);
    });
    it('test_facility', async () => {
      expect(await suite.count({ facility: ['Facility 1', 'Facility 2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_region', async () => {
      const d = suite.data;
      const regions = d.regions.slice(0, 2);
      expect(await suite.count({ region_id: [regions[0]!.id, regions[1]!.id] })).toBe(6);
      expect(await suite.count({ region: [regions[0]!.slug, regions[1]!.slug] })).toBe(6);
    });
    it('test_site_group', async () => {
      const d = suite.data;
      const site_groups = d.groups.slice(0, 2);
      expect(await suite.count({ site_group_id: [site_groups[0]!.id, site_groups[1]!.id] })).toBe(6);
      expect(await suite.count({ site_group: [site_groups[0]!.slug, site_groups[1]!.slug] })).toBe(6);
    });
    it('test_site', async () => {
      const d = suite.data;
      const sites = d.sites.slice(0, 2);
      expect(await suite.count({ site_id: [sites[0]!.id, sites[1]!.id] })).toBe(6);
      expect(await suite.count({ site: [sites[0]!.slug, sites[1]!.slug] })).toBe(6);
    });
    it('test_parent', async () => {
      const locations = suite.data.parent_locations.slice(0, 2);
      expect(await suite.count({ parent_id: [locations[0]!.id, locations[1]!.id] })).toBe(2);
      expect(await suite.count({ parent: [locations[0]!.slug, locations[1]!.slug] })).toBe(2);
    });
    it('test_ancestor', async () => {
      const locations = suite.data.parent_locations.slice(0, 2);
      expect(await suite.count({ ancestor_id: [locations[0]!.id, locations[1]!.id] })).toBe(4);
      expect(await suite.count({ ancestor: [locations[0]!.slug, locations[1]!.slug] })).toBe(4);
    });
  });

  describe('RackRoleTestCase', () => {
    const suite = filterSetSuite(shared, 'dcim.rackrole', async (api) => {
      const rack_roles = await createAll(api, '/api/dcim/rack-roles/', [
        { name: 'Rack Role 1', slug: 'rack-role-1', color: 'ff0000', description: 'foobar1' },
        { name: 'Rack Role 2', slug: 'rack-role-2', color: '00ff00', description: 'foobar2' },
        { name: 'Rack Role 3', slug: 'rack-role-3', color: '0000ff' },
      ]);
      return { rack_roles };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Rack Role 1', 'Rack Role 2'] })).toBe(2);
    });
    it('test_slug', async () => {
      expect(await suite.count({ slug: ['rack-role-1', 'rack-role-2'] })).toBe(2);
    });
    it('test_color', async () => {
      expect(await suite.count({ color: ['ff0000', '00ff00'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
  });

  describe('RackTestCase', () => {
    const suite = filterSetSuite(shared, 'dcim.rack', async (api, app) => {
      const regions = await createAll(api, '/api/dcim/regions/', [
        { name: 'Region 1', slug: 'region-1' },
        { name: 'Region 2', slug: 'region-2' },
        { name: 'Region 3', slug: 'region-3' },
      ]);
      const site_groups = await createAll(api, '/api/dcim/site-groups/', [
        { name: 'Site Group 1', slug: 'site-group-1' },
        { name: 'Site Group 2', slug: 'site-group-2' },
        { name: 'Site Group 3', slug: 'site-group-3' },
      ]);
      const sites = await createAll(api, '/api/dcim/sites/', [
        { name: 'Site 1', slug: 'site-1', region: regions[0]!.id, group: site_groups[0]!.id },
        { name: 'Site 2', slug: 'site-2', region: regions[1]!.id, group: site_groups[1]!.id },
        { name: 'Site 3', slug: 'site-3', region: regions[2]!.id, group: site_groups[2]!.id },
      ]);
      const locations = await createAll(api, '/api/dcim/locations/', [
        { name: 'Location 1', slug: 'location-1', site: sites[0]!.id },
        { name: 'Location 2', slug: 'location-2', site: sites[1]!.id },
        { name: 'Location 3', slug: 'location-3', site: sites[2]!.id },
      ]);
      const manufacturers = await createAll(api, '/api/dcim/manufacturers/', [
        { name: 'Manufacturer 1', slug: 'manufacturer-1' },
        { name: 'Manufacturer 2', slug: 'manufacturer-2' },
        { name: 'Manufacturer 3', slug: 'manufacturer-3' },
      ]);
      const rack_types = await createAll(
        api,
        '/api/dcim/rack-types/',
        [0, 1].map((i) => ({
          manufacturer: manufacturers[i]!.id,
          model: `RackType ${i + 1}`,
          slug: `rack-type-${i + 1}`,
          form_factor: ['2-post-frame', '4-post-frame'][i],
          width: [19, 21][i],
          u_height: 42 + i,
          starting_unit: 1 + i,
          desc_units: false,
          outer_width: 100 * (i + 1),
          outer_height: 100 * (i + 1),
          outer_depth: 100 * (i + 1),
          outer_unit: 'mm',
          mounting_depth: 100 * (i + 1),
          weight: 10 * (i + 1),
          max_weight: 1000 * (i + 1),
          weight_unit: 'lb',
          description: `foobar${i + 1}`,
        })),
      );
      const rack_groups = await createAll(
        api,
        '/api/dcim/rack-groups/',
        [1, 2, 3].map((i) => ({ name: `Rack Group ${i}`, slug: `rack-group-${i}` })),
      );
      const rack_roles = await createAll(api, '/api/dcim/rack-roles/', [
        { name: 'Rack Role 1', slug: 'rack-role-1' },
        { name: 'Rack Role 2', slug: 'rack-role-2' },
        { name: 'Rack Role 3', slug: 'rack-role-3' },
      ]);
      const tenant_groups = await createAll(api, '/api/tenancy/tenant-groups/', [
        { name: 'Tenant group 1', slug: 'tenant-group-1' },
        { name: 'Tenant group 2', slug: 'tenant-group-2' },
        { name: 'Tenant group 3', slug: 'tenant-group-3' },
      ]);
      const tenants = await createAll(api, '/api/tenancy/tenants/', [
        { name: 'Tenant 1', slug: 'tenant-1', group: tenant_groups[0]!.id },
        { name: 'Tenant 2', slug: 'tenant-2', group: tenant_groups[1]!.id },
        { name: 'Tenant 3', slug: 'tenant-3', group: tenant_groups[2]!.id },
      ]);
      const racks = await createAll(api, '/api/dcim/racks/', [
        {
          name: 'Rack 1',
          group: rack_groups[0]!.id,
          facility_id: 'rack-1',
          site: sites[0]!.id,
          location: locations[0]!.id,
          tenant: tenants[0]!.id,
          status: 'active',
          role: rack_roles[0]!.id,
          serial: 'ABC',
          asset_tag: '1001',
          form_factor: '2-post-frame',
          width: 19,
          u_height: 42,
          desc_units: false,
          outer_width: 100,
          outer_height: 100,
          outer_depth: 100,
          outer_unit: 'mm',
          weight: 10,
          max_weight: 1000,
          weight_unit: 'lb',
          description: 'foobar1',
          airflow: 'front-to-rear',
        },
        {
          name: 'Rack 2',
          group: rack_groups[1]!.id,
          facility_id: 'rack-2',
          site: sites[1]!.id,
          location: locations[1]!.id,
          tenant: tenants[1]!.id,
          status: 'planned',
          role: rack_roles[1]!.id,
          serial: 'DEF',
          asset_tag: '1002',
          form_factor: '4-post-frame',
          width: 21,
          u_height: 43,
          desc_units: false,
          outer_width: 200,
          outer_height: 200,
          outer_depth: 200,
          outer_unit: 'mm',
          weight: 20,
          max_weight: 2000,
          weight_unit: 'lb',
          description: 'foobar2',
          airflow: 'rear-to-front',
        },
        {
          name: 'Rack 3',
          group: rack_groups[2]!.id,
          facility_id: 'rack-3',
          site: sites[2]!.id,
          location: locations[2]!.id,
          tenant: tenants[2]!.id,
          status: 'reserved',
          role: rack_roles[2]!.id,
          serial: 'GHI',
          asset_tag: '1003',
          form_factor: '4-post-cabinet',
          width: 23,
          u_height: 44,
          desc_units: true,
          outer_width: 300,
          outer_height: 300,
          outer_depth: 300,
          outer_unit: 'in',
          weight: 30,
          max_weight: 3000,
          weight_unit: 'kg',
          description: 'foobar3',
        },
        {
          name: 'Rack 4',
          facility_id: 'rack-4',
          site: sites[2]!.id,
          location: locations[2]!.id,
          tenant: tenants[2]!.id,
          status: 'planned',
          role: rack_roles[2]!.id,
          width: 19,
          u_height: 42,
          description: 'foobar4',
        },
        {
          name: 'Rack 5',
          facility_id: 'rack-5',
          site: sites[2]!.id,
          location: locations[2]!.id,
          tenant: tenants[2]!.id,
          status: 'planned',
          role: rack_roles[2]!.id,
          width: 21,
          u_height: 43,
          description: 'foobar5',
        },
      ]);
      // NetBox bulk-creates its racks (no rack type attributes are copied): the rack types are set directly.
      await setValue(app, 'dcim.rack', [racks[3]!.id], 'rack_type', rack_types[0]!.id);
      await setValue(app, 'dcim.rack', [racks[4]!.id], 'rack_type', rack_types[1]!.id);
      return {
        regions,
        site_groups,
        sites,
        locations,
        manufacturers,
        rack_types,
        rack_groups,
        rack_roles,
        tenant_groups,
        tenants,
        racks,
      };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Rack 1', 'Rack 2'] })).toBe(2);
    });
    it('test_facility_id', async () => {
      expect(await suite.count({ facility_id: ['rack-1', 'rack-2'] })).toBe(2);
    });
    it('test_asset_tag', async () => {
      expect(await suite.count({ asset_tag: ['1001', '1002'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_form_factor', async () => {
      expect(await suite.count({ form_factor: ['2-post-frame', '4-post-frame'] })).toBe(2);
    });
    it('test_width', async () => {
      expect(await suite.count({ width: [19, 21] })).toBe(4);
    });
    it('test_u_height', async () => {
      expect(await suite.count({ u_height: [42, 43] })).toBe(4);
    });
    it('test_starting_unit', async () => {
      expect(await suite.count({ starting_unit: [1] })).toBe(5);
      expect(await suite.count({ starting_unit: [2] })).toBe(0);
    });
    it('test_desc_units', async () => {
      expect(await suite.count({ desc_units: 'true' })).toBe(1);
      expect(await suite.count({ desc_units: 'false' })).toBe(4);
    });
    it('test_outer_width', async () => {
      expect(await suite.count({ outer_width: [100, 200] })).toBe(2);
    });
    it('test_outer_height', async () => {
      expect(await suite.count({ outer_height: [100, 200] })).toBe(2);
    });
    it('test_outer_depth', async () => {
      expect(await suite.count({ outer_depth: [100, 200] })).toBe(2);
    });
    it('test_outer_unit', async () => {
      expect(await suite.count({ outer_unit: 'mm' })).toBe(2);
    });
    it('test_region', async () => {
      const d = suite.data;
      const regions = d.regions.slice(0, 2);
      expect(await suite.count({ region_id: [regions[0]!.id, regions[1]!.id] })).toBe(2);
      expect(await suite.count({ region: [regions[0]!.slug, regions[1]!.slug] })).toBe(2);
    });
    it('test_site_group', async () => {
      const d = suite.data;
      const site_groups = d.site_groups.slice(0, 2);
      expect(await suite.count({ site_group_id: [site_groups[0]!.id, site_groups[1]!.id] })).toBe(2);
      expect(await suite.count({ site_group: [site_groups[0]!.slug, site_groups[1]!.slug] })).toBe(2);
    });
    it('test_site', async () => {
      const d = suite.data;
      const sites = d.sites.slice(0, 2);
      expect(await suite.count({ site_id: [sites[0]!.id, sites[1]!.id] })).toBe(2);
      expect(await suite.count({ site: [sites[0]!.slug, sites[1]!.slug] })).toBe(2);
    });
    it('test_location', async () => {
      const d = suite.data;
      const locations = d.locations.slice(0, 2);
      expect(await suite.count({ location_id: [locations[0]!.id, locations[1]!.id] })).toBe(2);
      expect(await suite.count({ location: [locations[0]!.slug, locations[1]!.slug] })).toBe(2);
    });
    it('test_rack_group', async () => {
      const groups = suite.data.rack_groups;
      expect(await suite.count({ group_id: [groups[0]!.id, groups[1]!.id] })).toBe(2);
      expect(await suite.count({ group: [groups[0]!.slug, groups[1]!.slug] })).toBe(2);
    });
    it('test_status', async () => {
      expect(await suite.count({ status: ['active', 'planned'] })).toBe(4);
    });
    it('test_role', async () => {
      const d = suite.data;
      const roles = d.rack_roles.slice(0, 2);
      expect(await suite.count({ role_id: [roles[0]!.id, roles[1]!.id] })).toBe(2);
      expect(await suite.count({ role: [roles[0]!.slug, roles[1]!.slug] })).toBe(2);
    });
    it('test_serial', async () => {
      expect(await suite.count({ serial: ['ABC', 'DEF'] })).toBe(2);
      expect(await suite.count({ serial: ['abc', 'def'] })).toBe(2);
    });
    it('test_tenant', async () => {
      const d = suite.data;
      const tenants = d.tenants.slice(0, 2);
      expect(await suite.count({ tenant_id: [tenants[0]!.id, tenants[1]!.id] })).toBe(2);
      expect(await suite.count({ tenant: [tenants[0]!.slug, tenants[1]!.slug] })).toBe(2);
    });
    it('test_tenant_group', async () => {
      const d = suite.data;
      const tenant_groups = d.tenant_groups.slice(0, 2);
      expect(await suite.count({ tenant_group_id: [tenant_groups[0]!.id, tenant_groups[1]!.id] })).toBe(2);
      expect(await suite.count({ tenant_group: [tenant_groups[0]!.slug, tenant_groups[1]!.slug] })).toBe(2);
    });
    it('test_weight', async () => {
      expect(await suite.count({ weight: [10, 20] })).toBe(2);
    });
    it('test_max_weight', async () => {
      expect(await suite.count({ max_weight: [1000, 2000] })).toBe(2);
    });
    it('test_weight_unit', async () => {
      expect(await suite.count({ weight_unit: 'lb' })).toBe(2);
    });
    it('test_manufacturer', async () => {
      const m = suite.data.manufacturers;
      expect(await suite.count({ manufacturer_id: [m[0]!.id, m[1]!.id] })).toBe(2);
      expect(await suite.count({ manufacturer: [m[0]!.slug, m[1]!.slug] })).toBe(2);
    });
    it('test_rack_type', async () => {
      const types = suite.data.rack_types;
      expect(await suite.count({ rack_type_id: [types[0]!.id, types[1]!.id] })).toBe(2);
      expect(await suite.count({ rack_type: [types[0]!.slug, types[1]!.slug] })).toBe(2);
    });
    it('test_airflow', async () => {
      expect(await suite.count({ airflow: 'front-to-rear' })).toBe(1);
    });
  });
});
