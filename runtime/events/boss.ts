import type { Knex } from 'knex';
import PgBoss from 'pg-boss';

/** The pg-boss queue whose jobs name background tasks to run. */
export const TASK_QUEUE = 'background-tasks';

interface TaskJob {
  task: number;
}

/**
 * pg-boss on PostgreSQL: jobs are sent with the write's own transaction (so a rolled-back write sends
 * nothing and a committed one always has its jobs), and workers receive them at once. The task table stays
 * the record of each task's state; a job only says "task N is due". Started lazily (the schema `pgboss` is
 * created on first use).
 */
export class Boss {
  private started: Promise<PgBoss> | null = null;

  constructor(
    private readonly connectionString: string,
    private readonly log: (message: string) => void,
    private readonly poolSize = 2,
  ) {}

  private instance(): Promise<PgBoss> {
    this.started ??= (async () => {
      const boss = new PgBoss({
        connectionString: this.connectionString,
        max: this.poolSize,
        schedule: false,
        supervise: true,
        application_name: 'netbox-svc',
      });
      boss.on('error', (error: Error) => this.log(`pg-boss: ${error.message}`));
      await boss.start();
      await boss.createQueue(TASK_QUEUE, { name: TASK_QUEUE, retryLimit: 0 });
      return boss;
    })();
    return this.started;
  }

  /** Sends one job per task with the transaction's own connection. */
  async sendInTransaction(trx: Knex.Transaction, taskIds: readonly number[]): Promise<void> {
    if (taskIds.length === 0) return;
    const boss = await this.instance();
    // Inside a transaction, knex hands out the transaction's connection.
    const client = trx.client as { acquireConnection: () => Promise<unknown> };
    const connection = (await client.acquireConnection()) as {
      query: (text: string, values: unknown[]) => Promise<{ rows: unknown[] }>;
    };
    const db = { executeSql: (text: string, values: unknown[]) => connection.query(text, values) };
    for (let i = 0; i < taskIds.length; i += 1000) {
      await boss.insert(
        taskIds.slice(i, i + 1000).map((task) => ({ name: TASK_QUEUE, data: { task } satisfies TaskJob })),
        { db },
      );
    }
  }

  /** Calls `handle` with the task ids of arriving jobs (a batch at a time); a job completes when it returns. */
  async work(batchSize: number, handle: (taskIds: number[]) => Promise<void>): Promise<void> {
    const boss = await this.instance();
    await boss.work<TaskJob | string>(TASK_QUEUE, { batchSize, pollingIntervalSeconds: 0.5 }, async (jobs) => {
      // The service's pg type parsers (runtime/db/connect.ts) leave JSON as text, for pg-boss's reads too.
      const data = (job: { data: TaskJob | string }): TaskJob =>
        typeof job.data === 'string' ? (JSON.parse(job.data) as TaskJob) : job.data;
      const ids = jobs.map((job) => Number(data(job).task)).filter((id) => Number.isSafeInteger(id));
      await handle(ids);
    });
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    const boss = await this.started.catch(() => null);
    this.started = null;
    await boss?.stop({ graceful: false, wait: true, close: true });
  }
}
