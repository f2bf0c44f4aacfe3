import type { Knex } from 'knex';
import { PATH_SEPARATOR, rawRows, sqlBoolean, whereJsonListEmpty, whereJsonListHasAny } from '../db/sql.js';
import type { ModelInfo, Schema } from '../rest/schema.js';
import { decodeJson } from '../rest/values.js';
import type { BatchContext, DomainEntry, FilterFunction, WriteItemContext } from './types.js';

/**
 * Config contexts: the active contexts that match a device or virtual machine (NetBox's assignment
 * criteria), merged by weight then name, then the object's local context data. A page costs one statement
 * whatever its size (see `contextStatement`).
 */

type Row = Record<string, unknown>;

/** What an object offers to the criteria: ids, with ancestors for tree models. */
interface Facts {
  region: number[];
  site_group: number[];
  site: number[];
  location: number[];
  device_type: number[];
  role: number[];
  platform: number[];
  cluster_type: number[];
  cluster_group: number[];
  cluster: number[];
  tenant_group: number[];
  tenant: number[];
  tag: number[];
}

/** Criterion (the context's many-to-many field) → the fact it matches. */
const CRITERIA: readonly (readonly [string, keyof Facts])[] = [
  ['regions', 'region'],
  ['site_groups', 'site_group'],
  ['sites', 'site'],
  ['locations', 'location'],
  ['device_types', 'device_type'],
  ['roles', 'role'],
  ['platforms', 'platform'],
  ['cluster_types', 'cluster_type'],
  ['cluster_groups', 'cluster_group'],
  ['clusters', 'cluster'],
  ['tenant_groups', 'tenant_group'],
  ['tenants', 'tenant'],
  ['tags', 'tag'],
];

const one = (v: unknown): number[] => (v === null || v === undefined ? [] : [Number(v)]);

