import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openPostgresSource, openSqliteSource } from './baseline-sources.js';
import { startBaseline } from './baseline.js';
import { createPostgresDatabase, createSqliteDatabase, type BenchDatabase } from './databases.js';
import { runLoad, summarize, type LoadOutcome, type LoadSpec, type RequestPlan } from './load.js';
import {
  printDatabase,
  printTargets,
  writeResults,
  type DatabaseResult,
  type ScenarioResult,
  type TargetResult,
} from './report.js';
import { watchCpu } from './noise.js';
import { seedThroughApi } from './seed.js';
import { seedDevices } from './seed-devices.js';
import { startService, type RunningService } from './service.js';
import { verifySamePages, verifySameWrites } from './verify.js';
import { deviceBody, siteBody, type DeviceRefs, type SeedRefs } from './site-body.js';
import { benchWebhooks } from './webhooks.js';
import { buildDist } from './worker-process.js';
import { benchImport } from './import-netbox.js';
import { benchCablePaths } from './cable-paths.js';

/**
 * `npm run bench`: the service against a hand-written node:http baseline on SQLite and PostgreSQL.
 * Options: --db sqlite,postgres  --duration <s per scenario>  --warmup <s>  --concurrency <n>  --sites <n>
 * --devices <n>  --contexts <n>  --bulk-runs <n>  --rounds <n>  --webhooks <n> (sites created, then delivered
 * by one worker; default 2,000, not scaled by --duration: the size of the backlog changes the rate measured)
 * --steady-rate <writes/s> (default 200) --steady-seconds <s> (default 10): single writes at a steady rate
 * for the commit-to-receipt latency  --only webhooks (skip the other scenarios)  --only pages (only the pages
 * compared with the baseline: no writes, no webhooks)  --only import (svc import-netbox: NetBox's demo data and a
 * synthetic NetBox database of --import-devices devices × 9 objects, default about 100,000, into each database:
 * rows/s and peak memory; written to <out>-import.json)  --only writes (the writes compared with the baseline —
 * one site, one device, a PATCH of a site, a bulk of 1,000 devices — on 1,000 seeded sites and 100 devices)
 * --only cables (stored cable paths: --cable-devices devices, default 1,000, each with 4 links through two patch
 * panels; trace/ p50/p99, a page of 1,000 interfaces, one cable change; written to <out>-cables.json)
 * --out <file> (default bench/results/latest.json, git-ignored).
 * PostgreSQL: a fresh database on the server of BENCH_DATABASE_URL or TEST_DATABASE_URL, else
 * postgres://postgres@127.0.0.1:5432/test; skipped with a message when no server answers.
 */

interface Options {
  databases: ('sqlite' | 'postgres')[];
  durationMs: number;
  warmupMs: number;
  concurrency: number;
  sites: number;
  /** Devices (with a site, role, type, platform, tenant and tag) and config contexts matching all of them. */
  devices: number;
  contexts: number;
  bulkRuns: number;
  bulkSize: number;
  /** Alternating rounds of the baseline and the complete list. */
  rounds: number;
  /** Sites created under an event rule, each delivered to a local receiver by one worker. */
  webhooks: number;
  /** Single-site writes per second, and seconds, of the steady webhook scenario. */
  steadyRate: number;
  steadySeconds: number;
  /** Only the webhook scenarios. */
  onlyWebhooks: boolean;
  /** Only the compared pages (no writes, no webhooks). */
  onlyPages: boolean;
  /** Only the writes compared with the baseline. */
  onlyWrites: boolean;
  /** Only `svc import-netbox` (demo data, and a synthetic database of `importDevices` × 9 objects). */
  onlyImport: boolean;
  importDevices: number;
  /** Only the stored cable paths (`cableDevices` devices, 4 links each through two patch panels). */
  onlyCables: boolean;
  cableDevices: number;
  out: string;
}

const LIST_PATH = '/api/dcim/sites/?limit=50';
const COMPLETE_1000 = 'dcim/devices/?limit=1000 (complete)';
const BULK_NAME = 'POST bulk of 1,000 sites';
const DEVICE_LIST_PATH = '/api/dcim/devices/?limit=50';

function readOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: 'string', default: 'sqlite,postgres' },
      duration: { type: 'string', default: '6' },
      warmup: { type: 'string', default: '2' },
      concurrency: { type: 'string', default: '16' },
      sites: { type: 'string', default: '10000' },
      devices: { type: 'string', default: '1000' },
      contexts: { type: 'string', default: '20' },
      'bulk-runs': { type: 'string', default: '5' },
      rounds: { type: 'string', default: '3' },
      webhooks: { type: 'string', default: '2000' },
      'steady-rate': { type: 'string', default: '200' },
      'steady-seconds': { type: 'string', default: '10' },
      only: { type: 'string', default: '' },
      'import-devices': { type: 'string', default: '11112' },
      'cable-devices': { type: 'string', default: '1000' },
      out: {
        type: 'string',
        default: path.join(path.dirname(fileURLToPath(import.meta.url)), 'results', 'latest.json'),
      },
    },
  });
  const databases = values.db.split(',').map((d) => d.trim());
  for (const d of databases) if (d !== 'sqlite' && d !== 'postgres') throw new Error(`--db: unknown database '${d}'`);
  const nonNegative = (name: string, raw: string): number => {
    const n = Number(raw);
    if (!(n >= 0)) throw new Error(`--${name} must be a number of seconds`);
    return n;
  };
  const positive = (name: string, raw: string): number => {
    const n = Number(raw);
    if (!(n > 0)) throw new Error(`--${name} must be a positive number`);
    return n;
  };
  return {
    databases: databases as Options['databases'],
    durationMs: positive('duration', values.duration) * 1000,
    warmupMs: nonNegative('warmup', values.warmup) * 1000,
    concurrency: Math.round(positive('concurrency', values.concurrency)),
    sites: Math.round(positive('sites', values.sites)),
    devices: Math.round(positive('devices', values.devices)),
    contexts: Math.round(nonNegative('contexts', values.contexts)),
    bulkRuns: Math.round(positive('bulk-runs', values['bulk-runs'])),
    bulkSize: 1000,
    rounds: Math.round(positive('rounds', values.rounds)),
    webhooks: Math.round(positive('webhooks', values.webhooks)),
    steadyRate: positive('steady-rate', values['steady-rate']),
    steadySeconds: positive('steady-seconds', values['steady-seconds']),
    onlyWebhooks: onlyOf(values.only) === 'webhooks',
    onlyPages: onlyOf(values.only) === 'pages',
    onlyWrites: onlyOf(values.only) === 'writes',
    onlyImport: onlyOf(values.only) === 'import',
    importDevices: Number(values['import-devices']),
    onlyCables: onlyOf(values.only) === 'cables',
    cableDevices: Math.round(positive('cable-devices', values['cable-devices'])),
    out: path.resolve(values.out),
  };
}

function onlyOf(value: string): string {
  if (value !== '' && !['webhooks', 'pages', 'import', 'writes', 'cables'].includes(value))
    throw new Error(`--only: unknown scenario '${value}' (webhooks, pages, import, writes, cables)`);
  return value;
}

