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
 * The background-task table (the model with role `background_task`): the record of every task that the
 * API, the background-task page and /api/status/ show (state, attempts, last response, error log), written
 * by the workers. Which queue decides when a task runs is another matter (queue.ts). Every method takes
 * the query builder to write with, so that a queue can record a task in its own transaction.
 */
export class TaskStore {
  readonly model: ModelInfo;

  constructor(
    private readonly q: Knex,
    schema: Schema,
    private readonly dialect: Dialect,
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
   * Marks unfinished tasks running for an attempt (`attempt` → task ids) by `worker` and returns them;
   * finished or missing tasks are left out.
   */
  async start(
    attempts: ReadonlyMap<number, readonly number[]>,
    worker: string | null,
    q: Knex = this.q,
  ): Promise<Task[]> {
    const tasks: Task[] = [];
    for (const [attempt, ids] of attempts) {
      const rows = (await q(this.model.table)
        .whereIn('id', ids)
        .whereIn(this.column('state'), [TASK_STATES.queued, TASK_STATES.running])
        .update({
          [this.column('state')]: TASK_STATES.running,
          [this.column('started_at')]: now(),
          [this.column('attempts')]: attempt,
          ...(worker === null ? {} : { [this.column('worker')]: worker.slice(0, 100) }),
        })
        .returning('*')) as Row[];
      tasks.push(...rows.map((row) => this.decode(row)));
    }
    return tasks;
  }

  /** Records successful attempts (one statement per distinct status and URL, usually one). */
  async succeeded(
    attempts: readonly { task: Task; status: number | null; target: string }[],
    q: Knex = this.q,
  ): Promise<void> {
    const groups = new Map<string, { status: number | null; target: string; ids: number[] }>();
    for (const { task, status, target } of attempts) {
      const key = `${status} ${target}`;
      const group = groups.get(key) ?? { status, target, ids: [] };
      group.ids.push(task.id);
      groups.set(key, group);
    }
    const finished = now();
    for (const { status, target, ids } of groups.values()) {
      await q(this.model.table)
        .whereIn('id', ids)
        .update({
          [this.column('state')]: TASK_STATES.succeeded,
          [this.column('finished_at')]: finished,
          [this.column('next_attempt_at')]: null,
          [this.column('response_status')]: status,
          [this.column('target')]: target.slice(0, 500),
        });
    }
  }

  /**
   * Records a failed attempt in the error log; the task is queued again (due in about `retryInMs`), or
   * failed for good when that is null.
   */
  async failed(
    task: Task,
    outcome: { error: string; status: number | null; target: string; retryInMs: number | null },
    q: Knex = this.q,
  ): Promise<void> {
    const line = `${now()} attempt ${task.attempts}: ${outcome.error}`;
    const log = task.error_log ? `${task.error_log}\n${line}` : line;
    const retry = outcome.retryInMs;
    await q(this.model.table)
      .where('id', task.id)
      .update({
        [this.column('state')]: retry === null ? TASK_STATES.failed : TASK_STATES.queued,
        [this.column('next_attempt_at')]: retry === null ? null : timestampAt(Date.now() + retry),
        [this.column('finished_at')]: retry === null ? now() : null,
        [this.column('response_status')]: outcome.status,
        [this.column('target')]: outcome.target.slice(0, 500),
        [this.column('error_log')]: log.slice(-20_000),
      });
  }

  /**
   * Failed tasks among `ids` → queued again (due now, attempts counted afresh); returns those requeued with
   * their object, for the queue to schedule.
   */
  async requeue(ids: readonly number[], q: Knex = this.q): Promise<QueuedTask[]> {
    if (ids.length === 0) return [];
    const rows = (await q(this.model.table)
      .whereIn('id', ids)
      .where(this.column('state'), TASK_STATES.failed)
      .update({
        [this.column('state')]: TASK_STATES.queued,
        [this.column('attempts')]: 0,
        [this.column('next_attempt_at')]: null,
        [this.column('finished_at')]: null,
      })
      .returning(['id', this.column('object_type'), this.column('object_id')])) as Row[];
    return rows.map((row) => ({
      id: Number(row.id),
      objectType: String(row[this.column('object_type')]),
      objectId: Number(row[this.column('object_id')]),
    }));
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

/** A task that a queue must schedule: its id, and the object whose deliveries keep their order. */
export interface QueuedTask {
  id: number;
  objectType: string;
  objectId: number;
}
