import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { registry as defaultRegistry } from '../../generated/index.js';
import { createContext } from '../../runtime/app.js';
import { loadSettings, type Settings } from '../../runtime/config.js';
import { connectDatabase, type Dialect } from '../../runtime/db/connect.js';
import { migrate } from '../../runtime/db/migrate.js';
import { enablePlugins } from '../../runtime/plugins.js';
import { importNetbox, type ImportOptions } from '../../runtime/import/importer.js';
import { openNetboxDatabase, type NetboxSource } from '../../runtime/import/netbox-database.js';
import { openNetboxApi } from '../../runtime/import/netbox-api.js';
import { Schema } from '../../runtime/rest/schema.js';
import type { ImportReport } from '../../runtime/import/report.js';
import { createTestDatabase, TEST_PEPPER, ALL_PLUGINS } from '../support/app.js';

const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/netbox-demo');

/** Whether NetBox dumps can be restored here: a PostgreSQL server and `psql`. */
export function canRestore(): boolean {
  if (!inject('pgUrl')) return false;
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => fs.existsSync(path.join(dir, 'psql')));
}

/**
 * A NetBox database restored from a demo dump (`4.0`, `4.1`, `4.2`) into a fresh PostgreSQL database: a copy of
 * the dump's template database, which the first file of the run to ask for that version restores (the workers
 * take turns under an advisory lock) and the run's teardown drops with the service's template.
 */
