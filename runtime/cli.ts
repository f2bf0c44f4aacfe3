import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { registry } from '../generated/index.js';
import { createApp, createContext, startBackground, stopBackground } from './app.js';
import { Worker } from './events/worker.js';
import { housekeeping } from './events/housekeeping.js';
import { loadSettings, SettingsError, type Settings } from './config.js';
import { connectDatabase, type Database } from './db/connect.js';
import { migrate, pendingMigrations } from './db/migrate.js';
import { createSuperuser } from './auth/superuser.js';
import { DEFAULT_RECEIVER_PORT, startWebhookReceiver, type WebhookReceiver } from './events/receiver.js';
import type { Registry } from './spec.js';

/**
 * The command-line interface and composition root: the only runtime module that imports the generated
 * registry.
 */
const USAGE = `Usage: svc <command> [options]

Commands:
  serve                      Run the HTTP API on PORT (default 8000)
  migrate                    Apply pending database migrations
  createsuperuser            Create a superuser: --username NAME --password PASS [--email ADDR] [--token]
                             (--token also prints a new v2 API token for that user)
  worker                     Run background tasks (webhook deliveries) until stopped; any number may run
  housekeeping               Delete change records older than CHANGELOG_RETENTION days, and finished
                             background tasks older than that too
  webhook_receiver           Print every HTTP request received and answer 200, for trying webhooks out:
                             [--port N (default 9000)] [--host ADDR (default 127.0.0.1)] [--no-headers]
  help                       Show this text

Settings come from the environment and the config file (CONFIG_FILE, default ./config.yaml); see README.`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return command ? 0 : 1;
  }
  // Needs no settings or database: a developer tool that runs anywhere.
  if (command === 'webhook_receiver') return runWebhookReceiver(rest);
  let settings: Settings;
  try {
    settings = withLocalPeppers(loadSettings());
  } catch (error) {
    if (error instanceof SettingsError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  switch (command) {
    case 'serve':
      return serve(registry, settings);
    case 'migrate': {
      const db = connectDatabase(settings.DATABASE_URL);
      try {
        const applied = await migrate(db, registry.migrations);
        console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'No migrations to apply.');
        return 0;
      } finally {
        await db.close();
      }
    }
    case 'createsuperuser':
      return runCreateSuperuser(settings, rest);
    case 'worker':
      return runWorker(registry, settings);
    case 'housekeeping':
      return runHousekeeping(registry, settings);
    default:
      console.error(`Unknown command '${command}'.\n\n${USAGE}`);
      return 1;
  }
}

/**
 * On the embedded SQLite default without API_TOKEN_PEPPERS, a pepper is generated once and kept beside the
 * database file, so that a newcomer gets working v2 tokens; production sets API_TOKEN_PEPPERS.
 */
function withLocalPeppers(settings: Settings): Settings {
  if (Object.keys(settings.API_TOKEN_PEPPERS).length > 0 || !settings.DATABASE_URL.startsWith('sqlite:'))
    return settings;
  const dbFile = settings.DATABASE_URL.slice('sqlite:'.length);
  if (!dbFile || dbFile === ':memory:') return settings;
  const file = path.join(path.dirname(path.resolve(dbFile)), 'api-token-peppers.json');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, JSON.stringify({ 1: randomBytes(48).toString('base64url') }, null, 2), { mode: 0o600 });
    console.error(`API_TOKEN_PEPPERS is not set: generated a pepper in ${file} (set API_TOKEN_PEPPERS in production).`);
  }
  const peppers = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
  return Object.freeze({ ...settings, API_TOKEN_PEPPERS: peppers });
}

async function prepareDatabase(settings: Settings, reg: Registry): Promise<Database> {
  const db = connectDatabase(settings.DATABASE_URL);
  if (settings.AUTO_MIGRATE) {
    const applied = await migrate(db, reg.migrations);
    if (applied.length) console.error(`Applied migrations: ${applied.join(', ')}`);
  } else {
    const pending = await pendingMigrations(db, reg.migrations);
    if (pending.length) {
      await db.close();
      throw new SettingsError(`Pending migrations (${pending.join(', ')}): run 'svc migrate' or set AUTO_MIGRATE=true`);
    }
  }
  return db;
}

