import type { Knex } from 'knex';
import { fromKnex, PgBoss, type JobWithMetadata } from 'pg-boss';
import type { Settings } from '../config.js';
import { isConnectionError } from '../db/errors.js';
import { expirySeconds, type Delivery, type DeliveryQueue, type Outcome } from './queue.js';
import type { QueuedTask, TaskStore } from './tasks.js';

/** The pg-boss queue of webhook deliveries. */
export const DELIVERY_QUEUE = 'webhook-deliveries';
/** Jobs per insert statement. */
const INSERT_CHUNK = 1_000;
/** Completed jobs are kept this long: the task table is the record. */
const COMPLETED_JOB_SECONDS = 3_600;

interface DeliveryJob {
  task: number;
}

/** A delivery and the pg-boss job attempt it came from (settling is fenced to that attempt). */
interface BossDelivery extends Delivery {
  job: { id: string; retryCount: number };
}

/**
 * pg-boss on PostgreSQL: every task is a job (`{task: id}`) sent with the write's own transaction, with
 * `singletonKey` = object type and id on a `key_strict_fifo` queue, so that a later change to an object
 * waits while an earlier one is active or retrying and other objects are not held back. pg-boss fetches
 * (SKIP LOCKED), retries with exponential backoff (`retryLimit` WEBHOOK_RETRIES, `retryDelay`
 * WEBHOOK_RETRY_DELAY), expires the jobs of a worker that died (`expireInSeconds`: WEBHOOK_TIMEOUT and a
 * margin) and deletes old jobs. The task table is only the record: each attempt is written to it in
 * the same transaction that settles the job. A delivery that finally failed completes its job (recorded as
 * failed on its task), because that policy would hold every later change of the object behind a failed job.
 */
export class BossQueue implements DeliveryQueue {
  private starting: Promise<PgBoss> | null = null;

  constructor(
    private readonly connectionString: string,
    private readonly q: Knex,
    private readonly tasks: TaskStore,
    private readonly settings: Settings,
    private readonly log: (message: string) => void,
  ) {}

  /** Job options from the settings of the process that sends them. */
  private get jobOptions() {
    const s = this.settings;
    return {
      retryLimit: s.WEBHOOK_RETRIES,
      retryDelay: s.WEBHOOK_RETRY_DELAY,
      retryBackoff: true,
      expireInSeconds: expirySeconds(s),
      deleteAfterSeconds: COMPLETED_JOB_SECONDS,
    };
  }

  async start(): Promise<void> {
    await this.instance();
  }

  /**
   * pg-boss, started on first use (its schema is created then). Every process supervises (expiry,
   * retention); pg-boss lets one of them do each pass.
   */
  private instance(): Promise<PgBoss> {
    this.starting ??= (async () => {
      // Expiry is checked on each supervision pass: about as often as a delivery may take.
      const interval = Math.min(60, Math.max(1, this.settings.WEBHOOK_TIMEOUT));
      const boss = new PgBoss({
        connectionString: this.connectionString,
        max: 3,
        supervise: true,
        schedule: false,
        superviseIntervalSeconds: interval,
        monitorIntervalSeconds: interval,
        application_name: 'netbox-svc-queue',
      });
      // Lost connections are reported once by the process's signal connection, not per pg-boss query.
      boss.on('error', (error: Error) => {
        if (!isConnectionError(error)) this.log(`pg-boss: ${error.message}`);
      });
      await boss.start();
      await boss.createQueue(DELIVERY_QUEUE, { policy: 'key_strict_fifo', ...this.jobOptions });
      return boss;
    })();
    this.starting.catch(() => {
      this.starting = null;
    });
    return this.starting;
  }

  async stop(): Promise<void> {
    const starting = this.starting;
    this.starting = null;
    const boss = await starting?.catch(() => null);
    await boss?.stop({ graceful: false, close: true });
  }

  async enqueue(trx: Knex.Transaction, tasks: readonly QueuedTask[]): Promise<void> {
    if (tasks.length === 0) return;
    const boss = await this.instance();
    const db = fromKnex(trx);
    for (let i = 0; i < tasks.length; i += INSERT_CHUNK) {
      const jobs = tasks.slice(i, i + INSERT_CHUNK).map((task) => ({
        data: { task: task.id } satisfies DeliveryJob,
        singletonKey: `${task.objectType}:${task.objectId}`,
        ...this.jobOptions,
      }));
      await boss.insert(DELIVERY_QUEUE, jobs, { db });
    }
  }

