import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Knex } from 'knex';
import type { Settings } from '../config.js';
import type { Dialect } from '../db/connect.js';
import { now } from '../db/clock.js';
import { isConnectionError } from '../db/errors.js';
import type { Schema } from '../rest/schema.js';
import { decodeRow, encodeRow } from '../rest/values.js';
import { sendWebhook } from './deliver.js';
import type { Delivery, DeliveryQueue, Outcome } from './queue.js';
import type { HostLookup } from './targets.js';
import { buildWebhookRequest, WebhookBuildError, type WebhookDefinition } from './templates.js';

type Row = Record<string, unknown>;

export interface WorkerOptions {
  q: Knex;
  schema: Schema;
  dialect: Dialect;
  settings: Settings;
  queue: DeliveryQueue;
  log: (message: string) => void;
  /** Resolves webhook hosts (default: the system resolver); tests give names addresses of their own. */
  lookup?: HostLookup;
}

interface Webhook {
  definition: WebhookDefinition;
  sslVerification: boolean;
  caFilePath: string | null;
}

const HEARTBEAT_MS = 5_000;
/** How often a worker repairs what dead workers left behind. */
const SWEEP_MS = 1_000;
/** The same error is logged at most this often (a database error would otherwise repeat per task). */
const REPEAT_LOG_MS = 10_000;

/**
 * Runs background tasks (webhook deliveries), one loop over a delivery queue (queue.ts): while fewer than
 * WORKER_CONCURRENCY deliveries are in flight it takes due ones from the queue, sends each to its webhook
 * and records the outcome through the queue; otherwise, or when none is due, it waits until a delivery
 * ends, a new task is signalled (a commit in this process, a NOTIFY from another) or WORKER_POLL_INTERVAL
 * ms pass. A database error never stops it: it is logged (lost connections once, by the signal
 * connection) and the loop tries again. The worker announces itself in the worker table for /api/status/.
 */
