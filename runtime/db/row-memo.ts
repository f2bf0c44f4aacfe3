import type { Knex } from 'knex';

type Row = Record<string, unknown>;

/**
 * Related rows read while one batch of objects is validated (a device type for each of 1,000 devices): read
 * once per batch. Only rows of other models than the batch's are kept, since the batch writes its own as it
 * goes; nothing else writes in the transaction while a batch is validated.
 */
interface Memo {
  except: string;
  rows: Map<string, Promise<Row | undefined>>;
}
const memos = new WeakMap<Knex, Memo>();

/** Runs the validation of a batch of objects stored in `table` with related rows read once each. */
export async function withRowMemo<T>(q: Knex, table: string, body: () => Promise<T>): Promise<T> {
  const outer = memos.get(q);
  memos.set(q, { except: table, rows: new Map() });
  try {
    return await body();
  } finally {
    if (outer) memos.set(q, outer);
    else memos.delete(q);
  }
}

/** The stored row with this id (every column), from the batch's memo when one is running. */
export function relatedRow(q: Knex, table: string, id: number): Promise<Row | undefined> {
  // A query builder runs again each time it is awaited: keep its result.
  const read = async (): Promise<Row | undefined> => (await q(table).where('id', id).first()) as Row | undefined;
  const memo = memos.get(q);
  if (!memo || memo.except === table) return read();
  const key = `${table}:${id}`;
  let row = memo.rows.get(key);
  if (!row) memo.rows.set(key, (row = read()));
  return row;
}

/**
 * Reads the rows with these ids of one table in one query into the running batch's memo (a batch's rules
 * then follow each object's FK without a read per object); nothing without a memo or for the batch's table.
 */
export async function primeRows(q: Knex, table: string, ids: readonly number[]): Promise<void> {
  const memo = memos.get(q);
  if (!memo || memo.except === table) return;
  const wanted = [...new Set(ids)].filter((id) => !memo.rows.has(`${table}:${id}`));
  if (wanted.length === 0) return;
  const rows = (await q(table).whereIn('id', wanted)) as Row[];
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  for (const id of wanted) memo.rows.set(`${table}:${id}`, Promise.resolve(byId.get(id)));
}
