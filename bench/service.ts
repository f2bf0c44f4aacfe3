import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { registry } from '../generated/index.js';
import { createApp, createContext } from '../runtime/app.js';
import { loadSettings } from '../runtime/config.js';
import { connectDatabase, type Database } from '../runtime/db/connect.js';
import { migrate } from '../runtime/db/migrate.js';
import { createSuperuser } from '../runtime/auth/superuser.js';

/** The real service, listening on an ephemeral port of 127.0.0.1 in this process. */
export interface RunningService {
  port: number;
  /** `Bearer svc_<key>.<secret>` of the superuser's token. */
  authorization: string;
  db: Database;
  close: () => Promise<void>;
}

/**
 * Starts the service the way the CLI's `serve` does (settings, connect, migrate, context, app), with a
 * random pepper and a superuser whose v2 token authenticates every benchmark request.
 */
export async function startService(databaseUrl: string): Promise<RunningService> {
  // An explicit env keeps a developer's environment (DATABASE_URL, MAX_PAGE_SIZE…) out of the benchmark.
  const settings = loadSettings(
    { DATABASE_URL: databaseUrl },
    { API_TOKEN_PEPPERS: { 1: randomBytes(48).toString('base64url') } },
  );
  const db = connectDatabase(settings.DATABASE_URL);
  await migrate(db, registry.migrations);
  const context = createContext(registry, settings, db);
  const { header } = await createSuperuser(context, {
    username: 'bench',
    password: 'bench-password-1234',
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
    close: async () => {
      await closeServer(server);
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
