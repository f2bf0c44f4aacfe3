import { listItemFilter } from './services.js';
import type { DomainEntry, FilterFunction, PrepareFunction, ValidatorFunction } from './types.js';

/** Rack reservations: NetBox's unit checks against the rack and the rack's other reservations, and unit counts. */

type Row = Record<string, unknown>;

/** A reservation's `unit_count` is the number of its units (NetBox annotates it; here it is kept on save). */
const prepareRackReservation: PrepareFunction = (item) => {
  const units = item.values.units;
  item.values.unit_count = Array.isArray(units) ? units.length : 0;
};

/** The integer units of a rack (NetBox's `Rack.units`, without the half units). */
export function rackUnits(startingUnit: number, height: number): number[] {
  return Array.from({ length: height }, (_, i) => startingUnit + i);
}

/** The units of `wanted` that are not in `allowed`, and those in `taken`, in the order given. */
export function unitConflicts(
  wanted: readonly number[],
  allowed: readonly number[],
  taken: readonly number[],
): { invalid: number[]; reserved: number[] } {
  const inRack = new Set(allowed);
  const reserved = new Set(taken);
  return { invalid: wanted.filter((u) => !inRack.has(u)), reserved: wanted.filter((u) => reserved.has(u)) };
}

/** NetBox's RackReservation.clean(): every unit exists in the rack, and no other reservation of it holds one. */
const validateRackReservationUnits: ValidatorFunction = async (item) => {
  const units = (item.values.units as number[] | undefined) ?? [];
  if (units.length === 0 || item.values.rack === null || item.values.rack === undefined) return;
  const racks = item.schema.model('dcim.rack').table;
  const rack = (await item.q(racks).where('id', Number(item.values.rack)).first('u_height', 'starting_unit')) as
    Row | undefined;
  if (!rack) return;
  const others = item.q(item.model.table).where('rack_id', Number(item.values.rack)).select('units');
  if (item.id !== null) others.whereNot('id', item.id);
  const taken = ((await others) as Row[]).flatMap(
    (r) => (typeof r.units === 'string' ? JSON.parse(r.units) : r.units) as number[],
  );
  // Earlier objects of the same request reserve their units first.
  for (const earlier of item.earlier)
    if (Number(earlier.values.rack) === Number(item.values.rack) && earlier.id !== item.id)
      taken.push(...((earlier.values.units as number[] | undefined) ?? []));
  const { invalid, reserved } = unitConflicts(
    units,
    rackUnits(Number(rack.starting_unit), Number(rack.u_height)),
    taken,
  );
  if (invalid.length > 0)
    item.errors.add('units', `Invalid unit(s) for ${Number(rack.u_height)}U rack: ${invalid.join(', ')}`);
  else if (reserved.length > 0)
    item.errors.add('units', `The following units have already been reserved: ${reserved.join(', ')}`);
};

/** `unit_count_min` / `unit_count_max`: at least or at most that many units. */
function unitCount(operator: '>=' | '<='): FilterFunction {
  return async (_ctx, model, values) => {
    const value = values[values.length - 1]!.trim();
    if (!/^-?\d+$/.test(value)) return 'Enter a number.';
    const column = model.fields.get('unit_count')!.column!;
    return (query) => void query.where(`t0.${column}`, operator, Number(value));
  };
}

export const rackFunctions = {
  'dcim.prepareRackReservation': { kind: 'prepare', fn: prepareRackReservation },
  'dcim.validateRackReservationUnits': { kind: 'validator', fn: validateRackReservationUnits },
  'dcim.rackReservationsWithUnit': { kind: 'filter', fn: listItemFilter('units') },
  'dcim.unitCountAtLeast': { kind: 'filter', fn: unitCount('>=') },
  'dcim.unitCountAtMost': { kind: 'filter', fn: unitCount('<=') },
} satisfies Record<string, DomainEntry>;
