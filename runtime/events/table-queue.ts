import type { Knex } from 'knex';
import type { Settings } from '../config.js';
import { now, timestampAt } from '../db/clock.js';
import { expirySeconds, type Delivery, type DeliveryQueue, type Outcome } from './queue.js';
import { TASK_STATES, type Task, type TaskStore } from './tasks.js';

/**
 * The task table as the queue, for SQLite (one connection, so every statement runs alone): a claim takes
 * the oldest due queued tasks whose objects have no earlier unfinished task (per-object order) and marks
 * them running in one statement. Failed attempts are queued again after WEBHOOK_RETRY_DELAY × 2^(n−1) seconds,
 * WEBHOOK_RETRIES times; a task left running by a worker that died (for WEBHOOK_TIMEOUT and a margin) is queued
 * again by the sweep.
 */
export class TableQueue implements DeliveryQueue {
  constructor(
    private readonly q: Knex,
    private readonly tasks: TaskStore,
    private readonly settings: Settings,
  ) {}

  async start(): Promise<void> {}

  async stop(): Promise<void> {}

  /** The rows inserted by the write are the queue. */
  async enqueue(): Promise<void> {}

  async take(limit: number, worker: string): Promise<Delivery[]> {
    const tasks = await this.claim(worker, limit);
    return tasks.map((task) => ({ task, retriesLeft: task.attempts <= this.settings.WEBHOOK_RETRIES }));
  }

  /** Records the outcomes in one transaction (one commit for the batch). */
  async settle(outcomes: readonly Outcome[]): Promise<void> {
    await this.q.transaction(async (trx) => {
      await this.tasks.succeeded(
        outcomes.filter((o) => o.error === null).map((o) => ({ ...o, task: o.delivery.task })),
        trx,
      );
      for (const { delivery, error, status, target, retry } of outcomes) {
        if (error === null) continue;
        const delayMs = this.settings.WEBHOOK_RETRY_DELAY * 1000 * 2 ** (delivery.task.attempts - 1);
        const retryInMs = retry && delivery.retriesLeft ? delayMs : null;
        await this.tasks.failed(delivery.task, { error, status, target, retryInMs }, trx);
      }
    });
  }

  async requeue(ids: readonly number[]): Promise<number[]> {
    return (await this.tasks.requeue(ids)).map((task) => task.id);
  }

  /** Tasks left running longer than an attempt may take (their worker died) → queued again. */
  async sweep(): Promise<number> {
    const c = (name: string): string => this.tasks.column(name);
    return this.q(this.tasks.model.table)
      .where(c('state'), TASK_STATES.running)
      .where(c('started_at'), '<', timestampAt(Date.now() - expirySeconds(this.settings) * 1000))
      .update({ [c('state')]: TASK_STATES.queued, [c('next_attempt_at')]: null });
  }

  /**
   * Claims up to `limit` due queued tasks, oldest first, marking them running and counting the attempt. A
   * task whose object has an earlier unfinished task is not due; the statement sees the table as it was
   * before it, so it never claims two tasks of one object (the later one still has the earlier queued).
   * The (state, id) index lets the database stop after the first `limit` due tasks.
   */
  private async claim(worker: string, limit: number): Promise<Task[]> {
    const c = (name: string): string => this.tasks.column(name);
    const current = now();
    const table = this.tasks.model.table;
    const q = this.q;
    const candidate = q({ t: table })
      .select('t.id')
      .where(`t.${c('state')}`, TASK_STATES.queued)
      .where((t) => t.whereNull(`t.${c('next_attempt_at')}`).orWhere(`t.${c('next_attempt_at')}`, '<=', current))
      .whereNotExists(
        q({ p: table })
          .select(q.raw('1'))
          .whereRaw(`p.${c('object_type')} = t.${c('object_type')}`)
          .whereRaw(`p.${c('object_id')} = t.${c('object_id')}`)
          .whereRaw('p.id < t.id')
          .whereIn(`p.${c('state')}`, [TASK_STATES.queued, TASK_STATES.running]),
      )
      .orderBy('t.id')
      .limit(limit);
    const rows = (await q(table)
      .whereIn('id', candidate)
      .update({
        [c('state')]: TASK_STATES.running,
        [c('started_at')]: current,
        [c('attempts')]: q.raw('?? + 1', [c('attempts')]),
        [c('worker')]: worker.slice(0, 100),
      })
      .returning('*')) as Record<string, unknown>[];
    return rows.map((row) => this.tasks.decode(row)).sort((a, b) => a.id - b.id);
  }
}