async function benchDatabase(database: BenchDatabase, options: Options): Promise<DatabaseResult> {
  const service = await startService(database.url);
  try {
    const sites = options.onlyWebhooks ? 100 : options.onlyWrites ? Math.min(options.sites, 1000) : options.sites;
    const deviceCount = options.onlyWrites ? Math.min(options.devices, 100) : options.devices;
    log(`${database.label}: seeding ${sites} sites through the API…`);
    const seed = await seedThroughApi(service.port, service.authorization, {
      sites,
      regions: 20,
      tenants: 50,
      tags: 10,
      chunk: 1000,
    });
    if (options.onlyWebhooks) {
      return {
        database: database.label,
        scenarios: [],
        webhooks: { ...(await webhookScenarios(service, database, options, seed.refs)), bulkWithoutRuleMs: null },
      };
    }
    log(`${database.label}: seeding ${deviceCount} devices and ${options.contexts} config contexts…`);
    const devices = await seedDevices(service.port, service.authorization, seed.refs, seed.siteIds, {
      devices: deviceCount,
      contexts: options.contexts,
      chunk: 500,
    });
    log(`${database.label}: devices seeded in ${(devices.totalMs / 1000).toFixed(1)} s`);
    // Autovacuum would analyze the fresh rows within a minute anyway, likely in the middle of a measurement;
    // analyzing now gives every scenario the steady-state plans.
    if (database.kind === 'postgres') await service.db.knex.raw('ANALYZE');
    const source =
      database.kind === 'sqlite' ? openSqliteSource(database.location) : openPostgresSource(database.location);
    const userModel = service.context.schema.withRole('user')!;
    const bench = (await service.db.knex(userModel.table).where('username', 'bench').first('id')) as { id: number };
    const baseline = await startBaseline(source, service.authorization, { id: Number(bench.id), username: 'bench' });
    try {
      const pages = options.onlyWrites ? [] : benchPages(seed.siteIds);
      if (!options.onlyWrites)
        await verifySamePages(
          service,
          baseline.port,
          [...pages.map((p) => p.paths[0]!), '/api/dcim/sites/?limit=50&offset=5000'],
          log,
        );
      const deviceRefs = await deviceRefsOf(service, seed.refs, seed.siteIds);
      if (!options.onlyPages) {
        const verified = (await verifyWrites(service, baseline.port, seed.refs, deviceRefs)) as number;
        log(`${database.label}: writes verified (site ${verified})`);
      }
      const auth = { authorization: service.authorization };
      const timed = {
        concurrency: options.concurrency,
        durationMs: options.durationMs,
        warmupMs: options.warmupMs,
        expectedStatus: 200,
      };
      const cpu = watchCpu();
      const runs = new Map<string, { outcomes: LoadOutcome[]; queries: number | null; page: string | null }>();
      const measure = async (
        name: string,
        spec: LoadSpec,
        counted: RunningService | null,
        page: string | null = null,
      ): Promise<void> => {
        log(`${database.label}: ${name}…`);
        const queriesBefore = counted?.db.queryCount() ?? 0;
        const outcome = await runLoad(spec);
        const entry = runs.get(name) ?? { outcomes: [], queries: counted ? 0 : null, page };
        entry.outcomes.push(outcome);
        if (counted) entry.queries! += counted.db.queryCount() - queriesBefore;
        runs.set(name, entry);
      };

      // Each page: the baseline and the service alternate in short rounds, so that a noisy neighbour or a
      // slow minute weighs on both sides of the ratio alike.
      for (const page of pages) {
        const plan: RequestPlan = { kind: 'get', paths: page.paths };
        for (let round = 0; round < options.rounds; round += 1) {
          const segment = {
            ...timed,
            durationMs: options.durationMs / options.rounds,
            warmupMs: round === 0 ? options.warmupMs : Math.min(options.warmupMs, 500),
          };
          await measure(`baseline ${page.name}`, { ...segment, port: baseline.port, headers: auth, plan }, null);
          await measure(page.name, { ...segment, port: service.port, headers: auth, plan }, service, page.name);
        }
      }
      if (!options.onlyPages) {
        // Each write against the baseline's same write, alternating in rounds as the pages do; every run writes
        // new objects (a prefix of its own).
        let run = 0;
        const writes: { name: string; plan: () => RequestPlan; status: number; bulk: boolean }[] = [
          {
            name: 'POST one site',
            status: 201,
            bulk: false,
            plan: () => ({
              kind: 'post-sites',
              path: '/api/dcim/sites/',
              prefix: `w${run}`,
              refs: seed.refs,
              perRequest: 1,
            }),
          },
          {
            name: 'POST one device',
            status: 201,
            bulk: false,
            plan: () => ({
              kind: 'post-devices',
              path: '/api/dcim/devices/',
              prefix: `w${run}`,
              refs: deviceRefs,
              perRequest: 1,
            }),
          },
          {
            name: 'PATCH one site',
            status: 200,
            bulk: false,
            plan: () => ({
              kind: 'patch',
              paths: seed.siteIds.slice(0, 200).map((id) => `/api/dcim/sites/${id}/`),
              prefix: `w${run}`,
            }),
          },
          {
            name: 'POST bulk of 1,000 devices',
            status: 201,
            bulk: true,
            plan: () => ({
              kind: 'post-devices',
              path: '/api/dcim/devices/',
              prefix: `w${run}`,
              refs: deviceRefs,
              perRequest: 1000,
            }),
          },
        ];
        for (const write of writes) {
          for (let round = 0; round < options.rounds; round += 1) {
            const shape = write.bulk
              ? {
                  concurrency: 1,
                  requests: Math.max(1, Math.round(options.bulkRuns / options.rounds)),
                  warmupRequests: round === 0 ? 1 : 0,
                }
              : {
                  concurrency: options.concurrency,
                  durationMs: options.durationMs / options.rounds,
                  warmupMs: round === 0 ? options.warmupMs : Math.min(options.warmupMs, 500),
                };
            const common = { ...shape, headers: auth, expectedStatus: write.status };
            run += 1;
            await measure(`baseline ${write.name}`, { ...common, port: baseline.port, plan: write.plan() }, null);
            run += 1;
            await measure(write.name, { ...common, port: service.port, plan: write.plan() }, service, write.name);
          }
        }
      }
      if (!options.onlyPages && !options.onlyWrites) {
        await measure(
          'POST single site',
          {
            ...timed,
            port: service.port,
            headers: auth,
            expectedStatus: 201,
            plan: { kind: 'post-sites', path: '/api/dcim/sites/', prefix: 'single', refs: seed.refs, perRequest: 1 },
          },
          service,
        );
        await measure(
          BULK_NAME,
          {
            port: service.port,
            headers: auth,
            expectedStatus: 201,
            concurrency: 1,
            requests: options.bulkRuns,
            warmupRequests: 1,
            plan: {
              kind: 'post-sites',
              path: '/api/dcim/sites/',
              prefix: 'bulk',
              refs: seed.refs,
              perRequest: options.bulkSize,
            },
          },
          service,
        );
      }
      const noise = cpu.stop();
      const stats = new Map([...runs].map(([name, { outcomes }]) => [name, summarize(outcomes)]));
      const scenarios: ScenarioResult[] = [...runs].map(([name, { outcomes, queries, page }]) => {
        const own = stats.get(name)!;
        const base = page === null ? undefined : stats.get(`baseline ${page}`);
        return {
          name,
          ...own,
          ratio: base && base.rps > 0 ? own.rps / base.rps : null,
          baselineP50Ms: base ? base.p50Ms : null,
          queriesPerRequest: queries === null ? null : queries / own.totalRequests,
          runsRps: outcomes.map((o) => summarize([o]).rps),
        };
      });
      // Last: from here on writes queue tasks and a worker runs, which would change every scenario above.
      const webhooks =
        options.onlyPages || options.onlyWrites
          ? undefined
          : await webhookScenarios(service, database, options, seed.refs);
      const bulk = scenarios.find((s) => s.name === BULK_NAME);
      return {
        database: database.label,
        seed: {
          sites,
          totalMs: seed.totalMs,
          chunkMs: seed.chunkMs,
          devices: { devices: options.devices, contexts: options.contexts, totalMs: devices.totalMs },
        },
        otherProcessesCores: noise.otherCores,
        cores: noise.cores,
        scenarios,
        webhooks: webhooks && { ...webhooks, bulkWithoutRuleMs: bulk ? bulk.p50Ms : null },
      };
    } finally {
      await baseline.close();
    }
  } finally {
    await service.close();
  }
}