async function serve(reg: Registry, settings: Settings): Promise<number> {
  let db: Database;
  try {
    db = await prepareDatabase(settings, reg);
  } catch (error) {
    if (error instanceof SettingsError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  const context = createContext(reg, settings, db);
  await startBackground(context);
  const server = createApp(context).listen(settings.PORT, () => {
    const where = settings.DATABASE_URL.startsWith('sqlite:') ? settings.DATABASE_URL : 'PostgreSQL';
    console.error(
      `Serving the API on http://localhost:${settings.PORT}${settings.BASE_PATH}/api/ (database: ${where})`,
    );
  });
  const users = context.schema.withRole('user');
  if (users) {
    const row = (await db.knex(users.table).count({ n: '*' }).first()) as { n: number | string };
    if (Number(row.n) === 0) {
      console.error(
        'No users yet. Create one and get a token with:\n  npm run svc -- createsuperuser --username admin --password <password> --token',
      );
    }
  }
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      server.close(() => resolve());
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await stopBackground(context);
  await db.close();
  return 0;
}

/** `svc worker`: delivers background tasks until SIGINT/SIGTERM, then finishes the deliveries in progress. */
async function runWorker(reg: Registry, settings: Settings): Promise<number> {
  const db = await prepareDatabase(settings, reg);
  const context = createContext(reg, settings, db);
  const worker = new Worker({
    q: db.knex,
    schema: context.schema,
    dialect: db.dialect,
    settings,
    boss: context.boss,
    log: (message) => console.error(message),
  });
  await worker.start();
  console.error(`Worker ${worker.name} running (${settings.WORKER_CONCURRENCY} at a time).`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await worker.stop();
  await context.boss?.stop();
  await db.close();
  return 0;
}

async function runHousekeeping(reg: Registry, settings: Settings): Promise<number> {
  const db = await prepareDatabase(settings, reg);
  try {
    const context = createContext(reg, settings, db);
    const removed = await housekeeping(context);
    console.log(`Deleted ${removed.changes} change records and ${removed.tasks} finished background tasks.`);
    return 0;
  } finally {
    await db.close();
  }
}

async function runCreateSuperuser(settings: Settings, args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      username: { type: 'string' },
      password: { type: 'string' },
      email: { type: 'string', default: '' },
      token: { type: 'boolean', default: false },
    },
  });
  if (!values.username || !values.password) {
    console.error('createsuperuser needs --username and --password');
    return 1;
  }
  const db = await prepareDatabase(settings, registry);
  try {
    const result = await createSuperuser(createContext(registry, settings, db), {
      username: values.username,
      password: values.password,
      email: values.email ?? '',
      token: values.token ?? false,
    });
    console.log(`Superuser '${values.username}' created.`);
    if (result.header) console.log(`API token (shown once): ${result.header}`);
    return 0;
  } catch (error) {
    console.error((error as Error).message);
    return 1;
  } finally {
    await db.close();
  }
}

async function runWebhookReceiver(args: string[]): Promise<number> {
  let values: { port?: string; host?: string; 'no-headers'?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        port: { type: 'string', default: String(DEFAULT_RECEIVER_PORT) },
        host: { type: 'string', default: '127.0.0.1' },
        'no-headers': { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 1;
  }
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port ?? '') || port > 65535) {
    console.error(`Invalid port: ${values.port}`);
    return 1;
  }
  let receiver: WebhookReceiver;
  try {
    receiver = await startWebhookReceiver({ port, host: values.host, showHeaders: !values['no-headers'] });
  } catch (error) {
    console.error(`Cannot listen on ${values.host}:${port}: ${(error as Error).message}`);
    return 1;
  }
  console.log(`Listening on http://${receiver.host}:${receiver.port}/. Stop with CONTROL-C.`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await receiver.close();
  console.log('Exiting...');
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
