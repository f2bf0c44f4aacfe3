import type { Knex } from 'knex';
import type { ChildListField } from '../spec.js';
import type { Dialect } from '../db/connect.js';
import { chunks } from '../db/sql.js';
import { parseFieldValue, pythonType } from './parse-field.js';
import type { ModelInfo, Schema } from './schema.js';
import { runShaped } from './shaped.js';
import { decodeColumn } from './values.js';

/**
 * Child lists (`type: children`, see runtime/kinds/children.ts): reading them for a page in one batched query,
 * parsing a written list, and the difference between a written list and the stored children. The writes
 * themselves go through the child model's write path (write.ts).
 */

type Row = Record<string, unknown>;

/** What parsing needs of the write's related-object resolver (related.ts imports fetch.ts, which reads lists). */
interface Resolver {
  resolve(target: ModelInfo, value: unknown): Promise<{ ok: true; id: number } | { ok: false; error: string }>;
}
/** One child as an item: item key → value (FKs as ids). */
export type ChildItem = Record<string, unknown>;

/** The child model and the columns of its parent FK and item keys. */
function columnsOf(
  schema: Schema,
  field: ChildListField,
): { child: ModelInfo; parent: string; keys: [string, string][]; fixed: Record<string, string> } {
  const child = schema.model(field.model);
  return {
    child,
    parent: child.fields.get(field.parent)!.column!,
    keys: field.keys.map(({ key, field: name }) => [key, child.fields.get(name)!.column!]),
    fixed: Object.fromEntries(
      Object.entries(field.fixed ?? {}).map(([name, value]) => [child.fields.get(name)!.column!, value]),
    ),
  };
}

/** The items of each owner, in the order of their identity key, in one query per 500 owners. */
export async function loadChildren(
  q: Knex,
  dialect: Dialect,
  schema: Schema,
  field: ChildListField,
  ids: readonly number[],
): Promise<Map<number, ChildItem[]>> {
  const { child, parent, keys, fixed } = columnsOf(schema, field);
  const identity = keys.find(([key]) => key === field.identity)![1];
  const decoders = field.keys.map(({ key, field: name }) => [key, child.fields.get(name)!] as const);
  const build = (owners: readonly number[]): Knex.QueryBuilder =>
    q(child.table)
      .whereIn(parent, [...owners])
      .where(fixed)
      .select({ _owner: parent, ...Object.fromEntries(keys) })
      .orderBy([parent, identity, 'id']);
  const result = new Map<number, ChildItem[]>();
  for (const chunk of chunks(ids, 500)) {
    const rows = await runShaped<Row>(
      q,
      dialect,
      `children:${field.model}:${field.parent}:${field.name}`,
      chunk,
      build,
    );
    for (const row of rows) {
      const owner = Number(row._owner);
      const item: ChildItem = {};
      for (const [key, spec] of decoders) item[key] = row[key] === null ? null : decodeColumn(spec, row[key]);
      const list = result.get(owner);
      if (list) list.push(item);
      else result.set(owner, [item]);
    }
  }
  return result;
}

/**
 * A written list: items of the child's fields (DRF's nested serializer), FKs by id. Errors come back as
 * DRF's list of per-item errors, `{}` for a valid item, or a list of messages when the value is no list.
 */
