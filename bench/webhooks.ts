import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { startBackground, stopBackground } from '../runtime/app.js';
import { request, requestJson } from './http-client.js';
import { latencyOf, nowMs, type Latency } from './load.js';
import { ReceiverThread } from './receiver-thread.js';
import type { RunningService } from './service.js';
import { siteBody } from './site-body.js';
import { steadyWrites, type SteadyResult, type WebhookSpec } from './webhook-steady.js';
import type { Receipt } from './webhook-receiver.js';
import { startWorkerProcess, type WorkerProcess } from './worker-process.js';

/**
 * The webhook scenarios: an event rule sends every created site to a local receiver (a node:http server in
 * its own thread), and ONE worker delivers them: on SQLite the service's embedded worker, on PostgreSQL a
 * separate `svc worker` process, as each is deployed. First a backlog (bulk creates back to back): how fast
 * the worker drains it. Then a steady stream of single-site writes at a fixed rate: how long each delivery
 * takes from its commit. Every site must arrive exactly once, as its task's first and only attempt.
 */

/** What the scenarios measured on one database. */
export interface WebhookResult {
  /** Sites created, tasks queued and distinct deliveries received (verified equal). */
  deliveries: number;
  /** Which worker delivered, and how. */
  worker: string;
  /** The worker's WORKER_CONCURRENCY. */
  concurrency: number;
  /** Wall time of each bulk POST, which also queued one task per site. */
  bulkMs: number[];
  /** The same bulk's median without an event rule (the bulk create scenario), for the cost of queueing. */
  bulkWithoutRuleMs: number | null;
  /** First receipt → last receipt, and first commit (its bulk response arrived) → last receipt, ms. */
  receiptSpanMs: number;
  commitSpanMs: number;
  /** Deliveries per second over those two spans. */
  receiptRate: number;
  commitRate: number;
  /** From the commit of a site's bulk (its response arrived) to the receipt of its delivery, ms. */
  latency: Latency;
  /**
   * CPU the worker used per delivery from the last commit to the last receipt (the worker process on
   * PostgreSQL; the whole service process, its receiver thread included, on SQLite), and the deliveries
   * in that time.
   */
  cpu: { perDeliveryMs: number; deliveries: number };
  /** The steady stream of single writes. */
  steady: SteadyResult;
  /** Messages the service and the worker logged during the scenarios, and the last of them. */
  logged: { count: number; latest: string | null };
}

interface Status {
  'rq-workers-running': number;
  'background-queues': Record<string, Record<string, number>>;
}

const HOOK_PATH = '/hook';

