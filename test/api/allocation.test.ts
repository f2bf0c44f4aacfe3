import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/**
 * The allocation endpoints as automation uses them: the free prefixes, addresses and VLAN IDs below a
 * parent, taken one at a time or in bulk (all or none), 409 when they do not fit, and never the same one
 * twice when requests race — within one server and, on PostgreSQL, across two servers.
 */
describe.each(DIALECTS)('allocation on %s', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect);
  });
  afterAll(async () => app?.close());

  const create = async (path: string, body: unknown): Promise<Record<string, any>> => {
    const response = await app.api.post(path, body);
    expect(response.status, response.text).toBe(201);
    return response.body;
  };

  it('lists and takes free child prefixes first fit, in the parent VRF', async () => {
    const vrf = await create('/api/ipam/vrfs/', { name: 'Alloc VRF 1' });
    const parent = await create('/api/ipam/prefixes/', { prefix: '192.0.2.0/24', vrf: vrf.id });
    await create('/api/ipam/prefixes/', { prefix: '192.0.2.64/26', vrf: vrf.id });
    await create('/api/ipam/prefixes/', { prefix: '192.0.2.192/27', vrf: vrf.id });
    // A prefix of another VRF takes nothing from this one.
    await create('/api/ipam/prefixes/', { prefix: '192.0.2.0/26' });
    const url = `/api/ipam/prefixes/${parent.id}/available-prefixes/`;
    const listed = await app.api.get(url);
    expect(listed.status).toBe(200);
    expect(listed.body.map((p: any) => p.prefix)).toEqual(['192.0.2.0/26', '192.0.2.128/26', '192.0.2.224/27']);
    expect(listed.body[0]).toEqual({ family: 4, prefix: '192.0.2.0/26', vrf: expect.objectContaining({ id: vrf.id }) });

    const taken = await create(url, { prefix_length: 28, description: 'first fit', status: 'reserved' });
    expect(taken).toMatchObject({ prefix: '192.0.2.0/28', description: 'first fit', status: { value: 'reserved' } });
    expect(taken.vrf.id).toBe(vrf.id);
    const bulk = await create(url, [{ prefix_length: 27 }, { prefix_length: 28 }, { prefix_length: 26 }]);
    expect(bulk.map((p: any) => p.prefix)).toEqual(['192.0.2.32/27', '192.0.2.16/28', '192.0.2.128/26']);
    expect((await app.api.get(url)).body.map((p: any) => p.prefix)).toEqual(['192.0.2.224/27']);
  });

  it('refuses what does not fit with 409 and bad lengths with 400, creating nothing', async () => {
    const vrf = await create('/api/ipam/vrfs/', { name: 'Alloc VRF 2' });
    const parent = await create('/api/ipam/prefixes/', { prefix: '198.51.100.0/28', vrf: vrf.id, is_pool: true });
    const url = `/api/ipam/prefixes/${parent.id}/available-prefixes/`;
    const five = Array.from({ length: 5 }, (_, i) => ({ prefix_length: 30, description: `P${i}` }));
    const conflict = await app.api.post(url, five);
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({ detail: 'Insufficient resources are available to satisfy the request' });
    expect((await app.api.get(url)).body.map((p: any) => p.prefix)).toEqual(['198.51.100.0/28']);
    expect(await create(url, five.slice(0, 4))).toHaveLength(4);
    expect((await app.api.post(url, { prefix_length: 30 })).status).toBe(409);

    const notInt = await app.api.post(url, { prefix_length: '30' });
    expect(notInt.status).toBe(400);
    expect(notInt.body).toEqual([{ prefix_length: ['this field must be int type'] }]);
    expect((await app.api.post(url, {})).body).toEqual([{ prefix_length: ['this field can not be missing'] }]);
    expect((await app.api.post(url, { prefix_length: 33 })).body).toEqual([
      { prefix_length: ['Invalid prefix length (33) for IPv4'] },
    ]);
    expect((await app.api.post(url, [])).status).toBe(400);
    expect((await app.api.post(url, ['x'])).status).toBe(400);
    // The created object's own rules still apply (an unknown status).
    const parent2 = await create('/api/ipam/prefixes/', { prefix: '198.51.100.128/28' });
    const invalid = await app.api.post(`/api/ipam/prefixes/${parent2.id}/available-prefixes/`, {
      prefix_length: 30,
      status: 'bogus',
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.status).toBeDefined();
    expect((await app.api.get(`/api/ipam/prefixes/?prefix=198.51.100.128/30`)).body.count).toBe(0);
  });

  it('lists and takes free addresses, network and broadcast excluded unless a pool', async () => {
    const vrf = await create('/api/ipam/vrfs/', { name: 'Alloc VRF 3' });
    const parent = await create('/api/ipam/prefixes/', { prefix: '203.0.113.0/29', vrf: vrf.id, is_pool: true });
    const url = `/api/ipam/prefixes/${parent.id}/available-ips/`;
    const pool = await app.api.get(url);
    expect(pool.body).toHaveLength(8);
    expect(pool.body[0]).toEqual({
      family: 4,
      address: '203.0.113.0/29',
      vrf: expect.objectContaining({ id: vrf.id }),
    });
    await app.api.patch(`/api/ipam/prefixes/${parent.id}/`, { is_pool: false });
    expect((await app.api.get(url)).body.map((a: any) => a.address)).toEqual(
      ['1', '2', '3', '4', '5', '6'].map((h) => `203.0.113.${h}/29`),
    );
    expect((await app.api.get(`${url}?limit=2`)).body).toHaveLength(2);

    // Addresses of the same VRF are taken; those of other VRFs are not.
    await create('/api/ipam/ip-addresses/', { address: '203.0.113.2/29', vrf: vrf.id });
    await create('/api/ipam/ip-addresses/', { address: '203.0.113.1/29' });
    const one = await create(url, { description: 'Test IP 1', dns_name: 'one.example.com' });
    expect(one).toMatchObject({ address: '203.0.113.1/29', description: 'Test IP 1', dns_name: 'one.example.com' });
    expect(one.vrf.id).toBe(vrf.id);
    const more = await create(url, [{ prefix_length: 32 }, { status: 'reserved' }]);
    expect(more.map((a: any) => a.address)).toEqual(['203.0.113.3/32', '203.0.113.4/29']);

    const tooMany = await app.api.post(url, [{}, {}, {}]);
    expect(tooMany.status).toBe(409);
    expect((await app.api.get(url)).body.map((a: any) => a.address)).toEqual(['203.0.113.5/29', '203.0.113.6/29']);
    const short = await app.api.post(url, { prefix_length: 28 });
    expect(short.status).toBe(400);
    expect(short.body).toEqual([
      { prefix_length: ['Prefix length must be greater than or equal to the parent mask length (29)'] },
    ]);
    expect((await app.api.post(url, { prefix_length: 'x' })).body).toEqual([
      { prefix_length: ['A valid integer is required.'] },
    ]);
  });

  it('takes addresses of any VRF into account under a global container, and IPv6 ones', async () => {
    const vrf = await create('/api/ipam/vrfs/', { name: 'Alloc VRF 4' });
    const container = await create('/api/ipam/prefixes/', { prefix: '100.64.0.0/30', status: 'container' });
    await create('/api/ipam/ip-addresses/', { address: '100.64.0.1/30', vrf: vrf.id });
    const free = await app.api.get(`/api/ipam/prefixes/${container.id}/available-ips/`);
    expect(free.body.map((a: any) => a.address)).toEqual(['100.64.0.2/30']);

    const v6 = await create('/api/ipam/prefixes/', { prefix: '2001:db8:a110::/64' });
    const url = `/api/ipam/prefixes/${v6.id}/available-ips/`;
    const listed = await app.api.get(`${url}?limit=3`);
    expect(listed.body.map((a: any) => a.address)).toEqual([
      '2001:db8:a110::1/64',
      '2001:db8:a110::2/64',
      '2001:db8:a110::3/64',
    ]);
    expect((await create(url, { prefix_length: 128 })).address).toBe('2001:db8:a110::1/128');
    const prefixes = await app.api.get(`/api/ipam/prefixes/${v6.id}/available-prefixes/`);
    expect(prefixes.body).toEqual([{ family: 6, prefix: '2001:db8:a110::/64', vrf: null }]);
    expect((await create(`/api/ipam/prefixes/${v6.id}/available-prefixes/`, { prefix_length: 80 })).prefix).toBe(
      '2001:db8:a110::/80',
    );
  });

  it('lists and takes free VLAN IDs of a group', async () => {
    const group = await create('/api/ipam/vlan-groups/', {
      name: 'Alloc group',
      slug: 'alloc-group',
      vid_ranges: [
        [10, 12],
        [20, 21],
      ],
    });
    await create('/api/ipam/vlans/', { vid: 11, name: 'Taken', group: group.id });
    const url = `/api/ipam/vlan-groups/${group.id}/available-vlans/`;
    const listed = await app.api.get(url);
    expect(listed.body.map((v: any) => v.vid)).toEqual([10, 12, 20, 21]);
    expect(listed.body[0].group).toMatchObject({ id: group.id, name: 'Alloc group' });
    const vlan = await create(url, { name: 'First', description: 'd' });
    expect(vlan).toMatchObject({ vid: 10, name: 'First', description: 'd' });
    expect(vlan.group.id).toBe(group.id);
    expect((await create(url, [{ name: 'A' }, { name: 'B' }])).map((v: any) => v.vid)).toEqual([12, 20]);
    expect((await app.api.post(url, [{ name: 'C' }, { name: 'D' }])).status).toBe(409);
    expect((await app.api.post(url, {})).body).toEqual([{ name: ['This field is required.'] }]);
    // The VLAN's own rules: a name already used in the group.
    const duplicate = await app.api.post(url, { name: 'First' });
    expect(duplicate.status).toBe(400);
    expect((await app.api.get(url)).body.map((v: any) => v.vid)).toEqual([21]);
  });

  it('answers 404 for an unknown parent and 405 for writes other than POST', async () => {
    expect((await app.api.get('/api/ipam/prefixes/999999/available-ips/')).status).toBe(404);
    expect((await app.api.post('/api/ipam/vlan-groups/999999/available-vlans/', { name: 'x' })).status).toBe(404);
    const parent = await create('/api/ipam/prefixes/', { prefix: '10.250.0.0/30' });
    expect((await app.api.delete(`/api/ipam/prefixes/${parent.id}/available-ips/`)).status).toBe(405);
    expect((await app.api.options(`/api/ipam/prefixes/${parent.id}/available-ips/`)).status).toBe(200);
  });

  it('needs view on the parent and add on the created model', async () => {
    const parent = await create('/api/ipam/prefixes/', { prefix: '10.251.0.0/29' });
    const other = await create('/api/ipam/prefixes/', { prefix: '10.252.0.0/29' });
    const user = await create('/api/users/users/', { username: 'allocator', password: 'Alloc-Password-1' });
    const token = await create('/api/users/tokens/', { user: user.id });
    const client = app.api.as(`Bearer svc_${token.key}.${token.token}`);
    const url = `/api/ipam/prefixes/${parent.id}/available-ips/`;
    expect((await client.get(url)).status).toBe(403);
    await create('/api/users/permissions/', {
      name: 'allocator prefixes',
      object_types: ['ipam.prefix'],
      actions: ['view'],
      users: [user.id],
      constraints: { prefix: '10.251.0.0/29' },
    });
    expect((await client.get(url)).status).toBe(403); // no view on addresses
    const addresses = await create('/api/users/permissions/', {
      name: 'allocator addresses',
      object_types: ['ipam.ipaddress'],
      actions: ['view'],
      users: [user.id],
    });
    expect((await client.get(url)).status).toBe(200);
    expect((await client.get(`/api/ipam/prefixes/${other.id}/available-ips/`)).status).toBe(404);
    expect((await client.post(url, {})).status).toBe(403);
    await app.api.patch(`/api/users/permissions/${addresses.id}/`, {
      actions: ['view', 'add'],
      constraints: { description: 'allowed' },
    });
    // The created address must be within the constraint, or nothing is created.
    expect((await client.post(url, {})).status).toBe(403);
    const allowed = await client.post(url, { description: 'allowed' });
    expect(allowed.status).toBe(201);
    expect(allowed.body.address).toBe('10.251.0.1/29');
  });

  it('never hands out an address twice to concurrent requests', async () => {
    const parent = await create('/api/ipam/prefixes/', { prefix: '10.253.0.0/28' });
    const url = `/api/ipam/prefixes/${parent.id}/available-ips/`;
    // On PostgreSQL half of the requests go to a second server on the same database.
    const second = dialect === 'postgres' ? await startTestApp(dialect, { databaseUrl: app.databaseUrl }) : null;
    try {
      const clients = second ? [app.api, second.api] : [app.api];
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) => clients[i % clients.length]!.post(url, { description: `race ${i}` })),
      );
      const created = responses.filter((r) => r.status === 201).map((r) => r.body.address as string);
      expect(responses.filter((r) => r.status === 409)).toHaveLength(6);
      expect(created).toHaveLength(14);
      expect(new Set(created).size).toBe(14);
      const stored = await app.api.get(`/api/ipam/ip-addresses/?parent=10.253.0.0/28&limit=0`);
      expect(stored.body.count).toBe(14);
    } finally {
      await second?.close({ keepDatabase: true });
    }
  });

  it('never hands out a VLAN ID twice to concurrent requests', async () => {
    const group = await create('/api/ipam/vlan-groups/', {
      name: 'Race group',
      slug: 'race-group',
      vid_ranges: [[100, 104]],
    });
    const url = `/api/ipam/vlan-groups/${group.id}/available-vlans/`;
    const responses = await Promise.all(Array.from({ length: 8 }, (_, i) => app.api.post(url, { name: `Race ${i}` })));
    const vids = responses.filter((r) => r.status === 201).map((r) => r.body.vid as number);
    expect(vids.sort()).toEqual([100, 101, 102, 103, 104]);
    expect(responses.filter((r) => r.status === 409)).toHaveLength(3);
  });
});
