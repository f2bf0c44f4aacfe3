import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../../runtime/db/connect.js';
import { migrate } from '../../../runtime/db/migrate.js';
import { migrations } from '../support/models.js';
import { applyModelSetRules, checkModelRules, writeItem } from './write-item.js';

/**
 * The generic evaluation of YAML model rules (runtime/rest/rules.ts) on the repository's own models, on an
 * in-memory SQLite database (foreign keys off): paths followed through foreign keys, rules skipped when a key
 * on the way is empty, messages that print related objects as NetBox does, computed values.
 *
 * Sites Alpha (1) and Beta (2); location Hall (1) at Alpha; racks R1 (F-01) at Alpha and R2 at Beta; power
 * panels Panel A at Alpha and Panel B at Beta; devices: sw1 (named), and an unnamed Acme X1 (id 11);
 * interface eth0 (uplink) on the unnamed device.
 */

let db: Database;

beforeAll(async () => {
  db = connectDatabase('sqlite::memory:');
  await migrate(db, migrations);
  const q = db.knex;
  await q.raw('PRAGMA foreign_keys = OFF');
  await q('dcim_site').insert([
    { id: 1, name: 'Alpha', slug: 'alpha' },
    { id: 2, name: 'Beta', slug: 'beta' },
  ]);
  await q('dcim_location').insert({ id: 1, name: 'Hall', slug: 'hall', site_id: 1 });
  await q('dcim_rack').insert([
    { id: 1, name: 'R1', facility_id: 'F-01', site_id: 1, location_id: 1, u_height: 42, starting_unit: 1 },
    { id: 2, name: 'R2', site_id: 2, u_height: 42, starting_unit: 1 },
  ]);
  await q('dcim_powerpanel').insert([
    { id: 1, name: 'Panel A', site_id: 1 },
    { id: 2, name: 'Panel B', site_id: 2 },
  ]);
  await q('dcim_manufacturer').insert({ id: 1, name: 'Acme', slug: 'acme' });
  await q('dcim_devicetype').insert({ id: 1, manufacturer_id: 1, model: 'X1', slug: 'x1', u_height: 1 });
  await q('dcim_device').insert([
    { id: 10, name: 'sw1', device_type_id: 1, role_id: 1, site_id: 1 },
    { id: 11, name: null, device_type_id: 1, role_id: 1, site_id: 1 },
  ]);
  await q('dcim_interface').insert({ id: 5, device_id: 11, name: 'eth0', label: 'uplink', type: 'virtual' });
});

afterAll(async () => {
  await db.close();
});

const check = (label: string, values: Record<string, unknown>, id?: number): Promise<Record<string, unknown>> =>
  checkModelRules(writeItem(label, values, id === undefined ? { q: db.knex } : { q: db.knex, id, existing: values }));

const feed = { name: 'F', status: 'active', supply: 'ac', phase: 'single-phase', voltage: 120, amperage: 15 };

describe('same: paths through foreign keys end at the same value', () => {
  it.each([
    ['a rack at the panel’s site', { power_panel: 1, rack: 1 }, {}],
    ['no rack (nothing to compare)', { power_panel: 2, rack: null }, {}],
    ['a rack that does not exist (nothing to follow)', { power_panel: 1, rack: 99 }, {}],
    [
      'a rack at another site, printed with its facility id',
      { power_panel: 2, rack: 1 },
      { __all__: ['Rack R1 (F-01) (Alpha) and power panel Panel B (Beta) are in different sites.'] },
    ],
    [
      'a rack at another site, printed by name',
      { power_panel: 1, rack: 2 },
      { __all__: ['Rack R2 (Beta) and power panel Panel A (Alpha) are in different sites.'] },
    ],
  ])('power feed: %s', async (_name, values, errors) => {
    expect(await check('dcim.powerfeed', { ...feed, ...values })).toEqual(errors);
  });

  it("power panel: a location of another site, naming the location's site", async () => {
    expect(await check('dcim.powerpanel', { name: 'P', site: 2, location: 1 })).toEqual({
      __all__: ['Location Hall (Alpha) is in a different site than Beta'],
    });
    expect(await check('dcim.powerpanel', { name: 'P', site: 1, location: 1 })).toEqual({});
  });

  it('prints a device through its display function (manufacturer, model and id when unnamed)', async () => {
    expect(await check('dcim.interface', { device: 10, name: 'v', type: 'virtual', parent: 5 })).toEqual({
      parent: ['The selected parent interface (eth0 (uplink)) belongs to a different device (Acme X1 (11))'],
    });
  });
});

describe('conditional and computed values', () => {
  it.each([
    ['a zero voltage', { voltage: 0 }, { voltage: ['This value may not be 0.'] }],
    ['a negative AC voltage', { voltage: -48 }, { voltage: ['Voltage cannot be negative for AC supply'] }],
    ['a negative DC voltage', { voltage: -48, supply: 'dc' }, {}],
  ])('power feed: %s', async (_name, values, errors) => {
    expect(await check('dcim.powerfeed', { ...feed, power_panel: 1, ...values })).toEqual(errors);
  });

  it('reports only the first failing rule, in the declared order', async () => {
    // The zero-voltage rule comes before the site rule.
    expect(await check('dcim.powerfeed', { ...feed, power_panel: 2, rack: 1, voltage: 0 })).toEqual({
      voltage: ['This value may not be 0.'],
    });
  });

  it.each([
    ['single phase', { voltage: 120, amperage: 15, max_utilization: 80, phase: 'single-phase' }, 1440],
    ['three phase', { voltage: 208, amperage: 30, max_utilization: 80, phase: 'three-phase' }, 8646],
    ['a negative DC voltage', { voltage: -48, amperage: 20, max_utilization: 100, phase: 'single-phase' }, 960],
  ])('computes the available power of a %s feed', async (_name, values, power) => {
    const item = writeItem('dcim.powerfeed', { ...feed, ...values, available_power: 0 }, { q: db.knex });
    expect((await applyModelSetRules(item)).available_power).toBe(power);
  });

  it("takes a device's location from its rack, and keeps it without one", async () => {
    const racked = writeItem('dcim.device', { site: 1, rack: 1, location: null }, { q: db.knex });
    expect((await applyModelSetRules(racked)).location).toBe(1);
    const unracked = writeItem('dcim.device', { site: 2, rack: 2, location: null }, { q: db.knex });
    expect((await applyModelSetRules(unracked)).location).toBeNull();
  });

  it('compares with the object itself through `id` (an interface cannot be its own parent)', async () => {
    expect(await check('dcim.interface', { device: 11, name: 'eth0', type: 'virtual', parent: 5 }, 5)).toEqual({
      parent: ['An interface cannot be its own parent.'],
    });
  });
});
