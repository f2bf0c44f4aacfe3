import fs from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import pg from 'pg';
import { normalizeTimestamp } from './clock.js';
import { regexTest } from './regex.js';
import { DatabaseUrlError } from './errors.js';

export type Dialect = 'sqlite' | 'postgres';

/** A database handle: the Knex instance and which dialect it speaks. */
export interface Database {
  knex: Knex;
  dialect: Dialect;
  /** Counts queries (tests pin query counts per request). */
  queryCount: () => number;
  close: () => Promise<void>;
}

/**
 * PostgreSQL values as the runtime expects them: numbers for int8/numeric, stored-form strings for times,
 * dates as text, and JSON as text as on SQLite (a JSON string value stays distinguishable from encoded
 * JSON). Set on the service's own connections only: pg-boss keeps pg's defaults on its pool.
 */
const PG_PARSERS = new Map<number, (value: string) => unknown>([
  [pg.types.builtins.INT8, Number],
  [pg.types.builtins.NUMERIC, Number],
  [pg.types.builtins.TIMESTAMPTZ, normalizeTimestamp],
  [pg.types.builtins.TIMESTAMP, normalizeTimestamp],
  [pg.types.builtins.DATE, (v) => v],
  [pg.types.builtins.JSONB, (v) => v],
  [pg.types.builtins.JSON, (v) => v],
]);
const PG_TYPES = {
  getTypeParser: (oid: number, format?: string): ((value: string) => unknown) =>
    (format !== 'binary' && PG_PARSERS.get(oid)) ||
    (pg.types.getTypeParser(oid, format === 'binary' ? 'binary' : 'text') as (value: string) => unknown),
};

/** How long opening a PostgreSQL connection may take before the request fails (an unreachable host). */
const PG_CONNECT_TIMEOUT_MS = 5_000;

/** Opens the database named by a `sqlite:<path>` or `postgres://…` URL. */
export function connectDatabase(url: string): Database {
  let queries = 0;
  let instance: Knex;
  let dialect: Dialect;
  if (url.startsWith('sqlite:')) {
    const filename = url.slice('sqlite:'.length) || ':memory:';
    const folder = path.dirname(path.resolve(filename));
    // A mistyped path must not silently start an empty database somewhere else.
    if (filename !== ':memory:' && !fs.existsSync(folder)) {
      throw new DatabaseUrlError(`the folder ${folder} does not exist`);
    }
    dialect = 'sqlite';
    instance = knex({
      client: 'better-sqlite3',
      connection: { filename },
      useNullAsDefault: true,
      pool: {
        min: 1,
        max: 1,
        afterCreate: (conn: SqliteConnection, done: (err: Error | null, conn: unknown) => void) => {
          prepareSqlite(conn, filename);
          done(null, conn);
        },
      },
    });
  } else {
    dialect = 'postgres';
    instance = knex({
      client: 'pg',
      connection: {
        connectionString: url,
        // Prepared statements keep one generic plan: planning a device page's 17 joins costs more than running
        // it, and with the default `auto` PostgreSQL re-plans a statement every time that the generic plan's
        // estimate (its LIMIT unknown) looks costlier than a custom one, as it does for a device page.
        options: '-c timezone=UTC -c plan_cache_mode=force_generic_plan',
        types: PG_TYPES,
        connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
        keepAlive: true,
      },
      // Idle connections stay open (their prepared statements with them), up to the pool's size.
      pool: {
        min: PG_POOL_MIN,
        max: PG_POOL_MAX,
        idleTimeoutMillis: PG_IDLE_MS,
        afterCreate: (conn: PgConnection, done: (err: Error | null, conn: unknown) => void) => {
          prepareStatements(conn);
          done(null, conn);
        },
      },
      acquireConnectionTimeout: PG_CONNECT_TIMEOUT_MS * 2,
      // A lost server is reported once by the process's signal connection (signals.ts), not per query.
      log: { warn: (message: unknown) => void (isPoolConnectionNoise(message) || console.warn(message)) },
    });
  }
  instance.on('query', () => {
    queries += 1;
  });
  return {
    knex: instance,
    dialect,
    queryCount: () => queries,
    close: () => instance.destroy(),
  };
}

const PG_POOL_MIN = 2;
const PG_POOL_MAX = 10;
const PG_IDLE_MS = 10 * 60_000;

/** The part of a `pg` client that statement naming touches. */
interface PgConnection {
  query: (config: unknown, ...rest: unknown[]) => unknown;
  connection: { parsedStatements: Record<string, string>; submittedNamedStatements: Record<string, string> };
}

/** Statements each PostgreSQL connection keeps prepared (the most recently used). */
const PG_STATEMENTS_KEPT = 300;
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;

/**
 * Knex sends unnamed statements, which PostgreSQL parses and plans again on every execution: for the wide
 * joined list queries, planning costs more than running. Each connection names the statements it runs (by
 * SQL text, most recently used first), so that PostgreSQL parses each once per connection and can reuse its
 * plan; the least recently used beyond PG_STATEMENTS_KEPT are deallocated. Only single DML statements are
 * named: transaction control, DDL and multi-statement scripts run as before.
 */
