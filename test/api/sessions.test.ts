import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/** A browser: keeps cookies between requests, sends forms, never follows redirects. */
class Browser {
  readonly cookies = new Map<string, string>();
  constructor(
    private readonly baseUrl: string,
    /** Client address claimed through the trusted proxy header (HTTP_CLIENT_IP_HEADERS). */
    private readonly address: string,
  ) {}

  async request(
    method: string,
    path: string,
    options: { form?: Record<string, string>; json?: unknown; headers?: Record<string, string> } = {},
  ): Promise<{ status: number; headers: Headers; text: string; body: any }> {
    const headers: Record<string, string> = { 'X-Forwarded-For': this.address, ...options.headers };
    if (this.cookies.size > 0) headers.Cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined;
    if (options.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    } else if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, value] = pair!.split('=') as [string, string];
      const expired = attributes.some((a) => /expires=Thu, 01 Jan 1970/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    const text = await response.text();
    const json = (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : undefined;
    return { status: response.status, headers: response.headers, text, body: json };
  }

  /** Opens the sign-in page and submits it. */
  async signIn(username: string, password: string, next?: string) {
    const page = await this.request('GET', `/login/${next ? `?next=${encodeURIComponent(next)}` : ''}`);
    const csrf = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(page.text)![1]!;
    const hidden = /name="next" value="([^"]*)"/.exec(page.text)![1]!;
    return this.request('POST', '/login/', {
      form: { csrfmiddlewaretoken: csrf, username, password, next: hidden.replace(/&amp;/g, '&') },
    });
  }
}

