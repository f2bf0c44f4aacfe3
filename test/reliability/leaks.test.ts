import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import { TINY_PNG } from '../support/fixtures.js';
import { account, PASSWORD, show } from './support.js';

const DENIED = { detail: 'You do not have permission to perform this action.' };
const NOT_GRANTED = { detail: 'This user does not have permission to create tokens for other users.' };

/**
 * A constrained user sees and reaches only what the constraints allow, on both databases alike: through
 * custom field objects, image attachment parents, case-sensitive lookups and token grants. And the smaller
 * holes: read-only tokens changing preferences, sessions outliving sign-out, webhooks aimed at metadata
 * services or any server file, custom fields for no object type.
 */
describe.each(DIALECTS)('permission boundaries on %s', (dialect) => {
  let app: TestApp;
  const ids: Record<string, number> = {};
  let leaks = 0;
  beforeAll(async () => {
    app = await startTestApp(dialect);
    const make = async (key: string, path: string, body: unknown): Promise<void> => {
      const created = await app.api.post(path, body);
      expect(created.status, show(created)).toBe(201);
      ids[key] = created.body.id;
    };
    await make('visible', '/api/dcim/sites/', { name: 'rel-visible', slug: 'rel-visible' });
    await make('hidden', '/api/dcim/sites/', { name: 'rel-hidden', slug: 'rel-hidden' });
    await make('maker', '/api/dcim/manufacturers/', { name: 'Maker', slug: 'maker' });
    await make('type', '/api/dcim/device-types/', { manufacturer: ids.maker, model: 'Box', slug: 'box' });
    await make('role', '/api/dcim/device-roles/', { name: 'Role', slug: 'role' });
    const fields = await app.api.post('/api/extras/custom-fields/', [
      { name: 'rel_site_ref', type: 'object', related_object_type: 'dcim.site', object_types: ['dcim.device'] },
      { name: 'rel_sites', type: 'multiobject', related_object_type: 'dcim.site', object_types: ['dcim.device'] },
    ]);
    expect(fields.status, show(fields)).toBe(201);
    await make('device', '/api/dcim/devices/', {
      name: 'dev',
      device_type: ids.type,
      role: ids.role,
      site: ids.visible,
      custom_fields: { rel_site_ref: ids.hidden, rel_sites: [ids.visible, ids.hidden] },
    });
  });
  afterAll(async () => {
    console.log(`permission boundaries on ${dialect}: ${leaks} leaks`);
    await app?.close();
  });

  /** A user who may see and change every device and image attachment, and only the site `rel-visible`. */
  const constrained = (username: string) =>
    account(app, username, [
      { object_types: ['dcim.device', 'extras.imageattachment'], actions: ['view', 'add', 'change'] },
      { object_types: ['dcim.site'], actions: ['view'], constraints: { name: 'rel-visible' } },
    ]);

  it('shows no hidden object through a custom field, and accepts none as a value', async () => {
    const { client } = await constrained('cf-user');
    const device = await client.get(`/api/dcim/devices/${ids.device}/`);
    expect(device.status).toBe(200);
    if (device.text.includes('rel-hidden')) leaks += 1;
    expect(device.body.custom_fields.rel_site_ref).toBeNull();
    expect(device.body.custom_fields.rel_sites.map((s: { id: number }) => s.id)).toEqual([ids.visible]);
    const list = await client.get(`/api/dcim/devices/?id=${ids.device}`);
    if (list.text.includes('rel-hidden')) leaks += 1;
    expect(list.text).not.toContain('rel-hidden');

    for (const value of [ids.hidden, { name: 'rel-hidden' }, { slug: 'rel-hidden' }]) {
      const refused = await client.patch(`/api/dcim/devices/${ids.device}/`, {
        custom_fields: { rel_site_ref: value },
      });
      expect(refused.status, show(refused)).toBe(400);
      if (refused.text.includes('rel-hidden"')) leaks += 1;
    }
    const many = await client.patch(`/api/dcim/devices/${ids.device}/`, {
      custom_fields: { rel_sites: [ids.visible, ids.hidden] },
    });
    expect(many.status, show(many)).toBe(400);
    const allowed = await client.patch(`/api/dcim/devices/${ids.device}/`, {
      custom_fields: { rel_site_ref: { name: 'rel-visible' } },
    });
    expect(allowed.status, show(allowed)).toBe(200);
    expect(allowed.body.custom_fields.rel_site_ref.id).toBe(ids.visible);
    expect(leaks).toBe(0);
  });

  it('attaches no image to a hidden object, and shows no hidden parent', async () => {
    const { client } = await constrained('image-user');
    const image = (objectId: number) => ({
      object_type: 'dcim.site',
      object_id: objectId,
      name: `on ${objectId}`,
      image: new File([TINY_PNG], 'plan.png', { type: 'image/png' }),
    });
    const refused = await client.post('/api/extras/image-attachments/', image(ids.hidden!));
    expect(refused.status, show(refused)).toBe(400);
    expect(refused.body).toEqual({ object_id: [`Related object not found using the provided value: ${ids.hidden}.`] });
    const missing = await client.post('/api/extras/image-attachments/', image(999_999));
    // A hidden parent and a missing one look the same.
    expect(missing.body).toEqual({ object_id: ['Related object not found using the provided value: 999999.'] });
    const accepted = await client.post('/api/extras/image-attachments/', image(ids.visible!));
    expect(accepted.status, show(accepted)).toBe(201);
    expect(accepted.body.parent.name).toBe('rel-visible');

    const theirs = await app.api.post('/api/extras/image-attachments/', image(ids.hidden!));
    expect(theirs.status, show(theirs)).toBe(201);
    const list = await client.get('/api/extras/image-attachments/');
    if (list.text.includes('rel-hidden')) leaks += 1;
    const parents = Object.fromEntries(
      (list.body.results as { object_id: number; parent: { name: string } | null }[]).map((a) => [
        a.object_id,
        a.parent,
      ]),
    );
    expect(parents[ids.hidden!]).toBeNull();
    expect(parents[ids.visible!]).toMatchObject({ name: 'rel-visible' });
  });

  it('compares case-sensitive constraint lookups case-sensitively, as PostgreSQL does', async () => {
    const created = await app.api.post('/api/tenancy/tenants/', [
      { name: 'CaseX-1', slug: 'case-1' },
      { name: 'CASEXY-2', slug: 'case-2' },
      { name: 'casex-3', slug: 'case-3' },
      { name: 'a-CaseX-4', slug: 'case-4' },
      { name: 'wild*[x]?-5', slug: 'case-5' },
    ]);
    expect(created.status, show(created)).toBe(201);
    const names = async (constraints: unknown, username: string): Promise<string[]> => {
      const { client } = await account(app, username, [
        { object_types: ['tenancy.tenant'], actions: ['view'], constraints },
      ]);
      const response = await client.get('/api/tenancy/tenants/?ordering=name');
      return (response.body.results as { name: string }[]).map((t) => t.name);
    };
    expect(await names({ name__startswith: 'CaseX' }, 'case-sw')).toEqual(['CaseX-1']);
    expect(await names({ name__contains: 'CaseX' }, 'case-c')).toEqual(['CaseX-1', 'a-CaseX-4']);
    expect(await names({ name__endswith: 'x-3' }, 'case-ew')).toEqual(['casex-3']);
    expect(await names({ name__istartswith: 'casex' }, 'case-isw')).toEqual(['CASEXY-2', 'CaseX-1', 'casex-3']);
    expect(await names({ name__contains: '*[x]?' }, 'case-wild')).toEqual(['wild*[x]?-5']);
    expect(await names({ name__startswith: 'w%' }, 'case-percent')).toEqual([]);
  });

  it('honours the constraints of the grant permission when tokens are made for other users', async () => {
    const plain = await account(app, 'grant-target', []);
    const admin = (await app.api.get('/api/users/users/?username=admin')).body.results[0].id as number;
    const granter = async (username: string, constraints: unknown) =>
      (
        await account(app, username, [
          { object_types: ['users.token'], actions: ['add', 'view'] },
          { object_types: ['users.token'], actions: ['grant'], constraints },
        ])
      ).client;

    const notSuper = await granter('grant-not-super', { user__is_superuser: false });
    const toAdmin = await notSuper.post('/api/users/tokens/', { user: admin });
    expect(toAdmin.status, show(toAdmin)).toBe(403);
    expect(toAdmin.body).toEqual(NOT_GRANTED);
    expect((await notSuper.post('/api/users/tokens/', { user: plain.id })).status).toBe(201);

    const self = await granter('grant-self', { user: '$user' });
    expect((await self.post('/api/users/tokens/', { user: plain.id })).body).toEqual(NOT_GRANTED);
    // A constraint on another token field cannot be met by a token that does not exist yet (NetBox).
    const writable = await granter('grant-writable', { write_enabled: true });
    expect((await writable.post('/api/users/tokens/', { user: plain.id, write_enabled: true })).body).toEqual(
      NOT_GRANTED,
    );
    const either = await granter('grant-either', [{ user__username: 'nobody' }, { user__username: 'grant-target' }]);
    expect((await either.post('/api/users/tokens/', { user: plain.id })).status).toBe(201);
    expect((await app.api.get(`/api/users/tokens/?user_id=${admin}`)).body.count).toBe(1);
  });

  it('lets no read-only token change the user preferences', async () => {
    const { client } = await account(app, 'reader', [], { write_enabled: false });
    const refused = await client.patch('/api/users/config/', { theme: 'dark' });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual(DENIED);
    expect((await client.get('/api/users/config/')).body).toEqual({});
  });

  it('ends the session on the server when signing out: the old cookie stops working', async () => {
    await account(app, 'browser-user', []);
    const cookies = new Map<string, string>();
    const send = async (method: string, path: string, form?: Record<string, string>) => {
      const headers: Record<string, string> = { Cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
      if (form) headers['Content-Type'] = 'application/x-www-form-urlencoded';
      const response = await app.anonymous.request(method, path, {
        headers,
        raw: form ? new URLSearchParams(form).toString() : undefined,
      });
      for (const line of response.headers.getSetCookie()) {
        const [name, value] = line.split(';')[0]!.split('=') as [string, string];
        if (value) cookies.set(name, value);
      }
      return response;
    };
    const csrf = (html: string): string => /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(html)![1]!;
    const page = await send('GET', '/login/');
    const signedIn = await send('POST', '/login/', {
      csrfmiddlewaretoken: csrf(page.text),
      username: 'browser-user',
      password: PASSWORD,
    });
    expect(signedIn.status).toBe(303);
    const session = cookies.get('sessionid')!;
    expect((await send('GET', '/api/authentication-check/')).status).toBe(200);
    const out = await send('GET', '/logout/');
    expect((await send('POST', '/logout/', { csrfmiddlewaretoken: csrf(out.text) })).status).toBe(303);
    const replayed = await app.anonymous.get('/api/authentication-check/', {
      headers: { Cookie: `sessionid=${session}` },
    });
    expect(replayed.status).toBe(403);
    // Signing in again opens a new session.
    const again = await send('GET', '/login/');
    await send('POST', '/login/', {
      csrfmiddlewaretoken: csrf(again.text),
      username: 'browser-user',
      password: PASSWORD,
    });
    expect((await send('GET', '/api/authentication-check/')).status).toBe(200);
  });

  it('refuses webhooks aimed at link-local or metadata addresses, and CA files outside allowed folders', async () => {
    const webhook = (extra: Record<string, unknown>) =>
      app.api.post('/api/extras/webhooks/', {
        name: `hook-${Math.random()}`,
        payload_url: 'https://example.com/',
        ...extra,
      });
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/',
      'http://[::ffff:169.254.169.254]/',
      'http://0.0.0.0:8080/',
      'http://100.100.100.200/',
    ]) {
      const refused = await webhook({ payload_url: url });
      expect(refused.status, `${url}: ${show(refused)}`).toBe(400);
      expect(refused.body.payload_url[0]).toMatch(/WEBHOOK_DENIED_NETWORKS/);
    }
    expect((await webhook({ payload_url: 'http://127.0.0.1:9000/hook' })).status).toBe(201);
    const ca = await webhook({ ca_file_path: '/etc/passwd' });
    expect(ca.status).toBe(400);
    expect(ca.body.ca_file_path[0]).toMatch(/WEBHOOK_CA_FILE_DIRS/);
  });

  it('refuses a custom field for no object type, and a __proto__ custom field', async () => {
    const empty = await app.api.post('/api/extras/custom-fields/', {
      name: 'for_nothing',
      type: 'text',
      object_types: [],
    });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ object_types: ['This list may not be empty.'] });
    const proto = await app.api.request('PATCH', `/api/dcim/devices/${ids.device}/`, {
      raw: '{"custom_fields": {"__proto__": {"polluted": true}}}',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(proto.status).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