/** What the benchmark's written devices point at: the seeded sites, types, roles, tenants and tags. */
async function deviceRefsOf(service: RunningService, refs: SeedRefs, siteIds: readonly number[]): Promise<DeviceRefs> {
  const ids = async (label: string): Promise<number[]> =>
    (
      (await service.db.knex(service.context.schema.model(label).table).orderBy('id').select('id')) as { id: number }[]
    ).map((r) => Number(r.id));
  return {
    siteIds: siteIds.slice(0, 500),
    typeIds: await ids('dcim.devicetype'),
    roleIds: await ids('dcim.devicerole'),
    tenantIds: refs.tenantIds,
    tagIds: refs.tagIds,
  };
}

/** Each compared write once on the baseline, checked against the service's rendering of what it wrote. */
async function verifyWrites(
  service: RunningService,
  baselinePort: number,
  refs: SeedRefs,
  deviceRefs: DeviceRefs,
): Promise<number> {
  const site = siteBody('verify', 0, refs);
  await verifySameWrites(
    service,
    baselinePort,
    [
      { method: 'POST', path: '/api/dcim/sites/', body: site, status: 201 },
      { method: 'POST', path: '/api/dcim/devices/', body: deviceBody('verify', 0, deviceRefs), status: 201 },
      {
        method: 'POST',
        path: '/api/dcim/devices/',
        body: [deviceBody('verify', 1, deviceRefs), deviceBody('verify', 2, deviceRefs)],
        status: 201,
      },
    ],
    log,
  );
  const written = (await service.db
    .knex('dcim_site')
    .where('name', site.name as string)
    .first('id')) as { id: number };
  await verifySameWrites(
    service,
    baselinePort,
    [{ method: 'PATCH', path: `/api/dcim/sites/${written.id}/`, body: { description: 'verified' }, status: 200 }],
    log,
  );
  return Number(written.id);
}

