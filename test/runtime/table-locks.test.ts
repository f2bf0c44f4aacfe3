/**
 * A transaction that holds its tables against every other writer (an import) takes no advisory lock per rule key:
 * one transaction writing 100,000 addresses would otherwise hold 100,000 of them, beyond PostgreSQL's lock table
 * ("out of shared memory"). Its savepoints hold the tables too; other transactions still lock each key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../runtime/db/connect.js';
import { inheritTableLocks, lockKey, lockTablesExclusively } from '../../runtime/db/transaction.js';
import { createTestDatabase, DIALECTS } from '../support/app.js';

describe.runIf(DIALECTS.includes('postgres'))('key locks in a transaction that holds its tables', () => {
  let database: { url: string; drop: () => Promise<void> };
  let db: Database;
  beforeAll(async () => {
    database = await createTestDatabase('postgres', { migrated: true });
    db = connectDatabase(database.url);
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  /** Advisory locks this transaction's backend holds. */
  const advisoryLocks = async (q: Database['knex']): Promise<number> => {
    const result = (await q.raw(
      `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()`,
    )) as { rows: { n: number }[] };
    return result.rows[0]!.n;
  };

  it('takes one per key otherwise', async () => {
    await db.knex.transaction(async (trx) => {
      await trx.transaction(async (sp) => {
        await lockKey(sp, 'postgres', 'ipam.ipaddress unique global 4:10.0.0.1');
        await lockKey(sp, 'postgres', 'ipam.ipaddress unique global 4:10.0.0.2');
      });
      expect(await advisoryLocks(trx)).toBe(2);
    });
  });

  it('takes none in a transaction whose tables it holds, nor in its savepoints', async () => {
    await db.knex.transaction(async (trx) => {
      await lockTablesExclusively(trx, 'postgres', ['ipam_ipaddress', 'dcim_site']);
      const tableLocks = (await trx.raw(
        `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
          WHERE l.pid = pg_backend_pid() AND l.mode = 'ExclusiveLock' AND c.relname IN ('ipam_ipaddress', 'dcim_site')`,
      )) as { rows: { n: number }[] };
      expect(tableLocks.rows[0]!.n).toBe(2);
      await lockKey(trx, 'postgres', 'ipam.ipaddress unique global 4:10.0.0.1');
      await trx.transaction(async (sp) => {
        inheritTableLocks(trx, sp);
        for (let i = 0; i < 100; i += 1) await lockKey(sp, 'postgres', `ipam.ipaddress unique global 4:10.0.1.${i}`);
      });
      expect(await advisoryLocks(trx)).toBe(0);
    });
  });
});
