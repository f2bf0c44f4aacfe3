import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, TEST_PEPPER, type TestApp } from '../support/app.js';
import { tokenDigest } from '../../runtime/auth/tokens.js';

/** Users, v1/v2 tokens, provisioning and the authentication errors of NetBox (always 403, never 401). */
describe.each(DIALECTS)('authentication on %s', (dialect) => {
  let app: TestApp;
  let userId: number;
  beforeAll(async () => {
    app = await startTestApp(dialect, { settings: { ALLOW_TOKEN_V1: true, EXEMPT_VIEW_PERMISSIONS: ['dcim.site'] } });
    const user = await app.api.post('/api/users/users/', {
      username: 'alice',
      password: 'Alice-Password-1',
      first_name: 'Alice',
      last_name: 'Liddell',
    });
    expect(user.status, user.text).toBe(201);
    userId = user.body.id;
  });
  afterAll(async () => app?.close());

  it('hashes passwords and never returns them', async () => {
    const user = await app.api.get(`/api/users/users/${userId}/`);
    expect(user.body.display).toBe('alice (Alice Liddell)');
    expect(user.body.password).toBeUndefined();
    const row = await app.db.knex('users_user').where('id', userId).first();
    expect(row.password).toMatch(/^scrypt\$/);
    expect(row.password).not.toContain('Alice-Password-1');
    const invalid = await app.api.post('/api/users/users/', { username: 'bad name!', password: 'x' });
    expect(invalid.body.username[0]).toMatch(/^Enter a valid username/);
  });

  it('creates v2 tokens whose secret is shown once and stored only as an HMAC', async () => {
    const created = await app.api.post('/api/users/tokens/', { user: userId, description: 'ci' });
    expect(created.status, created.text).toBe(201);
    const { key, token, id } = created.body;
    expect(key).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(token).toMatch(/^[A-Za-z0-9]{40}$/);
    expect(created.body.display).toBe(key);
    expect(created.body.version).toBe(2);
    expect(created.body.pepper_id).toBe(1);
    expect((await app.api.get(`/api/users/tokens/${id}/`)).body.token).toBeNull();
    expect((await app.api.get(`/api/users/tokens/?id=${id}`)).body.results[0].token).toBeNull();

    const row = await app.db.knex('users_token').where('id', id).first();
    expect(row.hmac_digest).toBe(tokenDigest(TEST_PEPPER, token));
    expect(row.plaintext).toBeNull();
    expect(JSON.stringify(await app.db.knex('users_token').select('*'))).not.toContain(token);

    const as = app.api.as(`Bearer svc_${key}.${token}`);
    expect((await as.get('/api/users/tokens/')).status).toBe(200);
    const alsoToken = app.api.as(`Token svc_${key}.${token}`);
    expect((await alsoToken.get('/api/users/tokens/')).status).toBe(200);
    const wrongSecret = await app.api.as(`Bearer svc_${key}.${'x'.repeat(40)}`).get('/api/dcim/regions/');
    expect(wrongSecret.status).toBe(403);
    expect(wrongSecret.body).toEqual({ detail: 'Invalid v2 token' });
  });

  it('supports v1 tokens when allowed, masked in display', async () => {
    const secret = 'a'.repeat(34) + 'bcdef1';
    const created = await app.api.post('/api/users/tokens/', { user: userId, version: 1, token: secret });
    expect(created.status, created.text).toBe(201);
    expect(created.body.key).toBeNull();
    expect(created.body.display).toBe(`${'*'.repeat(34)}bcdef1`);
    expect((await app.api.as(`Token ${secret}`).get('/api/users/tokens/')).status).toBe(200);
    expect((await app.api.as(`Token ${'z'.repeat(40)}`).get('/api/users/tokens/')).body).toEqual({
      detail: 'Invalid v1 token',
    });
    const short = await app.api.post('/api/users/tokens/', { user: userId, version: 1, token: 'short' });
    expect(short.status).toBe(400);
  });

  it('answers every authentication failure with 403 and NetBox text', async () => {
    const cases: [string, string][] = [
      ['Bearer', 'Invalid authorization header: Must be in the form "Bearer <key>.<token>" or "Token <token>"'],
      [
        'Bearer svc_nodot',
        "Invalid authorization header: Could not parse key from v2 token. Did you mean to use 'Token' instead of 'Bearer'?",
      ],
      ['Token a b', 'Invalid authorization header: Must be in the form "Bearer <key>.<token>" or "Token <token>"'],
      ['Bearer svc_abc.def', 'Invalid v2 token'],
    ];
    for (const [header, detail] of cases) {
      const response = await app.api.as(header).get('/api/dcim/regions/');
      expect(response.status, header).toBe(403);
      expect(response.body).toEqual({ detail });
    }
    const anonymous = await app.anonymous.get('/api/dcim/regions/');
    expect(anonymous.status).toBe(403);
    expect(anonymous.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    const basic = await app.api.as('Basic YWxpY2U6eA==').get('/api/dcim/regions/');
    expect(basic.body).toEqual({ detail: 'Authentication credentials were not provided.' });
  });

  it('lets anonymous clients read exempt models only, and never write', async () => {
    expect((await app.anonymous.get('/api/dcim/sites/')).status).toBe(200);
    expect((await app.anonymous.get('/api/dcim/regions/')).status).toBe(403);
    const write = await app.anonymous.post('/api/dcim/sites/', { name: 'x', slug: 'x' });
    expect(write.status).toBe(403);
    expect(write.body).toEqual({ detail: 'Authentication credentials were not provided.' });
    expect((await app.anonymous.get('/api/')).status).toBe(200);
  });

  it('provisions tokens from a username and password', async () => {
    const bad = await app.anonymous.post('/api/users/tokens/provision/', { username: 'alice', password: 'wrong' });
    expect(bad.status).toBe(403);
    expect(bad.body).toEqual({ detail: 'Invalid username/password' });
    const unknown = await app.anonymous.post('/api/users/tokens/provision/', { username: 'nobody', password: 'x' });
    expect(unknown.body).toEqual({ detail: 'Invalid username/password' });
    const ok = await app.anonymous.post('/api/users/tokens/provision/', {
      username: 'alice',
      password: 'Alice-Password-1',
      description: 'laptop',
    });
    expect(ok.status, ok.text).toBe(201);
    expect(Object.keys(ok.body)).toEqual([
      'id',
      'url',
      'display_url',
      'display',
      'version',
      'user',
      'key',
      'created',
      'expires',
      'last_used',
      'enabled',
      'write_enabled',
      'description',
      'allowed_ips',
      'token',
    ]);
    expect(ok.body.user).toMatchObject({ id: userId, username: 'alice' });
    const alice = app.api.as(`Bearer svc_${ok.body.key}.${ok.body.token}`);
    // A non-superuser sees only their own tokens (DEFAULT_PERMISSIONS) and nothing else.
    const own = await alice.get('/api/users/tokens/');
    expect(own.status).toBe(200);
    expect(own.body.results.every((t: { user: { id: number } }) => t.user.id === userId)).toBe(true);
    expect((await alice.get('/api/users/tokens/1/')).status).toBe(404);
    const denied = await alice.get('/api/dcim/regions/');
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ detail: 'You do not have permission to perform this action.' });
    expect((await alice.post('/api/users/tokens/', { user: 1 })).status).toBe(403);
  });

  it('refuses expired, disabled, read-only and IP-restricted tokens as NetBox does', async () => {
    const make = async (body: Record<string, unknown>): Promise<string> => {
      const created = await app.api.post('/api/users/tokens/', { user: userId, ...body });
      expect(created.status, created.text).toBe(201);
      return `Bearer svc_${created.body.key}.${created.body.token}`;
    };
    const past = await app.api.post('/api/users/tokens/', { user: userId, expires: '2001-01-01T00:00:00Z' });
    expect(past.body.expires[0]).toMatch(/^Expiration time must be in the future\. Current server time is /);
    const disabled = await make({ enabled: false });
    expect((await app.api.as(disabled).get('/api/users/tokens/')).body).toEqual({ detail: 'Token disabled' });
    const readOnly = await make({ write_enabled: false });
    expect((await app.api.as(readOnly).get('/api/users/tokens/')).status).toBe(200);
    const write = await app.api.as(readOnly).post('/api/users/tokens/', { user: userId });
    expect(write.status).toBe(403);
    expect(write.body).toEqual({ detail: 'You do not have permission to perform this action.' });
    const elsewhere = await make({ allowed_ips: ['192.0.2.0/24'] });
    expect((await app.api.as(elsewhere).get('/api/users/tokens/')).body).toEqual({
      detail: 'Source IP 127.0.0.1 is not permitted to authenticate using this token.',
    });
    // A proxy header is not believed unless HTTP_CLIENT_IP_HEADERS names it.
    const spoofed = await app.api
      .as(elsewhere)
      .get('/api/users/tokens/', { headers: { 'X-Forwarded-For': '192.0.2.7' } });
    expect(spoofed.body).toEqual({ detail: 'Source IP 127.0.0.1 is not permitted to authenticate using this token.' });
    const here = await make({ allowed_ips: ['127.0.0.0/8', '::1'] });
    expect((await app.api.as(here).get('/api/users/tokens/')).status).toBe(200);
    const expiring = await make({ expires: new Date(Date.now() + 1500).toISOString() });
    expect((await app.api.as(expiring).get('/api/users/tokens/')).status).toBe(200); // now remembered as verified
    await new Promise((r) => setTimeout(r, 1600));
    expect((await app.api.as(expiring).get('/api/users/tokens/')).body).toEqual({ detail: 'Token expired' });

    const active = await make({});
    await app.api.patch(`/api/users/users/${userId}/`, { is_active: false });
    expect((await app.api.as(active).get('/api/users/tokens/')).body).toEqual({ detail: 'User inactive' });
    const provision = await app.anonymous.post('/api/users/tokens/provision/', {
      username: 'alice',
      password: 'Alice-Password-1',
    });
    expect(provision.body).toEqual({ detail: 'Invalid username/password' });
    await app.api.patch(`/api/users/users/${userId}/`, { is_active: true });
  });

  it('remembers verified tokens only briefly, and forgets them when tokens or users change', async () => {
    const created = await app.api.post('/api/users/tokens/', { user: userId });
    const auth = `Bearer svc_${created.body.key}.${created.body.token}`;
    expect((await app.api.as(auth).get('/api/users/tokens/')).status).toBe(200);
    // A change behind the service's back (another server process) is seen once the cache entry lapses.
    await app.db
      .knex('users_token')
      .where('id', created.body.id)
      .update({ enabled: dialect === 'sqlite' ? 0 : false });
    expect((await app.api.as(auth).get('/api/users/tokens/')).status).toBe(200);
    await new Promise((r) => setTimeout(r, app.context.settings.CACHE_SECONDS * 1000 + 100));
    expect((await app.api.as(auth).get('/api/users/tokens/')).body).toEqual({ detail: 'Token disabled' });
    // A change through the API is seen at once.
    const other = await app.api.post('/api/users/tokens/', { user: userId });
    const otherAuth = `Bearer svc_${other.body.key}.${other.body.token}`;
    expect((await app.api.as(otherAuth).get('/api/users/tokens/')).status).toBe(200);
    await app.api.patch(`/api/users/tokens/${other.body.id}/`, { enabled: false });
    expect((await app.api.as(otherAuth).get('/api/users/tokens/')).body).toEqual({ detail: 'Token disabled' });
  });

  it('records when a token was last used', async () => {
    const created = await app.api.post('/api/users/tokens/', { user: userId });
    expect(created.body.last_used).toBeNull();
    await app.api.as(`Bearer svc_${created.body.key}.${created.body.token}`).get('/api/users/tokens/');
    expect((await app.api.get(`/api/users/tokens/${created.body.id}/`)).body.last_used).toMatch(/^\d{4}-/);
  });

  it('refreshes last_used at most once a minute, and never in maintenance mode', async () => {
    const created = await app.api.post('/api/users/tokens/', { user: userId });
    const auth = `Bearer svc_${created.body.key}.${created.body.token}`;
    const lastUsed = async (): Promise<string | null> =>
      (await app.api.get(`/api/users/tokens/${created.body.id}/`)).body.last_used;
    const setLastUsed = (value: string) =>
      app.db.knex('users_token').where('id', created.body.id).update({ last_used: value });
    // 30 s ago: recent enough, left alone (the verified-token cache is bypassed by a fresh token string).
    const recent = new Date(Date.now() - 30_000).toISOString();
    await setLastUsed(recent);
    app.context.authenticator.invalidate();
    await app.api.as(auth).get('/api/dcim/regions/');
    expect(Date.parse((await lastUsed())!)).toBe(Date.parse(recent));
    // 2 minutes ago: refreshed.
    await setLastUsed(new Date(Date.now() - 120_000).toISOString());
    app.context.authenticator.invalidate();
    await app.api.as(auth).get('/api/dcim/regions/');
    expect(Date.now() - Date.parse((await lastUsed())!)).toBeLessThan(10_000);
  });
});