function webhookScenarios(
  service: RunningService,
  database: BenchDatabase,
  options: Options,
  refs: SeedRefs,
): ReturnType<typeof benchWebhooks> {
  log(`${database.label}: webhook delivery of ${options.webhooks} created sites by one worker…`);
  const { webhooks: sites, bulkSize, steadyRate, steadySeconds } = options;
  return benchWebhooks(service, { sites, bulkSize, steadyRate, steadySeconds, refs }, log);
}

/** A page measured against the baseline: its name in the tables and the paths its requests cycle through. */
interface BenchPage {
  name: string;
  paths: string[];
  /** The ratio the issue asks for (detail pages do less work per request, so the bar is lower). */
  target: number;
}

/** The compared pages; the complete 1,000-device page is judged by its p50 instead. */
function benchPages(siteIds: readonly number[]): BenchPage[] {
  return [
    { name: 'dcim/sites/?limit=50', paths: [LIST_PATH], target: 0.6 },
    { name: 'dcim/sites/<id>/', paths: detailPaths(siteIds), target: 0.5 },
    { name: 'dcim/sites/?limit=1000&brief=1', paths: ['/api/dcim/sites/?limit=1000&brief=1'], target: 0.6 },
    { name: 'dcim/devices/?limit=50', paths: [DEVICE_LIST_PATH], target: 0.6 },
    {
      name: 'dcim/devices/?limit=50&exclude=config_context',
      paths: [`${DEVICE_LIST_PATH}&exclude=config_context`],
      target: 0.6,
    },
    { name: 'dcim/devices/?limit=1000&brief=1', paths: ['/api/dcim/devices/?limit=1000&brief=1'], target: 0.6 },
    { name: COMPLETE_1000, paths: ['/api/dcim/devices/?limit=1000'], target: 0 },
  ];
}

/** Every seeded site once, in a scattered but fixed order, so that detail requests do not walk the index. */
function detailPaths(ids: readonly number[]): string[] {
  const step = 7919;
  return ids.map((_, i) => `/api/dcim/sites/${ids[(i * step) % ids.length]}/`);
}

