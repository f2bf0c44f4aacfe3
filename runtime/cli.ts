import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { registry } from '../generated/index.js';
import { createContext } from './app.js';
import { housekeeping } from './events/housekeeping.js';
import { DEFAULT_DATABASE_URL, loadSettings, SettingsError, type Settings } from './config.js';
import { connectDatabase } from './db/connect.js';
import { describeDatabaseFailure } from './db/errors.js';
import { migrate } from './db/migrate.js';
import { fillNewTables } from './domain/cable-store.js';
import { syncObjectTypes } from './rest/object-types.js';
import { Schema } from './rest/schema.js';
import { createSuperuser } from './superuser.js';
import { prepareDatabase, runWorker, serve, StartupError } from './serve.js';
import { DEFAULT_RECEIVER_PORT, startWebhookReceiver, type WebhookReceiver } from './events/receiver.js';
import type { Registry } from './spec.js';
import { enablePlugins } from './plugins.js';
import { runImportNetbox } from './import/command.js';

/**
 * The command-line interface and composition root: the only runtime module that imports the generated
 * registry.
 */
const USAGE = `Usage: svc <command> [options]

Commands:
  serve                      Run the HTTP API on HOST:PORT (default every address, port 8000)
  migrate                    Apply pending database migrations
  createsuperuser            Create a superuser: --username NAME --password PASS [--email ADDR] [--token]
                             (--token also prints a new v2 API token for that user)
  worker                     Run background tasks (webhook deliveries) until stopped; any number may run
  housekeeping               Delete change records older than CHANGELOG_RETENTION days, and finished
                             background tasks older than that too
  import-netbox SOURCE       Copy a NetBox database (postgres://…), or a NetBox's REST API (https://… with
                             --token TOKEN), into this service's database, ids kept:
                             [--merge] [--dry-run] [--report FILE] (see README, "Moving from NetBox")
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
  let reg: Registry;
  try {
    settings = withLocalPeppers(loadSettings());
    reg = enablePlugins(registry, settings.PLUGINS);
  } catch (error) {
    if (error instanceof SettingsError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  try {
    return await run(command, rest, reg, settings);
  } catch (error) {
    // What an operator can fix in the environment is one line, without a stack trace.
    const message =
      error instanceof StartupError ? error.message : describeDatabaseFailure(error, settings.DATABASE_URL);
    if (message === null) throw error;
    console.error(message);
    return 1;
  }
}

async function run(command: string, rest: string[], reg: Registry, settings: Settings): Promise<number> {
  switch (command) {
    case 'serve':
      await serve(reg, settings);
      return 0;
    case 'migrate': {
      const db = connectDatabase(settings.DATABASE_URL);
      try {
        const applied = await migrate(db, reg.migrations, fillNewTables(new Schema(reg), db.dialect));
        await syncObjectTypes(db, new Schema(reg), settings.BASE_PATH);
        console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'No migrations to apply.');
        return 0;
      } finally {
        await db.close();
      }
    }
    case 'createsuperuser':
      return runCreateSuperuser(reg, settings, rest);
    case 'worker':
      await runWorker(reg, settings);
      return 0;
    case 'housekeeping':
      return runHousekeeping(reg, settings);
    case 'import-netbox':
      return runImportNetbox(reg, settings, rest);
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
  if (!settings.DATABASE_URL.startsWith('sqlite:')) return settings;
  const dbFile = settings.DATABASE_URL.slice('sqlite:'.length);
  if (!dbFile || dbFile === ':memory:') return settings;
  const folder = path.dirname(path.resolve(dbFile));
  // The default folder is the service's own; any other must exist (a mistyped path is an error).
  if (settings.DATABASE_URL === DEFAULT_DATABASE_URL) fs.mkdirSync(folder, { recursive: true });
  if (Object.keys(settings.API_TOKEN_PEPPERS).length > 0 || !fs.existsSync(folder)) return settings;
  const file = path.join(folder, 'api-token-peppers.json');
  if (!fs.existsSync(file)) {
    fs.writeFileSync(file, JSON.stringify({ 1: randomBytes(48).toString('base64url') }, null, 2), { mode: 0o600 });
    console.error(`API_TOKEN_PEPPERS is not set: generated a pepper in ${file} (set API_TOKEN_PEPPERS in production).`);
  }
  const peppers = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;
  return Object.freeze({ ...settings, API_TOKEN_PEPPERS: peppers });
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

async function runCreateSuperuser(reg: Registry, settings: Settings, args: string[]): Promise<number> {
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
  const db = await prepareDatabase(settings, reg);
  try {
    const result = await createSuperuser(createContext(reg, settings, db), {
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
