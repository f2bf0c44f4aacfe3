import type { Knex } from 'knex';
import type { Dialect } from '../db/connect.js';
import { rawRows } from '../db/sql.js';

/**
 * Statements compiled once per shape. A page's batch queries (counts, tags, related pairs) differ from one
 * request to the next only by their ids: Knex builds and compiles each once, with stand-in ids, for a given
 * shape (what the query is for and how many ids it takes); later requests put their ids in the stand-ins'
 * places and send the same statement text, which the connection has prepared already.
 */
interface Shaped {
  sql: string;
  /** Each binding: a constant, or the index of the id it stands for. */
  bindings: ({ id: number } | { value: Knex.RawBinding })[];
}

const shapes = new Map<string, Shaped | null>();
/** Distinct shapes remembered (per page size and model they are few; the limit only bounds odd clients). */
const MAX_SHAPES = 2_000;
/** Stand-in ids, far below any real one; a binding equal to one of them is an id's place. */
const STAND_IN = -7_340_032_000_000;

/**
 * Runs the query `build` makes for `ids`, compiled once per `shape` (which must name everything the query
 * depends on besides the ids, and the number of ids). A query that does not bind each stand-in exactly once,
 * or binds a value computed from one, is compiled on every call instead.
 */
export async function runShaped<T>(
  q: Knex,
  dialect: Dialect,
  shape: string,
  ids: readonly number[],
  build: (ids: readonly number[]) => Knex.QueryBuilder,
): Promise<T[]> {
  const key = `${dialect}\u0000${shape}\u0000${ids.length}`;
  let compiled = shapes.get(key);
  if (compiled === undefined) {
    compiled = compile(build, ids.length);
    if (shapes.size >= MAX_SHAPES) shapes.clear();
    shapes.set(key, compiled);
  }
  if (compiled === null) return (await build(ids)) as T[];
  const bindings = compiled.bindings.map((b) => ('id' in b ? ids[b.id]! : b.value));
  return rawRows<T>(dialect, await q.raw(compiled.sql, bindings));
}

function compile(build: (ids: readonly number[]) => Knex.QueryBuilder, count: number): Shaped | null {
  const standIns = Array.from({ length: count }, (_, i) => STAND_IN - i);
  const { sql, bindings } = build(standIns).toSQL();
  // Sent as a raw statement: its text must hold one plain `?` per binding.
  if (sql.includes('??') || sql.split('?').length - 1 !== bindings.length) return null;
  const seen = new Set<number>();
  let derived = false;
  const mapped = (bindings as Knex.RawBinding[]).map((value) => {
    if (typeof value === 'number' && value <= STAND_IN && value > STAND_IN - count) {
      seen.add(STAND_IN - value);
      return { id: STAND_IN - value };
    }
    // A value computed from a stand-in (an id plus one, its text) would be bound as a constant.
    if (typeof value === 'number' && Math.abs(value) >= 1e12) derived = true;
    if (typeof value === 'string' && /\d{13}/.test(value)) derived = true;
    return { value };
  });
  const placed = mapped.filter((b) => 'id' in b).length;
  return !derived && placed === count && seen.size === count ? { sql, bindings: mapped } : null;
}
