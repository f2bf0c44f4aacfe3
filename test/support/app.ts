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
import type { AppContext } from '../../runtime/app-context.js';
import { loadSettings, type Settings } from '../../runtime/config.js';
import { connectDatabase, type Database, type Dialect } from '../../runtime/db/connect.js';
import { migrate } from '../../runtime/db/migrate.js';
import { createSuperuser } from '../../runtime/auth/superuser.js';
import type { Registry } from '../../runtime/spec.js';
import { ApiClient } from './client.js';
import { responseValidator } from './openapi.js';

/** The databases every API suite runs on. */
export const DIALECTS: Dialect[] = inject('pgUrl') ? ['sqlite', 'postgres'] : ['sqlite'];

/** A pepper for tests (≥ 50 characters). */
let sharedAdmins = 0;

export const TEST_PEPPER = 'test-pepper-0123456789-0123456789-0123456789-0123456789';

/** A fresh, empty database of the dialect; `drop` removes it. */
export async function createTestDatabase(dialect: Dialect): Promise<{ url: string; drop: () => Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-'));
    return {
      url: `sqlite:${path.join(dir, 'db.sqlite3')}`,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  }
  const server = inject('pgUrl');
  const name = `svc_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
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
  /** A client authenticated as the superuser; every JSON response is checked against the OpenAPI document. */
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
}

/** Starts the real service on a fresh database and an ephemeral port. */
export async function startTestApp(dialect: Dialect, options: TestAppOptions = {}): Promise<TestApp> {
  const registry = options.registry ?? defaultRegistry;
  const database = options.databaseUrl
    ? { url: options.databaseUrl, drop: async () => undefined }
    : await createTestDatabase(dialect);
  const media = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-media-'));
  const settings = loadSettings(
    { DATABASE_URL: database.url },
    { API_TOKEN_PEPPERS: { '1': TEST_PEPPER }, MEDIA_ROOT: media, ...options.settings },
  );
  const db = connectDatabase(database.url);
  await migrate(db, registry.migrations);
  const context = createContext(registry, settings, db, () => undefined);
  const { header } = await createSuperuser(context, {
    // A shared database already has `admin`.
    username: options.databaseUrl ? `admin${(sharedAdmins += 1)}` : 'admin',
    password: 'Admin-Password-1',
    email: '',
    token: true,
  });
  const server: Server = await new Promise((resolve) => {
    const s = createApp(context).listen(0, '127.0.0.1', () => resolve(s));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const validator = options.skipValidation ? null : responseValidator(registry.openapi);
  return {
    dialect,
    context,
    db,
    baseUrl,
    adminAuth: header!,
    api: new ApiClient(baseUrl, header, validator),
    anonymous: new ApiClient(baseUrl, null, validator),
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