/** Ids of a node and its ancestors, read from the tree path (each segment ends in a 10-digit id). */
export function lineage(path: unknown): number[] {
  if (typeof path !== 'string' || !path) return [];
  return path.split(PATH_SEPARATOR).map((segment) => Number(segment.slice(-10)));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Dictionaries merge key by key; anything else is replaced (NetBox's deepmerge). */
export function deepMerge(base: Record<string, unknown>, overlay: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(overlay)) {
    const current = result[key];
    // Python's `val and isinstance(val, dict)`: an empty dictionary replaces rather than merges.
    const bothObjects = isObject(current) && isObject(value) && Object.keys(value).length > 0;
    result[key] = bothObjects ? deepMerge(current, value) : value;
  }
  return result;
}

/** The columns every part of the config context statement has, with the SQL type of each. */
const NUMBER_COLUMNS = [
  'k',
  'id',
  'a',
  'b',
  'w',
  'site',
  'device_type',
  'cluster',
  'tenant',
  'cluster_type',
  'cluster_group',
  'tenant_group',
] as const;
const TEXT_COLUMNS = ['t', 'region_path', 'site_group_path', 'location_path', 'role_path', 'platform_path'] as const;
type Column = (typeof NUMBER_COLUMNS)[number] | (typeof TEXT_COLUMNS)[number];

/** What each part of the statement is. */
const FACTS = 0;
const TAG = 1;
const CONTEXT = 2;
const ASSIGNMENT = 3;

/** One SELECT of the statement: the given columns as expressions, every other column a typed NULL. */
function part(q: Knex, values: Partial<Record<Column, string>>): Record<string, Knex.Raw> {
  const columns: Record<string, Knex.Raw> = {};
  for (const name of NUMBER_COLUMNS) columns[name] = q.raw(`CAST(${values[name] ?? 'NULL'} AS BIGINT)`);
  for (const name of TEXT_COLUMNS) columns[name] = q.raw(`CAST(${values[name] ?? 'NULL'} AS TEXT)`);
  return columns;
}

/**
 * The config context statement of a model for `n` objects, compiled once: its SQL text, and how its bindings
 * follow from the ids (`contextBindings`). One UNION ALL of: the objects with what the criteria look at
 * (their own FKs, their site's region and group, their cluster's type and group, their tenant's group, the
 * tree paths of regions, site groups, locations, roles and platforms: a node matches its ancestors'
 * contexts) and their local data; their tags (unless the page has them); the active contexts ranked by
 * weight and name; and every
 * assignment of a context (one part per criterion's join table).
 */
const statements = new WeakMap<ModelInfo, Map<string, string>>();

function contextStatement(
  q: Knex,
  schema: Schema,
  model: ModelInfo,
  ids: readonly number[],
  active: unknown,
  withTags: boolean,
): string {
  let byShape = statements.get(model);
  if (!byShape) statements.set(model, (byShape = new Map<string, string>()));
  const shape = `${ids.length}${withTags ? '+tags' : ''}`;
  const found = byShape.get(shape);
  if (found !== undefined) return found;
  const column = (name: string): string | null => model.fields.get(name)?.column ?? null;
  const own = (name: string): string | null => (column(name) ? `o.${column(name)!}` : null);
  const facts = q({ o: model.table }).whereIn('o.id', [...ids]);
  const joins: Partial<Record<Column, string>> = {};
  const join = (alias: string, label: string, on: string | null, selects: Partial<Record<Column, string>>): void => {
    if (!on) return;
    facts.leftJoin({ [alias]: schema.model(label).table }, `${alias}.id`, on);
    for (const [as, c] of Object.entries(selects)) joins[as as Column] = `${alias}.${c}`;
  };
  join('s', 'dcim.site', own('site'), {});
  join('r', 'dcim.region', 's.region_id', { region_path: '_path' });
  join('g', 'dcim.sitegroup', 's.group_id', { site_group_path: '_path' });
  join('l', 'dcim.location', own('location'), { location_path: '_path' });
  join('ro', 'dcim.devicerole', own('role'), { role_path: '_path' });
  join('p', 'dcim.platform', own('platform'), { platform_path: '_path' });
  join('c', 'virtualization.cluster', own('cluster'), { cluster_type: 'type_id', cluster_group: 'group_id' });
  join('t', 'tenancy.tenant', own('tenant'), { tenant_group: 'group_id' });
  const ownFacts: Partial<Record<Column, string>> = {};
  for (const name of ['site', 'device_type', 'cluster', 'tenant'] as const) {
    const c = own(name);
    if (c) ownFacts[name] = c;
  }
  facts.select(part(q, { k: String(FACTS), id: 'o.id', t: own('local_context_data')!, ...ownFacts, ...joins }));
  const tagged = schema.withRole('tagged_item')!;
  const tags = q({ ti: tagged.table })
    .where('ti.object_type', model.label)
    .whereIn('ti.object_id', [...ids])
    .select(part(q, { k: String(TAG), id: 'ti.object_id', a: 'ti.tag_id' }));
  const contextModel = schema.model('extras.configcontext');
  const contexts = q({ cc: contextModel.table })
    .where('cc.is_active', active as boolean)
    // Ranked by weight and name in the database's collation; the other parts need no order.
    .select(
      part(q, {
        k: String(CONTEXT),
        id: 'cc.id',
        t: 'cc.data',
        w: 'ROW_NUMBER() OVER (ORDER BY cc.weight, cc.name, cc.id)',
      }),
    );
  const assignments = CRITERIA.map(([field], i) => {
    const through = (contextModel.fields.get(field) as { through: string }).through;
    return q({ x: through }).select(part(q, { k: String(ASSIGNMENT), id: 'x.from_id', a: String(i), b: 'x.to_id' }));
  });
  const compiled = facts.unionAll([...(withTags ? [tags] : []), contexts, ...assignments]).toSQL();
  if (JSON.stringify(compiled.bindings) !== JSON.stringify(contextBindings(model, ids, active, withTags)))
    throw new Error('the config context statement binds its values in an unexpected order');
  byShape.set(shape, compiled.sql);
  return compiled.sql;
}

function contextBindings(model: ModelInfo, ids: readonly number[], active: unknown, withTags: boolean): unknown[] {
  return withTags ? [...ids, model.label, ...ids, active] : [...ids, active];
}

/**
 * The rendered config context of each device or virtual machine of a page, from one statement (see
 * `contextStatement`); the criteria are matched only when some context is active.
 */
export async function configContexts(
  ctx: BatchContext,
  model: ModelInfo,
  ids: readonly number[],
): Promise<Map<number, unknown>> {
  const { q, schema } = ctx;
  const active = sqlBoolean(ctx.dialect, true);
  // The page's tags when it renders them, else read with the rest.
  const withTags = !ctx.tags;
  const sql = contextStatement(q, schema, model, ids, active, withTags);
  const rows = rawRows<Row>(
    ctx.dialect,
    await q.raw(sql, contextBindings(model, ids, active, withTags) as Knex.RawBinding[]),
  );
  const objects: Row[] = [];
  const tagsOf = new Map<number, number[]>();
  for (const [id, tags] of ctx.tags ?? [])
    tagsOf.set(
      id,
      tags.map((tag) => Number((tag as { id: unknown }).id)),
    );
  const contexts: { id: number; rank: number; data: Record<string, unknown> | null }[] = [];
  const assignments = new Map<string, Map<number, Set<number>>>(CRITERIA.map(([field]) => [field, new Map()]));
  for (const row of rows) {
    switch (Number(row.k)) {
      case FACTS:
        objects.push(row);
        break;
      case TAG: {
        const list = tagsOf.get(Number(row.id)) ?? [];
        list.push(Number(row.a));
        tagsOf.set(Number(row.id), list);
        break;
      }
      case CONTEXT:
        contexts.push({
          id: Number(row.id),
          rank: Number(row.w),
          data: decodeJson(row.t) as Record<string, unknown> | null,
        });
        break;
      default: {
        const byContext = assignments.get(CRITERIA[Number(row.a)]![0])!;
        const context = Number(row.id);
        let set = byContext.get(context);
        if (!set) byContext.set(context, (set = new Set()));
        set.add(Number(row.b));
      }
    }
  }
  // Merged in weight and name order.
  contexts.sort((a, b) => a.rank - b.rank);
  // Each context's criteria that have assignments (a criterion without any matches every object).
  const restricted = contexts.map((context) =>
    CRITERIA.flatMap(([field, fact]) => {
      const assigned = assignments.get(field)!.get(context.id);
      return assigned ? [{ fact, assigned }] : [];
    }),
  );
  // Objects that match the same contexts share one merge (a page's devices mostly match alike); the
  // merged dictionaries are never mutated afterwards (local data merges into a copy).
  const mergedByMatch = new Map<string, Record<string, unknown>>();
  const result = new Map<number, unknown>();
  for (const object of objects) {
    let merged: Record<string, unknown> = {};
    if (contexts.length > 0) {
      const facts: Facts = {
        region: lineage(object.region_path),
        site_group: lineage(object.site_group_path),
        site: one(object.site),
        location: lineage(object.location_path),
        device_type: one(object.device_type),
        role: lineage(object.role_path),
        platform: lineage(object.platform_path),
        cluster_type: one(object.cluster_type),
        cluster_group: one(object.cluster_group),
        cluster: one(object.cluster),
        // NetBox matches the tenant's own group only, not its ancestors.
        tenant_group: one(object.tenant_group),
        tenant: one(object.tenant),
        tag: tagsOf.get(Number(object.id)) ?? [],
      };
      const matched = contexts.filter((_context, i) => restricted[i]!.every((r) => matches(facts[r.fact], r.assigned)));
      const key = matched.map((c) => c.id).join(',');
      const found = mergedByMatch.get(key);
      if (found) merged = found;
      else {
        for (const context of matched) if (isObject(context.data)) merged = deepMerge(merged, context.data);
        mergedByMatch.set(key, merged);
      }
    }
    const local = decodeJson(object.t);
    if (isObject(local)) merged = deepMerge(merged, local);
    result.set(Number(object.id), merged);
  }
  return result;
}

/** Whether any of an object's ids for a criterion is assigned to the context. */
function matches(ids: readonly number[], assigned: ReadonlySet<number>): boolean {
  for (const id of ids) if (assigned.has(id)) return true;
  return false;
}

const NOT_AN_OBJECT = 'JSON data must be in object form. Example: {"foo": 123}';

/** Config context data is a JSON object. */
export function validateConfigContext(item: WriteItemContext): void {
  if (!isObject(item.values.data)) item.errors.add('data', NOT_AN_OBJECT);
}

/** A device's or virtual machine's local context data, when set (and not empty), is a JSON object. */
export function validateLocalContextData(item: WriteItemContext): void {
  const local = item.values.local_context_data;
  const empty = local === null || local === undefined || local === false || local === 0 || local === '';
  const emptyList = Array.isArray(local) && local.length === 0;
  if (!empty && !emptyList && !isObject(local)) item.errors.add('local_context_data', NOT_AN_OBJECT);
}

/** The extras app's domain functions, by the names YAML uses. */
/** The name, else the stored file's name without its `<model>_<id>_` prefix. */
function displayImageAttachment(values: Record<string, unknown>): string {
  const name = typeof values.name === 'string' ? values.name : '';
  if (name) return name;
  const file =
    String(values.image ?? '')
      .split('/')
      .pop() ?? '';
  return file.replace(/^[a-z0-9]+_\d+_/, '');
}

/** Tags assigned to objects of the given types (`content_type`, by `app.model`; `content_type_id`). */
function tagsInUseOn(by: 'label' | 'id'): FilterFunction {
  return async (ctx, _model, values) => {
    if (by === 'id' && values.some((v) => !/^\d+$/.test(v.trim()))) return 'Enter a whole number.';
    // Unknown types match nothing, as in NetBox.
    const labels = values.flatMap((v) =>
      by === 'label' ? [v.toLowerCase()] : [ctx.schema.objectTypeLabel(Number(v)) ?? []].flat(),
    );
    const items = ctx.schema.withRole('tagged_item')!;
    return (query) =>
      void query.whereIn('t0.id', (sub) =>
        sub.select('ti.tag_id').from({ ti: items.table }).whereIn('ti.object_type', labels),
      );
  };
}

/** `for_object_type_id`: tags that may be assigned to objects of the type (restricted to it, or to none). */
const tagsForObjectType: FilterFunction = async (ctx, model, values) => {
  if (values.some((v) => !/^\d+$/.test(v.trim()))) return 'Enter a whole number.';
  const labels = values.flatMap((v) => [ctx.schema.objectTypeLabel(Number(v)) ?? []].flat());
  const column = `t0.${model.fields.get('object_types')!.column!}`;
  return (query) =>
    void query.where((w) =>
      w
        .where((x) => whereJsonListHasAny(x, ctx.dialect, column, labels))
        .orWhere((x) => whereJsonListEmpty(x, ctx.dialect, column)),
    );
};

export const extrasFunctions = {
  'extras.tagsInUseOn': { kind: 'filter', fn: tagsInUseOn('label') },
  'extras.tagsInUseOnId': { kind: 'filter', fn: tagsInUseOn('id') },
  'extras.tagsForObjectType': { kind: 'filter', fn: tagsForObjectType },
  'extras.configContexts': { kind: 'compute', fn: configContexts },
  'extras.validateConfigContext': { kind: 'validator', fn: validateConfigContext, batch: true },
  'extras.displayImageAttachment': { kind: 'display', fn: displayImageAttachment },
  'extras.validateLocalContextData': { kind: 'validator', fn: validateLocalContextData, batch: true },
} satisfies Record<string, DomainEntry>;
