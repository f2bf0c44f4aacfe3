import type { NetBoxTestCase } from '../generic.js';

/**
 * Ported from NetBox 4.6.8 dcim/tests/test_api.py: module type profiles, module types, modules, module bays,
 * device bays, inventory items, their templates and inventory item roles.
 */

const description = { description: 'New description' };

export const dcimModulesCases: NetBoxTestCase[] = [
  {
    source: 'dcim/tests/test_api.py::InventoryItemRoleTestCase',
    model: 'dcim.inventoryitemrole',
    briefFields: ['description', 'display', 'id', 'inventoryitem_count', 'name', 'slug', 'url'],
    bulkUpdateData: description,
    setUp: async (t) => {
      await t.makeAll('dcim.inventoryitemrole', [
        { name: 'Inventory Item Role 1', slug: 'inventory-item-role-1', color: 'ff0000' },
        { name: 'Inventory Item Role 2', slug: 'inventory-item-role-2', color: '00ff00' },
        { name: 'Inventory Item Role 3', slug: 'inventory-item-role-3', color: '0000ff' },
      ]);
      return {
        createData: [4, 5, 6].map((i) => ({
          name: `Inventory Item Role ${i}`,
          slug: `inventory-item-role-${i}`,
          color: 'ffff00',
        })),
      };
    },
  },
];
