import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/app.js';
import { changeLoggedTests, createAll, filterSetSuite, useApp } from '../support/filtersets.js';

/**
 * NetBox 4.6.8 dcim/tests/test_filtersets.py for module type profiles, module types, modules, module bays,
 * device bays, inventory items, their templates and inventory item roles.
 */
describe.each(DIALECTS)('dcim-modules filter sets on %s', (dialect) => {
  const shared = useApp(dialect);

  describe('InventoryItemRoleTestCase', () => {
    const suite = filterSetSuite(shared, 'dcim.inventoryitemrole', async (api) => {
      const roles = await createAll(api, '/api/dcim/inventory-item-roles/', [
        { name: 'Inventory Item Role 1', slug: 'inventory-item-role-1', color: 'ff0000', description: 'foobar1' },
        { name: 'Inventory Item Role 2', slug: 'inventory-item-role-2', color: '00ff00', description: 'foobar2' },
        { name: 'Inventory Item Role 3', slug: 'inventory-item-role-3', color: '0000ff', description: 'foobar3' },
      ]);
      return { roles };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Inventory Item Role 1', 'Inventory Item Role 2'] })).toBe(2);
    });
    it('test_slug', async () => {
      expect(await suite.count({ slug: ['inventory-item-role-1', 'inventory-item-role-2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_color', async () => {
      expect(await suite.count({ color: ['ff0000', '00ff00'] })).toBe(2);
    });
  });
});
