import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/**
 * IP ranges and ASN ranges as a client sees them: NetBox's boundary and overlap rules, the size and name of a
 * range, what a range marked populated takes from its prefix, the free addresses and AS numbers of a range,
 * 409 when the request does not fit, and never the same number twice when requests race.
 */
describe.each(DIALECTS)('IP ranges and ASN ranges on %s', (dialect) => {
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

  it('keeps the size and shows the name of a range', async () => {
    const range = await create('/api/ipam/ip-ranges/', {
      start_address: '192.0.2.10/24',
      end_address: '192.0.2.20/24',
    });
    expect(range).toMatchObject({ family: { value: 4 }, size: 11, display: '192.0.2.10-20/24', mark_populated: false });
    const moved = await app.api.patch(`/api/ipam/ip-ranges/${range.id}/`, { end_address: '192.0.2.30/24' });
    expect(moved.body.size).toBe(21);
    const six = await create('/api/ipam/ip-ranges/', {
      start_address: '2001:db8::1/64',
      end_address: '2001:db8::ff/64',
    });
    expect(six).toMatchObject({ size: 255, display: '2001:db8::1-ff/64', family: { value: 6 } });
  });

  it.each([
    [
      { start_address: '198.51.100.1/24', end_address: '2001:db8::1/64' },
      'end_address',
      'Starting and ending IP address versions must match',
    ],
    [
      { start_address: '198.51.100.1/24', end_address: '198.51.100.9/25' },
      'end_address',
      'Starting and ending IP address masks must match',
    ],
    [
      { start_address: '198.51.100.9/24', end_address: '198.51.100.1/24' },
      'end_address',
      'Ending address must be greater than or equal to the starting address (198.51.100.9/24)',
    ],
    [
      { start_address: '2001:db8:1::/48', end_address: '2001:db8:1::1:0:0/48' },
      '__all__',
      'Defined range exceeds maximum supported size (4294967295)',
    ],
  ])('refuses %j (400 at %s)', async (body, key, message) => {
    const response = await app.api.post('/api/ipam/ip-ranges/', body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ [key]: [message] });
  });

  it('refuses a range that overlaps another of its VRF, and accepts it in another VRF', async () => {
    await create('/api/ipam/ip-ranges/', { start_address: '203.0.113.10/24', end_address: '203.0.113.20/24' });
    for (const [start, end] of [
      ['203.0.113.5', '203.0.113.10'],
      ['203.0.113.20', '203.0.113.30'],
      ['203.0.113.12', '203.0.113.14'],
      ['203.0.113.1', '203.0.113.99'],
    ]) {
      const response = await app.api.post('/api/ipam/ip-ranges/', {
        start_address: `${start}/24`,
        end_address: `${end}/24`,
      });
      expect(response.status, `${start}-${end}`).toBe(400);
      expect(response.body).toEqual({
        __all__: ['Defined addresses overlap with range 203.0.113.10-20/24 in VRF None'],
      });
    }
    const vrf = await create('/api/ipam/vrfs/', { name: 'Range VRF', rd: '65000:7' });
    await create('/api/ipam/ip-ranges/', {
      start_address: '203.0.113.5/24',
      end_address: '203.0.113.30/24',
      vrf: vrf.id,
    });
    const again = await app.api.post('/api/ipam/ip-ranges/', {
      start_address: '203.0.113.1/24',
      end_address: '203.0.113.5/24',
      vrf: vrf.id,
    });
    expect(again.body).toEqual({
      __all__: ['Defined addresses overlap with range 203.0.113.5-30/24 in VRF Range VRF (65000:7)'],
    });
    // Two ranges in one request are checked against each other too (all or none).
    const bulk = await app.api.post('/api/ipam/ip-ranges/', [
      { start_address: '203.0.113.100/24', end_address: '203.0.113.110/24' },
      { start_address: '203.0.113.105/24', end_address: '203.0.113.120/24' },
    ]);
    expect(bulk.status).toBe(400);
    expect((await app.api.get('/api/ipam/ip-ranges/?start_address=203.0.113.100')).body.count).toBe(0);
  });

  it('hands out the free addresses of a range; a populated range has none and takes its span from the prefix', async () => {
    const prefix = await create('/api/ipam/prefixes/', { prefix: '10.77.0.0/28' });
    const range = await create('/api/ipam/ip-ranges/', { start_address: '10.77.0.2/28', end_address: '10.77.0.5/28' });
    await create('/api/ipam/ip-addresses/', { address: '10.77.0.3/28' });
    const url = `/api/ipam/ip-ranges/${range.id}/available-ips/`;
    expect((await app.api.get(url)).body.map((ip: any) => ip.address)).toEqual([
      '10.77.0.2/28',
      '10.77.0.4/28',
      '10.77.0.5/28',
    ]);
    expect((await app.api.get(url)).body[0]).toEqual({ family: 4, address: '10.77.0.2/28', vrf: null });
    const two = await create(url, [{ description: 'a' }, { description: 'b', prefix_length: 32 }]);
    expect(two.map((ip: any) => ip.address)).toEqual(['10.77.0.2/28', '10.77.0.4/32']);
    expect((await app.api.post(url, [{}, {}])).status).toBe(409);
    expect((await app.api.post(url, { prefix_length: 27 })).body).toEqual([
      { prefix_length: ['Prefix length must be greater than or equal to the parent mask length (28)'] },
    ]);

    const populated = await create('/api/ipam/ip-ranges/', {
      start_address: '10.77.0.8/28',
      end_address: '10.77.0.12/28',
      mark_populated: true,
    });
    expect((await app.api.get(`/api/ipam/ip-ranges/${populated.id}/available-ips/`)).body).toEqual([]);
    const inside = await app.api.post('/api/ipam/ip-addresses/', { address: '10.77.0.9/28' });
    expect(inside.status).toBe(400);
    expect(inside.body).toEqual({ address: ['Cannot create IP address 10.77.0.9/28 inside range 10.77.0.8-12/28.'] });
    const free = (await app.api.get(`/api/ipam/prefixes/${prefix.id}/available-ips/`)).body.map(
      (ip: any) => ip.address,
    );
    expect(free).toEqual([
      '10.77.0.1/28',
      '10.77.0.5/28',
      '10.77.0.6/28',
      '10.77.0.7/28',
      '10.77.0.13/28',
      '10.77.0.14/28',
    ]);
  });

  it('checks an ASN range, counts its ASNs and hands out its free numbers with its RIR', async () => {
    const rir = await create('/api/ipam/rirs/', { name: 'Range RIR', slug: 'range-rir' });
    const bad = await app.api.post('/api/ipam/asn-ranges/', {
      name: 'Bad',
      slug: 'bad',
      rir: rir.id,
      start: 10,
      end: 10,
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ __all__: ['Starting ASN (10) must be lower than ending ASN (10).'] });
    const range = await create('/api/ipam/asn-ranges/', {
      name: 'Private',
      slug: 'private',
      rir: rir.id,
      start: 4200000000,
      end: 4200000004,
    });
    expect(range).toMatchObject({ display: 'Private (4200000000-4200000004)', asn_count: 0 });
    await create('/api/ipam/asns/', { asn: 4200000001, rir: rir.id });
    const url = `/api/ipam/asn-ranges/${range.id}/available-asns/`;
    const listed = (await app.api.get(url)).body;
    expect(listed.map((a: any) => a.asn)).toEqual([4200000000, 4200000002, 4200000003, 4200000004]);
    expect(listed[0]).toEqual({ rir: expect.objectContaining({ id: rir.id, slug: 'range-rir' }), asn: 4200000000 });
    const one = await create(url, { description: 'first' });
    expect(one).toMatchObject({ asn: 4200000000, description: 'first', rir: { id: rir.id } });
    expect((await app.api.post(url, [{}, {}, {}, {}])).status).toBe(409);
    expect((await create(url, [{}, {}, {}])).map((a: any) => a.asn)).toEqual([4200000002, 4200000003, 4200000004]);
    const conflict = await app.api.post(url, {});
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual({ detail: 'Insufficient resources are available to satisfy the request' });
    expect((await app.api.get(`/api/ipam/asn-ranges/${range.id}/`)).body.asn_count).toBe(5);
    expect((await app.api.get(`/api/ipam/asn-ranges/?id=${range.id}&brief=true`)).body.results[0]).toEqual({
      id: range.id,
      url: expect.any(String),
      display: 'Private (4200000000-4200000004)',
      name: 'Private',
      description: '',
    });
  });

  it('never hands out an AS number twice to concurrent requests', async () => {
    const rir = await create('/api/ipam/rirs/', { name: 'Race RIR', slug: 'race-rir' });
    const range = await create('/api/ipam/asn-ranges/', {
      name: 'Race',
      slug: 'race',
      rir: rir.id,
      start: 64600,
      end: 64609,
    });
    const url = `/api/ipam/asn-ranges/${range.id}/available-asns/`;
    const second = dialect === 'postgres' ? await startTestApp(dialect, { databaseUrl: app.databaseUrl }) : null;
    try {
      const clients = second ? [app.api, second.api] : [app.api];
      const responses = await Promise.all(
        Array.from({ length: 14 }, (_, i) => clients[i % clients.length]!.post(url, { description: `race ${i}` })),
      );
      const asns = responses.filter((r) => r.status === 201).map((r) => r.body.asn as number);
      expect(asns.sort()).toEqual(Array.from({ length: 10 }, (_, i) => 64600 + i));
      expect(responses.filter((r) => r.status === 409)).toHaveLength(4);
    } finally {
      await second?.close({ keepDatabase: true });
    }
  });
});
