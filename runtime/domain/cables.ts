import type { Knex } from 'knex';
import { relatedRow } from '../db/row-memo.js';
import type { ModelInfo, Schema } from '../rest/schema.js';
import { parseBoolean } from '../rest/values.js';
import { BadRequestError } from '../errors.js';
import { CABLE, CIRCUIT_TERMINATION, FRONT_PORT, PROVIDER_NETWORK, REAR_PORT } from './cable-paths.js';
import { VIRTUAL_TYPES, WIRELESS_TYPES } from './interfaces.js';
import type { BatchContext, ComputeFunction, DomainEntry, FilterFunction, WriteItemContext } from './types.js';

/**
 * Cables (NetBox's Cable and CableTermination): the rules a cable's ends follow, the cached locations of a
 * termination, and what a cabled object shows of its cable (`cable`, `cable_end`, `link_peers`,
 * `link_peers_type`, `_occupied`) and filters by, read from the terminations table in one query per page.
 */

type Row = Record<string, unknown>;
/** A cable end as written: `{object_type, object_id}` items. */
type EndItem = { object_type: unknown; object_id: unknown };

const TERMINATIONS = 'dcim.cabletermination';

/** NetBox's COMPATIBLE_TERMINATION_TYPES, by model name. */
const COMPATIBLE: Readonly<Record<string, readonly string[]>> = {
  circuittermination: ['interface', 'frontport', 'rearport', 'circuittermination'],
  consoleport: ['consoleserverport', 'frontport', 'rearport'],
  consoleserverport: ['consoleport', 'frontport', 'rearport'],
  interface: ['interface', 'circuittermination', 'frontport', 'rearport'],
  frontport: ['consoleport', 'consoleserverport', 'interface', 'frontport', 'rearport', 'circuittermination'],
  powerfeed: ['powerport'],
  poweroutlet: ['powerport'],
  powerport: ['poweroutlet', 'powerfeed'],
  rearport: ['consoleport', 'consoleserverport', 'interface', 'frontport', 'rearport', 'circuittermination'],
};

/** Whether two cable ends' model names may be joined by a cable (NetBox's COMPATIBLE_TERMINATION_TYPES). */
export function compatibleTypes(a: string, b: string): boolean {
  return COMPATIBLE[a]?.includes(b) ?? false;
}

const modelName = (label: unknown): string => String(label ?? '').split('.')[1] ?? '';

/** `#<id>` unless the cable has a label. */
export function displayCable(values: Record<string, unknown>): string {
  const label = values.label;
  return typeof label === 'string' && label !== '' ? label : `#${String(values.id ?? '')}`;
}

/** `Cable <cable> to <type> <id>` (NetBox names the termination; the display has no I/O here). */
export function displayCableTermination(values: Record<string, unknown>): string {
  const cable = displayCable({ id: values['cable.id'], label: values['cable.label'] });
  const type = modelName(values.termination_type);
  return `Cable ${cable} to ${type} ${String(values.termination_id ?? '')}`;
}

/** The stored ends of a cable: its terminations' items by end. */
async function storedEnds(q: Knex, schema: Schema, cable: number): Promise<Record<'A' | 'B', EndItem[]>> {
  const rows = (await q(schema.model(TERMINATIONS).table)
    .where('cable_id', cable)
    .select('cable_end', 'termination_type', 'termination_id')
    .orderBy('id')) as Row[];
  const ends: Record<'A' | 'B', EndItem[]> = { A: [], B: [] };
  for (const row of rows)
    ends[row.cable_end === 'B' ? 'B' : 'A'].push({ object_type: row.termination_type, object_id: row.termination_id });
  return ends;
}

/**
 * NetBox's Cable.clean: both ends on a new cable, one type per end, types that may be joined, not the same
 * object at both ends; each written termination must exist. CableTermination.clean runs per termination as
 * the terminations are written (validateCableTermination).
 */
