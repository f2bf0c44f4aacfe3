/**
 * `npm run bench -- --only cables`: stored cable paths on a topology of --cable-devices devices (default 1,000),
 * each with 4 links through two patch panels: devices are paired, each pair shares two panels (a rear port of 4
 * positions and 4 front ports each, a trunk cable between the rear ports), and each device's 4 interfaces are
 * cabled to its panel's front ports, so every interface has a complete path of 9 segments to its peer. Measured
 * over the API: the seed (bulk writes that store every path), trace/ latency (p50/p99 of single requests), a page
 * of 1,000 interfaces with their connected endpoints, and the time of one cable change (an interface's cable
 * deleted and created again; a trunk's status changed, which retraces the 8 paths that cross it).
 */
import http from 'node:http';
import { request, requestJson } from './http-client.js';
import { latencyOf, type Latency } from './load.js';
import { startService } from './service.js';
import { createPostgresDatabase, createSqliteDatabase } from './databases.js';

export interface CableBenchResult {
  database: string;
  devices: number;
  interfaces: number;
  cables: number;
  /** Wall time of the bulk cable writes, which trace and store every path. */
  seedCablesSeconds: number;
  trace: Latency & { requests: number };
  /** GET of 1,000 interfaces (complete representation, connected endpoints included). */
  interfacePage: Latency & { requests: number };
  /** DELETE of an interface's cable and POST of it again: its two paths retraced each time. */
  cableChange: Latency & { requests: number };
  /** PATCH of a trunk cable's status: the 8 paths through it retraced. */
  trunkStatusChange: Latency & { requests: number };
}

type Created = { id: number }[];
const end = (type: string, id: number) => [{ object_type: type, object_id: id }];

