import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Settings } from '../../runtime/config.js';
import { DIALECTS, setSuperuser, startTestApp, type TestApp } from '../support/app.js';
import type { ApiClient, ApiResponse } from '../support/client.js';

const DENIED = { detail: 'You do not have permission to perform this action.' };
const ANONYMOUS = { detail: 'Authentication credentials were not provided.' };
const PASSWORD = 'Strong-Password-1';

interface Account {
  id: number;
  client: ApiClient;
}

/** Creates users, tokens and permissions through the superuser's API. */
function helpers(app: () => TestApp) {
  const account = async (username: string, body: Record<string, unknown> = {}): Promise<Account> => {
    const user = await app().api.post('/api/users/users/', { username, password: PASSWORD, ...body });
    expect(user.status, user.text).toBe(201);
    const token = await app().api.post('/api/users/tokens/', { user: user.body.id });
    expect(token.status, token.text).toBe(201);
    return { id: user.body.id, client: app().api.as(`Bearer svc_${token.body.key}.${token.body.token}`) };
  };
  let seq = 0;
  const permission = async (body: Record<string, unknown>): Promise<number> => {
    seq += 1;
    const created = await app().api.post('/api/users/permissions/', { name: `perm-${seq}`, ...body });
    expect(created.status, created.text).toBe(201);
    return created.body.id as number;
  };
  return { account, permission };
}

/** The `name`s of a list response, in order. */
const names = (response: ApiResponse): string[] =>
  (response.body.results as { name: string }[]).map((object) => object.name);

/**
 * NetBox's object permissions over HTTP: constraints restrict lists, details and writes; permissions reach
 * users directly and through groups; DEFAULT_PERMISSIONS, EXEMPT_VIEW_PERMISSIONS and LOGIN_REQUIRED; the
 * users, groups and permissions endpoints themselves.
 */