export async function validateCable(item: WriteItemContext): Promise<void> {
  const written = (key: string): EndItem[] | undefined =>
    Object.hasOwn(item.input, key) && Array.isArray(item.values[key]) ? (item.values[key] as EndItem[]) : undefined;
  const a = written('a_terminations');
  const b = written('b_terminations');
  if (item.existing === null && (!a?.length || !b?.length)) {
    item.errors.add('__all__', 'Must define A and B terminations when creating a new cable.');
    return;
  }
  if (!a && !b) return;
  for (const [key, end] of [
    ['a_terminations', a],
    ['b_terminations', b],
  ] as const) {
    for (const term of end ?? []) {
      const label = String(term.object_type);
      if (!(await relatedRow(item.q, item.schema.model(label).table, Number(term.object_id))))
        item.errors.add(
          key,
          `Related object not found using the provided attributes: {'pk': ${String(term.object_id)}}`,
        );
    }
  }
  if (item.errors.has()) return;
  const stored = item.id === null ? { A: [], B: [] } : await storedEnds(item.q, item.schema, item.id);
  const ends = [a ?? stored.A, b ?? stored.B];
  for (const end of ends) {
    if (end.some((t) => t.object_type !== end[0]!.object_type)) {
      item.errors.add('__all__', 'Cannot connect different termination types to same end of cable.');
      return;
    }
  }
  for (const end of ends) await checkMidSpanParent(item, end);
  const [endA, endB] = ends as [EndItem[], EndItem[]];
  if (endA.length === 0 || endB.length === 0) return;
  const typeA = modelName(endA[0]!.object_type);
  const typeB = modelName(endB[0]!.object_type);
  if (!compatibleTypes(typeA, typeB)) {
    item.errors.add('__all__', `Incompatible termination types: ${typeA} and ${typeB}`);
    return;
  }
  if (typeA === typeB) {
    const idsA = new Set(endA.map((t) => Number(t.object_id)));
    if (endB.some((t) => idsA.has(Number(t.object_id))))
      item.errors.add('__all__', 'A and B terminations cannot connect to the same object.');
  }
}

/**
 * NetBox's CablePath.from_origin refuses a path whose mid-span terminations (front or rear ports on one cable
 * end) are on different devices, and the cable's save fails with it (AbortRequest: 400 with `detail`).
 */
async function checkMidSpanParent(item: WriteItemContext, end: readonly EndItem[]): Promise<void> {
  const label = String(end[0]?.object_type ?? '');
  if (end.length < 2 || (label !== FRONT_PORT && label !== REAR_PORT)) return;
  const table = item.schema.model(label).table;
  const devices = new Set<unknown>();
  for (const term of end) devices.add(((await relatedRow(item.q, table, Number(term.object_id))) as Row)?.device_id);
  if (devices.size > 1) throw new BadRequestError('All mid-span terminations must have the same parent object');
}

/** NetBox's CableTermination.clean: not marked connected, not cabled already, a cabled interface type. */
export async function validateCableTermination(item: WriteItemContext): Promise<void> {
  const label = String(item.values.termination_type ?? '');
  const id = Number(item.values.termination_id);
  const target = item.schema.model(label);
  const row = (await relatedRow(item.q, target.table, id)) as Row | undefined;
  if (!row) {
    item.errors.add('__all__', 'Invalid cable termination: the assigned termination object does not exist.');
    return;
  }
  if (row.mark_connected === true || row.mark_connected === 1) {
    item.errors.add(
      '__all__',
      `Cannot connect a cable to ${await parentName(item, label, row)} > ${String(row.name ?? id)} because it is marked as connected.`,
    );
    return;
  }
  const duplicate = (await item
    .q(item.model.table)
    .where({ termination_type: label, termination_id: id })
    .whereNot('cable_id', Number(item.values.cable))
    .first('cable_id')) as Row | undefined;
  if (duplicate) {
    item.errors.add('__all__', `Duplicate termination found for ${label} ${id}: cable ${String(duplicate.cable_id)}`);
    return;
  }
  // The far end of its circuit already (the path ends at the network there): not cabled too.
  if (label === CIRCUIT_TERMINATION && row.termination_type === PROVIDER_NETWORK) {
    item.errors.add('__all__', 'Circuit terminations attached to a provider network may not be cabled.');
    return;
  }
  if (label === 'dcim.interface') {
    const type = String(row.type ?? '');
    if (VIRTUAL_TYPES.has(type) || WIRELESS_TYPES.has(type)) {
      const field = target.fields.get('type');
      const display = field?.kind === 'choice' ? field.choices.find(([v]) => v === type)?.[1] : undefined;
      item.errors.add('__all__', `Cables cannot be terminated to ${display ?? type} interfaces`);
    }
  }
}

