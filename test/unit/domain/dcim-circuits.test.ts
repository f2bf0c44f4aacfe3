import { describe, expect, it } from 'vitest';
import { applyModelSetRules, checkModelRules, writeItem } from './write-item.js';

/** DCIM and circuits rules (declared in YAML) that need no query, against NetBox's model clean() methods. */

describe('circuit rules (NetBox DistanceMixin)', () => {
  it.each([
    ['a distance with its unit', { distance: 12.5, distance_unit: 'km' }, {}],
    ['no distance and no unit', { distance: null, distance_unit: null }, {}],
    [
      'a distance without a unit',
      { distance: 12.5, distance_unit: null },
      { __all__: ['Must specify a unit when setting a distance'] },
    ],
    [
      'a distance with an empty unit',
      { distance: 3, distance_unit: '' },
      { __all__: ['Must specify a unit when setting a distance'] },
    ],
  ])('%s', async (_name, values, errors) => {
    expect(await checkModelRules(writeItem('circuits.circuit', values))).toEqual(errors);
  });

  it('drops the unit when there is no distance (NetBox clears it on save)', async () => {
    const item = writeItem('circuits.circuit', { distance: null, distance_unit: 'km' });
    expect(await checkModelRules(item)).toEqual({});
    expect((await applyModelSetRules(item)).distance_unit).toBeNull();
  });

  it('keeps the unit of a zero distance', async () => {
    const item = writeItem('circuits.circuit', { distance: 0, distance_unit: 'm' });
    expect((await applyModelSetRules(item)).distance_unit).toBe('m');
  });

  // NetBox: `if self.distance and not self.distance_unit` — a zero distance is falsy and needs no unit.
  it('accepts a zero distance without a unit', async () => {
    expect(await checkModelRules(writeItem('circuits.circuit', { distance: 0, distance_unit: null }))).toEqual({});
  });
});

describe('circuit termination rules', () => {
  it('requires a terminating object', async () => {
    const missing = writeItem('circuits.circuittermination', { termination_type: null, termination_id: null });
    expect(await checkModelRules(missing)).toEqual({
      __all__: ['A circuit termination must attach to a terminating object.'],
    });
    const given = writeItem('circuits.circuittermination', { termination_type: 'dcim.site', termination_id: 1 });
    expect(await checkModelRules(given)).toEqual({});
  });
});

describe('device type rules (NetBox DeviceType.clean and WeightMixin)', () => {
  const HALF = 'U height must be in increments of 0.5 rack units.';
  it.each([
    ['a whole height', { u_height: 2 }, {}],
    ['a half height', { u_height: 1.5 }, {}],
    ['zero height', { u_height: 0 }, {}],
    ['a height off the half units', { u_height: 1.25 }, { u_height: [HALF] }],
    ['a height just off a half unit', { u_height: 0.51 }, { u_height: [HALF] }],
    ['a 0U child', { u_height: 0, subdevice_role: 'child' }, {}],
    [
      'a child with a height',
      { u_height: 1, subdevice_role: 'child' },
      { u_height: ['Child device types must be 0U.'] },
    ],
    [
      'a child with a half height',
      { u_height: 0.5, subdevice_role: 'child' },
      { u_height: ['Child device types must be 0U.'] },
    ],
    ['a parent with a height', { u_height: 2, subdevice_role: 'parent' }, {}],
    ['a weight with its unit', { u_height: 1, weight: 5, weight_unit: 'kg' }, {}],
    ['a zero weight without a unit', { u_height: 1, weight: 0, weight_unit: null }, {}],
    [
      'a weight without a unit',
      { u_height: 1, weight: 5, weight_unit: null },
      { __all__: ['Must specify a unit when setting a weight'] },
    ],
    // The weight rule (WeightMixin, super().clean()) comes first and is the only one reported.
    [
      'a weight without a unit and a bad height',
      { u_height: 1.2, weight: 5, weight_unit: '' },
      { __all__: ['Must specify a unit when setting a weight'] },
    ],
  ])('%s', async (_name, values, errors) => {
    expect(await checkModelRules(writeItem('dcim.devicetype', values))).toEqual(errors);
  });
});

describe('rack rules on create without a location (NetBox Rack.clean)', () => {
  const rack = { site: 1, location: null, u_height: 42, starting_unit: 1 };
  it.each([
    ['plain dimensions', {}, {}],
    ['outer dimensions with a unit', { outer_width: 600, outer_depth: 1000, outer_unit: 'mm' }, {}],
    ['zero outer dimensions without a unit', { outer_width: 0, outer_unit: null }, {}],
    [
      'an outer width without a unit',
      { outer_width: 600, outer_unit: null },
      { __all__: ['Must specify a unit when setting an outer dimension'] },
    ],
    [
      'an outer height without a unit',
      { outer_height: 2000, outer_unit: '' },
      { __all__: ['Must specify a unit when setting an outer dimension'] },
    ],
    ['a maximum weight with a unit', { max_weight: 1000, weight_unit: 'kg' }, {}],
    [
      'a maximum weight without a unit',
      { max_weight: 1000, weight_unit: null },
      { __all__: ['Must specify a unit when setting a maximum weight'] },
    ],
    [
      'a weight without a unit',
      { weight: 80, weight_unit: null },
      { __all__: ['Must specify a unit when setting a weight'] },
    ],
    // NetBox raises at the first broken rule: the weight (WeightMixin), then the outer dimensions.
    [
      'a weight and an outer depth without units',
      { weight: 80, outer_depth: 900 },
      { __all__: ['Must specify a unit when setting a weight'] },
    ],
    [
      'an outer depth and a maximum weight without units',
      { outer_depth: 900, max_weight: 5 },
      { __all__: ['Must specify a unit when setting an outer dimension'] },
    ],
  ])('%s', async (_name, values, errors) => {
    expect(await checkModelRules(writeItem('dcim.rack', { ...rack, ...values }))).toEqual(errors);
  });
});

describe('rack set rules (NetBox Rack.save)', () => {
  it.each([
    ['no outer dimensions', { outer_width: null, outer_height: null, outer_depth: null }, null],
    ['zero outer dimensions', { outer_width: 0, outer_height: 0, outer_depth: null }, null],
    ['an outer width', { outer_width: 600, outer_height: null, outer_depth: null }, 'mm'],
    ['an outer depth only', { outer_width: null, outer_height: null, outer_depth: 1000 }, 'mm'],
  ])('with %s the outer unit is %s', async (_name, values, unit) => {
    const item = writeItem('dcim.rack', { ...values, outer_unit: 'mm' });
    expect((await applyModelSetRules(item)).outer_unit).toBe(unit);
  });
});
