import { isIP } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Settings } from '../../runtime/config.js';
import type { HostLookup } from '../../runtime/events/targets.js';
import { Worker } from '../../runtime/events/worker.js';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import { Receiver, until } from '../support/receiver.js';

/**
 * WEBHOOK_DENIED_NETWORKS at delivery: a webhook's host is resolved again for every request, checked, and
 * connected to at the address checked; a refusal fails the task at once, saying why. When a webhook is saved,
 * a host name is resolved and checked too. The worker's resolver is replaced here (names under `.test`), so
 * that a name can point somewhere else than it did when its webhook was saved.
 */
describe.each(DIALECTS)('webhook targets on %s', (dialect) => {
  let app: TestApp;
  let receiver: Receiver;
  let worker: Worker;
  let port = '';
  const logged: string[] = [];

  /** The worker's DNS: `localhost` answered 127.0.0.1 to the server when its webhook was saved. */
  const names: Record<string, string[]> = {
    'receiver.test': ['127.0.0.1'],
    'metadata.test': ['169.254.169.254'],
    'mixed.test': ['127.0.0.1', 'fd00:ec2::254'],
    localhost: ['169.254.169.254'],
  };
  const lookup: HostLookup = async (name) => {
    const addresses = names[name];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: isIP(address) }));
  };
  /** (Re)starts the worker; `resolver` null: the system's. */
  const startWorker = async (settings: Partial<Settings> = {}, resolver: HostLookup | null = lookup) => {
    await worker?.stop();
    worker = new Worker({
      q: app.db.knex,
      schema: app.context.schema,
      dialect: app.db.dialect,
      settings: { ...app.context.settings, ...settings },
      queue: app.context.queue!,
      log: (message) => logged.push(message),
      lookup: resolver ?? undefined,
    });
    await worker.start();
  };

  beforeAll(async () => {
    receiver = new Receiver();
    await receiver.start();
    port = new URL(receiver.url).port;
    app = await startTestApp(dialect, {
      settings: {
        WEBHOOK_RETRIES: 2,
        WEBHOOK_RETRY_DELAY: 0,
        WEBHOOK_TIMEOUT: 2,
        WEBHOOK_EXPIRY_MARGIN: 3,
        WORKER_POLL_INTERVAL: 20,
      },
    });
    await startWorker();
  });
  afterAll(async () => {
    await worker?.stop();
    await app?.close();
    await receiver?.stop();
  });

  /** A webhook and a rule sending it for sites whose slug starts with `prefix`. */
  const hook = async (prefix: string, payloadUrl: string): Promise<void> => {
    const webhook = await app.api.post('/api/extras/webhooks/', { name: prefix, payload_url: payloadUrl });
    expect(webhook.status, webhook.text).toBe(201);
    const rule = await app.api.post('/api/extras/event-rules/', {
      name: prefix,
      object_types: ['dcim.site'],
      event_types: ['object_created'],
      action_type: 'webhook',
      action_object_type: 'extras.webhook',
      action_object_id: webhook.body.id,
      conditions: { attr: 'slug', value: `${prefix}-`, op: 'regex' },
    });
    expect(rule.status, rule.text).toBe(201);
  };

  /** Creates a site and waits for its task to finish; returns the task as the API shows it. */
  const deliver = async (slug: string, description = '') => {
    const site = await app.api.post('/api/dcim/sites/', { name: slug, slug, description });
    expect(site.status, site.text).toBe(201);
    const find = async () =>
      (await app.api.get(`/api/core/background-tasks/?object_type=dcim.site&object_id=${site.body.id}`)).body
        .results[0];
    await until(async () => ['finished', 'failed'].includes((await find())?.status));
    return find();
  };

  /** What a refused delivery looks like: failed at its first attempt, nothing sent. */
  const expectRefused = (task: any, reason: string) => {
    expect(task).toMatchObject({ status: 'failed', meta: { attempts: 1, response_status: null } });
    expect(task.meta.error_log).toMatch(/^\S+ attempt 1: /);
    expect(task.meta.error_log.replace(/^\S+ attempt 1: /, '')).toBe(reason);
  };

  it('delivers through a name to the address it checked', async () => {
    await hook('named', `http://receiver.test:${port}/named/{{data.slug}}`);
    const task = await deliver('named-1');
    expect(task).toMatchObject({ status: 'finished', meta: { attempts: 1, response_status: 200 } });
    const [request] = receiver.received.filter((r) => r.url === '/named/named-1');
    expect(request!.headers.host).toBe(`receiver.test:${port}`);
  });

  it('refuses, at once and saying why, a name that resolves into a denied network', async () => {
    await hook('metadata', 'http://metadata.test/latest/meta-data/');
    expectRefused(
      await deliver('metadata-1'),
      'Webhooks may not target metadata.test: it resolves to 169.254.169.254, which is in WEBHOOK_DENIED_NETWORKS.',
    );
    // One denied address is enough, whatever the others.
    await hook('mixed', `http://mixed.test:${port}/mixed`);
    expectRefused(
      await deliver('mixed-1'),
      'Webhooks may not target mixed.test: it resolves to fd00:ec2::254, which is in WEBHOOK_DENIED_NETWORKS.',
    );
    expect(receiver.received.filter((r) => r.url === '/mixed')).toEqual([]);
  });

  it('refuses a name that points into a denied network since the webhook was saved', async () => {
    // The server resolved localhost to a loopback address, which may be reached: saved.
    await hook('changed', `http://localhost:${port}/changed`);
    expectRefused(
      await deliver('changed-1'),
      'Webhooks may not target localhost: it resolves to 169.254.169.254, which is in WEBHOOK_DENIED_NETWORKS.',
    );
    expect(receiver.received.filter((r) => r.url === '/changed')).toEqual([]);
  });

  it('refuses a receiver whose name the system resolves into networks denied since (loopback here)', async () => {
    await hook('loopback', `http://localhost:${port}/loopback`);
    await startWorker(
      { WEBHOOK_DENIED_NETWORKS: [...app.context.settings.WEBHOOK_DENIED_NETWORKS, '127.0.0.0/8', '::1/128'] },
      null,
    );
    try {
      const task = await deliver('loopback-1');
      expect(task).toMatchObject({ status: 'failed', meta: { attempts: 1 } });
      expect(task.meta.error_log).toMatch(
        /attempt 1: Webhooks may not target localhost: it resolves to (127\.0\.0\.1|::1), which is in WEBHOOK_DENIED_NETWORKS\.$/,
      );
      expect(receiver.received.filter((r) => r.url === '/loopback')).toEqual([]);
    } finally {
      await startWorker();
    }
  });

  it('checks the host a template renders', async () => {
    await hook('templated', 'http://{{data.description}}/templated/{{data.slug}}');
    const sent = await deliver('templated-1', `receiver.test:${port}`);
    expect(sent).toMatchObject({ status: 'finished', meta: { response_status: 200 } });
    expectRefused(
      await deliver('templated-2', `metadata.test:${port}`),
      'Webhooks may not target metadata.test: it resolves to 169.254.169.254, which is in WEBHOOK_DENIED_NETWORKS.',
    );
    expectRefused(
      await deliver('templated-3', '[::ffff:169.254.169.254]'),
      'Webhooks may not target ::ffff:a9fe:a9fe: the address is in WEBHOOK_DENIED_NETWORKS.',
    );
    expect(receiver.received.filter((r) => r.url.startsWith('/templated/')).map((r) => r.url)).toEqual([
      '/templated/templated-1',
    ]);
  });

  it('retries a name that does not resolve, as any connection error', async () => {
    await hook('unresolved', 'http://nowhere.test/');
    const task = await deliver('unresolved-1');
    expect(task).toMatchObject({ status: 'failed', meta: { attempts: 3, response_status: null } });
    expect(task.meta.error_log).toContain('attempt 3: Host not found (getaddrinfo ENOTFOUND nowhere.test)');
  });

  it('resolves a host name when a webhook is saved, and refuses it in a denied network', async () => {
    const strict = await startTestApp(dialect, {
      settings: {
        WEBHOOK_DENIED_NETWORKS: [...app.context.settings.WEBHOOK_DENIED_NETWORKS, '127.0.0.0/8', '::1/128'],
      },
    });
    try {
      const post = (name: string, payload_url: string) =>
        strict.api.post('/api/extras/webhooks/', { name, payload_url });
      const reason =
        /^Webhooks may not target localhost: it resolves to (127\.0\.0\.1|::1), which is in WEBHOOK_DENIED_NETWORKS\.$/;
      for (const url of ['http://localhost:9000/hook', 'https://LocalHost/sites/{{data.slug}}']) {
        const refused = await post(`refused ${url}`, url);
        expect(refused.status, refused.text).toBe(400);
        expect(refused.body).toEqual({ payload_url: [expect.stringMatching(reason)] });
      }
      const literal = await post('literal', 'http://127.0.0.1:9000/hook');
      expect(literal.body).toEqual({
        payload_url: ['Webhooks may not target 127.0.0.1: the address is in WEBHOOK_DENIED_NETWORKS.'],
      });
      // A name that does not resolve, and a host a template builds, are checked when sent.
      for (const url of ['http://nowhere.invalid/hook', 'http://{{data.description}}/hook']) {
        const saved = await post(`saved ${url}`, url);
        expect(saved.status, saved.text).toBe(201);
        if (url.includes('nowhere')) {
          const moved = await strict.api.patch(`/api/extras/webhooks/${saved.body.id}/`, {
            payload_url: 'http://localhost/',
          });
          expect(moved.status).toBe(400);
          expect(moved.body).toEqual({ payload_url: [expect.stringMatching(reason)] });
        }
      }
    } finally {
      await strict.close();
    }
  });

  it('logged no worker errors', () => {
    expect(logged).toEqual([]);
  });
});
