import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDatabase, type Database } from '../../../runtime/db/connect.js';
import { migrate } from '../../../runtime/db/migrate.js';
import { migrations } from '../support/models.js';
import { checkModelRules, writeItem } from './write-item.js';

/**
 * Where a device may go (NetBox Device.clean and Rack.get_available_units) and what a rack must keep room
 * for (Rack.clean), on an in-memory SQLite database holding one small rack layout (foreign keys off).
 *
 * Rack R1 (10U from U1, site Alpha, location Hall): a full-depth 2U device at U1 (front), a half-depth 1U
 * device at U5 (rear), a full-depth 1U panel excluded from utilization at U8 (front).
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
  await q('dcim_location').insert([
    { id: 1, name: 'Hall', slug: 'hall', site_id: 1 },
    { id: 2, name: 'Room', slug: 'room', site_id: 2 },
  ]);
  await q('dcim_rack').insert([
    { id: 1, name: 'R1', facility_id: 'F-01', site_id: 1, location_id: 1, u_height: 10, starting_unit: 1 },
    { id: 2, name: 'R2', site_id: 1, location_id: null, u_height: 4, starting_unit: 1 },
  ]);
  await q('dcim_manufacturer').insert({ id: 1, name: 'Acme', slug: 'acme' });
  const type = (id: number, model: string, uHeight: number, fullDepth: boolean, extra = {}) => ({
    id,
    manufacturer_id: 1,
    model,
    slug: model.toLowerCase(),
    u_height: uHeight,
    is_full_depth: fullDepth,
    exclude_from_utilization: false,
    subdevice_role: null,
    ...extra,
  });
  await q('dcim_devicetype').insert([
    type(1, 'Half1U', 1, false),
    type(2, 'Full2U', 2, true),
    type(3, 'Zero', 0, false),
    type(4, 'Blade', 0, false, { subdevice_role: 'child' }),
    type(5, 'Panel', 1, true, { exclude_from_utilization: true }),
    type(6, 'HalfU', 0.5, false),
  ]);
  const device = (id: number, typeId: number, position: number, face: string) => ({
    id,
    device_type_id: typeId,
    role_id: 1,
    site_id: 1,
    location_id: 1,
    rack_id: 1,
    position,
    face,
  });
  await q('dcim_device').insert([device(10, 2, 1, 'front'), device(11, 1, 5, 'rear'), device(12, 5, 8, 'front')]);
});

afterAll(async () => {
  await db.close();
});

/** The errors of placing a new device (or moving device `id`) with these values. */
async function place(values: Record<string, unknown>, id?: number): Promise<Record<string, unknown>> {
  const base = { site: 1, location: null, rack: null, position: null, face: null, device_type: 1 };
  const item = writeItem(
    'dcim.device',
    { ...base, ...values },
    id === undefined ? { q: db.knex } : { q: db.knex, id, existing: { ...base, ...values } },
  );
  return checkModelRules(item);
}

const occupied = (position: string, model: string, height: string) => ({
  position: [
    `U${position} is already occupied or does not have sufficient space to accommodate this device type: ${model} (${height}U)`,
  ],
});

describe('rack space (get_available_units)', () => {
  it.each([
    ['a half-depth device in a free unit', { device_type: 1, position: 3, face: 'front' }, {}],
    [
      'a half-depth device over a full-depth one',
      { device_type: 1, position: 2, face: 'rear' },
      occupied('2.0', 'Half1U', '1.0'),
    ],
    ['a half-depth device opposite a half-depth one', { device_type: 1, position: 5, face: 'front' }, {}],
    [
      'a half-depth device on the same face',
      { device_type: 1, position: 5, face: 'rear' },
      occupied('5.0', 'Half1U', '1.0'),
    ],
    [
      'a full-depth device opposite a half-depth one',
      { device_type: 2, position: 4, face: 'front' },
      occupied('4.0', 'Full2U', '2.0'),
    ],
    ['a full-depth device in free units', { device_type: 2, position: 6, face: 'front' }, {}],
    ['the top unit', { device_type: 1, position: 10, face: 'front' }, {}],
    [
      'a device reaching above the top',
      { device_type: 2, position: 10, face: 'front' },
      occupied('10.0', 'Full2U', '2.0'),
    ],
    ['a half unit at a half position', { device_type: 6, position: 3.5, face: 'front' }, {}],
    [
      'a 1U device from a half position',
      { device_type: 1, position: 2.5, face: 'front' },
      occupied('2.5', 'Half1U', '1.0'),
    ],
  ])('%s', async (_name, values, errors) => {
    expect(await place({ location: 1, rack: 1, ...values })).toEqual(errors);
  });

  it('leaves a moved device out of the units it would collide with', async () => {
    expect(await place({ location: 1, rack: 1, device_type: 2, position: 2, face: 'front' }, 10)).toEqual({});
    expect(await place({ location: 1, rack: 1, device_type: 1, position: 5, face: 'front' }, 11)).toEqual({});
  });

  // Device.clean calls get_available_units() without ignore_excluded_devices: a device whose type is
  // excluded from utilization (a blanking panel) still takes up its units.
  it.fails('counts devices excluded from utilization as occupying their units (bug: ignored)', async () => {
    expect(await place({ location: 1, rack: 1, device_type: 1, position: 8, face: 'front' })).toEqual(
      occupied('8.0', 'Half1U', '1.0'),
    );
  });
});

