import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LoadStats } from './load.js';
import type { WebhookResult } from './webhooks.js';

/** One measured scenario of one database. */
export interface ScenarioResult extends LoadStats {
  name: string;
  /** req/s divided by the baseline's req/s for the same page, database and run (null without one). */
  ratio: number | null;
  /** The baseline's p50 for the same page (null without one). */
  baselineP50Ms: number | null;
  /** Service queries per request (warm-up included); null for the baseline. */
  queriesPerRequest: number | null;
  /** req/s of each run when the scenario ran in several rounds (to see the spread). */
  runsRps: number[];
}

/** A target and whether this run met it. */
export interface TargetResult {
  name: string;
  database: string;
  met: boolean;
  detail: string;
}

/** Everything measured on one database, or why it was skipped. */
export interface DatabaseResult {
  database: string;
  skipped?: string;
  seed?: {
    sites: number;
    totalMs: number;
    chunkMs: number[];
    /** Devices and config contexts seeded after the sites (for the device list scenarios). */
    devices?: { devices: number; contexts: number; totalMs: number };
  };
  /** Cores' worth of CPU other processes used while we measured (null when unknown). */
  otherProcessesCores?: number | null;
  cores?: number;
  scenarios: ScenarioResult[];
  /** Webhook deliveries of one worker (measured after the scenarios, outside the CPU watch). */
  webhooks?: WebhookResult;
}

/** Prints one database's table. */
export function printDatabase(result: DatabaseResult): void {
  console.log('');
  if (result.skipped) {
    console.log(`${result.database}: skipped — ${result.skipped}`);
    return;
  }
  const seed = result.seed;
  if (seed) {
    const chunks = [...seed.chunkMs].sort((a, b) => a - b);
    const median = chunks[Math.floor(chunks.length / 2)] ?? 0;
    console.log(
      `${result.database} — seeded ${seed.sites.toLocaleString('en')} sites through the API in ${(seed.totalMs / 1000).toFixed(1)} s ` +
        `(${chunks.length} bulk POSTs, median ${median.toFixed(0)} ms each)`,
    );
    if (seed.devices) {
      const { devices, contexts, totalMs } = seed.devices;
      console.log(
        `  then ${devices.toLocaleString('en')} devices and ${contexts} config contexts matching all of them in ${(totalMs / 1000).toFixed(1)} s`,
      );
    }
  }
  const rows = result.scenarios.map((s) => [
    s.name,
    String(s.requests),
    s.rps.toFixed(s.rps < 10 ? 2 : 0),
    s.p50Ms.toFixed(1),
    s.p99Ms.toFixed(1),
    s.ratio === null ? '—' : `${(s.ratio * 100).toFixed(0)} %`,
    s.queriesPerRequest === null ? '—' : s.queriesPerRequest.toFixed(1),
    s.runsRps.length > 1 ? s.runsRps.map((r) => r.toFixed(0)).join(' / ') : '',
  ]);
  if (result.otherProcessesCores !== undefined && result.otherProcessesCores !== null) {
    const busy = result.otherProcessesCores;
    const limit = result.database === 'PostgreSQL' ? 1 : 0.25;
    const warning = busy > limit ? ' — the machine was shared, compare ratios rather than absolute rates' : '';
    const which =
      result.database === 'PostgreSQL' ? 'other processes (the PostgreSQL server included)' : 'other processes';
    console.log(`${which} used ${busy.toFixed(2)} of ${result.cores} cores while measuring${warning}`);
  }
  if (rows.length > 0) {
    printTable(
      ['scenario', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'vs baseline', 'queries/req', 'req/s per round'],
      rows,
    );
    console.log(
      "vs baseline = req/s ÷ the baseline's req/s on the same page (same bytes, checked before timing). " +
        'Bulk: one request at a time, p50 = time per 1,000 sites.',
    );
  }
  if (result.webhooks) printWebhooks(result.webhooks);
}