  async take(limit: number, worker: string): Promise<Delivery[]> {
    const boss = await this.instance();
    const jobs = await boss.fetch<DeliveryJob>(DELIVERY_QUEUE, { batchSize: limit, includeMetadata: true });
    if (jobs.length === 0) return [];
    // Attempt n of a job is its (n − 1)th retry.
    const byAttempt = new Map<number, number[]>();
    const jobOfTask = new Map<number, JobWithMetadata<DeliveryJob>>();
    for (const job of jobs) {
      const id = Number(job.data.task);
      jobOfTask.set(id, job);
      byAttempt.set(job.retryCount + 1, [...(byAttempt.get(job.retryCount + 1) ?? []), id]);
    }
    const started = await this.tasks.start(byAttempt, worker);
    // A job whose task is gone (deleted by housekeeping) or already finished has nothing left to do.
    const live = new Set(started.map((task) => task.id));
    const stale = jobs.filter((job) => !live.has(Number(job.data.task)));
    if (stale.length > 0) await boss.complete(DELIVERY_QUEUE, stale.map(attemptOf));
    return started.map((task): BossDelivery => {
      const job = jobOfTask.get(task.id)!;
      return { task, retriesLeft: job.retryCount < job.retryLimit, job: attemptOf(job) };
    });
  }

  /**
   * Records the outcomes and settles their jobs in one transaction: succeeded and finally failed ones
   * complete their jobs, retried ones fail them (pg-boss schedules the retry). An attempt whose job is no
   * longer its own (it expired and another worker holds it now) is not recorded: that worker will.
   */
  async settle(outcomes: readonly Outcome[]): Promise<void> {
    const boss = await this.instance();
    const retried = (o: Outcome): boolean => o.error !== null && o.retry && o.delivery.retriesLeft;
    await this.q.transaction(async (trx) => {
      const db = fromKnex(trx);
      const settled = async (action: 'complete' | 'fail', batch: readonly Outcome[]): Promise<Outcome[]> => {
        if (batch.length === 0) return [];
        const jobs = batch.map((o) => (o.delivery as BossDelivery).job);
        const result = (await (action === 'complete'
          ? boss.complete(DELIVERY_QUEUE, jobs, null, { db })
          : boss.fail(DELIVERY_QUEUE, jobs, null, { db }))) as { settled?: string[] };
        const ids = new Set(result.settled ?? []);
        return batch.filter((o) => ids.has((o.delivery as BossDelivery).job.id));
      };
      const completed = await settled(
        'complete',
        outcomes.filter((o) => !retried(o)),
      );
      const failed = await settled('fail', outcomes.filter(retried));
      await this.tasks.succeeded(
        completed.filter((o) => o.error === null).map((o) => ({ ...o, task: o.delivery.task })),
        trx,
      );
      for (const { delivery, error, status, target } of [...completed, ...failed]) {
        if (error === null) continue;
        // pg-boss waits retryDelay × 2^(n−1) to 2^n seconds (jittered); the record shows the earliest.
        const delayMs = this.settings.WEBHOOK_RETRY_DELAY * 1000 * 2 ** (delivery.task.attempts - 1);
        const retryInMs = failed.some((o) => o.delivery === delivery) ? delayMs : null;
        await this.tasks.failed(delivery.task, { error, status, target, retryInMs }, trx);
      }
    });
  }

  async requeue(ids: readonly number[]): Promise<number[]> {
    return this.q.transaction(async (trx) => {
      const tasks = await this.tasks.requeue(ids, trx);
      await this.enqueue(trx, tasks);
      return tasks.map((task) => task.id);
    });
  }

  /**
   * Jobs that failed outside a worker (expired on their last attempt) block their object's later
   * deliveries: their tasks are recorded as failed and the jobs deleted.
   */
  async sweep(): Promise<number> {
    const boss = await this.instance();
    let swept = 0;
    for (const key of await boss.getBlockedKeys(DELIVERY_QUEUE)) {
      const jobs = await boss.findJobs<DeliveryJob>(DELIVERY_QUEUE, { key });
      for (const job of jobs.filter((j) => j.state === 'failed')) {
        await this.q.transaction(async (trx) => {
          // The attempt that expired is the task's last.
          const [task] = await this.tasks.start(new Map([[job.retryCount + 1, [Number(job.data.task)]]]), null, trx);
          if (task) {
            const error = `No answer within ${job.expireInSeconds} seconds (the worker stopped or the delivery hung).`;
            await this.tasks.failed(task, { error, status: null, target: '', retryInMs: null }, trx);
          }
          await boss.deleteJob(DELIVERY_QUEUE, job.id, { db: fromKnex(trx) });
        });
        swept += 1;
      }
    }
    return swept;
  }
}

function attemptOf(job: { id: string; retryCount: number }): { id: string; retryCount: number } {
  return { id: job.id, retryCount: job.retryCount };
}
