import { describe, expect, it } from 'vitest';
import { DIALECTS, setSuperuser } from '../support/app.js';
import type { ApiClient } from '../support/client.js';
import { changeLoggedTests, createAll, filterSetSuite, useApp, type Row } from '../support/filtersets.js';

/** NetBox 4.6.8 core/tests/test_filtersets.py, for the models this service serves (change records). */
describe.each(DIALECTS)('core filter sets on %s', (dialect) => {
  const shared = useApp(dialect);

  describe('ObjectTypeTestCase', () => {
    // The object types are the registry's models: nothing to create.
    const suite = filterSetSuite(shared, 'core.objecttype', async () => undefined);
    const all = async (): Promise<Row[]> => (await suite.app.api.get(`${suite.list}?limit=0`)).body.results as Row[];

    it('test_q', async () => {
      expect(await suite.count({ q: 'vrf' })).toBe(1);
    });
    it('test_app_label', async () => {
      const expected = (await all()).filter((o) => o.app_label === 'dcim').length;
      expect(expected).toBeGreaterThan(10);
      expect(await suite.count({ app_label: ['dcim'] })).toBe(expected);
    });
    it('test_model', async () => {
      expect(await suite.count({ model: ['site'] })).toBe(1);
    });
    it('test_public', async () => {
      const objects = await all();
      const publicCount = objects.filter((o) => o.public === true).length;
      expect(publicCount).toBeGreaterThan(0);
      expect(await suite.count({ public: true })).toBe(publicCount);
      expect(await suite.count({ public: false })).toBe(objects.length - publicCount);
    });
    it('test_feature', async () => {
      const expected = (await all()).filter((o) => (o.features as string[]).includes('tags')).length;
      expect(expected).toBeGreaterThan(10);
      expect(await suite.count({ features: 'tags' })).toBe(expected);
    });
  });

  describe('ObjectChangeTestCase', () => {
    /**
     * NetBox creates the six change records directly; here the three users make the changes they record
     * through the API (the superuser's own writes, of the users and their tokens, are not change-logged).
     */
    const suite = filterSetSuite(shared, 'core.objectchange', async (api, app) => {
      const users = await createAll(
        api,
        '/api/users/users/',
        [1, 2, 3].map((i) => ({ username: `user${i}`, password: `Password-User-${i}` })),
      );
      for (const user of users) await setSuperuser(app, user.id, true);
      const tokens = await createAll(
        api,
        '/api/users/tokens/',
        users.map((user) => ({ user: user.id })),
      );
      const as: ApiClient[] = tokens.map((t) => api.as(`Bearer svc_${t.key}.${t.token}`));
      const site = await as[0]!.post('/api/dcim/sites/', { name: 'Test Site 1', slug: 'test-site-1' });
      expect(site.status).toBe(201);
      expect((await as[0]!.patch(`/api/dcim/sites/${site.body.id}/`, { description: 'changed' })).status).toBe(200);
      expect((await as[1]!.delete(`/api/dcim/sites/${site.body.id}/`)).status).toBe(204);
      const ip = await as[1]!.post('/api/ipam/ip-addresses/', { address: '192.0.2.1/24' });
      expect(ip.status).toBe(201);
      expect((await as[2]!.patch(`/api/ipam/ip-addresses/${ip.body.id}/`, { description: 'changed' })).status).toBe(
        200,
      );
      expect((await as[2]!.delete(`/api/ipam/ip-addresses/${ip.body.id}/`)).status).toBe(204);
      return { users };
    });
    changeLoggedTests(suite, { changeLogged: false });

    it('test_q', async () => {
      expect(await suite.count({ q: 'Site 1' })).toBe(3);
    });
    it('test_user', async () => {
      const [a, b] = suite.data.users;
      expect(await suite.count({ user_id: [a!.id, b!.id] })).toBe(4);
      expect(await suite.count({ user: ['user1', 'user2'] })).toBe(4);
    });
    it('test_user_name', async () => {
      expect(await suite.count({ user_name: ['user1', 'user2'] })).toBe(4);
    });
    it('test_changed_object_type', async () => {
      expect(await suite.count({ changed_object_type: ['dcim.site'] })).toBe(3);
      const site = suite.app.context.schema.objectTypeId('dcim.site')!;
      expect(await suite.count({ changed_object_type_id: [site] })).toBe(3);
    });
  });
});
