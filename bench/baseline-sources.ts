import Sqlite from 'better-sqlite3';
import pg from 'pg';

/**
 * The baseline's data access: hand-written SQL on the drivers themselves (no query builder). Statements are
 * written with `?` placeholders and prepared once per text (SQLite: a prepared statement; PostgreSQL: a named
 * statement per connection). Column aliases are flat so that rendering is a plain property walk.
 */

type Row = Record<string, any>;

/** Runs one statement and returns its rows. Timestamps come back in the stored form `…SS.ffffffZ`. */
export interface PageSource {
  kind: 'sqlite' | 'postgres';
  all<T = Row>(sql: string, params: readonly unknown[]): Promise<T[]>;
  /** Runs `body` in one transaction (BEGIN … COMMIT, ROLLBACK on an error) on one connection. */
  transaction<T>(body: (tx: Reader) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** What reads need of a source: its kind and statements (a transaction's too). */
export type Reader = Pick<PageSource, 'kind' | 'all'>;

/** `(?, ?, …)` for a list of `n` values. */
export function marks(n: number): string {
  return `(${Array.from({ length: n }, () => '?').join(',')})`;
}

/** better-sqlite3 on the service's SQLite file (a second connection; WAL lets both read). */
export function openSqliteSource(file: string): PageSource {
  const conn = new Sqlite(file, { fileMustExist: true });
  conn.pragma('busy_timeout = 10000');
  const statements = new Map<string, Sqlite.Statement<unknown[], Row>>();
  const all = async <T>(sql: string, params: readonly unknown[]): Promise<T[]> => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = conn.prepare<unknown[], Row>(sql)));
    return (statement.reader ? statement.all(...params) : (statement.run(...params), [])) as T[];
  };
  // One connection: transactions take turns (SQLite has one writer anyway), as the service's do.
  let turn: Promise<unknown> = Promise.resolve();
  return {
    kind: 'sqlite',
    all,
    transaction: <T>(body: (tx: Reader) => Promise<T>): Promise<T> => {
      const run = turn.then(async () => {
        conn.exec('BEGIN IMMEDIATE');
        try {
          const result = await body({ kind: 'sqlite', all });
          conn.exec('COMMIT');
          return result;
        } catch (error) {
          conn.exec('ROLLBACK');
          throw error;
        }
      });
      turn = run.catch(() => undefined);
      return run;
    },
    close: async () => {
      conn.close();
    },
  };
}

/** PostgreSQL type OIDs of the columns that need parsing (int8 ids and counts, numeric, timestamptz, json). */
const PG_INT8 = 20;
const PG_NUMERIC = 1700;
const PG_TIMESTAMPTZ = 1184;
const PG_JSONB = 3802;

/** A `pg` Pool (10 connections, like the service's Knex pool) with its own type parsers. */
export function openPostgresSource(url: string): PageSource {
  // Own parsers rather than pg's global ones, which the service's connect module replaces at start-up.
  const own = new Map<number, (value: string) => unknown>([
    [PG_INT8, Number],
    [PG_NUMERIC, Number],
    [PG_TIMESTAMPTZ, storedTimestamp],
    [PG_JSONB, (v) => v],
  ]);
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      own.get(oid) ??
      (format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text')),
  } as pg.CustomTypesConfig;
  const pool = new pg.Pool({ connectionString: url, max: 10, options: '-c timezone=UTC', types });
  const texts = new Map<string, { name: string; text: string }>();
  const named = (sql: string): { name: string; text: string } => {
    let found = texts.get(sql);
    if (!found) {
      let n = 0;
      found = { name: `bench_${texts.size}`, text: sql.replace(/\?/g, () => `$${(n += 1)}`) };
      texts.set(sql, found);
    }
    return found;
  };
  return {
    kind: 'postgres',
    all: async <T>(sql: string, params: readonly unknown[]) =>
      (await pool.query({ ...named(sql), values: [...params] })).rows as T[],
    transaction: async <T>(body: (tx: Reader) => Promise<T>): Promise<T> => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await body({
          kind: 'postgres',
          all: async <R>(sql: string, params: readonly unknown[]) =>
            (await client.query({ ...named(sql), values: [...params] })).rows as R[],
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** `2026-11-22 17:10:19.1234+00` (session time zone UTC) → `2026-11-22T17:10:19.123400Z`. */
function storedTimestamp(text: string): string {
  const space = text.indexOf(' ');
  const plus = text.lastIndexOf('+');
  const time = text.slice(space + 1, plus);
  const dot = time.indexOf('.');
  const whole = dot < 0 ? time : time.slice(0, dot);
  const fraction = dot < 0 ? '' : time.slice(dot + 1);
  return `${text.slice(0, space)}T${whole}.${fraction.padEnd(6, '0')}Z`;
}