describe.each(DIALECTS)('object permissions on %s', (dialect) => {
  let app: TestApp;
  const { account, permission } = helpers(() => app);
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    app = await startTestApp(dialect);
    const make = async (path: string, key: string, body: Record<string, unknown>): Promise<void> => {
      const created = await app.api.post(path, body);
      expect(created.status, created.text).toBe(201);
      ids[key] = created.body.id;
    };
    await make('/api/tenancy/tenants/', 'tenantA', { name: 'Tenant A', slug: 'tenant-a' });
    await make('/api/tenancy/tenants/', 'tenantB', { name: 'Tenant B', slug: 'tenant-b' });
    await make('/api/extras/tags/', 'gold', { name: 'Gold', slug: 'gold' });
    await make('/api/extras/tags/', 'silver', { name: 'Silver', slug: 'silver' });
    await make('/api/dcim/sites/', 'alpha', {
      name: 'alpha',
      slug: 'alpha',
      status: 'active',
      tenant: ids.tenantA,
      tags: [{ slug: 'gold' }],
    });
    await make('/api/dcim/sites/', 'beta', { name: 'beta', slug: 'beta', status: 'planned', tenant: ids.tenantB });
    await make('/api/dcim/sites/', 'gamma', { name: 'gamma', slug: 'gamma', status: 'active', tags: [ids.silver] });
    await make('/api/dcim/sites/', 'hidden', { name: 'hidden', slug: 'hidden', status: 'retired' });
    await make('/api/dcim/manufacturers/', 'maker', { name: 'Maker', slug: 'maker' });
    await make('/api/dcim/device-types/', 'type', { manufacturer: ids.maker, model: 'Box', slug: 'box' });
    await make('/api/dcim/device-roles/', 'role', { name: 'Router', slug: 'router' });
    const device = { device_type: ids.type, role: ids.role };
    await make('/api/dcim/devices/', 'alpha1', { ...device, name: 'alpha-1', site: ids.alpha });
    await make('/api/dcim/devices/', 'alpha2', { ...device, name: 'alpha-2', site: ids.alpha });
    await make('/api/dcim/devices/', 'beta1', { ...device, name: 'beta-1', site: ids.beta });
    await make('/api/dcim/devices/', 'hidden1', { ...device, name: 'hidden-1', site: ids.hidden });
  });
  afterAll(async () => app?.close());

  /** A site created by the superuser for one test. */
  const site = async (name: string, body: Record<string, unknown> = {}): Promise<number> => {
    const created = await app.api.post('/api/dcim/sites/', { name, slug: name, ...body });
    expect(created.status, created.text).toBe(201);
    return created.body.id as number;
  };

  describe('constraints', () => {
    it('treat a dict as AND and a list of dicts as OR; lists and counts show only permitted objects', async () => {
      const user = await account('and-or');
      await permission({
        object_types: ['dcim.site'],
        actions: ['view'],
        constraints: [{ status: 'active', tenant__isnull: false }, { slug: 'beta' }],
        users: [user.id],
      });
      const list = await user.client.get('/api/dcim/sites/');
      expect(list.status).toBe(200);
      expect(list.body.count).toBe(2);
      expect(names(list)).toEqual(['alpha', 'beta']);
      // Filters narrow the permitted objects further; pagination counts only them.
      expect(names(await user.client.get('/api/dcim/sites/?status=active'))).toEqual(['alpha']);
      const page = await user.client.get('/api/dcim/sites/?limit=1');
      expect(page.body.count).toBe(2);
      expect(page.body.next).toContain('offset=1');
      expect((await user.client.get('/api/dcim/sites/?limit=1&offset=1')).body.results[0].name).toBe('beta');
      expect((await user.client.get(`/api/dcim/sites/${ids.alpha}/`)).status).toBe(200);
      const outside = await user.client.get(`/api/dcim/sites/${ids.gamma}/`);
      expect(outside.status).toBe(404);
      expect(outside.body).toEqual({ detail: 'No Site matches the given query.' });
    });

    it('support __in, __isnull, text lookups, foreign-key paths, pk and <fk>_id', async () => {
      const cases: [string, Record<string, unknown>, string, string[]][] = [
        ['in', { status__in: ['planned', 'retired'] }, 'sites', ['beta', 'hidden']],
        ['isnull', { tenant__isnull: true }, 'sites', ['gamma', 'hidden']],
        ['notnull', { tenant__isnull: false, status: 'active' }, 'sites', ['alpha']],
        ['icontains', { name__icontains: 'AMM' }, 'sites', ['gamma']],
        ['pk', { pk: ids.beta! }, 'sites', ['beta']],
        [
          'timestamp',
          { created__gte: '2000-01-01T00:00:00Z', slug__in: ['alpha', 'beta'] },
          'sites',
          ['alpha', 'beta'],
        ],
        ['id-text', { id__in: [String(ids.gamma)] }, 'sites', ['gamma']],
        ['slug-path', { site__slug: 'alpha' }, 'devices', ['alpha-1', 'alpha-2']],
        ['two-hops', { site__tenant__slug: 'tenant-b' }, 'devices', ['beta-1']],
        ['attname', { site_id: ids.hidden! }, 'devices', ['hidden-1']],
        ['path-in', { site__status__in: ['retired', 'planned'] }, 'devices', ['beta-1', 'hidden-1']],
      ];
      for (const [name, constraints, path, expected] of cases) {
        const user = await account(`lookup-${name}`);
        const label = path === 'sites' ? 'dcim.site' : 'dcim.device';
        await permission({ object_types: [label], actions: ['view'], constraints, users: [user.id] });
        const list = await user.client.get(`/api/dcim/${path}/?ordering=name`);
        expect(list.status, name).toBe(200);
        expect(names(list), name).toEqual(expected);
        expect(list.body.count, name).toBe(expected.length);
      }
    });

    it('substitute $user with the requesting user, also inside lists', async () => {
      const user = await account('dollar-user');
      await permission({
        object_types: ['users.user'],
        actions: ['view'],
        constraints: { id__in: ['$user', 1] },
        users: [user.id],
      });
      const list = await user.client.get('/api/users/users/');
      expect(list.status).toBe(200);
      expect((list.body.results as { username: string }[]).map((u) => u.username)).toEqual(['admin', 'dollar-user']);
      const other = await account('dollar-other');
      expect((await user.client.get(`/api/users/users/${other.id}/`)).status).toBe(404);
    });

    it('follow many-to-many paths: an object matches when any related object does', async () => {
      const cases: [string, Record<string, unknown>, string[]][] = [
        ['tag', { tags__slug: 'gold' }, ['alpha']],
        ['tags-in', { tags__slug__in: ['gold', 'silver'] }, ['alpha', 'gamma']],
        ['tag-id', { tags: ids.silver! }, ['gamma']],
        ['untagged', { tags__isnull: true, slug__in: ['alpha', 'beta', 'gamma', 'hidden'] }, ['beta', 'hidden']],
        ['tagged', { tags__isnull: false }, ['alpha', 'gamma']],
      ];
      for (const [name, constraints, expected] of cases) {
        const user = await account(`m2m-${name}`);
        await permission({ object_types: ['dcim.site'], actions: ['view'], constraints, users: [user.id] });
        const list = await user.client.get('/api/dcim/sites/');
        expect(names(list), name).toEqual(expected);
      }
      // A many-to-many field of the model itself: users that belong to a group named "m2m-team".
      const team = await app.api.post('/api/users/groups/', { name: 'm2m-team' });
      const member = await account('m2m-member', { groups: [team.body.id] });
      const viewer = await account('m2m-viewer');
      await permission({
        object_types: ['users.user'],
        actions: ['view'],
        constraints: { groups__name: 'm2m-team' },
        users: [viewer.id],
      });
      const users = await viewer.client.get('/api/users/users/');
      expect((users.body.results as { id: number }[]).map((u) => u.id)).toEqual([member.id]);
    });

    it('apply many-to-many paths to writes: a new object must carry a permitted tag', async () => {
      const user = await account('m2m-writer');
      await permission({
        object_types: ['dcim.site'],
        actions: ['view', 'add'],
        constraints: { tags__slug: 'gold' },
        users: [user.id],
      });
      const tagged = await user.client.post('/api/dcim/sites/', { name: 'm2m-w1', slug: 'm2m-w1', tags: [ids.gold] });
      expect(tagged.status, tagged.text).toBe(201);
      const untagged = await user.client.post('/api/dcim/sites/', { name: 'm2m-w2', slug: 'm2m-w2' });
      expect(untagged.status).toBe(403);
      expect((await app.api.get('/api/dcim/sites/?slug=m2m-w2')).body.count).toBe(0);
    });
  });

  describe('writes', () => {
    it('answer 404 for objects outside the constraints on GET, PUT, PATCH and DELETE', async () => {
      const user = await account('outside');
      await permission({
        object_types: ['dcim.site'],
        actions: ['view', 'change', 'delete'],
        constraints: { status: 'active' },
        users: [user.id],
      });
      const url = `/api/dcim/sites/${ids.hidden}/`;
      const notFound = { detail: 'No Site matches the given query.' };
      for (const response of [
        await user.client.get(url),
        await user.client.patch(url, { description: 'touched' }),
        await user.client.put(url, { name: 'hidden', slug: 'hidden', status: 'active' }),
        await user.client.delete(url),
      ]) {
        expect(response.status).toBe(404);
        expect(response.body).toEqual(notFound);
      }
      const unchanged = await app.api.get(url);
      expect(unchanged.body).toMatchObject({ status: { value: 'retired' }, description: '' });
    });

    it('restrict a write by the action: visible but not changeable is 404 too', async () => {
      const user = await account('view-all-change-some');
      await permission({ object_types: ['dcim.site'], actions: ['view'], users: [user.id] });
      await permission({
        object_types: ['dcim.site'],
        actions: ['change'],
        constraints: { status: 'active' },
        users: [user.id],
      });
      expect((await user.client.get(`/api/dcim/sites/${ids.beta}/`)).status).toBe(200);
      expect((await user.client.patch(`/api/dcim/sites/${ids.beta}/`, { description: 'x' })).status).toBe(404);
      expect((await user.client.delete(`/api/dcim/sites/${ids.alpha}/`)).body).toEqual(DENIED);
    });

    it('refuse a create outside the constraints with 403 and store nothing', async () => {
      const user = await account('creator');
      await permission({
        object_types: ['dcim.site'],
        actions: ['view', 'add'],
        constraints: { tenant__slug: 'tenant-a' },
        users: [user.id],
      });
      // The tenant is given by id: the user may not view tenants, but ids are not looked up among viewable ones.
      const inside = await user.client.post('/api/dcim/sites/', { name: 'c-in', slug: 'c-in', tenant: ids.tenantA });
      expect(inside.status, inside.text).toBe(201);
      const changesBefore = (await app.api.get('/api/core/object-changes/?limit=1')).body.count as number;
      for (const body of [
        { name: 'c-out', slug: 'c-out', tenant: ids.tenantB },
        { name: 'c-out', slug: 'c-out' },
      ]) {
        const outside = await user.client.post('/api/dcim/sites/', body);
        expect(outside.status).toBe(403);
        expect(outside.body).toEqual(DENIED);
      }
      expect((await app.api.get('/api/dcim/sites/?slug=c-out')).body.count).toBe(0);
      expect((await app.api.get('/api/core/object-changes/?limit=1')).body.count).toBe(changesBefore);
    });

    it('refuse a PATCH that would move an object outside its constraints, leaving it unchanged', async () => {
      const user = await account('mover');
      await permission({
        object_types: ['dcim.site'],
        actions: ['view', 'change'],
        constraints: { status: 'active' },
        users: [user.id],
      });
      const id = await site('movable', { status: 'active' });
      const changesBefore = (await app.api.get('/api/core/object-changes/?limit=1')).body.count as number;
      const moved = await user.client.patch(`/api/dcim/sites/${id}/`, { status: 'planned', description: 'moved' });
      expect(moved.status).toBe(403);
      expect(moved.body).toEqual(DENIED);
      expect((await app.api.get(`/api/dcim/sites/${id}/`)).body).toMatchObject({
        status: { value: 'active' },
        description: '',
      });
      expect((await app.api.get('/api/core/object-changes/?limit=1')).body.count).toBe(changesBefore);
      const kept = await user.client.patch(`/api/dcim/sites/${id}/`, { description: 'still active' });
      expect(kept.status).toBe(200);
      expect(kept.body.description).toBe('still active');
    });

    it('make bulk writes all-or-none, and skip objects outside the queryset as NetBox does', async () => {
      const user = await account('bulk');
      await permission({
        object_types: ['dcim.site'],
        actions: ['view', 'add', 'change', 'delete'],
        constraints: { status: 'active' },
        users: [user.id],
      });
      const changesBefore = (await app.api.get('/api/core/object-changes/?limit=1')).body.count as number;
      const created = await user.client.post('/api/dcim/sites/', [
        { name: 'bulk-1', slug: 'bulk-1', status: 'active' },
        { name: 'bulk-2', slug: 'bulk-2', status: 'planned' },
      ]);
      expect(created.status).toBe(403);
      expect((await app.api.get('/api/dcim/sites/?slug=bulk-1&slug=bulk-2')).body.count).toBe(0);
      expect((await app.api.get('/api/core/object-changes/?limit=1')).body.count).toBe(changesBefore);

      const one = await site('bulk-a', { status: 'active' });
      const two = await site('bulk-b', { status: 'active' });
      const updated = await user.client.patch('/api/dcim/sites/', [
        { id: one, description: 'changed' },
        { id: two, status: 'planned' },
      ]);
      expect(updated.status).toBe(403);
      const after = await app.api.get(`/api/dcim/sites/?id=${one}&id=${two}`);
      for (const object of after.body.results)
        expect(object).toMatchObject({ status: { value: 'active' }, description: '' });

      // Objects the user may not change are not part of the queryset: they are left out, not reported.
      const partial = await user.client.patch('/api/dcim/sites/', [
        { id: one, description: 'mine' },
        { id: ids.hidden, description: 'not mine' },
      ]);
      expect(partial.status, partial.text).toBe(200);
      expect((partial.body as { id: number }[]).map((o) => o.id)).toEqual([one]);
      expect((await app.api.get(`/api/dcim/sites/${ids.hidden}/`)).body.description).toBe('');
      const deleted = await user.client.delete('/api/dcim/sites/', [{ id: one }, { id: ids.hidden }]);
      expect(deleted.status).toBe(204);
      expect((await app.api.get(`/api/dcim/sites/${one}/`)).status).toBe(404);
      expect((await app.api.get(`/api/dcim/sites/${ids.hidden}/`)).status).toBe(200);
    });

    it('look up related objects given by attributes only among objects the user may view', async () => {
      const user = await account('related');
      await permission({ object_types: ['dcim.device'], actions: ['view', 'add'], users: [user.id] });
      await permission({
        object_types: ['dcim.site'],
        actions: ['view'],
        constraints: { slug: 'alpha' },
        users: [user.id],
      });
      const device = (name: string, extra: Record<string, unknown>): Record<string, unknown> => ({
        name,
        device_type: ids.type,
        role: ids.role,
        ...extra,
      });
      const hidden = await user.client.post('/api/dcim/devices/', device('rel-1', { site: { slug: 'hidden' } }));
      expect(hidden.status).toBe(400);
      expect(hidden.body).toEqual({
        site: ["Related object not found using the provided attributes: {'slug': 'hidden'}"],
      });
      // Exactly what an absent object gives: nothing tells the two apart.
      const absent = await user.client.post('/api/dcim/devices/', device('rel-1', { site: { slug: 'nowhere' } }));
      expect(absent.status).toBe(400);
      expect(JSON.stringify(absent.body).replace('nowhere', 'hidden')).toBe(JSON.stringify(hidden.body));
      const nested = await user.client.post(
        '/api/dcim/devices/',
        device('rel-1', { site: { tenant: { slug: 'tenant-b' } } }),
      );
      expect(nested.status).toBe(400);
      // Without any view permission on device types, none is found by attributes.
      const noType = await user.client.post(
        '/api/dcim/devices/',
        device('rel-1', { site: ids.alpha, device_type: { slug: 'box' } }),
      );
      expect(noType.body).toEqual({
        device_type: ["Related object not found using the provided attributes: {'slug': 'box'}"],
      });
      const visible = await user.client.post('/api/dcim/devices/', device('rel-1', { site: { slug: 'alpha' } }));
      expect(visible.status, visible.text).toBe(201);
      expect(visible.body.site.id).toBe(ids.alpha);
      // By numeric id the object is used even though the user cannot view it.
      const byId = await user.client.post('/api/dcim/devices/', device('rel-2', { site: ids.hidden }));
      expect(byId.status, byId.text).toBe(201);
      expect(byId.body.site.id).toBe(ids.hidden);
      // `{"id": n}` is the same as the id itself.
      const byIdAttr = await user.client.post('/api/dcim/devices/', device('rel-3', { site: { id: ids.hidden } }));
      expect(byIdAttr.status, byIdAttr.text).toBe(201);
    });

    it('look up tags given by attributes only among tags the user may view', async () => {
      const user = await account('tag-prober');
      await permission({ object_types: ['dcim.site'], actions: ['view', 'add'], users: [user.id] });
      const probe = await user.client.post('/api/dcim/sites/', {
        name: 'tp-1',
        slug: 'tp-1',
        tags: [{ slug: 'gold' }],
      });
      expect(probe.status).toBe(400);
      expect(probe.body).toEqual({
        tags: ["Related object not found using the provided attributes: {'slug': 'gold'}"],
      });
    });
  });

  describe('grants', () => {
    it('reach users through groups, ignore disabled permissions, unite several, and change at once', async () => {
      const group = await app.api.post('/api/users/groups/', { name: 'planners' });
      const user = await account('grouped', { groups: [group.body.id] });
      await permission({
        object_types: ['dcim.site'],
        actions: ['view'],
        constraints: { status: 'planned' },
        groups: [group.body.id],
      });
      const direct = await permission({
        object_types: ['dcim.site'],
        actions: ['view'],
        constraints: { slug: 'alpha' },
        users: [user.id],
      });
      const disabled = await permission({
        object_types: ['dcim.site'],
        actions: ['view', 'add'],
        enabled: false,
        users: [user.id],
      });
      const visible = async (): Promise<string[]> => {
        const list = await user.client.get('/api/dcim/sites/?slug=alpha&slug=beta&slug=gamma&slug=hidden');
        expect(list.status, list.text).toBe(200);
        return names(list);
      };
      expect(await visible()).toEqual(['alpha', 'beta']);
      expect((await user.client.post('/api/dcim/sites/', { name: 'g-1', slug: 'g-1' })).status).toBe(403);

      // Each change is seen by the very next request.
      await app.api.patch(`/api/users/permissions/${disabled}/`, { enabled: true });
      expect(await visible()).toEqual(['alpha', 'beta', 'gamma', 'hidden']);
      await app.api.patch(`/api/users/permissions/${disabled}/`, { enabled: false });
      expect(await visible()).toEqual(['alpha', 'beta']);
      await app.api.patch(`/api/users/permissions/${direct}/`, { constraints: { slug: 'gamma' } });
      expect(await visible()).toEqual(['beta', 'gamma']);
      await app.api.patch(`/api/users/users/${user.id}/`, { groups: [] });
      expect(await visible()).toEqual(['gamma']);
      await app.api.patch(`/api/users/permissions/${direct}/`, { users: [] });
      const none = await user.client.get('/api/dcim/sites/');
      expect(none.status).toBe(403);
      expect(none.body).toEqual(DENIED);
      await app.api.delete(`/api/users/permissions/${direct}/`);
      await app.api.patch(`/api/users/permissions/${disabled}/`, { enabled: true });
      expect(await visible()).toEqual(['alpha', 'beta', 'gamma', 'hidden']);
      await app.api.patch(`/api/users/permissions/${disabled}/`, { enabled: false });
      // Deleting a group takes its permissions away from its members.
      await app.api.patch(`/api/users/users/${user.id}/`, { groups: [group.body.id] });
      expect(await visible()).toEqual(['beta']);
      expect((await app.api.delete(`/api/users/groups/${group.body.id}/`)).status).toBe(204);
      expect((await user.client.get('/api/dcim/sites/')).status).toBe(403);
      // A superuser needs no permission at all.
      await setSuperuser(app, user.id, true);
      expect(await visible()).toEqual(['alpha', 'beta', 'gamma', 'hidden']);
      await setSuperuser(app, user.id, false);
      expect((await user.client.get('/api/dcim/sites/')).status).toBe(403);
    });

    it('grant custom actions only themselves', async () => {
      const user = await account('custom');
      await permission({ object_types: ['dcim.site', 'dcim.device'], actions: ['sync'], users: [user.id] });
      expect((await user.client.get('/api/dcim/sites/')).body).toEqual(DENIED);
      expect((await user.client.post('/api/dcim/devices/', {})).body).toEqual(DENIED);
    });

    it('let users manage only their own tokens by default', async () => {
      const user = await account('token-owner');
      const adminTokens = await app.api.get('/api/users/tokens/?user_id=1');
      const adminToken = adminTokens.body.results[0].id as number;
      const own = await user.client.get('/api/users/tokens/');
      expect(own.status).toBe(200);
      expect(own.body.count).toBe(1);
      expect(own.body.results[0].user.id).toBe(user.id);
      const created = await user.client.post('/api/users/tokens/', { user: user.id, description: 'mine' });
      expect(created.status, created.text).toBe(201);
      expect(
        (await user.client.patch(`/api/users/tokens/${created.body.id}/`, { description: 'renamed' })).status,
      ).toBe(200);
      expect((await user.client.delete(`/api/users/tokens/${created.body.id}/`)).status).toBe(204);
      expect((await user.client.get(`/api/users/tokens/${adminToken}/`)).status).toBe(404);
      expect((await user.client.patch(`/api/users/tokens/${adminToken}/`, { description: 'x' })).status).toBe(404);
      expect((await user.client.delete(`/api/users/tokens/${adminToken}/`)).status).toBe(404);
      expect((await user.client.get('/api/users/users/')).body).toEqual(DENIED);
    });

    it('require users.grant_token (the grant action on tokens) to create tokens for other users', async () => {
      const user = await account('granter');
      const other = await account('grantee');
      const count = async (): Promise<number> =>
        (await app.api.get(`/api/users/tokens/?user_id=${other.id}`)).body.count as number;
      const before = await count();
      const refused = await user.client.post('/api/users/tokens/', { user: other.id });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ detail: 'This user does not have permission to create tokens for other users.' });
      // grant alone is not enough: the new token must also be within the user's add permission.
      const grant = await permission({ object_types: ['users.token'], actions: ['grant'], users: [user.id] });
      const outside = await user.client.post('/api/users/tokens/', { user: other.id });
      expect(outside.status).toBe(403);
      expect(outside.body).toEqual(DENIED);
      expect(await count()).toBe(before);
      await permission({ object_types: ['users.token'], actions: ['add', 'view'], users: [user.id] });
      const granted = await user.client.post('/api/users/tokens/', { user: other.id });
      expect(granted.status, granted.text).toBe(201);
      expect(granted.body.user.id).toBe(other.id);
      expect(await count()).toBe(before + 1);
      await app.api.patch(`/api/users/permissions/${grant}/`, { enabled: false });
      const revoked = await user.client.post('/api/users/tokens/', { user: other.id });
      expect(revoked.body).toEqual({ detail: 'This user does not have permission to create tokens for other users.' });
    });
  });

  describe('users, groups and permissions endpoints', () => {
    it('nest groups and permissions in users, count users in groups, nest users and groups in permissions', async () => {
      const group = await app.api.post('/api/users/groups/', { name: 'nest-team', description: 'the team' });
      const first = await account('nest-1', { groups: [group.body.id] });
      await account('nest-2', { groups: [group.body.id] });
      const perm = await permission({
        name: 'nest-perm',
        description: 'sites',
        object_types: ['dcim.site'],
        actions: ['view'],
        users: [first.id],
        groups: [group.body.id],
      });
      const user = await app.api.get(`/api/users/users/${first.id}/`);
      expect(user.body.groups).toEqual([
        {
          id: group.body.id,
          url: expect.stringContaining(`/api/users/groups/${group.body.id}/`),
          display: 'nest-team',
          name: 'nest-team',
          description: 'the team',
        },
      ]);
      expect(user.body.permissions).toEqual([
        {
          id: perm,
          url: expect.stringContaining(`/api/users/permissions/${perm}/`),
          display: 'nest-perm',
          name: 'nest-perm',
          description: 'sites',
          enabled: true,
          object_types: ['dcim.site'],
          actions: ['view'],
        },
      ]);
      const team = await app.api.get(`/api/users/groups/${group.body.id}/`);
      expect(team.body.user_count).toBe(2);
      expect(team.body.permissions.map((p: { id: number }) => p.id)).toEqual([perm]);
      const detail = await app.api.get(`/api/users/permissions/${perm}/`);
      expect(detail.body.users).toEqual([
        {
          id: first.id,
          url: expect.stringContaining(`/api/users/users/${first.id}/`),
          display_url: expect.any(String),
          display: 'nest-1',
          username: 'nest-1',
        },
      ]);
      expect(Object.keys(detail.body.groups[0])).toEqual(['id', 'url', 'display_url', 'display', 'name']);
      expect(detail.body.constraints).toBeNull();
    });

    it('filter groups by user, users by group and permissions by object type, action, user and group', async () => {
      const group = await app.api.post('/api/users/groups/', { name: 'filter-team' });
      const member = await account('filter-member', { groups: [group.body.id] });
      const sites = await permission({
        name: 'filter-sites',
        object_types: ['dcim.site'],
        actions: ['view', 'change'],
        users: [member.id],
      });
      const tokens = await permission({
        name: 'filter-tokens',
        object_types: ['users.token'],
        actions: ['add'],
        groups: [group.body.id],
      });
      const idsOf = (response: ApiResponse): number[] => (response.body.results as { id: number }[]).map((o) => o.id);
      expect(idsOf(await app.api.get(`/api/users/groups/?user_id=${member.id}`))).toEqual([group.body.id]);
      expect(idsOf(await app.api.get(`/api/users/users/?group_id=${group.body.id}`))).toEqual([member.id]);
      expect(idsOf(await app.api.get('/api/users/users/?group=filter-team'))).toEqual([member.id]);
      expect(idsOf(await app.api.get(`/api/users/users/?permission_id=${sites}`))).toEqual([member.id]);
      expect(idsOf(await app.api.get(`/api/users/groups/?permission_id=${tokens}`))).toEqual([group.body.id]);
      const permissions = async (query: string): Promise<number[]> =>
        idsOf(await app.api.get(`/api/users/permissions/?name__isw=filter-&${query}`));
      expect(await permissions('object_type=dcim.site')).toEqual([sites]);
      expect(await permissions('object_type=users.token')).toEqual([tokens]);
      expect(await permissions('can_view=true')).toEqual([sites]);
      expect(await permissions('can_view=false')).toEqual([tokens]);
      expect(await permissions('can_change=true')).toEqual([sites]);
      expect(await permissions('can_add=true')).toEqual([tokens]);
      expect(await permissions('can_delete=true')).toEqual([]);
      expect(await permissions(`user_id=${member.id}`)).toEqual([sites]);
      expect(await permissions(`group_id=${group.body.id}`)).toEqual([tokens]);
      expect(await permissions('user=filter-member')).toEqual([sites]);
    });

    it('validate permissions: constraints, object types and actions', async () => {
      const post = (body: Record<string, unknown>): Promise<ApiResponse> =>
        app.api.post('/api/users/permissions/', {
          name: 'bad',
          object_types: ['dcim.site'],
          actions: ['view'],
          ...body,
        });
      const unknownField = await post({ constraints: { nonexistent: 1 } });
      expect(unknownField.status).toBe(400);
      expect(Object.keys(unknownField.body)).toEqual(['constraints']);
      expect(unknownField.body.constraints[0]).toContain('dcim.site');
      const badPath = await post({ constraints: [{ status: 'active' }, { name__slug: 'x' }] });
      expect(Object.keys(badPath.body)).toEqual(['constraints']);
      // Valid for one object type is not enough: every object type must accept the constraints.
      const mixed = await post({ object_types: ['dcim.site', 'tenancy.tenant'], constraints: { status: 'active' } });
      expect(mixed.body.constraints[0]).toContain('tenancy.tenant');
      expect((await post({ constraints: 'status=active' })).body).toHaveProperty('constraints');
      // Values the field cannot hold are refused when the permission is saved, not when it is used.
      for (const constraints of [
        { id: 'abc' },
        { tenant: 'x' },
        { id__in: [1, 'a'] },
        { latitude__gte: 'north' },
        { name: { nested: 1 } },
        { name: ['a', 'b'] },
        { tenant__isnull: 'yes' },
        { asns: 'x' },
      ]) {
        const bad = await post({ constraints });
        expect(bad.status, JSON.stringify(constraints)).toBe(400);
        expect(Object.keys(bad.body)).toEqual(['constraints']);
      }
      const unknownType = await post({ object_types: ['dcim.nothing'] });
      expect(unknownType.status).toBe(400);
      expect(unknownType.body).toEqual({ object_types: ['Invalid content type: dcim.nothing'] });
      const noActions = await post({ actions: [] });
      expect(noActions.status).toBe(400);
      expect(Object.keys(noActions.body)).toEqual(['actions']);
      const noTypes = await post({ object_types: [] });
      expect(Object.keys(noTypes.body)).toEqual(['object_types']);
      expect((await app.api.get('/api/users/permissions/?name=bad')).body.count).toBe(0);
      // The same rules on update.
      const perm = await permission({ object_types: ['dcim.site'], actions: ['view'] });
      const patch = await app.api.patch(`/api/users/permissions/${perm}/`, { constraints: { nope: true } });
      expect(Object.keys(patch.body)).toEqual(['constraints']);
      const ok = await app.api.patch(`/api/users/permissions/${perm}/`, {
        constraints: [{ tags__slug: 'gold' }, { tenant__group__slug: 'x', status__in: ['active'] }],
      });
      expect(ok.status, ok.text).toBe(200);
    });

    it('enforce the password policy and never return passwords', async () => {
      const weak = await app.api.post('/api/users/users/', { username: 'weak', password: 'short' });
      expect(weak.status).toBe(400);
      expect(weak.body.non_field_errors).toEqual([
        'This password is too short. It must contain at least 12 characters.',
        'Password must have at least one numeral.',
        'Password must have at least one uppercase letter.',
      ]);
      const lower = await app.api.post('/api/users/users/', { username: 'weak', password: 'ALL-UPPER-CASE-1' });
      expect(lower.body.non_field_errors).toEqual(['Password must have at least one lowercase letter.']);
      expect((await app.api.get('/api/users/users/?username=weak')).body.count).toBe(0);

      const created = await app.api.post('/api/users/users/', { username: 'pw-user', password: PASSWORD });
      expect(created.status).toBe(201);
      expect(created.body).not.toHaveProperty('password');
      const id = created.body.id as number;
      const patchWeak = await app.api.patch(`/api/users/users/${id}/`, { password: 'weakpassword' });
      expect(patchWeak.status).toBe(400);
      expect(patchWeak.body.non_field_errors).toContain('Password must have at least one numeral.');
      const changed = await app.api.patch(`/api/users/users/${id}/`, { password: 'Another-Password-2' });
      expect(changed.status).toBe(200);
      expect(changed.body).not.toHaveProperty('password');
      for (const url of [`/api/users/users/${id}/`, '/api/users/users/', '/api/users/users/?brief=1']) {
        expect((await app.api.get(url)).text).not.toMatch(/password|scrypt/);
      }
      const provision = (password: string): Promise<ApiResponse> =>
        app.anonymous.post('/api/users/tokens/provision/', { username: 'pw-user', password });
      expect((await provision(PASSWORD)).status).toBe(403);
      const fresh = await provision('Another-Password-2');
      expect(fresh.status, fresh.text).toBe(201);
      const check = await app.api
        .as(`Bearer svc_${fresh.body.key}.${fresh.body.token}`)
        .get('/api/authentication-check/');
      expect(check.text).not.toMatch(/password|scrypt/);
    });
  });

  describe('account endpoints', () => {
    it('answer GET /api/authentication-check/ with the current user (403 anonymous)', async () => {
      const group = await app.api.post('/api/users/groups/', { name: 'check-team' });
      const user = await account('checker', { first_name: 'Check', groups: [group.body.id] });
      const check = await user.client.get('/api/authentication-check/');
      expect(check.status).toBe(200);
      expect(check.body).toMatchObject({ id: user.id, username: 'checker', display: 'checker (Check)' });
      expect(check.body.groups.map((g: { id: number }) => g.id)).toEqual([group.body.id]);
      expect(check.body).toEqual((await app.api.get(`/api/users/users/${user.id}/`)).body);
      const anonymous = await app.anonymous.get('/api/authentication-check/');
      expect(anonymous.status).toBe(403);
      expect(anonymous.body).toEqual(ANONYMOUS);
    });

    it('keep preferences per user at /api/users/config/: {} at first, PATCH merges deeply', async () => {
      const user = await account('prefs');
      const other = await account('prefs-other');
      expect((await user.client.get('/api/users/config/')).body).toEqual({});
      const first = await user.client.patch('/api/users/config/', { ui: { theme: 'dark', tables: { a: 1 } } });
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ ui: { theme: 'dark', tables: { a: 1 } } });
      const second = await user.client.patch('/api/users/config/', { ui: { tables: { b: 2 } }, lang: 'en' });
      expect(second.body).toEqual({ ui: { theme: 'dark', tables: { a: 1, b: 2 } }, lang: 'en' });
      expect((await user.client.get('/api/users/config/')).body).toEqual(second.body);
      expect((await other.client.get('/api/users/config/')).body).toEqual({});
      expect((await app.anonymous.get('/api/users/config/')).status).toBe(403);
      expect((await app.anonymous.patch('/api/users/config/', { a: 1 })).status).toBe(403);
    });

    it('refuse inactive users, and accept them again once reactivated', async () => {
      const user = await account('sleeper', { is_active: false });
      const refused = await user.client.get('/api/users/tokens/');
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ detail: 'User inactive' });
      const provision = await app.anonymous.post('/api/users/tokens/provision/', {
        username: 'sleeper',
        password: PASSWORD,
      });
      expect(provision.body).toEqual({ detail: 'Invalid username/password' });
      await app.api.patch(`/api/users/users/${user.id}/`, { is_active: true });
      expect((await user.client.get('/api/users/tokens/')).status).toBe(200);
      expect((await user.client.get('/api/authentication-check/')).body.is_active).toBe(true);
    });
  });
});