/** The name of a termination's parent (its device, power panel or circuit), for messages. */
async function parentName(item: WriteItemContext, label: string, row: Row): Promise<string> {
  const [parentLabel, column, nameColumn] =
    label === 'dcim.powerfeed'
      ? ['dcim.powerpanel', 'power_panel_id', 'name']
      : label === 'circuits.circuittermination'
        ? ['circuits.circuit', 'circuit_id', 'cid']
        : ['dcim.device', 'device_id', 'name'];
  const parent = await relatedRow(item.q, item.schema.model(parentLabel).table, Number(row[column]));
  return String(parent?.[nameColumn] ?? '');
}

/**
 * NetBox's cache_related_objects: a component's device with its rack, location and site; a power feed's rack
 * with its location and site; a circuit termination's own cached site and location.
 */
export async function cacheCableTermination(item: WriteItemContext): Promise<void> {
  const label = String(item.values.termination_type ?? '');
  const cached: Record<string, unknown> = { _device: null, _rack: null, _location: null, _site: null };
  const row = label
    ? await relatedRow(item.q, item.schema.model(label).table, Number(item.values.termination_id))
    : undefined;
  if (row && row.device_id !== undefined && row.device_id !== null) {
    const device = await relatedRow(item.q, item.schema.model('dcim.device').table, Number(row.device_id));
    Object.assign(cached, {
      _device: row.device_id,
      _rack: device?.rack_id ?? null,
      _location: device?.location_id ?? null,
      _site: device?.site_id ?? null,
    });
  } else if (row && label === 'dcim.powerfeed') {
    const rack =
      row.rack_id === null
        ? undefined
        : await relatedRow(item.q, item.schema.model('dcim.rack').table, Number(row.rack_id));
    Object.assign(cached, {
      _rack: row.rack_id ?? null,
      _location: rack?.location_id ?? null,
      _site: rack?.site_id ?? null,
    });
  } else if (row && label === 'circuits.circuittermination') {
    Object.assign(cached, { _location: row._location_id ?? null, _site: row._site_id ?? null });
  }
  Object.assign(item.values, cached);
}

/** The termination rows of a page's objects of one cabled model, by object id. */
async function terminationsOf(ctx: BatchContext, model: ModelInfo, ids: readonly number[]): Promise<Map<number, Row>> {
  const rows = (await ctx
    .q(ctx.schema.model(TERMINATIONS).table)
    .where('termination_type', model.label)
    .whereIn('termination_id', [...ids])
    .select('termination_id', 'cable_id', 'cable_end')) as Row[];
  return new Map(rows.map((row) => [Number(row.termination_id), row]));
}

/** `cable`: the cable attached to each object, nested. */
const cableOf: ComputeFunction = async (ctx, model, ids) => {
  const rows = await terminationsOf(ctx, model, ids);
  const cables = [...new Set([...rows.values()].map((r) => Number(r.cable_id)))];
  const target = ctx.schema.model(CABLE);
  const objects = ctx.load && cables.length ? await ctx.load(CABLE, target.spec.nested, cables) : [];
  const byId = new Map(objects.map((o) => [Number(o.id), o]));
  return new Map(ids.map((id) => [id, byId.get(Number(rows.get(id)?.cable_id)) ?? null]));
};

/** `cable_end`: `A` or `B`, null without a cable. */
const cableEndOf: ComputeFunction = async (ctx, model, ids) => {
  const rows = await terminationsOf(ctx, model, ids);
  return new Map(ids.map((id) => [id, (rows.get(id)?.cable_end as string | undefined) ?? null]));
};

