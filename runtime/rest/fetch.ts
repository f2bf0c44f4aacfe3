import type { Knex } from 'knex';
import type { Dialect } from '../db/connect.js';
import type { Settings } from '../config.js';
import type { ChildListField, ComputedField, CountSpec, ManyToManyField } from '../spec.js';
import { loadChildren } from './children.js';
import { applyOrdering } from './params.js';
import { chunks, descendantOrSelf } from '../db/sql.js';
import { planSelection, type KeyPlan, type Plan, type Selection } from './plan.js';
import { batchKey, renderObject, type RenderContext } from './render.js';
import type { ModelInfo, Schema } from './schema.js';
import type { CustomFields } from './custom-fields.js';
import { decodeJson } from './values.js';
import { runShaped } from './shaped.js';

/** What reading needs: the database dialect, the schema and how to render. */
export interface ReadContext {
  schema: Schema;
  dialect: Dialect;
  settings: Settings;
  /** Renders `custom_fields`; without it the key renders `{}`. */
  customFields?: CustomFields;
  render: RenderContext;
  /**
   * The condition (on alias `t0`) that limits a model to the objects the reader may view, or null for all.
   * Objects reached through a custom field or a `visible_only` generic relation are rendered only when
   * visible; without this function (webhooks, change records) every object is.
   */
  viewable?: (model: ModelInfo) => ((query: Knex.QueryBuilder) => void) | null;
  /**
   * Objects this very write created, and the models it changed: nothing else can refer to the new objects
   * yet, so their counts over models the write left alone are 0 without asking.
   */
  fresh?: { model: ModelInfo; ids: ReadonlySet<number>; changed: ReadonlySet<string> };
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
  related = false,
): Promise<Record<string, unknown>[]> {
  const selection = planSelection(ctx.schema, model, keys, related);
  const rows = await selectRows(q, ctx.dialect, model, selection, query);
  if (rows.length === 0) return [];
  const batched = new Map<string, Map<number, unknown>>();
  const generic = new Map<string, Map<string, unknown>>();
  // The page's objects and the objects nested in them: every count in one statement, then one batch per
  // other batched key of each.
  const planIds = new Map<Plan, number[]>();
  for (const plan of plansOf(selection.plan)) {
    const ids = new Set<number>();
    for (const row of rows) {
      const id = row[plan.idColumn];
      if (id !== null && id !== undefined) ids.add(Number(id));
    }
    if (ids.size > 0) planIds.set(plan, [...ids]);
  }
  const fresh = ctx.fresh;
  const known =
    fresh?.model === model && planIds.get(selection.plan)?.every((id) => fresh.ids.has(id))
      ? { plan: selection.plan, changed: fresh.changed }
      : null;
  for (const [key, values] of await loadCounts(q, ctx, planIds, known)) batched.set(key, values);
  for (const [plan, ids] of planIds) await loadBatched(q, ctx, plan, rows, ids, batched, generic);
  const render: RenderContext = { ...ctx.render, batched, generic };
  return rows.map((row) => renderObject(selection.plan, row, render));
}

/** Per selection: the SQL of its columns and joins, and the statements built on it (by the base query's SQL). */
interface CompiledSelection {
  /** `select * from <table> as t0` as the dialect writes it. */
  bare: string;
  /** `select <columns> from <table> as t0 <joins>`. */
  head: string;
  statements: Map<string, string>;
}
const compiledSelections = new WeakMap<Selection, Map<Dialect, CompiledSelection>>();
/** Distinct base queries remembered per selection (filters vary; the common pages do not). */
const STATEMENTS_PER_SELECTION = 200;

/**
 * Runs the base query with the selection's columns and joins. The selection's SQL (hundreds of columns and a
 * dozen joins on a wide model) is compiled by Knex once; each request compiles only its small base query
 * (filters, order, page) and reuses the same statement text, which the connection has prepared already.
 * A base query that is not a plain `select * from <table> as t0 …` is compiled whole, as before.
 */
