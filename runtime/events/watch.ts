import type { Knex } from 'knex';
import type { Schema } from '../rest/schema.js';

/** How long a server waits for a worker before it warns. */
export const WORKER_GRACE_MS = 60_000;
const CHECK_MS = 10_000;

export const NO_WORKER_WARNING =
  'No worker has been running for a minute: webhook deliveries are queued but not sent. Start one with `svc worker`.';

/**
 * For a server without a worker of its own (PostgreSQL): warns, in the log once and in /api/status/ while
 * it lasts, when no worker has sent a heartbeat for a minute (none was started, or all died).
 */
export class WorkerWatch {
  /** The current warning, or null while a worker is alive. */
  warning: string | null = null;
  private readonly startedAt = Date.now();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly q: Knex,
    private readonly schema: Schema,
    private readonly log: (message: string) => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.check().catch(() => undefined), CHECK_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Looks at the worker table as of `at` (ms since the epoch). */
  async check(at = Date.now()): Promise<void> {
    const model = this.schema.withRole('worker');
    if (!model) return;
    const column = model.fields.get('last_heartbeat')!.column!;
    const row = (await this.q(model.table).max({ latest: column }).first()) as { latest: string | null } | undefined;
    const latest = row?.latest ? Date.parse(row.latest) : 0;
    const silent = at - Math.max(latest, this.startedAt) >= WORKER_GRACE_MS;
    if (silent && this.warning === null) this.log(NO_WORKER_WARNING);
    this.warning = silent ? NO_WORKER_WARNING : null;
  }
}
