import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Delivery } from '../../runtime/events/queue.js';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import type { ApiClient } from '../support/client.js';

/** NetBox 4.6.8's BackgroundTaskSerializer keys, in its order (core/api/serializers_/tasks.py). */
const NETBOX_KEYS = [
  'id',
  'url',
  'description',
  'origin',
  'func_name',
  'args',
  'kwargs',
  'result',
  'timeout',
  'result_ttl',
  'created_at',
  'enqueued_at',
  'started_at',
  'ended_at',
  'worker_name',
  'position',
  'status',
  'meta',
  'last_heartbeat',
  'is_finished',
  'is_queued',
  'is_failed',
  'is_started',
  'is_deferred',
  'is_canceled',
  'is_scheduled',
  'is_stopped',
];

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?Z$/;

/** Every `is_<status>` flag, true for `status` only. */
const flags = (status: string): Record<string, boolean> =>
  Object.fromEntries(
    ['finished', 'queued', 'failed', 'started', 'deferred', 'canceled', 'scheduled', 'stopped'].map((s) => [
      `is_${s}`,
      s === status,
    ]),
  );

/**
 * Background tasks (webhook deliveries) in NetBox's RQ task shape: one task in each state, put there through
 * the queue itself (no worker runs: the test takes and settles deliveries as a worker would), on each
 * database's queue (pg-boss on PostgreSQL, the task table on SQLite).
 */
