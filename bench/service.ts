import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { registry } from '../generated/index.js';
import type { AppContext } from '../runtime/http/app-context.js';
import { createApp, createContext, stopBackground } from '../runtime/app.js';
import { loadSettings } from '../runtime/config.js';
import { connectDatabase, type Database } from '../runtime/db/connect.js';
import { migrate } from '../runtime/db/migrate.js';
import { enablePlugins } from '../runtime/plugins.js';
import { createSuperuser } from '../runtime/superuser.js';

/** The real service, listening on an ephemeral port of 127.0.0.1 in this process. */
export interface RunningService {
  port: number;
  /** `Bearer svc_<key>.<secret>` of the superuser's token. */
  authorization: string;
  db: Database;
  /** For the webhook scenario, which starts the embedded worker (`startBackground`) when it begins. */
  context: AppContext;
  /** Messages the service (its worker among it) logged so far. */
  logged: () => { count: number; latest: string | null };
  close: () => Promise<void>;
}

/**
 * Starts the service the way the CLI's `serve` does (settings, connect, migrate, context, app), with a
 * random pepper and a superuser whose v2 token authenticates every benchmark request. The embedded worker is
 * allowed on both databases but not started here: idle lanes poll the task table, which would show in the
 * other scenarios' query counts.
 */
export async function startService(databaseUrl: string): Promise<RunningService> {
  // An explicit env keeps a developer's environment (DATABASE_URL, MAX_PAGE_SIZE…) out of the benchmark.
  const settings = loadSettings(
    { DATABASE_URL: databaseUrl },
    { API_TOKEN_PEPPERS: { 1: randomBytes(48).toString('base64url') }, EMBEDDED_WORKER: true },
  );
  // As `svc serve` runs: only the plugins PLUGINS names (none here), the others' models and counts left out.
  const served = enablePlugins(registry, settings.PLUGINS);
  const db = connectDatabase(settings.DATABASE_URL);
  await migrate(db, served.migrations);
  // A worker error repeats for every task: each distinct message is printed once, and all are counted.
  const seen = new Set<string>();
  let count = 0;
  let latest: string | null = null;
  const context = createContext(served, settings, db, (message) => {
    count += 1;
    latest = message;
    if (seen.has(message)) return;
    seen.add(message);
    console.error(`[service] ${message} (printed once; repeats are counted)`);
  });
  const { header } = await createSuperuser(context, {
    username: 'bench',
    password: 'Bench-password-1234',
    email: '',
    token: true,
  });
  if (!header) throw new Error('createSuperuser returned no token');
  const server = createApp(context).listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  return {
    port: (server.address() as AddressInfo).port,
    authorization: header,
    db,
    context,
    logged: () => ({ count, latest }),
    close: async () => {
      await closeServer(server);
      await stopBackground(context);
      await db.close();
    },
  };
}

/** Closes a server including its idle keep-alive sockets (Node 18.2+). */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeAllConnections();
  });
}
