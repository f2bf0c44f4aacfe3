import http from 'node:http';
import { createApp, createContext, startBackground, stopBackground } from './app.js';
import type { AppContext } from './http/app-context.js';
import type { Settings } from './config.js';
import { connectDatabase, type Database } from './db/connect.js';
import { migrate, pendingMigrations } from './db/migrate.js';
import { fillNewTables } from './domain/cable-store.js';
import { syncObjectTypes } from './rest/object-types.js';
import { Schema } from './rest/schema.js';
import type { Registry } from './spec.js';

/** A problem an operator fixes in the environment: start-up stops with this one line and exit code 1. */
export class StartupError extends Error {}

/**
 * Opens the database and applies pending migrations (AUTO_MIGRATE) or refuses to start with them. Errors
 * of the database itself propagate (the CLI names DATABASE_URL).
 */
export async function prepareDatabase(settings: Settings, reg: Registry): Promise<Database> {
  const db = connectDatabase(settings.DATABASE_URL);
  try {
    if (settings.AUTO_MIGRATE) {
      const applied = await migrate(db, reg.migrations, fillNewTables(new Schema(reg), db.dialect));
      if (applied.length) console.error(`Applied migrations: ${applied.join(', ')}`);
    } else {
      const pending = await pendingMigrations(db, reg.migrations);
      if (pending.length) {
        throw new StartupError(
          `Pending migrations (${pending.join(', ')}): run 'svc migrate' or set AUTO_MIGRATE=true`,
        );
      }
    }
    await syncObjectTypes(db, new Schema(reg), settings.BASE_PATH);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}

/**
 * `svc serve`: the HTTP API on HOST:PORT. It listens before anything runs in the background, so that a
 * port in use stops it (exit 1, one line naming PORT) before an embedded worker starts.
 */
export async function serve(reg: Registry, settings: Settings): Promise<void> {
  const db = await prepareDatabase(settings, reg);
  const context = createContext(reg, settings, db);
  let server: http.Server;
  try {
    server = await listen(http.createServer(createApp(context)), settings);
    await startBackground(context);
  } catch (error) {
    await stopBackground(context).catch(() => undefined);
    await db.close();
    throw error;
  }
  const host = settings.HOST === '' ? 'localhost' : settings.HOST.includes(':') ? `[${settings.HOST}]` : settings.HOST;
  const where = settings.DATABASE_URL.startsWith('sqlite:') ? settings.DATABASE_URL : 'PostgreSQL';
  const workers = context.worker ? 'a worker in this process' : 'webhooks are delivered by `svc worker` processes';
  console.error(
    `Serving the API on http://${host}:${settings.PORT}${settings.BASE_PATH}/api/ (database: ${where}; ${workers})`,
  );
  await warnWithoutUsers(context);
  await untilStopped();
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
  await stopBackground(context);
  await db.close();
}

/** `svc worker`: delivers background tasks until SIGINT/SIGTERM, then finishes the deliveries in flight. */
export async function runWorker(reg: Registry, settings: Settings): Promise<void> {
  const db = await prepareDatabase(settings, reg);
  const context = createContext(reg, settings, db);
  try {
    await startBackground(context, { worker: true });
  } catch (error) {
    await stopBackground(context).catch(() => undefined);
    await db.close();
    throw error;
  }
  if (!context.worker) {
    await stopBackground(context);
    await db.close();
    throw new StartupError('There is nothing to run: the models have no background tasks.');
  }
  console.error(`Worker ${context.worker.name} running (${settings.WORKER_CONCURRENCY} at a time).`);
  await untilStopped();
  await stopBackground(context);
  await db.close();
}

function listen(server: http.Server, settings: Settings): Promise<http.Server> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const at = settings.HOST === '' ? `port ${settings.PORT}` : `${settings.HOST} port ${settings.PORT}`;
      const reason =
        error.code === 'EADDRINUSE'
          ? `another program is listening on ${at}: set PORT to a free port`
          : error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN'
            ? `HOST=${settings.HOST} is not an address of this machine`
            : error.code === 'EACCES'
              ? `${at} needs privileges: set PORT to 1024 or above`
              : `${error.message} (HOST, PORT)`;
      reject(new StartupError(`Cannot serve the API: ${reason}.`));
    });
    const ready = (): void => resolve(server);
    if (settings.HOST === '') server.listen(settings.PORT, ready);
    else server.listen(settings.PORT, settings.HOST, ready);
  });
}

async function warnWithoutUsers(context: AppContext): Promise<void> {
  const users = context.schema.withRole('user');
  if (!users) return;
  const row = (await context.db.knex(users.table).count({ n: '*' }).first()) as { n: number | string };
  if (Number(row.n) === 0) {
    console.error(
      'No users yet. Create one and get a token with:\n  npm run svc -- createsuperuser --username admin --password <password> --token',
    );
  }
}

function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