export class Worker {
  readonly name = `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private running = false;
  private loop: Promise<void> | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  private woken = false;
  private resume: (() => void) | null = null;
  private timers: NodeJS.Timeout[] = [];
  private readonly lastLogged = new Map<string, number>();
  /** Outcomes waiting to be recorded, and the recording in progress (outcomes are recorded in batches). */
  private outcomes: Outcome[] = [];
  private recording: Promise<void> | null = null;
  /** Outcomes not recorded yet (waiting or being recorded). */
  private unrecorded = 0;

  constructor(private readonly options: WorkerOptions) {}

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.announce();
    const every = (ms: number, task: () => Promise<unknown>): void => {
      const timer = setInterval(() => void task().catch((error: unknown) => this.report(error)), ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(HEARTBEAT_MS, () => this.announce());
    every(SWEEP_MS, async () => {
      if ((await this.options.queue.sweep()) > 0) this.wake();
    });
    this.loop = this.run();
  }

  /** Stops taking tasks and waits for the deliveries in flight to be recorded. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    this.wake();
    await this.loop;
    await Promise.all(this.inFlight);
    while (this.recording) await this.recording;
    await this.forget().catch(() => undefined);
  }

  /** Makes the loop look for due tasks now. */
  wake(): void {
    this.woken = true;
    this.resume?.();
  }

  private async run(): Promise<void> {
    const { settings, queue } = this.options;
    while (this.running) {
      // A slot frees when its request is answered; recording trails behind, by at most as many again.
      const concurrency = settings.WORKER_CONCURRENCY;
      const free = Math.min(concurrency - this.inFlight.size, concurrency - this.unrecorded);
      this.woken = false;
      if (free > 0) {
        let deliveries: Delivery[] = [];
        try {
          deliveries = await queue.take(free, this.name);
          const webhooks = await this.webhooks(deliveries);
          for (const delivery of deliveries) this.track(this.attempt(delivery, webhooks));
        } catch (error) {
          this.report(error);
          for (const delivery of deliveries) this.track(this.attempt(delivery, null));
        }
        // All slots filled: more may be due at once, as soon as a slot frees.
        if (deliveries.length === free) continue;
      }
      if (!this.woken && this.running) await this.sleep(settings.WORKER_POLL_INTERVAL);
    }
  }

  private track(delivery: Promise<void>): void {
    this.inFlight.add(delivery);
    void delivery.finally(() => {
      this.inFlight.delete(delivery);
      this.wake();
    });
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.resume = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.resume = done;
    });
  }

  /**
   * One attempt: render the webhook's request from the stored context, send it, hand the outcome over for
   * recording. Never rejects; `webhooks` is null when they could not be loaded (the attempt is then left to
   * expire and run again).
   */
  private async attempt(delivery: Delivery, webhooks: Map<number, Webhook> | null): Promise<void> {
    if (webhooks === null) return;
    const { settings } = this.options;
    const { task } = delivery;
    const webhook = task.webhook === null ? undefined : webhooks.get(task.webhook);
    if (!webhook) {
      const error = 'The webhook no longer exists.';
      return this.record({ delivery, error, status: null, target: '', retry: false });
    }
    let request;
    try {
      request = buildWebhookRequest(webhook.definition, task.payload);
    } catch (error) {
      // A template or URL that cannot be rendered will not render on a retry either.
      const message = error instanceof WebhookBuildError ? error.message : String(error);
      return this.record({
        delivery,
        error: message,
        status: null,
        target: webhook.definition.payload_url,
        retry: false,
      });
    }
    const result = await sendWebhook(request, {
      timeoutMs: settings.WEBHOOK_TIMEOUT * 1000,
      sslVerification: webhook.sslVerification,
      caFilePath: webhook.caFilePath,
      followRedirects: settings.WEBHOOK_FOLLOW_REDIRECTS,
      deniedNetworks: settings.WEBHOOK_DENIED_NETWORKS,
      lookup: this.options.lookup,
    });
    const error = result.ok ? null : (result.error ?? 'Delivery failed.');
    // A host in a denied network is refused again on every retry: the task fails at once.
    return this.record({ delivery, error, status: result.status, target: request.url, retry: !result.refused });
  }

  /**
   * Records an outcome with the others that finished meanwhile: one batch is recorded at a time, and the
   * next takes everything that arrived during it (one transaction for many deliveries under load, at once
   * when idle). When recording fails, the attempts run again later (their jobs expire or tasks go stale).
   */
  private record(outcome: Outcome): void {
    this.unrecorded += 1;
    this.outcomes.push(outcome);
    this.recordBatch();
  }

  private recordBatch(): void {
    if (this.recording || this.outcomes.length === 0) return;
    const batch = this.outcomes;
    this.outcomes = [];
    this.recording = this.options.queue
      .settle(batch)
      .catch((error: unknown) => this.report(error))
      .finally(() => {
        this.recording = null;
        this.unrecorded -= batch.length;
        this.recordBatch();
        // Recorded: later deliveries of the same objects are due now.
        this.wake();
      });
  }

  /** The webhooks of the deliveries, by id, in one query. */
  private async webhooks(deliveries: readonly Delivery[]): Promise<Map<number, Webhook>> {
    const model = this.options.schema.withRole('webhook');
    const ids = [...new Set(deliveries.map((d) => d.task.webhook).filter((id) => id !== null))];
    const result = new Map<number, Webhook>();
    if (!model || ids.length === 0) return result;
    const rows = (await this.options.q(model.table).whereIn('id', ids)) as Row[];
    for (const row of rows) {
      const values = decodeRow(model.spec.fields, row);
      const value = (name: string): unknown => values[name];
      result.set(Number(row.id), {
        definition: {
          payload_url: String(value('payload_url') ?? ''),
          http_method: String(value('http_method') ?? 'POST'),
          http_content_type: (value('http_content_type') as string | null) ?? null,
          additional_headers: (value('additional_headers') as string | null) ?? null,
          body_template: (value('body_template') as string | null) ?? null,
          secret: (value('secret') as string | null) ?? null,
        },
        sslVerification: value('ssl_verification') !== false,
        caFilePath: (value('ca_file_path') as string | null) ?? null,
      });
    }
    return result;
  }

  /**
   * Logs an error once per REPEAT_LOG_MS; a lost database connection is not logged here (the process's
   * signal connection reports it once, and its return).
   */
  private report(error: unknown): void {
    if (isConnectionError(error)) return;
    const message = `worker: ${(error as Error)?.message ?? String(error)}`;
    const at = Date.now();
    if ((this.lastLogged.get(message) ?? 0) > at - REPEAT_LOG_MS) return;
    if (this.lastLogged.size > 100) this.lastLogged.clear();
    this.lastLogged.set(message, at);
    this.options.log(message);
  }

  /** Records (or refreshes) this worker in the worker table. */
  private async announce(): Promise<void> {
    const model = this.options.schema.withRole('worker');
    if (!model) return;
    const column = (name: string) => model.fields.get(name)!.column!;
    const updated = await this.options
      .q(model.table)
      .where(column('name'), this.name)
      .update({ [column('last_heartbeat')]: now() });
    if (updated > 0) return;
    const values: Record<string, unknown> = {
      name: this.name,
      pid: process.pid,
      host: os.hostname(),
      queues: ['default'],
      started: now(),
      last_heartbeat: now(),
    };
    await this.options.q(model.table).insert(encodeRow(model.fields, values, this.options.dialect));
  }

  private async forget(): Promise<void> {
    const model = this.options.schema.withRole('worker');
    if (model) await this.options.q(model.table).where(model.fields.get('name')!.column!, this.name).delete();
  }
}
