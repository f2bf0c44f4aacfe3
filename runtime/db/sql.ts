import type { Knex } from 'knex';
import type { Dialect } from './connect.js';
import { regexProblem } from './regex.js';

/**
 * The few SQL fragments that differ between SQLite and PostgreSQL. Everything else is written once with
 * Knex and runs on both.
 */

/**
 * Bound parameters one statement may carry: PostgreSQL's protocol counts them in 16 bits, SQLite's default
 * SQLITE_MAX_VARIABLE_NUMBER (since 3.32, which better-sqlite3 bundles) is 32,766. On SQLite, Knex writes a
 * multi-row INSERT as `SELECT … UNION ALL SELECT …`, which SQLITE_MAX_COMPOUND_SELECT caps at 500 rows.
 */
const MAX_PARAMETERS: Record<Dialect, number> = { postgres: 65_535, sqlite: 32_766 };
const MAX_ROWS: Record<Dialect, number> = { postgres: Infinity, sqlite: 500 };

/** How many rows of `width` columns one multi-row INSERT takes on the dialect. */
export function rowsPerInsert(dialect: Dialect, width: number): number {
  return Math.max(1, Math.min(MAX_ROWS[dialect], Math.floor(MAX_PARAMETERS[dialect] / Math.max(1, width))));
}

/**
 * Ids in one `IN (…)` list of a write's statements: well under both databases' parameter limits, and large
 * enough that a bulk of a thousand objects reads each table once.
 */
export const IDS_PER_STATEMENT = 5_000;

/** Splits a list for `IN (…)` clauses that stay under the databases' parameter limits. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

/**
 * Gives each row its own values in one statement per chunk (`SET c = CASE id WHEN ? THEN ? … ELSE c END WHERE
 * id IN (…)`) rather than one UPDATE per row. Every row sets the same columns. The `ELSE c` branch, never taken,
 * gives the CASE its column's type: PostgreSQL types the untyped parameters by it (a timestamp, JSON, a number)
 * instead of as text.
 */
export async function updateById(
  q: Knex,
  dialect: Dialect,
  table: string,
  rows: readonly { id: number; values: Record<string, unknown> }[],
): Promise<void> {
  const columns = Object.keys(rows[0]?.values ?? {});
  if (columns.length === 0) return;
  // A CASE is searched branch by branch for every row it sets: chunks of at most 500 rows keep that linear.
  const perRow = 1 + 2 * columns.length;
  for (const chunk of chunks(rows, Math.min(500, Math.floor(MAX_PARAMETERS[dialect] / perRow)))) {
    const set: Record<string, Knex.Raw> = {};
    for (const column of columns) {
      set[column] = q.raw(`CASE id ${chunk.map(() => 'WHEN ? THEN ?').join(' ')} ELSE ?? END`, [
        ...chunk.flatMap((r) => [r.id, (r.values[column] ?? null) as Knex.Value]),
        column,
      ]);
    }
    await q(table)
      .whereIn(
        'id',
        chunk.map((r) => r.id),
      )
      .update(set);
  }
}

/**
 * Sets each row's values (`rows`: id and columns), in as few statements as the rows allow: rows that set the
 * same columns go together, in one UPDATE when they also set the same values, else through updateById.
 */
export async function updateRows(
  q: Knex,
  dialect: Dialect,
  table: string,
  rows: readonly { id: number; values: Record<string, unknown> }[],
): Promise<void> {
  const groups = new Map<string, { id: number; values: Record<string, unknown> }[]>();
  for (const row of rows) {
    const columns = Object.keys(row.values).sort();
    if (columns.length === 0) continue;
    const key = columns.join('\0');
    const group = groups.get(key) ?? [];
    group.push({ id: row.id, values: Object.fromEntries(columns.map((c) => [c, row.values[c]])) });
    groups.set(key, group);
  }
  for (const group of groups.values()) {
    const first = JSON.stringify(group[0]!.values);
    if (group.every((row) => JSON.stringify(row.values) === first)) {
      for (const chunk of chunks(group, 500))
        await q(table)
          .whereIn(
            'id',
            chunk.map((r) => r.id),
          )
          .update(group[0]!.values);
    } else await updateById(q, dialect, table, group);
  }
}

/**
 * Which of the queries find a row (by index), in one statement of EXISTS probes joined by UNION ALL: a write asks
 * which tables hold anything for it before reading only those.
 */
