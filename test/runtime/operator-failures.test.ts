import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Worker } from '../../runtime/events/worker.js';
import { NO_WORKER_WARNING, WorkerWatch } from '../../runtime/events/watch.js';
import { DIALECTS, startTestApp, TEST_PEPPER } from '../support/app.js';
import { PrivatePostgres, canRunPrivatePostgres } from '../support/private-postgres.js';
import { freePort, startSvc, type SvcProcess } from '../support/processes.js';
import { Receiver, until } from '../support/receiver.js';

const cli = path.resolve(import.meta.dirname, '../../bin/svc.js');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-failures-'));
const PEPPERS = JSON.stringify({ 1: TEST_PEPPER });
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function run(args: string[], env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cli, ...args], {
    cwd: work,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, API_TOKEN_PEPPERS: PEPPERS, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The process printed exactly one line, matching `pattern`, and no stack trace. */
function expectOneLine(stderr: string, pattern: RegExp): void {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
}

describe('start-up failures an operator can act on', () => {
  it('a port in use: one line naming PORT, exit 1, and no embedded worker started', async () => {
    const file = path.join(work, 'busy.sqlite3');
    expect(run(['migrate'], { DATABASE_URL: `sqlite:${file}` }).status).toBe(0);
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const result = run(['serve'], { DATABASE_URL: `sqlite:${file}`, PORT: String(port) });
      expect(result.status).toBe(1);
      expectOneLine(
        result.stderr,
        new RegExp(`^Cannot serve the API: another program is listening on port ${port}: set PORT to a free port\\.$`),
      );
    } finally {
      blocker.close();
    }
    // A worker announces itself in the worker table when it starts.
    const db = new Database(file, { readonly: true });
    expect(db.prepare('select count(*) as n from core_worker').get()).toEqual({ n: 0 });
    db.close();
  });

  it('a SQLite path whose folder does not exist: one line naming DATABASE_URL, and nothing created', () => {
    const missing = path.join(work, 'no', 'such', 'folder');
    const result = run(['serve'], { DATABASE_URL: `sqlite:${missing}/x.sqlite3` });
    expect(result.status).toBe(1);
    expectOneLine(result.stderr, new RegExp(`^DATABASE_URL \\(sqlite:.*\\): the folder ${missing} does not exist\\.$`));
    expect(fs.existsSync(path.join(work, 'no'))).toBe(false);
  });

  it('HOST: serves on the address given, and names HOST when it is not one of this machine', async () => {
    const file = path.join(work, 'host.sqlite3');
    const port = await freePort();
    const server = startSvc(
      ['serve'],
      {
        DATABASE_URL: `sqlite:${file}`,
        API_TOKEN_PEPPERS: PEPPERS,
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      work,
    );
    try {
      await server.waitFor(`Serving the API on http://127.0.0.1:${port}/api/`);
      expect((await fetch(`http://127.0.0.1:${port}/api/status/`)).status).toBe(200);
    } finally {
      await server.stop();
    }
    const result = run(['serve'], { DATABASE_URL: `sqlite:${file}`, HOST: '192.0.2.1' });
    expect(result.status).toBe(1);
    expectOneLine(result.stderr, /^Cannot serve the API: HOST=192\.0\.2\.1 is not an address of this machine\.$/);
  });

  it.runIf(DIALECTS.includes('postgres'))(
    'a database that does not exist, or no server: one line naming DATABASE_URL',
    async () => {
      const missing = run(['serve'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/svc_no_such_database' });
      expect(missing.status).toBe(1);
      expectOneLine(
        missing.stderr,
        /^DATABASE_URL \(postgres:\/\/postgres@127\.0\.0\.1:5432\/svc_no_such_database\): the database does not exist \(database "svc_no_such_database" does not exist\)\.$/,
      );
      const port = await freePort();
      const down = run(['worker'], { DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/netbox` });
      expect(down.status).toBe(1);
      expectOneLine(
        down.stderr,
        new RegExp(
          `^DATABASE_URL \\(postgres://postgres@127\\.0\\.0\\.1:${port}/netbox\\): the server cannot be reached`,
        ),
      );
    },
  );
});

describe.runIf(DIALECTS.includes('postgres'))('a server without a worker (PostgreSQL)', () => {
  it('warns in the log and in /api/status/ when no worker has run for a minute, until one does', async () => {
    const app = await startTestApp('postgres', { settings: { EMBEDDED_WORKER: false } });
    const logged: string[] = [];
    const watch = new WorkerWatch(app.db.knex, app.context.schema, (message) => logged.push(message));
    app.context.watch = watch;
    try {
      await watch.check();
      expect((await app.api.get('/api/status/')).body.warnings).toEqual([]);
      await watch.check(Date.now() + 61_000);
      await watch.check(Date.now() + 71_000);
      expect(logged).toEqual([NO_WORKER_WARNING]);
      expect((await app.api.get('/api/status/')).body.warnings).toEqual([NO_WORKER_WARNING]);
      const worker = new Worker({
        q: app.db.knex,
        schema: app.context.schema,
        dialect: app.db.dialect,
        settings: app.context.settings,
        queue: app.context.queue!,
        log: (message) => logged.push(message),
      });
      await worker.start();
      await watch.check();
      await worker.stop();
      expect((await app.api.get('/api/status/')).body.warnings).toEqual([]);
    } finally {
      await app.close();
    }
  });
});

describe.runIf(canRunPrivatePostgres)('PostgreSQL lost while running (a private server stopped and started)', () => {
  let postgres: PrivatePostgres;
  let server: SvcProcess;
  let worker: SvcProcess;
  let base: string;
  let auth: string;
  const receiver = new Receiver();

  beforeAll(async () => {
    postgres = new PrivatePostgres(await freePort());
    postgres.init();
    await receiver.start();
    const env = { DATABASE_URL: postgres.url, API_TOKEN_PEPPERS: PEPPERS, WEBHOOK_TIMEOUT: '2' };
    const created = run(['createsuperuser', '--username', 'admin', '--password', 'Admin-Password-1', '--token'], env);
    expect(created.status, created.stderr).toBe(0);
    auth = /API token \(shown once\): (Bearer \S+)/.exec(created.stdout)![1]!;
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = startSvc(['serve'], { ...env, PORT: String(port) });
    worker = startSvc(['worker'], env);
    await Promise.all([server.waitFor('Serving the API'), worker.waitFor(' running (')]);
  });
  afterAll(async () => {
    await Promise.all([server?.stop(), worker?.stop()]);
    postgres?.destroy();
    await receiver.stop();
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { Authorization: auth, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, text: await response.text() };
  };

  it('refuses a wrong password with one line naming DATABASE_URL (the password hidden)', () => {
    const url = postgres.url.replace(':secret@', ':wrong@');
    const result = run(['migrate'], { DATABASE_URL: url });
    expect(result.status).toBe(1);
    expectOneLine(
      result.stderr,
      /^DATABASE_URL \(postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/postgres\): the server refused the credentials \(/,
    );
  });

  it('answers 503 with a short detail while it is gone, logs one line when lost and one when back, and recovers', async () => {
    const webhook = await call('POST', '/api/extras/webhooks/', {
      name: 'outage',
      payload_url: `${receiver.url}/{{data.slug}}`,
    });
    const rule = await call('POST', '/api/extras/event-rules/', {
      name: 'outage',
      object_types: ['dcim.site'],
      event_types: ['object_created'],
      action_type: 'webhook',
      action_object_type: 'extras.webhook',
      action_object_id: JSON.parse(webhook.text).id,
    });
    expect(rule.status, rule.text).toBe(201);
    expect((await call('POST', '/api/dcim/sites/', { name: 'Before', slug: 'before' })).status).toBe(201);
    await until(() => receiver.received.some((r) => r.url === '/before'), 15_000);
    const [serverBefore, workerBefore] = [server.output().length, worker.output().length];

    postgres.stop();
    for (const [method, path, body] of [
      ['GET', '/api/dcim/sites/', undefined],
      ['POST', '/api/dcim/sites/', { name: 'During', slug: 'during' }],
    ] as const) {
      const refused = await call(method, path, body);
      expect(refused.status).toBe(503);
      expect(JSON.parse(refused.text)).toEqual({ detail: 'The database is unavailable; try again shortly.' });
    }
    await Promise.all([server.waitFor('connection is lost'), worker.waitFor('connection is lost')]);
    // Three seconds of retrying: the worker's loop and pg-boss keep failing, quietly.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    postgres.start();
    await Promise.all([server.waitFor('connection is back', 20_000), worker.waitFor('connection is back', 20_000)]);
    for (const output of [server.output().slice(serverBefore), worker.output().slice(workerBefore)]) {
      expect(output.trim().split('\n')).toEqual([
        expect.stringMatching(
          /^PostgreSQL: the connection is lost \(the server cannot be reached\); retrying every second\.$/,
        ),
        'PostgreSQL: the connection is back.',
      ]);
    }
    expect((await call('GET', '/api/dcim/sites/')).status).toBe(200);
    expect((await call('POST', '/api/dcim/sites/', { name: 'After', slug: 'after' })).status).toBe(201);
    await until(() => receiver.received.some((r) => r.url === '/after'), 20_000);
  });
});
