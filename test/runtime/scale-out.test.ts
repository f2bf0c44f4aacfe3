import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, TEST_PEPPER, type TestApp } from '../support/app.js';
import { freePort, startSvc, type SvcProcess } from '../support/processes.js';
import { Receiver, until, type Received } from '../support/receiver.js';

/**
 * The production shape on PostgreSQL: two `svc serve` processes and two `svc worker` processes on one
 * database, a real receiver. Deliveries are pg-boss jobs; caches are dropped in every process by NOTIFY.
 */
describe.runIf(DIALECTS.includes('postgres'))('two servers and two workers on one PostgreSQL database', () => {
  let app: TestApp;
  const receiver = new Receiver();
  const servers: { process: SvcProcess; url: string }[] = [];
  const workers: SvcProcess[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    await receiver.start();
    app = await startTestApp('postgres');
    env = {
      DATABASE_URL: app.databaseUrl,
      API_TOKEN_PEPPERS: JSON.stringify({ 1: TEST_PEPPER }),
      WEBHOOK_RETRIES: '2',
      WEBHOOK_RETRY_DELAY: '1',
      WEBHOOK_TIMEOUT: '1',
      // A killed worker's jobs run again 5 seconds after they started, not 31.
      WEBHOOK_EXPIRY_MARGIN: '4',
      WORKER_CONCURRENCY: '8',
      // Long enough that only a signal can explain a server noticing a change in time.
      CACHE_SECONDS: '300',
    };
    for (let i = 0; i < 2; i += 1) {
      const port = await freePort();
      const server = startSvc(['serve'], { ...env, PORT: String(port), HOST: '127.0.0.1' });
      servers.push({ process: server, url: `http://127.0.0.1:${port}` });
      workers.push(startSvc(['worker'], env));
    }
    await Promise.all([
      ...servers.map((s) => s.process.waitFor('Serving the API')),
      ...workers.map((w) => w.waitFor(' running (')),
    ]);
  });
  afterAll(async () => {
    await Promise.all([...servers.map((s) => s.process.stop()), ...workers.map((w) => w.stop())]);
    await app?.close();
    await receiver.stop();
  });

  const call = async (server: number, method: string, path: string, body?: unknown, auth = app.adminAuth) => {
    const response = await fetch(`${servers[server]!.url}${path}`, {
      method,
      headers: { Authorization: auth, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, text };
  };
  const count = async (query: string): Promise<number> =>
    (await app.api.get(`/api/core/background-tasks/?${query}&limit=1`)).body.count;
  /** A webhook to `<receiver>/<prefix>/<site id>` for sites whose slug starts with `<prefix>-`. */
  const rule = async (prefix: string, events: string[]): Promise<number> => {
    const webhook = await call(0, 'POST', '/api/extras/webhooks/', {
      name: prefix,
      payload_url: `${receiver.url}/${prefix}/{{data.id}}`,
    });
    expect(webhook.status, webhook.text).toBe(201);
    const created = await call(1, 'POST', '/api/extras/event-rules/', {
      name: prefix,
      object_types: ['dcim.site'],
      event_types: events,
      action_type: 'webhook',
      action_object_type: 'extras.webhook',
      action_object_id: webhook.body.id,
      conditions: { attr: 'slug', value: `^${prefix}-`, op: 'regex' },
    });
    expect(created.status, created.text).toBe(201);
    return created.body.id;
  };
  const received = (prefix: string): Received[] => receiver.received.filter((r) => r.url.startsWith(`/${prefix}/`));
  const idOf = (r: Received): number => Number(r.url.split('/')[2]);
  const drained = async (ruleId: number): Promise<boolean> =>
    (await count(`event_rule_id=${ruleId}&state=queued`)) + (await count(`event_rule_id=${ruleId}&state=running`)) ===
    0;

  it('delivers 2,000 sites created through both servers exactly once each, every task at its first attempt', async () => {
    const ruleId = await rule('bulk', ['object_created']);
    const sites = (n: number) =>
      Array.from({ length: 500 }, (_, i) => ({ name: `Bulk ${n}-${i}`, slug: `bulk-${n}-${i}` }));
    const posted = await Promise.all([0, 1, 2, 3].map((n) => call(n % 2, 'POST', '/api/dcim/sites/', sites(n))));
    expect(posted.map((p) => p.status)).toEqual([201, 201, 201, 201]);
    await until(() => received('bulk').length >= 2000, 50_000);
    await until(() => drained(ruleId), 10_000);
    const ids = received('bulk').map(idOf);
    expect(ids).toHaveLength(2000);
    expect(new Set(ids).size).toBe(2000);
    expect(new Set(posted.flatMap((p) => p.body.map((s: { id: number }) => s.id)))).toEqual(new Set(ids));
    expect(await count(`event_rule_id=${ruleId}&state=succeeded&attempts=1`)).toBe(2000);
    expect(await count(`event_rule_id=${ruleId}&state=running`)).toBe(0);
    const times = received('bulk').map((r) => r.at);
    console.log(
      `2 servers, 2 workers: 2,000 deliveries in ${((Math.max(...times) - Math.min(...times)) / 1000).toFixed(1)} s from first to last receipt`,
    );
  });

  it("keeps each object's order while first attempts fail, and a delivery that finally failed holds nothing back", async () => {
    const ruleId = await rule('order', ['object_created', 'object_updated']);
    const failedOnce = new Set<number>();
    let doomed = 0;
    receiver.respond = (request) => {
      if (!request.url.startsWith('/order/')) return 200;
      const id = idOf(request);
      const body = JSON.parse(request.body);
      // One object's first update never gets through (all its attempts fail).
      if (id === doomed && body.data.description === 'v1') return 500;
      if (id % 4 === 0 && !failedOnce.has(id)) {
        failedOnce.add(id);
        return 503;
      }
      return 200;
    };
    const created = await call(
      0,
      'POST',
      '/api/dcim/sites/',
      Array.from({ length: 40 }, (_, i) => ({ name: `Order ${i}`, slug: `order-${i}` })),
    );
    expect(created.status, created.text).toBe(201);
    const ids: number[] = created.body.map((s: { id: number }) => s.id);
    doomed = ids[1]!;
    for (const version of ['v1', 'v2', 'v3']) {
      const patched = await Promise.all(
        ids.map((id, i) => call(i % 2, 'PATCH', `/api/dcim/sites/${id}/`, { description: version })),
      );
      expect(patched.every((p) => p.status === 200)).toBe(true);
    }
    await until(async () => received('order').filter((r) => r.status === 200).length >= 40 * 4 - 1, 50_000);
    await until(() => drained(ruleId), 20_000);
    for (const id of ids) {
      const delivered = received('order')
        .filter((r) => idOf(r) === id && r.status === 200)
        .map((r) => {
          const body = JSON.parse(r.body);
          return body.event === 'created' ? 'created' : body.data.description;
        });
      expect(delivered, `site ${id}`).toEqual(id === doomed ? ['created', 'v2', 'v3'] : ['created', 'v1', 'v2', 'v3']);
    }
    expect(failedOnce.size).toBeGreaterThanOrEqual(10);
    expect(await count(`event_rule_id=${ruleId}&state=succeeded`)).toBe(40 * 4 - 1);
    expect(await count(`event_rule_id=${ruleId}&state=succeeded&attempts=2`)).toBe(failedOnce.size);
    const lost = (await app.api.get(`/api/core/background-tasks/?event_rule_id=${ruleId}&state=failed`)).body;
    expect(lost.count).toBe(1);
    expect(lost.results[0]).toMatchObject({
      status: 'failed',
      meta: { object_id: doomed, attempts: 3, response_status: 500 },
    });
    receiver.respond = null;
  });

  it('loses nothing when a worker is killed mid-batch; only what it had in flight is delivered again', async () => {
    const ruleId = await rule('kill', ['object_created']);
    receiver.delayMs = 100;
    const created = await call(
      1,
      'POST',
      '/api/dcim/sites/',
      Array.from({ length: 300 }, (_, i) => ({ name: `Kill ${i}`, slug: `kill-${i}` })),
    );
    expect(created.status, created.text).toBe(201);
    await until(() => received('kill').length >= 40, 30_000);
    workers[0]!.child.kill('SIGKILL');
    const killedAt = Date.now();
    await workers[0]!.exited;
    receiver.delayMs = 0;
    // The killed worker's jobs run again once they expire (WEBHOOK_TIMEOUT and WEBHOOK_EXPIRY_MARGIN).
    await until(async () => new Set(received('kill').map(idOf)).size === 300 && (await drained(ruleId)), 60_000);
    const seen = new Map<number, Received[]>();
    for (const r of received('kill')) seen.set(idOf(r), [...(seen.get(idOf(r)) ?? []), r]);
    const again = [...seen.values()].filter((list) => list.length > 1);
    // Redelivered: only jobs the killed worker had taken (at most its WORKER_CONCURRENCY in flight, and as
    // many answered but not yet recorded), each first received before the kill.
    expect(again.length).toBeLessThanOrEqual(16);
    for (const list of again) expect(list[0]!.at).toBeLessThanOrEqual(killedAt);
    expect(await count(`event_rule_id=${ruleId}&state=succeeded`)).toBe(300);
    const retried = await count(`event_rule_id=${ruleId}&attempts=2`);
    expect(retried).toBeGreaterThanOrEqual(again.length);
    expect(retried).toBeLessThanOrEqual(16);
    console.log(`SIGKILL of a worker: ${again.length} deliveries made twice, ${retried} tasks attempted twice, of 300`);
  }, 90_000);

  it('refuses on server B a token disabled through server A, at the very next request', async () => {
    const admin = (await app.api.get('/api/users/users/?username=admin')).body.results[0].id;
    for (let i = 0; i < 5; i += 1) {
      const token = await call(0, 'POST', '/api/users/tokens/', { user: admin, description: `scale-out ${i}` });
      expect(token.status, token.text).toBe(201);
      const auth = `Bearer svc_${token.body.key}.${token.body.token}`;
      expect((await call(1, 'GET', '/api/dcim/sites/?limit=1', undefined, auth)).status).toBe(200);
      expect((await call(0, 'PATCH', `/api/users/tokens/${token.body.id}/`, { enabled: false })).status).toBe(200);
      const refused = await call(1, 'GET', '/api/dcim/sites/?limit=1', undefined, auth);
      expect(refused.status).toBe(403);
    }
  });

  it('logged no errors in any process', () => {
    for (const process of [...servers.map((s) => s.process), workers[1]!]) {
      expect(process.output()).not.toMatch(/worker:|unhandled|pg-boss:|Error/);
    }
  });
});
