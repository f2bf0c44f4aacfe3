import http from 'node:http';
import { request } from './http-client.js';
import type { ReceiverThread } from './receiver-thread.js';
import type { RunningService } from './service.js';
import { siteBody, type SeedRefs } from './site-body.js';
import { latencyOf, nowMs, type Latency } from './load.js';

/** What the scenarios create. */
export interface WebhookSpec {
  /** Sites bulk-created for the drain scenario, so tasks queued and deliveries expected. */
  sites: number;
  /** Sites per bulk POST. */
  bulkSize: number;
  /** Single-site writes per second, and for how long, in the steady scenario. */
  steadyRate: number;
  steadySeconds: number;
  refs: SeedRefs;
}

/** The steady scenario's measurements. */
export interface SteadyResult {
  /** Writes per second asked for, the rate at which they were sent, and at which they committed. */
  targetRate: number;
  sentRate: number;
  commitRate: number;
  writes: number;
  /** How long each single-site POST took (its commit included). */
  writeLatency: Latency;
  /** From a write's commit (its response arrived) to the receipt of its delivery. */
  latency: Latency;
}

/**
 * Creates one site every 1/rate seconds for the scenario's duration (open loop: a slow answer does not delay
 * the next write), then waits for every delivery; the receiver already holds `spec.sites` earlier receipts.
 */
export async function steadyWrites(
  service: RunningService,
  receiver: ReceiverThread,
  spec: WebhookSpec,
  prefix: string,
): Promise<SteadyResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const headers = { authorization: service.authorization };
  const writes = Math.round(spec.steadyRate * spec.steadySeconds);
  const intervalMs = 1000 / spec.steadyRate;
  const committedAt = new Map<number, number>();
  const writeMs: number[] = [];
  const pending: Promise<void>[] = [];
  const start = nowMs();
  try {
    for (let i = 0; i < writes; i += 1) {
      const due = start + i * intervalMs;
      const wait = due - nowMs();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      const sent = nowMs();
      pending.push(
        request(agent, service.port, 'POST', '/api/dcim/sites/', headers, siteBody(prefix, i, spec.refs)).then(
          (res) => {
            const arrived = nowMs();
            if (res.status !== 201) throw new Error(`steady: POST answered ${res.status}: ${res.text.slice(0, 300)}`);
            writeMs.push(arrived - sent);
            committedAt.set((JSON.parse(res.text) as { id: number }).id, arrived);
          },
        ),
      );
    }
    const lastSent = nowMs();
    await Promise.all(pending);
    if (!(await receiver.reached(spec.sites + writes, 60_000))) {
      throw new Error(`steady: not every one of ${writes} deliveries arrived within 60 s`);
    }
    const receipts = (await receiver.collect()).receipts.filter((r) => r.id !== null && committedAt.has(r.id));
    if (receipts.length !== writes || new Set(receipts.map((r) => r.id)).size !== writes) {
      throw new Error(`steady: ${receipts.length} receipts for ${writes} writes`);
    }
    const commits = [...committedAt.values()].sort((x, y) => x - y);
    return {
      targetRate: spec.steadyRate,
      sentRate: (writes - 1) / ((lastSent - start) / 1000),
      commitRate: (writes - 1) / ((commits[commits.length - 1]! - commits[0]!) / 1000),
      writes,
      writeLatency: latencyOf(writeMs),
      latency: latencyOf(receipts.map((r) => r.atMs - committedAt.get(r.id!)!)),
    };
  } finally {
    agent.destroy();
  }
}
