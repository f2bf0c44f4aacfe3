import type { NetBoxTestCase } from '../generic.js';

/**
 * Ported from NetBox 4.6.8 dcim/tests/test_api.py: module type profiles, module types, modules, module bays,
 * device bays, inventory items, their templates and inventory item roles.
 */

const description = { description: 'New description' };
const SCHEMAS = ['string', 'integer', 'boolean'].map((type) => ({ properties: { foo: { type } } }));

export const dcimModulesCases: NetBoxTestCase[] = [
  {
    source: 'dcim/tests/test_api.py::ModuleTypeProfileTestCase',
    model: 'dcim.moduletypeprofile',
    briefFields: ['description', 'display', 'id', 'name', 'url'],
    bulkUpdateData: { description: 'New description', comments: 'New comments' },
    setUp: async (t) => {
      await t.makeAll(
        'dcim.moduletypeprofile',
        SCHEMAS.map((schema, i) => ({ name: `Module Type Profile ${i + 1}`, schema })),
      );
      return { createData: SCHEMAS.map((schema, i) => ({ name: `Module Type Profile ${i + 4}`, schema })) };
    },
  },
  {
    source: 'dcim/tests/test_api.py::ModuleTypeTestCase',
    model: 'dcim.moduletype',
    briefFields: ['description', 'display', 'id', 'manufacturer', 'model', 'module_count', 'profile', 'url'],
    bulkUpdateData: { part_number: 'ABC123' },
    userPermissions: ['dcim.view_manufacturer'],
    setUp: async (t) => {
      const [m1, m2] = await t.makeAll('dcim.manufacturer', [
        { name: 'Manufacturer 1', slug: 'manufacturer-1' },
        { name: 'Manufacturer 2', slug: 'manufacturer-2' },
      ]);
      await t.makeAll(
        'dcim.moduletype',
        [1, 2, 3].map((i) => ({ manufacturer: m1!.id, model: `Module Type ${i}` })),
      );
      return { createData: [4, 5, 6].map((i) => ({ manufacturer: m2!.id, model: `Module Type ${i}` })) };
    },
  },
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
