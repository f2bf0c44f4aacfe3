import type { Knex } from 'knex';
import type { Dialect } from '../db/connect.js';
import { now, timestampAt } from '../db/clock.js';
import type { ModelInfo, Schema } from '../rest/schema.js';
import { decodeRow, encodeRow } from '../rest/values.js';

/** A task as the worker sees it (fields by name, decoded). */
export interface Task {
  id: number;
  state: string;
  event: string;
  object_type: string;
  object_id: number;
  webhook: number | null;
  payload: Record<string, unknown>;
  attempts: number;
  error_log: string;
}

type Row = Record<string, unknown>;

/** States of a task; `queued` and `running` are unfinished. */
export const TASK_STATES = { queued: 'queued', running: 'running', succeeded: 'succeeded', failed: 'failed' } as const;

/**
 * The background-task table (the model with role `background_task`) as a queue: tasks are claimed
 * atomically one at a time (on PostgreSQL with SKIP LOCKED, so that any number of workers share the table),
 * oldest first, never while an earlier task of the same object is unfinished (per-object order), and a
 * task left `running` by a worker that died is claimed again once it is stale.
 */
export class TaskStore {
  readonly model: ModelInfo;

  constructor(
    private readonly q: Knex,
    schema: Schema,
    private readonly dialect: Dialect,
    /** How long a running task may go without finishing before another worker takes it over (ms). */
    private readonly staleAfterMs: number,
  ) {
    const model = schema.withRole('background_task');
    if (!model) throw new Error('no model has the background_task role');
    this.model = model;
  }

  column(name: string): string {
    const column = this.model.fields.get(name)?.column;
    if (!column) throw new Error(`the background task model has no field '${name}'`);
    return column;
  }

  /** Row values for new tasks, ready to insert. */
  encode(values: Record<string, unknown>): Row {
    return encodeRow(this.model.fields, values, this.dialect);
  }

  decode(row: Row): Task {
    return { id: Number(row.id), ...decodeRow(this.model.spec.fields, row) } as unknown as Task;
  }

  /**
   * Claims the next due queued task (or the task `id` if it is due), marking it running; null when none is.
   * The (state, id) index lets the database stop at the first task whose object has no earlier unfinished one.
   */
  async claim(worker: string, id?: number): Promise<Task | null> {
    const c = (name: string): string => this.column(name);
    const current = now();
    const table = this.model.table;
    const claimable = (qb: Knex.QueryBuilder, alias: string): void => {
      qb.where(`${alias}.${c('state')}`, TASK_STATES.queued).where((t) =>
        t.whereNull(`${alias}.${c('next_attempt_at')}`).orWhere(`${alias}.${c('next_attempt_at')}`, '<=', current),
      );
    };
    const q = this.q;
    const candidate = q({ t: table }).select('t.id');
    claimable(candidate, 't');
    if (id !== undefined) candidate.where('t.id', id);
    candidate.whereNotExists(
      q({ p: table })
        .select(q.raw('1'))
        .whereRaw(`p.${c('object_type')} = t.${c('object_type')}`)
        .whereRaw(`p.${c('object_id')} = t.${c('object_id')}`)
        .whereRaw('p.id < t.id')
        .whereIn(`p.${c('state')}`, [TASK_STATES.queued, TASK_STATES.running]),
    );
    candidate.orderBy('t.id').limit(1);
    if (this.dialect === 'postgres') candidate.forUpdate().skipLocked();
    const update = q(table)
      .whereIn('id', candidate)
      .where((w) => claimable(w, table))
      .update({
        [c('state')]: TASK_STATES.running,
        [c('started_at')]: current,
        [c('attempts')]: q.raw('?? + 1', [c('attempts')]),
        [c('worker_name')]: worker.slice(0, 100),
      })
      .returning('*');
    const rows = (await update) as Row[];
    return rows[0] ? this.decode(rows[0]) : null;
  }

  /**
   * Tasks left running longer than the stale limit (their worker died) → queued again; returns how many.
   * Workers call this now and then, so that claiming itself only ever looks at queued tasks.
   */
  async reclaimStale(): Promise<number> {
    return this.q(this.model.table)
      .where(this.column('state'), TASK_STATES.running)
      .where(this.column('started_at'), '<', timestampAt(Date.now() - this.staleAfterMs))
      .update({ [this.column('state')]: TASK_STATES.queued, [this.column('next_attempt_at')]: null });
  }

  /** Records a successful attempt. */
  async succeeded(task: Task, status: number | null, target: string): Promise<void> {
    await this.q(this.model.table)
      .where('id', task.id)
      .update({
        [this.column('state')]: TASK_STATES.succeeded,
        [this.column('finished_at')]: now(),
        [this.column('response_status')]: status,
        [this.column('target')]: target.slice(0, 500),
      });
  }

  /**
   * Records a failed attempt in the error log; the task is queued again after `retryInMs`, or failed for good
   * when that is null.
   */
  async failed(
    task: Task,
    error: string,
    status: number | null,
    target: string,
    retryInMs: number | null,
  ): Promise<void> {
    const line = `${now()} attempt ${task.attempts}: ${error}`;
    const log = task.error_log ? `${task.error_log}\n${line}` : line;
    await this.q(this.model.table)
      .where('id', task.id)
      .update({
        [this.column('state')]: retryInMs === null ? TASK_STATES.failed : TASK_STATES.queued,
        [this.column('next_attempt_at')]: retryInMs === null ? null : timestampAt(Date.now() + retryInMs),
        [this.column('finished_at')]: retryInMs === null ? now() : null,
        [this.column('response_status')]: status,
        [this.column('target')]: target.slice(0, 500),
        [this.column('error_log')]: log.slice(-20_000),
      });
  }

  /** Failed tasks among `ids` → queued again (due now, attempts counted afresh); returns the ids requeued. */
  async requeue(ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = (await this.q(this.model.table)
      .whereIn('id', ids)
      .where(this.column('state'), TASK_STATES.failed)
      .update({
        [this.column('state')]: TASK_STATES.queued,
        [this.column('attempts')]: 0,
        [this.column('next_attempt_at')]: null,
        [this.column('finished_at')]: null,
      })
      .returning('id')) as ({ id: number } | number)[];
    return rows.map((r) => Number(typeof r === 'object' ? r.id : r));
  }

  /** Tasks per queue and state, for /api/status/. */
  async depths(): Promise<Record<string, Record<string, number>>> {
    const rows = (await this.q(this.model.table)
      .select({ queue: this.column('queue'), state: this.column('state') })
      .count({ n: '*' })
      .groupBy(this.column('queue'), this.column('state'))) as { queue: string; state: string; n: number | string }[];
    const result: Record<string, Record<string, number>> = {};
    for (const row of rows) {
      result[row.queue] ??= { queued: 0, running: 0, succeeded: 0, failed: 0 };
      result[row.queue]![row.state] = Number(row.n);
    }
    return result;
  }
}