/** `_occupied`: a cable is attached or the object is marked connected. */
const occupiedOf: ComputeFunction = async (ctx, model, ids) => {
  const rows = await terminationsOf(ctx, model, ids);
  const marked = (await ctx
    .q(model.table)
    .whereIn('id', [...ids])
    .select('id', 'mark_connected')) as Row[];
  const flags = new Map(marked.map((r) => [Number(r.id), r.mark_connected === true || r.mark_connected === 1]));
  return new Map(ids.map((id) => [id, rows.has(id) || (flags.get(id) ?? false)]));
};

/** The far end's terminations of each object's cable: their type and ids. */
async function peersOf(
  ctx: BatchContext,
  model: ModelInfo,
  ids: readonly number[],
): Promise<Map<number, { type: string; ids: number[] }>> {
  const rows = await terminationsOf(ctx, model, ids);
  const cables = [...new Set([...rows.values()].map((r) => Number(r.cable_id)))];
  const peers = cables.length
    ? ((await ctx
        .q(ctx.schema.model(TERMINATIONS).table)
        .whereIn('cable_id', cables)
        .select('cable_id', 'cable_end', 'termination_type', 'termination_id')
        .orderBy('id')) as Row[])
    : [];
  const result = new Map<number, { type: string; ids: number[] }>();
  for (const [id, own] of rows) {
    const far = peers.filter((p) => Number(p.cable_id) === Number(own.cable_id) && p.cable_end !== own.cable_end);
    if (far.length === 0) continue;
    result.set(id, { type: String(far[0]!.termination_type), ids: far.map((p) => Number(p.termination_id)) });
  }
  return result;
}

/** `link_peers`: the far end's terminations, nested. */
const linkPeersOf: ComputeFunction = async (ctx, model, ids) => {
  const peers = await peersOf(ctx, model, ids);
  const byType = new Map<string, Set<number>>();
  for (const { type, ids: peerIds } of peers.values()) {
    const set = byType.get(type) ?? new Set<number>();
    for (const id of peerIds) set.add(id);
    byType.set(type, set);
  }
  const objects = new Map<string, Row>();
  for (const [type, set] of byType) {
    const loaded = ctx.load ? await ctx.load(type, ctx.schema.model(type).spec.nested, [...set]) : [];
    for (const object of loaded) objects.set(`${type}:${String(object.id)}`, object);
  }
  return new Map(
    ids.map((id) => {
      const peer = peers.get(id);
      return [id, peer ? peer.ids.map((p) => objects.get(`${peer.type}:${p}`)).filter((o) => o !== undefined) : []];
    }),
  );
};

/** `link_peers_type`: the far end's object type, null without one. */
const linkPeersTypeOf: ComputeFunction = async (ctx, model, ids) => {
  const peers = await peersOf(ctx, model, ids);
  return new Map(ids.map((id) => [id, peers.get(id)?.type ?? null]));
};

/** The ids of a model's objects that have a cable termination (a sub-query). */
function cabledIds(ctx: BatchContext, model: ModelInfo): (sub: Knex.QueryBuilder) => void {
  return (sub) =>
    void sub
      .select('ct.termination_id')
      .from({ ct: ctx.schema.model(TERMINATIONS).table })
      .where('ct.termination_type', model.label);
}

const invalidChoice = (value: string | undefined): string =>
  `Select a valid choice. ${String(value)} is not one of the available choices.`;

/** `cabled=true|false`: objects with (without) a cable. */
const cabledFilter: FilterFunction = async (ctx, model, values) => {
  const flag = parseBoolean(values[0] ?? '');
  if (flag === null) return invalidChoice(values[0]);
  return (query) =>
    void (flag ? query.whereIn('t0.id', cabledIds(ctx, model)) : query.whereNotIn('t0.id', cabledIds(ctx, model)));
};

