import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LoadStats } from './load.js';

/** One measured scenario of one database. */
export interface ScenarioResult extends LoadStats {
  name: string;
  /** req/s divided by the baseline list's req/s of the same database and run. */
  ratio: number | null;
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
  printTable(
    ['scenario', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'vs baseline', 'queries/req', 'req/s per round'],
    rows,
  );
  console.log(
    "vs baseline = req/s ÷ the baseline list's req/s; only the complete list is like for like. " +
      'Bulk: one request at a time, p50 = time per 1,000 sites.',
  );
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
