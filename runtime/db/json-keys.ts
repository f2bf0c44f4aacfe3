import type { Knex } from 'knex';
import type { Dialect } from './connect.js';

/**
 * SQL on one key of a JSON object column (custom field data): read it, compare it, and add, rename or remove
 * it in every row of a table. SQLite's JSON1 functions and PostgreSQL's jsonb operators differ; the callers
 * do not. `key` is spliced into the SQL text: callers pass names of `[A-Za-z0-9_]` only.
 */

/** The key's scalar value: a JSON number stays a number on SQLite; PostgreSQL gives text. */
export function jsonKeyValue(dialect: Dialect, column: string, key: string): string {
  return dialect === 'sqlite' ? `json_extract(${column}, '$.${key}')` : `(${column} ->> '${key}')`;
}

/** The key's value as a number, for range comparisons. */
export function jsonKeyNumber(dialect: Dialect, column: string, key: string): string {
  const value = jsonKeyValue(dialect, column, key);
  return dialect === 'sqlite' ? value : `CAST(${value} AS numeric)`;
}

/** A number or boolean as `jsonKeyValue` yields it, to compare with: SQLite 1/0 for booleans, PostgreSQL text. */
export function jsonKeyScalar(dialect: Dialect, value: number | boolean): string | number {
  if (dialect === 'sqlite') return typeof value === 'boolean' ? (value ? 1 : 0) : value;
  return String(value);
}

/** Adds "the key's value equals this JSON value" (any JSON: lists and objects compare whole). */
export function whereJsonKeyEquals(
  qb: Knex.QueryBuilder,
  dialect: Dialect,
  column: string,
  key: string,
  json: string,
): void {
  if (dialect === 'sqlite') qb.whereRaw(`json_extract(${column}, '$.${key}') = json_extract(?, '$')`, [json]);
  else qb.whereRaw(`(${column} -> '${key}') = ?::jsonb`, [json]);
}

/** Adds "or the key's JSON list holds this element". */
export function orWhereJsonKeyListHas(
  qb: Knex.QueryBuilder,
  dialect: Dialect,
  column: string,
  key: string,
  element: string | number,
): void {
  if (dialect === 'sqlite') {
    qb.orWhereRaw(`EXISTS (SELECT 1 FROM json_each(${column}, '$.${key}') WHERE json_each.value = ?)`, [element]);
  } else {
    qb.orWhereRaw(`(${column} -> '${key}') @> ?::jsonb`, [JSON.stringify([element])]);
  }
}

/** Removes the key from every row of the table. */
export async function removeJsonKey(
  q: Knex,
  dialect: Dialect,
  table: string,
  column: string,
  key: string,
): Promise<void> {
  if (dialect === 'sqlite') await q.raw(`UPDATE ?? SET ${column} = json_remove(${column}, '$.${key}')`, [table]);
  else await q.raw(`UPDATE ?? SET ${column} = ${column} - '${key}'`, [table]);
}

/** Renames the key in every row of the table that has it. */
export async function renameJsonKey(
  q: Knex,
  dialect: Dialect,
  table: string,
  column: string,
  from: string,
  to: string,
): Promise<void> {
  if (dialect === 'sqlite') {
    await q.raw(
      `UPDATE ?? SET ${column} = json_remove(json_set(${column}, '$.${to}', json_extract(${column}, '$.${from}')), '$.${from}') WHERE json_type(${column}, '$.${from}') IS NOT NULL`,
      [table],
    );
  } else {
    await q.raw(
      `UPDATE ?? SET ${column} = jsonb_set(${column} - '${from}', '{${to}}', ${column} -> '${from}') WHERE jsonb_exists(${column}, '${from}')`,
      [table],
    );
  }
}

/** Sets the key to a JSON value in every row of the table that lacks it. */
export async function setMissingJsonKey(
  q: Knex,
  dialect: Dialect,
  table: string,
  column: string,
  key: string,
  json: string,
): Promise<void> {
  if (dialect === 'sqlite') {
    await q.raw(
      `UPDATE ?? SET ${column} = json_set(${column}, '$.${key}', json(?)) WHERE json_type(${column}, '$.${key}') IS NULL`,
      [table, json],
    );
  } else {
    await q.raw(
      `UPDATE ?? SET ${column} = jsonb_set(${column}, '{${key}}', ?::jsonb) WHERE NOT jsonb_exists(${column}, '${key}')`,
      [table, json],
    );
  }
}
