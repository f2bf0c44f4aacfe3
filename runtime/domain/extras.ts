import type { Knex } from 'knex';
import { PATH_SEPARATOR, whereJsonListEmpty, whereJsonListHasAny } from '../db/sql.js';
import type { ModelInfo, Schema } from '../rest/schema.js';
import { decodeJson } from '../rest/values.js';
import type { BatchContext, DomainEntry, FilterFunction, WriteItemContext } from './types.js';

/**
 * Config contexts: the active contexts that match a device or virtual machine (NetBox's assignment
 * criteria), merged by weight then name, then the object's local context data. A page costs four queries
 * whatever its size: the objects with their related facts (one joined query), their tags, the active
 * contexts, and every assignment of a context (one UNION ALL over the criteria's join tables).
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

/**
 * The objects of a page with what the criteria look at, in one query: their own FKs, their site's region
 * and group, their cluster's type and group, their tenant's group, and the tree paths of regions, site
 * groups, locations, roles and platforms (a node matches its ancestors' contexts).
 */
async function loadFacts(q: Knex, schema: Schema, model: ModelInfo, ids: readonly number[]): Promise<Row[]> {
  const column = (name: string): string | null => model.fields.get(name)?.column ?? null;
  const query = q({ o: model.table })
    .whereIn('o.id', [...ids])
    .select({ id: 'o.id', local: `o.${column('local_context_data')!}` });
  const join = (alias: string, label: string, on: string | null, selects: Record<string, string>): void => {
    if (!on) return;
    query.leftJoin({ [alias]: schema.model(label).table }, `${alias}.id`, on);
    for (const [as, c] of Object.entries(selects)) query.select({ [as]: `${alias}.${c}` });
  };
  const own = (name: string): string | null => (column(name) ? `o.${column(name)!}` : null);
  for (const name of ['site', 'device_type', 'cluster', 'tenant']) {
    const c = column(name);
    if (c) query.select({ [name]: `o.${c}` });
  }
  join('s', 'dcim.site', own('site'), {});
  join('r', 'dcim.region', 's.region_id', { region_path: '_path' });
  join('g', 'dcim.sitegroup', 's.group_id', { site_group_path: '_path' });
  join('l', 'dcim.location', own('location'), { location_path: '_path' });
  join('ro', 'dcim.devicerole', own('role'), { role_path: '_path' });
  join('p', 'dcim.platform', own('platform'), { platform_path: '_path' });
  join('c', 'virtualization.cluster', own('cluster'), { cluster_type: 'type_id', cluster_group: 'group_id' });
  join('t', 'tenancy.tenant', own('tenant'), { tenant_group: 'group_id' });
  return (await query) as Row[];
}

/** Every assignment of every context, one UNION ALL over the criteria's join tables: criterion → context → ids. */
async function loadAssignments(q: Knex, schema: Schema): Promise<Map<string, Map<number, Set<number>>>> {
  const contextModel = schema.model('extras.configcontext');
  const selects = CRITERIA.map(([field], i) => {
    const through = (contextModel.fields.get(field) as { through: string }).through;
    return q(through).select(q.raw(`${i} as k`), 'from_id', 'to_id');
  });
  const rows = (await selects[0]!.unionAll(selects.slice(1))) as Row[];
  const result = new Map<string, Map<number, Set<number>>>(CRITERIA.map(([field]) => [field, new Map()]));
  for (const row of rows) {
    const byContext = result.get(CRITERIA[Number(row.k)]![0])!;
    const context = Number(row.from_id);
    let set = byContext.get(context);
    if (!set) byContext.set(context, (set = new Set()));
    set.add(Number(row.to_id));
  }
  return result;
}

/** The rendered config context of each device or virtual machine of a page. */
export async function configContexts(
  ctx: BatchContext,
  model: ModelInfo,
  ids: readonly number[],
): Promise<Map<number, unknown>> {
  const { q, schema } = ctx;
  const objects = await loadFacts(q, schema, model, ids);
  const tagged = schema.withRole('tagged_item')!;
  const tagRows = (await q(tagged.table)
    .where('object_type', model.label)
    .whereIn('object_id', [...ids])
    .select('object_id', 'tag_id')) as Row[];
  const contexts = (
    (await q(schema.model('extras.configcontext').table)
      .where('is_active', ctx.dialect === 'sqlite' ? 1 : true)
      .orderBy([{ column: 'weight' }, { column: 'name' }, { column: 'id' }])
      .select('id', 'data')) as Row[]
  ).map((c) => ({ id: Number(c.id), data: decodeJson(c.data) as Record<string, unknown> | null }));
  const assignments = await loadAssignments(q, schema);

  const tagsOf = new Map<number, number[]>();
  for (const row of tagRows) {
    const list = tagsOf.get(Number(row.object_id)) ?? [];
    list.push(Number(row.tag_id));
    tagsOf.set(Number(row.object_id), list);
  }
  // Objects that match the same contexts share one merge (a page's devices mostly match alike); the
  // merged dictionaries are never mutated afterwards (local data merges into a copy).
  const mergedByMatch = new Map<string, Record<string, unknown>>();
  const result = new Map<number, unknown>();
  for (const object of objects) {
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
    const matched = contexts.filter((context) =>
      CRITERIA.every(([field, fact]) => {
        const assigned = assignments.get(field)!.get(context.id);
        return !assigned || facts[fact].some((v) => assigned.has(v));
      }),
    );
    const key = matched.map((c) => c.id).join(',');
    let merged = mergedByMatch.get(key);
    if (!merged) {
      merged = {};
      for (const context of matched) if (isObject(context.data)) merged = deepMerge(merged, context.data);
      mergedByMatch.set(key, merged);
    }
    const local = decodeJson(object.local);
    if (isObject(local)) merged = deepMerge(merged, local);
    result.set(Number(object.id), merged);
  }
  return result;
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
  'extras.validateConfigContext': { kind: 'validator', fn: validateConfigContext },
  'extras.displayImageAttachment': { kind: 'display', fn: displayImageAttachment },
  'extras.validateLocalContextData': { kind: 'validator', fn: validateLocalContextData },
} satisfies Record<string, DomainEntry>;
