/**
 * A NetBox PostgreSQL database read as an import source: its version (from `django_migrations`), its content
 * types, its tables and columns, and rows read in pages by id (keyset pagination), so that no table is held in
 * memory. The connection only reads (one `READ ONLY` transaction: a consistent snapshot of the whole database).
 */
import pg from 'pg';
import { normalizeTimestamp } from '../db/clock.js';
import { ImportError } from './import-error.js';
import { netboxVersionOf } from './netbox-versions.js';
import { NETBOX_IMPORT } from '../domain/netbox-import.js';

type Row = Record<string, unknown>;

/** Values as the service's write path parses them: decimals and dates as text, times in stored form. */
const PARSERS = new Map<number, (value: string) => unknown>([
  [pg.types.builtins.INT8, Number],
  [pg.types.builtins.NUMERIC, (v) => v],
  [pg.types.builtins.DATE, (v) => v],
  [pg.types.builtins.TIMESTAMPTZ, normalizeTimestamp],
  [pg.types.builtins.TIMESTAMP, normalizeTimestamp],
]);
const TYPES = {
  getTypeParser: (oid: number, format?: string): ((value: string) => unknown) =>
    (format !== 'binary' && PARSERS.get(oid)) ||
    (pg.types.getTypeParser(oid, format === 'binary' ? 'binary' : 'text') as (value: string) => unknown),
};

/** Where rows come from: the PostgreSQL source, or (in tests and the REST source) anything of the same shape. */
export interface NetboxSource {
  /** `major.minor` of the NetBox release whose schema the source has. */
  readonly version: string;
  /** Content type id → `app.model`. */
  readonly contentTypes: ReadonlyMap<number, string>;
  /** Table → its columns. */
  readonly tables: ReadonlyMap<string, ReadonlySet<string>>;
  count(table: string): Promise<number>;
  /** The row counts of many tables at once (a database source: one statement per hundred tables). */
  counts?(tables: readonly string[]): Promise<Map<string, number>>;
  /** Rows with `id` greater than `after`, in id order (at most `limit`); `where` narrows them to some ids. */
  page(table: string, after: number, limit: number, ids?: readonly number[]): Promise<Row[]>;
  /** Rows of a table whose `column` is one of `values` (join tables, tagged items). */
  rowsWhere(table: string, column: string, values: readonly number[]): Promise<Row[]>;
  /** Two columns of every row (small tables: tree parents). */
  pairs(table: string, a: string, b: string): Promise<[number, number | null][]>;
  close(): Promise<void>;
}

/** Opens a NetBox database by URL; a database that is not NetBox 4.0–4.6 is an ImportError. */
export async function openNetboxDatabase(url: string): Promise<NetboxSource> {
  const client = new pg.Client({ connectionString: url, types: TYPES, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new ImportError(`Cannot reach the NetBox database ${redactUrl(url)}: ${(error as Error).message}`);
  }
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const columns = await client.query<{ table_name: string; column_name: string }>(
      `SELECT table_name, column_name FROM information_schema.columns
        WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
    );
    const tables = new Map<string, Set<string>>();
    for (const { table_name, column_name } of columns.rows) {
      let set = tables.get(table_name);
      if (!set) tables.set(table_name, (set = new Set()));
      set.add(column_name);
    }
    const missing = NETBOX_IMPORT.signature.filter((table) => !tables.has(table));
    if (missing.length > 0) {
      throw new ImportError(`${redactUrl(url)} is not a NetBox database (it has no table ${missing.join(', ')}).`);
    }
    const migrations = await client.query<{ app: string; name: string }>('SELECT app, name FROM django_migrations');
    const version = netboxVersionOf(migrations.rows);
    const types = await client.query<{ id: number; app_label: string; model: string }>(
      `SELECT id, app_label, model FROM ${NETBOX_IMPORT.contentTypes}`,
    );
    const contentTypes = new Map(types.rows.map((r) => [Number(r.id), `${r.app_label}.${r.model}`]));
    return new PgSource(client, version, contentTypes, tables);
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
}

class PgSource implements NetboxSource {
  constructor(
    private readonly client: pg.Client,
    readonly version: string,
    readonly contentTypes: ReadonlyMap<number, string>,
    readonly tables: ReadonlyMap<string, ReadonlySet<string>>,
  ) {}

  async count(table: string): Promise<number> {
    const result = await this.client.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${quote(table)}`);
    return result.rows[0]!.n;
  }

  async counts(tables: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    for (let start = 0; start < tables.length; start += 100) {
      const chunk = tables.slice(start, start + 100);
      const result = await this.client.query<{ t: number; n: number }>(
        chunk.map((table, i) => `SELECT ${i} AS t, count(*)::int AS n FROM ${quote(table)}`).join(' UNION ALL '),
      );
      for (const row of result.rows) counts.set(chunk[row.t]!, row.n);
    }
    return counts;
  }

  async page(table: string, after: number, limit: number, ids?: readonly number[]): Promise<Row[]> {
    const where = ids ? 'AND id = ANY($3::int[])' : '';
    const result = await this.client.query<Row>(
      `SELECT * FROM ${quote(table)} WHERE id > $1 ${where} ORDER BY id LIMIT $2`,
      ids ? [after, limit, ids] : [after, limit],
    );
    return result.rows;
  }

  async rowsWhere(table: string, column: string, values: readonly number[]): Promise<Row[]> {
    if (values.length === 0) return [];
    const result = await this.client.query<Row>(
      `SELECT * FROM ${quote(table)} WHERE ${quote(column)} = ANY($1::int[]) ORDER BY id`,
      [values],
    );
    return result.rows;
  }

  async pairs(table: string, a: string, b: string): Promise<[number, number | null][]> {
    const result = await this.client.query<{ a: number; b: number | null }>(
      `SELECT ${quote(a)} AS a, ${quote(b)} AS b FROM ${quote(table)} ORDER BY ${quote(a)}`,
    );
    return result.rows.map((r) => [Number(r.a), r.b === null ? null : Number(r.b)]);
  }

  async close(): Promise<void> {
    await this.client.query('ROLLBACK').catch(() => undefined);
    await this.client.end();
  }
}

function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/** The URL without its password, for messages and the report. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}