async function selectRows(
  q: Knex,
  dialect: Dialect,
  model: ModelInfo,
  selection: Selection,
  query: Knex.QueryBuilder,
): Promise<Row[]> {
  let byDialect = compiledSelections.get(selection);
  if (!byDialect) compiledSelections.set(selection, (byDialect = new Map<Dialect, CompiledSelection>()));
  let compiled = byDialect.get(dialect);
  if (!compiled) {
    const bare = baseQuery(q, model).toSQL().sql;
    const headQuery = baseQuery(q, model);
    applySelection(q, headQuery, selection);
    const head = headQuery.toSQL();
    compiled = { bare, head: head.sql, statements: new Map() };
    // Only a selection without bindings can be spliced in front of a base query's.
    if (head.bindings.length > 0) compiled.bare = '\0';
    byDialect.set(dialect, compiled);
  }
  const base = query.toSQL();
  const marks = base.sql.split('?').length - 1;
  if (!base.sql.startsWith(compiled.bare) || marks !== base.bindings.length || base.sql.includes('??')) {
    applySelection(q, query, selection);
    return (await query) as Row[];
  }
  let sql = compiled.statements.get(base.sql);
  if (sql === undefined) {
    sql = compiled.head + base.sql.slice(compiled.bare.length);
    if (compiled.statements.size >= STATEMENTS_PER_SELECTION) compiled.statements.clear();
    compiled.statements.set(base.sql, sql);
  }
  const result: unknown = await q.raw(sql, base.bindings as Knex.RawBinding[]);
  return dialect === 'sqlite' ? (result as Row[]) : (result as { rows: Row[] }).rows;
}

/** A plan and the plans of the objects nested in it. */
function* plansOf(plan: Plan): Generator<Plan> {
  yield plan;
  for (const key of plan.keys) if (key.kind === 'fk') yield* plansOf(key.nested);
}

/** Loads the batched keys of one plan for the given ids, under `<plan alias>:<key>` (see render.ts). */
async function loadBatched(
  q: Knex,
  ctx: ReadContext,
  plan: Plan,
  rows: readonly Row[],
  ids: readonly number[],
  batched: Map<string, Map<number, unknown>>,
  generic: Map<string, Map<string, unknown>>,
): Promise<void> {
  const model = plan.model;
  const name = (key: string): string => batchKey(plan, key);
  // Tags first: computed values may use them (config contexts match them).
  const tagsKey = plan.keys.find((key) => key.kind === 'tags');
  const tags = tagsKey ? await loadTags(q, ctx, model, ids) : undefined;
  if (tagsKey) batched.set(name(tagsKey.key), tags!);
  for (const key of plan.keys) {
    switch (key.kind) {
      case 'm2m':
        batched.set(name(key.key), await loadRelated(q, ctx, key.field as ManyToManyField, ids));
        break;
      case 'children': {
        const field = key.field as ChildListField;
        const items = await loadChildren(q, ctx.dialect, ctx.schema, field, ids);
        if (field.object) await attachObjects(q, ctx, field.object, items);
        batched.set(name(key.key), items);
        break;
      }
      case 'computed': {
        const field = key.field as ComputedField;
        const compute = ctx.render.domain.compute(field.function);
        const load = (label: string, objectKeys: readonly string[], objectIds: readonly number[]) =>
          loadObjectsByIds(q, ctx, ctx.schema.model(label), objectKeys, objectIds, true);
        // Only the objects something refers to, when the field says so (the others get its `otherwise`).
        const references = field.referencedBy ? batched.get(referencesKey(plan, key.key)) : undefined;
        const computed = references ? ids.filter((id) => Number(references.get(id) ?? 0) > 0) : ids;
        const values =
          computed.length > 0
            ? await compute(
                { q, schema: ctx.schema, dialect: ctx.dialect, settings: ctx.settings, load, tags },
                model,
                computed,
              )
            : new Map<number, unknown>();
        if (field.referencedBy) {
          // One value for all of them, frozen: rendering only serialises it.
          const otherwise = Object.freeze(structuredClone(field.referencedBy.otherwise));
          for (const id of ids) if (!values.has(id)) values.set(id, otherwise);
        }
        batched.set(name(key.key), values);
        break;
      }
      case 'generic': {
        const visibleOnly = key.field.kind === 'generic_fk' && key.field.visibleOnly === true;
        generic.set(name(key.key), await loadGeneric(q, ctx, rows, key.typeColumn, key.idColumn, visibleOnly));
        break;
      }
      case 'custom_fields':
        if (ctx.customFields) {
          const datas = rows.map((row) => (decodeJson(row[key.column]) ?? {}) as Record<string, unknown>);
          const load = async (label: string, objectIds: readonly number[]) => {
            const target = ctx.schema.model(label);
            const visible = await visibleIds(q, ctx, target, objectIds);
            return loadObjectsByIds(q, ctx, target, target.spec.nested, visible, true);
          };
          const rendered = await ctx.customFields.render(q, model, datas, load);
          batched.set(name(key.key), new Map(rows.map((row, i) => [Number(row[plan.idColumn]), rendered[i]])));
        }
        break;
      default:
        break;
    }
  }
}