/** Runs the scenarios against a running service whose background is not started yet; throws when unverified. */
export async function benchWebhooks(
  service: RunningService,
  spec: WebhookSpec,
  log: (message: string) => void,
): Promise<Omit<WebhookResult, 'bulkWithoutRuleMs'>> {
  const receiver = await ReceiverThread.start();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const headers = { authorization: service.authorization };
  const getJson = <T>(path: string): Promise<T> => requestJson<T>(agent, service.port, 'GET', path, headers, 200);
  const postJson = <T>(path: string, body: unknown): Promise<T> =>
    requestJson<T>(agent, service.port, 'POST', path, headers, 201, body);
  const postgres = service.context.db.dialect === 'postgres';
  let workerProcess: WorkerProcess | null = null;
  try {
    const webhook = await postJson<{ id: number }>('/api/extras/webhooks/', {
      name: 'Benchmark receiver',
      payload_url: `http://127.0.0.1:${receiver.port}${HOOK_PATH}`,
    });
    await postJson('/api/extras/event-rules/', {
      name: 'Benchmark sites created',
      object_types: ['dcim.site'],
      event_types: ['object_created'],
      action_type: 'webhook',
      action_object_type: 'extras.webhook',
      action_object_id: webhook.id,
    });
    const loggedBefore = service.logged().count;
    // Started now rather than with the service, and before the first write: the other scenarios ran without
    // a worker, and on PostgreSQL this also creates pg-boss's schema.
    await startBackground(service.context, { worker: !postgres });
    const concurrency = service.context.settings.WORKER_CONCURRENCY;
    if (postgres) {
      workerProcess = await startWorkerProcess(service.context.settings.DATABASE_URL, {
        WORKER_CONCURRENCY: String(concurrency),
      });
    }
    try {
      await waitForWorkers(getJson, 1);
      const { committedAt, bulkMs } = await createSites(agent, service, spec);
      const cpuMs = (): number =>
        workerProcess ? workerProcess.cpuMs() : (({ user, system }) => (user + system) / 1000)(process.cpuUsage());
      const [cpuFrom, fromMs] = [cpuMs(), nowMs()];
      const timeoutMs = Math.max(60_000, spec.sites * 20);
      const reached = await receiver.reached(spec.sites, timeoutMs);
      const cpuUsed = cpuMs() - cpuFrom;
      if (!reached) {
        const { receipts } = await receiver.collect();
        const status = await getJson<Status>('/api/status/');
        throw new Error(
          `webhooks: ${receipts.length} of ${spec.sites} deliveries arrived within ${timeoutMs / 1000} s; ` +
            `queues ${JSON.stringify(status['background-queues'])}`,
        );
      }
      // Once no task is queued or running, no further delivery (a retry, a duplicate) can come.
      const status = await waitForDrain(getJson, timeoutMs);
      const drained = (await receiver.collect()).receipts;
      const tasks = async (query: string): Promise<number> =>
        (await getJson<{ count: number }>(`/api/core/background-tasks/?webhook_id=${webhook.id}&${query}&limit=1`))
          .count;
      verify(drained, committedAt, {
        tasks: await tasks('event=object_created'),
        firstAttempts: await tasks('state=succeeded&attempts=1&response_status=200'),
        workers: status['rq-workers-running'],
      });
      log(`webhooks: ${drained.length} deliveries of the backlog verified`);
      const late = drained.filter((r) => r.atMs >= fromMs).length;
      const cpu = { perDeliveryMs: late > 0 ? cpuUsed / late : 0, deliveries: late };

      log(`webhooks: ${spec.steadyRate} single writes per second for ${spec.steadySeconds} s…`);
      const steady = await steadyWrites(service, receiver, spec, `steady-${randomBytes(3).toString('hex')}`);
      await waitForDrain(getJson, 60_000);
      const all = (await receiver.collect()).receipts;
      const expected = spec.sites + steady.writes;
      const counts = {
        tasks: await tasks('event=object_created'),
        firstAttempts: await tasks('state=succeeded&attempts=1&response_status=200'),
        workers: 1,
      };
      if (all.length !== expected || counts.tasks !== expected || counts.firstAttempts !== expected) {
        throw new Error(
          `webhooks: after the steady writes ${all.length} requests, ${counts.tasks} tasks and ` +
            `${counts.firstAttempts} first-attempt successes for ${expected} sites`,
        );
      }
      log(`webhooks: ${steady.writes} steady deliveries verified`);
      const logged = service.logged();
      const workerLines = workerProcess ? workerLog(workerProcess.output()) : [];
      return {
        ...measure(drained, committedAt),
        worker: postgres ? 'a `svc worker` process (pg-boss jobs)' : 'the embedded worker (the task table)',
        concurrency,
        bulkMs,
        cpu,
        steady,
        logged: {
          count: logged.count - loggedBefore + workerLines.length,
          latest: workerLines.at(-1) ?? (logged.count > loggedBefore ? logged.latest : null),
        },
      };
    } finally {
      await workerProcess?.stop();
      await stopBackground(service.context);
    }
  } finally {
    agent.destroy();
    await receiver.close();
  }
}

