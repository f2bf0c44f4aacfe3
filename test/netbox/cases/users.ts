import { expect } from 'vitest';
import { setSuperuser } from '../../support/app.js';
import type { NetBoxTestCase } from '../generic.js';

/** Ported from NetBox 4.6.8 users/tests/test_api.py. */

type Json = Record<string, any>;

/** NetBox's ObjectPermissions 1–3 viewing sites, locations and racks. */
async function permissions(t: Parameters<NetBoxTestCase['setUp']>[0]): Promise<Json[]> {
  return t.makeAll(
    'users.objectpermission',
    ['dcim.site', 'dcim.location', 'dcim.rack'].map((type, i) => ({
      name: `Permission ${i + 1}`,
      actions: ['view'],
      object_types: [type],
    })),
  );
}

export const usersCases: NetBoxTestCase[] = [
  {
    source: 'users/tests/test_api.py::UserTestCase',
    model: 'users.user',
    briefFields: ['display', 'id', 'url', 'username'],
    validationExcludedFields: ['password'],
    bulkUpdateData: { email: 'test@example.com' },
    setUp: async (t) => {
      const perms = await permissions(t);
      await t.makeAll(
        'users.user',
        [1, 2, 3].map((i) => ({ username: `user${i}`, password: `FooBarFooBar${i}` })),
      );
      return {
        createData: [4, 5, 6].map((i, n) => ({
          username: `user${i}`,
          password: `FooBarFooBar${i}`,
          permissions: [perms[n]!.id],
        })),
      };
    },
    tests: {
      test_that_password_is_changed: async (t) => {
        const user = await t.user();
        await user.grant(['change']);
        const target = await t.make('users.user', { username: 'newuser', password: 'abc123FOOabc123' });
        const response = await user.client.patch(`${t.path()}${target.id}/`, { password: 'FooBarFooBar1' });
        expect(response.status, response.text).toBe(200);
        // The new password signs in: token provisioning checks it (and, here, needs a token permission).
        await t.make('users.objectpermission', {
          name: 'newuser tokens',
          object_types: ['users.token'],
          actions: ['add'],
          users: [target.id],
        });
        const provisioned = await t.app.anonymous.post('/api/users/tokens/provision/', {
          username: 'newuser',
          password: 'FooBarFooBar1',
        });
        expect(provisioned.status, provisioned.text).toBe(201);
      },
    },
    leftOut: {
      test_password_validation_enforced:
        "Overrides AUTH_PASSWORD_VALIDATORS (a Django setting) to an 8-character minimum; this service applies NetBox's default policy (12 characters), tested in test/api/auth.test.ts.",
    },
  },
  {
    source: 'users/tests/test_api.py::GroupTestCase',
    model: 'users.group',
    briefFields: ['description', 'display', 'id', 'name', 'url'],
    setUp: async (t) => {
      const perms = await permissions(t);
      await t.makeAll(
        'users.group',
        [1, 2, 3].map((i) => ({ name: `Group ${i}` })),
      );
      return { createData: [4, 5, 6].map((i, n) => ({ name: `Group ${i}`, permissions: [perms[n]!.id] })) };
    },
  },
  {
    source: 'users/tests/test_api.py::TokenTestCase',
    model: 'users.token',
    briefFields: ['description', 'display', 'enabled', 'id', 'key', 'url', 'version', 'write_enabled'],
    bulkUpdateData: { description: 'New description' },
    userPermissions: ['users.grant_token'],
    mixins: ['get', 'list', 'create', 'update', 'delete'],
    // NetBox names its users `User 1`… through the ORM; usernames the API accepts have no spaces.
    setUp: async (t) => {
      const users = await t.makeAll(
        'users.user',
        [1, 2, 3].map((i) => ({ username: `User_${i}`, password: `FooBarFooBar${i}` })),
      );
      for (const user of users) await t.make('users.token', { user: user.id });
      return {
        createData: [
          { user: users[0]!.id, enabled: true },
          { user: users[1]!.id, enabled: false },
          { user: users[2]!.id, enabled: true, write_enabled: false },
        ],
        updateData: { description: 'Token 1' },
        users: users.map((u) => u.id),
      };
    },
    tests: {
      // Provisioning needs a permission to add tokens in this service (on purpose, unlike NetBox): user1 gets
      // one, which NetBox's test configuration (no default permissions) does not give.
      test_provision_token_valid: async (t) => {
        const user1 = await t.make('users.user', { username: 'user1', password: 'abc123ABC123' });
        await t.make('users.objectpermission', {
          name: 'user1 tokens',
          object_types: ['users.token'],
          actions: ['add'],
          users: [user1.id],
        });
        const user = await t.user(['users.grant_token']);
        const body = {
          username: 'user1',
          password: 'abc123ABC123',
          description: 'My API token',
          expires: '2099-12-31T23:59:59Z',
        };
        const response = await user.client.post('/api/users/tokens/provision/', body);
        expect(response.status, response.text).toBe(201);
        expect(response.body.token).toHaveLength(40);
        expect(response.body.description).toBe(body.description);
        expect(response.body.expires).toBe('2099-12-31T23:59:59Z');
        const stored = (await t.get(response.body.id))!;
        expect([stored.key, stored.enabled, stored.write_enabled]).toEqual([
          response.body.key,
          response.body.enabled,
          response.body.write_enabled,
        ]);
      },
      test_provision_token_invalid: async (t) => {
        const user = await t.user(['users.grant_token']);
        const response = await user.client.post('/api/users/tokens/provision/', {
          username: 'nonexistentuser',
          password: 'abc123',
        });
        expect(response.status).toBe(403);
      },
      test_provision_token_other_user: async (t) => {
        const user = await t.user();
        await user.addPermissions('users.add_token');
        const other = await t.make('users.user', { username: 'testuser2', password: 'FooBarFooBar2' });
        expect((await user.client.post(t.path(), { user: other.id })).status).toBe(403);
        await user.addPermissions('users.grant_token');
        expect((await user.client.post(t.path(), { user: other.id })).status).toBe(201);
      },
      test_grant_token_constrained_permission_is_enforced: async (t) => {
        const user = await t.user();
        await user.addPermissions('users.add_token');
        const superuser = await t.make('users.user', { username: 'sec_superuser', password: 'FooBarFooBar1' });
        await setSuperuser(t.app, superuser.id, true);
        const regular = await t.make('users.user', { username: 'sec_regular', password: 'FooBarFooBar1' });
        await user.grant(['grant'], { user__is_superuser: false });
        expect((await user.client.post(t.path(), { user: superuser.id })).status).toBe(403);
        expect((await user.client.post(t.path(), { user: regular.id })).status).toBe(201);
      },
      test_grant_token_superuser_always_allowed: async (t) => {
        const user = await t.user();
        await user.addPermissions('users.add_token');
        await setSuperuser(t.app, user.id, true);
        try {
          const other = await t.make('users.user', { username: 'superuser_grant_target', password: 'FooBarFooBar1' });
          expect((await user.client.post(t.path(), { user: other.id })).status).toBe(201);
        } finally {
          await setSuperuser(t.app, user.id, false);
        }
      },
      test_grant_token_self_only_constraint: async (t) => {
        const user = await t.user();
        await user.addPermissions('users.add_token');
        await user.grant(['grant'], { user: '$user' });
        const other = await t.make('users.user', { username: 'self_only_target', password: 'FooBarFooBar1' });
        expect((await user.client.post(t.path(), { user: other.id })).status).toBe(403);
      },
      test_grant_token_non_user_field_constraint_fails_closed: async (t) => {
        const user = await t.user();
        await user.addPermissions('users.add_token');
        await user.grant(['grant'], { write_enabled: true });
        const other = await t.make('users.user', { username: 'non_user_field_target', password: 'FooBarFooBar1' });
        expect((await user.client.post(t.path(), { user: other.id })).status).toBe(403);
      },
      test_create_token_returns_plaintext: async (t) => {
        const user = await t.user(['users.grant_token']);
        await user.addPermissions('users.add_token');
        const target = await t.make('users.user', { username: 'token_plaintext_user', password: 'FooBarFooBar1' });
        const response = await user.client.post(t.path(), { user: target.id });
        expect(response.status, response.text).toBe(201);
        expect(response.body.token).toHaveLength(40);
        // The plaintext authenticates.
        const client = t.admin.as(`Bearer svc_${response.body.key}.${response.body.token}`);
        expect((await client.get('/api/status/')).status).toBe(200);
      },
      test_bulk_create_tokens_returns_plaintexts: async (t) => {
        const user = await t.user(['users.grant_token']);
        await user.addPermissions('users.add_token');
        const targets = await t.makeAll('users.user', [
          { username: 'token_bulk_user1', password: 'FooBarFooBar1' },
          { username: 'token_bulk_user2', password: 'FooBarFooBar2' },
        ]);
        const response = await user.client.post(
          t.path(),
          targets.map((u) => ({ user: u.id })),
        );
        expect(response.status, response.text).toBe(201);
        expect(response.body).toHaveLength(2);
        const plaintexts = new Set<string>();
        for (const token of response.body as Json[]) {
          expect(token.token).toHaveLength(40);
          plaintexts.add(token.token as string);
          const client = t.admin.as(`Bearer svc_${token.key}.${token.token}`);
          expect((await client.get('/api/status/')).status).toBe(200);
        }
        expect(plaintexts.size).toBe(2);
      },
      test_reassign_token: async (t, data) => {
        const [user1, user2] = data.users as number[];
        const token1 = ((await t.admin.get(`${t.path()}?user_id=${user1}`)).body.results as Json[])[0]!;
        const user = await t.user(['users.grant_token']);
        await user.addPermissions('users.change_token');
        const response = await user.client.patch(`${t.path()}${token1.id}/`, { user: user2 });
        expect(response.status, response.text).toBe(200);
        expect((await t.get(token1.id))!.user.id).toBe(user1);
      },
    },
  },
  {
    source: 'users/tests/test_api.py::ObjectPermissionTestCase',
    model: 'users.objectpermission',
    briefFields: ['actions', 'description', 'display', 'enabled', 'id', 'name', 'object_types', 'url'],
    bulkUpdateData: { description: 'New description' },
    mixins: ['get', 'list', 'create', 'update', 'delete'],
    setUp: async (t) => {
      const groups = await t.makeAll(
        'users.group',
        [1, 2, 3].map((i) => ({ name: `Group ${i}` })),
      );
      const users = await t.makeAll(
        'users.user',
        [1, 2, 3].map((i) => ({ username: `User${i}`, password: `FooBarFooBar${i}`, is_active: true })),
      );
      for (const i of [0, 1, 2]) {
        await t.make('users.objectpermission', {
          name: `Permission ${i + 1}`,
          actions: ['view', 'add', 'change', 'delete'],
          constraints: { name: `TEST${i + 1}` },
          object_types: ['dcim.device'],
          groups: [groups[i]!.id],
          users: [users[i]!.id],
        });
      }
      return {
        createData: [4, 5, 6].map((i, n) => ({
          name: `Permission ${i}`,
          object_types: ['dcim.site'],
          groups: [groups[n]!.id],
          users: [users[n]!.id],
          actions: ['view', 'add', 'change', 'delete'],
          constraints: { name: `TEST${i}` },
        })),
      };
    },
  },
  {
    source: 'users/tests/test_api.py::UserConfigTestCase',
    model: 'users.user',
    briefFields: [],
    mixins: [],
    setUp: async () => ({ createData: [] }),
    tests: {
      // NetBox writes the user's config through the ORM before reading it; here through the same endpoint.
      test_get: async (t) => {
        const user = await t.user();
        expect((await user.client.get('/api/users/config/')).body).toEqual({});
        const data = { a: 123, b: 456, c: 789 };
        expect((await user.client.patch('/api/users/config/', data)).status).toBe(200);
        expect((await user.client.get('/api/users/config/')).body).toEqual(data);
      },
      test_patch: async (t) => {
        const user = await t.user();
        const data = { a: { a1: 'X', a2: 'Y' }, b: { b1: 'Z' } };
        const first = await user.client.patch('/api/users/config/', data);
        expect(first.body).toEqual(data);
        const second = await user.client.patch('/api/users/config/', { c: 123 });
        expect(second.body).toEqual({ ...data, c: 123 });
        expect((await user.client.get('/api/users/config/')).body).toEqual({ ...data, c: 123 });
      },
    },
  },
  {
    source: 'users/tests/test_api.py::OwnerGroupTestCase',
    model: 'users.ownergroup',
    briefFields: ['description', 'display', 'id', 'name', 'url'],
    bulkUpdateData: { description: 'New description' },
    setUp: async (t) => {
      await t.makeAll(
        'users.ownergroup',
        [1, 2, 3].map((i) => ({ name: `Owner Group ${i}` })),
      );
      return {
        createData: ['Fourth', 'Fifth', 'Sixth'].map((nth, i) => ({
          name: `Owner Group ${i + 4}`,
          description: `${nth} owner group`,
        })),
      };
    },
  },
  {
    source: 'users/tests/test_api.py::OwnerTestCase',
    model: 'users.owner',
    briefFields: ['description', 'display', 'id', 'name', 'url'],
    setUp: async (t) => {
      const ownerGroups = await t.makeAll(
        'users.ownergroup',
        [1, 2, 3, 4].map((i) => ({ name: `Owner Group ${i}` })),
      );
      const groups = await t.makeAll(
        'users.group',
        [1, 2, 3, 4].map((i) => ({ name: `Group ${i}` })),
      );
      // NetBox names them `User 1`…; a username here takes no spaces (NetBox's API refuses them too).
      const users = await t.makeAll(
        'users.user',
        [1, 2, 3, 4].map((i) => ({ username: `User${i}`, password: `Password-User-${i}` })),
      );
      await t.makeAll(
        'users.owner',
        [0, 1, 2].map((i) => ({ name: `Owner ${i + 1}`, user_groups: [groups[i]!.id], users: [users[i]!.id] })),
      );
      const assigned = { group: ownerGroups[3]!.id, user_groups: [groups[3]!.id], users: [users[3]!.id] };
      return {
        createData: ['Fourth', 'Fifth', 'Sixth'].map((nth, i) => ({
          name: `Owner ${i + 4}`,
          description: `${nth} owner`,
          ...assigned,
        })),
        bulkUpdateData: { ...assigned, description: 'New description' },
      };
    },
  },
];