function prepareStatements(conn: PgConnection): void {
  const query = conn.query.bind(conn);
  const names = new Map<string, string>();
  let sequence = 0;
  const forget = (text: string, name: string): void => {
    if (names.get(text) === name) names.delete(text);
    delete conn.connection.parsedStatements[name];
    delete conn.connection.submittedNamedStatements[name];
  };
  const fresh = (text: string): string => {
    const name = `svc_${(sequence += 1).toString(36)}`;
    names.set(text, name);
    return name;
  };
  conn.query = (config: unknown, ...rest: unknown[]): unknown => {
    const text = (config as { text?: unknown } | null)?.text;
    if (typeof config !== 'object' || config === null || typeof text !== 'string' || 'name' in config)
      return query(config, ...rest);
    if (!PREPARABLE.test(text) || text.includes(';')) return query(config, ...rest);
    let name = names.get(text);
    let evicted: string | null = null;
    if (name === undefined) {
      name = `svc_${(sequence += 1).toString(36)}`;
      if (names.size >= PG_STATEMENTS_KEPT) {
        const [oldText, oldName] = names.entries().next().value!;
        names.delete(oldText);
        delete conn.connection.parsedStatements[oldName];
        delete conn.connection.submittedNamedStatements[oldName];
        evicted = oldName;
      }
    } else {
      names.delete(text);
    }
    names.set(text, name);
    const named = { ...config, name };
    // A table changed since the statement was prepared (another process migrated): forget it and run the
    // query again under a new name. In a transaction PostgreSQL has aborted it by then: the transaction is
    // run again (isRetryable), and the statement prepared anew.
    const callback = rest.find((r): r is (error: unknown, result: unknown) => void => typeof r === 'function');
    if (callback) {
      const others = rest.filter((r) => r !== callback);
      const retrying = (error: unknown, result: unknown): void => {
        if (!isStalePlan(error)) return callback(error, result);
        forget(text, name!);
        query({ ...config, name: fresh(text) }, ...others, (again: unknown, response: unknown) =>
          callback(again && (again as { code?: string }).code === '25P02' ? error : again, response),
        );
      };
      rest = [...others, retrying];
    }
    if (evicted === null) return query(named, ...rest);
    // Deallocated first, then the query (a failure, e.g. in an aborted transaction, only leaves it allocated).
    if (callback) return void query(`DEALLOCATE ${evicted}`, () => query(named, ...rest));
    return (query(`DEALLOCATE ${evicted}`) as Promise<unknown>).then(
      () => query(named, ...rest),
      () => query(named, ...rest),
    );
  };
}

/** PostgreSQL's refusal to run a prepared statement whose tables changed shape since it was prepared. */
export function isStalePlan(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  return e?.code === '0A000' && typeof e.message === 'string' && e.message.includes('cached plan must not change');
}

/** Knex's warnings about connections that broke or could not be opened. */
function isPoolConnectionNoise(message: unknown): boolean {
  return typeof message === 'string' && /^(Connection Error|Acquire connection error):/.test(message);
}

interface SqliteConnection {
  prepare(sql: string): unknown;
  pragma(source: string): unknown;
  function(name: string, options: { deterministic: boolean }, fn: (...args: unknown[]) => unknown): void;
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Knex prepares every statement anew; preparing the wide list queries costs more than running them. The
 * connection keeps the most recently used statements by SQL text (statements are reusable and run
 * synchronously, and SQLite re-prepares them itself after a schema change).
 */
function cacheStatements(conn: SqliteConnection): void {
  const prepare = conn.prepare.bind(conn);
  const cache = new Map<string, unknown>();
  conn.prepare = (text: string): unknown => {
    // Knex begins every transaction with a deferred BEGIN; this service's transactions write, and a deferred
    // one that reads first cannot wait for the write lock (SQLITE_BUSY at once when another connection, e.g.
    // a second server on the same file, wrote meanwhile). IMMEDIATE takes the lock up front, under busy_timeout.
    const sql = text === 'BEGIN;' ? 'BEGIN IMMEDIATE;' : text;
    let statement = cache.get(sql);
    if (statement === undefined) {
      statement = prepare(sql);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    } else {
      cache.delete(sql);
    }
    cache.set(sql, statement);
    return statement;
  };
}

/** SQLite settings for a server: WAL for concurrent readers, enforced FKs, REGEXP for regex lookups. */
function prepareSqlite(conn: SqliteConnection, filename: string): void {
  if (filename !== ':memory:') conn.pragma('journal_mode = WAL');
  conn.pragma('foreign_keys = ON');
  conn.pragma('busy_timeout = 10000');
  conn.pragma('synchronous = NORMAL');
  cacheStatements(conn);
  const matcher = (insensitive: boolean) => (value: unknown, pattern: unknown) =>
    value === null || value === undefined ? null : regexTest(String(pattern), String(value), insensitive) ? 1 : 0;
  conn.function('svc_regexp', { deterministic: true }, matcher(false));
  conn.function('svc_iregexp', { deterministic: true }, matcher(true));
}
