import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';
import { BENCH_HOST } from './http-client.js';
import type { LoadOutcome, LoadSpec, RequestPlan } from './load.js';
import { deviceBody, siteBody } from './site-body.js';

/**
 * The worker-thread entry of the load generator: `concurrency` loops, each awaiting its previous response
 * before sending the next request, over a keep-alive agent with one socket per loop.
 */

interface Prepared {
  method: string;
  path: string;
  body: Buffer | null;
}

const spec = workerData as LoadSpec;
const agent = new http.Agent({ keepAlive: true, maxSockets: spec.concurrency, maxFreeSockets: spec.concurrency });
const latenciesMs: number[] = [];
let totalRequests = 0;
let errors = 0;
let firstError: string | null = null;
let sequence = 0;

/** Builds request number `n` before its clock starts, so that building a bulk body is not measured. */
function prepare(plan: RequestPlan, n: number): Prepared {
  if (plan.kind === 'get') return { method: 'GET', path: plan.paths[n % plan.paths.length]!, body: null };
  if (plan.kind === 'patch') {
    const body = { description: `${plan.prefix} ${n}` };
    return { method: 'PATCH', path: plan.paths[n % plan.paths.length]!, body: Buffer.from(JSON.stringify(body)) };
  }
  const start = n * plan.perRequest;
  const objects = Array.from({ length: plan.perRequest }, (_, i) =>
    plan.kind === 'post-sites'
      ? siteBody(plan.prefix, start + i, plan.refs)
      : deviceBody(plan.prefix, start + i, plan.refs),
  );
  return {
    method: 'POST',
    path: plan.path,
    body: Buffer.from(JSON.stringify(plan.perRequest === 1 ? objects[0] : objects)),
  };
}

function send(prepared: Prepared): Promise<void> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host: BENCH_HOST, accept: 'application/json', ...spec.headers };
    if (prepared.body) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(prepared.body.length);
    }
    const req = http.request(
      { agent, host: '127.0.0.1', port: spec.port, method: prepared.method, path: prepared.path, headers },
      (res) => {
        const failed = res.statusCode !== spec.expectedStatus;
        const chunks: Buffer[] = [];
        // Reading every byte keeps the comparison fair: the service and the baseline both pay for their bodies.
        res.on('data', (chunk: Buffer) => {
          if (failed) chunks.push(chunk);
        });
        res.on('end', () => {
          if (failed) {
            errors += 1;
            firstError ??= `${prepared.method} ${prepared.path} → ${res.statusCode}: ${Buffer.concat(chunks).toString('utf8').slice(0, 500)}`;
          }
          resolve();
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(prepared.body ?? undefined);
  });
}

/** One loop: requests back to back while `more()` says so; latencies recorded when `record`. */
async function loop(more: () => boolean, record: boolean): Promise<void> {
  while (more()) {
    const prepared = prepare(spec.plan, sequence++);
    totalRequests += 1;
    const started = process.hrtime.bigint();
    // A keep-alive socket that the server closed just as it was reused: sent again once on a new one.
    await send(prepared).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET') throw error;
      return send(prepared);
    });
    if (record) latenciesMs.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
}

function loops(more: () => boolean, record: boolean): Promise<void[]> {
  return Promise.all(Array.from({ length: spec.concurrency }, () => loop(more, record)));
}

async function main(): Promise<LoadOutcome> {
  if (spec.requests !== undefined) {
    let warmups = spec.warmupRequests ?? 0;
    await loops(() => warmups-- > 0, false);
  } else {
    const warmupEnd = performance.now() + (spec.warmupMs ?? 0);
    await loops(() => performance.now() < warmupEnd, false);
  }
  const started = process.hrtime.bigint();
  if (spec.requests !== undefined) {
    let remaining = spec.requests;
    await loops(() => remaining-- > 0, true);
  } else {
    const deadline = started + BigInt(Math.round((spec.durationMs ?? 0) * 1e6));
    await loops(() => process.hrtime.bigint() < deadline, true);
  }
  const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  agent.destroy();
  return { latenciesMs, elapsedMs, totalRequests, errors, firstError };
}

parentPort!.postMessage(await main());