/** Runs the cable scenarios on each database kind. */
export async function benchCablePaths(
  kinds: readonly ('sqlite' | 'postgres')[],
  devices: number,
  log: (message: string) => void,
): Promise<CableBenchResult[]> {
  const results: CableBenchResult[] = [];
  for (const kind of kinds) {
    const database = kind === 'sqlite' ? createSqliteDatabase() : await createPostgresDatabase();
    if ('skipped' in database) {
      log(`cables: PostgreSQL skipped: ${database.skipped}`);
      continue;
    }
    const service = await startService(database.url);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const headers = { authorization: service.authorization };
    const call = <T>(method: string, path: string, expected: number, body?: unknown): Promise<T> =>
      requestJson<T>(agent, service.port, method, path, headers, expected, body);
    const bulk = async (path: string, bodies: unknown[]): Promise<Created> => {
      const ids: Created = [];
      for (let i = 0; i < bodies.length; i += 500)
        ids.push(...(await call<Created>('POST', path, 201, bodies.slice(i, i + 500))));
      return ids;
    };
    const timed = async (
      count: number,
      run: (i: number) => Promise<unknown>,
    ): Promise<Latency & { requests: number }> => {
      const ms: number[] = [];
      for (let i = 0; i < count; i++) {
        const started = performance.now();
        await run(i);
        ms.push(performance.now() - started);
      }
      return { ...latencyOf(ms), requests: count };
    };
    try {
      log(`cables: ${database.label}: seeding ${devices} devices with 4 links each through two patch panels…`);
      const [site] = await call<Created>('POST', '/api/dcim/sites/', 201, [{ name: 'Cables', slug: 'cables' }]);
      const [maker] = await call<Created>('POST', '/api/dcim/manufacturers/', 201, [{ name: 'M', slug: 'm' }]);
      const [type] = await call<Created>('POST', '/api/dcim/device-types/', 201, [
        { manufacturer: maker!.id, model: 'T', slug: 't' },
      ]);
      const [role] = await call<Created>('POST', '/api/dcim/device-roles/', 201, [{ name: 'R', slug: 'r' }]);
      const pairs = Math.ceil(devices / 2);
      const device = (name: string) => ({ name, site: site!.id, device_type: type!.id, role: role!.id });
      const hosts = await bulk(
        '/api/dcim/devices/',
        Array.from({ length: pairs * 2 }, (_, i) => device(`host-${i}`)),
      );
      const panels = await bulk(
        '/api/dcim/devices/',
        Array.from({ length: pairs * 2 }, (_, i) => device(`panel-${i}`)),
      );
      const ifaces = await bulk(
        '/api/dcim/interfaces/',
        hosts.flatMap((h) => [0, 1, 2, 3].map((p) => ({ device: h.id, name: `eth${p}`, type: '10gbase-x-sfpp' }))),
      );
      const rears = await bulk(
        '/api/dcim/rear-ports/',
        panels.map((p) => ({ device: p.id, name: 'trunk', type: 'lc', positions: 4 })),
      );
      const fronts = await bulk(
        '/api/dcim/front-ports/',
        panels.flatMap((p, i) =>
          [0, 1, 2, 3].map((n) => ({
            device: p.id,
            name: `port${n}`,
            type: 'lc',
            rear_ports: [{ position: 1, rear_port: rears[i]!.id, rear_port_position: n + 1 }],
          })),
        ),
      );
      const started = performance.now();
      const trunks = await bulk(
        '/api/dcim/cables/',
        Array.from({ length: pairs }, (_, i) => ({
          a_terminations: end('dcim.rearport', rears[2 * i]!.id),
          b_terminations: end('dcim.rearport', rears[2 * i + 1]!.id),
        })),
      );
      const patch = (i: number) => ({
        a_terminations: end('dcim.interface', ifaces[i]!.id),
        b_terminations: end('dcim.frontport', fronts[i]!.id),
      });
      const patches = await bulk(
        '/api/dcim/cables/',
        ifaces.map((_, i) => patch(i)),
      );
      const seedCablesSeconds = (performance.now() - started) / 1000;
      log(`cables: ${database.label}: ${trunks.length + patches.length} cables in ${seedCablesSeconds.toFixed(1)} s`);
      // As the main scenarios: the planner sees the seeded rows before anything is measured.
      if (database.kind === 'postgres') await service.db.knex.raw('ANALYZE');
      const sample = (i: number): number => (i * 7919) % ifaces.length;
      const traced = await call<unknown[]>('GET', `/api/dcim/interfaces/${ifaces[0]!.id}/trace/`, 200);
      if (traced.length !== 3) throw new Error(`trace of eth0 has ${traced.length} hops, expected 3`);
      const trace = await timed(1000, (i) => call('GET', `/api/dcim/interfaces/${ifaces[sample(i)]!.id}/trace/`, 200));
      const interfacePage = await timed(10, () => call('GET', '/api/dcim/interfaces/?limit=1000', 200));
      let current = patches.map((c) => c.id);
      const cableChange = await timed(50, async (i) => {
        const at = sample(i);
        const deleted = await request(agent, service.port, 'DELETE', `/api/dcim/cables/${current[at]}/`, headers);
        if (deleted.status !== 204) throw new Error(`DELETE of cable ${current[at]} answered ${deleted.status}`);
        const [made] = await call<Created>('POST', '/api/dcim/cables/', 201, [patch(at)]);
        current = current.map((id, j) => (j === at ? made!.id : id));
      });
      const trunkStatusChange = await timed(50, (i) =>
        call('PATCH', `/api/dcim/cables/${trunks[i % trunks.length]!.id}/`, 200, {
          status: Math.floor(i / trunks.length) % 2 === 0 ? 'planned' : 'connected',
        }),
      );
      const result: CableBenchResult = {
        database: database.label,
        devices: pairs * 2,
        interfaces: ifaces.length,
        cables: trunks.length + patches.length,
        seedCablesSeconds: Math.round(seedCablesSeconds * 10) / 10,
        trace,
        interfacePage,
        cableChange,
        trunkStatusChange,
      };
      const fmt = (l: Latency) => `p50 ${l.p50Ms.toFixed(1)} ms, p99 ${l.p99Ms.toFixed(1)} ms`;
      log(
        `cables: ${database.label}: trace/ ${fmt(trace)}; 1,000 interfaces ${fmt(interfacePage)}; cable delete+create ${fmt(cableChange)}; trunk status ${fmt(trunkStatusChange)}`,
      );
      results.push(result);
    } finally {
      agent.destroy();
      await service.close();
      await database.drop();
    }
  }
  return results;
}