export async function whichExist(q: Knex, probes: readonly Knex.QueryBuilder[]): Promise<Set<number>> {
  if (probes.length === 0) return new Set();
  const parts = probes.map((probe, index) => {
    const { sql, bindings } = probe.clearSelect().select(q.raw('1')).toSQL();
    return { sql: `select ${index} as r where exists (${sql})`, bindings };
  });
  const result: unknown = await q.raw(
    parts.map((p) => p.sql).join(' union all '),
    parts.flatMap((p) => p.bindings as Knex.Value[]),
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: { r: unknown }[] }).rows) as { r: unknown }[];
  return new Set(rows.map((row) => Number(row.r)));
}

/** Tree paths: `<segment>(\x02<segment>)*`, segment = `<name>\x01<id, 10 digits>`. */
export const PATH_SEPARATOR = '\u0002';
export const PATH_AFTER_SEPARATOR = '\u0003';
const SEGMENT_ID_SEPARATOR = '\u0001';

/** A tree node's path segment: sorts siblings by name, then id. */
export function pathSegment(name: string, id: number): string {
  return `${name}${SEGMENT_ID_SEPARATOR}${String(id).padStart(10, '0')}`;
}

/** SQL text of `<expr> || <control character>` on the dialect. */
export function concatChar(dialect: Dialect, expr: string, code: number): string {
  return dialect === 'sqlite' ? `(${expr} || char(${code}))` : `(${expr} || chr(${code}))`;
}

/**
 * SQL condition "node `d` is `a` or one of its descendants", for two aliases of the same tree table.
 */
export function descendantOrSelf(dialect: Dialect, d: string, a: string): string {
  const lower = concatChar(dialect, `${a}._path`, PATH_SEPARATOR.charCodeAt(0));
  const upper = concatChar(dialect, `${a}._path`, PATH_AFTER_SEPARATOR.charCodeAt(0));
  return `(${d}.id = ${a}.id OR (${d}._path > ${lower} AND ${d}._path < ${upper}))`;
}

/** Case-insensitive LIKE with `\` as escape character. */
export function ilike(dialect: Dialect, column: string): string {
  return dialect === 'sqlite' ? `${column} LIKE ? ESCAPE '\\'` : `${column} ILIKE ? ESCAPE '\\'`;
}

/**
 * "`column` contains / starts with / ends with `text`", case-sensitively, as PostgreSQL's LIKE does: SQLite's
 * LIKE ignores case, its GLOB does not. Returns the SQL (one binding) and the binding.
 */