/** Related objects of a many-to-many field for a page: one query for the pairs, one batch for the objects. */
async function loadRelated(
  q: Knex,
  ctx: ReadContext,
  field: ManyToManyField,
  ids: readonly number[],
): Promise<Map<number, unknown[]>> {
  const target = ctx.schema.model(field.target);
  const { fromColumn, toColumn } = field;
  const pairs: { from_id: number; to_id: number }[] = [];
  const build = (fromIds: readonly number[]): Knex.QueryBuilder =>
    q(field.through)
      .whereIn(fromColumn, [...fromIds])
      .select({ from_id: fromColumn, to_id: toColumn });
  for (const chunk of chunks(ids, 500)) {
    pairs.push(
      ...(await runShaped<(typeof pairs)[number]>(
        q,
        ctx.dialect,
        `pairs:${field.through}:${fromColumn}:${toColumn}`,
        chunk,
        build,
      )),
    );
  }
  const targetIds = [...new Set(pairs.map((p) => Number(p.to_id)))];
  const keys = field.by ? ['id', field.by] : (field.nested ?? target.spec.nested);
  const objects: Row[] = [];
  // Listed in the target model's own order.
  for (const chunk of chunks(targetIds, 500)) {
    const query = baseQuery(q, target).whereIn('t0.id', chunk);
    applyOrdering(ctx.schema, target, new URLSearchParams(), query);
    objects.push(...(await loadObjects(q, ctx, target, withId(keys), query, true)));
  }
  const byId = new Map(objects.map((o) => [o.id as number, field.by ? o[field.by] : o]));
  const position = new Map(objects.map((o, i) => [o.id as number, i]));
  const result = new Map<number, unknown[]>();
  for (const pair of [...pairs].sort(
    (a, b) => (position.get(Number(a.to_id)) ?? 0) - (position.get(Number(b.to_id)) ?? 0),
  )) {
    const value = byId.get(Number(pair.to_id));
    if (value === undefined) continue;
    const list = result.get(Number(pair.from_id)) ?? [];
    list.push(!field.by && !keys.includes('id') ? omitId(value) : value);
    result.set(Number(pair.from_id), list);
  }
  return result;
}

function omitId(value: unknown): unknown {
  const { id: _id, ...rest } = value as Record<string, unknown>;
  return rest;
}

/** Gives each child item the object its type and id keys name, nested, under `object` (null when gone). */
async function attachObjects(
  q: Knex,
  ctx: ReadContext,
  keys: { typeKey: string; idKey: string },
  items: ReadonlyMap<number, Record<string, unknown>[]>,
): Promise<void> {
  const rows = [...items.values()].flat();
  const objects = await loadGeneric(q, ctx, rows, keys.typeKey, keys.idKey, false);
  for (const item of rows)
    item.object = objects.get(`${String(item[keys.typeKey])}:${Number(item[keys.idKey])}`) ?? null;
}

/**
 * Targets of a generic relation for a page: one batch per target model that the page refers to (only the
 * visible ones for a `visible_only` relation).
 */
async function loadGeneric(
  q: Knex,
  ctx: ReadContext,
  rows: readonly Row[],
  typeColumn: string,
  idColumn: string,
  visibleOnly: boolean,
): Promise<Map<string, unknown>> {
  const wanted = new Map<string, Set<number>>();
  for (const row of rows) {
    const type = row[typeColumn];
    const id = row[idColumn];
    if (type === null || type === undefined || id === null || id === undefined) continue;
    const set = wanted.get(String(type)) ?? new Set<number>();
    set.add(Number(id));
    wanted.set(String(type), set);
  }
  const result = new Map<string, unknown>();
  for (const [type, idSet] of wanted) {
    const target = ctx.schema.models.get(type);
    if (!target) continue;
    const ids = visibleOnly ? await visibleIds(q, ctx, target, [...idSet]) : [...idSet];
    for (const object of await loadObjectsByIds(q, ctx, target, target.spec.nested, ids, true)) {
      result.set(`${type}:${String(object.id)}`, object);
    }
  }
  return result;
}

