import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/app.js';
import { changeLoggedTests, createAll, createEach, filterSetSuite, useApp, type Row } from '../support/filtersets.js';

/** NetBox 4.6.8 tenancy/tests/test_filtersets.py: the contact classes, and ContactModelFilterSet's filters. */
describe.each(DIALECTS)('tenancy contact filter sets on %s', (dialect) => {
  const shared = useApp(dialect);

  /** Three contact groups, three roles and three contacts (contact i in group i). */
  async function makeContacts(api: Parameters<Parameters<typeof filterSetSuite>[2]>[0]) {
    const groups = await createEach(api, '/api/tenancy/contact-groups/', [
      { name: 'Contact Group 1', slug: 'contact-group-1' },
      { name: 'Contact Group 2', slug: 'contact-group-2' },
      { name: 'Contact Group 3', slug: 'contact-group-3' },
    ]);
    const roles = await createAll(api, '/api/tenancy/contact-roles/', [
      { name: 'Contact Role 1', slug: 'contact-role-1' },
      { name: 'Contact Role 2', slug: 'contact-role-2' },
      { name: 'Contact Role 3', slug: 'contact-role-3' },
    ]);
    const contacts = await createAll(
      api,
      '/api/tenancy/contacts/',
      groups.map((g, i) => ({ name: `Contact ${i + 1}`, description: `foobar${i + 1}`, groups: [g.id] })),
    );
    return { groups, roles, contacts };
  }

  describe('ContactGroupTestCase', () => {
    const suite = filterSetSuite(shared, 'tenancy.contactgroup', async (api) => {
      const list = '/api/tenancy/contact-groups/';
      const parents = await createEach(api, list, [
        { name: 'Contact Group 1', slug: 'contact-group-1' },
        { name: 'Contact Group 2', slug: 'contact-group-2', comments: 'Parent group 2' },
        { name: 'Contact Group 3', slug: 'contact-group-3' },
      ]);
      const groups = await createEach(api, list, [
        { name: 'Contact Group 1A', slug: 'contact-group-1a', parent: parents[0]!.id, description: 'foobar1' },
        { name: 'Contact Group 2A', slug: 'contact-group-2a', parent: parents[1]!.id, description: 'foobar2' },
        {
          name: 'Contact Group 3A',
          slug: 'contact-group-3a',
          parent: parents[2]!.id,
          description: 'foobar3',
          comments: 'Contact Group 3A comment, not a parent',
        },
      ]);
      await createEach(api, list, [
        {
          name: 'Contact Group 1A1',
          slug: 'contact-group-1a1',
          parent: groups[0]!.id,
          comments: 'Contact Group 1A1 comment',
        },
        { name: 'Contact Group 2A1', slug: 'contact-group-2a1', parent: groups[1]!.id },
        { name: 'Contact Group 3A1', slug: 'contact-group-3a1', parent: groups[2]!.id },
      ]);
      return { parents };
    });
    changeLoggedTests(suite);

    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_q_comments', async () => {
      expect(await suite.count({ q: 'parent' })).toBe(2);
      expect(await suite.count({ q: '1A1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Contact Group 1', 'Contact Group 2'] })).toBe(2);
    });
    it('test_slug', async () => {
      expect(await suite.count({ slug: ['contact-group-1', 'contact-group-2'] })).toBe(2);
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

  describe('ContactRoleTestCase', () => {
    const suite = filterSetSuite(shared, 'tenancy.contactrole', async (api) => {
      await createAll(api, '/api/tenancy/contact-roles/', [
        { name: 'Contact Role 1', slug: 'contact-role-1', description: 'foobar1' },
        { name: 'Contact Role 2', slug: 'contact-role-2', description: 'foobar2' },
        { name: 'Contact Role 3', slug: 'contact-role-3', description: 'foobar3' },
      ]);
    });
    changeLoggedTests(suite);

    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Contact Role 1', 'Contact Role 2'] })).toBe(2);
    });
    it('test_slug', async () => {
      expect(await suite.count({ slug: ['contact-role-1', 'contact-role-2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
  });

  describe('ContactTestCase', () => {
    const suite = filterSetSuite(shared, 'tenancy.contact', (api) => makeContacts(api));
    changeLoggedTests(suite);

    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Contact 1', 'Contact 2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_group', async () => {
      const [a, b] = suite.data.groups;
      expect(await suite.count({ group_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ group: [a!.slug, b!.slug] })).toBe(2);
    });
  });

  // NetBox assigns to three sites and a manufacturer; dcim's YAML does not include the contacts trait yet, so
  // three tenants and a prefix play their parts.
  describe('ContactAssignmentTestCase', () => {
    const suite = filterSetSuite(shared, 'tenancy.contactassignment', async (api) => {
      const { groups, roles, contacts } = await makeContacts(api);
      const tenants = await createAll(api, '/api/tenancy/tenants/', [
        { name: 'Tenant 1', slug: 'tenant-1' },
        { name: 'Tenant 2', slug: 'tenant-2' },
        { name: 'Tenant 3', slug: 'tenant-3' },
      ]);
      const [prefix] = await createAll(api, '/api/ipam/prefixes/', [{ prefix: '10.0.0.0/8' }]);
      const assign = (type: string, object: Row, i: number) => ({
        object_type: type,
        object_id: object.id,
        contact: contacts[i]!.id,
        role: roles[i]!.id,
      });
      await createAll(api, '/api/tenancy/contact-assignments/', [
        ...tenants.map((tenant, i) => assign('tenancy.tenant', tenant, i)),
        assign('ipam.prefix', prefix!, 2),
      ]);
      return { groups, roles, contacts };
    });
    changeLoggedTests(suite);

    it('test_object_type', async () => {
      expect(await suite.count({ object_type: ['tenancy.tenant'] })).toBe(3);
      expect(await suite.count({ object_type_id: suite.app.context.schema.objectTypeId('tenancy.tenant')! })).toBe(3);
    });
    it('test_contact', async () => {
      const [a, b] = suite.data.contacts;
      expect(await suite.count({ contact_id: [a!.id, b!.id] })).toBe(2);
    });
    it('test_group', async () => {
      const [a, b] = suite.data.groups;
      expect(await suite.count({ group_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ group: [a!.slug, b!.slug] })).toBe(2);
    });
    it('test_role', async () => {
      const [a, b] = suite.data.roles;
      expect(await suite.count({ role_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ role: [a!.slug, b!.slug] })).toBe(2);
    });
    it('test_q (contact or role name)', async () => {
      expect(await suite.count({ q: 'Contact 3' })).toBe(2);
      expect(await suite.count({ q: 'Role 1' })).toBe(1);
    });
  });

  // ContactModelFilterSet: the contact, contact_role and contact_group filters of the models that may have
  // contacts (tenants and prefixes here; NetBox's filter-set tests check them through each model's class).
  describe('ContactModelFilterSet', () => {
    const suite = filterSetSuite(shared, 'tenancy.tenant', async (api) => {
      const { groups, roles, contacts } = await makeContacts(api);
      const child = await createEach(api, '/api/tenancy/contact-groups/', [
        { name: 'Contact Group 1A', slug: 'contact-group-1a', parent: groups[0]!.id },
      ]);
      await api.patch(`/api/tenancy/contacts/${contacts[1]!.id}/`, { groups: [child[0]!.id] });
      const tenants = await createAll(api, '/api/tenancy/tenants/', [
        { name: 'Tenant 1', slug: 'tenant-1' },
        { name: 'Tenant 2', slug: 'tenant-2' },
        { name: 'Tenant 3', slug: 'tenant-3' },
      ]);
      const prefixes = await createAll(api, '/api/ipam/prefixes/', [
        { prefix: '10.1.0.0/16' },
        { prefix: '10.2.0.0/16' },
      ]);
      await createAll(
        api,
        '/api/tenancy/contact-assignments/',
        [...tenants.map((t) => ['tenancy.tenant', t] as const), ['ipam.prefix', prefixes[1]!] as const].map(
          ([type, object], i) => ({
            object_type: type,
            object_id: object.id,
            contact: contacts[i % 3]!.id,
            role: roles[i % 3]!.id,
          }),
        ),
      );
      return { groups, roles, contacts, child: child[0]! };
    });

    it('contact', async () => {
      const [a, b] = suite.data.contacts;
      expect(await suite.count({ contact: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ contact__n: [a!.id] })).toBe(2);
      expect(await countPrefixes({ contact: [a!.id] })).toBe(1);
    });
    it('contact_role', async () => {
      const [a, , c] = suite.data.roles;
      expect(await suite.count({ contact_role: [c!.id] })).toBe(1);
      expect(await countPrefixes({ contact_role: [a!.id] })).toBe(1);
      expect(await countPrefixes({ contact_role: [c!.id] })).toBe(0);
    });
    it('contact_group (a group and its descendants)', async () => {
      const [a, , c] = suite.data.groups;
      // Contact 2 moved to group 1A, a child of group 1: group 1 reaches contacts 1 and 2.
      expect(await suite.count({ contact_group: [a!.id] })).toBe(2);
      expect(await suite.count({ contact_group: [suite.data.child.id] })).toBe(1);
      expect(await suite.count({ contact_group: [c!.id] })).toBe(1);
      expect(await suite.count({ contact_group__n: [a!.id] })).toBe(1);
    });
    it('an unknown contact is a 400', async () => {
      const response = await suite.app.api.get('/api/tenancy/tenants/?contact=999999');
      expect(response.status).toBe(400);
    });

    async function countPrefixes(params: Record<string, number[]>): Promise<number> {
      const query = Object.entries(params).flatMap(([k, vs]) => vs.map((v) => `${k}=${v}`));
      const response = await suite.app.api.get(`/api/ipam/prefixes/?${query.join('&')}`);
      expect(response.status).toBe(200);
      return response.body.count as number;
    }
  });
});