export function matchCase(
  dialect: Dialect,
  column: string,
  how: 'contains' | 'startswith' | 'endswith',
  text: string,
): [string, string] {
  const [escaped, any] =
    dialect === 'sqlite' ? [text.replace(/[*?[]/g, (c) => `[${c}]`), '*'] : [escapeLike(text), '%'];
  const pattern =
    how === 'contains' ? `${any}${escaped}${any}` : how === 'startswith' ? `${escaped}${any}` : `${any}${escaped}`;
  return dialect === 'sqlite' ? [`${column} GLOB ?`, pattern] : [`${column} LIKE ? ESCAPE '\\'`, pattern];
}

/** Escapes LIKE wildcards in user text. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** Regular-expression match (case-insensitive with `insensitive`); bindings: column, then pattern. */
export function regexMatch(dialect: Dialect, column: string, insensitive: boolean): string {
  if (dialect === 'postgres') return `${column} ${insensitive ? '~*' : '~'} ?`;
  return `${insensitive ? 'svc_iregexp' : 'svc_regexp'}(${column}, ?)`;
}

/**
 * An `ORDER BY` item with PostgreSQL's NULL placement (last ascending, first descending) on both dialects.
 * Non-null columns get a plain item, which lets SQLite walk an index instead of sorting.
 */
export function orderColumn(qb: Knex.QueryBuilder, column: string, descending: boolean, nullable: boolean): void {
  if (!nullable) qb.orderBy(column, descending ? 'desc' : 'asc');
  else qb.orderByRaw(`?? ${descending ? 'DESC NULLS FIRST' : 'ASC NULLS LAST'}`, [column]);
}

/** Lower-cased text for case-insensitive comparisons (ASCII on SQLite, which matches PostgreSQL's C collation). */
export function lower(column: string): string {
  return `lower(${column})`;
}

/** SQL text of a value as text, for text lookups on numeric columns. */
export function asText(expression: string): string {
  return `CAST(${expression} AS TEXT)`;
}

/** Adds "the JSON list in `column` holds one of the values" to a query. */
export function whereJsonListHasAny(
  qb: Knex.QueryBuilder,
  dialect: Dialect,
  column: string,
  values: readonly (string | number)[],
): void {
  if (values.length === 0) return void qb.whereRaw('1 = 0');
  if (dialect === 'sqlite') {
    qb.whereRaw(`EXISTS (SELECT 1 FROM json_each(??) WHERE json_each.value IN (${values.map(() => '?').join(', ')}))`, [
      column,
      ...values,
    ]);
  } else {
    qb.where((w) => {
      for (const value of values) w.orWhereRaw('?? @> ?::jsonb', [column, JSON.stringify([value])]);
    });
  }
}

/** Adds "some number in the JSON list in `column` compares with `value` by `operator`" to a query. */
export function whereJsonListItemCompares(
  qb: Knex.QueryBuilder,
  dialect: Dialect,
  column: string,
  operator: '<' | '<=' | '>' | '>=',
  value: number,
): void {
  if (dialect === 'sqlite')
    qb.whereRaw(`EXISTS (SELECT 1 FROM json_each(??) WHERE json_each.value ${operator} ?)`, [column, value]);
  else
    qb.whereRaw(`EXISTS (SELECT 1 FROM jsonb_array_elements_text(??) AS e(v) WHERE e.v::numeric ${operator} ?)`, [
      column,
      value,
    ]);
}

/** Adds "some value of the JSON object in `column` is one of `values`" to a query. */
export function whereJsonObjectHasAnyValue(
  qb: Knex.QueryBuilder,
  dialect: Dialect,
  column: string,
  values: readonly string[],
): void {
  if (values.length === 0) return void qb.whereRaw('1 = 0');
  const list = values.map(() => '?').join(', ');
  if (dialect === 'sqlite')
    qb.whereRaw(`EXISTS (SELECT 1 FROM json_each(??) WHERE json_each.value IN (${list}))`, [column, ...values]);
  else qb.whereRaw(`EXISTS (SELECT 1 FROM jsonb_each_text(??) AS e(k, v) WHERE e.v IN (${list}))`, [column, ...values]);
}

/** Adds "the JSON list in `column` is empty or null" to a query. */
export function whereJsonListEmpty(qb: Knex.QueryBuilder, dialect: Dialect, column: string): void {
  const length = dialect === 'sqlite' ? 'json_array_length' : 'jsonb_array_length';
  qb.where((w) => w.whereNull(column).orWhereRaw(`${length}(??) = 0`, [column]));
}

/** Adds "one of the lists in the JSON list of lists in `column` holds one of the values" to a query. */
export function whereJsonNestedListHasAny(
  qb: Knex.QueryBuilder,
  dialect: Dialect,
  column: string,
  values: readonly string[],
): void {
  if (values.length === 0) return void qb.whereRaw('1 = 0');
  const marks = values.map(() => '?').join(', ');
  if (dialect === 'sqlite') {
    qb.whereRaw(
      `EXISTS (SELECT 1 FROM json_each(??) AS o, json_each(o.value) AS i WHERE o.type = 'array' AND i.value IN (${marks}))`,
      [column, ...values],
    );
  } else {
    qb.whereRaw(
      `EXISTS (SELECT 1 FROM jsonb_array_elements(CASE WHEN jsonb_typeof(??) = 'array' THEN ?? ELSE '[]'::jsonb END) AS o(v), ` +
        `jsonb_array_elements_text(CASE WHEN jsonb_typeof(o.v) = 'array' THEN o.v ELSE '[]'::jsonb END) AS i(v) WHERE i.v IN (${marks}))`,
      [column, column, ...values],
    );
  }
}

/** A boolean as a query parameter: SQLite stores booleans as 1 and 0. */
export function sqlBoolean(dialect: Dialect, value: boolean): boolean | number {
  return dialect === 'sqlite' ? (value ? 1 : 0) : value;
}

/** The rows of a `knex.raw` SELECT: pg wraps them in a result object, better-sqlite3 gives the array. */
export function rawRows<T>(dialect: Dialect, result: unknown): T[] {
  return (dialect === 'postgres' ? (result as { rows: T[] }).rows : result) as T[];
}

/**
 * Why a pattern of a `regex` lookup cannot be used, or null. PostgreSQL judges its own patterns (an invalid one
 * is a 400 from the database error's translation); SQLite's are compiled here.
 */
export function regexLookupProblem(dialect: Dialect, pattern: string, insensitive: boolean): string | null {
  return dialect === 'sqlite' ? regexProblem(pattern, insensitive) : null;
}
