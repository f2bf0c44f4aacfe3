import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Worker } from '../../runtime/events/worker.js';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/** A browser without JavaScript: keeps cookies, submits forms, never follows redirects. */
class Browser {
  readonly cookies = new Map<string, string>();
  constructor(private readonly baseUrl: string) {}

  async request(
    method: string,
    path: string,
    options: { form?: Record<string, string | string[]>; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; headers: Headers; text: string }> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size > 0) headers.Cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined;
    if (options.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      const form = new URLSearchParams();
      for (const [name, value] of Object.entries(options.form)) for (const v of [value].flat()) form.append(name, v);
      body = form.toString();
    }
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair!.split('=') as [string, string];
      if (value === '') this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  /** The CSRF token of the last page's forms. */
  static csrfOf(html: string): string {
    return /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(html)![1]!;
  }

  async signIn(username: string, password: string): Promise<void> {
    const page = await this.request('GET', '/login/');
    const signedIn = await this.request('POST', '/login/', {
      form: { csrfmiddlewaretoken: Browser.csrfOf(page.text), username, password, next: '/api/' },
    });
    expect(signedIn.status).toBe(303);
  }

  /** Opens a page and submits one of its forms (the CSRF token taken from the page). */
  async submit(pagePath: string, action: string, form: Record<string, string | string[]>) {
    const page = await this.request('GET', pagePath);
    expect(page.status, page.text).toBe(200);
    return this.request('POST', action, { form: { csrfmiddlewaretoken: Browser.csrfOf(page.text), ...form } });
  }
}

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const unescape = (html: string): string =>
  html
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"');