export async function parseChildList(
  schema: Schema,
  resolver: Resolver,
  field: ChildListField,
  value: unknown,
): Promise<{ ok: true; value: ChildItem[] } | { ok: false; errors: unknown }> {
  if (!Array.isArray(value))
    return { ok: false, errors: [`Expected a list of items but got type "${pythonType(value)}".`] };
  const child = schema.model(field.model);
  const items: ChildItem[] = [];
  const errors: Record<string, string[]>[] = [];
  for (const raw of value) {
    const itemErrors: Record<string, string[]> = {};
    const item: ChildItem = {};
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      errors.push({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${pythonType(raw)}.`] });
      continue;
    }
    const input = raw as Record<string, unknown>;
    for (const { key, field: name } of field.keys) {
      const spec = child.fields.get(name)!;
      const given = input[key];
      if (given === undefined) {
        // The identity names the child within its owner: always given.
        if (spec.default !== undefined && key !== field.identity) item[key] = spec.default;
        else if (spec.nullable) item[key] = null;
        else itemErrors[key] = ['This field is required.'];
        continue;
      }
      if (given === null) {
        if (spec.nullable) item[key] = null;
        else itemErrors[key] = ['This field may not be null.'];
        continue;
      }
      if (spec.kind === 'fk') {
        if (typeof given !== 'number' && !(typeof given === 'string' && /^\d+$/.test(given))) {
          itemErrors[key] = [`Incorrect type. Expected pk value, received ${pythonType(given)}.`];
          continue;
        }
        const resolved = await resolver.resolve(schema.model(spec.target), given);
        if (resolved.ok) item[key] = resolved.id;
        else itemErrors[key] = [`Invalid pk "${String(given)}" - object does not exist.`];
        continue;
      }
      const parsed = parseFieldValue(spec, given);
      if (parsed.ok) item[key] = parsed.value;
      else itemErrors[key] = parsed.errors;
    }
    errors.push(itemErrors);
    items.push(item);
  }
  if (errors.some((e) => Object.keys(e).length > 0)) return { ok: false, errors };
  const seen = new Set<string>();
  for (const item of items) {
    const identity = JSON.stringify(item[field.identity]);
    if (seen.has(identity))
      return { ok: false, errors: [`The ${field.identity} values of the items must be unique (${identity} repeats).`] };
    seen.add(identity);
  }
  return { ok: true, value: items };
}

/** How many children each owner has now. */
export async function countChildren(
  q: Knex,
  schema: Schema,
  field: ChildListField,
  ids: readonly number[],
): Promise<Map<number, number>> {
  const { child, parent, fixed } = columnsOf(schema, field);
  const counts = new Map<number, number>();
  for (const chunk of chunks(ids, 500)) {
    const rows = (await q(child.table)
      .whereIn(parent, chunk)
      .where(fixed)
      .groupBy(parent)
      .select({ k: parent })
      .count({ n: '*' })) as Row[];
    for (const row of rows) counts.set(Number(row.k), Number(row.n));
  }
  return counts;
}

/** What reconciling an owner's children writes: rows to delete, child bodies to create. */
export interface ChildDifference {
  deleteIds: number[];
  create: Record<string, unknown>[];
}

/**
 * NetBox's reconcile_port_mappings: a child whose identity is no longer listed, or whose other values changed,
 * is deleted; a listed item without an equal child is created. Unchanged children keep their row.
 */
export async function childDifference(
  q: Knex,
  schema: Schema,
  field: ChildListField,
  owners: readonly { id: number; items: readonly ChildItem[]; inherited?: Record<string, unknown> }[],
): Promise<ChildDifference> {
  const { child, parent, keys, fixed } = columnsOf(schema, field);
  const existing = new Map<number, Row[]>();
  for (const chunk of chunks(
    owners.map((o) => o.id),
    500,
  )) {
    const rows = (await q(child.table)
      .whereIn(parent, chunk)
      .where(fixed)
      .select({ id: 'id', _owner: parent, ...Object.fromEntries(keys) })
      .orderBy('id')) as Row[];
    for (const row of rows) {
      const list = existing.get(Number(row._owner)) ?? [];
      list.push(row);
      existing.set(Number(row._owner), list);
    }
  }
  const specs = new Map(field.keys.map(({ key, field: name }) => [key, child.fields.get(name)!]));
  const valueOf = (key: string, raw: unknown): string =>
    JSON.stringify(raw === null || raw === undefined ? null : decodeColumn(specs.get(key)!, raw));
  const signature = (source: Row, decoded: boolean): string =>
    field.keys.map(({ key }) => (decoded ? JSON.stringify(source[key] ?? null) : valueOf(key, source[key]))).join('|');
  const difference: ChildDifference = { deleteIds: [], create: [] };
  for (const owner of owners) {
    const wanted = new Map(owner.items.map((item) => [JSON.stringify(item[field.identity]), item]));
    const kept = new Set<string>();
    for (const row of existing.get(owner.id) ?? []) {
      const identity = valueOf(field.identity, row[field.identity]);
      const item = wanted.get(identity);
      if (item && !kept.has(identity) && signature(item, true) === signature(row, false)) kept.add(identity);
      else difference.deleteIds.push(Number(row.id));
    }
    for (const [identity, item] of wanted) {
      if (kept.has(identity)) continue;
      // What a child takes from its owner's input (its changelog_message; an imported owner's timestamps).
      const body: Record<string, unknown> = { ...owner.inherited, [field.parent]: owner.id, ...field.fixed };
      for (const { key, field: name } of field.keys) body[name] = item[key];
      difference.create.push(body);
    }
  }
  return difference;
}
