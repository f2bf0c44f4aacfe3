import type { Knex } from 'knex';
import type { Settings } from '../config.js';
import type { QueuedTask, Task } from './tasks.js';

/**
 * How long an attempt may run before the queue gives it to another worker (its worker is taken for dead):
 * the delivery's time-out and a margin (WEBHOOK_EXPIRY_MARGIN), so that a live but slow worker is not
 * overtaken (a second delivery).
 */
export function expirySeconds(settings: Pick<Settings, 'WEBHOOK_TIMEOUT' | 'WEBHOOK_EXPIRY_MARGIN'>): number {
  return settings.WEBHOOK_TIMEOUT + settings.WEBHOOK_EXPIRY_MARGIN;
}

/** A task handed to a worker for one attempt, already marked running in the task table. */
export interface Delivery {
  task: Task;
  /** Whether a failed attempt is retried (attempts left), or is the last. */
  retriesLeft: boolean;
}

/**
 * How an attempt ended: `error` null for a success; `retry: false` gives up at once (a template that cannot
 * render, a host in WEBHOOK_DENIED_NETWORKS).
 */
export interface Outcome {
  delivery: Delivery;
  error: string | null;
  status: number | null;
  /** The URL the attempt went to. */
  target: string;
  retry: boolean;
}

/**
 * Where due deliveries come from, and where their outcome goes: the one interface the worker loop
 * (worker.ts) runs on. Two implementations: pg-boss jobs on PostgreSQL (boss-queue.ts) and the task table
 * itself on SQLite (table-queue.ts). Both keep one object's deliveries in order, retry failed attempts with
 * exponential backoff, take over the deliveries of a worker that died, and record every attempt in the
 * task table.
 */
export interface DeliveryQueue {
  /** Prepares the queue (pg-boss: its schema and queue, and its expiry and retention passes). */
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Schedules new tasks with the write's transaction: committed together, or not at all. */
  enqueue(trx: Knex.Transaction, tasks: readonly QueuedTask[]): Promise<void>;
  /** Up to `limit` due deliveries for `worker`, marked running; fewer (or none) when no more are due. */
  take(limit: number, worker: string): Promise<Delivery[]>;
  /** Records the outcomes of attempts, together (a worker settles whatever finished meanwhile at once). */
  settle(outcomes: readonly Outcome[]): Promise<void>;
  /** Failed tasks among `ids` → queued again as new deliveries; returns the ids requeued. */
  requeue(ids: readonly number[]): Promise<number[]>;
  /**
   * Repairs what a dead worker left behind (run every second by each worker): the table queue re-queues
   * tasks left running too long; pg-boss records jobs that failed by expiry. Returns how many.
   */
  sweep(): Promise<number>;
}
