import { describe, expect, it } from 'vitest';
import { DIALECTS, setSuperuser } from '../support/app.js';
import { changeLoggedTests, createAll, filterSetSuite, setTimestamp, useApp, type Row } from '../support/filtersets.js';

/**
 * NetBox 4.6.8 users/tests/test_filtersets.py. The superuser `admin` that the test client signs in as (and
 * its token) exist here too; the counts leave them out with `username__n`/`user__n`.
 */
describe.each(DIALECTS)('users filter sets on %s', (dialect) => {
  const shared = useApp(dialect, { ALLOW_TOKEN_V1: true });
  const groupNames = (api: Parameters<Parameters<typeof filterSetSuite>[2]>[0]) =>
    createAll(api, '/api/users/groups/', [{ name: 'Group 1' }, { name: 'Group 2' }, { name: 'Group 3' }]);

  describe('UserTestCase', () => {
    const suite = filterSetSuite(shared, 'users.user', async (api, app) => {
      const groups = await groupNames(api);
      const users = await createAll(api, '/api/users/users/', [
        {
          username: 'User1',
          password: 'Password-User-1',
          first_name: 'Hank',
          last_name: 'Hill',
          email: 'hank@stricklandpropane.com',
          groups: [groups[0]!.id],
        },
        {
          username: 'User2',
          password: 'Password-User-2',
          first_name: 'Dale',
          last_name: 'Gribble',
          email: 'dale@dalesdeadbug.com',
          groups: [groups[1]!.id],
        },
        {
          username: 'User3',
          password: 'Password-User-3',
          first_name: 'Bill',
          last_name: 'Dauterive',
          email: 'bill.dauterive@army.mil',
          groups: [groups[2]!.id],
        },
        {
          username: 'User4',
          password: 'Password-User-4',
          first_name: 'Jeff',
          last_name: 'Boomhauer',
          email: 'boomhauer@dangolemail.com',
        },
        { username: 'User5', password: 'Password-User-5', first_name: 'Debbie', last_name: 'Grund', is_active: false },
      ]);
      // NetBox's API does not write is_superuser either (the test sets it through the ORM).
      await setSuperuser(app, users[0]!.id, true);
      const permissions = await createAll(
        api,
        '/api/users/permissions/',
        ['add', 'change', 'delete'].map((action, i) => ({
          name: `Permission ${i + 1}`,
          actions: [action],
          object_types: ['dcim.site'],
          users: [users[i]!.id],
        })),
      );
      return { groups, permissions };
    });
    changeLoggedTests(suite, { changeLogged: false });
    const count = (params: Record<string, any>) => suite.count({ ...params, username__n: 'admin' });

    it('test_q', async () => {
      expect(await count({ q: 'user1' })).toBe(1);
    });
    it('test_username', async () => {
      expect(await count({ username: ['User1', 'User2'] })).toBe(2);
    });
    it('test_first_name', async () => {
      expect(await count({ first_name: ['Hank', 'Dale'] })).toBe(2);
    });
    it('test_last_name', async () => {
      expect(await count({ last_name: ['Hill', 'Gribble'] })).toBe(2);
    });
    it('test_email', async () => {
      expect(await count({ email: ['hank@stricklandpropane.com', 'dale@dalesdeadbug.com'] })).toBe(2);
    });
    it('test_is_active', async () => {
      expect(await count({ is_active: true })).toBe(4);
    });
    it('test_is_superuser', async () => {
      expect(await count({ is_superuser: true })).toBe(1);
    });
    it('test_group', async () => {
      const [a, b] = suite.data.groups;
      expect(await count({ group_id: [a!.id, b!.id] })).toBe(2);
      expect(await count({ group: [a!.name, b!.name] })).toBe(2);
    });
    it('test_permission', async () => {
      const [a, b] = suite.data.permissions;
      expect(await count({ permission_id: [a!.id, b!.id] })).toBe(2);
    });
  });

  describe('GroupTestCase', () => {
    const suite = filterSetSuite(shared, 'users.group', async (api) => {
      const groups = await groupNames(api);
      const users = await createAll(
        api,
        '/api/users/users/',
        // NetBox names them `User 1`…; a username here takes no spaces (NetBox's API refuses them too).
        groups.map((group, i) => ({ username: `User${i + 1}`, password: `Password-User-${i}`, groups: [group.id] })),
      );
      const permissions = await createAll(
        api,
        '/api/users/permissions/',
        ['add', 'change', 'delete'].map((action, i) => ({
          name: `Permission ${i + 1}`,
          actions: [action],
          object_types: ['dcim.site'],
          groups: [groups[i]!.id],
        })),
      );
      return { users, permissions };
    });
    changeLoggedTests(suite, { changeLogged: false });

    it('test_q', async () => {
      expect(await suite.count({ q: 'group 1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Group 1', 'Group 2'] })).toBe(2);
    });
    it('test_user', async () => {
      const [a, b] = suite.data.users;
      expect(await suite.count({ user_id: [a!.id, b!.id] })).toBe(2);
    });
    it('test_permission', async () => {
      const [a, b] = suite.data.permissions;
      expect(await suite.count({ permission_id: [a!.id, b!.id] })).toBe(2);
    });
  });

  describe('ObjectPermissionTestCase', () => {
    const suite = filterSetSuite(shared, 'users.objectpermission', async (api, app) => {
      const groups = await groupNames(api);
      const users = await createAll(
        api,
        '/api/users/users/',
        [1, 2, 3].map((i) => ({ username: `User${i}`, password: `Password-User-${i}` })),
      );
      const types = ['dcim.site', 'dcim.rack', 'dcim.device'];
      const all = ['view', 'add', 'change', 'delete'];
      const bodies: Row[] = [
        { name: 'Permission 1', actions: all, description: 'foobar1' },
        { name: 'Permission 2', actions: all, description: 'foobar2' },
        { name: 'Permission 3', actions: all },
        { name: 'Permission 4', actions: ['view'], enabled: false },
        { name: 'Permission 5', actions: ['add'], enabled: false },
        { name: 'Permission 6', actions: ['change'], enabled: false },
        { name: 'Permission 7', actions: ['delete'], enabled: false },
      ].map((body, i) =>
        i < 3
          ? { ...body, groups: [groups[i]!.id], users: [users[i]!.id], object_types: [types[i]] }
          : // This service requires a permission to name its models; these name one that no other test counts.
            { ...body, object_types: ['dcim.region'] },
      );
      await createAll(api, '/api/users/permissions/', bodies);
      const typeIds = types.map((t) => app.context.schema.objectTypeId(t)!);
      return { groups, users, typeIds };
    });
    changeLoggedTests(suite, { changeLogged: false });

    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Permission 1', 'Permission 2'] })).toBe(2);
    });
    it('test_enabled', async () => {
      expect(await suite.count({ enabled: true })).toBe(3);
    });
    it('test_group', async () => {
      const [a, b] = suite.data.groups;
      expect(await suite.count({ group_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ group: [a!.name, b!.name] })).toBe(2);
    });
    it('test_user', async () => {
      const [a, b] = suite.data.users;
      expect(await suite.count({ user_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ user: [a!.username, b!.username] })).toBe(2);
    });
    it('test_object_types', async () => {
      const [site, rack] = suite.data.typeIds;
      expect(await suite.count({ object_types: [site!, rack!] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    for (const action of ['view', 'add', 'change', 'delete']) {
      it(`test_can_${action}`, async () => {
        expect(await suite.count({ [`can_${action}`]: true })).toBe(4);
      });
    }
  });

  describe('TokenTestCase', () => {
    const suite = filterSetSuite(shared, 'users.token', async (api, app) => {
      const users = await createAll(
        api,
        '/api/users/users/',
        [1, 2, 3].map((i) => ({ username: `User${i}`, password: `Password-User-${i}` })),
      );
      const future = '3000-01-01T00:00:00Z';
      const past = '2000-01-01T00:00:00.000000Z';
      const tokens = await createAll(api, '/api/users/tokens/', [
        { version: 1, user: users[0]!.id, expires: future, enabled: true, write_enabled: true, description: 'foobar1' },
        {
          version: 2,
          user: users[1]!.id,
          expires: future,
          enabled: false,
          write_enabled: true,
          description: 'foobar2',
        },
        { version: 2, user: users[2]!.id, enabled: true, expires: future, write_enabled: false },
      ]);
      // The API refuses an expiry in the past; NetBox's test saves the model directly.
      await setTimestamp(app, 'users.token', [tokens[2]!.id], 'expires', past);
      return { users, tokens };
    });
    changeLoggedTests(suite, { changeLogged: false });
    const count = (params: Record<string, any>) => suite.count({ ...params, user__n: 'admin' });

    it('test_q', async () => {
      expect(await count({ q: 'foobar1' })).toBe(1);
    });
    it('test_version', async () => {
      expect(await count({ version: 1 })).toBe(1);
      expect(await count({ version: 2 })).toBe(2);
    });
    it('test_key', async () => {
      const [, b, c] = suite.data.tokens;
      expect(await count({ key: [b!.key, c!.key] })).toBe(2);
    });
    it('test_pepper_id', async () => {
      expect(await count({ pepper_id: [1] })).toBe(2);
    });
    it('test_user', async () => {
      const [a, b] = suite.data.users;
      expect(await count({ user_id: [a!.id, b!.id] })).toBe(2);
      expect(await count({ user: [a!.username, b!.username] })).toBe(2);
    });
    it('test_expires', async () => {
      expect(await count({ expires: '3000-01-01T00:00:00' })).toBe(2);
      expect(await count({ expires__gte: '2021-01-01T00:00:00' })).toBe(2);
      expect(await count({ expires__lte: '2021-01-01T00:00:00' })).toBe(1);
    });
    it('test_enabled', async () => {
      expect(await count({ enabled: true })).toBe(2);
      expect(await count({ enabled: false })).toBe(1);
    });
    it('test_write_enabled', async () => {
      expect(await count({ write_enabled: true })).toBe(2);
      expect(await count({ write_enabled: false })).toBe(1);
    });
    it('test_description', async () => {
      expect(await count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
  });
  describe('OwnerGroupTestCase', () => {
    const suite = filterSetSuite(shared, 'users.ownergroup', (api) =>
      createAll(api, '/api/users/owner-groups/', [
        { name: 'Owner Group 1', description: 'Foo' },
        { name: 'Owner Group 2', description: 'Bar' },
        { name: 'Owner Group 3', description: 'Baz' },
      ]),
    );
    changeLoggedTests(suite, { changeLogged: false });

    it('test_q', async () => {
      expect(await suite.count({ q: 'foo' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Owner Group 1', 'Owner Group 2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['Foo', 'Bar'] })).toBe(2);
    });
  });

  describe('OwnerTestCase', () => {
    const suite = filterSetSuite(shared, 'users.owner', async (api) => {
      const ownerGroups = await createAll(
        api,
        '/api/users/owner-groups/',
        [1, 2, 3].map((i) => ({ name: `Owner Group ${i}` })),
      );
      const groups = await groupNames(api);
      // NetBox names them `User 1`…; a username here takes no spaces (NetBox's API refuses them too).
      const users = await createAll(
        api,
        '/api/users/users/',
        [1, 2, 3].map((i) => ({ username: `User${i}`, password: `Password-User-${i}` })),
      );
      await createAll(
        api,
        '/api/users/owners/',
        ['Foo', 'Bar', 'Baz'].map((description, i) => ({
          name: `Owner ${i + 1}`,
          group: ownerGroups[i]!.id,
          description,
          user_groups: [groups[i]!.id],
          users: [users[i]!.id],
        })),
      );
      return { ownerGroups, groups, users };
    });
    changeLoggedTests(suite, { changeLogged: false });

    it('test_q', async () => {
      expect(await suite.count({ q: 'foo' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Owner 1', 'Owner 2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['Foo', 'Bar'] })).toBe(2);
    });
    it('test_group', async () => {
      const [a, b] = suite.data.ownerGroups;
      expect(await suite.count({ group_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ group: [a!.name, b!.name] })).toBe(2);
    });
    it('test_user_group', async () => {
      const [a, b] = suite.data.groups;
      expect(await suite.count({ user_group_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ user_group: [a!.name, b!.name] })).toBe(2);
    });
    it('test_user', async () => {
      const [a, b] = suite.data.users;
      expect(await suite.count({ user_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ user: [a!.username, b!.username] })).toBe(2);
    });
  });
});
