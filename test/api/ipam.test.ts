import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import { ApiClient } from '../support/client.js';

/**
 * IPAM as a network engineer uses it: addresses and prefixes parsed and normalised, the prefix hierarchy per
 * VRF, network filters, numeric (not textual) ordering, uniqueness per VRF, interface assignment through the
 * generic relation, NAT, VLANs and VLAN groups, and the counts and displays of the supporting models.
 */
describe.each(DIALECTS)('IPAM on %s', (dialect) => {
  let app: TestApp;
  /**
   * A client without the OpenAPI check, only for responses the document gets wrong (each has a failing test
   * below): VRFs with route targets, region/site-group scopes, devices with a primary IP.
   */
  let unchecked: ApiClient;
  /** Ids of the objects the suite shares. */
  const id = {} as Record<
    | 'europe'
    | 'france'
    | 'metro'
    | 'paris'
    | 'lyon'
    | 'tokyo'
    | 'floor'
    | 'rtShared'
    | 'rtOther'
    | 'blue'
    | 'green'
    | 'red'
    | 'router1'
    | 'router2'
    | 'eth0'
    | 'eth1'
    | 'ge0'
    | 'vm'
    | 'vnic0',
    number
  >;

  const create = async (path: string, body: Record<string, unknown>): Promise<Record<string, any>> => {
    const response = await app.api.post(path, body);
    expect(response.status, response.text).toBe(201);
    return response.body;
  };
  /** The body of a write that must fail with 400. */
  const rejected = async (method: 'post' | 'patch', path: string, body: unknown): Promise<any> => {
    const response = await app.api[method](path, body);
    expect(response.status, response.text).toBe(400);
    return response.body;
  };
  const list = async (path: string): Promise<Record<string, any>[]> => {
    const response = await app.api.get(path);
    expect(response.status, response.text).toBe(200);
    return response.body.results;
  };
  /** The prefixes a query returns, in order, as "<prefix> <VRF name or global>". */
  const prefixes = async (query: string): Promise<string[]> =>
    (await list(`/api/ipam/prefixes/?limit=0&${query}`)).map((p) => `${p.prefix} ${p.vrf?.name ?? 'global'}`);
  /** The addresses a query returns, in order, as "<address> <VRF name or global>". */
  const addresses = async (query: string): Promise<string[]> =>
    (await list(`/api/ipam/ip-addresses/?limit=0&${query}`)).map((a) => `${a.address} ${a.vrf?.name ?? 'global'}`);

  beforeAll(async () => {
    app = await startTestApp(dialect);
    unchecked = new ApiClient(app.baseUrl, app.adminAuth, null);
    // Places: Europe > France > {Paris, Lyon}; Tokyo has no region; Lyon is in the "metro" site group.
    id.europe = (await create('/api/dcim/regions/', { name: 'Europe', slug: 'europe' })).id;
    id.france = (await create('/api/dcim/regions/', { name: 'France', slug: 'france', parent: id.europe })).id;
    id.metro = (await create('/api/dcim/site-groups/', { name: 'Metro', slug: 'metro' })).id;
    id.paris = (await create('/api/dcim/sites/', { name: 'Paris', slug: 'paris', region: id.france })).id;
    id.lyon = (await create('/api/dcim/sites/', { name: 'Lyon', slug: 'lyon', region: id.france, group: id.metro })).id;
    id.tokyo = (await create('/api/dcim/sites/', { name: 'Tokyo', slug: 'tokyo' })).id;
    id.floor = (await create('/api/dcim/locations/', { name: 'Floor 1', slug: 'floor-1', site: id.paris })).id;

    // VRFs (created in name order): Blue imports the route target that Green exports.
    id.rtShared = (await create('/api/ipam/route-targets/', { name: '65000:100' })).id;
    id.rtOther = (await create('/api/ipam/route-targets/', { name: '65000:200' })).id;
    const withTargets = async (body: Record<string, unknown>): Promise<number> => {
      const response = await app.api.post('/api/ipam/vrfs/', body);
      expect(response.status, response.text).toBe(201);
      return response.body.id;
    };
    id.blue = await withTargets({ name: 'Blue', rd: '65000:1', import_targets: [id.rtShared, id.rtOther] });
    id.green = await withTargets({
      name: 'Green',
      rd: '65000:2',
      enforce_unique: false,
      export_targets: [id.rtShared],
    });
    id.red = (await create('/api/ipam/vrfs/', { name: 'Red' })).id;

    // A prefix tree, globally and in VRFs; described "tree" so that other tests' prefixes stay out of it.
    const tree: [string, number | null][] = [
      ['10.0.0.0/8', null],
      ['10.1.0.0/16', null],
      ['10.1.1.0/24', null],
      ['10.1.1.128/25', null],
      ['10.2.0.0/16', null],
      ['9.0.0.0/8', null],
      ['100.64.0.0/10', null],
      ['2001:db8::/32', null],
      ['2001:db8:1::/48', null],
      ['2001:db8:1:1::/64', null],
      ['10.0.0.0/8', id.blue],
      ['10.1.1.0/24', id.blue],
      ['10.1.0.0/16', id.green],
      ['10.1.0.0/16', id.green],
      ['10.1.2.0/24', id.green],
      ['172.16.0.0/12', id.red],
    ];
    const created = await app.api.post(
      '/api/ipam/prefixes/',
      tree.map(([prefix, vrf]) => ({ prefix, vrf, description: 'tree' })),
    );
    expect(created.status, created.text).toBe(201);

    // A router with two interfaces, a second router, and a VM with one interface.
    const manufacturer = await create('/api/dcim/manufacturers/', { name: 'Acme', slug: 'acme' });
    const type = await create('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'R1', slug: 'r1' });
    const role = await create('/api/dcim/device-roles/', { name: 'Router', slug: 'router', color: 'ff0000' });
    const device = (name: string) =>
      create('/api/dcim/devices/', { name, device_type: type.id, role: role.id, site: id.paris });
    id.router1 = (await device('router1')).id;
    id.router2 = (await device('router2')).id;
    const iface = (device: number, name: string) =>
      create('/api/dcim/interfaces/', { device, name, type: '1000base-t' });
    id.eth0 = (await iface(id.router1, 'eth0')).id;
    id.eth1 = (await iface(id.router1, 'eth1')).id;
    id.ge0 = (await iface(id.router2, 'ge0')).id;
    const clusterType = await create('/api/virtualization/cluster-types/', { name: 'KVM', slug: 'kvm' });
    const cluster = await create('/api/virtualization/clusters/', { name: 'C1', type: clusterType.id });
    id.vm = (await create('/api/virtualization/virtual-machines/', { name: 'vm1', cluster: cluster.id })).id;
    id.vnic0 = (await create('/api/virtualization/interfaces/', { virtual_machine: id.vm, name: 'vnic0' })).id;
  });
  afterAll(async () => app?.close());

  describe('parsing and normalisation', () => {
    it('stores prefixes as canonical CIDR networks with their family', async () => {
      const v6 = await create('/api/ipam/prefixes/', { prefix: '3FFF:ABCD:0000::/48' });
      expect(v6).toMatchObject({
        prefix: '3fff:abcd::/48',
        display: '3fff:abcd::/48',
        family: { value: 6, label: 'IPv6' },
        vrf: null,
        status: { value: 'active', label: 'Active' },
        children: 0,
        _depth: 0,
      });
      const v4 = await create('/api/ipam/prefixes/', { prefix: ' 198.18.0.0/15 ' });
      expect(v4).toMatchObject({ prefix: '198.18.0.0/15', family: { value: 4, label: 'IPv4' } });
      const brief = (await app.api.get(`/api/ipam/prefixes/${v4.id}/?brief=1`)).body;
      expect(brief).toEqual({
        id: v4.id,
        url: `${app.baseUrl}/api/ipam/prefixes/${v4.id}/`,
        display: '198.18.0.0/15',
        family: { value: 4, label: 'IPv4' },
        prefix: '198.18.0.0/15',
        description: '',
        _depth: 0,
      });
      const patched = await app.api.patch(`/api/ipam/prefixes/${v6.id}/`, { prefix: '3FFF:ABCD:0001:0::/64' });
      expect(patched.body).toMatchObject({ prefix: '3fff:abcd:1::/64', display: '3fff:abcd:1::/64' });
      const mask = await create('/api/ipam/prefixes/', { prefix: '198.51.100.0/255.255.255.128' });
      expect(mask.prefix).toBe('198.51.100.0/25');
    });

    it('refuses host bits, /0 and text that is not a network, with NetBox messages', async () => {
      expect(await rejected('post', '/api/ipam/prefixes/', { prefix: '192.0.2.1/24' })).toEqual({
        prefix: ['192.0.2.1/24 is not a valid prefix. Did you mean 192.0.2.0/24?'],
      });
      expect(await rejected('post', '/api/ipam/prefixes/', { prefix: '2001:db8::1/64' })).toEqual({
        prefix: ['2001:db8::1/64 is not a valid prefix. Did you mean 2001:db8::/64?'],
      });
      expect(await rejected('post', '/api/ipam/prefixes/', { prefix: '0.0.0.0/0' })).toEqual({
        prefix: ['Cannot create prefix with /0 mask.'],
      });
      expect(await rejected('post', '/api/ipam/prefixes/', { prefix: '::/0' })).toEqual({
        prefix: ['Cannot create prefix with /0 mask.'],
      });
      for (const bad of ['192.0.2.0/33', '192.0.2/24', 'foo', '2001:db8::/129', '10.0.0.256/32']) {
        expect(await rejected('post', '/api/ipam/prefixes/', { prefix: bad })).toEqual({
          prefix: [`Invalid IP prefix format: ${bad}`],
        });
      }
      expect(await rejected('post', '/api/ipam/prefixes/', {})).toEqual({ prefix: ['This field is required.'] });
    });

    // Blocked in runtime/rest/parse-field.ts (ip_network): the message repeats the input as written, where
    // NetBox prints the parsed network (str(IPNetwork)) in canonical form.
    it.fails('names a prefix with host bits in canonical form', async () => {
      expect(await rejected('post', '/api/ipam/prefixes/', { prefix: '2001:DB8:0::1/64' })).toEqual({
        prefix: ['2001:db8::1/64 is not a valid prefix. Did you mean 2001:db8::/64?'],
      });
    });

    it('stores addresses with their mask (host mask when missing) in canonical form', async () => {
      const bare = await create('/api/ipam/ip-addresses/', { address: '198.18.5.1' });
      expect(bare).toMatchObject({
        address: '198.18.5.1/32',
        display: '198.18.5.1/32',
        family: { value: 4, label: 'IPv4' },
        status: { value: 'active', label: 'Active' },
        role: null,
        assigned_object_type: null,
        assigned_object_id: null,
        assigned_object: null,
        nat_inside: null,
        nat_outside: [],
      });
      const v6 = await create('/api/ipam/ip-addresses/', { address: '2001:DB8:0:0:0:0:0:0001/64' });
      expect(v6).toMatchObject({ address: '2001:db8::1/64', family: { value: 6, label: 'IPv6' } });
      const host = await create('/api/ipam/ip-addresses/', { address: '2001:db8:5::7' });
      expect(host.address).toBe('2001:db8:5::7/128');
      const mapped = await create('/api/ipam/ip-addresses/', { address: '::FFFF:C612:0509/128' });
      expect(mapped.address).toBe('::ffff:198.18.5.9/128');
      // Host bits are what an address is for.
      const withHost = await create('/api/ipam/ip-addresses/', {
        address: '198.18.6.77/24',
        dns_name: 'Host.Example.COM',
      });
      expect(withHost).toMatchObject({ address: '198.18.6.77/24', dns_name: 'host.example.com' });
      expect((await app.api.get(`/api/ipam/ip-addresses/${withHost.id}/?brief=true`)).body).toEqual({
        id: withHost.id,
        url: `${app.baseUrl}/api/ipam/ip-addresses/${withHost.id}/`,
        display: '198.18.6.77/24',
        family: { value: 4, label: 'IPv4' },
        address: '198.18.6.77/24',
        description: '',
      });
    });

    it('refuses /0, bad text, bad DNS names and SLAAC on IPv4', async () => {
      expect(await rejected('post', '/api/ipam/ip-addresses/', { address: '198.18.7.1/0' })).toEqual({
        address: ['Cannot create IP address with /0 mask.'],
      });
      for (const bad of ['198.18.7.300', 'router1', '198.18.7.1/40', '2001:db8:::1']) {
        expect(await rejected('post', '/api/ipam/ip-addresses/', { address: bad })).toEqual({
          address: [`Invalid IP address format: ${bad}`],
        });
      }
      expect(await rejected('post', '/api/ipam/ip-addresses/', { address: '198.18.7.2/24', dns_name: 'a b' })).toEqual({
        dns_name: [
          'Only alphanumeric characters, asterisks, hyphens, periods, and underscores are allowed in DNS names',
        ],
      });
      expect(await rejected('post', '/api/ipam/ip-addresses/', { address: '198.18.7.3/24', status: 'slaac' })).toEqual({
        status: ['Only IPv6 addresses can be assigned SLAAC status'],
      });
      expect(
        (await create('/api/ipam/ip-addresses/', { address: '2001:db8:7::3/64', status: 'slaac' })).status,
      ).toEqual({
        value: 'slaac',
        label: 'SLAAC',
      });
    });
  });

  describe('the prefix hierarchy', () => {
    it('counts children and depth within the same VRF, the global table apart', async () => {
      const rows = await list('/api/ipam/prefixes/?limit=0&description=tree&fields=prefix,vrf,children,_depth');
      const summary = rows.map((p) => [p.prefix, p.vrf?.name ?? 'global', p.children, p._depth]);
      expect(summary).toEqual([
        ['9.0.0.0/8', 'global', 0, 0],
        ['10.0.0.0/8', 'global', 4, 0],
        ['10.1.0.0/16', 'global', 2, 1],
        ['10.1.1.0/24', 'global', 1, 2],
        ['10.1.1.128/25', 'global', 0, 3],
        ['10.2.0.0/16', 'global', 0, 1],
        ['100.64.0.0/10', 'global', 0, 0],
        ['2001:db8::/32', 'global', 2, 0],
        ['2001:db8:1::/48', 'global', 1, 1],
        ['2001:db8:1:1::/64', 'global', 0, 2],
        ['10.0.0.0/8', 'Blue', 1, 0],
        ['10.1.1.0/24', 'Blue', 0, 1],
        // Duplicates (allowed in Green) are each other's equals, not parents; depth counts distinct parents.
        ['10.1.0.0/16', 'Green', 1, 0],
        ['10.1.0.0/16', 'Green', 1, 0],
        ['10.1.2.0/24', 'Green', 0, 1],
        ['172.16.0.0/12', 'Red', 0, 0],
      ]);
    });

    it('recomputes relatives when prefixes come, move and go', async () => {
      const top = await create('/api/ipam/prefixes/', { prefix: '10.0.0.0/8', vrf: id.green, description: 'moving' });
      const depths = async (): Promise<string[]> =>
        (await list(`/api/ipam/prefixes/?limit=0&vrf_id=${id.green}&fields=prefix,children,_depth`)).map(
          (p) => `${p.prefix} ${p.children}/${p._depth}`,
        );
      // Every row inside counts as a child (duplicates too); parents count once however often they appear.
      expect(await depths()).toEqual(['10.0.0.0/8 3/0', '10.1.0.0/16 1/1', '10.1.0.0/16 1/1', '10.1.2.0/24 0/2']);
      await app.api.patch(`/api/ipam/prefixes/${top.id}/`, { prefix: '10.1.2.0/23' });
      expect(await depths()).toEqual(['10.1.0.0/16 2/0', '10.1.0.0/16 2/0', '10.1.2.0/23 1/1', '10.1.2.0/24 0/2']);
      await app.api.patch(`/api/ipam/prefixes/${top.id}/`, { vrf: id.red });
      expect(await depths()).toEqual(['10.1.0.0/16 1/0', '10.1.0.0/16 1/0', '10.1.2.0/24 0/1']);
      expect((await app.api.delete(`/api/ipam/prefixes/${top.id}/`)).status).toBe(204);
      const brief = (await app.api.get(`/api/ipam/prefixes/?brief=1&vrf_id=${id.green}`)).body.results;
      expect(brief.map((p: any) => p._depth)).toEqual([0, 0, 1]);
    });
  });

  describe('prefix filters', () => {
    const tree = 'description=tree';

    it('within, within_include and contains (address or network), across VRFs', async () => {
      expect(await prefixes(`${tree}&within=10.0.0.0/8`)).toEqual([
        '10.1.0.0/16 global',
        '10.1.1.0/24 global',
        '10.1.1.128/25 global',
        '10.2.0.0/16 global',
        '10.1.1.0/24 Blue',
        '10.1.0.0/16 Green',
        '10.1.0.0/16 Green',
        '10.1.2.0/24 Green',
      ]);
      expect(await prefixes(`${tree}&within_include=10.1.0.0/16&vrf_id=null`)).toEqual([
        '10.1.0.0/16 global',
        '10.1.1.0/24 global',
        '10.1.1.128/25 global',
      ]);
      expect(await prefixes(`${tree}&contains=10.1.1.200`)).toEqual([
        '10.0.0.0/8 global',
        '10.1.0.0/16 global',
        '10.1.1.0/24 global',
        '10.1.1.128/25 global',
        '10.0.0.0/8 Blue',
        '10.1.1.0/24 Blue',
        '10.1.0.0/16 Green',
        '10.1.0.0/16 Green',
      ]);
      expect(await prefixes(`${tree}&contains=10.1.1.0/24&vrf_id=null`)).toEqual([
        '10.0.0.0/8 global',
        '10.1.0.0/16 global',
        '10.1.1.0/24 global',
      ]);
      expect(await prefixes(`${tree}&contains=2001:db8:1:1::99`)).toEqual([
        '2001:db8::/32 global',
        '2001:db8:1::/48 global',
        '2001:db8:1:1::/64 global',
      ]);
      // Repeated values are OR-ed; a value that is no network matches nothing.
      expect(await prefixes(`${tree}&within=10.1.1.0/24&within=2001:db8:1::/48`)).toEqual([
        '10.1.1.128/25 global',
        '2001:db8:1:1::/64 global',
      ]);
      expect(await prefixes(`${tree}&within=nonsense`)).toEqual([]);
      expect(await prefixes(`${tree}&within=10.0.0.0/8&within=nonsense&vrf_id=${id.blue}`)).toEqual([
        '10.1.1.0/24 Blue',
      ]);
    });

    it('family and mask_length with __gte/__lte', async () => {
      expect(await prefixes(`${tree}&family=6`)).toEqual([
        '2001:db8::/32 global',
        '2001:db8:1::/48 global',
        '2001:db8:1:1::/64 global',
      ]);
      expect((await prefixes(`${tree}&family=4`)).length).toBe(13);
      expect(await prefixes(`${tree}&mask_length=16`)).toEqual([
        '10.1.0.0/16 global',
        '10.2.0.0/16 global',
        '10.1.0.0/16 Green',
        '10.1.0.0/16 Green',
      ]);
      expect(await prefixes(`${tree}&family=4&mask_length__gte=24`)).toEqual([
        '10.1.1.0/24 global',
        '10.1.1.128/25 global',
        '10.1.1.0/24 Blue',
        '10.1.2.0/24 Green',
      ]);
      expect(await prefixes(`${tree}&family=4&mask_length__lte=8`)).toEqual([
        '9.0.0.0/8 global',
        '10.0.0.0/8 global',
        '10.0.0.0/8 Blue',
      ]);
      expect(await prefixes(`${tree}&mask_length=8&mask_length=48`)).toEqual([
        '9.0.0.0/8 global',
        '10.0.0.0/8 global',
        '2001:db8:1::/48 global',
        '10.0.0.0/8 Blue',
      ]);
      const bad = await app.api.get('/api/ipam/prefixes/?mask_length=x');
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ mask_length: ['Enter a whole number.'] });
    });

    it('vrf_id, vrf (RD), the global table, and present_in_vrf_id through route targets', async () => {
      expect(await prefixes(`${tree}&vrf_id=${id.blue}`)).toEqual(['10.0.0.0/8 Blue', '10.1.1.0/24 Blue']);
      expect(await prefixes(`${tree}&vrf=65000:2`)).toEqual([
        '10.1.0.0/16 Green',
        '10.1.0.0/16 Green',
        '10.1.2.0/24 Green',
      ]);
      expect((await prefixes(`${tree}&vrf_id=null`)).length).toBe(10);
      expect(await prefixes(`${tree}&vrf_id=null&vrf_id=${id.red}&family=4&mask_length__lte=12`)).toEqual([
        '9.0.0.0/8 global',
        '10.0.0.0/8 global',
        '100.64.0.0/10 global',
        '172.16.0.0/12 Red',
      ]);
      expect(await prefixes(`${tree}&present_in_vrf_id=${id.blue}`)).toEqual([
        '10.0.0.0/8 Blue',
        '10.1.1.0/24 Blue',
        '10.1.0.0/16 Green',
        '10.1.0.0/16 Green',
        '10.1.2.0/24 Green',
      ]);
      // Green imports nothing: only its own prefixes.
      expect(await prefixes(`${tree}&present_in_vrf_id=${id.green}`)).toEqual([
        '10.1.0.0/16 Green',
        '10.1.0.0/16 Green',
        '10.1.2.0/24 Green',
      ]);
      expect(await prefixes(`${tree}&present_in_vrf=65000:1`)).toEqual(
        await prefixes(`${tree}&present_in_vrf_id=${id.blue}`),
      );
      const unknown = await app.api.get('/api/ipam/prefixes/?vrf=65000:99');
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ vrf: ['Select a valid choice. 65000:99 is not one of the available choices.'] });
      expect((await app.api.get('/api/ipam/prefixes/?present_in_vrf_id=x')).status).toBe(400);
    });

    it('q matches the description, the prefix text, and the prefixes that contain an address', async () => {
      expect(await prefixes(`${tree}&q=10.1.1`)).toEqual([
        '10.1.1.0/24 global',
        '10.1.1.128/25 global',
        '10.1.1.0/24 Blue',
      ]);
      expect(await prefixes(`${tree}&q=10.1.1.200`)).toEqual([
        '10.0.0.0/8 global',
        '10.1.0.0/16 global',
        '10.1.1.0/24 global',
        '10.1.1.128/25 global',
        '10.0.0.0/8 Blue',
        '10.1.1.0/24 Blue',
        '10.1.0.0/16 Green',
        '10.1.0.0/16 Green',
      ]);
      expect(await prefixes(`${tree}&q=2001:DB8:1::/48`)).toEqual(['2001:db8::/32 global', '2001:db8:1::/48 global']);
      expect((await prefixes('q=TREE')).length).toBe(16);
      expect((await prefixes(`${tree}&q=%20`)).length).toBe(16);
    });
  });

  describe('ordering', () => {
    it('orders prefixes by VRF (global first), then by network value, not by text', async () => {
      expect(await prefixes('description=tree')).toEqual([
        '9.0.0.0/8 global',
        '10.0.0.0/8 global',
        '10.1.0.0/16 global',
        '10.1.1.0/24 global',
        '10.1.1.128/25 global',
        '10.2.0.0/16 global',
        '100.64.0.0/10 global',
        '2001:db8::/32 global',
        '2001:db8:1::/48 global',
        '2001:db8:1:1::/64 global',
        '10.0.0.0/8 Blue',
        '10.1.1.0/24 Blue',
        '10.1.0.0/16 Green',
        '10.1.0.0/16 Green',
        '10.1.2.0/24 Green',
        '172.16.0.0/12 Red',
      ]);
      expect(await prefixes('description=tree&vrf_id=null&ordering=-prefix')).toEqual([
        '2001:db8:1:1::/64 global',
        '2001:db8:1::/48 global',
        '2001:db8::/32 global',
        '100.64.0.0/10 global',
        '10.2.0.0/16 global',
        '10.1.1.128/25 global',
        '10.1.1.0/24 global',
        '10.1.0.0/16 global',
        '10.0.0.0/8 global',
        '9.0.0.0/8 global',
      ]);
      // A shorter mask comes first for the same network.
      expect(await prefixes('description=tree&ordering=prefix&within_include=10.1.0.0/16')).toEqual([
        '10.1.0.0/16 global',
        '10.1.0.0/16 Green',
        '10.1.0.0/16 Green',
        '10.1.1.0/24 global',
        '10.1.1.0/24 Blue',
        '10.1.1.128/25 global',
        '10.1.2.0/24 Green',
      ]);
    });

    it('orders addresses by value across VRFs, IPv4 before IPv6', async () => {
      const bodies = [
        { address: '172.20.1.10/24' },
        { address: '172.20.1.9/24' },
        { address: '172.20.1.1/24', vrf: id.blue },
        { address: '172.20.1.1/24' },
        { address: '172.20.1.129/25' },
        { address: '172.3.0.1/16' },
        { address: '172.100.0.1/16' },
        { address: '2001:db8:20::1/64' },
        { address: '2001:db8:20::a/64' },
        { address: '2001:db8:20::9/64' },
      ].map((b) => ({ ...b, description: 'ordering' }));
      expect((await app.api.post('/api/ipam/ip-addresses/', bodies)).status).toBe(201);
      const expected = [
        '172.3.0.1/16 global',
        '172.20.1.1/24 Blue',
        '172.20.1.1/24 global',
        '172.20.1.9/24 global',
        '172.20.1.10/24 global',
        '172.20.1.129/25 global',
        '172.100.0.1/16 global',
        '2001:db8:20::1/64 global',
        '2001:db8:20::9/64 global',
        '2001:db8:20::a/64 global',
      ];
      expect(await addresses('description=ordering')).toEqual(expected);
      // Descending by address; equal addresses stay in id order.
      expect(await addresses('description=ordering&ordering=-address')).toEqual([
        '2001:db8:20::a/64 global',
        '2001:db8:20::9/64 global',
        '2001:db8:20::1/64 global',
        '172.100.0.1/16 global',
        '172.20.1.129/25 global',
        '172.20.1.10/24 global',
        '172.20.1.9/24 global',
        '172.20.1.1/24 Blue',
        '172.20.1.1/24 global',
        '172.3.0.1/16 global',
      ]);
    });

    it('orders addresses of one network like PostgreSQL inet: the shorter mask first', async () => {
      const bodies = ['172.21.0.200/24', '172.21.0.129/25', '172.21.0.5/32', '172.21.0.7/24'].map((address) => ({
        address,
        description: 'masks',
      }));
      expect((await app.api.post('/api/ipam/ip-addresses/', bodies)).status).toBe(201);
      expect(await addresses('description=masks')).toEqual([
        '172.21.0.7/24 global',
        '172.21.0.200/24 global',
        '172.21.0.5/32 global',
        '172.21.0.129/25 global',
      ]);
    });
  });

  describe('uniqueness', () => {
    it('refuses duplicate prefixes in the global table and in enforcing VRFs only', async () => {
      expect(await rejected('post', '/api/ipam/prefixes/', { prefix: '10.1.0.0/16' })).toEqual({
        prefix: ['Duplicate prefix found in global table: 10.1.0.0/16'],
      });
      expect(await rejected('post', '/api/ipam/prefixes/', { prefix: '10.1.1.0/24', vrf: id.blue })).toEqual({
        prefix: ['Duplicate prefix found in VRF Blue (65000:1): 10.1.1.0/24'],
      });
      // The same network written differently is the same prefix.
      expect(await rejected('post', '/api/ipam/prefixes/', { prefix: '2001:0db8:0001::/48' })).toEqual({
        prefix: ['Duplicate prefix found in global table: 2001:db8:1::/48'],
      });
      const unique = await create('/api/ipam/prefixes/', { prefix: '10.1.3.0/24', vrf: id.blue });
      const moved = await rejected('patch', `/api/ipam/prefixes/${unique.id}/`, { prefix: '10.1.1.0/24' });
      expect(moved).toEqual({ prefix: ['Duplicate prefix found in VRF Blue (65000:1): 10.1.1.0/24'] });
      // Saving a prefix unchanged is not a duplicate of itself.
      expect((await app.api.patch(`/api/ipam/prefixes/${unique.id}/`, { description: 'x' })).status).toBe(200);
      const red = await create('/api/ipam/vrfs/', { name: 'Strict' });
      await create('/api/ipam/prefixes/', { prefix: '10.9.0.0/16', vrf: red.id });
      expect(await rejected('post', '/api/ipam/prefixes/', { prefix: '10.9.0.0/16', vrf: red.id })).toEqual({
        prefix: ['Duplicate prefix found in VRF Strict: 10.9.0.0/16'],
      });
      await create('/api/ipam/prefixes/', { prefix: '10.1.2.0/24', vrf: id.green });
    });

    it('refuses duplicate hosts (any mask) unless every copy has an anycast-like role', async () => {
      await create('/api/ipam/ip-addresses/', { address: '172.22.0.1/24' });
      expect(await rejected('post', '/api/ipam/ip-addresses/', { address: '172.22.0.1/32' })).toEqual({
        address: ['Duplicate IP address found in global table: 172.22.0.1/24'],
      });
      expect(await rejected('post', '/api/ipam/ip-addresses/', { address: '172.22.0.1/24', role: 'anycast' })).toEqual({
        address: ['Duplicate IP address found in global table: 172.22.0.1/24'],
      });
      await create('/api/ipam/ip-addresses/', { address: '172.22.0.1/24', vrf: id.green });
      await create('/api/ipam/ip-addresses/', { address: '172.22.0.1/24', vrf: id.green });
      await create('/api/ipam/ip-addresses/', { address: '172.22.0.1/24', vrf: id.blue });
      expect(await rejected('post', '/api/ipam/ip-addresses/', { address: '172.22.0.1/26', vrf: id.blue })).toEqual({
        address: ['Duplicate IP address found in VRF Blue (65000:1): 172.22.0.1/24'],
      });

      await create('/api/ipam/ip-addresses/', { address: '172.22.0.53/24', role: 'anycast' });
      await create('/api/ipam/ip-addresses/', { address: '172.22.0.53/24', role: 'anycast' });
      await create('/api/ipam/ip-addresses/', { address: '172.22.0.53/24', role: 'vip' });
      expect(await rejected('post', '/api/ipam/ip-addresses/', { address: '172.22.0.53/24' })).toEqual({
        address: ['Duplicate IP address found in global table: 172.22.0.53/24'],
      });
      expect(
        await rejected('post', '/api/ipam/ip-addresses/', { address: '172.22.0.53/24', role: 'loopback' }),
      ).toHaveProperty('address');
      expect((await app.api.get('/api/ipam/ip-addresses/?address=172.22.0.53')).body.count).toBe(3);
    });

    it('lets ENFORCE_GLOBAL_UNIQUE=false allow duplicates in the global table', async () => {
      const relaxed = await startTestApp(dialect, { settings: { ENFORCE_GLOBAL_UNIQUE: false } });
      try {
        for (let i = 0; i < 2; i += 1) {
          expect((await relaxed.api.post('/api/ipam/prefixes/', { prefix: '10.0.0.0/8' })).status).toBe(201);
          expect((await relaxed.api.post('/api/ipam/ip-addresses/', { address: '10.0.0.1/8' })).status).toBe(201);
        }
        const vrf = (await relaxed.api.post('/api/ipam/vrfs/', { name: 'V' })).body;
        await relaxed.api.post('/api/ipam/prefixes/', { prefix: '10.0.0.0/8', vrf: vrf.id });
        const duplicate = await relaxed.api.post('/api/ipam/prefixes/', { prefix: '10.0.0.0/8', vrf: vrf.id });
        expect(duplicate.body).toEqual({ prefix: ['Duplicate prefix found in VRF V: 10.0.0.0/8'] });
      } finally {
        await relaxed.close();
      }
    });
  });

  describe('assignment to interfaces', () => {
    it('assigns to a device interface and a VM interface through the generic relation', async () => {
      const ip = await create('/api/ipam/ip-addresses/', {
        address: '192.0.2.1/24',
        assigned_object_type: 'dcim.interface',
        assigned_object_id: id.eth0,
      });
      expect(ip.assigned_object_type).toBe('dcim.interface');
      expect(ip.assigned_object_id).toBe(id.eth0);
      expect(ip.assigned_object).toEqual({
        id: id.eth0,
        url: `${app.baseUrl}/api/dcim/interfaces/${id.eth0}/`,
        display: 'eth0',
        device: {
          id: id.router1,
          url: `${app.baseUrl}/api/dcim/devices/${id.router1}/`,
          display: 'router1',
          name: 'router1',
          description: '',
        },
        name: 'eth0',
        description: '',
        cable: null,
        _occupied: false,
      });
      const vmIp = await create('/api/ipam/ip-addresses/', {
        address: '2001:db8:30::1/64',
        assigned_object_type: 'virtualization.vminterface',
        assigned_object_id: id.vnic0,
      });
      expect(vmIp.assigned_object).toEqual({
        id: id.vnic0,
        url: `${app.baseUrl}/api/virtualization/interfaces/${id.vnic0}/`,
        display: 'vnic0',
        virtual_machine: {
          id: id.vm,
          url: `${app.baseUrl}/api/virtualization/virtual-machines/${id.vm}/`,
          display: 'vm1',
          name: 'vm1',
          description: '',
        },
        name: 'vnic0',
        description: '',
      });
      // Moving it to another interface, then releasing it.
      const moved = await app.api.patch(`/api/ipam/ip-addresses/${ip.id}/`, { assigned_object_id: id.eth1 });
      expect(moved.body.assigned_object).toMatchObject({ id: id.eth1, name: 'eth1' });
      const released = await app.api.patch(`/api/ipam/ip-addresses/${ip.id}/`, {
        assigned_object_type: null,
        assigned_object_id: null,
      });
      expect(released.body).toMatchObject({
        assigned_object_type: null,
        assigned_object_id: null,
        assigned_object: null,
      });
      const counts = (await app.api.get(`/api/virtualization/interfaces/${id.vnic0}/`)).body;
      expect(counts.count_ipaddresses).toBe(1);
    });

    it('names the faulty field of an incomplete or wrong generic relation', async () => {
      const body = { address: '192.0.2.50/24' };
      expect(
        await rejected('post', '/api/ipam/ip-addresses/', { ...body, assigned_object_type: 'dcim.interface' }),
      ).toEqual({
        assigned_object_id: ['This field cannot be null.'],
      });
      expect(await rejected('post', '/api/ipam/ip-addresses/', { ...body, assigned_object_id: id.eth0 })).toEqual({
        assigned_object_type: ['This field cannot be null.'],
      });
      expect(
        await rejected('post', '/api/ipam/ip-addresses/', {
          ...body,
          assigned_object_type: 'dcim.site',
          assigned_object_id: id.paris,
        }),
      ).toEqual({ assigned_object_type: ['Invalid content type: dcim.site'] });
      expect(
        await rejected('post', '/api/ipam/ip-addresses/', {
          ...body,
          assigned_object_type: 'interface',
          assigned_object_id: id.eth0,
        }),
      ).toEqual({ assigned_object_type: ["Invalid value. Specify a content type as '<app_label>.<model_name>'."] });
      expect(
        await rejected('post', '/api/ipam/ip-addresses/', {
          ...body,
          assigned_object_type: 'dcim.interface',
          assigned_object_id: 999999,
        }),
      ).toEqual({ assigned_object_id: ['Related object not found using the provided value: 999999.'] });
      expect(
        await rejected('post', '/api/ipam/ip-addresses/', {
          ...body,
          assigned_object_type: 'virtualization.vminterface',
          assigned_object_id: 999998,
        }),
      ).toEqual({ assigned_object_id: ['Related object not found using the provided value: 999998.'] });
      const existing = await create('/api/ipam/ip-addresses/', body);
      expect(
        await rejected('patch', `/api/ipam/ip-addresses/${existing.id}/`, { assigned_object_type: 'dcim.interface' }),
      ).toEqual({ assigned_object_id: ['This field cannot be null.'] });
    });

    it('refuses a network ID or broadcast address on an interface, except on point-to-point masks', async () => {
      const on = { assigned_object_type: 'dcim.interface', assigned_object_id: id.ge0 };
      expect(await rejected('post', '/api/ipam/ip-addresses/', { address: '192.0.2.128/25', ...on })).toEqual({
        __all__: ['192.0.2.128 is a network ID, which may not be assigned to an interface.'],
      });
      expect(await rejected('post', '/api/ipam/ip-addresses/', { address: '192.0.2.255/25', ...on })).toEqual({
        __all__: ['192.0.2.255 is a broadcast address, which may not be assigned to an interface.'],
      });
      expect(await rejected('post', '/api/ipam/ip-addresses/', { address: '2001:db8:31::/64', ...on })).toEqual({
        __all__: ['2001:db8:31:: is a network ID, which may not be assigned to an interface.'],
      });
      // Unassigned they are fine, and so are /31, /32, /127 and /128 on interfaces.
      const unassigned = await create('/api/ipam/ip-addresses/', { address: '192.0.2.192/26' });
      expect(await rejected('patch', `/api/ipam/ip-addresses/${unassigned.id}/`, { ...on })).toEqual({
        __all__: ['192.0.2.192 is a network ID, which may not be assigned to an interface.'],
      });
      for (const address of ['198.51.100.0/31', '198.51.100.1/31', '198.51.100.2/32', '2001:db8:32::/127']) {
        await create('/api/ipam/ip-addresses/', { address, ...on });
      }
      await create('/api/ipam/ip-addresses/', { address: '2001:db8:33::ffff:ffff:ffff:ffff/64', ...on });
    });

    it('filters addresses by device, interface, virtual machine, VM interface and assignment', async () => {
      const on = (type: string, object: number) => ({ assigned_object_type: type, assigned_object_id: object });
      const bodies = [
        { address: '203.0.113.1/24', ...on('dcim.interface', id.eth0) },
        { address: '203.0.113.2/24', ...on('dcim.interface', id.eth1) },
        { address: '203.0.113.3/24', ...on('dcim.interface', id.ge0) },
        { address: '203.0.113.4/24', ...on('virtualization.vminterface', id.vnic0) },
        { address: '203.0.113.5/24' },
      ].map((b) => ({ ...b, description: 'assigned' }));
      expect((await app.api.post('/api/ipam/ip-addresses/', bodies)).status).toBe(201);
      const hosts = async (query: string): Promise<string[]> =>
        (await list(`/api/ipam/ip-addresses/?description=assigned&${query}`)).map((a) => a.address);
      expect(await hosts(`device_id=${id.router1}`)).toEqual(['203.0.113.1/24', '203.0.113.2/24']);
      expect(await hosts(`device_id=${id.router1}&device_id=${id.router2}`)).toHaveLength(3);
      expect(await hosts(`interface_id=${id.eth1}`)).toEqual(['203.0.113.2/24']);
      expect(await hosts(`virtual_machine_id=${id.vm}`)).toEqual(['203.0.113.4/24']);
      expect(await hosts(`vminterface_id=${id.vnic0}`)).toEqual(['203.0.113.4/24']);
      // Device and VM interfaces are told apart by type, even when their ids are equal.
      expect(await hosts(`interface_id=${id.vnic0}`)).not.toContain('203.0.113.4/24');
      expect(await hosts(`vminterface_id=${id.eth0}`)).not.toContain('203.0.113.1/24');
      expect(await hosts('assigned=true')).toHaveLength(4);
      expect(await hosts('assigned=false')).toEqual(['203.0.113.5/24']);
      expect(await hosts('assigned_object_type=virtualization.vminterface')).toEqual(['203.0.113.4/24']);
      expect(await hosts(`assigned_object_id=${id.ge0}&assigned_object_type=dcim.interface`)).toEqual([
        '203.0.113.3/24',
      ]);
      expect((await app.api.get('/api/ipam/ip-addresses/?device_id=abc')).status).toBe(400);
      expect((await app.api.get('/api/ipam/ip-addresses/?assigned=maybe')).status).toBe(400);
    });

    it('keeps a primary address on its device', async () => {
      const ip = await create('/api/ipam/ip-addresses/', {
        address: '203.0.114.1/24',
        assigned_object_type: 'dcim.interface',
        assigned_object_id: id.eth0,
      });
      // Unchecked: the OpenAPI document says a device's `primary_ip` is always null, but it is rendered.
      const primary = await unchecked.patch(`/api/dcim/devices/${id.router1}/`, { primary_ip4: ip.id });
      expect(primary.status, primary.text).toBe(200);
      // Another interface of the same device is fine; another device is not.
      expect((await app.api.patch(`/api/ipam/ip-addresses/${ip.id}/`, { assigned_object_id: id.eth1 })).status).toBe(
        200,
      );
      const message = 'Cannot reassign IP address while it is designated as the primary IP for the parent object';
      expect(await rejected('patch', `/api/ipam/ip-addresses/${ip.id}/`, { assigned_object_id: id.ge0 })).toEqual({
        __all__: [message],
      });
      expect(
        await rejected('patch', `/api/ipam/ip-addresses/${ip.id}/`, {
          assigned_object_type: 'virtualization.vminterface',
          assigned_object_id: id.vnic0,
        }),
      ).toEqual({ __all__: [message] });
      expect(
        await rejected('patch', `/api/ipam/ip-addresses/${ip.id}/`, {
          assigned_object_type: null,
          assigned_object_id: null,
        }),
      ).toEqual({ __all__: [message] });
      const released = await unchecked.patch(`/api/dcim/devices/${id.router1}/`, { primary_ip4: null });
      expect(released.status, released.text).toBe(200);
      expect((await app.api.patch(`/api/ipam/ip-addresses/${ip.id}/`, { assigned_object_id: id.ge0 })).status).toBe(
        200,
      );
    });

    it('deletes the addresses of a deleted interface, and of a deleted device', async () => {
      const iface = await create('/api/dcim/interfaces/', { device: id.router2, name: 'tmp0', type: 'virtual' });
      const ip = await create('/api/ipam/ip-addresses/', {
        address: '198.51.100.77/24',
        assigned_object_type: 'dcim.interface',
        assigned_object_id: iface.id,
      });
      const other = await create('/api/ipam/ip-addresses/', { address: '198.51.100.78/24' });
      expect((await app.api.get(`/api/dcim/interfaces/${iface.id}/`)).body.count_ipaddresses).toBe(1);
      expect((await app.api.delete(`/api/dcim/interfaces/${iface.id}/`)).status).toBe(204);
      expect((await app.api.get(`/api/ipam/ip-addresses/${ip.id}/`)).status).toBe(404);
      expect((await app.api.get(`/api/ipam/ip-addresses/${other.id}/`)).status).toBe(200);

      const vnic = await create('/api/virtualization/interfaces/', { virtual_machine: id.vm, name: 'tmp-vnic' });
      const vmIp = await create('/api/ipam/ip-addresses/', {
        address: '198.51.100.79/24',
        assigned_object_type: 'virtualization.vminterface',
        assigned_object_id: vnic.id,
      });
      expect((await app.api.delete(`/api/virtualization/interfaces/${vnic.id}/`)).status).toBe(204);
      expect((await app.api.get(`/api/ipam/ip-addresses/${vmIp.id}/`)).status).toBe(404);

      const device = await doomedDevice('doomed1');
      const port = await create('/api/dcim/interfaces/', { device: device.id, name: 'e0', type: 'virtual' });
      const deviceIp = await create('/api/ipam/ip-addresses/', {
        address: '198.51.100.80/24',
        assigned_object_type: 'dcim.interface',
        assigned_object_id: port.id,
      });
      expect((await app.api.delete(`/api/dcim/devices/${device.id}/`)).status).toBe(204);
      expect((await app.api.get(`/api/ipam/ip-addresses/${deviceIp.id}/`)).status).toBe(404);
    });

    /** A device at Tokyo of the shared type and role. */
    const doomedDevice = async (name: string): Promise<Record<string, any>> => {
      const [type] = await list('/api/dcim/device-types/?slug=r1');
      const [role] = await list('/api/dcim/device-roles/?slug=router');
      return create('/api/dcim/devices/', { name, device_type: type!.id, role: role!.id, site: id.tokyo });
    };

    it('deletes a device whose primary address is on one of its interfaces', async () => {
      const device = await doomedDevice('doomed2');
      const port = await create('/api/dcim/interfaces/', { device: device.id, name: 'e0', type: 'virtual' });
      const deviceIp = await create('/api/ipam/ip-addresses/', {
        address: '198.51.100.81/24',
        assigned_object_type: 'dcim.interface',
        assigned_object_id: port.id,
      });
      // Unchecked: the OpenAPI document says a device's `primary_ip` is always null, but it is rendered.
      const primary = await unchecked.patch(`/api/dcim/devices/${device.id}/`, { primary_ip4: deviceIp.id });
      expect(primary.status, primary.text).toBe(200);
      const deleted = await app.api.delete(`/api/dcim/devices/${device.id}/`);
      expect(deleted.status, deleted.text).toBe(204);
      expect((await app.api.get(`/api/ipam/ip-addresses/${deviceIp.id}/`)).status).toBe(404);
    });
  });

  describe('address filters', () => {
    const mark = 'description=filters';
    beforeAll(async () => {
      const bodies = [
        { address: '172.30.1.1/24' },
        { address: '172.30.1.10/24' },
        { address: '172.30.1.10/32', vrf: id.blue },
        { address: '172.30.2.1/23' },
        { address: '172.30.9.1/16', vrf: id.green },
        { address: '2001:db8:40::1/64' },
        { address: '2001:db8:40::1/128', vrf: id.blue },
      ].map((b) => ({ ...b, description: 'filters' }));
      const created = await app.api.post('/api/ipam/ip-addresses/', bodies);
      expect(created.status, created.text).toBe(201);
    });

    it('parent: addresses whose host lies inside the networks, whatever their own mask', async () => {
      expect(await addresses(`${mark}&parent=172.30.1.0/24`)).toEqual([
        '172.30.1.1/24 global',
        '172.30.1.10/24 global',
        '172.30.1.10/32 Blue',
      ]);
      expect(await addresses(`${mark}&parent=172.30.0.0/16&vrf_id=null`)).toEqual([
        '172.30.1.1/24 global',
        '172.30.1.10/24 global',
        '172.30.2.1/23 global',
      ]);
      expect(await addresses(`${mark}&parent=172.30.2.0/24&parent=2001:db8:40::/48`)).toEqual([
        '172.30.2.1/23 global',
        '2001:db8:40::1/64 global',
        '2001:db8:40::1/128 Blue',
      ]);
      expect(await addresses(`${mark}&parent=bogus`)).toEqual([]);
    });

    it('address: with a mask exactly, without one the host under any mask; family and mask_length', async () => {
      expect(await addresses(`${mark}&address=172.30.1.10`)).toEqual(['172.30.1.10/24 global', '172.30.1.10/32 Blue']);
      expect(await addresses(`${mark}&address=172.30.1.10/24`)).toEqual(['172.30.1.10/24 global']);
      expect(await addresses(`${mark}&address=2001:DB8:40:0::1`)).toEqual([
        '2001:db8:40::1/64 global',
        '2001:db8:40::1/128 Blue',
      ]);
      // 172.30.0.0/16 sorts before 172.30.1.0/24, as inet values do.
      expect(await addresses(`${mark}&address=172.30.1.1&address=172.30.9.1/16`)).toEqual([
        '172.30.9.1/16 Green',
        '172.30.1.1/24 global',
      ]);
      expect(await addresses(`${mark}&address=not-an-ip`)).toEqual([]);
      expect(await addresses(`${mark}&family=6`)).toEqual(['2001:db8:40::1/64 global', '2001:db8:40::1/128 Blue']);
      expect(await addresses(`${mark}&mask_length=24`)).toEqual(['172.30.1.1/24 global', '172.30.1.10/24 global']);
      expect(await addresses(`${mark}&family=4&mask_length__gte=24`)).toEqual([
        '172.30.1.1/24 global',
        '172.30.1.10/24 global',
        '172.30.1.10/32 Blue',
      ]);
      expect(await addresses(`${mark}&mask_length__lte=23`)).toEqual(['172.30.9.1/16 Green', '172.30.2.1/23 global']);
    });

    it('vrf_id, vrf and present_in_vrf_id; q by address prefix, DNS name and description', async () => {
      expect(await addresses(`${mark}&vrf_id=${id.blue}`)).toEqual(['172.30.1.10/32 Blue', '2001:db8:40::1/128 Blue']);
      expect(await addresses(`${mark}&vrf=65000:2`)).toEqual(['172.30.9.1/16 Green']);
      expect(await addresses(`${mark}&vrf_id=null&family=4`)).toEqual([
        '172.30.1.1/24 global',
        '172.30.1.10/24 global',
        '172.30.2.1/23 global',
      ]);
      expect(await addresses(`${mark}&present_in_vrf_id=${id.blue}`)).toEqual([
        '172.30.9.1/16 Green',
        '172.30.1.10/32 Blue',
        '2001:db8:40::1/128 Blue',
      ]);
      expect(await addresses(`${mark}&q=172.30.1.1`)).toEqual([
        '172.30.1.1/24 global',
        '172.30.1.10/24 global',
        '172.30.1.10/32 Blue',
      ]);
      // Starts-with, not contains: "30.1" is inside every 172.30.1.x text but starts none.
      expect(await addresses(`${mark}&q=30.1`)).toEqual([]);
      const named = await create('/api/ipam/ip-addresses/', { address: '172.30.5.5/24', dns_name: 'ns1.example.net' });
      expect((await list('/api/ipam/ip-addresses/?q=NS1.example')).map((a) => a.id)).toEqual([named.id]);
      expect((await list('/api/ipam/ip-addresses/?q=filters')).length).toBe(7);
    });
  });

  describe('NAT', () => {
    it('links an outside address to its inside address and lists it from the inside', async () => {
      const inside = await create('/api/ipam/ip-addresses/', { address: '10.200.0.5/24', vrf: id.red });
      const outside = await create('/api/ipam/ip-addresses/', { address: '198.51.100.5/24', nat_inside: inside.id });
      const second = await create('/api/ipam/ip-addresses/', {
        address: '2001:db8:50::5/64',
        nat_inside: { address: '10.200.0.5/24' },
      });
      // NetBox's legacy nested IP; `family` (a plain 4) is missing, see the failing test below.
      expect(outside.nat_inside).toMatchObject({
        id: inside.id,
        url: `${app.baseUrl}/api/ipam/ip-addresses/${inside.id}/`,
        display_url: `${app.baseUrl}/ipam/ip-addresses/${inside.id}/`,
        display: '10.200.0.5/24',
        address: '10.200.0.5/24',
      });
      expect(second.nat_inside.id).toBe(inside.id);
      const reread = (await app.api.get(`/api/ipam/ip-addresses/${inside.id}/`)).body;
      expect(reread.nat_inside).toBeNull();
      expect(reread.nat_outside).toEqual([
        {
          id: outside.id,
          url: `${app.baseUrl}/api/ipam/ip-addresses/${outside.id}/`,
          display_url: `${app.baseUrl}/ipam/ip-addresses/${outside.id}/`,
          display: '198.51.100.5/24',
          family: 4,
          address: '198.51.100.5/24',
        },
        expect.objectContaining({ id: second.id, family: 6, address: '2001:db8:50::5/64' }),
      ]);
      expect((await list(`/api/ipam/ip-addresses/?nat_inside_id=${inside.id}`)).map((a) => a.id)).toEqual([
        outside.id,
        second.id,
      ]);
      // In a page, only the addresses something names as NAT inside list addresses; the others list none.
      const page = await list(`/api/ipam/ip-addresses/?id=${inside.id}&id=${outside.id}&ordering=id`);
      expect(page.map((a) => [a.id, (a.nat_outside as { id: number }[]).map((o) => o.id)])).toEqual([
        [inside.id, [outside.id, second.id]],
        [outside.id, []],
      ]);
      // Deleting the inside address releases the outside ones.
      expect((await app.api.delete(`/api/ipam/ip-addresses/${inside.id}/`)).status).toBe(204);
      expect((await app.api.get(`/api/ipam/ip-addresses/${outside.id}/`)).body.nat_inside).toBeNull();
      expect(
        await rejected('post', '/api/ipam/ip-addresses/', { address: '198.51.100.6/24', nat_inside: 999999 }),
      ).toEqual({ nat_inside: ['Related object not found using the provided numeric ID: 999999'] });
    });

    // Blocked in the generic renderer and generator: an `ip_family` field always renders {value, label}, but
    // NetBox's legacy nested IP (nat_inside) has a plain integer `family`.
    it.fails('renders the family of nat_inside as a plain integer', async () => {
      const inside = await create('/api/ipam/ip-addresses/', { address: '10.201.0.5/24' });
      const outside = await create('/api/ipam/ip-addresses/', { address: '198.51.101.5/24', nat_inside: inside.id });
      expect(outside.nat_inside).toEqual({
        id: inside.id,
        url: `${app.baseUrl}/api/ipam/ip-addresses/${inside.id}/`,
        display_url: `${app.baseUrl}/ipam/ip-addresses/${inside.id}/`,
        display: '10.201.0.5/24',
        family: 4,
        address: '10.201.0.5/24',
      });
    });
  });

  describe('VLANs and VLAN groups', () => {
    it('keeps VIDs within 1–4094 and displays "name (vid)"', async () => {
      const vlan = await create('/api/ipam/vlans/', { vid: 100, name: 'Users' });
      expect(vlan).toMatchObject({ display: 'Users (100)', vid: 100, group: null, site: null, prefix_count: 0 });
      for (const [vid, message] of [
        [0, 'Ensure this value is greater than or equal to 1.'],
        [4095, 'Ensure this value is less than or equal to 4094.'],
        ['x', 'A valid integer is required.'],
      ] as const) {
        expect(await rejected('post', '/api/ipam/vlans/', { vid, name: 'Bad' })).toEqual({ vid: [message] });
      }
      await create('/api/ipam/vlans/', { vid: 1, name: 'Default' });
      await create('/api/ipam/vlans/', { vid: 4094, name: 'Last' });
      // Without a group neither VID nor name is unique.
      await create('/api/ipam/vlans/', { vid: 100, name: 'Users' });
    });

    it('validates VID ranges and reports their size and utilisation', async () => {
      const group = await create('/api/ipam/vlan-groups/', {
        name: 'Campus',
        slug: 'campus',
        vid_ranges: [
          [100, 199],
          [300, 300],
        ],
      });
      expect(group).toMatchObject({
        vid_ranges: [
          [100, 199],
          [300, 300],
        ],
        total_vlan_ids: 101,
        vlan_count: 0,
        utilization: '0.00',
      });
      const whole = await create('/api/ipam/vlan-groups/', { name: 'Whole', slug: 'whole' });
      expect(whole).toMatchObject({ vid_ranges: [[1, 4094]], total_vlan_ids: 4094, utilization: '0.00' });
      await create('/api/ipam/vlans/', { vid: 150, name: 'A', group: group.id });
      await create('/api/ipam/vlans/', { vid: 300, name: 'B', group: group.id });
      await create('/api/ipam/vlans/', { vid: 2, name: 'A', group: whole.id });
      const reread = (await app.api.get(`/api/ipam/vlan-groups/${group.id}/`)).body;
      expect(reread).toMatchObject({ vlan_count: 2, utilization: '1.98', total_vlan_ids: 101 });
      expect((await app.api.get(`/api/ipam/vlan-groups/${whole.id}/`)).body.utilization).toBe('0.02');

      for (const [ranges, message] of [
        [[[0, 10]], 'Starting VLAN ID in range (0) cannot be less than 1'],
        [[[10, 4095]], 'Ending VLAN ID in range (4095) cannot exceed 4094'],
        [[[20, 10]], 'Ending VLAN ID in range must be greater than or equal to the starting VLAN ID (20-10)'],
        [
          [
            [1, 100],
            [50, 150],
          ],
          'Ranges cannot overlap.',
        ],
        [[[1, 2, 3]], 'Ranges must be specified in the form (lower, upper).'],
        [[5], 'Ranges must be specified in the form (lower, upper).'],
        [[['1', 5]], 'Range boundaries must be defined as integers.'],
      ] as const) {
        expect(
          await rejected('post', '/api/ipam/vlan-groups/', { name: 'Bad', slug: 'bad', vid_ranges: ranges }),
        ).toEqual({ vid_ranges: [message] });
      }
    });

    it('puts VLANs of a group inside its ranges, unique by VID and by name', async () => {
      const group = await create('/api/ipam/vlan-groups/', {
        name: 'Data center',
        slug: 'dc',
        vid_ranges: [
          [10, 20],
          [30, 30],
          [40, 49],
        ],
      });
      expect(await rejected('post', '/api/ipam/vlans/', { vid: 25, name: 'Out', group: group.id })).toEqual({
        vid: ['VID must be in ranges 10-20,30,40-49 for VLANs in group Data center'],
      });
      const vlan = await create('/api/ipam/vlans/', { vid: 10, name: 'Servers', group: group.id });
      expect(await rejected('post', '/api/ipam/vlans/', { vid: 10, name: 'Other', group: group.id })).toEqual({
        __all__: ['VLAN with this Group and VLAN ID already exists.'],
      });
      expect(await rejected('post', '/api/ipam/vlans/', { vid: 11, name: 'Servers', group: group.id })).toEqual({
        __all__: ['VLAN with this Group and Name already exists.'],
      });
      expect(await rejected('patch', `/api/ipam/vlans/${vlan.id}/`, { vid: 31 })).toEqual({
        vid: ['VID must be in ranges 10-20,30,40-49 for VLANs in group Data center'],
      });
      // Other groups have their own space.
      await create('/api/ipam/vlans/', { vid: 10, name: 'Servers' });
      const list2 = await list(`/api/ipam/vlans/?group_id=${group.id}`);
      expect(list2.map((v) => v.display)).toEqual(['Servers (10)']);
    });

    it('filters groups by contains_vid', async () => {
      await create('/api/ipam/vlan-groups/', { name: 'Low', slug: 'low', vid_ranges: [[1, 99]], description: 'vid' });
      await create('/api/ipam/vlan-groups/', {
        name: 'High',
        slug: 'high',
        vid_ranges: [
          [1000, 1999],
          [3000, 3099],
        ],
        description: 'vid',
      });
      const names = async (query: string): Promise<string[]> =>
        (await list(`/api/ipam/vlan-groups/?description=vid&${query}`)).map((g) => g.name);
      expect(await names('contains_vid=50')).toEqual(['Low']);
      expect(await names('contains_vid=3050')).toEqual(['High']);
      expect(await names('contains_vid=2500')).toEqual([]);
      expect(await names('contains_vid=50&contains_vid=1000')).toEqual(['High', 'Low']);
      expect((await app.api.get('/api/ipam/vlan-groups/?contains_vid=x')).status).toBe(400);
    });

    it('keeps a VLAN at the site of its group and Q-in-Q customer VLANs in a service VLAN', async () => {
      // Unchecked: a scoped VLAN group does not validate against the OpenAPI document, whose `oneOf` of the
      // scope types matches more than one nested shape (see the failing prefix scope test).
      const scopedGroup = async (body: Record<string, unknown>): Promise<any> => {
        const response = await unchecked.post('/api/ipam/vlan-groups/', body);
        expect(response.status, response.text).toBe(201);
        return response.body;
      };
      const atParis = await scopedGroup({
        name: 'Paris VLANs',
        slug: 'paris-vlans',
        scope_type: 'dcim.site',
        scope_id: id.paris,
      });
      expect(atParis.scope).toEqual({
        id: id.paris,
        url: `${app.baseUrl}/api/dcim/sites/${id.paris}/`,
        display: 'Paris',
        name: 'Paris',
        description: '',
        slug: 'paris',
      });
      await create('/api/ipam/vlans/', { vid: 300, name: 'Here', group: atParis.id, site: id.paris });
      expect(
        await rejected('post', '/api/ipam/vlans/', { vid: 301, name: 'There', group: atParis.id, site: id.lyon }),
      ).toEqual({
        __all__: ['VLAN is assigned to group Paris VLANs (scope: Paris); cannot also assign to site Lyon.'],
      });
      const metro = await scopedGroup({
        name: 'Metro VLANs',
        slug: 'metro-vlans',
        scope_type: 'dcim.sitegroup',
        scope_id: id.metro,
      });
      await create('/api/ipam/vlans/', { vid: 302, name: 'Member', group: metro.id, site: id.lyon });
      expect(
        await rejected('post', '/api/ipam/vlans/', {
          vid: 303,
          name: 'Outsider',
          group: metro.id,
          site: id.paris,
        }),
      ).toEqual({
        __all__: ['The assigned site Paris is not a member of the assigned group Metro VLANs (scope: Metro).'],
      });
      // Group names repeat freely without a scope, but not within one.
      await create('/api/ipam/vlan-groups/', { name: 'Paris VLANs', slug: 'paris-vlans' });
      expect(
        await rejected('post', '/api/ipam/vlan-groups/', {
          name: 'Paris VLANs',
          slug: 'other-slug',
          scope_type: 'dcim.site',
          scope_id: id.paris,
        }),
      ).toEqual({ __all__: ['VLAN group with this Scope type, Scope id and Name already exists.'] });
      const inParis = await unchecked.get(`/api/ipam/vlan-groups/?scope_type=dcim.site&scope_id=${id.paris}`);
      expect(inParis.body.count).toBe(1);

      const service = await create('/api/ipam/vlans/', { vid: 1000, name: 'S-VLAN', qinq_role: 'svlan' });
      const customer = await create('/api/ipam/vlans/', {
        vid: 10,
        name: 'C-VLAN',
        qinq_role: 'cvlan',
        qinq_svlan: service.id,
      });
      expect(customer.qinq_role).toEqual({ value: 'cvlan', label: 'Customer' });
      expect(customer.qinq_svlan).toEqual({
        id: service.id,
        url: `${app.baseUrl}/api/ipam/vlans/${service.id}/`,
        display: 'S-VLAN (1000)',
        vid: 1000,
        name: 'S-VLAN',
        description: '',
      });
      expect(await rejected('post', '/api/ipam/vlans/', { vid: 11, name: 'Orphan', qinq_role: 'cvlan' })).toEqual({
        qinq_role: ['A Q-in-Q customer VLAN must be assigned to a service VLAN.'],
      });
      expect(await rejected('post', '/api/ipam/vlans/', { vid: 12, name: 'X', qinq_svlan: service.id })).toEqual({
        qinq_svlan: ['Only Q-in-Q customer VLANs maybe assigned to a service VLAN.'],
      });
      const twin = { vid: 10, name: 'C-VLAN 2', qinq_role: 'cvlan', qinq_svlan: service.id };
      expect(await rejected('post', '/api/ipam/vlans/', twin)).toEqual({
        __all__: ['VLAN with this Qinq svlan and VLAN ID already exists.'],
      });
      expect((await list(`/api/ipam/vlans/?qinq_svlan_id=${service.id}`)).map((v) => v.name)).toEqual(['C-VLAN']);
    });

    it('links prefixes to VLANs: filters by VLAN, VID and VLAN group, and counts them', async () => {
      const group = await create('/api/ipam/vlan-groups/', { name: 'Prefix VLANs', slug: 'prefix-vlans' });
      const vlan = await create('/api/ipam/vlans/', { vid: 700, name: 'Seven hundred', group: group.id });
      const prefix = await create('/api/ipam/prefixes/', { prefix: '10.70.0.0/24', vlan: vlan.id });
      expect(prefix.vlan).toEqual({
        id: vlan.id,
        url: `${app.baseUrl}/api/ipam/vlans/${vlan.id}/`,
        display: 'Seven hundred (700)',
        vid: 700,
        name: 'Seven hundred',
        description: '',
      });
      await create('/api/ipam/prefixes/', { prefix: '10.70.1.0/24', vlan: vlan.id });
      const nets = async (query: string): Promise<string[]> =>
        (await list(`/api/ipam/prefixes/?${query}`)).map((p) => p.prefix);
      expect(await nets(`vlan_id=${vlan.id}`)).toEqual(['10.70.0.0/24', '10.70.1.0/24']);
      expect(await nets('vlan_vid=700')).toEqual(['10.70.0.0/24', '10.70.1.0/24']);
      expect(await nets(`vlan_group_id=${group.id}`)).toEqual(['10.70.0.0/24', '10.70.1.0/24']);
      expect(await nets('vlan_group=prefix-vlans')).toEqual(['10.70.0.0/24', '10.70.1.0/24']);
      expect((await app.api.get(`/api/ipam/vlans/${vlan.id}/`)).body.prefix_count).toBe(2);
      // A VLAN in use by a prefix is protected.
      expect((await app.api.delete(`/api/ipam/vlans/${vlan.id}/`)).status).toBe(409);
    });
  });

  describe('supporting models', () => {
    it('displays VRFs as "name (rd)" with import/export targets as full objects and counts', async () => {
      const blue = (await unchecked.get(`/api/ipam/vrfs/${id.blue}/`)).body;
      expect(blue).toMatchObject({ display: 'Blue (65000:1)', rd: '65000:1', enforce_unique: true });
      expect(blue.import_targets.map((t: any) => t.name)).toEqual(['65000:100', '65000:200']);
      expect(Object.keys(blue.import_targets[0])).toEqual([
        'id',
        'url',
        'display_url',
        'display',
        'name',
        'tenant',
        'description',
        'comments',
        'tags',
        'custom_fields',
        'created',
        'last_updated',
      ]);
      expect(blue.export_targets).toEqual([]);
      expect(blue.prefix_count).toBeGreaterThanOrEqual(2);
      const red = (await app.api.get(`/api/ipam/vrfs/${id.red}/?brief=1`)).body;
      expect(red).toEqual({
        id: id.red,
        url: `${app.baseUrl}/api/ipam/vrfs/${id.red}/`,
        display: 'Red',
        name: 'Red',
        rd: null,
        description: '',
        prefix_count: 1,
      });
      expect(await rejected('post', '/api/ipam/vrfs/', { name: 'Copy', rd: '65000:1' })).toEqual({
        rd: ['VRF with this route distinguisher already exists.'],
      });
      const names = async (query: string): Promise<string[]> =>
        (await list(`/api/ipam/vrfs/?fields=name&${query}`)).map((v) => v.name);
      expect(await names(`import_target_id=${id.rtShared}`)).toEqual(['Blue']);
      expect(await names('export_target=65000:100')).toEqual(['Green']);
      expect(await names(`import_target_id=${id.rtOther}&import_target_id=${id.rtShared}`)).toEqual(['Blue']);
      // Replacing the targets replaces the set.
      const patched = await unchecked.patch(`/api/ipam/vrfs/${id.red}/`, { import_targets: [id.rtOther] });
      expect(patched.body.import_targets.map((t: any) => t.id)).toEqual([id.rtOther]);
      expect((await app.api.patch(`/api/ipam/vrfs/${id.red}/`, { import_targets: [] })).body.import_targets).toEqual(
        [],
      );
    });

    it('documents the route targets of a VRF as rendered (with their tags)', async () => {
      expect((await app.api.get(`/api/ipam/vrfs/${id.blue}/`)).status).toBe(200);
    });

    it('displays ASNs as AS<number> and counts their sites', async () => {
      const rir = await create('/api/ipam/rirs/', { name: 'RIPE', slug: 'ripe' });
      const asn = await create('/api/ipam/asns/', { asn: 65000, rir: rir.id });
      const big = await create('/api/ipam/asns/', { asn: 4200000000, rir: rir.id });
      expect(asn).toMatchObject({ display: 'AS65000', asn: 65000, site_count: 0, provider_count: 0 });
      expect(big.display).toBe('AS4200000000');
      await app.api.patch(`/api/dcim/sites/${id.paris}/`, { asns: [asn.id, big.id] });
      await app.api.patch(`/api/dcim/sites/${id.lyon}/`, { asns: [asn.id] });
      expect((await app.api.get(`/api/ipam/asns/${asn.id}/`)).body.site_count).toBe(2);
      expect((await app.api.get(`/api/ipam/asns/${big.id}/`)).body.site_count).toBe(1);
      expect((await app.api.get(`/api/ipam/asns/${asn.id}/?brief=1`)).body).toEqual({
        id: asn.id,
        url: `${app.baseUrl}/api/ipam/asns/${asn.id}/`,
        display: 'AS65000',
        asn: 65000,
        description: '',
      });
      expect(await rejected('post', '/api/ipam/asns/', { asn: 0, rir: rir.id })).toEqual({
        asn: ['Ensure this value is greater than or equal to 1.'],
      });
      expect(await rejected('post', '/api/ipam/asns/', { asn: 4294967296, rir: rir.id })).toEqual({
        asn: ['Ensure this value is less than or equal to 4294967295.'],
      });
      expect((await list('/api/ipam/asns/?asn__gte=70000')).map((a) => a.asn)).toEqual([4200000000]);
    });

    it('keeps aggregates from overlapping and counts them per RIR', async () => {
      const rir = await create('/api/ipam/rirs/', { name: 'RFC 1918', slug: 'rfc1918', is_private: true });
      const agg = await create('/api/ipam/aggregates/', {
        prefix: '10.0.0.0/8',
        rir: rir.id,
        date_added: '2020-01-02',
      });
      expect(agg).toMatchObject({
        display: '10.0.0.0/8',
        family: { value: 4, label: 'IPv4' },
        prefix: '10.0.0.0/8',
        rir: { id: rir.id, name: 'RFC 1918', slug: 'rfc1918' },
        date_added: '2020-01-02',
      });
      await create('/api/ipam/aggregates/', { prefix: '172.16.0.0/12', rir: rir.id });
      await create('/api/ipam/aggregates/', { prefix: '2001:DB8::/32', rir: rir.id });
      expect(await rejected('post', '/api/ipam/aggregates/', { prefix: '10.1.0.0/16', rir: rir.id })).toEqual({
        prefix: ['Aggregates cannot overlap. 10.1.0.0/16 is already covered by an existing aggregate (10.0.0.0/8).'],
      });
      expect(await rejected('post', '/api/ipam/aggregates/', { prefix: '10.0.0.0/8', rir: rir.id })).toEqual({
        prefix: ['Aggregates cannot overlap. 10.0.0.0/8 is already covered by an existing aggregate (10.0.0.0/8).'],
      });
      expect(await rejected('post', '/api/ipam/aggregates/', { prefix: '172.0.0.0/8', rir: rir.id })).toEqual({
        prefix: ['Prefixes cannot overlap aggregates. 172.0.0.0/8 covers an existing aggregate (172.16.0.0/12).'],
      });
      expect(await rejected('post', '/api/ipam/aggregates/', { prefix: '0.0.0.0/0', rir: rir.id })).toEqual({
        prefix: ['Cannot create aggregate with /0 mask.'],
      });
      expect(await rejected('post', '/api/ipam/aggregates/', { prefix: '10.0.0.1/8', rir: rir.id })).toEqual({
        prefix: ['10.0.0.1/8 is not a valid prefix. Did you mean 10.0.0.0/8?'],
      });
      // 11.0.0.0/8 is beside 10.0.0.0/8, and an IPv4 aggregate never overlaps an IPv6 one.
      await create('/api/ipam/aggregates/', { prefix: '11.0.0.0/8', rir: rir.id });
      await create('/api/ipam/aggregates/', { prefix: '::ffff:0.0.0.0/96', rir: rir.id });
      // Changing an aggregate does not make it overlap itself.
      expect((await app.api.patch(`/api/ipam/aggregates/${agg.id}/`, { description: 'private' })).status).toBe(200);
      expect((await app.api.get(`/api/ipam/rirs/${rir.id}/`)).body.aggregate_count).toBe(5);
      expect((await app.api.get(`/api/ipam/rirs/${rir.id}/?brief=1`)).body.aggregate_count).toBe(5);
      const v6 = await list(`/api/ipam/aggregates/?rir_id=${rir.id}&family=6`);
      expect(v6.map((a) => a.prefix)).toEqual(['::ffff:0.0.0.0/96', '2001:db8::/32']);
      const ordered = await list(`/api/ipam/aggregates/?rir=rfc1918`);
      expect(ordered.map((a) => a.prefix)).toEqual([
        '10.0.0.0/8',
        '11.0.0.0/8',
        '172.16.0.0/12',
        '::ffff:0.0.0.0/96',
        '2001:db8::/32',
      ]);
      expect((await list('/api/ipam/aggregates/?q=10.1.2.3')).map((a) => a.prefix)).toEqual(['10.0.0.0/8']);
      expect((await list('/api/ipam/aggregates/?prefix=172.16.0.0/12')).map((a) => a.prefix)).toEqual([
        '172.16.0.0/12',
      ]);
    });

    it('counts prefixes and VLANs per role, and orders roles by weight', async () => {
      const core = await create('/api/ipam/roles/', { name: 'Core', slug: 'core', weight: 10 });
      const access = await create('/api/ipam/roles/', { name: 'Access', slug: 'access' });
      expect(access.weight).toBe(1000);
      await create('/api/ipam/prefixes/', { prefix: '10.250.0.0/16', role: core.id });
      await create('/api/ipam/prefixes/', { prefix: '10.251.0.0/16', role: core.id });
      await create('/api/ipam/vlans/', { vid: 250, name: 'Core', role: core.id });
      expect((await app.api.get(`/api/ipam/roles/${core.id}/`)).body).toMatchObject({
        prefix_count: 2,
        vlan_count: 1,
      });
      expect((await app.api.get(`/api/ipam/roles/${access.id}/`)).body).toMatchObject({
        prefix_count: 0,
        vlan_count: 0,
      });
      expect((await list('/api/ipam/roles/')).map((r) => r.name)).toEqual(['Core', 'Access']);
      expect((await list('/api/ipam/prefixes/?role=core')).map((p) => p.prefix)).toEqual([
        '10.250.0.0/16',
        '10.251.0.0/16',
      ]);
    });
  });

  describe('prefix scope', () => {
    /** Prefixes described "scoped" (listed unchecked: see the failing OpenAPI test below). */
    const nets = async (query: string): Promise<string[]> => {
      const response = await unchecked.get(`/api/ipam/prefixes/?limit=0&description=scoped&${query}`);
      expect(response.status, response.text).toBe(200);
      return response.body.results.map((p: any) => p.prefix);
    };
    const scoped = async (prefix: string, type: string | null, scope: number | null): Promise<any> => {
      const body = { prefix, scope_type: type, scope_id: scope, description: 'scoped' };
      const response = await unchecked.post('/api/ipam/prefixes/', body);
      expect(response.status, response.text).toBe(201);
      return response.body;
    };

    it('renders the scope and filters by the cached site, region (tree), site group and location', async () => {
      const atParis = await scoped('10.60.1.0/24', 'dcim.site', id.paris);
      await scoped('10.60.2.0/24', 'dcim.site', id.lyon);
      const onFloor = await scoped('10.60.3.0/24', 'dcim.location', id.floor);
      const inEurope = await scoped('10.60.4.0/24', 'dcim.region', id.europe);
      await scoped('10.60.5.0/24', 'dcim.sitegroup', id.metro);
      await scoped('10.60.6.0/24', 'dcim.site', id.tokyo);
      await scoped('10.60.7.0/24', null, null);
      expect(atParis).toMatchObject({
        scope_type: 'dcim.site',
        scope_id: id.paris,
        scope: {
          id: id.paris,
          url: `${app.baseUrl}/api/dcim/sites/${id.paris}/`,
          display: 'Paris',
          name: 'Paris',
          slug: 'paris',
          description: '',
        },
      });
      expect(onFloor.scope).toMatchObject({ id: id.floor, name: 'Floor 1', _depth: 0 });
      expect(inEurope.scope).toMatchObject({ id: id.europe, name: 'Europe', slug: 'europe', _depth: 0 });
      expect(await nets(`site_id=${id.paris}`)).toEqual(['10.60.1.0/24', '10.60.3.0/24']);
      expect(await nets('site=lyon')).toEqual(['10.60.2.0/24']);
      expect(await nets(`location_id=${id.floor}`)).toEqual(['10.60.3.0/24']);
      expect(await nets('location=floor-1')).toEqual(['10.60.3.0/24']);
      expect(await nets('region=france')).toEqual(['10.60.1.0/24', '10.60.2.0/24', '10.60.3.0/24']);
      expect(await nets('region=europe')).toEqual(['10.60.1.0/24', '10.60.2.0/24', '10.60.3.0/24', '10.60.4.0/24']);
      expect(await nets(`region_id=${id.europe}`)).toEqual(await nets('region=europe'));
      expect(await nets('site_group=metro')).toEqual(['10.60.2.0/24', '10.60.5.0/24']);
      expect(await nets(`site_group_id=${id.metro}`)).toEqual(['10.60.2.0/24', '10.60.5.0/24']);
      expect(await nets('scope_type=dcim.site')).toEqual(['10.60.1.0/24', '10.60.2.0/24', '10.60.6.0/24']);
      expect(await nets(`scope_type=dcim.region&scope_id=${id.europe}`)).toEqual(['10.60.4.0/24']);
      expect((await app.api.get(`/api/dcim/sites/${id.paris}/`)).body.prefix_count).toBe(2);
      expect((await app.api.get(`/api/dcim/sites/${id.tokyo}/`)).body.prefix_count).toBe(1);
      expect((await app.api.get(`/api/dcim/locations/${id.floor}/`)).body.prefix_count).toBe(1);
      // Not cumulative: a region counts the prefixes whose cached region it is.
      expect((await app.api.get(`/api/dcim/regions/${id.europe}/`)).body.prefix_count).toBe(1);
      expect((await app.api.get(`/api/dcim/regions/${id.france}/`)).body.prefix_count).toBe(3);
      expect((await app.api.get(`/api/dcim/site-groups/${id.metro}/`)).body.prefix_count).toBe(2);

      // Moving the scope moves the cache; clearing it clears the cache.
      await app.api.patch(`/api/ipam/prefixes/${atParis.id}/`, { scope_type: 'dcim.site', scope_id: id.tokyo });
      expect(await nets(`site_id=${id.paris}`)).toEqual(['10.60.3.0/24']);
      expect(await nets('region=france')).toEqual(['10.60.2.0/24', '10.60.3.0/24']);
      const cleared = await app.api.patch(`/api/ipam/prefixes/${atParis.id}/`, { scope_type: null, scope_id: null });
      expect(cleared.body).toMatchObject({ scope_type: null, scope_id: null, scope: null });
      expect(await nets(`site_id=${id.tokyo}`)).toEqual(['10.60.6.0/24']);

      expect(
        await rejected('post', '/api/ipam/prefixes/', {
          prefix: '10.60.8.0/24',
          scope_type: 'dcim.device',
          scope_id: 1,
        }),
      ).toEqual({ scope_type: ['Invalid content type: dcim.device'] });
      expect(
        await rejected('post', '/api/ipam/prefixes/', {
          prefix: '10.60.8.0/24',
          scope_type: 'dcim.site',
          scope_id: 99999,
        }),
      ).toEqual({ scope_id: ['Related object not found using the provided value: 99999.'] });
    });

    // Blocked in runtime/rest/write.ts (checkGenericRelations runs first, with the §2.4 messages): NetBox's
    // CachedScopeMixin.clean reports a scope type without an id as a model error.
    it.fails('reports a prefix scope type without an id as NetBox does', async () => {
      expect(
        await rejected('post', '/api/ipam/prefixes/', { prefix: '10.60.9.0/24', scope_type: 'dcim.site' }),
      ).toEqual({ __all__: ['Please select a site.'] });
    });

    // Blocked as above: VLANGroup.clean reports a half-set scope as a model error.
    it.fails('reports a VLAN group scope type without an id as NetBox does', async () => {
      expect(
        await rejected('post', '/api/ipam/vlan-groups/', { name: 'Half', slug: 'half', scope_type: 'dcim.site' }),
      ).toEqual({ __all__: ['Cannot set scope_type without scope_id.'] });
    });

    it('follows a site that moves to another region', async () => {
      await scoped('10.61.0.0/24', 'dcim.site', id.tokyo);
      const asia = await create('/api/dcim/regions/', { name: 'Asia', slug: 'asia' });
      await app.api.patch(`/api/dcim/sites/${id.tokyo}/`, { region: asia.id });
      expect(await nets('region=asia')).toEqual(['10.60.6.0/24', '10.61.0.0/24']);
      expect((await app.api.get(`/api/dcim/regions/${asia.id}/`)).body.prefix_count).toBe(2);
    });

    // A region and a site group have the same nested shape: the document accepts both.
    it('documents a region or site group scope', async () => {
      const [prefix] = await list('/api/ipam/prefixes/?scope_type=dcim.region');
      expect(prefix).toBeDefined();
    });
  });
});
