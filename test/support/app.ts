import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { registry as defaultRegistry } from '../../generated/index.js';
import { createApp, createContext, stopBackground } from '../../runtime/app.js';
import type { AppContext } from '../../runtime/http/app-context.js';
import { loadSettings, type Settings } from '../../runtime/config.js';
import { connectDatabase, type Database, type Dialect } from '../../runtime/db/connect.js';
import { migrate } from '../../runtime/db/migrate.js';
import { syncObjectTypes } from '../../runtime/rest/object-types.js';
import { createSuperuser } from '../../runtime/superuser.js';
import type { Registry } from '../../runtime/spec.js';
import { enablePlugins } from '../../runtime/plugins.js';
import { ApiClient, type ResponseValidator } from './client.js';
import { responseValidator } from './openapi.js';

/**
 * The databases every API suite runs on: SQLite, and PostgreSQL when the run found a server;
 * `TEST_DIALECTS=sqlite` (or `postgres`) narrows that while working.
 */
export const DIALECTS: Dialect[] = (inject('pgUrl') ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const)).filter(
  (dialect) => !process.env.TEST_DIALECTS || process.env.TEST_DIALECTS.split(',').includes(dialect),
);

/** A pepper for tests (≥ 50 characters). */
let sharedAdmins = 0;

export const TEST_PEPPER = 'test-pepper-0123456789-0123456789-0123456789-0123456789';

/**
 * A fresh database of the dialect; `drop` removes it. `migrated`: a copy of the run's migrated template
 * (test/support/global-setup.ts) holding the generated registry's schema; otherwise empty.
 */
export async function createTestDatabase(
  dialect: Dialect,
  { migrated = false }: { migrated?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-'));
    const file = path.join(dir, 'db.sqlite3');
    if (migrated) fs.copyFileSync(inject('sqliteTemplate'), file);
    return {
      url: `sqlite:${file}`,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const server = inject('pgUrl');
  const name = `svc_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    const statement = migrated ? `CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}` : `CREATE DATABASE ${name}`;
    for (let attempt = 1; ; attempt += 1) {
      // 55006: another worker's copy of the template is still being set up.
      const failed = await admin.query(statement).then(
        () => null,
        (error: { code?: string }) => error,
      );
      if (!failed) break;
      if (failed.code !== '55006' || attempt === 20) throw failed as Error;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
    }
  } finally {
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

export interface TestApp {
  dialect: Dialect;
  context: AppContext;
  db: Database;
  baseUrl: string;
  /** Authorization header value of the superuser `admin`. */
  adminAuth: string;
  /**
   * A client authenticated as the superuser, in-process (`api.overSockets()` for real sockets); every JSON
   * response is checked against the OpenAPI document.
   */
  api: ApiClient;
  /** A client without credentials. */
  anonymous: ApiClient;
  /** The database's URL (another test app can serve the same database with `databaseUrl`). */
  databaseUrl: string;
  close: (options?: { keepDatabase?: boolean }) => Promise<void>;
}

export interface TestAppOptions {
  settings?: Partial<Settings>;
  registry?: Registry;
  /** Skip the OpenAPI check of responses (tests of deliberately undocumented behaviour). */
  skipValidation?: boolean;
  /** Serve this existing database (of another test app) instead of a new one. */
  databaseUrl?: string;
  /** Start from an empty database (migrated by this app) instead of a copy of the migrated template. */
  emptyDatabase?: boolean;
}

/** Tests load every generated plugin unless their settings name `PLUGINS`. */
export const ALL_PLUGINS = defaultRegistry.plugins.map((p) => p.name);

/**
 * The OpenAPI response validator of a registry with some plugins enabled, one per test process: ajv compiles
 * each operation's schema once for every app of the file instead of once per app.
 */
const validators = new WeakMap<Registry, Map<string, ResponseValidator>>();

function validatorOf(
  generated: Registry,
  plugins: readonly string[],
  document: Registry['openapi'],
): ResponseValidator {
  const byPlugins = validators.get(generated) ?? new Map<string, ResponseValidator>();
  validators.set(generated, byPlugins);
  const key = JSON.stringify(plugins);
  let validator = byPlugins.get(key);
  if (!validator) {
    validator = responseValidator(document);
    byPlugins.set(key, validator);
  }
  return validator;
}

/** Starts the real service on a fresh database and an ephemeral port. */
export async function startTestApp(dialect: Dialect, options: TestAppOptions = {}): Promise<TestApp> {
  const generated = options.registry ?? defaultRegistry;
  const database = options.databaseUrl
    ? { url: options.databaseUrl, drop: async () => undefined }
    : await createTestDatabase(dialect, { migrated: generated === defaultRegistry && !options.emptyDatabase });
  const media = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-media-'));
  const settings = loadSettings(
    { DATABASE_URL: database.url },
    {
      API_TOKEN_PEPPERS: { '1': TEST_PEPPER },
      MEDIA_ROOT: media,
      PLUGINS: generated.plugins.map((p) => p.name),
      ...options.settings,
    },
  );
  const registry = enablePlugins(generated, settings.PLUGINS);
  const db = connectDatabase(database.url);
  await migrate(db, registry.migrations);
  const context = createContext(registry, settings, db, () => undefined);
  await syncObjectTypes(db, context.schema, settings.BASE_PATH);
  const { header } = await createSuperuser(context, {
    // A shared database already has `admin`.
    username: options.databaseUrl ? `admin${(sharedAdmins += 1)}` : 'admin',
    password: 'Admin-Password-1',
    email: '',
    token: true,
  });
  // One application serves both the in-process clients and a real socket (pynetbox, browsers, raw fetch).
  const handler = createApp(context);
  const server: Server = await new Promise((resolve) => {
    const s = handler.listen(0, '127.0.0.1', () => resolve(s));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const validator = options.skipValidation ? null : validatorOf(generated, settings.PLUGINS, registry.openapi);
  return {
    dialect,
    context,
    db,
    baseUrl,
    adminAuth: header!,
    api: new ApiClient(baseUrl, header, validator, handler),
    anonymous: new ApiClient(baseUrl, null, validator, handler),
    databaseUrl: database.url,
    close: async ({ keepDatabase = false } = {}) => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await stopBackground(context);
      await db.close();
      if (!keepDatabase) await database.drop();
      fs.rmSync(media, { recursive: true, force: true });
    },
  };
}

/**
 * Makes a user a superuser or not. The API neither shows nor writes `is_superuser` (as NetBox's), so this sets
 * the column, then saves the user through the API unchanged so that every process drops what it cached of it.
 */
export async function setSuperuser(app: TestApp, userId: number, superuser: boolean): Promise<void> {
  const model = app.context.schema.withRole('user')!;
  await app.db
    .knex(model.table)
    .where('id', userId)
    .update({ [model.fields.get('is_superuser')!.column!]: superuser });
  const saved = await app.api.patch(`/api${model.listPath!}${userId}/`, {});
  if (saved.status !== 200) throw new Error(`saving user ${userId}: ${saved.status} ${saved.text}`);
}
