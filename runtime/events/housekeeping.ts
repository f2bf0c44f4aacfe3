import type { Settings } from '../config.js';
import type { Database } from '../db/connect.js';
import type { Schema } from '../rest/schema.js';
import { timestampAt } from '../db/clock.js';
import { TASK_STATES, type TaskStore } from './tasks.js';

/**
 * Deletes change records older than CHANGELOG_RETENTION days (0 keeps everything), and succeeded or failed
 * background tasks older than the same limit.
 */
export async function housekeeping(app: {
  settings: Settings;
  schema: Schema;
  db: Database;
  tasks: TaskStore | null;
}): Promise<{ changes: number; tasks: number }> {
  const days = app.settings.CHANGELOG_RETENTION;
  if (days <= 0) return { changes: 0, tasks: 0 };
  const cutoff = timestampAt(Date.now() - days * 86_400_000);
  let changes = 0;
  let tasks = 0;
  const records = app.schema.withRole('change_record');
  if (records) {
    changes = await app.db.knex(records.table).where(records.fields.get('time')!.column!, '<', cutoff).delete();
  }
  const store = app.tasks;
  if (store) {
    tasks = await app.db
      .knex(store.model.table)
      .whereIn(store.column('state'), [TASK_STATES.succeeded, TASK_STATES.failed])
      .where(store.column('finished_at'), '<', cutoff)
      .delete();
  }
  return { changes, tasks };
}