describe.each(DIALECTS)('background tasks in NetBox’s task shape on %s', (dialect) => {
  let app: TestApp;
  let ruleId: number;
  let webhookId: number;
  const sites: Record<string, number> = {};
  /** Task ids (as the API renders them: strings) by site. */
  const ids: Record<string, string> = {};
  let requestId: string;

  const list = '/api/core/background-tasks/';
  const task = async (site: string) => {
    const response = await app.api.get(`${list}${ids[site]}/`);
    expect(response.status, response.text).toBe(200);
    return response.body;
  };
  const create = async (slug: string): Promise<void> => {
    const created = await app.api.post('/api/dcim/sites/', { name: `Task ${slug}`, slug });
    expect(created.status, created.text).toBe(201);
    sites[slug] = created.body.id;
    if (slug === 'queued-1') requestId = created.headers.get('x-request-id')!;
    const found = await app.api.get(`${list}?object_type=dcim.site&object_id=${created.body.id}`);
    expect(found.body.count).toBe(1);
    ids[slug] = found.body.results[0].id;
  };
  const take = async (slug: string, worker: string): Promise<Delivery> => {
    const [delivery] = await app.context.queue!.take(1, worker);
    expect(delivery?.task.object_id).toBe(sites[slug]);
    return delivery!;
  };
  const target = (slug: string): string => `http://192.0.2.1/tasks/${slug}`;

  beforeAll(async () => {
    app = await startTestApp(dialect, {
      settings: {
        WEBHOOK_RETRIES: 2,
        WEBHOOK_RETRY_DELAY: 600,
        WEBHOOK_TIMEOUT: 30,
        WEBHOOK_EXPIRY_MARGIN: 60,
        CHANGELOG_RETENTION: 30,
      },
    });
    const webhook = await app.api.post('/api/extras/webhooks/', {
      name: 'Task shape',
      payload_url: 'http://192.0.2.1/tasks/{{data.slug}}',
    });
    expect(webhook.status, webhook.text).toBe(201);
    webhookId = webhook.body.id;
    const rule = await app.api.post('/api/extras/event-rules/', {
      name: 'Task shape rule',
      object_types: ['dcim.site'],
      event_types: ['object_created'],
      action_type: 'webhook',
      action_object_type: 'extras.webhook',
      action_object_id: webhookId,
    });
    expect(rule.status, rule.text).toBe(201);
    ruleId = rule.body.id;

    // One delivery per state, each taken alone: the others are finished, running or waiting for a retry.
    await create('succeeded');
    const succeeded = await take('succeeded', 'worker-s');
    await app.context.queue!.settle([
      { delivery: succeeded, error: null, status: 201, target: target('succeeded'), retry: true },
    ]);
    await create('retrying');
    const retrying = await take('retrying', 'worker-r');
    await app.context.queue!.settle([
      { delivery: retrying, error: 'HTTP 503', status: 503, target: target('retrying'), retry: true },
    ]);
    await create('failed');
    const failed = await take('failed', 'worker-f');
    await app.context.queue!.settle([
      { delivery: failed, error: 'HTTP 410', status: 410, target: target('failed'), retry: false },
    ]);
    await create('running');
    await take('running', 'worker-busy');
    await create('queued-1');
    await create('queued-2');
  });
  afterAll(async () => app?.close());

  it('lists tasks with exactly NetBox’s keys, in its order, ids as strings', async () => {
    const page = await app.api.get(`${list}?event_rule_id=${ruleId}`);
    expect(page.status, page.text).toBe(200);
    expect(Object.keys(page.body)).toEqual(['count', 'next', 'previous', 'results']);
    expect(page.body.count).toBe(6);
    for (const result of page.body.results) {
      expect(Object.keys(result)).toEqual(NETBOX_KEYS);
      expect(result.id).toMatch(/^\d+$/);
      expect(result.url).toBe(`${app.baseUrl}/api/core/background-tasks/${result.id}/`);
      expect(result).toMatchObject({
        origin: 'default',
        func_name: 'extras.webhooks.send_webhook',
        args: [],
        timeout: 30,
        result_ttl: 30 * 86_400,
      });
      expect(result.created_at).toBe(result.enqueued_at);
      expect(result.enqueued_at).toMatch(TIMESTAMP);
    }
    // Newest first; the detail is the list's entry.
    expect(page.body.results.map((r: { id: string }) => r.id)).toEqual(
      ['queued-2', 'queued-1', 'running', 'failed', 'retrying', 'succeeded'].map((slug) => ids[slug]),
    );
    expect(await task('failed')).toEqual(page.body.results[3]);
    // NetBox's RQ endpoints have no brief form: every key, whatever `brief` says.
    const brief = await app.api.get(`${list}${ids.failed}/?brief=1`);
    expect(Object.keys(brief.body)).toEqual(NETBOX_KEYS);
  });

  it('renders a queued delivery: due, with its place in the queue and send_webhook’s arguments', async () => {
    const first = await task('queued-1');
    expect(first).toMatchObject({
      status: 'queued',
      ...flags('queued'),
      result: null,
      started_at: null,
      ended_at: null,
      worker_name: null,
      position: 0,
      last_heartbeat: null,
      meta: {
        object_type: 'dcim.site',
        object_id: sites['queued-1'],
        event_rule_id: ruleId,
        webhook_id: webhookId,
        request_id: requestId,
        attempts: 0,
        next_attempt_at: null,
        response_status: null,
        url: null,
        error_log: '',
      },
    });
    // The one due queued task before it is ahead: the retrying one is not due.
    expect((await task('queued-2')).position).toBe(1);

    // kwargs: NetBox's keyword arguments in its order, each as Python's str().
    expect(Object.keys(first.kwargs)).toEqual([
      'event_rule',
      'object_type',
      'event_type',
      'data',
      'snapshots',
      'timestamp',
      'username',
      'request',
    ]);
    expect(first.kwargs).toMatchObject({
      event_rule: 'Task shape rule',
      object_type: 'dcim.site',
      event_type: 'object_created',
      username: 'admin',
    });
    expect(first.kwargs.data).toMatch(
      new RegExp(`^\\{'id': ${sites['queued-1']}, 'url': '/api/dcim/sites/${sites['queued-1']}/', `),
    );
    expect(first.kwargs.data).toContain("'name': 'Task queued-1'");
    expect(first.kwargs.snapshots).toMatch(/^\{'prechange': None, 'postchange': \{/);
    expect(first.kwargs.timestamp).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+\+00:00$/);
    expect(first.kwargs.request).toBe(
      `{'id': '${requestId}', 'method': 'POST', 'path': '/api/dcim/sites/', 'user': 'admin'}`,
    );
    // description: RQ's call string, arguments sorted, each repr cut at 75 characters.
    expect(first.description).toMatch(/^extras\.webhooks\.send_webhook\(data=\{'id': /);
    const args = (first.description as string).slice('extras.webhooks.send_webhook('.length, -1);
    expect(args).toContain(", event_rule=<EventRule: Task shape rule>, event_type='object_created', ");
    expect(args).toContain(", object_type=<ObjectType: dcim.site>, request={'id': '");
    expect(args).toMatch(/, username='admin'$/);
    expect(args.match(/data=(.*?), event_rule=/)![1]).toHaveLength(75 + 3);
  });

  it('renders a running delivery as started, by its worker', async () => {
    const running = await task('running');
    expect(running).toMatchObject({
      status: 'started',
      ...flags('started'),
      result: null,
      ended_at: null,
      worker_name: 'worker-busy',
      position: null,
      meta: { attempts: 1, response_status: null, url: null, error_log: '' },
    });
    expect(running.started_at).toMatch(TIMESTAMP);
    expect(running.last_heartbeat).toBe(running.started_at);
  });

  it('renders a delivered task as finished, with send_webhook’s result', async () => {
    const succeeded = await task('succeeded');
    expect(succeeded).toMatchObject({
      status: 'finished',
      ...flags('finished'),
      result: 'Status 201 returned, webhook successfully processed.',
      worker_name: 'worker-s',
      position: null,
      meta: { attempts: 1, next_attempt_at: null, response_status: 201, url: target('succeeded'), error_log: '' },
    });
    expect(succeeded.ended_at).toMatch(TIMESTAMP);
    expect(succeeded.ended_at >= succeeded.started_at).toBe(true);
    expect(succeeded.last_heartbeat).toBe(succeeded.ended_at);
  });

  it('renders a failed attempt waiting for its retry as scheduled, and a given-up one as failed', async () => {
    const retrying = await task('retrying');
    expect(retrying).toMatchObject({
      status: 'scheduled',
      ...flags('scheduled'),
      result: null,
      ended_at: null,
      position: null,
      meta: { attempts: 1, response_status: 503, url: target('retrying') },
    });
    expect(Date.parse(retrying.meta.next_attempt_at)).toBeGreaterThan(Date.now() + 500_000);
    expect(retrying.meta.error_log).toMatch(/^\S+ attempt 1: HTTP 503$/);

    const failed = await task('failed');
    expect(failed).toMatchObject({
      status: 'failed',
      ...flags('failed'),
      result: null,
      position: null,
      meta: { attempts: 1, next_attempt_at: null, response_status: 410, url: target('failed') },
    });
    expect(failed.ended_at).toMatch(TIMESTAMP);
    expect(failed.meta.error_log).toMatch(/^\S+ attempt 1: HTTP 410$/);
  });

  it('filters by RQ status (and still by the delivery’s own fields)', async () => {
    const slugsOf = async (query: string): Promise<string[]> => {
      const page = await app.api.get(`${list}?event_rule_id=${ruleId}&${query}`);
      expect(page.status, page.text).toBe(200);
      return page.body.results.map((r: { id: string }) => Object.keys(ids).find((slug) => ids[slug] === r.id));
    };
    expect(await slugsOf('status=queued')).toEqual(['queued-2', 'queued-1']);
    expect(await slugsOf('status=scheduled')).toEqual(['retrying']);
    expect(await slugsOf('status=started')).toEqual(['running']);
    expect(await slugsOf('status=finished')).toEqual(['succeeded']);
    expect(await slugsOf('status=failed')).toEqual(['failed']);
    expect(await slugsOf('status=failed&status=finished')).toEqual(['failed', 'succeeded']);
    expect(await slugsOf('status=deferred')).toEqual([]);
    expect(await slugsOf('state=queued')).toEqual(['queued-2', 'queued-1', 'retrying']);
    expect(await slugsOf(`object_id=${sites.failed}`)).toEqual(['failed']);
    const bad = await app.api.get(`${list}?status=done`);
    expect([bad.status, bad.body]).toEqual([
      400,
      { status: ['Select a valid choice. done is not one of the available choices.'] },
    ]);
  });

  describe('actions', () => {
    let viewer: ApiClient;
    let operator: ApiClient;

    beforeAll(async () => {
      const client = async (username: string, actions: string[]): Promise<ApiClient> => {
        const user = await app.api.post('/api/users/users/', { username, password: 'Task-Password-1' });
        expect(user.status, user.text).toBe(201);
        const permission = await app.api.post('/api/users/permissions/', {
          name: `tasks ${username}`,
          object_types: ['core.backgroundtask'],
          actions,
          users: [user.body.id],
        });
        expect(permission.status, permission.text).toBe(201);
        const token = await app.api.post('/api/users/tokens/', { user: user.body.id });
        expect(token.status, token.text).toBe(201);
        return app.api.as(`Bearer svc_${token.body.key}.${token.body.token}`);
      };
      viewer = await client('task-viewer', ['view']);
      operator = await client('task-operator', ['view', 'change', 'delete']);
    });

    it('requeues a failed task as NetBox answers (200, no body): queued again, its attempts afresh', async () => {
      const path = `${list}${ids.failed}/requeue/`;
      expect((await viewer.post(path, {})).status).toBe(403);
      expect((await app.anonymous.post(path, {})).status).toBe(403);
      const requeued = await operator.post(path);
      expect([requeued.status, requeued.text]).toEqual([200, '']);
      const after = await task('failed');
      expect(after).toMatchObject({
        status: 'queued',
        ...flags('queued'),
        result: null,
        ended_at: null,
        meta: { attempts: 0, next_attempt_at: null, error_log: expect.stringMatching(/attempt 1: HTTP 410$/) },
      });
      // It is due now, behind the queued tasks before it.
      expect(after.position).toBe(0);
      expect((await task('queued-1')).position).toBe(1);
      // A task that has not failed cannot be requeued (RQ raises); an unknown one is not found.
      for (const slug of ['failed', 'succeeded', 'running']) {
        const refused = await operator.post(`${list}${ids[slug]}/requeue/`);
        expect([refused.status, refused.body], slug).toEqual([400, { detail: 'Only failed tasks can be requeued.' }]);
      }
      const missing = await operator.post(`${list}999999/requeue/`);
      expect([missing.status, missing.body]).toEqual([404, { detail: 'No BackgroundTask matches the given query.' }]);
      expect((await operator.get(path)).status).toBe(405);
    });

    it('deletes a task as NetBox answers (200, no body); its delivery is not made', async () => {
      const path = `${list}${ids['queued-2']}/delete/`;
      expect((await viewer.post(path)).status).toBe(403);
      const deleted = await operator.post(path);
      expect([deleted.status, deleted.text]).toEqual([200, '']);
      expect((await app.api.get(`${list}${ids['queued-2']}/`)).status).toBe(404);
      expect((await operator.post(path)).status).toBe(404);
      // The queue skips it: the next delivery taken is another task's.
      const [next] = await app.context.queue!.take(5, 'worker-after-delete');
      expect(next?.task.object_id).not.toBe(sites['queued-2']);
    });

    it('describes the actions in the OpenAPI document', async () => {
      const document = (await app.api.get('/api/schema/?format=json')).body;
      for (const action of ['requeue', 'delete']) {
        const operation = document.paths[`/api/core/background-tasks/{id}/${action}/`].post;
        expect(operation.responses['200'].content).toBeUndefined();
      }
      expect(document.components.schemas.BackgroundTask.properties.id).toMatchObject({ type: 'string' });
      expect(Object.keys(document.components.schemas.BackgroundTask.properties)).toEqual(NETBOX_KEYS);
    });
  });
});
