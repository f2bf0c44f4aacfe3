import { expect } from 'vitest';
import type { NetBoxTestCase } from '../generic.js';

/** Ported from NetBox 4.6.8 tenancy/tests/test_api.py. */
export const tenancyCases: NetBoxTestCase[] = [
  {
    source: 'tenancy/tests/test_api.py::TenantGroupTestCase',
    model: 'tenancy.tenantgroup',
    briefFields: ['_depth', 'description', 'display', 'id', 'name', 'slug', 'tenant_count', 'url'],
    bulkUpdateData: { description: 'New description', comments: 'New Comment' },
    setUp: async (t) => {
      const parent1 = await t.make('tenancy.tenantgroup', {
        name: 'Parent Tenant Group 1',
        slug: 'parent-tenant-group-1',
      });
      const parent2 = await t.make('tenancy.tenantgroup', {
        name: 'Parent Tenant Group 2',
        slug: 'parent-tenant-group-2',
        comments: 'Parent Group 2 comment',
      });
      await t.make('tenancy.tenantgroup', { name: 'Tenant Group 1', slug: 'tenant-group-1', parent: parent1.id });
      await t.make('tenancy.tenantgroup', { name: 'Tenant Group 2', slug: 'tenant-group-2', parent: parent1.id });
      await t.make('tenancy.tenantgroup', {
        name: 'Tenant Group 3',
        slug: 'tenant-group-3',
        parent: parent1.id,
        comments: 'Tenant Group 3 comment',
      });
      return {
        createData: [
          { name: 'Tenant Group 4', slug: 'tenant-group-4', parent: parent2.id },
          { name: 'Tenant Group 5', slug: 'tenant-group-5', parent: parent2.id },
          { name: 'Tenant Group 6', slug: 'tenant-group-6', parent: parent2.id, comments: 'Tenant Group 6 comment' },
        ],
      };
    },
    tests: {
      test_delete_tenant_group_with_conflicting_tenants: async (t) => {
        const group = await t.make('tenancy.tenantgroup', { name: 'Tenant Group 7', slug: 'tenant-group-7' });
        await t.make('tenancy.tenant', { name: 'Tenant 1', slug: 'tenant-1a', group: group.id });
        await t.make('tenancy.tenant', { name: 'Tenant 1', slug: 'tenant-1b' });
        const user = await t.user();
        await user.addPermissions('tenancy.delete_tenantgroup');
        const response = await user.client.delete(`${t.path()}${group.id}/`);
        expect(response.status).toBe(409);
        expect(response.body.detail.startsWith('Unable to delete object.')).toBe(true);
        expect(await t.get(group.id)).not.toBeNull();
      },
      test_bulk_delete_tenant_groups_with_conflicting_tenants: async (t) => {
        const group1 = await t.make('tenancy.tenantgroup', { name: 'Tenant Group 8', slug: 'tenant-group-8' });
        const group2 = await t.make('tenancy.tenantgroup', { name: 'Tenant Group 9', slug: 'tenant-group-9' });
        const tenant1 = await t.make('tenancy.tenant', { name: 'Tenant 2', slug: 'tenant-2a', group: group1.id });
        const tenant2 = await t.make('tenancy.tenant', { name: 'Tenant 2', slug: 'tenant-2b', group: group2.id });
        const user = await t.user();
        await user.addPermissions('tenancy.delete_tenantgroup');
        const response = await user.client.delete(t.path(), [{ id: group1.id }, { id: group2.id }]);
        expect(response.status).toBe(409);
        expect(await t.get(group1.id)).not.toBeNull();
        expect(await t.get(group2.id)).not.toBeNull();
        expect((await t.get(tenant1.id, 'tenancy.tenant'))!.group.id).toBe(group1.id);
        expect((await t.get(tenant2.id, 'tenancy.tenant'))!.group.id).toBe(group2.id);
      },
    },
  },
  {
    source: 'tenancy/tests/test_api.py::TenantTestCase',
    model: 'tenancy.tenant',
    briefFields: ['description', 'display', 'id', 'name', 'slug', 'url'],
    bulkUpdateData: { group: null, description: 'New description' },
    setUp: async (t) => {
      const group1 = await t.make('tenancy.tenantgroup', { name: 'Tenant Group 1', slug: 'tenant-group-1' });
      const group2 = await t.make('tenancy.tenantgroup', { name: 'Tenant Group 2', slug: 'tenant-group-2' });
      await t.admin.post(t.path(), [
        { name: 'Tenant 1', slug: 'tenant-1', group: group1.id },
        { name: 'Tenant 2', slug: 'tenant-2', group: group1.id },
        { name: 'Tenant 3', slug: 'tenant-3', group: group1.id },
      ]);
      return {
        createData: [
          { name: 'Tenant 4', slug: 'tenant-4', group: group2.id },
          { name: 'Tenant 5', slug: 'tenant-5', group: group2.id },
          { name: 'Tenant 6', slug: 'tenant-6', group: group2.id },
        ],
      };
    },
  },
  {
    source: 'tenancy/tests/test_api.py::ContactGroupTestCase',
    model: 'tenancy.contactgroup',
    briefFields: ['_depth', 'contact_count', 'description', 'display', 'id', 'name', 'slug', 'url'],
    bulkUpdateData: { description: 'New description' },
    setUp: async (t) => {
      const parent1 = await t.make('tenancy.contactgroup', {
        name: 'Parent Contact Group 1',
        slug: 'parent-contact-group-1',
        comments: 'Parent 1 comment',
      });
      const parent2 = await t.make('tenancy.contactgroup', {
        name: 'Parent Contact Group 2',
        slug: 'parent-contact-group-2',
      });
      await t.make('tenancy.contactgroup', { name: 'Contact Group 1', slug: 'contact-group-1', parent: parent1.id });
      await t.make('tenancy.contactgroup', { name: 'Contact Group 2', slug: 'contact-group-2', parent: parent1.id });
      await t.make('tenancy.contactgroup', {
        name: 'Contact Group 3',
        slug: 'contact-group-3',
        parent: parent1.id,
        comments: 'Child Group 3 comment',
      });
      return {
        createData: [
          { name: 'Contact Group 4', slug: 'contact-group-4', parent: parent2.id },
          { name: 'Contact Group 5', slug: 'contact-group-5', parent: parent2.id, comments: '' },
          { name: 'Contact Group 6', slug: 'contact-group-6', parent: parent2.id, comments: 'Child Group 6 comment' },
        ],
      };
    },
  },
  {
    source: 'tenancy/tests/test_api.py::ContactRoleTestCase',
    model: 'tenancy.contactrole',
    briefFields: ['description', 'display', 'id', 'name', 'slug', 'url'],
    bulkUpdateData: { description: 'New description' },
    setUp: async (t) => {
      await t.admin.post(t.path(), [
        { name: 'Contact Role 1', slug: 'contact-role-1' },
        { name: 'Contact Role 2', slug: 'contact-role-2' },
        { name: 'Contact Role 3', slug: 'contact-role-3' },
      ]);
      return {
        createData: [
          { name: 'Contact Role 4', slug: 'contact-role-4' },
          { name: 'Contact Role 5', slug: 'contact-role-5' },
          { name: 'Contact Role 6', slug: 'contact-role-6' },
        ],
      };
    },
  },
  {
    source: 'tenancy/tests/test_api.py::ContactTestCase',
    model: 'tenancy.contact',
    briefFields: ['description', 'display', 'id', 'name', 'url'],
    bulkUpdateData: { groups: [], comments: 'New comments' },
    setUp: async (t) => {
      const group1 = await t.make('tenancy.contactgroup', { name: 'Contact Group 1', slug: 'contact-group-1' });
      const group2 = await t.make('tenancy.contactgroup', { name: 'Contact Group 2', slug: 'contact-group-2' });
      await t.admin.post(t.path(), [
        { name: 'Contact 1', groups: [group1.id] },
        { name: 'Contact 2', groups: [group1.id] },
        { name: 'Contact 3', groups: [group1.id] },
      ]);
      return {
        createData: [{ name: 'Contact 4', groups: [group2.id] }, { name: 'Contact 5' }, { name: 'Contact 6' }],
      };
    },
  },
  {
    // NetBox assigns the contacts to sites; here to tenants, as dcim's YAML does not include the contacts trait yet.
    source: 'tenancy/tests/test_api.py::ContactAssignmentTestCase',
    model: 'tenancy.contactassignment',
    briefFields: ['contact', 'display', 'id', 'priority', 'role', 'url'],
    bulkUpdateData: { priority: 'inactive' },
    userPermissions: ['tenancy.view_contact'],
    setUp: async (t) => {
      const tenant1 = await t.make('tenancy.tenant', { name: 'Tenant 1', slug: 'tenant-1' });
      const tenant2 = await t.make('tenancy.tenant', { name: 'Tenant 2', slug: 'tenant-2' });
      const contacts: Record<string, any>[] = [];
      for (let i = 1; i <= 6; i++) contacts.push(await t.make('tenancy.contact', { name: `Contact ${i}` }));
      const roles: Record<string, any>[] = [];
      for (let i = 1; i <= 3; i++)
        roles.push(await t.make('tenancy.contactrole', { name: `Contact Role ${i}`, slug: `contact-role-${i}` }));
      const priorities = ['primary', 'secondary', 'tertiary'];
      await t.admin.post(
        t.path(),
        priorities.map((priority, i) => ({
          object_type: 'tenancy.tenant',
          object_id: tenant1.id,
          contact: contacts[i]!.id,
          role: roles[i]!.id,
          priority,
        })),
      );
      return {
        createData: priorities.map((priority, i) => ({
          object_type: 'tenancy.tenant',
          object_id: tenant2.id,
          contact: contacts[i + 3]!.id,
          role: roles[i]!.id,
          priority,
        })),
      };
    },
  },
];
