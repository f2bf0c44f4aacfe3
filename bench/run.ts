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
import { verifySamePages } from './verify.js';
import type { SeedRefs } from './site-body.js';
import { benchWebhooks } from './webhooks.js';
import { buildDist } from './worker-process.js';

/**
 * `npm run bench`: the service against a hand-written node:http baseline on SQLite and PostgreSQL.
 * Options: --db sqlite,postgres  --duration <s per scenario>  --warmup <s>  --concurrency <n>  --sites <n>
 * --devices <n>  --contexts <n>  --bulk-runs <n>  --rounds <n>  --webhooks <n> (sites created, then delivered
 * by one worker; default 2,000, not scaled by --duration: the size of the backlog changes the rate measured)
 * --steady-rate <writes/s> (default 200) --steady-seconds <s> (default 10): single writes at a steady rate
 * for the commit-to-receipt latency  --only webhooks (skip the other scenarios)
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
  out: string;
}

const LIST_PATH = '/api/dcim/sites/?limit=50';
const BASELINE_NAME = 'baseline list ?limit=50 (node:http + driver)';
const LIST_NAME = 'GET list ?limit=50 (complete)';
const BULK_NAME = 'POST bulk of 1,000 sites';
const DEVICE_LIST_PATH = '/api/dcim/devices/?limit=50';

function readOptions(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: 'string', default: 'sqlite,postgres' },
      duration: { type: 'string', default: '6' },
      warmup: { type: 'string', default: '2' },
      concurrency: { type: 'string', default: '8' },
      sites: { type: 'string', default: '10000' },
      devices: { type: 'string', default: '1000' },
      contexts: { type: 'string', default: '20' },
      'bulk-runs': { type: 'string', default: '5' },
      rounds: { type: 'string', default: '3' },
      webhooks: { type: 'string', default: '2000' },
      'steady-rate': { type: 'string', default: '200' },
      'steady-seconds': { type: 'string', default: '10' },
      only: { type: 'string', default: '' },
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
    onlyWebhooks: onlyWebhooks(values.only),
    out: path.resolve(values.out),
  };
}

function onlyWebhooks(value: string): boolean {
  if (value !== '' && value !== 'webhooks') throw new Error(`--only: unknown scenario '${value}' (webhooks)`);
  return value === 'webhooks';
}

async function benchDatabase(database: BenchDatabase, options: Options): Promise<DatabaseResult> {
  const service = await startService(database.url);
  try {
    const sites = options.onlyWebhooks ? 100 : options.sites;
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
    log(`${database.label}: seeding ${options.devices} devices and ${options.contexts} config contexts…`);
    const devices = await seedDevices(service.port, service.authorization, seed.refs, seed.siteIds, {
      devices: options.devices,
      contexts: options.contexts,
      chunk: 500,
    });
    log(`${database.label}: devices seeded in ${(devices.totalMs / 1000).toFixed(1)} s`);
    // Autovacuum would analyze the fresh rows within a minute anyway, likely in the middle of a measurement;
    // analyzing now gives every scenario the steady-state plans.
    if (database.kind === 'postgres') await service.db.knex.raw('ANALYZE');
    const source =
      database.kind === 'sqlite' ? openSqliteSource(database.location) : openPostgresSource(database.location);
    const baseline = await startBaseline(source);
    try {
      await verifySamePages(service, baseline.port, [LIST_PATH, '/api/dcim/sites/?limit=50&offset=5000'], log);
      const auth = { authorization: service.authorization };
      const timed = {
        concurrency: options.concurrency,
        durationMs: options.durationMs,
        warmupMs: options.warmupMs,
        expectedStatus: 200,
      };
      const cpu = watchCpu();
      const runs = new Map<string, { outcomes: LoadOutcome[]; queries: number | null }>();
      const measure = async (name: string, spec: LoadSpec, counted: RunningService | null): Promise<void> => {
        log(`${database.label}: ${name}…`);
        const queriesBefore = counted?.db.queryCount() ?? 0;
        const outcome = await runLoad(spec);
        const entry = runs.get(name) ?? { outcomes: [], queries: counted ? 0 : null };
        entry.outcomes.push(outcome);
        if (counted) entry.queries! += counted.db.queryCount() - queriesBefore;
        runs.set(name, entry);
      };

      // The baseline and the complete list alternate in short rounds, so that a noisy neighbour or a slow
      // minute weighs on both sides of the ratio alike.
      const listPlan: RequestPlan = { kind: 'get', paths: [LIST_PATH] };
      for (let round = 0; round < options.rounds; round += 1) {
        const segment = {
          ...timed,
          durationMs: options.durationMs / options.rounds,
          warmupMs: round === 0 ? options.warmupMs : Math.min(options.warmupMs, 500),
        };
        await measure(BASELINE_NAME, { ...segment, port: baseline.port, headers: {}, plan: listPlan }, null);
        await measure(LIST_NAME, { ...segment, port: service.port, headers: auth, plan: listPlan }, service);
      }
      await measure(
        'GET list ?limit=50&brief=1',
        {
          ...timed,
          port: service.port,
          headers: auth,
          plan: { kind: 'get', paths: ['/api/dcim/sites/?limit=50&brief=1'] },
        },
        service,
      );
      await measure(
        'GET detail /sites/<id>/',
        { ...timed, port: service.port, headers: auth, plan: { kind: 'get', paths: detailPaths(seed.siteIds) } },
        service,
      );
      for (const [name, path] of [
        [`GET device list ?limit=50 (complete, ${options.contexts} matching config contexts)`, DEVICE_LIST_PATH],
        ['GET device list ?limit=50&exclude=config_context', `${DEVICE_LIST_PATH}&exclude=config_context`],
        // The same page without the config context through the generic `omit`, to show what the contexts cost.
        ['GET device list ?limit=50&omit=config_context', `${DEVICE_LIST_PATH}&omit=config_context`],
      ] as const) {
        await measure(
          name,
          { ...timed, port: service.port, headers: auth, plan: { kind: 'get', paths: [path] } },
          service,
        );
      }
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
      const noise = cpu.stop();
      const scenarios: ScenarioResult[] = [...runs].map(([name, { outcomes, queries }]) => {
        const stats = summarize(outcomes);
        return {
          name,
          ...stats,
          ratio: null,
          queriesPerRequest: queries === null ? null : queries / stats.totalRequests,
          runsRps: outcomes.map((o) => summarize([o]).rps),
        };
      });
      const baselineRps = scenarios[0]!.rps;
      for (const scenario of scenarios) scenario.ratio = baselineRps > 0 ? scenario.rps / baselineRps : null;
      // Last: from here on writes queue tasks and a worker runs, which would change every scenario above.
      const webhooks = await webhookScenarios(service, database, options, seed.refs);
      const bulk = scenarios.find((s) => s.name === BULK_NAME);
      return {
        database: database.label,
        seed: {
          sites: options.sites,
          totalMs: seed.totalMs,
          chunkMs: seed.chunkMs,
          devices: { devices: options.devices, contexts: options.contexts, totalMs: devices.totalMs },
        },
        otherProcessesCores: noise.otherCores,
        cores: noise.cores,
        scenarios,
        webhooks: { ...webhooks, bulkWithoutRuleMs: bulk ? bulk.p50Ms : null },
      };
    } finally {
      await baseline.close();
    }
  } finally {
    await service.close();
  }
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

/** Every seeded site once, in a scattered but fixed order, so that detail requests do not walk the index. */
function detailPaths(ids: readonly number[]): string[] {
  const step = 7919;
  return ids.map((_, i) => `/api/dcim/sites/${ids[(i * step) % ids.length]}/`);
}

function evaluateTargets(results: readonly DatabaseResult[]): TargetResult[] {
  const targets: TargetResult[] = [];
  for (const result of results) {
    const list = result.scenarios.find((s) => s.name === LIST_NAME);
    const baseline = result.scenarios.find((s) => s.name === BASELINE_NAME);
    if (list && baseline) {
      targets.push({
        name: 'list (complete) ≥ 50 % of baseline req/s',
        database: result.database,
        met: list.rps >= 0.5 * baseline.rps,
        detail: `${list.rps.toFixed(0)} vs ${baseline.rps.toFixed(0)} req/s = ${((list.ratio ?? 0) * 100).toFixed(0)} %`,
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
  const started = performance.now();
  const results: DatabaseResult[] = [];
  let current: BenchDatabase | null = null;
  // Ctrl-C must not leave a svc_bench_* database behind on the PostgreSQL server.
  process.once('SIGINT', () => {
    log('interrupted: dropping the benchmark database');
    void (current?.drop() ?? Promise.resolve()).finally(() => process.exit(130));
  });
  // The PostgreSQL webhook scenarios run `svc worker`, which runs the compiled runtime.
  if (options.databases.includes('postgres')) buildDist();
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