describe.each(DIALECTS)('browser sessions and sign-in throttling on %s', (dialect) => {
  let app: TestApp;
  let userId: number;
  let lastAddress = 10;
  const browser = (): Browser => new Browser(app.baseUrl, `198.51.100.${(lastAddress += 1)}`);

  beforeAll(async () => {
    app = await startTestApp(dialect, {
      settings: { LOGIN_FAILURE_LIMIT: 3, LOGIN_FAILURE_WINDOW: 60, HTTP_CLIENT_IP_HEADERS: ['X-Forwarded-For'] },
    });
    const user = await app.api.post('/api/users/users/', { username: 'carol', password: 'Carol-Password-1' });
    expect(user.status, user.text).toBe(201);
    userId = user.body.id;
    const permission = await app.api.post('/api/users/permissions/', {
      name: 'sites',
      object_types: ['dcim.site'],
      actions: ['view', 'add', 'change', 'delete'],
      users: [userId],
    });
    expect(permission.status, permission.text).toBe(201);
  });
  afterAll(async () => app?.close());

  it('signs in with a CSRF-protected form and authenticates API requests with the session cookie', async () => {
    const b = browser();
    const page = await b.request('GET', '/login/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.text).toContain('<form method="post"');
    expect(b.cookies.get('csrftoken')).toMatch(/^[A-Za-z0-9_-]{20,}$/);

    // Without the form's CSRF token nothing happens.
    const forged = await b.request('POST', '/login/', { form: { username: 'carol', password: 'Carol-Password-1' } });
    expect(forged.status).toBe(403);
    expect(b.cookies.has('sessionid')).toBe(false);

    const wrong = await b.signIn('carol', 'not-the-password');
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('Please enter a correct username and password.');
    expect(b.cookies.has('sessionid')).toBe(false);

    const before = b.cookies.get('csrftoken');
    const signedIn = await b.signIn('carol', 'Carol-Password-1', '/api/dcim/sites/?limit=1');
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/api/dcim/sites/?limit=1');
    const setCookie = signedIn.headers.getSetCookie().find((c) => c.startsWith('sessionid='))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(b.cookies.get('csrftoken')).not.toBe(before);

    const me = await b.request('GET', '/api/authentication-check/');
    expect(me.status).toBe(200);
    expect(me.body.username).toBe('carol');
    expect(me.body.last_login).not.toBeNull();
    expect((await b.request('GET', '/api/dcim/sites/')).status).toBe(200);
  });

  it('requires the CSRF header on unsafe requests made with a session, and never with a token', async () => {
    const b = browser();
    expect((await b.signIn('carol', 'Carol-Password-1')).status).toBe(303);
    const site = { name: 'Session site', slug: 'session-site' };

    const missing = await b.request('POST', '/api/dcim/sites/', { json: site });
    expect(missing.status).toBe(403);
    expect(missing.body).toEqual({ detail: 'CSRF Failed: CSRF token missing.' });
    const incorrect = await b.request('POST', '/api/dcim/sites/', {
      json: site,
      headers: { 'X-CSRFToken': 'x'.repeat(32) },
    });
    expect(incorrect.body).toEqual({ detail: 'CSRF Failed: CSRF token incorrect.' });
    expect((await app.api.get('/api/dcim/sites/?slug=session-site')).body.count).toBe(0);

    const created = await b.request('POST', '/api/dcim/sites/', {
      json: site,
      headers: { 'X-CSRFToken': b.cookies.get('csrftoken')! },
    });
    expect(created.status, created.text).toBe(201);
    const removed = await b.request('DELETE', `/api/dcim/sites/${created.body.id}/`, {
      headers: { 'X-CSRFToken': b.cookies.get('csrftoken')! },
    });
    expect(removed.status).toBe(204);

    // A token request is not a session request, whatever cookies come along.
    const withToken = await b.request('POST', '/api/dcim/sites/', {
      json: { name: 'Token site', slug: 'token-site' },
      headers: { Authorization: app.adminAuth },
    });
    expect(withToken.status, withToken.text).toBe(201);
  });

  it('only redirects within the site after signing in', async () => {
    for (const next of ['//evil.example/', 'https://evil.example/', '/\\evil.example']) {
      const b = browser();
      const response = await b.signIn('carol', 'Carol-Password-1', next);
      expect(response.status).toBe(303);
      expect(response.headers.get('location')).toBe('/api/');
    }
  });

  it('ends sessions on sign-out, tampering, a password change or deactivation', async () => {
    const b = browser();
    await b.signIn('carol', 'Carol-Password-1');
    const cookie = b.cookies.get('sessionid')!;

    const tampered = new Browser(app.baseUrl, '198.51.100.200');
    const [payload, signature] = cookie.split('.');
    const other = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), u: 1 }),
    ).toString('base64url');
    tampered.cookies.set('sessionid', `${other}.${signature}`);
    expect((await tampered.request('GET', '/api/authentication-check/')).body).toEqual({
      detail: 'Authentication credentials were not provided.',
    });

    const logoutPage = await b.request('GET', '/logout/');
    const csrf = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(logoutPage.text)![1]!;
    const loggedOut = await b.request('POST', '/logout/', { form: { csrfmiddlewaretoken: csrf } });
    expect(loggedOut.status).toBe(303);
    expect(b.cookies.has('sessionid')).toBe(false);
    expect((await b.request('GET', '/api/authentication-check/')).status).toBe(403);

    const second = browser();
    await second.signIn('carol', 'Carol-Password-1');
    expect((await second.request('GET', '/api/authentication-check/')).status).toBe(200);
    await app.api.patch(`/api/users/users/${userId}/`, { is_active: false });
    expect((await second.request('GET', '/api/authentication-check/')).status).toBe(403);
    expect((await browser().signIn('carol', 'Carol-Password-1')).status).toBe(400);
    await app.api.patch(`/api/users/users/${userId}/`, { is_active: true });
    expect((await second.request('GET', '/api/authentication-check/')).status).toBe(200);
    await app.api.patch(`/api/users/users/${userId}/`, { password: 'Carol-Password-2' });
    expect((await second.request('GET', '/api/authentication-check/')).status).toBe(403);
    await app.api.patch(`/api/users/users/${userId}/`, { password: 'Carol-Password-1' });
  });

  it('slows down repeated failed provisioning per address and username, then lets others through', async () => {
    const b = browser();
    const provision = (username: string, password: string) =>
      b.request('POST', '/api/users/tokens/provision/', { json: { username, password } });
    for (let i = 0; i < 3; i += 1) {
      const failed = await provision('carol', 'wrong-password');
      expect(failed.status).toBe(403);
      expect(failed.body).toEqual({ detail: 'Invalid username/password' });
    }
    const throttled = await provision('carol', 'Carol-Password-1');
    expect(throttled.status).toBe(429);
    expect(throttled.body.detail).toMatch(/^Request was throttled\. Expected available in \d+ seconds\.$/);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(throttled.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    // The sign-in page shares the counter.
    expect((await b.signIn('carol', 'Carol-Password-1')).status).toBe(429);
    // Another address is not affected, and a success clears that address's failures.
    const elsewhere = browser();
    const ok = await elsewhere.request('POST', '/api/users/tokens/provision/', {
      json: { username: 'carol', password: 'Carol-Password-1' },
    });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.token).toMatch(/^[A-Za-z0-9]{40}$/);
  });

  it('also limits one address guessing across many usernames', async () => {
    const b = browser();
    for (let i = 0; i < 12; i += 1) {
      const failed = await b.request('POST', '/api/users/tokens/provision/', {
        json: { username: `nobody-${i}`, password: 'wrong-password' },
      });
      expect(failed.status).toBe(403);
    }
    const throttled = await b.request('POST', '/api/users/tokens/provision/', {
      json: { username: 'carol', password: 'Carol-Password-1' },
    });
    expect(throttled.status).toBe(429);
  });

  it('uses the trusted proxy header for allowed_ips when configured', async () => {
    const created = await app.api.post('/api/users/tokens/', { user: userId, allowed_ips: ['203.0.113.0/24'] });
    const auth = `Bearer svc_${created.body.key}.${created.body.token}`;
    const from = (address: string) =>
      app.api.as(auth).get('/api/dcim/sites/', { headers: { 'X-Forwarded-For': `${address}, 10.0.0.1` } });
    expect((await from('203.0.113.9')).status).toBe(200);
    expect((await from('192.0.2.9')).body).toEqual({
      detail: 'Source IP 192.0.2.9 is not permitted to authenticate using this token.',
    });
    // Without the header, the socket's address counts.
    expect((await app.api.as(auth).get('/api/dcim/sites/')).body).toEqual({
      detail: 'Source IP 127.0.0.1 is not permitted to authenticate using this token.',
    });
  });

  it('lets Swagger UI send the CSRF cookie with session calls', async () => {
    const init = await fetch(`${app.baseUrl}/api/schema/swagger-ui/init.js`);
    const script = await init.text();
    expect(script).toContain('requestInterceptor');
    expect(script).toContain('X-CSRFToken');
  });
});