/** `occupied=true|false`: a cable is attached or the object is marked connected (or neither). */
const occupiedFilter: FilterFunction = async (ctx, model, values) => {
  const flag = parseBoolean(values[0] ?? '');
  if (flag === null) return invalidChoice(values[0]);
  const trueValue = ctx.dialect === 'sqlite' ? 1 : true;
  return (query) =>
    void (flag
      ? query.where((w) => void w.whereIn('t0.id', cabledIds(ctx, model)).orWhere('t0.mark_connected', trueValue))
      : query.whereNotIn('t0.id', cabledIds(ctx, model)).whereNot('t0.mark_connected', trueValue));
};

/** `cable_id`: objects attached to one of the cables (`null`: to none); `__n` negates. */
const cableIdFilter: FilterFunction = async (ctx, model, values, lookup) => {
  const given = values.filter((v) => v !== 'null');
  const bad = given.find((v) => !/^\d+$/.test(v.trim()));
  if (bad !== undefined) return invalidChoice(bad);
  const ids = given.map(Number);
  const found = ids.length
    ? new Set(
        ((await ctx.q(ctx.schema.model(CABLE).table).whereIn('id', ids).select('id')) as Row[]).map((r) =>
          Number(r.id),
        ),
      )
    : new Set<number>();
  const missing = given.find((v) => !found.has(Number(v)));
  if (missing !== undefined) return invalidChoice(missing);
  const positive = (query: Knex.QueryBuilder): void =>
    void query.where((w) => {
      if (ids.length) w.orWhereIn('t0.id', (sub) => cabledIds(ctx, model)(sub.whereIn('ct.cable_id', ids)));
      if (given.length < values.length) w.orWhereNotIn('t0.id', cabledIds(ctx, model));
    });
  return lookup === 'n' ? (query) => void query.whereNot(positive) : positive;
};

/** Whether one value of a text lookup holds for a cable end (null: no cable), as Django would filter a column. */
export function endMatches(lookup: string, value: string, end: 'A' | 'B' | null): boolean | string {
  const negated = ['n', 'nic', 'nie', 'nisw', 'niew'].includes(lookup);
  if (lookup === 'empty') {
    const flag = parseBoolean(value);
    if (flag === null) return invalidChoice(value);
    return flag === (end === null);
  }
  if (end === null) return negated;
  const e = end.toLowerCase();
  const v = value.toLowerCase();
  const tests: Record<string, () => boolean> = {
    '': () => end === value,
    n: () => end !== value,
    ic: () => e.includes(v),
    nic: () => !e.includes(v),
    ie: () => e === v,
    nie: () => e !== v,
    isw: () => e.startsWith(v),
    nisw: () => !e.startsWith(v),
    iew: () => e.endsWith(v),
    niew: () => !e.endsWith(v),
    regex: () => new RegExp(value).test(end),
    iregex: () => new RegExp(value, 'i').test(end),
  };
  const test = tests[lookup];
  if (!test) return `Unsupported lookup: ${lookup}`;
  try {
    return test();
  } catch {
    return 'Enter a valid regular expression.';
  }
}

/**
 * `cable_end` with its text lookups: which of A, B and "no cable" the values select (any value for a positive
 * lookup, every value for a negated one, as NetBox's exclude), then objects on those ends.
 */
const cableEndFilter: FilterFunction = async (ctx, model, values, lookup) => {
  const negated = ['n', 'nic', 'nie', 'nisw', 'niew'].includes(lookup);
  const selected: ('A' | 'B' | null)[] = [];
  for (const end of ['A', 'B', null] as const) {
    const results = values.map((v) => endMatches(lookup, v.trim(), end));
    const error = results.find((r) => typeof r === 'string');
    if (error !== undefined) return error as string;
    if (negated ? results.every(Boolean) : results.some(Boolean)) selected.push(end);
  }
  const ends = selected.filter((e) => e !== null);
  const uncabled = selected.includes(null);
  return (query) =>
    void query.where((w) => {
      if (ends.length) w.orWhereIn('t0.id', (sub) => cabledIds(ctx, model)(sub.whereIn('ct.cable_end', ends)));
      if (uncabled) w.orWhereNotIn('t0.id', cabledIds(ctx, model));
      if (!ends.length && !uncabled) w.whereRaw('1 = 0');
    });
};