function evaluateTargets(results: readonly DatabaseResult[]): TargetResult[] {
  const targets: TargetResult[] = [];
  for (const result of results) {
    for (const page of benchPages([1])) {
      const scenario = result.scenarios.find((s) => s.name === page.name);
      if (!scenario || scenario.ratio === null) continue;
      if (page.name === COMPLETE_1000) {
        const base = scenario.baselineP50Ms ?? 0;
        targets.push({
          name: `${page.name}: p50 within 1.3× the baseline's`,
          database: result.database,
          met: scenario.p50Ms <= 1.3 * base,
          detail: `${scenario.p50Ms.toFixed(0)} ms vs ${base.toFixed(0)} ms = ${(scenario.p50Ms / base).toFixed(2)}×`,
        });
        continue;
      }
      targets.push({
        name: `${page.name} ≥ ${page.target} of the baseline's req/s`,
        database: result.database,
        met: scenario.ratio >= page.target,
        detail: `ratio ${scenario.ratio.toFixed(2)}`,
      });
    }
    const hooks = result.webhooks;
    if (hooks) {
      targets.push({
        name: 'webhook deliveries per second by one worker ≥ 500',
        database: result.database,
        met: hooks.receiptRate >= 500,
        detail: `${hooks.receiptRate.toFixed(0)}/s first to last receipt of ${hooks.deliveries} (WORKER_CONCURRENCY ${hooks.concurrency})`,
      });
      const { steady } = hooks;
      targets.push({
        name: `commit → receipt p99 < 1 s at ${steady.targetRate} writes/s`,
        database: result.database,
        // Only a verdict when the writes did arrive at that rate.
        met: steady.latency.p99Ms < 1000 && steady.commitRate >= 0.9 * steady.targetRate,
        detail: `p50 ${steady.latency.p50Ms.toFixed(0)} ms, p99 ${steady.latency.p99Ms.toFixed(0)} ms over ${steady.writes} writes committed at ${steady.commitRate.toFixed(0)}/s`,
      });
    }
    const bulk = result.scenarios.find((s) => s.name === BULK_NAME);
    if (bulk && result.database === 'SQLite') {
      targets.push({
        name: 'bulk create of 1,000 sites under 1 s',
        database: result.database,
        met: bulk.p50Ms < 1000 && bulk.maxMs < 1000,
        detail: `median ${bulk.p50Ms.toFixed(0)} ms, slowest ${bulk.maxMs.toFixed(0)} ms over ${bulk.requests} runs`,
      });
    }
  }
  return targets;
}

function log(message: string): void {
  console.error(`[bench] ${message}`);
}

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  if (options.onlyImport) {
    const results = await benchImport(options.databases, options.importDevices, log);
    fs.mkdirSync(path.dirname(options.out), { recursive: true });
    fs.writeFileSync(options.out.replace(/\.json$/, '-import.json'), `${JSON.stringify(results, null, 2)}\n`);
    return 0;
  }
  if (options.onlyCables) {
    const results = await benchCablePaths(options.databases, options.cableDevices, log);
    fs.mkdirSync(path.dirname(options.out), { recursive: true });
    fs.writeFileSync(options.out.replace(/\.json$/, '-cables.json'), `${JSON.stringify(results, null, 2)}\n`);
    return 0;
  }
  const started = performance.now();
  const results: DatabaseResult[] = [];
  let current: BenchDatabase | null = null;
  // Ctrl-C must not leave a svc_bench_* database behind on the PostgreSQL server.
  process.once('SIGINT', () => {
    log('interrupted: dropping the benchmark database');
    void (current?.drop() ?? Promise.resolve()).finally(() => process.exit(130));
  });
  // The PostgreSQL webhook scenarios run `svc worker`, which runs the compiled runtime.
  if (options.databases.includes('postgres') && !options.onlyPages) buildDist();
  for (const kind of options.databases) {
    const database = kind === 'sqlite' ? createSqliteDatabase() : await createPostgresDatabase();
    if ('skipped' in database) {
      log(`PostgreSQL skipped: ${database.skipped}`);
      results.push({ database: 'PostgreSQL', skipped: database.skipped, scenarios: [] });
      continue;
    }
    current = database;
    try {
      results.push(await benchDatabase(database, options));
    } finally {
      await database.drop();
      current = null;
    }
  }
  for (const result of results) printDatabase(result);
  const targets = evaluateTargets(results);
  printTargets(targets);
  const { out, ...shown } = options;
  const file = writeResults(out, { options: shown, databases: results, targets });
  console.log(
    `\nResults written to ${path.relative(process.cwd(), file)} (total ${((performance.now() - started) / 1000).toFixed(0)} s).`,
  );
  return 0;
}

process.exitCode = await main();