function printWebhooks(w: WebhookResult): void {
  const bulks = [...w.bulkMs].sort((a, b) => a - b);
  const median = bulks[Math.floor(bulks.length / 2)] ?? 0;
  const posts = bulks.length === 1 ? 'one bulk POST' : `${bulks.length} bulk POSTs`;
  const without = w.bulkWithoutRuleMs === null ? '' : ` vs ${w.bulkWithoutRuleMs.toFixed(0)} ms without`;
  const rate = (r: number): string => r.toLocaleString('en', { maximumFractionDigits: 0 });
  const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
  const { p50Ms, p99Ms, minMs, maxMs } = w.latency;
  console.log(`\nWebhook delivery by ONE worker: ${w.worker}, WORKER_CONCURRENCY ${w.concurrency}`);
  console.log(
    `  ${w.deliveries.toLocaleString('en')} sites created by ${posts} under an event rule ` +
      `(${median.toFixed(0)} ms each${without}); a node:http receiver in its own thread answers 200 at once`,
  );
  console.log(
    `  deliveries/s: ${rate(w.receiptRate)} first to last receipt (${seconds(w.receiptSpanMs)}), ` +
      `${rate(w.commitRate)} commit to last receipt (${seconds(w.commitSpanMs)})`,
  );
  console.log(
    `  worker CPU: ${w.cpu.perDeliveryMs.toFixed(2)} ms per delivery over the last ${w.cpu.deliveries.toLocaleString('en')} ` +
      `(${w.cpu.perDeliveryMs > 0 ? (1000 / w.cpu.perDeliveryMs).toFixed(0) : '—'} deliveries per CPU-second)`,
  );
  console.log(
    `  commit (bulk response arrived) → receipt: p50 ${p50Ms.toFixed(0)} ms, p99 ${p99Ms.toFixed(0)} ms ` +
      `(min ${minMs.toFixed(0)}${minMs < 0 ? ': the worker starts at the commit, before the response is sent' : ''}, ` +
      `max ${maxMs.toFixed(0)}), mostly the wait behind the deliveries queued with it`,
  );
  console.log(
    `  verified: ${w.deliveries.toLocaleString('en')} distinct deliveries, one per site, each its task's first and only ` +
      'attempt. No baseline ratio: nothing comparable delivers webhooks without the service.',
  );
  const { steady } = w;
  console.log(
    `  steady: ${steady.writes.toLocaleString('en')} single-site POSTs sent at ${steady.sentRate.toFixed(0)}/s ` +
      `(asked ${steady.targetRate}/s), committed at ${steady.commitRate.toFixed(0)}/s; each POST p50 ` +
      `${steady.writeLatency.p50Ms.toFixed(0)} ms, p99 ${steady.writeLatency.p99Ms.toFixed(0)} ms` +
      (steady.commitRate < 0.9 * steady.targetRate ? ' — the server could not keep up with that rate' : ''),
  );
  console.log(
    `  steady: commit (POST response arrived) → receipt: p50 ${steady.latency.p50Ms.toFixed(0)} ms, ` +
      `p99 ${steady.latency.p99Ms.toFixed(0)} ms (min ${steady.latency.minMs.toFixed(0)}, max ${steady.latency.maxMs.toFixed(0)}); ` +
      'every delivery verified once, at the first attempt',
  );
  if (w.logged.count > 0) {
    const message = w.logged.latest ?? '';
    const shown = message.length > 300 ? `${message.slice(0, 120)} … ${message.slice(-150)}` : message;
    console.log(`  WARNING: the service logged ${w.logged.count} messages meanwhile, e.g. ${shown}`);
  }
}

/** Prints the targets with a verdict each. */
export function printTargets(targets: readonly TargetResult[]): void {
  console.log('\nTargets');
  for (const target of targets)
    console.log(`  [${target.met ? 'MET' : 'NOT MET'}] ${target.name} (${target.database}): ${target.detail}`);
}

/** Writes the run's results (and where it ran) as JSON; returns the path written. */
export function writeResults(
  file: string,
  payload: { options: unknown; databases: DatabaseResult[]; targets: TargetResult[] },
): string {
  const cpus = os.cpus();
  const document = {
    date: new Date().toISOString(),
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    cpu: `${cpus[0]?.model ?? 'unknown'} × ${cpus.length}`,
    ...payload,
  };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
  return file;
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}