describe.each(DIALECTS)('token and background-task pages on %s', (dialect) => {
  let app: TestApp;
  const users: Record<string, number> = {};

  beforeAll(async () => {
    app = await startTestApp(dialect, {
      settings: { WEBHOOK_RETRIES: 0, WEBHOOK_RETRY_DELAY: 0, WEBHOOK_TIMEOUT: 2, WORKER_POLL_INTERVAL: 20 },
    });
    for (const username of ['dave', 'erin', 'viewer', 'operator']) {
      const user = await app.api.post('/api/users/users/', { username, password: 'Page-Password-1' });
      expect(user.status, user.text).toBe(201);
      users[username] = user.body.id;
    }
    const grant = async (name: string, actions: string[], user: number) =>
      expect(
        (
          await app.api.post('/api/users/permissions/', {
            name,
            object_types: ['core.backgroundtask'],
            actions,
            users: [user],
          })
        ).status,
      ).toBe(201);
    await grant('view tasks', ['view'], users.viewer!);
    await grant('requeue tasks', ['view', 'change'], users.operator!);

    // Two failed deliveries: a webhook to a port where nothing listens, no retries.
    const webhook = await app.api.post('/api/extras/webhooks/', {
      name: 'Nowhere',
      payload_url: `http://127.0.0.1:${await closedPort()}/hook`,
    });
    expect(webhook.status, webhook.text).toBe(201);
    const rule = await app.api.post('/api/extras/event-rules/', {
      name: 'Sites to nowhere',
      object_types: ['dcim.site'],
      event_types: ['object_created'],
      action_type: 'webhook',
      action_object_type: 'extras.webhook',
      action_object_id: webhook.body.id,
    });
    expect(rule.status, rule.text).toBe(201);
    for (const slug of ['page-site-1', 'page-site-2'])
      expect((await app.api.post('/api/dcim/sites/', { name: slug, slug })).status).toBe(201);
    const worker = new Worker({
      q: app.db.knex,
      schema: app.context.schema,
      dialect: app.db.dialect,
      settings: app.context.settings,
      queue: app.context.queue!,
      log: () => undefined,
    });
    await worker.start();
    const start = Date.now();
    while ((await app.api.get('/api/core/background-tasks/?state=failed')).body.count < 2) {
      if (Date.now() - start > 15_000) throw new Error('the deliveries did not fail');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await worker.stop();
  });
  afterAll(async () => app?.close());

  it('sends signed-out browsers to the sign-in page and back', async () => {
    const b = new Browser(app.baseUrl);
    const tokens = await b.request('GET', '/user/api-tokens/');
    expect(tokens.status).toBe(302);
    expect(tokens.headers.get('location')).toBe('/login/?next=%2Fuser%2Fapi-tokens%2F');
    const tasks = await b.request('GET', '/core/background-tasks/?state=failed');
    expect(tasks.headers.get('location')).toBe(
      `/login/?next=${encodeURIComponent('/core/background-tasks/?state=failed')}`,
    );
    const post = await b.request('POST', '/user/api-tokens/', { form: { description: 'x' } });
    expect(post.status).toBe(303);
    expect(post.headers.get('location')).toBe('/login/?next=%2Fuser%2Fapi-tokens%2F');
  });

  it('refuses forms without the CSRF token', async () => {
    const b = new Browser(app.baseUrl);
    await b.signIn('dave', 'Page-Password-1');
    const missing = await b.request('POST', '/user/api-tokens/', { form: { description: 'forged' } });
    expect(missing.status).toBe(403);
    expect(missing.headers.get('content-type')).toMatch(/text\/html/);
    expect(missing.text).toContain('CSRF verification failed');
    const wrong = await b.request('POST', '/user/api-tokens/', {
      form: { description: 'forged', csrfmiddlewaretoken: 'x'.repeat(32) },
    });
    expect(wrong.status).toBe(403);
    expect((await app.api.get(`/api/users/tokens/?user_id=${users.dave}`)).body.count).toBe(0);
  });

  it('creates a token whose secret is shown once and works, and deletes it', async () => {
    const b = new Browser(app.baseUrl);
    await b.signIn('dave', 'Page-Password-1');
    const erinToken = await app.api.post('/api/users/tokens/', { user: users.erin, description: 'erin secret' });
    expect(erinToken.status).toBe(201);

    const empty = await b.request('GET', '/user/api-tokens/');
    expect(empty.status).toBe(200);
    expect(empty.headers.get('cache-control')).toBe('no-store');
    expect(empty.text).toContain('You have no API tokens yet.');
    expect(empty.text).toContain('Signed in as <strong>dave</strong>');
    // Without permission on background tasks the top bar leaves them out.
    expect(empty.text).not.toContain('Background tasks');

    const expired = await b.submit('/user/api-tokens/', '/user/api-tokens/', {
      description: 'bad',
      expires: '2001-01-01T00:00',
    });
    expect(expired.status).toBe(400);
    expect(expired.text).toContain('Expiration time must be in the future.');
    expect(expired.text).toContain('value="bad"');
    expect(expired.text).toContain('value="2001-01-01T00:00"');
    const badNetwork = await b.submit('/user/api-tokens/', '/user/api-tokens/', { allowed_ips: 'not-a-network' });
    expect(badNetwork.status).toBe(400);
    expect(badNetwork.text).toContain('Enter a valid IPv4 or IPv6 address or network: not-a-network');
    expect((await app.api.get(`/api/users/tokens/?user_id=${users.dave}`)).body.count).toBe(0);

    const created = await b.submit('/user/api-tokens/', '/user/api-tokens/', {
      description: 'laptop <script>',
      expires: '2099-01-01T00:00',
      write_enabled: 'on',
      allowed_ips: '127.0.0.0/8, 10.0.0.0/8',
    });
    expect(created.status, created.text).toBe(201);
    const header = unescape(/id="new-token-header">([^<]+)</.exec(created.text)![1]!);
    const [, key, secret] = /^Bearer svc_([A-Za-z0-9]{12})\.([A-Za-z0-9]{40})$/.exec(header)!;
    expect(created.text).toContain('laptop &lt;script&gt;');
    expect(created.text).not.toContain('<script>');

    const me = await fetch(`${app.baseUrl}/api/authentication-check/`, { headers: { Authorization: header } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { username: string }).username).toBe('dave');
    const stored = (await app.api.get(`/api/users/tokens/?user_id=${users.dave}`)).body.results;
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      key,
      description: 'laptop <script>',
      write_enabled: true,
      allowed_ips: ['127.0.0.0/8', '10.0.0.0/8'],
      expires: expect.stringMatching(/^2099-01-01T00:00:00(Z|\+00:00)$/),
    });

    // Never again: the list shows the key only.
    const again = await b.request('GET', '/user/api-tokens/');
    expect(again.text).not.toContain(secret);
    expect(again.text).toContain(key!);
    expect(again.text).toContain('127.0.0.0/8, 10.0.0.0/8');
    // Another user's tokens are never shown, nor deletable.
    expect(again.text).not.toContain(erinToken.body.key);
    expect(again.text).not.toContain('erin secret');
    const foreign = await b.submit('/user/api-tokens/', `/user/api-tokens/${erinToken.body.id}/delete/`, {});
    expect(foreign.status).toBe(404);
    expect(foreign.headers.get('content-type')).toMatch(/text\/html/);
    expect((await app.api.get(`/api/users/tokens/${erinToken.body.id}/`)).status).toBe(200);

    const deleted = await b.submit('/user/api-tokens/', `/user/api-tokens/${stored[0].id}/delete/`, {});
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get('location')).toBe('/user/api-tokens/?deleted=1');
    expect((await b.request('GET', '/user/api-tokens/?deleted=1')).text).toContain('The token was deleted.');
    expect((await app.api.get(`/api/users/tokens/?user_id=${users.dave}`)).body.count).toBe(0);
    const revoked = await fetch(`${app.baseUrl}/api/authentication-check/`, { headers: { Authorization: header } });
    expect(revoked.status).toBe(403);
  });

  it('shows background tasks only with view permission, and requeues only with change permission', async () => {
    const dave = new Browser(app.baseUrl);
    await dave.signIn('dave', 'Page-Password-1');
    const denied = await dave.request('GET', '/core/background-tasks/');
    expect(denied.status).toBe(403);
    expect(denied.text).toContain('You do not have permission to perform this action.');

    const viewer = new Browser(app.baseUrl);
    await viewer.signIn('viewer', 'Page-Password-1');
    const list = await viewer.request('GET', '/core/background-tasks/');
    expect(list.status).toBe(200);
    expect(list.text).toContain('href="/core/background-tasks/"');
    expect(list.text).toMatch(/Failed <strong>2<\/strong>/);
    expect(list.text).toContain('Connection refused');
    expect(list.text).toContain('<details>');
    expect(list.text).toContain('page-site-1');
    expect(list.text).not.toContain('Requeue selected');
    const [failedId] = [...list.text.matchAll(/data-task-id="(\d+)" data-state="failed"/g)].map((m) => m[1]!);
    const refused = await viewer.submit('/core/background-tasks/', '/core/background-tasks/requeue/', {
      only: failedId!,
    });
    expect(refused.status).toBe(403);

    const paged = await viewer.request('GET', '/core/background-tasks/?state=failed&limit=1');
    expect(paged.text).toContain('Showing 1–1 of 2.');
    expect(paged.text).toContain('href="/core/background-tasks/?state=failed&amp;limit=1&amp;offset=1"');
    expect(paged.text).toContain('Page 1 of 2');

    const operator = new Browser(app.baseUrl);
    await operator.signIn('operator', 'Page-Password-1');
    const failed = await operator.request('GET', '/core/background-tasks/?state=failed');
    expect(failed.text).toContain('Requeue selected');
    const ids = [...failed.text.matchAll(/name="only" value="(\d+)"/g)].map((m) => m[1]!);
    expect(ids).toHaveLength(2);

    const one = await operator.submit('/core/background-tasks/?state=failed', '/core/background-tasks/requeue/', {
      only: ids[0]!,
      ids: ids,
      back: 'state=failed',
    });
    expect(one.status).toBe(303);
    expect(one.headers.get('location')).toBe('/core/background-tasks/?state=failed&requeued=1&selected=1');
    const task = (await app.api.get(`/api/core/background-tasks/${ids[0]}/`)).body;
    expect(task).toMatchObject({ status: 'queued', is_queued: true, ended_at: null, meta: { attempts: 0 } });
    const notice = await operator.request('GET', one.headers.get('location')!);
    expect(notice.text).toContain('Requeued 1 task.');

    // Selected boxes: the queued one is skipped, as the API skips it.
    const many = await operator.submit('/core/background-tasks/', '/core/background-tasks/requeue/', { ids });
    expect(many.headers.get('location')).toBe('/core/background-tasks/?requeued=1&selected=2');
    expect((await app.api.get('/api/core/background-tasks/?status=failed')).body.count).toBe(0);
    const none = await operator.submit('/core/background-tasks/', '/core/background-tasks/requeue/', {});
    expect((await operator.request('GET', none.headers.get('location')!)).text).toContain(
      'Select at least one failed task to requeue.',
    );
  });
});
