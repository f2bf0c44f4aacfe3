import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Knex } from 'knex';
import type { Settings } from '../config.js';
import type { Dialect } from '../db/connect.js';
import { now } from '../db/clock.js';
import type { Schema } from '../rest/schema.js';
import { decodeRow, encodeRow } from '../rest/values.js';
import type { Boss } from './boss.js';
import { sendWebhook } from './deliver.js';
import { buildWebhookRequest, WebhookBuildError, type WebhookDefinition } from './templates.js';
import { TaskStore, type Task } from './tasks.js';

type Row = Record<string, unknown>;

export interface WorkerOptions {
  q: Knex;
  schema: Schema;
  dialect: Dialect;
  settings: Settings;
  /** PostgreSQL: also take jobs from pg-boss as they arrive. */
  boss: Boss | null;
  log: (message: string) => void;
}

const HEARTBEAT_MS = 5_000;
/** How often a worker looks for tasks whose worker died. */
const RECLAIM_MS = 1_000;

/**
 * Runs background tasks (webhook deliveries): WORKER_CONCURRENCY lanes each claim the next due task from the
 * task table, deliver it and record the outcome; idle lanes look again every WORKER_POLL_INTERVAL ms or when
 * woken (a commit in this process, a pg-boss job). A failed attempt is retried WEBHOOK_RETRIES times with
 * exponential backoff (WEBHOOK_RETRY_DELAY × 2^n seconds), then the task is failed. A task left running by
 * a worker that died is taken over once stale (three times WEBHOOK_TIMEOUT), so no task is lost:
 * delivery is at least once. The worker announces itself in the worker table for /api/status/.
 */
export class Worker {
  readonly name = `${os.hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  private readonly tasks: TaskStore;
  private running = false;
  private lanes: Promise<void>[] = [];
  private sleepers: (() => void)[] = [];
  private heartbeat: NodeJS.Timeout | null = null;
  private reclaimer: NodeJS.Timeout | null = null;

  constructor(private readonly options: WorkerOptions) {
    const staleAfterMs = options.settings.WEBHOOK_TIMEOUT * 3 * 1000;
    this.tasks = new TaskStore(options.q, options.schema, options.dialect, staleAfterMs);
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.announce();
    this.heartbeat = setInterval(() => void this.announce().catch(() => undefined), HEARTBEAT_MS);
    this.heartbeat.unref();
    const reclaim = (): void =>
      void this.tasks
        .reclaimStale()
        .then((n) => (n > 0 ? this.wake() : undefined))
        .catch((error: Error) => this.options.log(`worker: ${error.message}`));
    reclaim();
    this.reclaimer = setInterval(reclaim, RECLAIM_MS);
    this.reclaimer.unref();
    this.lanes = Array.from({ length: this.options.settings.WORKER_CONCURRENCY }, () => this.lane());
    await this.options.boss?.work(this.options.settings.WORKER_CONCURRENCY, async (ids) => {
      await Promise.all(ids.map((id) => this.runOne(id)));
      this.wake();
    });
  }

  /** Stops taking tasks and waits for the deliveries in progress. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.reclaimer) clearInterval(this.reclaimer);
    this.wake();
    await Promise.all(this.lanes);
    await this.forget().catch(() => undefined);
  }

  /** Makes idle lanes look for due tasks now. */
  wake(): void {
    const sleepers = this.sleepers;
    this.sleepers = [];
    for (const resume of sleepers) resume();
  }

  private async lane(): Promise<void> {
    while (this.running) {
      let task: Task | null = null;
      try {
        task = await this.tasks.claim(this.name);
        if (task) await this.deliver(task);
      } catch (error) {
        this.options.log(`worker: ${(error as Error).message}`);
      }
      if (!task && this.running) await this.sleep(this.options.settings.WORKER_POLL_INTERVAL);
    }
  }

  private async runOne(id: number): Promise<void> {
    if (!this.running) return;
    try {
      const task = await this.tasks.claim(this.name, id);
      if (task) await this.deliver(task);
    } catch (error) {
      this.options.log(`worker: ${(error as Error).message}`);
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      this.sleepers.push(done);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
    });
  }

  /** One attempt: render the webhook's request from the stored context, send it, record the outcome. */
  private async deliver(task: Task): Promise<void> {
    const { settings } = this.options;
    const webhook = task.webhook === null ? null : await this.webhook(task.webhook);
    if (!webhook) {
      await this.tasks.failed(task, 'The webhook no longer exists.', null, '', null);
      return;
    }
    let request;
    try {
      request = buildWebhookRequest(webhook.definition, task.payload);
    } catch (error) {
      // A template or URL that cannot be rendered will not render on a retry either.
      if (!(error instanceof WebhookBuildError)) throw error;
      await this.tasks.failed(task, error.message, null, webhook.definition.payload_url, null);
      return;
    }
    const result = await sendWebhook(request, {
      timeoutMs: settings.WEBHOOK_TIMEOUT * 1000,
      sslVerification: webhook.sslVerification,
      caFilePath: webhook.caFilePath,
      followRedirects: settings.WEBHOOK_FOLLOW_REDIRECTS,
    });
    if (result.ok) {
      await this.tasks.succeeded(task, result.status, request.url);
      return;
    }
    const retry =
      task.attempts <= settings.WEBHOOK_RETRIES ? settings.WEBHOOK_RETRY_DELAY * 1000 * 2 ** (task.attempts - 1) : null;
    await this.tasks.failed(task, result.error ?? 'Delivery failed.', result.status, request.url, retry);
  }

  private async webhook(
    id: number,
  ): Promise<{ definition: WebhookDefinition; sslVerification: boolean; caFilePath: string | null } | null> {
    const model = this.options.schema.withRole('webhook');
    if (!model) return null;
    const row = (await this.options.q(model.table).where('id', id).first()) as Row | undefined;
    if (!row) return null;
    const values = decodeRow(model.spec.fields, row);
    const value = (name: string): unknown => values[name];
    return {
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
    };
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
