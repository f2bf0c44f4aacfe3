import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { registry } from '../../generated/index.js';
import { connectDatabase } from '../../runtime/db/connect.js';
import { migrate } from '../../runtime/db/migrate.js';
import { enablePlugins } from '../../runtime/plugins.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PostgreSQL server URL for the suites, or '' to run on SQLite only. */
    pgUrl: string;
    /** A migrated SQLite database file that test databases are copied from. */
    sqliteTemplate: string;
    /** A migrated PostgreSQL database that test databases are created from (`CREATE DATABASE … TEMPLATE`). */
    pgTemplate: string;
  }
}

/**
 * Runs once per test run, before any worker starts. Decides which databases the suites use (SQLite always;
 * PostgreSQL when TEST_DATABASE_URL is set — then it must answer — or when a local server answers on
 * 127.0.0.1:5432), and migrates one template database per dialect, so that each test database is a file copy
 * or a `CREATE DATABASE … TEMPLATE` instead of a run of every migration.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cleanups: (() => Promise<void>)[] = [];
  // The template holds the tables of every generated plugin: test apps load them all by default.
  const { migrations } = enablePlugins(
    registry,
    registry.plugins.map((p) => p.name),
  );

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-template-'));
  const file = path.join(dir, 'template.sqlite3');
  const sqlite = connectDatabase(`sqlite:${file}`);
  await migrate(sqlite, migrations);
  await sqlite.knex.raw('PRAGMA wal_checkpoint(TRUNCATE)');
  await sqlite.close();
  project.provide('sqliteTemplate', file);
  cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));

  project.provide('pgUrl', '');
  project.provide('pgTemplate', '');
  const wanted = process.env.TEST_DIALECTS?.split(',');
  if (wanted && !wanted.includes('postgres')) return runAll(cleanups);

  const explicit = process.env.TEST_DATABASE_URL;
  const url = explicit || 'postgres://postgres@127.0.0.1:5432/test';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  let pgUrl = '';
  try {
    await client.connect();
    await client.query('select 1');
    pgUrl = url;
  } catch (error) {
    if (explicit)
      throw new Error(`TEST_DATABASE_URL is set but PostgreSQL does not answer: ${(error as Error).message}`);
    console.warn('PostgreSQL is not reachable on 127.0.0.1:5432: running the suites on SQLite only.');
  }
  project.provide('pgUrl', pgUrl);
  if (pgUrl) {
    const name = `svc_template_${randomBytes(6).toString('hex')}`;
    await client.query(`CREATE DATABASE ${name}`);
    const templateUrl = new URL(pgUrl);
    templateUrl.pathname = `/${name}`;
    const db = connectDatabase(templateUrl.href);
    await migrate(db, migrations);
    await db.close();
    project.provide('pgTemplate', name);
    cleanups.push(async () => {
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      // The NetBox dumps the import tests restored once for the run (test/import/support.ts).
      const dumps = await client.query<{ datname: string }>(
        "SELECT datname FROM pg_database WHERE datname LIKE $1 || '%'",
        [`${name}_netbox`],
      );
      for (const { datname } of dumps.rows) await client.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    });
  }
  cleanups.push(async () => client.end().catch(() => undefined));

  return runAll(cleanups);
}

/** The teardown: every cleanup in order. */
function runAll(cleanups: (() => Promise<void>)[]): () => Promise<void> {
  return async () => {
    for (const cleanup of cleanups) await cleanup();
  };
}