describe.each(DIALECTS)('token rules that depend on settings, on %s', (dialect) => {
  const OLD_PEPPER = 'old-pepper-'.padEnd(60, 'o');
  const NEW_PEPPER = 'new-pepper-'.padEnd(60, 'n');

  it('rotates peppers: new tokens use the highest id, a token whose pepper is gone stops working', async () => {
    const first = await startTestApp(dialect, { settings: { API_TOKEN_PEPPERS: { '1': OLD_PEPPER } } });
    let second: TestApp | undefined;
    let third: TestApp | undefined;
    try {
      const old = await first.api.post('/api/users/tokens/', { user: 1 });
      expect(old.body.pepper_id).toBe(1);
      // v1 tokens are refused unless ALLOW_TOKEN_V1 is set.
      const v1 = await first.api.post('/api/users/tokens/', { user: 1, version: 1, token: 'a'.repeat(40) });
      expect(v1.status).toBe(400);
      expect(v1.body.version[0]).toMatch(/v1 tokens are disabled/);
      const oldAuth = `Bearer svc_${old.body.key}.${old.body.token}`;

      // The same database, served with a second pepper: old tokens still work, new ones use pepper 2.
      const url = first.databaseUrl;
      second = await startTestApp(dialect, {
        settings: { API_TOKEN_PEPPERS: { '1': OLD_PEPPER, '2': NEW_PEPPER } },
        databaseUrl: url,
      });
      expect((await second.api.as(oldAuth).get('/api/dcim/sites/')).status).toBe(200);
      const fresh = await second.api.as(oldAuth).post('/api/users/tokens/', { user: 1 });
      expect(fresh.status, fresh.text).toBe(201);
      expect(fresh.body.pepper_id).toBe(2);
      const freshAuth = `Bearer svc_${fresh.body.key}.${fresh.body.token}`;

      // Pepper 1 retired: its tokens stop working, pepper 2's go on.
      third = await startTestApp(dialect, { settings: { API_TOKEN_PEPPERS: { '2': NEW_PEPPER } }, databaseUrl: url });
      expect((await third.api.as(oldAuth).get('/api/dcim/sites/')).body).toEqual({ detail: 'Invalid v2 token' });
      expect((await third.api.as(freshAuth).get('/api/dcim/sites/')).status).toBe(200);
    } finally {
      await third?.close({ keepDatabase: true });
      await second?.close({ keepDatabase: true });
      await first.close();
    }
  });

  it('records no token use in maintenance mode', async () => {
    const app = await startTestApp(dialect, { settings: { MAINTENANCE_MODE: true } });
    try {
      const rows = await app.db.knex('users_token').select('id', 'last_used');
      expect(rows.length).toBeGreaterThan(0);
      await app.api.get('/api/dcim/sites/');
      expect(await app.db.knex('users_token').select('id', 'last_used')).toEqual(rows);
    } finally {
      await app.close();
    }
  });
});
