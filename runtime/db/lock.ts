import type { Knex } from 'knex';
import type { Dialect } from './connect.js';
import { MIGRATIONS_TABLE } from './migrate.js';

/**
 * Serialises the transactions that take the same named lock until they end, so that what one of them
 * reads is what it may write (two allocations never hand out the same address). Call it first in the
 * transaction, before anything is read.
 *
 * PostgreSQL: a transaction-level advisory lock on a key derived from the name (any number of server
 * processes). SQLite: one database writer at a time; an empty write makes this transaction the writer at
 * once (other connections wait for it through `busy_timeout`), and within a process the single pooled
 * connection already runs transactions one after the other.
 */
export async function lockTransaction(trx: Knex.Transaction, dialect: Dialect, name: string): Promise<void> {
  if (dialect === 'postgres') {
    await trx.raw('SELECT pg_advisory_xact_lock(?, ?)', [LOCK_NAMESPACE, lockKey(name)]);
    return;
  }
  await trx.raw(`DELETE FROM ${MIGRATIONS_TABLE} WHERE 0`);
}

/** The first key of the two-key advisory locks this service takes (the second comes from the name). */
const LOCK_NAMESPACE = 0x5356_4331;

/** A stable 31-bit key for a lock name (FNV-1a). */
export function lockKey(name: string): number {
  let hash = 0x811c9dc5;
  for (const char of name) {
    hash ^= char.codePointAt(0)!;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash & 0x7fffffff;
}
