import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/app.js';
import { changeLoggedTests, createAll, filterSetSuite, patchAll, useApp } from '../support/filtersets.js';

/**
 * NetBox 4.6.8 dcim/tests/test_filtersets.py for virtual chassis, virtual device contexts, MAC addresses, rack
 * groups, rack types and rack reservations.
 */
describe.each(DIALECTS)('dcim-chassis filter sets on %s', (dialect) => {
  const shared = useApp(dialect);

  /** Three regions, site groups and sites (site N in region N and group N). */
  async function threeSites(api: Parameters<typeof createAll>[0]) {
    const regions = await createAll(
      api,
      '/api/dcim/regions/',
      [1, 2, 3].map((i) => ({ name: `Region ${i}`, slug: `region-${i}` })),
    );
    const groups = await createAll(
      api,
      '/api/dcim/site-groups/',
      [1, 2, 3].map((i) => ({ name: `Site Group ${i}`, slug: `site-group-${i}` })),
    );
    const sites = await createAll(
      api,
      '/api/dcim/sites/',
      [1, 2, 3].map((i) => ({
        name: `Site ${i}`,
        slug: `site-${i}`,
        region: regions[i - 1]!.id,
        group: groups[i - 1]!.id,
      })),
    );
    return { regions, groups, sites };
  }

  /** A manufacturer, device type and device role. */
  async function deviceKinds(api: Parameters<typeof createAll>[0]) {
    const [manufacturer] = await createAll(api, '/api/dcim/manufacturers/', [
      { name: 'Manufacturer 1', slug: 'manufacturer-1' },
    ]);
    const [type] = await createAll(api, '/api/dcim/device-types/', [
      { manufacturer: manufacturer!.id, model: 'Model 1', slug: 'model-1' },
    ]);
    const [role] = await createAll(api, '/api/dcim/device-roles/', [{ name: 'Device Role 1', slug: 'device-role-1' }]);
    return { manufacturer: manufacturer!, type: type!, role: role! };
  }

  describe('VirtualChassisTestCase', () => {
    const suite = filterSetSuite(shared, 'dcim.virtualchassis', async (api) => {
      const { type, role } = await deviceKinds(api);
      const { regions, groups, sites } = await threeSites(api);
      const devices = await createAll(
        api,
        '/api/dcim/devices/',
        [0, 1, 2, 3, 4, 5].map((i) => ({
          name: `Device ${i + 1}`,
          device_type: type.id,
          role: role.id,
          site: sites[Math.floor(i / 2)]!.id,
          vc_position: (i % 2) + 1,
        })),
      );
      const chassis = await createAll(
        api,
        '/api/dcim/virtual-chassis/',
        [0, 1, 2].map((i) => ({
          name: `VC ${i + 1}`,
          master: devices[i * 2]!.id,
          domain: `Domain ${i + 1}`,
          description: `foobar${i + 1}`,
        })),
      );
      await patchAll(
        api,
        '/api/dcim/devices/',
        [0, 1, 2].map((i) => ({ id: devices[i * 2 + 1]!.id, virtual_chassis: chassis[i]!.id })),
      );
      return { devices, regions, groups, sites };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_domain', async () => {
      expect(await suite.count({ domain: ['Domain 1', 'Domain 2'] })).toBe(2);
    });
    it('test_master', async () => {
      const masters = suite.data.devices;
      expect(await suite.count({ master_id: [masters[0]!.id, masters[2]!.id] })).toBe(2);
      expect(await suite.count({ master: [masters[0]!.name, masters[2]!.name] })).toBe(2);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['VC 1', 'VC 2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_region', async () => {
      const regions = suite.data.regions;
      expect(await suite.count({ region_id: [regions[0]!.id, regions[1]!.id] })).toBe(2);
      expect(await suite.count({ region: [regions[0]!.slug, regions[1]!.slug] })).toBe(2);
    });
    it('test_site_group', async () => {
      const groups = suite.data.groups;
      expect(await suite.count({ site_group_id: [groups[0]!.id, groups[1]!.id] })).toBe(2);
      expect(await suite.count({ site_group: [groups[0]!.slug, groups[1]!.slug] })).toBe(2);
    });
    it('test_site', async () => {
      const sites = suite.data.sites;
      expect(await suite.count({ site_id: [sites[0]!.id, sites[1]!.id] })).toBe(2);
      expect(await suite.count({ site: [sites[0]!.slug, sites[1]!.slug] })).toBe(2);
    });
  });
});