/** The ids among `ids` that the reader may view (one query per 500 when the reader is restricted). */
async function visibleIds(q: Knex, ctx: ReadContext, model: ModelInfo, ids: readonly number[]): Promise<number[]> {
  const restrict = ctx.viewable?.(model);
  if (!restrict || ids.length === 0) return [...ids];
  const visible = new Set<number>();
  for (const chunk of chunks(ids, 500)) {
    const query = baseQuery(q, model).whereIn('t0.id', chunk).select('t0.id');
    restrict(query);
    for (const row of (await query) as Row[]) visible.add(Number(row.id));
  }
  return ids.filter((id) => visible.has(id));
}

/** Loads objects by id, in the order of `ids` (missing ids are skipped). */
export async function loadObjectsByIds(
  q: Knex,
  ctx: ReadContext,
  model: ModelInfo,
  keys: readonly string[],
  ids: readonly number[],
  related = false,
): Promise<Record<string, unknown>[]> {
  if (ids.length === 0) return [];
  const objects: Record<string, unknown>[] = [];
  for (const chunk of chunks(ids, 500)) {
    const query = baseQuery(q, model).whereIn('t0.id', chunk);
    objects.push(...(await loadObjects(q, ctx, model, withId(keys), query, related)));
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

export function applySelection(q: Knex, query: Knex.QueryBuilder, selection: Selection): void {
  for (const join of selection.joins) query.leftJoin({ [join.alias]: join.table }, `${join.alias}.id`, join.from);
  query.select(
    Object.fromEntries(
      Object.entries(selection.columns).map(([name, column]) => [
        name,
        typeof column === 'string' ? column : q.raw(column.sql),
      ]),
    ),
  );
}

/** Tags of many objects in one query, each rendered in the tag model's nested form. */
async function loadTags(
  q: Knex,
  ctx: ReadContext,
  model: ModelInfo,
  ids: readonly number[],
): Promise<Map<number, unknown[]>> {
  const tagModel = ctx.schema.withRole('tag');
  const itemModel = ctx.schema.withRole('tagged_item');
  const result = new Map<number, unknown[]>();
  if (!tagModel || !itemModel) return result;
  const selection = planSelection(ctx.schema, tagModel, tagModel.spec.nested);
  const build = (objectIds: readonly number[]): Knex.QueryBuilder => {
    const query = q({ ti: itemModel.table })
      .join({ t0: tagModel.table }, 't0.id', 'ti.tag_id')
      .where('ti.object_type', model.label)
      .whereIn('ti.object_id', [...objectIds])
      .select({ ti__object_id: 'ti.object_id' });
    applySelection(q, query, selection);
    for (const order of tagModel.spec.ordering) query.orderBy(`t0.${order.field}`, order.descending ? 'desc' : 'asc');
    return query.orderBy('t0.id');
  };
  for (const row of await runShaped<Row>(
    q,
    ctx.dialect,
    `tags:${planNumber(selection.plan)}:${model.label}`,
    ids,
    build,
  )) {
    const objectId = Number(row.ti__object_id);
    const list = result.get(objectId) ?? [];
    list.push(renderObject(selection.plan, row, ctx.render));
    result.set(objectId, list);
  }
  return result;
}

/** Bindings per counts statement: under SQLite's and PostgreSQL's limits, with room to spare. */
const COUNT_BINDINGS = 10_000;

/**
 * Every reverse count of a page and of the objects nested in it, in one statement: one grouped query per
 * count and at most 500 ids, combined with UNION ALL and labelled by `batchKey(plan, key)` (a page so large
 * that the statement would pass COUNT_BINDINGS bindings takes several).
 */
async function loadCounts(
  q: Knex,
  ctx: ReadContext,
  planIds: ReadonlyMap<Plan, readonly number[]>,
  /** A plan whose objects are all new, and the models the write changed (see ReadContext.fresh). */
  known: { plan: Plan; changed: ReadonlySet<string> } | null = null,
): Promise<Map<string, Map<number, number>>> {
  const result = new Map<string, Map<number, number>>();
  const parts: { plan: Plan; count: CountSpec; label: string; ids: number[] }[] = [];
  for (const [plan, ids] of planIds) {
    for (const key of plan.keys) {
      const count = key.kind === 'count' ? key.count : referencesOf(key);
      if (!count) continue;
      const label = key.kind === 'count' ? batchKey(plan, key.key) : referencesKey(plan, key.key);
      result.set(label, new Map());
      if (known?.plan === plan && !known.changed.has(count.model)) continue;
      for (const chunk of chunks(ids, 500)) parts.push({ plan, count, label, ids: chunk });
    }
  }
  let start = 0;
  while (start < parts.length) {
    let end = start + 1;
    let bindings = parts[start]!.ids.length + 2;
    while (end < parts.length && bindings + parts[end]!.ids.length + 2 <= COUNT_BINDINGS)
      bindings += parts[end++]!.ids.length + 2;
    const statement = parts.slice(start, end);
    const shape = `counts:${statement.map((p) => `${planNumber(p.plan)}.${p.label}.${p.ids.length}`).join(',')}`;
    const build = (ids: readonly number[]): Knex.QueryBuilder => {
      let at = 0;
      const [first, ...rest] = statement.map((part, i) => {
        const chunk = ids.slice(at, (at += part.ids.length));
        return q.select('*').from(countQuery(q, ctx, part.plan.model, part.count, chunk, part.label).as(`u${i}`));
      });
      return rest.length > 0 ? first!.unionAll(rest) : first!;
    };
    const rows = await runShaped<Row>(
      q,
      ctx.dialect,
      shape,
      statement.flatMap((p) => p.ids),
      build,
    );
    for (const row of rows) result.get(String(row.c))!.set(Number(row.k), Number(row.n));
    start = end;
  }
  return result;
}

/** How many objects refer to each object of a page, for a computed key with `referencedBy`. */
function referencesOf(key: KeyPlan): CountSpec | null {
  if (key.kind !== 'computed') return null;
  const by = (key.field as ComputedField).referencedBy;
  return by ? { name: key.key, model: by.model, field: by.field, cumulative: false, nested: 'include' } : null;
}

/** Where those counts are kept among the batched values. */
function referencesKey(plan: Plan, key: string): string {
  return `${batchKey(plan, key)}#references`;
}

/** A number per plan, for the shapes of the statements built on it (plans live as long as their selection). */
const planNumbers = new WeakMap<Plan, number>();
let plansNumbered = 0;
function planNumber(plan: Plan): number {
  let number = planNumbers.get(plan);
  if (number === undefined) planNumbers.set(plan, (number = ++plansNumbered));
  return number;
}

/** `c` (the key), `k` (the counted-for id) and `n` (how many) for one reverse count. */
function countQuery(
  q: Knex,
  ctx: ReadContext,
  model: ModelInfo,
  count: CountSpec,
  ids: readonly number[],
  key: string,
): Knex.QueryBuilder {
  const counted = ctx.schema.model(count.model);
  const relation = counted.fields.get(count.field)!;
  const column = relation.column ?? `${count.field}_id`;
  const label = { c: q.raw('?', [key]) };
  if (relation.kind === 'm2m' && count.cumulative) {
    // Each object counted once however many of the node's descendants list it (NetBox's contact groups).
    return q({ a: model.table })
      .join({ d: model.table }, function joinDescendants() {
        this.on(q.raw(descendantOrSelf(ctx.dialect, 'd', 'a')));
      })
      .join({ m: relation.through }, `m.${relation.toColumn}`, 'd.id')
      .whereIn('a.id', ids)
      .groupBy('a.id')
      .select(label, { k: 'a.id' })
      .countDistinct({ n: `m.${relation.fromColumn}` });
  }
  if (relation.kind === 'm2m') {
    const to = relation.toColumn;
    return q(relation.through).whereIn(to, ids).groupBy(to).select(label, { k: to }).count({ n: '*' });
  }
  if (relation.kind === 'generic_fk') {
    const idColumn = counted.fields.get(relation.idField)!.column!;
    return q(counted.table)
      .where(counted.fields.get(relation.typeField)!.column!, model.label)
      .whereIn(idColumn, ids)
      .groupBy(idColumn)
      .select(label, { k: idColumn })
      .count({ n: '*' });
  }
  if (count.cumulative) {
    return q({ a: model.table })
      .join({ d: model.table }, function joinDescendants() {
        this.on(q.raw(descendantOrSelf(ctx.dialect, 'd', 'a')));
      })
      .join({ c: counted.table }, `c.${column}`, 'd.id')
      .whereIn('a.id', ids)
      .groupBy('a.id')
      .select(label, { k: 'a.id' })
      .count({ n: 'c.id' });
  }
  return q(counted.table).whereIn(column, ids).groupBy(column).select(label, { k: column }).count({ n: '*' });
}
