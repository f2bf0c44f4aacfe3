import http from 'node:http';
import type { Worker as Thread } from 'node:worker_threads';
import { startBackground, stopBackground } from '../runtime/app.js';
import { request, requestJson } from './http-client.js';
import { percentile } from './load.js';
import type { RunningService } from './service.js';
import { siteBody, type SeedRefs } from './site-body.js';
import { startThread } from './thread.js';
import type { Receipt, ReceiverCommand, ReceiverMessage } from './webhook-receiver.js';

/**
 * The webhook scenario: an event rule sends every created site to a local receiver; one worker (the
 * service's embedded worker, since the benchmark runs the service in its own process) delivers them. It
 * measures how fast that one worker drains the queue a bulk create fills, and how long each delivery took
 * from the commit, and verifies that every site arrived exactly once.
 */

/** What the scenario creates. */
export interface WebhookSpec {
  /** Sites created, so tasks queued and deliveries expected. */
  sites: number;
  /** Sites per bulk POST. */
  bulkSize: number;
  refs: SeedRefs;
}

/** What the scenario measured on one database. */
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
  latency: { p50Ms: number; p99Ms: number; minMs: number; maxMs: number };
  /** Messages the service logged during the scenario (worker errors), and the last of them. */
  logged: { count: number; latest: string | null };
}

interface Status {
  'rq-workers-running': number;
  'background-queues': Record<string, Record<string, number>>;
}

const HOOK_PATH = '/hook';

/** Runs the scenario against a running service whose embedded worker is not started yet; throws when unverified. */
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
    // Started now rather than with the service, and awaited before the first write: on PostgreSQL this
    // also starts pg-boss, whose schema is created on first use.
    await startBackground(service.context);
    const worker = service.context.worker;
    if (!worker) throw new Error('webhooks: the embedded worker did not start (no background task model?)');
    try {
      const { committedAt, bulkMs } = await createSites(agent, service, spec);
      const timeoutMs = Math.max(60_000, spec.sites * 20);
      if (!(await receiver.reached(spec.sites, timeoutMs))) {
        const { receipts } = await receiver.collect();
        const status = await getJson<Status>('/api/status/');
        throw new Error(
          `webhooks: ${receipts.length} of ${spec.sites} deliveries arrived within ${timeoutMs / 1000} s; ` +
            `queues ${JSON.stringify(status['background-queues'])}`,
        );
      }
      // Once no task is queued or running, no further delivery (a retry, a duplicate) can come.
      const status = await waitForDrain(getJson, timeoutMs);
      const { receipts } = await receiver.collect();
      const tasks = async (query: string): Promise<number> =>
        (await getJson<{ count: number }>(`/api/core/background-tasks/?webhook_id=${webhook.id}&${query}&limit=1`))
          .count;
      const firstAttempts = await tasks(
        `state=succeeded&attempts=1&response_status=200&worker_name=${encodeURIComponent(worker.name)}`,
      );
      verify(receipts, committedAt, {
        tasks: await tasks('event=object_created'),
        firstAttempts,
        workers: status['rq-workers-running'],
      });
      log(`webhooks: ${receipts.length} deliveries verified`);
      const logged = service.logged();
      return measure(receipts, committedAt, {
        worker: `the embedded worker${service.context.boss ? ' (pg-boss jobs as well as polling)' : ''}`,
        concurrency: service.context.settings.WORKER_CONCURRENCY,
        bulkMs,
        logged: { count: logged.count - loggedBefore, latest: logged.count > loggedBefore ? logged.latest : null },
      });
    } finally {
      await stopBackground(service.context);
    }
  } finally {
    agent.destroy();
    await receiver.close();
  }
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
    problems.push(`${counts.firstAttempts} of ${expected} tasks succeeded at the first attempt by the one worker`);
  }
  if (counts.workers !== 1) problems.push(`/api/status/ shows ${counts.workers} workers running, not 1`);
  if (problems.length > 0) throw new Error(`webhooks: ${problems.join('; ')}`);
}

function measure(
  receipts: readonly Receipt[],
  committedAt: ReadonlyMap<number, number>,
  how: Pick<WebhookResult, 'worker' | 'concurrency' | 'bulkMs' | 'logged'>,
): Omit<WebhookResult, 'bulkWithoutRuleMs'> {
  const times = receipts.map((r) => r.atMs).sort((a, b) => a - b);
  const latencies = receipts.map((r) => r.atMs - committedAt.get(r.id!)!).sort((a, b) => a - b);
  const first = times[0] ?? 0;
  const last = times[times.length - 1] ?? 0;
  const firstCommit = Math.min(...committedAt.values());
  const n = receipts.length;
  return {
    deliveries: n,
    worker: how.worker,
    concurrency: how.concurrency,
    bulkMs: how.bulkMs,
    receiptSpanMs: last - first,
    commitSpanMs: last - firstCommit,
    // n receipts span n − 1 intervals; from the commit there are n.
    receiptRate: last > first ? (n - 1) / ((last - first) / 1000) : 0,
    commitRate: last > firstCommit ? n / ((last - firstCommit) / 1000) : 0,
    latency: {
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      minMs: latencies[0] ?? 0,
      maxMs: latencies[latencies.length - 1] ?? 0,
    },
    logged: how.logged,
  };
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

/** Milliseconds of process.hrtime, the clock the receiver thread stamps receipts with. */
function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** The main-thread side of the receiver thread (webhook-receiver.ts). */
class ReceiverThread {
  private constructor(
    private readonly thread: Thread,
    readonly port: number,
  ) {}

  static async start(): Promise<ReceiverThread> {
    const thread = startThread(new URL('./webhook-receiver.ts', import.meta.url), null);
    const listening = await awaitMessage(thread, 'listening', null);
    return new ReceiverThread(thread, listening!.port);
  }

  /** Whether `count` requests arrived within `timeoutMs`. */
  async reached(count: number, timeoutMs: number): Promise<boolean> {
    const message = awaitMessage(this.thread, 'reached', timeoutMs);
    this.send({ kind: 'notify', count });
    return (await message) !== null;
  }

  /** Every request received so far. */
  async collect(): Promise<{ receipts: Receipt[] }> {
    const message = awaitMessage(this.thread, 'receipts', null);
    this.send({ kind: 'collect' });
    return (await message)!;
  }

  async close(): Promise<void> {
    await this.thread.terminate();
  }

  private send(command: ReceiverCommand): void {
    this.thread.postMessage(command);
  }
}

/** The thread's next message of `kind`, or null after `timeoutMs`; rejects when the thread fails. */
function awaitMessage<K extends ReceiverMessage['kind']>(
  thread: Thread,
  kind: K,
  timeoutMs: number | null,
): Promise<Extract<ReceiverMessage, { kind: K }> | null> {
  return new Promise((resolve, reject) => {
    const timer = timeoutMs === null ? null : setTimeout(() => settle(() => resolve(null)), timeoutMs);
    const onMessage = (message: ReceiverMessage): void => {
      if (message.kind === kind) settle(() => resolve(message as Extract<ReceiverMessage, { kind: K }>));
    };
    const onError = (error: Error): void => settle(() => reject(error));
    const onExit = (code: number): void =>
      settle(() => reject(new Error(`the webhook receiver thread exited with code ${code}`)));
    thread.on('message', onMessage);
    thread.once('error', onError);
    thread.once('exit', onExit);
    function settle(done: () => void): void {
      if (timer) clearTimeout(timer);
      thread.off('message', onMessage);
      thread.off('error', onError);
      thread.off('exit', onExit);
      done();
    }
  });
}
