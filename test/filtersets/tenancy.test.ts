import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/app.js';
import { changeLoggedTests, createAll, createEach, filterSetSuite, useApp } from '../support/filtersets.js';

/** NetBox 4.6.8 tenancy/tests/test_filtersets.py, for the models this service serves. */
describe.each(DIALECTS)('tenancy filter sets on %s', (dialect) => {
  const shared = useApp(dialect);
  describe('TenantGroupTestCase', () => {
    const suite = filterSetSuite(shared, 'tenancy.tenantgroup', async (api) => {
      const list = '/api/tenancy/tenant-groups/';
      const parents = await createEach(api, list, [
        { name: 'Tenant Group 1', slug: 'tenant-group-1' },
        { name: 'Tenant Group 2', slug: 'tenant-group-2', comments: 'Parent group 2 comment' },
        { name: 'Tenant Group 3', slug: 'tenant-group-3' },
      ]);
      const groups = await createEach(api, list, [
        {
          name: 'Tenant Group 1A',
          slug: 'tenant-group-1a',
          parent: parents[0]!.id,
          description: 'foobar1',
          comments: 'Tenant Group 1A comment',
        },
        { name: 'Tenant Group 2A', slug: 'tenant-group-2a', parent: parents[1]!.id, description: 'foobar2' },
        { name: 'Tenant Group 3A', slug: 'tenant-group-3a', parent: parents[2]!.id, description: 'foobar3' },
      ]);
      await createEach(api, list, [
        { name: 'Tenant Group 1A1', slug: 'tenant-group-1a1', parent: groups[0]!.id },
        { name: 'Tenant Group 2A1', slug: 'tenant-group-2a1', parent: groups[1]!.id },
        {
          name: 'Tenant Group 3A1',
          slug: 'tenant-group-3a1',
          parent: groups[2]!.id,
          comments: 'Tenant Group 3A1 comment',
        },
      ]);
      return { parents };
    });
    changeLoggedTests(suite);

    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_q_comments', async () => {
      expect(await suite.count({ q: 'parent' })).toBe(1);
      expect(await suite.count({ q: 'comment' })).toBe(3);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Tenant Group 1', 'Tenant Group 2'] })).toBe(2);
    });
    it('test_slug', async () => {
      expect(await suite.count({ slug: ['tenant-group-1', 'tenant-group-2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_parent', async () => {
      const [a, b] = suite.data.parents;
      expect(await suite.count({ parent_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ parent: [a!.slug, b!.slug] })).toBe(2);
    });
    it('test_ancestor', async () => {
      const [a, b] = suite.data.parents;
      expect(await suite.count({ ancestor_id: [a!.id, b!.id] })).toBe(4);
      expect(await suite.count({ ancestor: [a!.slug, b!.slug] })).toBe(4);
    });
  });

  describe('TenantTestCase', () => {
    const suite = filterSetSuite(shared, 'tenancy.tenant', async (api) => {
      const groups = await createEach(api, '/api/tenancy/tenant-groups/', [
        { name: 'Tenant Group 1', slug: 'tenant-group-1' },
        { name: 'Tenant Group 2', slug: 'tenant-group-2' },
        { name: 'Tenant Group 3', slug: 'tenant-group-3' },
      ]);
      await createAll(api, '/api/tenancy/tenants/', [
        { name: 'Tenant 1', slug: 'tenant-1', group: groups[0]!.id, description: 'foobar1' },
        { name: 'Tenant 2', slug: 'tenant-2', group: groups[1]!.id, description: 'foobar2' },
        { name: 'Tenant 3', slug: 'tenant-3', group: groups[2]!.id, description: 'foobar3' },
      ]);
      return { groups };
    });
    changeLoggedTests(suite);

    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Tenant 1', 'Tenant 2'] })).toBe(2);
    });
    it('test_slug', async () => {
      expect(await suite.count({ slug: ['tenant-1', 'tenant-2'] })).toBe(2);
    });
    it('test_group', async () => {
      const [a, b] = suite.data.groups;
      expect(await suite.count({ group_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ group: [a!.slug, b!.slug] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
  });
});
