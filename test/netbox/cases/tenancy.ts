import { expect } from 'vitest';
import type { NetBoxTestCase } from '../generic.js';

/** Ported from NetBox 4.6.8 tenancy/tests/test_api.py (contacts are not served). */
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
];
