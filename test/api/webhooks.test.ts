import { createHmac } from 'node:crypto';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackground } from '../../runtime/app.js';
import { Worker } from '../../runtime/events/worker.js';
import { DIALECTS, startTestApp, TEST_PEPPER, type TestApp } from '../support/app.js';
import { Receiver, until } from '../support/receiver.js';

const SECRET = 'hook-secret-☃';

describe.each(DIALECTS)('event rules and webhooks on %s', (dialect) => {
  let app: TestApp;
  let receiver: Receiver;
  let worker: Worker;
  let webhookId: number;

  const logged: string[] = [];
  const newWorker = (settings: Partial<typeof app.context.settings> = {}): Worker =>
    new Worker({
      q: app.db.knex,
      schema: app.context.schema,
      dialect: app.db.dialect,
      settings: { ...app.context.settings, ...settings },
      queue: app.context.queue!,
      log: (message) => logged.push(message),
    });
  const tasks = async (query: string) => (await app.api.get(`/api/core/background-tasks/?${query}`)).body;

  beforeAll(async () => {
    receiver = new Receiver();
    await receiver.start();
    app = await startTestApp(dialect, {
      settings: {
        WEBHOOK_RETRIES: 2,
        WEBHOOK_RETRY_DELAY: 0,
        WEBHOOK_TIMEOUT: 2,
        WEBHOOK_EXPIRY_MARGIN: 3,
        WORKER_POLL_INTERVAL: 20,
      },
    });
    const webhook = await app.api.post('/api/extras/webhooks/', {
      name: 'Receiver',
      payload_url: `${receiver.url}/sites/{{data.slug}}`,
      additional_headers: 'X-Site: {{header_safe data.name}}\nX-Event: {{event}}',
      secret: SECRET,
    });
    expect(webhook.status, webhook.text).toBe(201);
    webhookId = webhook.body.id;
    worker = newWorker();
    await worker.start();
  });
  afterAll(async () => {
    await worker?.stop();
    await app?.close();
    await receiver?.stop();
  });

  const rule = async (body: Record<string, unknown>) => {
    const created = await app.api.post('/api/extras/event-rules/', {
      object_types: ['dcim.site'],
      event_types: ['object_created', 'object_updated', 'object_deleted'],
      action_type: 'webhook',
      action_object_type: 'extras.webhook',
      action_object_id: webhookId,
      ...body,
    });
    expect(created.status, created.text).toBe(201);
    return created.body;
  };

  it('delivers one signed request per create, update and delete, with the context NetBox sends', async () => {
    const r = await rule({ name: 'sites', conditions: { attr: 'slug', value: 'hook-', op: 'regex' } });
    const site = await app.api.post('/api/dcim/sites/', { name: 'Hook Site', slug: 'hook-site' });
    const requestId = site.headers.get('x-request-id');
    await app.api.patch(`/api/dcim/sites/${site.body.id}/`, { description: 'changed' });
    await app.api.delete(`/api/dcim/sites/${site.body.id}/`);
    await until(() => receiver.bodies('/sites/hook-site').length >= 3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const received = receiver.received.filter((r) => r.url === '/sites/hook-site');
    expect(received.map((r) => JSON.parse(r.body).event)).toEqual(['created', 'updated', 'deleted']);
    for (const request of received) {
      expect(request.method).toBe('POST');
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['x-site']).toBe('Hook Site');
      expect(request.headers['x-hook-signature']).toBe(
        createHmac('sha512', Buffer.from(SECRET, 'utf8')).update(Buffer.from(request.body, 'utf8')).digest('hex'),
      );
    }
    const [created, updated, deleted] = received.map((r) => JSON.parse(r.body));
    expect(Object.keys(created)).toEqual([
      'event',
      'timestamp',
      'object_type',
      'username',
      'request_id',
      'data',
      'request',
      'snapshots',
    ]);
    expect(created).toMatchObject({
      object_type: 'dcim.site',
      username: 'admin',
      request_id: requestId,
      data: { id: site.body.id, url: `/api/dcim/sites/${site.body.id}/`, name: 'Hook Site', slug: 'hook-site' },
      request: { id: requestId, method: 'POST', path: '/api/dcim/sites/', user: 'admin' },
      snapshots: { prechange: null, postchange: { name: 'Hook Site', slug: 'hook-site' } },
    });
    // The body's object is the response's, with paths instead of absolute URLs.
    const origin = new URL(String(site.body.url)).origin;
    expect(created.data).toEqual(JSON.parse(JSON.stringify(site.body).replaceAll(`"${origin}/`, '"/')));
    expect(created.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?\+00:00$/);
    expect(updated.snapshots.prechange.description).toBe('');
    expect(updated.snapshots.postchange.description).toBe('changed');
    expect(deleted.data.name).toBe('Hook Site');
    expect(deleted.snapshots.postchange).toBeNull();

    const page = await tasks(`object_id=${site.body.id}&object_type=dcim.site`);
    expect(page.count).toBe(3);
    for (const task of page.results) {
      expect(task).toMatchObject({
        func_name: 'extras.webhooks.send_webhook',
        status: 'finished',
        is_finished: true,
        result: 'Status 200 returned, webhook successfully processed.',
        kwargs: { event_rule: 'sites', object_type: 'dcim.site', username: 'admin' },
        meta: {
          attempts: 1,
          response_status: 200,
          event_rule_id: r.id,
          webhook_id: webhookId,
          url: `${receiver.url}/sites/hook-site`,
          error_log: '',
        },
      });
    }
    expect(page.results.map((t: { kwargs: { event_type: string } }) => t.kwargs.event_type).sort()).toEqual([
      'object_created',
      'object_deleted',
      'object_updated',
    ]);
    await app.api.patch(`/api/extras/event-rules/${r.id}/`, { enabled: false });
  });

  it('sends nothing when the conditions do not match or the write is rolled back', async () => {
    const r = await rule({ name: 'planned only', conditions: { and: [{ attr: 'status.value', value: 'planned' }] } });
    const before = (await tasks('limit=1')).count;
    await app.api.post('/api/dcim/sites/', { name: 'Active', slug: 'active-nohook' });
    expect((await tasks('limit=1')).count).toBe(before);
    const failed = await app.api.post('/api/dcim/sites/', [
      { name: 'Planned A', slug: 'planned-a', status: 'planned' },
      { name: 'Bad', slug: 'bad slug!', status: 'planned' },
    ]);
    expect(failed.status).toBe(400);
    expect((await tasks('limit=1')).count).toBe(before);
    await app.api.post('/api/dcim/sites/', { name: 'Planned B', slug: 'planned-b', status: 'planned' });
    await until(() => receiver.bodies('/sites/planned-b').length === 1);
    expect((await tasks('limit=1')).count).toBe(before + 1);
    await app.api.patch(`/api/extras/event-rules/${r.id}/`, { enabled: false });
  });

  it('matches condition regexes in linear time, and refuses patterns that need backtracking', async () => {
    // `(a+)+$` against a's and a final b: a backtracking engine tries 2^90 ways to fail before it answers.
    const r = await rule({
      name: 'backtracking',
      event_types: ['object_created'],
      conditions: {
        and: [
          { attr: 'slug', value: 'backtrack-', op: 'regex' },
          { attr: 'name', value: '(a+)+$', op: 'regex', negate: true },
        ],
      },
    });
    const site = await app.api.post('/api/dcim/sites/', { name: `${'a'.repeat(90)}b`, slug: 'backtrack-1' });
    expect(site.status, site.text).toBe(201);
    const query = `object_id=${site.body.id}&object_type=dcim.site&state=succeeded`;
    await until(async () => (await tasks(query)).count === 1);
    expect((await tasks(query)).results).toMatchObject([{ meta: { event_rule_id: r.id, attempts: 1 } }]);
    expect(receiver.bodies('/sites/backtrack-1')).toHaveLength(1);
    await app.api.patch(`/api/extras/event-rules/${r.id}/`, { enabled: false });

    const refused = await app.api.patch(`/api/extras/event-rules/${r.id}/`, {
      conditions: { attr: 'name', value: '(?P<x>a+)(?P=x)$', op: 'regex' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      conditions: [
        'Invalid regular expression: invalid or unsupported Perl syntax: `(?P` (back-references and ' +
          'look-arounds are not supported: conditions are matched in linear time)',
      ],
    });
  });

  it('retries a failing receiver, then fails with the error log; a requeue after recovery succeeds', async () => {
    const r = await rule({ name: 'failing', event_types: ['object_created'] });
    receiver.status = 500;
    const site = await app.api.post('/api/dcim/sites/', { name: 'Failing', slug: 'failing' });
    const find = async () => (await tasks(`object_id=${site.body.id}&object_type=dcim.site`)).results[0];
    await until(async () => (await find())?.status === 'failed');
    const task = await find();
    expect(task).toMatchObject({ is_failed: true, result: null, meta: { attempts: 3, response_status: 500 } });
    expect(task.meta.error_log.split('\n')).toHaveLength(3);
    expect(task.meta.error_log).toContain('attempt 3');
    expect(receiver.bodies('/sites/failing')).toHaveLength(3);

    receiver.status = 200;
    // NetBox answers 200 without a body.
    const requeued = await app.api.post(`/api/core/background-tasks/${task.id}/requeue/`, {});
    expect([requeued.status, requeued.text]).toEqual([200, '']);
    await until(async () => (await find()).status === 'finished');
    expect(receiver.bodies('/sites/failing')).toHaveLength(4);
    // Only failed tasks can be requeued.
    expect((await app.api.post(`/api/core/background-tasks/${task.id}/requeue/`, {})).status).toBe(400);
    await app.api.patch(`/api/extras/event-rules/${r.id}/`, { enabled: false });
  });

  it("keeps the order of one object's events, whatever the concurrency", async () => {
    const r = await rule({ name: 'order' });
    // All seven tasks are due at once when the worker starts: its lanes could take them in any order.
    await worker.stop();
    const site = await app.api.post('/api/dcim/sites/', { name: 'Ordered', slug: 'ordered' });
    for (let i = 1; i <= 5; i += 1) await app.api.patch(`/api/dcim/sites/${site.body.id}/`, { description: `v${i}` });
    await app.api.delete(`/api/dcim/sites/${site.body.id}/`);
    receiver.delayMs = 30;
    worker = newWorker();
    await worker.start();
    await until(() => receiver.bodies('/sites/ordered').length === 7);
    receiver.delayMs = 0;
    const bodies = receiver.bodies('/sites/ordered');
    expect(bodies.map((b) => b.event)).toEqual(['created', ...Array(5).fill('updated'), 'deleted']);
    expect(bodies.slice(1, 6).map((b) => b.data.description)).toEqual(['v1', 'v2', 'v3', 'v4', 'v5']);
    await app.api.patch(`/api/extras/event-rules/${r.id}/`, { enabled: false });
  });

  it('delivers a bulk create of 1,000 objects as 1,000 requests', async () => {
    const r = await rule({ name: 'bulk', event_types: ['object_created'] });
    const bodies = Array.from({ length: 1000 }, (_, i) => ({ name: `Bulk ${i}`, slug: `bulk-${i}` }));
    const created = await app.api.post('/api/dcim/sites/', bodies);
    expect(created.status).toBe(201);
    const requests = () => receiver.received.filter((x) => x.url.startsWith('/sites/bulk-'));
    await until(() => new Set(requests().map((x) => x.url)).size >= 1000, 60_000);
    const done = `event_rule_id=${r.id}&status=finished&limit=1000`;
    await until(async () => (await tasks(done)).count === 1000, 60_000);
    expect(new Set(requests().map((x) => x.url)).size).toBe(1000);
    // One request per attempt: a site is sent again only when an attempt failed (on a loaded machine, one that
    // ran past WEBHOOK_TIMEOUT); on an idle one every task succeeds at its first attempt.
    const attempts = (await tasks(done)).results.reduce((sum: number, t: any) => sum + t.meta.attempts, 0);
    expect(requests().length).toBe(attempts);
    const status = await app.api.get('/api/status/');
    expect(status.body['rq-workers-running']).toBeGreaterThanOrEqual(1);
    expect(status.body['background-queues'].default.queued).toBe(0);
    await app.api.patch(`/api/extras/event-rules/${r.id}/`, { enabled: false });
  });

  it.runIf(dialect === 'postgres')(
    'wakes the worker of another process at once (NOTIFY), without polling',
    async () => {
      await worker.stop();
      const r = await rule({ name: 'jobs', event_types: ['object_created'] });
      const other = await startTestApp(dialect, {
        databaseUrl: app.databaseUrl,
        settings: { ...app.context.settings, WORKER_POLL_INTERVAL: 600_000 },
      });
      try {
        await startBackground(other.context, { worker: true });
        await new Promise((resolve) => setTimeout(resolve, 200)); // its first look finds nothing
        await app.api.post('/api/dcim/sites/', { name: 'By job', slug: 'by-job' });
        await until(() => receiver.bodies('/sites/by-job').length === 1, 10_000);
      } finally {
        await other.close({ keepDatabase: true });
      }
      worker = newWorker();
      await worker.start();
      await app.api.patch(`/api/extras/event-rules/${r.id}/`, { enabled: false });
    },
  );

  it('logged no worker errors', () => {
    expect(logged).toEqual([]);
  });

  it('refuses invalid rules and webhooks with 400s naming the problem', async () => {
    const bad = await app.api.post('/api/extras/event-rules/', {
      name: 'bad',
      object_types: ['dcim.site'],
      event_types: ['object_created', 'object_exploded'],
      action_type: 'webhook',
      action_object_type: 'extras.webhook',
      action_object_id: webhookId,
      conditions: { attr: 'status.value', value: 'x', op: 'near' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.conditions[0]).toMatch(/^Unknown operator: near/);
    expect(bad.body.event_types[0]).toMatch(/object_exploded/);
    const template = await app.api.post('/api/extras/webhooks/', {
      name: 'bad template',
      payload_url: 'http://example.com/{{#if}}',
      body_template: '{{#each data}}',
    });
    expect(template.status).toBe(400);
    expect(Object.keys(template.body).sort()).toEqual(['body_template', 'payload_url']);
    const scheme = await app.api.post('/api/extras/webhooks/', { name: 'ftp', payload_url: 'ftp://example.com/' });
    expect(scheme.body.payload_url[0]).toBe('Enter a valid URL, beginning with http:// or https://.');
  });

  // The table queue's; PostgreSQL's (pg-boss) is killed mid-batch as operators run it, with two servers and two
  // workers, in test/runtime/scale-out.test.ts.
  it.runIf(dialect === 'sqlite')(
    'loses no task when a worker process is killed in the middle of a batch',
    async () => {
      await worker.stop();
      const r = await rule({ name: 'kill', event_types: ['object_created'] });
      receiver.delayMs = 150;
      const bodies = Array.from({ length: 30 }, (_, i) => ({ name: `Kill ${i}`, slug: `kill-${i}` }));
      expect((await app.api.post('/api/dcim/sites/', bodies)).status).toBe(201);
      const child = spawn(process.execPath, [path.resolve(import.meta.dirname, '../../bin/svc.js'), 'worker'], {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          DATABASE_URL: app.databaseUrl,
          API_TOKEN_PEPPERS: JSON.stringify({ 1: TEST_PEPPER }),
          WORKER_CONCURRENCY: '4',
          WORKER_POLL_INTERVAL: '20',
          WEBHOOK_TIMEOUT: '1',
          WEBHOOK_EXPIRY_MARGIN: '3',
        },
        stdio: 'ignore',
      });
      const delivered = () => receiver.received.filter((x) => x.url.startsWith('/sites/kill-')).length;
      await until(() => delivered() >= 6, 30_000);
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      receiver.delayMs = 0;
      // A new worker takes over, including the tasks the dead one had started once they expire
      // (WEBHOOK_TIMEOUT and WEBHOOK_EXPIRY_MARGIN).
      worker = newWorker();
      await worker.start();
      await until(async () => (await tasks(`event_rule_id=${r.id}&status=finished`)).count === 30, 60_000);
      const slugs = new Set(receiver.received.filter((x) => x.url.startsWith('/sites/kill-')).map((x) => x.url));
      expect(slugs.size).toBe(30);
    },
    90_000,
  );
});