describe('placement rules, in NetBox’s order', () => {
  it.each([
    ['a rack of another site', { site: 2, rack: 1 }, { rack: ['Rack R1 (F-01) does not belong to site Beta.'] }],
    ['a location of another site', { location: 2 }, { location: ['Location Room does not belong to site Alpha.'] }],
    ['a rack outside the location', { location: 1, rack: 2 }, { rack: ['Rack R2 does not belong to location Hall.'] }],
    ['a face without a rack', { face: 'front' }, { face: ['Cannot select a rack face without assigning a rack.'] }],
    [
      'a position without a rack',
      { position: 3 },
      { position: ['Cannot select a rack position without assigning a rack.'] },
    ],
    [
      'a position off the half units',
      { rack: 2, position: 1.2, face: 'front' },
      { position: ['Position must be in increments of 0.5 rack units.'] },
    ],
    [
      'a position without a face',
      { rack: 2, position: 2 },
      { face: ['Must specify rack face when defining rack position.'] },
    ],
    [
      'a 0U device at a position',
      { rack: 2, device_type: 3, position: 2, face: 'front' },
      { position: ['A 0U device type (Zero) cannot be assigned to a rack position.'] },
    ],
    ['a 0U device in a rack without a position', { rack: 2, device_type: 3 }, {}],
    [
      'a child device on a rack face',
      { rack: 2, device_type: 4, face: 'rear' },
      { face: ['Child device types cannot be assigned to a rack face. This is an attribute of the parent device.'] },
    ],
    ['a device in a rack without a position', { rack: 2, device_type: 2, face: 'front' }, {}],
    [
      'local context data that is not an object',
      { local_context_data: [1] },
      { local_context_data: ['JSON data must be in object form. Example: {"foo": 123}'] },
    ],
  ])('%s', async (_name, values, errors) => {
    expect(await place(values)).toEqual(errors);
  });
});

describe('a rack keeps room for its devices (Rack.clean on update)', () => {
  const rack = (values: Record<string, unknown>) => {
    const existing = { site: 1, location: 1, u_height: 10, starting_unit: 1, weight: null, max_weight: null };
    return writeItem('dcim.rack', values, { id: 1, existing, q: db.knex });
  };

  it.each([
    ['the same height', { u_height: 10 }, {}],
    ['just tall enough for the top device', { u_height: 8 }, {}],
    [
      'too short for the top device',
      { u_height: 7 },
      { u_height: ['Rack must be at least 8.0U tall to house currently installed devices.'] },
    ],
    [
      'numbering starting above the lowest device',
      { starting_unit: 2 },
      { starting_unit: ['Rack unit numbering must begin at 1.0 or less to house currently installed devices.'] },
    ],
    [
      'a location of another site',
      { location: 2 },
      { __all__: ['Assigned location must belong to parent site (Alpha).'] },
    ],
  ])('%s', async (_name, values, errors) => {
    const item = rack(values);
    expect(await checkModelRules(item)).toEqual(errors);
  });

  it('keeps no room in an empty rack', async () => {
    const item = writeItem(
      'dcim.rack',
      { u_height: 1, starting_unit: 30 },
      { id: 2, existing: { site: 1, location: null }, q: db.knex },
    );
    expect(await checkModelRules(item)).toEqual({});
  });
});
