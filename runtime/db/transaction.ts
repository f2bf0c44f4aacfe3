import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { isStalePlan, type Database, type Dialect } from './connect.js';

/**
 * Write transactions that hold under concurrency on both databases. On SQLite every transaction begins
 * IMMEDIATE (connect.ts), so writers, even of two processes on one file, queue for the write lock instead of
 * failing when a read turns into a write. On PostgreSQL rows read for a change are locked (`lockForUpdate`),
 * rules checked in code take an advisory lock for their key (`lockKey`), and a transaction that the server
 * aborted for a deadlock or a serialization conflict is run again from the start.
 */

/** How often a transaction is tried before its conflict is reported. */
export const MAX_ATTEMPTS = 5;

/** PostgreSQL's serialization failure and deadlock; SQLite's busy database (after its busy timeout). */
export function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    code === '40001' ||
    code === '40P01' ||
    (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) ||
    isStalePlan(error)
  );
}

/**
 * Runs `body` in a transaction and commits it; runs it again (after a short random pause) when the database
 * aborted it for a conflict with another transaction. `body` must have no effect outside the transaction
 * that a retry would repeat, or must undo it in `onAbort`.
 */
export async function runTransaction<T>(
  db: Pick<Database, 'knex'>,
  body: (trx: Knex.Transaction) => Promise<T>,
  onAbort: () => void = () => undefined,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.knex.transaction(body);
    } catch (error) {
      onAbort();
      if (!isRetryable(error) || attempt >= MAX_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}

/** Locks the rows a query reads until the transaction ends (PostgreSQL; SQLite's writer lock covers them). */
export function lockForUpdate(query: Knex.QueryBuilder, dialect: Dialect, table?: string): Knex.QueryBuilder {
  if (dialect === 'postgres') {
    if (table) query.forUpdate(table);
    else query.forUpdate();
  }
  return query;
}

/**
 * Serialises the transactions that check the same rule for the same value (e.g. "an address is unique in its
 * VRF"): a PostgreSQL advisory lock on a 64-bit digest of `key`, held until the transaction ends. SQLite needs
 * none: its writers run one at a time.
 */
export async function lockKey(q: Knex, dialect: Dialect, key: string): Promise<void> {
  if (dialect !== 'postgres' || !q.isTransaction || exclusive.has(q)) return;
  const digest = createHash('sha256').update(key).digest();
  await q.raw('SELECT pg_advisory_xact_lock(?::bigint)', [digest.readBigInt64BE(0).toString()]);
}

/** Transactions (and their savepoints) that hold their tables against every other writer. */
const exclusive = new WeakSet<Knex>();

/**
 * Locks tables against every other writer until the transaction ends (PostgreSQL's EXCLUSIVE mode: readers
 * pass, writers wait), for a write as large as an import: then no rule needs its key's advisory lock
 * (`lockKey`), which one transaction writing 100,000 addresses would otherwise hold 100,000 of, beyond
 * PostgreSQL's lock table ("out of shared memory"). SQLite's writer lock already holds the whole database.
 */
export async function lockTablesExclusively(trx: Knex.Transaction, dialect: Dialect, tables: string[]): Promise<void> {
  if (dialect !== 'postgres') return;
  if (tables.length > 0) await trx.raw(`LOCK TABLE ${tables.map(() => '??').join(', ')} IN EXCLUSIVE MODE`, tables);
  exclusive.add(trx);
}

/** A savepoint of a transaction that holds its tables (`lockTablesExclusively`) holds them too. */
export function inheritTableLocks(parent: Knex, savepoint: Knex.Transaction): void {
  if (exclusive.has(parent)) exclusive.add(savepoint);
}
