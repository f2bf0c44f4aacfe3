import type { Knex } from 'knex';
import type { Dialect } from '../db/connect.js';
import { descendantOrSelf } from '../db/sql.js';
import { planSelection, type Selection } from './plan.js';
import { renderObject, type RenderContext } from './render.js';
import type { ModelInfo, Schema } from './schema.js';

/** What reading needs: the database dialect, the schema and how to render. */
export interface ReadContext {
  schema: Schema;
  dialect: Dialect;
  render: RenderContext;
}

type Row = Record<string, unknown>;

/** The base query of a model: its table under alias `t0`. */
export function baseQuery(q: Knex, model: ModelInfo): Knex.QueryBuilder {
  return q({ t0: model.table });
}

/**
 * Runs `query` (already filtered, ordered and paginated on alias `t0`) with the joins and columns that
 * render `keys`, then loads the batched parts (one query each) and renders every object.
 */
export async function loadObjects(
  q: Knex,
  ctx: ReadContext,
  model: ModelInfo,
  keys: readonly string[],
  query: Knex.QueryBuilder,
): Promise<Record<string, unknown>[]> {
  const selection = planSelection(ctx.schema, model, keys);
  applySelection(query, selection);
  const rows = (await query) as Row[];
  if (rows.length === 0) return [];
  const ids = rows.map((r) => Number(r[selection.plan.idColumn]));
  const render: RenderContext = { ...ctx.render };
  const wanted = new Set(selection.plan.keys.map((k) => k.kind));
  if (wanted.has('tags')) render.tags = await loadTags(q, ctx, model, ids);
  if (wanted.has('count')) {
    render.counts = new Map();
    for (const key of selection.plan.keys) {
      if (key.kind === 'count') render.counts.set(key.key, await loadCount(q, ctx, model, key.count, ids));
    }
  }
  return rows.map((row) => renderObject(selection.plan, row, render));
}

/** Loads objects by id, in the order of `ids` (missing ids are skipped). */
export async function loadObjectsByIds(
  q: Knex,
  ctx: ReadContext,
  model: ModelInfo,
  keys: readonly string[],
  ids: readonly number[],
): Promise<Record<string, unknown>[]> {
  if (ids.length === 0) return [];
  const objects: Record<string, unknown>[] = [];
  for (const chunk of chunks(ids, 500)) {
    const query = baseQuery(q, model).whereIn('t0.id', chunk);
    objects.push(...(await loadObjects(q, ctx, model, withId(keys), query)));
  }
  const byId = new Map(objects.map((o) => [o.id as number, o]));
  return ids.flatMap((id) => {
    const found = byId.get(id);
    if (!found) return [];
    if (!keys.includes('id')) delete found.id;
    return [found];
  });
}

function withId(keys: readonly string[]): readonly string[] {
  return keys.includes('id') ? keys : ['id', ...keys];
}

export function applySelection(query: Knex.QueryBuilder, selection: Selection): void {
  for (const join of selection.joins) query.leftJoin({ [join.alias]: join.table }, `${join.alias}.id`, join.from);
  query.select(selection.columns);
}

/** Splits a list for `IN (…)` clauses that stay under the databases' parameter limits. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

/** Tags of many objects in one query, each rendered in the tag model's nested form. */
async function loadTags(q: Knex, ctx: ReadContext, model: ModelInfo, ids: number[]): Promise<Map<number, unknown[]>> {
  const tagModel = ctx.schema.withRole('tag');
  const itemModel = ctx.schema.withRole('tagged_item');
  const result = new Map<number, unknown[]>();
  if (!tagModel || !itemModel) return result;
  const selection = planSelection(ctx.schema, tagModel, tagModel.spec.nested);
  const query = q({ ti: itemModel.table })
    .join({ t0: tagModel.table }, 't0.id', 'ti.tag_id')
    .where('ti.object_type', model.label)
    .whereIn('ti.object_id', ids)
    .select({ ti__object_id: 'ti.object_id' });
  applySelection(query, selection);
  for (const order of tagModel.spec.ordering) query.orderBy(`t0.${order.field}`, order.descending ? 'desc' : 'asc');
  query.orderBy('t0.id');
  for (const row of (await query) as Row[]) {
    const objectId = Number(row.ti__object_id);
    const list = result.get(objectId) ?? [];
    list.push(renderObject(selection.plan, row, ctx.render));
    result.set(objectId, list);
  }
  return result;
}

/** A reverse count for many objects in one grouped query (cumulative over descendants for trees). */
async function loadCount(
  q: Knex,
  ctx: ReadContext,
  model: ModelInfo,
  count: { model: string; field: string; cumulative: boolean },
  ids: number[],
): Promise<Map<number, number>> {
  const counted = ctx.schema.model(count.model);
  const column = counted.fields.get(count.field)?.column ?? `${count.field}_id`;
  let rows: Row[];
  if (count.cumulative) {
    rows = (await q({ a: model.table })
      .join({ d: model.table }, function joinDescendants() {
        this.on(q.raw(descendantOrSelf(ctx.dialect, 'd', 'a')));
      })
      .join({ c: counted.table }, `c.${column}`, 'd.id')
      .whereIn('a.id', ids)
      .groupBy('a.id')
      .select({ k: 'a.id' })
      .count({ n: 'c.id' })) as Row[];
  } else {
    rows = (await q(counted.table)
      .whereIn(column, ids)
      .groupBy(column)
      .select({ k: column })
      .count({ n: '*' })) as Row[];
  }
  return new Map(rows.map((r) => [Number(r.k), Number(r.n)]));
}
