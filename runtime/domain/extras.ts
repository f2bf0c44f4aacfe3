import type { Knex } from 'knex';
import { PATH_SEPARATOR } from '../db/sql.js';
import type { ModelInfo } from '../rest/schema.js';
import { decodeJson } from '../rest/values.js';
import type { BatchContext, DomainEntry, WriteItemContext } from './types.js';

/**
 * Config contexts: the contexts that match a device or virtual machine (NetBox's assignment criteria),
 * merged by weight then name, then the object's local context data. A page costs a fixed number of
 * queries: the objects, their sites/clusters/tenants, tree paths, tags, and the active contexts with their
 * assignments.
 */

type Row = Record<string, unknown>;

/** Criterion name on the context → how to find the object's matching ids. */
interface Criterion {
  /** The config context's many-to-many field. */
  field: string;
  /** The object's value(s) for it, from the gathered facts. */
  values: (facts: Facts) => number[];
}

interface Facts {
  site: number | null;
  region: number[];
  siteGroup: number[];
  location: number[];
  deviceType: number | null;
  role: number[];
  platform: number[];
  clusterType: number | null;
  clusterGroup: number | null;
  cluster: number | null;
  tenantGroup: number[];
  tenant: number | null;
  tags: number[];
}

const one = (v: number | null): number[] => (v === null ? [] : [v]);

const CRITERIA: Criterion[] = [
  { field: 'regions', values: (f) => f.region },
  { field: 'site_groups', values: (f) => f.siteGroup },
  { field: 'sites', values: (f) => one(f.site) },
  { field: 'locations', values: (f) => f.location },
  { field: 'device_types', values: (f) => one(f.deviceType) },
  { field: 'roles', values: (f) => f.role },
  { field: 'platforms', values: (f) => f.platform },
  { field: 'cluster_types', values: (f) => one(f.clusterType) },
  { field: 'cluster_groups', values: (f) => one(f.clusterGroup) },
  { field: 'clusters', values: (f) => one(f.cluster) },
  { field: 'tenant_groups', values: (f) => f.tenantGroup },
  { field: 'tenants', values: (f) => one(f.tenant) },
  { field: 'tags', values: (f) => f.tags },
];

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** Ids of a node and its ancestors, read from the tree path (each segment ends in a 10-digit id). */
function lineage(path: unknown): number[] {
  if (typeof path !== 'string' || !path) return [];
  return path.split(PATH_SEPARATOR).map((segment) => Number(segment.slice(-10)));
}

async function paths(q: Knex, table: string, ids: readonly (number | null)[]): Promise<Map<number, number[]>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = (await q(table).whereIn('id', wanted).select('id', '_path')) as Row[];
  return new Map(rows.map((r) => [Number(r.id), lineage(r._path)]));
}

async function rowsById(
  q: Knex,
  table: string,
  ids: readonly (number | null)[],
  columns: string[],
): Promise<Map<number, Row>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = (await q(table)
    .whereIn('id', wanted)
    .select(['id', ...columns])) as Row[];
  return new Map(rows.map((r) => [Number(r.id), r]));
}

