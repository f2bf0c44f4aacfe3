import type { DeviceRefs, SeedRefs } from './site-body.js';
import { startThread } from './thread.js';

/**
 * The load generator's main-thread side. The requests themselves run in a worker thread so that the client's
 * work (sending, reading 100 kB pages) does not share the event loop with the server under test.
 */

/** What each request of a run is. */
export type RequestPlan =
  | { kind: 'get'; paths: readonly string[] }
  | { kind: 'post-sites'; path: string; prefix: string; refs: SeedRefs; perRequest: number }
  | { kind: 'post-devices'; path: string; prefix: string; refs: DeviceRefs; perRequest: number }
  /** A PATCH of a new `description` to each path in turn. */
  | { kind: 'patch'; paths: readonly string[]; prefix: string };

/** One load run: `concurrency` workers looping over keep-alive connections after a warm-up. */
export interface LoadSpec {
  port: number;
  headers: Record<string, string>;
  plan: RequestPlan;
  /** Status every response must have. */
  expectedStatus: number;
  concurrency: number;
  /** Measure for this long… */
  durationMs?: number;
  /** …or for exactly this many requests. */
  requests?: number;
  /** Warm-up by time (duration runs) or by count (request-count runs); not measured. */
  warmupMs?: number;
  warmupRequests?: number;
}

/** What the worker reports back. */
export interface LoadOutcome {
  latenciesMs: number[];
  elapsedMs: number;
  /** Requests sent in total, warm-up included (to divide query counts by). */
  totalRequests: number;
  errors: number;
  firstError: string | null;
}

/** Measured numbers of one run. */
export interface LoadStats {
  requests: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  maxMs: number;
  totalRequests: number;
}

/** Runs a load in a fresh worker thread; fails loudly when any response had an unexpected status. */
export async function runLoad(spec: LoadSpec): Promise<LoadOutcome> {
  const outcome = await inWorker(spec);
  if (outcome.errors > 0) throw new Error(`${outcome.errors} request(s) failed; first: ${outcome.firstError}`);
  return outcome;
}

/** Request count, rate and latency percentiles (nearest rank) of one or more runs of the same scenario. */
export function summarize(outcomes: readonly LoadOutcome[]): LoadStats {
  const sorted = outcomes.flatMap((o) => o.latenciesMs).sort((a, b) => a - b);
  const elapsedMs = outcomes.reduce((sum, o) => sum + o.elapsedMs, 0);
  const n = sorted.length;
  const at = (p: number): number => percentile(sorted, p);
  return {
    requests: n,
    rps: n === 0 ? 0 : n / (elapsedMs / 1000),
    p50Ms: at(50),
    p99Ms: at(99),
    meanMs: n === 0 ? 0 : sorted.reduce((a, b) => a + b, 0) / n,
    maxMs: n === 0 ? 0 : sorted[n - 1]!,
    totalRequests: outcomes.reduce((sum, o) => sum + o.totalRequests, 0),
  };
}

/** The nearest-rank `p`th percentile of ascending `sorted` values (0 when there are none). */
export function percentile(sorted: readonly number[], p: number): number {
  const n = sorted.length;
  return n === 0 ? 0 : sorted[Math.min(n - 1, Math.max(0, Math.ceil((p / 100) * n) - 1))]!;
}

function inWorker(spec: LoadSpec): Promise<LoadOutcome> {
  return new Promise((resolve, reject) => {
    const worker = startThread(new URL('./load-worker.ts', import.meta.url), spec);
    let settled = false;
    worker.once('message', (outcome: LoadOutcome) => {
      settled = true;
      resolve(outcome);
      void worker.terminate();
    });
    worker.once('error', (error) => {
      settled = true;
      reject(error instanceof Error ? error : new Error(String(error)));
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`load worker exited with code ${code} before reporting`));
    });
  });
}

/** Percentiles of latencies, in ms. */
export interface Latency {
  p50Ms: number;
  p99Ms: number;
  minMs: number;
  maxMs: number;
}

/** Percentiles (nearest rank) of latencies in ms. */
export function latencyOf(values: readonly number[]): Latency {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    minMs: sorted[0] ?? 0,
    maxMs: sorted[sorted.length - 1] ?? 0,
  };
}

/** Milliseconds of process.hrtime, the clock the receiver thread stamps receipts with. */
export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
