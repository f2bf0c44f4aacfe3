import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/app.js';
import {
  changeLoggedTests,
  createAll,
  createEach,
  createTestDevice,
  filterSetSuite,
  useApp,
  type Row,
} from '../support/filtersets.js';

/** NetBox 4.6.8 wireless/tests/test_filtersets.py. */
describe.each(DIALECTS)('wireless filter sets on %s', (dialect) => {
  const shared = useApp(dialect);

  describe('WirelessLANGroupTestCase', () => {
    const suite = filterSetSuite(shared, 'wireless.wirelesslangroup', async (api) => {
      const list = '/api/wireless/wireless-lan-groups/';
      const group = (name: string, more: Record<string, unknown> = {}) => ({
        name: `Wireless LAN Group ${name}`,
        slug: `wireless-lan-group-${name.toLowerCase()}`,
        ...more,
      });
      const parents = await createEach(api, list, [
        group('1', { description: 'A' }),
        group('2', { description: 'B' }),
        group('3', { description: 'C', comments: 'Parent Group 3 comment' }),
      ]);
      const under = (i: number) => ({ parent: parents[i]!.id });
      const groups = await createEach(api, list, [
        group('1A', { ...under(0), description: 'foobar1' }),
        group('1B', { ...under(0), description: 'foobar2', comments: 'Child Group 1B comment' }),
        group('2A', under(1)),
        group('2B', under(1)),
        group('3A', { ...under(2), comments: 'Wireless LAN Group 3A comment' }),
        group('3B', under(2)),
      ]);
      await createEach(
        api,
        list,
        ['1A1', '1B1', '2A1', '2B1', '3A1', '3B1'].map((name, i) => group(name, { parent: groups[i]!.id })),
      );
      return { parents };
    });
    changeLoggedTests(suite);

    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_q_comments', async () => {
      expect(await suite.count({ q: 'parent' })).toBe(1);
      expect(await suite.count({ q: 'comment' })).toBe(3);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Wireless LAN Group 1', 'Wireless LAN Group 2'] })).toBe(2);
    });
    it('test_slug', async () => {
      expect(await suite.count({ slug: ['wireless-lan-group-1', 'wireless-lan-group-2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_parent', async () => {
      const [a, b] = suite.data.parents;
      expect(await suite.count({ parent_id: [a!.id, b!.id] })).toBe(4);
      expect(await suite.count({ parent: [a!.slug, b!.slug] })).toBe(4);
    });
    it('test_ancestor', async () => {
      const [a, b] = suite.data.parents;
      expect(await suite.count({ ancestor_id: [a!.id, b!.id] })).toBe(8);
      expect(await suite.count({ ancestor: [a!.slug, b!.slug] })).toBe(8);
    });
  });

  describe('WirelessLANTestCase', () => {
    const suite = filterSetSuite(shared, 'wireless.wirelesslan', async (api) => {
      const three = (make: (i: number) => Record<string, unknown>) => [1, 2, 3].map(make);
      const groups = await createEach(
        api,
        '/api/wireless/wireless-lan-groups/',
        three((i) => ({ name: `Wireless LAN Group ${i}`, slug: `wireless-lan-group-${i}` })),
      );
      const vlans = await createAll(
        api,
        '/api/ipam/vlans/',
        three((i) => ({ name: `VLAN${i}`, vid: i })),
      );
      const regions = await createEach(
        api,
        '/api/dcim/regions/',
        three((i) => ({ name: `Test Region ${i}`, slug: `test-region-${i}` })),
      );
      const siteGroups = await createEach(
        api,
        '/api/dcim/site-groups/',
        three((i) => ({ name: `Site Group ${i}`, slug: `site-group-${i}` })),
      );
      const sites = await createAll(
        api,
        '/api/dcim/sites/',
        three((i) => ({
          name: `Test Site ${i}`,
          slug: `test-site-${i}`,
          region: regions[i - 1]!.id,
          group: siteGroups[i - 1]!.id,
        })),
      );
      const locations = await createEach(api, '/api/dcim/locations/', [
        { name: 'Location 1', slug: 'location-1', site: sites[0]!.id },
        { name: 'Location 2', slug: 'location-2', site: sites[2]!.id },
      ]);
      const tenants = await createAll(
        api,
        '/api/tenancy/tenants/',
        three((i) => ({ name: `Tenant ${i}`, slug: `tenant-${i}` })),
      );
      const scopes = [
        { scope_type: 'dcim.site', scope_id: sites[0]!.id },
        { scope_type: 'dcim.location', scope_id: locations[0]!.id },
        { scope_type: 'dcim.location', scope_id: locations[1]!.id },
      ];
      const auth = [
        ['open', 'auto'],
        ['wep', 'tkip'],
        ['wpa-personal', 'aes'],
      ];
      const wlans = await createEach(
        api,
        '/api/wireless/wireless-lans/',
        [0, 1, 2].map((i) => ({
          ssid: `WLAN${i + 1}`,
          group: groups[i]!.id,
          status: ['active', 'disabled', 'reserved'][i],
          vlan: vlans[i]!.id,
          tenant: tenants[i]!.id,
          auth_type: auth[i]![0],
          auth_cipher: auth[i]![1],
          auth_psk: `PSK${i + 1}`,
          description: `foobar${i + 1}`,
          ...scopes[i],
        })),
      );
      const device = await createTestDevice(api, 'Device 1', { site: sites[0]!.id });
      const interfaces = await createAll(
        api,
        '/api/dcim/interfaces/',
        [0, 1, 2].map((i) => ({
          device: device.id,
          name: `Interface ${i + 1}`,
          type: 'ieee802.11n',
          wireless_lans: [wlans[i]!.id],
        })),
      );
      return { groups, vlans, regions, siteGroups, sites, locations, tenants, interfaces };
    });
    changeLoggedTests(suite);

    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_ssid', async () => {
      expect(await suite.count({ ssid: ['WLAN1', 'WLAN2'] })).toBe(2);
    });
    it('test_group', async () => {
      const [a, b] = suite.data.groups;
      expect(await suite.count({ group_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ group: [a!.slug, b!.slug] })).toBe(2);
    });
    it('test_status', async () => {
      expect(await suite.count({ status: ['active', 'disabled'] })).toBe(2);
    });
    it('test_vlan', async () => {
      const [a, b] = suite.data.vlans;
      expect(await suite.count({ vlan_id: [a!.id, b!.id] })).toBe(2);
    });
    it('test_auth_type', async () => {
      expect(await suite.count({ auth_type: ['open', 'wep'] })).toBe(2);
    });
    it('test_auth_cipher', async () => {
      expect(await suite.count({ auth_cipher: ['auto', 'tkip'] })).toBe(2);
    });
    it('test_auth_psk', async () => {
      expect(await suite.count({ auth_psk: ['PSK1', 'PSK2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_tenant', async () => {
      const [a, b] = suite.data.tenants;
      expect(await suite.count({ tenant_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ tenant: [a!.slug, b!.slug] })).toBe(2);
    });
    it('test_interface', async () => {
      const [a, b] = suite.data.interfaces;
      expect(await suite.count({ interface_id: [a!.id, b!.id] })).toBe(2);
    });
    it('test_region', async () => {
      const [a, b] = suite.data.regions;
      expect(await suite.count({ region_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ region: [a!.slug, b!.slug] })).toBe(2);
    });
    it('test_site_group', async () => {
      const [a, b] = suite.data.siteGroups;
      expect(await suite.count({ site_group_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ site_group: [a!.slug, b!.slug] })).toBe(2);
    });
    it('test_site', async () => {
      const [a, b] = suite.data.sites;
      expect(await suite.count({ site_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ site: [a!.slug, b!.slug] })).toBe(2);
    });
    it('test_location', async () => {
      const [a] = suite.data.locations;
      expect(await suite.count({ location_id: [a!.id] })).toBe(1);
      expect(await suite.count({ location: [a!.slug] })).toBe(1);
    });
    it('test_scope_type', async () => {
      expect(await suite.count({ scope_type: ['dcim.location'] })).toBe(2);
    });
  });

  describe('WirelessLinkTestCase', () => {
    const suite = filterSetSuite(shared, 'wireless.wirelesslink', async (api) => {
      const tenants = await createAll(
        api,
        '/api/tenancy/tenants/',
        [1, 2, 3].map((i) => ({ name: `Tenant ${i}`, slug: `tenant-${i}` })),
      );
      const devices: Row[] = [];
      for (const i of [1, 2, 3, 4]) devices.push(await createTestDevice(api, `device${i}`));
      const interfaces = await createAll(
        api,
        '/api/dcim/interfaces/',
        [0, 0, 1, 1, 2, 2, 3, 3].map((d, i) => ({
          device: devices[d]!.id,
          name: `Interface ${i + 1}`,
          type: 'ieee802.11ac',
        })),
      );
      const ends = (a: number, b: number) => ({ interface_a: interfaces[a]!.id, interface_b: interfaces[b]!.id });
      await createEach(api, '/api/wireless/wireless-links/', [
        {
          ...ends(0, 2),
          ssid: 'LINK1',
          status: 'connected',
          auth_type: 'open',
          auth_cipher: 'auto',
          auth_psk: 'PSK1',
          tenant: tenants[0]!.id,
          distance: 10,
          distance_unit: 'ft',
          description: 'foobar1',
        },
        {
          ...ends(1, 3),
          ssid: 'LINK2',
          status: 'planned',
          auth_type: 'wep',
          auth_cipher: 'tkip',
          auth_psk: 'PSK2',
          tenant: tenants[1]!.id,
          distance: 20,
          distance_unit: 'm',
          description: 'foobar2',
        },
        {
          ...ends(4, 6),
          ssid: 'LINK3',
          status: 'decommissioning',
          auth_type: 'wpa-personal',
          auth_cipher: 'aes',
          auth_psk: 'PSK3',
          distance: 30,
          distance_unit: 'm',
          tenant: tenants[2]!.id,
        },
        { ...ends(5, 7), ssid: 'LINK4' },
      ]);
      return { tenants };
    });
    changeLoggedTests(suite);

    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_ssid', async () => {
      expect(await suite.count({ ssid: ['LINK1', 'LINK2'] })).toBe(2);
    });
    it('test_status', async () => {
      expect(await suite.count({ status: ['planned', 'decommissioning'] })).toBe(2);
    });
    it('test_auth_type', async () => {
      expect(await suite.count({ auth_type: ['open', 'wep'] })).toBe(2);
    });
    it('test_auth_cipher', async () => {
      expect(await suite.count({ auth_cipher: ['auto', 'tkip'] })).toBe(2);
    });
    it('test_auth_psk', async () => {
      expect(await suite.count({ auth_psk: ['PSK1', 'PSK2'] })).toBe(2);
    });
    it('test_distance', async () => {
      expect(await suite.count({ distance: [10, 20] })).toBe(2);
    });
    it('test_distance_unit', async () => {
      expect(await suite.count({ distance_unit: 'ft' })).toBe(1);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_tenant', async () => {
      const [a, b] = suite.data.tenants;
      expect(await suite.count({ tenant_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ tenant: [a!.slug, b!.slug] })).toBe(2);
    });
  });
});