export async function restoreNetboxDump(version: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const server = inject('pgUrl');
  const name = `netbox_src_${randomBytes(5).toString('hex')}`;
  const template = `${inject('pgTemplate')}${NETBOX_TEMPLATE_SUFFIX}${version.replace('.', '')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock($1)', [RESTORE_LOCK]);
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (found.rowCount === 0) await restoreInto(admin, server, template, version);
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.query('SELECT pg_advisory_unlock($1)', [RESTORE_LOCK]).catch(() => undefined);
    await admin.end();
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: async () => {
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** After the service template's name: the run's NetBox dump templates (test/support/global-setup.ts drops them). */
const NETBOX_TEMPLATE_SUFFIX = '_netbox';
/** The advisory lock the workers restore dumps under. */
const RESTORE_LOCK = 0x6e6278;

async function restoreInto(admin: pg.Client, server: string, name: string, version: string): Promise<void> {
  // The dumps give their objects to the role `netbox`.
  await admin
    .query(
      `DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'netbox') THEN CREATE ROLE netbox; END IF; END $$`,
    )
    .catch((error: { code?: string }) => {
      if (error.code !== '23505' && error.code !== '42710') throw error;
    });
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn('psql', ['-q', '-v', 'ON_ERROR_STOP=1', '-X', url.href], {
        stdio: ['pipe', 'ignore', 'pipe'],
      });
      let errors = '';
      child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
      child.once('error', reject);
      child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`psql failed (${code}): ${errors}`))));
      fs.createReadStream(path.join(FIXTURES, `netbox-demo-v${version}.sql.gz`))
        .pipe(zlib.createGunzip())
        .pipe(child.stdin);
    });
  } catch (error) {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    throw error;
  }
}

/** The number of rows of a table of a service database (SQLite or PostgreSQL). */
export async function countRows(url: string, table: string): Promise<number> {
  const db = connectDatabase(url);
  try {
    const row = (await db.knex(table).count({ n: '*' }).first()) as { n: number | string };
    return Number(row.n);
  } finally {
    await db.close();
  }
}

/** Runs SQL on a restored NetBox database (what the demo data lacks, added in NetBox's own schema). */
export async function runSql(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Rows of a NetBox table by id. */
export async function sourceRows(url: string, table: string): Promise<Map<number, Record<string, unknown>>> {
  const client = sourceClient(url);
  await client.connect();
  try {
    const result = await client.query<Record<string, unknown>>(`SELECT * FROM "${table}" ORDER BY id`);
    return new Map(result.rows.map((r) => [Number(r.id), r]));
  } finally {
    await client.end();
  }
}

/** A client that reads dates as text (pg's Date would shift them by the local time zone). */
export function sourceClient(url: string): pg.Client {
  const types = {
    getTypeParser: (oid: number, format?: string) =>
      oid === 1082 // date
        ? (v: string) => v
        : pg.types.getTypeParser(oid, format === 'binary' ? 'binary' : 'text'),
  };
  return new pg.Client({ connectionString: url, types: types as pg.CustomTypesConfig });
}

/** Rows of a NetBox join table grouped by `from`: the `to` values. */
export async function joinRows(url: string, table: string, from: string, to: string): Promise<Map<number, unknown[]>> {
  const client = sourceClient(url);
  await client.connect();
  try {
    const result = await client.query<Record<string, unknown>>(`SELECT "${from}" AS f, "${to}" AS t FROM "${table}"`);
    const map = new Map<number, unknown[]>();
    for (const row of result.rows) map.set(Number(row.f), [...(map.get(Number(row.f)) ?? []), row.t]);
    return map;
  } finally {
    await client.end();
  }
}

/** Imports a NetBox database into a fresh service database of the dialect (migrated); returns its URL and the report. */
export async function importInto(
  dialect: Dialect,
  sourceUrl: string,
  options: Partial<ImportOptions> & { targetUrl?: string; settings?: Partial<Settings> } = {},
): Promise<{ url: string; drop: () => Promise<void>; report: ImportReport; source: NetboxSource }> {
  const target = options.targetUrl
    ? { url: options.targetUrl, drop: async () => undefined }
    : await createTestDatabase(dialect, { migrated: true });
  const settings = loadSettings(
    { DATABASE_URL: target.url },
    { API_TOKEN_PEPPERS: { '1': TEST_PEPPER }, PLUGINS: ALL_PLUGINS, ...options.settings },
  );
  const registry = enablePlugins(defaultRegistry, settings.PLUGINS);
  const db = connectDatabase(target.url);
  const source = await openNetboxDatabase(sourceUrl);
  try {
    await migrate(db, registry.migrations);
    const context = createContext(registry, settings, db, () => undefined);
    const { targetUrl: _target, settings: _settings, ...rest } = options;
    const report = await importNetbox(context, source, {
      merge: false,
      dryRun: false,
      message: 'Imported from NetBox (test)',
      sourceName: 'test',
      ...rest,
    });
    return { ...target, report, source };
  } finally {
    await source.close();
    await db.close();
  }
}

/**
 * Imports a running NetBox API (or this service's) into a fresh service database of the dialect, or into
 * `targetUrl` (kept when the import fails).
 */
export async function importFromApi(
  dialect: Dialect,
  baseUrl: string,
  token: string,
  options: Partial<ImportOptions> & { targetUrl?: string; settings?: Partial<Settings> } = {},
): Promise<{ url: string; drop: () => Promise<void>; report: ImportReport }> {
  const { targetUrl, settings: overrides, ...rest } = options;
  const target = targetUrl
    ? { url: targetUrl, drop: async () => undefined }
    : await createTestDatabase(dialect, { migrated: true });
  const settings = loadSettings(
    { DATABASE_URL: target.url },
    { API_TOKEN_PEPPERS: { '1': TEST_PEPPER }, PLUGINS: ALL_PLUGINS, ...overrides },
  );
  const registry = enablePlugins(defaultRegistry, settings.PLUGINS);
  const db = connectDatabase(target.url);
  try {
    await migrate(db, registry.migrations);
    const source = await openNetboxApi(baseUrl, token, new Schema(registry));
    const context = createContext(registry, settings, db, () => undefined);
    const report = await importNetbox(context, source, {
      merge: false,
      dryRun: false,
      message: 'Imported from NetBox (test, REST)',
      sourceName: baseUrl,
      ...rest,
    });
    return { ...target, report };
  } catch (error) {
    await target.drop();
    throw error;
  } finally {
    await db.close();
  }
}