/** Settings that change who may read what: LOGIN_REQUIRED, EXEMPT_VIEW_PERMISSIONS, DEFAULT_PERMISSIONS. */
describe.each(DIALECTS)('permission settings on %s', (dialect) => {
  let strict: TestApp;
  let open: TestApp;
  const start = async (settings: Partial<Settings>): Promise<TestApp> => {
    const app = await startTestApp(dialect, { settings });
    expect((await app.api.post('/api/dcim/sites/', { name: 's', slug: 's' })).status).toBe(201);
    expect((await app.api.post('/api/dcim/regions/', { name: 'r', slug: 'r' })).status).toBe(201);
    return app;
  };
  beforeAll(async () => {
    [strict, open] = await Promise.all([
      start({ LOGIN_REQUIRED: true, EXEMPT_VIEW_PERMISSIONS: ['dcim.site', 'users.group'] }),
      start({ EXEMPT_VIEW_PERMISSIONS: ['*'], DEFAULT_PERMISSIONS: {} }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([strict?.close(), open?.close()]);
  });
  const strictHelpers = helpers(() => strict);
  const openHelpers = helpers(() => open);

  it('LOGIN_REQUIRED refuses anonymous clients everywhere, exempt models and API roots included', async () => {
    for (const path of [
      '/api/',
      '/api/dcim/',
      '/api/status/',
      '/api/dcim/sites/',
      '/api/dcim/sites/1/',
      '/api/users/groups/',
      '/api/dcim/regions/',
    ]) {
      const response = await strict.anonymous.get(path);
      expect(response.status, path).toBe(403);
      expect(response.body, path).toEqual(ANONYMOUS);
    }
    // Provisioning is the one way in without credentials.
    await strictHelpers.account('strict-provisioner');
    const provision = await strict.anonymous.post('/api/users/tokens/provision/', {
      username: 'strict-provisioner',
      password: PASSWORD,
    });
    expect(provision.status, provision.text).toBe(201);
  });

  it('EXEMPT_VIEW_PERMISSIONS lists models any authenticated user may view, but not change', async () => {
    const user = await strictHelpers.account('exempt-user');
    expect((await user.client.get('/api/dcim/sites/')).body.count).toBe(1);
    // A sensitive model is exempt when listed by name.
    expect((await user.client.get('/api/users/groups/')).status).toBe(200);
    expect((await user.client.get('/api/dcim/regions/')).body).toEqual(DENIED);
    expect((await user.client.post('/api/dcim/sites/', { name: 'x', slug: 'x' })).body).toEqual(DENIED);
    expect((await user.client.get('/api/')).status).toBe(200);
    // Tokens are not exempt; the user sees their own through DEFAULT_PERMISSIONS.
    const tokens = await user.client.get('/api/users/tokens/');
    expect(tokens.body.count).toBe(1);
    expect(tokens.body.results[0].user.id).toBe(user.id);
  });

  it("EXEMPT_VIEW_PERMISSIONS ['*'] opens every model to reading, except users, groups, permissions and tokens", async () => {
    for (const path of ['/api/dcim/sites/', '/api/dcim/regions/', '/api/tenancy/tenants/', '/api/']) {
      expect((await open.anonymous.get(path)).status, path).toBe(200);
    }
    expect((await open.anonymous.post('/api/dcim/regions/', { name: 'x', slug: 'x' })).status).toBe(403);
    const user = await openHelpers.account('star-user');
    expect((await user.client.get('/api/dcim/regions/')).body.count).toBe(1);
    expect((await user.client.patch('/api/dcim/regions/', [{ id: 1, name: 'y' }])).body).toEqual(DENIED);
    for (const path of ['/api/users/users/', '/api/users/groups/', '/api/users/permissions/', '/api/users/tokens/']) {
      expect((await open.anonymous.get(path)).body, path).toEqual(ANONYMOUS);
      expect((await user.client.get(path)).body, path).toEqual(DENIED);
    }
  });

  it('DEFAULT_PERMISSIONS {} takes away even the own tokens', async () => {
    const user = await openHelpers.account('no-defaults');
    expect((await user.client.get('/api/users/tokens/')).body).toEqual(DENIED);
    expect((await user.client.post('/api/users/tokens/', { user: user.id })).body).toEqual(DENIED);
  });

  // The issue asks that the user be allowed to create tokens (NetBox itself does not check).
  it('DEFAULT_PERMISSIONS {} stops provisioning for users without a token permission', async () => {
    await openHelpers.account('provisioner');
    const provision = await open.anonymous.post('/api/users/tokens/provision/', {
      username: 'provisioner',
      password: PASSWORD,
    });
    expect(provision.status, provision.text).toBe(403);
    expect(provision.body).toEqual({ detail: 'You do not have permission to perform this action.' });
  });
});