/** Dictionaries merge key by key; anything else is replaced (NetBox's deepmerge). */
export function deepMerge(base: Record<string, unknown>, overlay: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(overlay)) {
    const current = result[key];
    const bothObjects =
      current &&
      value &&
      typeof current === 'object' &&
      typeof value === 'object' &&
      !Array.isArray(current) &&
      !Array.isArray(value);
    result[key] = bothObjects ? deepMerge(current as Record<string, unknown>, value as Record<string, unknown>) : value;
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
  const has = (name: string): boolean => model.fields.has(name);
  const column = (name: string): string | null => (has(name) ? model.fields.get(name)!.column! : null);
  const wanted = ['site', 'location', 'device_type', 'role', 'platform', 'cluster', 'tenant'].map(
    (n) => [n, column(n)] as const,
  );
  const objects = (await q(model.table)
    .whereIn('id', [...ids])
    .select(['id', 'local_context_data', ...wanted.flatMap(([, c]) => (c ? [c] : []))])) as Row[];
  const value = (row: Row, name: string): number | null => {
    const c = column(name);
    return c ? num(row[c]) : null;
  };

  const sites = await rowsById(
    q,
    schema.model('dcim.site').table,
    objects.map((o) => value(o, 'site')),
    ['region_id', 'group_id'],
  );
  const clusters = await rowsById(
    q,
    schema.model('virtualization.cluster').table,
    objects.map((o) => value(o, 'cluster')),
    ['type_id', 'group_id'],
  );
  const tenants = await rowsById(
    q,
    schema.model('tenancy.tenant').table,
    objects.map((o) => value(o, 'tenant')),
    ['group_id'],
  );
  const regionPaths = await paths(
    q,
    schema.model('dcim.region').table,
    [...sites.values()].map((s) => num(s.region_id)),
  );
  const groupPaths = await paths(
    q,
    schema.model('dcim.sitegroup').table,
    [...sites.values()].map((s) => num(s.group_id)),
  );
  const locationPaths = await paths(
    q,
    schema.model('dcim.location').table,
    objects.map((o) => value(o, 'location')),
  );
  const rolePaths = await paths(
    q,
    schema.model('dcim.devicerole').table,
    objects.map((o) => value(o, 'role')),
  );
  const platformPaths = await paths(
    q,
    schema.model('dcim.platform').table,
    objects.map((o) => value(o, 'platform')),
  );
  const tenantGroupPaths = await paths(
    q,
    schema.model('tenancy.tenantgroup').table,
    [...tenants.values()].map((t) => num(t.group_id)),
  );
  const tagged = schema.withRole('tagged_item')!;
  const tagRows = (await q(tagged.table)
    .where('object_type', model.label)
    .whereIn('object_id', [...ids])
    .select('object_id', 'tag_id')) as Row[];

  const contextModel = schema.model('extras.configcontext');
  const contexts = (await q(contextModel.table)
    .where('is_active', ctx.dialect === 'sqlite' ? 1 : true)
    .orderBy('weight')
    .orderBy('name')
    .select('id', 'data')) as Row[];
  const assignments = new Map<string, Map<number, Set<number>>>();
  for (const criterion of CRITERIA) {
    const field = contextModel.fields.get(criterion.field) as { through: string };
    const rows = (await q(field.through).select('from_id', 'to_id')) as Row[];
    const byContext = new Map<number, Set<number>>();
    for (const row of rows) {
      const set = byContext.get(Number(row.from_id)) ?? new Set<number>();
      set.add(Number(row.to_id));
      byContext.set(Number(row.from_id), set);
    }
    assignments.set(criterion.field, byContext);
  }

  const result = new Map<number, unknown>();
  for (const object of objects) {
    const site = value(object, 'site');
    const siteRow = site === null ? undefined : sites.get(site);
    const cluster = value(object, 'cluster');
    const clusterRow = cluster === null ? undefined : clusters.get(cluster);
    const tenant = value(object, 'tenant');
    const tenantRow = tenant === null ? undefined : tenants.get(tenant);
    const facts: Facts = {
      site,
      region: regionPaths.get(num(siteRow?.region_id) ?? -1) ?? [],
      siteGroup: groupPaths.get(num(siteRow?.group_id) ?? -1) ?? [],
      location: locationPaths.get(value(object, 'location') ?? -1) ?? [],
      deviceType: value(object, 'device_type'),
      role: rolePaths.get(value(object, 'role') ?? -1) ?? [],
      platform: platformPaths.get(value(object, 'platform') ?? -1) ?? [],
      clusterType: num(clusterRow?.type_id),
      clusterGroup: num(clusterRow?.group_id),
      cluster,
      tenantGroup: tenantGroupPaths.get(num(tenantRow?.group_id) ?? -1) ?? [],
      tenant,
      tags: tagRows.filter((t) => Number(t.object_id) === Number(object.id)).map((t) => Number(t.tag_id)),
    };
    let merged: Record<string, unknown> = {};
    for (const context of contexts) {
      const matches = CRITERIA.every((criterion) => {
        const assigned = assignments.get(criterion.field)!.get(Number(context.id));
        return !assigned || assigned.size === 0 || criterion.values(facts).some((v) => assigned.has(v));
      });
      if (matches) merged = deepMerge(merged, (decodeJson(context.data) ?? {}) as Record<string, unknown>);
    }
    const local = decodeJson(object.local_context_data);
    if (local && typeof local === 'object' && !Array.isArray(local))
      merged = deepMerge(merged, local as Record<string, unknown>);
    result.set(Number(object.id), merged);
  }
  return result;
}

/** Config context data is a JSON object. */
export function validateConfigContext(item: WriteItemContext): void {
  const data = item.values.data;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    item.errors.add('data', 'JSON data must be in object form. Example: {"foo": 123}');
  }
}

/** The extras app's domain functions, by the names YAML uses. */
export const extrasFunctions = {
  'extras.configContexts': { kind: 'compute', fn: configContexts },
  'extras.validateConfigContext': { kind: 'validator', fn: validateConfigContext },
} satisfies Record<string, DomainEntry>;
