import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/app.js';
import { changeLoggedTests, createAll, filterSetSuite, leftOut, useApp } from '../support/filtersets.js';

/**
 * NetBox 4.6.8 dcim/tests/test_filtersets.py for module type profiles, module types, modules, module bays,
 * device bays, inventory items, their templates and inventory item roles.
 */
describe.each(DIALECTS)('dcim-modules filter sets on %s', (dialect) => {
  const shared = useApp(dialect);

  describe('ModuleTypeTestCase', () => {
    const PROFILE_SCHEMA = {
      properties: {
        string: { type: 'string' },
        integer: { type: 'integer' },
        number: { type: 'number' },
        boolean: { type: 'boolean' },
      },
    };
    const suite = filterSetSuite(shared, 'dcim.moduletype', async (api) => {
      const manufacturers = await createAll(
        api,
        '/api/dcim/manufacturers/',
        [1, 2, 3].map((i) => ({ name: `Manufacturer ${i}`, slug: `manufacturer-${i}` })),
      );
      const profiles = await createAll(
        api,
        '/api/dcim/module-type-profiles/',
        [1, 2, 3].map((i) => ({ name: `Module Type Profile ${i}`, schema: PROFILE_SCHEMA })),
      );
      const module_types = await createAll(api, '/api/dcim/module-types/', [
        {
          manufacturer: manufacturers[0]!.id,
          model: 'Model 1',
          part_number: 'Part Number 1',
          weight: 10,
          weight_unit: 'lb',
          description: 'foobar1',
          airflow: 'front-to-rear',
          profile: profiles[0]!.id,
          attributes: { string: 'string1', integer: 1, number: 1.0, boolean: true },
        },
        {
          manufacturer: manufacturers[1]!.id,
          model: 'Model 2',
          part_number: 'Part Number 2',
          weight: 20,
          weight_unit: 'lb',
          description: 'foobar2',
          airflow: 'rear-to-front',
          profile: profiles[1]!.id,
          attributes: { string: 'string2', integer: 2, number: 2.0, boolean_: false },
        },
        {
          manufacturer: manufacturers[2]!.id,
          model: 'Model 3',
          part_number: 'Part Number 3',
          weight: 30,
          weight_unit: 'kg',
          description: 'foobar3',
          profile: profiles[2]!.id,
          // NetBox's bulk_create skips clean(); its `"boolean": None` fails the schema here, so the key is left out.
          attributes: { string: 'string3', integer: 3, number: 3.0 },
        },
      ]);
      await createAll(api, '/api/dcim/console-port-templates/', [
        { module_type: module_types[0]!.id, name: 'Console Port 1' },
        { module_type: module_types[1]!.id, name: 'Console Port 2' },
      ]);
      return { manufacturers, profiles, module_types };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_model', async () => {
      expect(await suite.count({ model: ['Model 1', 'Model 2'] })).toBe(2);
    });
    it('test_part_number', async () => {
      expect(await suite.count({ part_number: ['Part Number 1', 'Part Number 2'] })).toBe(2);
    });
    it('test_description', async () => {
      expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2);
    });
    it('test_manufacturer', async () => {
      const [m1, m2] = suite.data.manufacturers;
      expect(await suite.count({ manufacturer_id: [m1!.id, m2!.id] })).toBe(2);
      expect(await suite.count({ manufacturer: [m1!.slug, m2!.slug] })).toBe(2);
    });
    it('test_console_ports', async () => {
      expect(await suite.count({ console_ports: 'true' })).toBe(2);
      expect(await suite.count({ console_ports: 'false' })).toBe(1);
    });
    for (const name of ['console_server_ports', 'power_ports', 'power_outlets', 'interfaces', 'pass_through_ports'])
      leftOut(`test_${name}`, 'those component templates are another branch (h-ports); the filter selects none');
    leftOut('test_module_bays', 'module bay templates come with module bays (a later commit)');
    it('test_weight', async () => {
      expect(await suite.count({ weight: [10, 20] })).toBe(2);
    });
    it('test_weight_unit', async () => {
      expect(await suite.count({ weight_unit: 'lb' })).toBe(2);
    });
    it('test_airflow', async () => {
      expect(await suite.count({ airflow: 'front-to-rear' })).toBe(1);
    });
    it('test_profile', async () => {
      const [p1, p2] = suite.data.profiles;
      expect(await suite.count({ profile_id: [p1!.id, p2!.id] })).toBe(2);
      expect(await suite.count({ profile: [p1!.name, p2!.name] })).toBe(2);
    });
    it('test_profile_attributes', async () => {
      expect(await suite.count({ attr_string: 'string1' })).toBe(1);
      expect(await suite.count({ attr_integer: '1' })).toBe(1);
      expect(await suite.count({ attr_number: '2.0' })).toBe(1);
      expect(await suite.count({ attr_boolean: 'true' })).toBe(1);
    });
  });

  describe('ModuleTypeProfileTestCase', () => {
    const SCHEMAS = ['string', 'integer', 'boolean'].map((type) => ({ properties: { foo: { type } } }));
    const suite = filterSetSuite(shared, 'dcim.moduletypeprofile', async (api) => {
      const profiles = await createAll(api, '/api/dcim/module-type-profiles/', [
        { name: 'Module Type Profile 1', description: 'foobar1', schema: SCHEMAS[0] },
        { name: 'Module Type Profile 2', description: 'foobar2 2', schema: SCHEMAS[1] },
        { name: 'Module Type Profile 3', description: 'foobar3', schema: SCHEMAS[2] },
      ]);
      return { profiles };
    });
    changeLoggedTests(suite);
    it('test_q', async () => {
      expect(await suite.count({ q: 'foobar1' })).toBe(1);
    });
    it('test_name', async () => {
      expect(await suite.count({ name: ['Module Type Profile 1', 'Module Type Profile 2'] })).toBe(2);
    });
  });

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
