import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import type { ApiClient, ApiResponse } from '../support/client.js';
import { show } from './support.js';

const ROUNDS = 10;
const RACERS = 10;

/**
 * Concurrent writers through two servers on one database (PostgreSQL, and one SQLite file): no update is lost,
 * no uniqueness rule checked in code lets two equal objects in (across requests or within one bulk request),
 * and conflicts between transactions (deadlocks, a busy file) are retried rather than answered with a 5xx.
 */
describe.each(DIALECTS)('concurrent writes on %s', (dialect) => {
  let one: TestApp;
  let two: TestApp;
  let rir = 0;
  /** Alternates between the two servers. */
  const server = (i: number): ApiClient => (i % 2 === 0 ? one.api : two.api);
  const figures = { requests: 0, serverErrors: 0, lostUpdates: 0, duplicateWins: 0 };
  const count = (responses: ApiResponse[]): ApiResponse[] => {
    figures.requests += responses.length;
    figures.serverErrors += responses.filter((r) => r.status >= 500).length;
    return responses;
  };

  beforeAll(async () => {
    one = await startTestApp(dialect);
    two = await startTestApp(dialect, { databaseUrl: one.databaseUrl });
    const fields = await one.api.post('/api/extras/custom-fields/', [
      { name: 'cf_a', type: 'text', object_types: ['dcim.site'] },
      { name: 'cf_b', type: 'text', object_types: ['dcim.site'] },
      { name: 'cf_u', type: 'integer', unique: true, object_types: ['dcim.site'] },
    ]);
    expect(fields.status, show(fields)).toBe(201);
    rir = (await one.api.post('/api/ipam/rirs/', { name: 'RIR', slug: 'rir' })).body.id;
  });
  afterAll(async () => {
    console.log(
      `concurrent writes on ${dialect}: ${figures.requests} requests, ${figures.serverErrors} × 5xx, ` +
        `${figures.lostUpdates} lost updates, ${figures.duplicateWins} duplicate wins`,
    );
    await two?.close({ keepDatabase: true });
    await one?.close();
  });

  const sites = async (n: number, prefix: string): Promise<number[]> => {
    const bodies = Array.from({ length: n }, (_, i) => ({ name: `${prefix}-${i}`, slug: `${prefix}-${i}` }));
    const created = await one.api.post('/api/dcim/sites/', bodies);
    expect(created.status, show(created)).toBe(201);
    return (created.body as { id: number }[]).map((s) => s.id);
  };

  it('loses no custom field value when a single PATCH races a bulk PATCH, or two bulk PATCHes race', async () => {
    const ids = await sites(4, 'lost');
    for (let round = 0; round < ROUNDS; round += 1) {
      const [x, y] = round % 2 === 0 ? [ids[0]!, ids[1]!] : [ids[1]!, ids[0]!];
      const responses = count(
        await Promise.all([
          server(round).patch(`/api/dcim/sites/${x}/`, { custom_fields: { cf_a: `a${round}` } }),
          server(round + 1).patch('/api/dcim/sites/', [
            { id: x, custom_fields: { cf_b: `b${round}` } },
            { id: y, custom_fields: { cf_b: `b${round}` } },
          ]),
          server(round).patch('/api/dcim/sites/', [
            { id: ids[2], custom_fields: { cf_a: `a${round}` } },
            { id: ids[3], custom_fields: { cf_a: `a${round}` } },
          ]),
          server(round + 1).patch('/api/dcim/sites/', [
            { id: ids[3], custom_fields: { cf_b: `b${round}` } },
            { id: ids[2], custom_fields: { cf_b: `b${round}` } },
          ]),
        ]),
      );
      for (const response of responses) expect(response.status, show(response)).toBe(200);
      for (const id of [x, ids[2]!, ids[3]!]) {
        const data = (await one.api.get(`/api/dcim/sites/${id}/`)).body.custom_fields;
        if (data.cf_a !== `a${round}` || data.cf_b !== `b${round}`) figures.lostUpdates += 1;
      }
    }
    expect(figures.lostUpdates).toBe(0);
  });

  it('never lets two equal addresses, prefixes or unique custom field values in, across servers', async () => {
    const race = async (bodies: (i: number) => [string, unknown]): Promise<number> => {
      const responses = count(
        await Promise.all(Array.from({ length: RACERS }, (_, i) => server(i).post(...bodies(i)))),
      );
      for (const response of responses) expect([201, 400], show(response)).toContain(response.status);
      const won = responses.filter((r) => r.status === 201).length;
      figures.duplicateWins += Math.max(0, won - 1);
      return won;
    };
    for (let round = 0; round < ROUNDS / 2; round += 1) {
      expect(await race(() => ['/api/ipam/ip-addresses/', { address: `10.66.${round}.1/24` }])).toBe(1);
      expect(await race((i) => ['/api/ipam/ip-addresses/', { address: `10.67.${round}.1/${24 + (i % 4)}` }])).toBe(1);
      expect(await race(() => ['/api/ipam/prefixes/', { prefix: `10.77.${round}.0/24` }])).toBe(1);
      expect(await race(() => ['/api/ipam/aggregates/', { prefix: `10.${100 + round}.0.0/16`, rir }])).toBe(1);
      expect(
        await race((i) => [
          '/api/dcim/sites/',
          { name: `u-${round}-${i}`, slug: `u-${round}-${i}`, custom_fields: { cf_u: round } },
        ]),
      ).toBe(1);
    }
    expect(figures.duplicateWins).toBe(0);
  });

  it('refuses equal objects within one bulk request, and stores none of the batch', async () => {
    const before = (await one.api.get('/api/ipam/ip-addresses/?limit=1')).body.count;
    const addresses = await one.api.post('/api/ipam/ip-addresses/', [
      { address: '10.88.0.1/24' },
      { address: '10.88.0.2/24' },
      { address: '10.88.0.1/25' },
    ]);
    expect(addresses.status, show(addresses)).toBe(400);
    expect(addresses.body).toEqual([{}, {}, { address: ['Duplicate IP address found in global table: 10.88.0.1/24'] }]);
    expect((await one.api.get('/api/ipam/ip-addresses/?limit=1')).body.count).toBe(before);

    const prefixes = await one.api.post('/api/ipam/prefixes/', [
      { prefix: '10.89.0.0/24' },
      { prefix: '10.89.0.0/24' },
    ]);
    expect(prefixes.status, show(prefixes)).toBe(400);
    expect(prefixes.body[1]).toEqual({ prefix: ['Duplicate prefix found in global table: 10.89.0.0/24'] });

    const unique = await one.api.post('/api/dcim/sites/', [
      { name: 'bulk-u-1', slug: 'bulk-u-1', custom_fields: { cf_u: 1000 } },
      { name: 'bulk-u-2', slug: 'bulk-u-2', custom_fields: { cf_u: 1000 } },
    ]);
    expect(unique.status, show(unique)).toBe(400);
    expect(unique.body[1]).toEqual({ custom_fields: { cf_u: ["Custom field 'cf_u' must have a unique value."] } });

    // Two objects changed to the same value in one bulk update.
    const pair = await one.api.post('/api/ipam/ip-addresses/', [
      { address: '10.90.0.1/24' },
      { address: '10.90.0.2/24' },
    ]);
    const moved = await one.api.patch(
      '/api/ipam/ip-addresses/',
      (pair.body as { id: number }[]).map((a) => ({ id: a.id, address: '10.90.0.3/24' })),
    );
    expect(moved.status, show(moved)).toBe(400);
    const stored = await one.api.get('/api/ipam/ip-addresses/?parent=10.90.0.0/24&ordering=address');
    expect(stored.body.results.map((a: { address: string }) => a.address)).toEqual(['10.90.0.1/24', '10.90.0.2/24']);
  });

  it('places one device in a rack unit when two requests race for it', async () => {
    const site = (await one.api.post('/api/dcim/sites/', { name: 'rack-site', slug: 'rack-site' })).body.id;
    const maker = (await one.api.post('/api/dcim/manufacturers/', { name: 'Maker', slug: 'maker' })).body.id;
    const type = (
      await one.api.post('/api/dcim/device-types/', { manufacturer: maker, model: '2U', slug: 'two-u', u_height: 2 })
    ).body.id;
    const role = (await one.api.post('/api/dcim/device-roles/', { name: 'Role', slug: 'role' })).body.id;
    const rack = (await one.api.post('/api/dcim/racks/', { name: 'R1', site })).body.id;
    for (let round = 0; round < ROUNDS / 2; round += 1) {
      const responses = count(
        await Promise.all(
          Array.from({ length: 4 }, (_, i) =>
            server(i).post('/api/dcim/devices/', {
              name: `d-${round}-${i}`,
              device_type: type,
              role,
              site,
              rack,
              face: 'front',
              position: 1 + round * 4 + (i % 2),
            }),
          ),
        ),
      );
      for (const response of responses) expect([201, 400], show(response)).toContain(response.status);
      const won = responses.filter((r) => r.status === 201).length;
      figures.duplicateWins += Math.max(0, won - 1);
      expect(won, responses.map(show).join('\n')).toBe(1);
    }
  });

  it('answers every overlapping bulk update (deadlocks retried, a busy file waited for), none with a 5xx', async () => {
    const ids = await sites(12, 'busy');
    const pick = (seed: number): number[] =>
      Array.from({ length: 6 }, (_, i) => ids[(seed * 7 + i * (seed % 2 === 0 ? 1 : 11)) % ids.length]!);
    for (let round = 0; round < ROUNDS / 2; round += 1) {
      const responses = count(
        await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            server(i).patch(
              '/api/dcim/sites/',
              [...new Set(pick(round * 8 + i))].map((id) => ({ id, description: `round ${round} client ${i}` })),
            ),
          ),
        ),
      );
      for (const response of responses) expect(response.status, show(response)).toBe(200);
    }
    expect(figures.serverErrors).toBe(0);
  });
});