/** `termination_a_id` / `termination_b_id`: cables with one of the objects (of any type) at that end. */
function cablesWithTermination(end: 'A' | 'B'): FilterFunction {
  return async (ctx, _model, values) => {
    const bad = values.find((v) => !/^\d+$/.test(v.trim()));
    if (bad !== undefined) return `Enter a number.`;
    return (query) =>
      void query.whereIn('t0.id', (sub) =>
        sub
          .select('ct.cable_id')
          .from({ ct: ctx.schema.model(TERMINATIONS).table })
          .where('ct.cable_end', end)
          .whereIn('ct.termination_id', values.map(Number)),
      );
  };
}

/** `termination_a_type` / `termination_b_type`: cables with a termination of one of the types (at either end, as NetBox). */
const cablesWithTerminationType: FilterFunction = async (ctx, _model, values, lookup) => {
  const labels = values.map((v) => v.trim().toLowerCase());
  const bad = labels.find((v) => !ctx.schema.objectTypeId(v));
  if (bad !== undefined) return invalidChoice(bad);
  return (query) =>
    void query[lookup === 'n' ? 'whereNotIn' : 'whereIn']('t0.id', (sub) =>
      sub
        .select('ct.cable_id')
        .from({ ct: ctx.schema.model(TERMINATIONS).table })
        .whereIn('ct.termination_type', labels),
    );
};

/** `unterminated=true|false`: cables without (with) terminations at both ends. */
const unterminatedCables: FilterFunction = async (ctx, _model, values) => {
  const flag = parseBoolean(values[0] ?? '');
  if (flag === null) return invalidChoice(values[0]);
  const table = ctx.schema.model(TERMINATIONS).table;
  const terminated = (sub: Knex.QueryBuilder): void =>
    void sub
      .select('a.cable_id')
      .from({ a: table })
      .where('a.cable_end', 'A')
      .whereIn('a.cable_id', (inner) => void inner.select('b.cable_id').from({ b: table }).where('b.cable_end', 'B'));
  return (query) => void (flag ? query.whereNotIn('t0.id', terminated) : query.whereIn('t0.id', terminated));
};

/** The cables domain functions, by the names YAML uses. */
export const cableFunctions = {
  'dcim.displayCable': { kind: 'display', fn: displayCable },
  'dcim.displayCableTermination': { kind: 'display', fn: displayCableTermination },
  'dcim.validateCable': { kind: 'validator', fn: validateCable },
  'dcim.validateCableTermination': { kind: 'validator', fn: validateCableTermination },
  'dcim.cacheCableTermination': { kind: 'prepare', fn: cacheCableTermination },
  'dcim.cableOf': { kind: 'compute', fn: cableOf },
  'dcim.cableEndOf': { kind: 'compute', fn: cableEndOf },
  'dcim.occupiedOf': { kind: 'compute', fn: occupiedOf },
  'dcim.linkPeersOf': { kind: 'compute', fn: linkPeersOf },
  'dcim.linkPeersTypeOf': { kind: 'compute', fn: linkPeersTypeOf },
  'dcim.cabledFilter': { kind: 'filter', fn: cabledFilter },
  'dcim.occupiedFilter': { kind: 'filter', fn: occupiedFilter },
  'dcim.cableIdFilter': { kind: 'filter', fn: cableIdFilter },
  'dcim.cableEndFilter': { kind: 'filter', fn: cableEndFilter },
  'dcim.cablesWithTerminationA': { kind: 'filter', fn: cablesWithTermination('A') },
  'dcim.cablesWithTerminationB': { kind: 'filter', fn: cablesWithTermination('B') },
  'dcim.cablesWithTerminationType': { kind: 'filter', fn: cablesWithTerminationType },
  'dcim.unterminatedCables': { kind: 'filter', fn: unterminatedCables },
} satisfies Record<string, DomainEntry>;