/** What the worker process logged besides its start-up line. */
function workerLog(output: string): string[] {
  return output.split('\n').filter((line) => line.trim() !== '' && !/^Worker .* running \(/.test(line));
}

/**
 * Bulk-creates the sites back to back; returns when each site's bulk was committed (its response arrived,
 * the moment a client knows) and how long each bulk POST took.
 */
async function createSites(
  agent: http.Agent,
  service: RunningService,
  spec: WebhookSpec,
): Promise<{ committedAt: Map<number, number>; bulkMs: number[] }> {
  const committedAt = new Map<number, number>();
  const bulkMs: number[] = [];
  const headers = { authorization: service.authorization };
  for (let start = 0; start < spec.sites; start += spec.bulkSize) {
    const count = Math.min(spec.bulkSize, spec.sites - start);
    const body = Array.from({ length: count }, (_, i) => siteBody('hook', start + i, spec.refs));
    const sent = nowMs();
    const res = await request(agent, service.port, 'POST', '/api/dcim/sites/', headers, body);
    const arrived = nowMs();
    if (res.status !== 201) throw new Error(`webhooks: bulk POST answered ${res.status}: ${res.text.slice(0, 500)}`);
    bulkMs.push(arrived - sent);
    for (const site of JSON.parse(res.text) as { id: number }[]) committedAt.set(site.id, arrived);
  }
  return { committedAt, bulkMs };
}

/** Throws unless every created site arrived exactly once, as the first and only attempt of its task. */
function verify(
  receipts: readonly Receipt[],
  committedAt: ReadonlyMap<number, number>,
  counts: { tasks: number; firstAttempts: number; workers: number },
): void {
  const expected = committedAt.size;
  const problems: string[] = [];
  if (receipts.length !== expected) problems.push(`${receipts.length} requests received for ${expected} sites`);
  const ids = new Set(receipts.map((r) => r.id));
  if (ids.size !== receipts.length) problems.push(`${receipts.length - ids.size} duplicate deliveries`);
  const strangers = receipts.filter((r) => r.id === null || !committedAt.has(r.id));
  if (strangers.length > 0) problems.push(`${strangers.length} deliveries of no created site`);
  const malformed = receipts.filter(
    (r) => r.method !== 'POST' || r.path !== HOOK_PATH || r.event !== 'created' || r.objectType !== 'dcim.site',
  );
  if (malformed.length > 0)
    problems.push(`${malformed.length} unexpected requests, e.g. ${JSON.stringify(malformed[0])}`);
  if (counts.tasks !== expected) problems.push(`${counts.tasks} tasks queued for ${expected} sites`);
  if (counts.firstAttempts !== expected) {
    problems.push(`${counts.firstAttempts} of ${expected} tasks succeeded at the first attempt`);
  }
  if (counts.workers !== 1) problems.push(`/api/status/ shows ${counts.workers} workers running, not 1`);
  if (problems.length > 0) throw new Error(`webhooks: ${problems.join('; ')}`);
}

function measure(
  receipts: readonly Receipt[],
  committedAt: ReadonlyMap<number, number>,
): Pick<WebhookResult, 'deliveries' | 'receiptSpanMs' | 'commitSpanMs' | 'receiptRate' | 'commitRate' | 'latency'> {
  const times = receipts.map((r) => r.atMs).sort((a, b) => a - b);
  const first = times[0] ?? 0;
  const last = times[times.length - 1] ?? 0;
  const firstCommit = Math.min(...committedAt.values());
  const n = receipts.length;
  return {
    deliveries: n,
    receiptSpanMs: last - first,
    commitSpanMs: last - firstCommit,
    // n receipts span n − 1 intervals; from the commit there are n.
    receiptRate: last > first ? (n - 1) / ((last - first) / 1000) : 0,
    commitRate: last > firstCommit ? n / ((last - firstCommit) / 1000) : 0,
    latency: latencyOf(receipts.map((r) => r.atMs - committedAt.get(r.id!)!)),
  };
}

/** Polls /api/status/ until `count` workers report. */
async function waitForWorkers(getJson: <T>(path: string) => Promise<T>, count: number): Promise<void> {
  const deadline = performance.now() + 30_000;
  while ((await getJson<Status>('/api/status/'))['rq-workers-running'] < count) {
    if (performance.now() > deadline) throw new Error(`webhooks: ${count} worker(s) did not report in 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Polls /api/status/ until no task is queued or running in any queue; returns that status. */
async function waitForDrain(getJson: <T>(path: string) => Promise<T>, timeoutMs: number): Promise<Status> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const status = await getJson<Status>('/api/status/');
    const unfinished = Object.values(status['background-queues']).reduce(
      (sum, q) => sum + (q.queued ?? 0) + (q.running ?? 0),
      0,
    );
    if (unfinished === 0) return status;
    if (performance.now() > deadline) {
      throw new Error(`webhooks: tasks still unfinished: ${JSON.stringify(status['background-queues'])}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
