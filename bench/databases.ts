import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A throw-away database for one benchmark run. */
export interface BenchDatabase {
  label: 'SQLite' | 'PostgreSQL';
  kind: 'sqlite' | 'postgres';
  /** The service's DATABASE_URL. */
  url: string;
  /** The SQLite file, or the PostgreSQL connection string of the fresh database (for the baseline). */
  location: string;
  /** Removes the database; safe to call once the service and the baseline are closed. */
  drop: () => Promise<void>;
}

const DEFAULT_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh SQLite file in a new temporary folder. */
export function createSqliteDatabase(): BenchDatabase {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-'));
  const file = path.join(dir, 'bench.sqlite3');
  return {
    label: 'SQLite',
    kind: 'sqlite',
    url: `sqlite:${file}`,
    location: file,
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * A fresh PostgreSQL database `svc_bench_<random>` on the server of BENCH_DATABASE_URL, TEST_DATABASE_URL or
 * the local default (created through that URL's database). Returns the reason instead when no server answers,
 * so that the run can go on with SQLite alone.
 */
export async function createPostgresDatabase(
  env: NodeJS.ProcessEnv = process.env,
): Promise<BenchDatabase | { skipped: string }> {
  const adminUrl = env.BENCH_DATABASE_URL || env.TEST_DATABASE_URL || DEFAULT_ADMIN_URL;
  const name = `svc_bench_${randomBytes(5).toString('hex')}`;
  const shown = redact(adminUrl);
  try {
    await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  } catch (error) {
    return { skipped: `no PostgreSQL server answered at ${shown} (${(error as Error).message})` };
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    label: 'PostgreSQL',
    kind: 'postgres',
    url: url.href,
    location: url.href,
    drop: async () => {
      // FORCE ends connections that a crashed run may have left behind (PostgreSQL 13+).
      await withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}

async function withAdmin<T>(adminUrl: string, body: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await body(client);
  } finally {
    await client.end();
  }
}

function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return '<invalid URL>';
  }
}
