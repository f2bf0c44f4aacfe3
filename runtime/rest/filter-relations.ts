import type { Knex } from 'knex';
import type { FilterSpec, FilterStep } from '../spec.js';
import {
  escapeLike,
  ilike,
  PATH_AFTER_SEPARATOR,
  PATH_SEPARATOR,
  whereJsonListEmpty,
  whereJsonListHasAny,
} from '../db/sql.js';
import { parseBoolean } from './values.js';
import { reachesAny, walkSteps, type Condition, type FilterContext } from './filter-paths.js';
import { invalidChoice } from './filter-values.js';
import type { ModelInfo } from './schema.js';

/**
 * Objects related (through the filter's path) to one of the given objects, named by `filter.by`; `null`
 * selects objects without one. Unknown objects are a 400, as django-filter's model choice fields answer.
 */
export async function relationCondition(
  q: Knex,
  ctx: FilterContext,
  model: ModelInfo,
  filter: Extract<FilterSpec, { kind: 'relation' }>,
  lookup: string,
  values: string[],
): Promise<Condition | string> {
  const target = ctx.schema.model(filter.target);
  const wantsNull = values.includes('null');
  const given = values.filter((v) => v !== 'null');
  const ids = await resolveIds(q, target, filter, given);
  if (typeof ids === 'string') return ids;

  const paths = [filter.path, ...(filter.or ?? [])];
  const positive: Condition =
    paths.length === 1
      ? reaching(ctx, model, filter.path, ids, wantsNull)
      : (qb) => {
          // Any path reaching a given object; null: no path reaches anything.
          qb.where((w) => {
            for (const steps of paths) w.orWhere(reaching(ctx, model, steps, ids, false));
            if (wantsNull) w.orWhere((x) => paths.forEach((steps) => x.where(reaching(ctx, model, steps, [], true))));
          });
        };
  return lookup === 'n' ? (qb) => void qb.whereNot(positive) : positive;
}

/** Objects whose path reaches one of `ids` (or, with `wantsNull`, reaches nothing). */
function reaching(
  ctx: FilterContext,
  model: ModelInfo,
  steps: FilterStep[],
  ids: readonly number[],
  wantsNull: boolean,
): Condition {
  const last = steps[steps.length - 1]!;
  if (last.kind === 'fk' || last.kind === 'generic') {
    // The last step's own columns hold the related id: no subquery over the related table.
    const prefix = walkSteps(ctx.schema, model, steps.slice(0, -1));
    const owner = prefix.target;
    const column = (name: string): string => `${prefix.alias}.${owner.fields.get(name)!.column!}`;
    const relation = owner.fields.get(last.field)!;
    const typeColumn = relation.kind === 'generic_fk' ? column(relation.typeField) : null;
    const idColumn = relation.kind === 'generic_fk' ? column(relation.idField) : column(last.field);
    const ofType = (qb: Knex.QueryBuilder): Knex.QueryBuilder =>
      typeColumn ? qb.whereNotNull(typeColumn).where(typeColumn, last.kind === 'generic' ? last.target : '') : qb;
    return prefix.wrap((qb) => {
      qb.where((w) => {
        if (ids.length > 0)
          w.orWhere((x) =>
            ofType(x)
              .whereNotNull(idColumn)
              .whereIn(idColumn, [...ids]),
          );
        if (wantsNull) w.orWhere((x) => x.whereNot((y) => ofType(y).whereNotNull(idColumn)));
        if (ids.length === 0 && !wantsNull) w.whereRaw('1 = 0');
      });
    });
  } else {
    const walk = walkSteps(ctx.schema, model, steps);
    const related = walk.wrap((qb) => void qb.whereIn(`${walk.alias}.id`, [...ids]));
    return (qb) => {
      qb.where((w) => {
        if (ids.length > 0) w.orWhere(related);
        if (wantsNull) w.orWhereNot(reachesAny(ctx.schema, model, steps));
        if (ids.length === 0 && !wantsNull) w.whereRaw('1 = 0');
      });
    };
  }
}

/** The ids of the named objects (with their descendants for tree filters), or the 400 for an unknown one. */
async function resolveIds(
  q: Knex,
  target: ModelInfo,
  filter: Extract<FilterSpec, { kind: 'relation' }>,
  given: string[],
): Promise<number[] | string> {
  if (given.length === 0) return [];
  const byField = target.fields.get(filter.by);
  // Ids and numeric attributes (an ASN's number) only match numbers.
  const byId = filter.by === 'id' || byField?.kind === 'integer';
  if (byId) {
    const bad = given.find((v) => !/^\d+$/.test(v.trim()) || !Number.isSafeInteger(Number(v)));
    if (bad !== undefined) return invalidChoice(bad);
  }
  const column = filter.by === 'id' ? 'id' : (byField?.column ?? filter.by);
  const keys = byId ? given.map(Number) : given;
  const found = (await q(target.table)
    .whereIn(column, keys)
    .select(filter.tree ? ['id', column, '_path'] : ['id', column])) as Record<string, unknown>[];
  const foundKeys = new Set(found.map((r) => String(r[column])));
  const missing = given.find((v) => !foundKeys.has(byId ? String(Number(v)) : v));
  if (missing !== undefined) return invalidChoice(missing);
  const ids = found.map((r) => Number(r.id));
  if (!filter.tree || found.length === 0) return ids;
  const descendants = (await q(target.table)
    .where((w) => {
      for (const row of found) {
        const path = String(row._path);
        w.orWhere((x) =>
          x.where('_path', '>', path + PATH_SEPARATOR).andWhere('_path', '<', path + PATH_AFTER_SEPARATOR),
        );
      }
    })
    .select('id')) as { id: number }[];
  return [...new Set([...ids, ...descendants.map((r) => Number(r.id))])];
}

/** Objects that carry every given tag, none of them (`__n`) or any of them (`__any`). */
export async function tagCondition(
  q: Knex,
  ctx: FilterContext,
  model: ModelInfo,
  by: 'slug' | 'id',
  lookup: string,
  values: string[],
): Promise<Condition | string> {
  const tagModel = ctx.schema.withRole('tag');
  const itemModel = ctx.schema.withRole('tagged_item');
  if (!tagModel || !itemModel) return (qb) => void qb.whereRaw('1 = 0');
  if (by === 'id') {
    const bad = values.find((v) => !/^\d+$/.test(v.trim()));
    if (bad !== undefined) return invalidChoice(bad);
  }
  const keys = by === 'id' ? values.map(Number) : values;
  const found = (await q(tagModel.table).whereIn(by, keys).select('id', by)) as Record<string, unknown>[];
  const foundKeys = new Set(found.map((r) => String(r[by])));
  const missing = values.find((v) => !foundKeys.has(by === 'id' ? String(Number(v)) : v));
  if (missing !== undefined) return invalidChoice(missing);
  const tagIds = found.map((r) => Number(r.id));
  const has = (tagId: number | number[]) =>
    function exists(this: Knex.QueryBuilder) {
      this.select(q.raw('1'))
        .from({ ti: itemModel.table })
        .where('ti.object_type', model.label)
        .whereRaw('ti.object_id = t0.id');
      if (Array.isArray(tagId)) this.whereIn('ti.tag_id', tagId);
      else this.where('ti.tag_id', tagId);
    };
  if (lookup === 'n') return (qb) => void qb.whereNotExists(has(tagIds));
  if (lookup === 'any') return (qb) => void qb.whereExists(has(tagIds));
  // Repeated tag parameters are AND-ed: the object carries every given tag.
  return (qb) => tagIds.forEach((id) => qb.whereExists(has(id)));
}

/** `true`: objects with a value at the field (or a related object at the path's end), or at any `or` place; `false`: the others. */
export function presentCondition(
  ctx: FilterContext,
  model: ModelInfo,
  filter: Extract<FilterSpec, { kind: 'present' }>,
  values: string[],
): Condition | string {
  const flag = parseBoolean(values[0]!);
  if (flag === null) return invalidChoice(values[0]!);
  const conditions = [filter, ...(filter.or ?? [])].map((place): Condition => {
    if (!place.field) return reachesAny(ctx.schema, model, place.path);
    const { target, alias, wrap } = walkSteps(ctx.schema, model, place.path);
    const field = target.fields.get(place.field)!;
    const column = `${alias}.${field.column!}`;
    const text = field.kind === 'string' || field.kind === 'image';
    return wrap((qb) => void (text ? qb.whereNotNull(column).whereNot(column, '') : qb.whereNotNull(column)));
  });
  const positive: Condition =
    conditions.length === 1 ? conditions[0]! : (qb) => void qb.where((w) => conditions.forEach((c) => w.orWhere(c)));
  return flag ? positive : (qb) => void qb.whereNot(positive);
}

/**
 * Content types held by a content_type field or listed by an object_types field, by `app.model` (case
 * ignored; unknown types match nothing) or by object type id (unknown ids are a 400).
 */
export function objectTypeCondition(
  ctx: FilterContext,
  model: ModelInfo,
  filter: Extract<FilterSpec, { kind: 'object_type' }>,
  lookup: string,
  values: string[],
): Condition | string {
  const field = model.fields.get(filter.field)!;
  const column = `t0.${field.column!}`;
  const labels: string[] = [];
  let wantsNull = false;
  for (const value of values) {
    if (filter.by === 'label') labels.push(value.toLowerCase());
    else if (value === 'null') wantsNull = true;
    else {
      const label = /^\d+$/.test(value.trim()) ? ctx.schema.objectTypeLabel(Number(value)) : undefined;
      if (!label) return invalidChoice(value);
      labels.push(label);
    }
  }
  const list = field.kind === 'object_types';
  const positive: Condition = (qb) => {
    qb.where((w) => {
      if (list) w.orWhere((x) => whereJsonListHasAny(x, ctx.dialect, column, labels));
      else if (labels.length > 0) w.orWhere((x) => x.whereNotNull(column).whereIn(column, labels));
      if (wantsNull) w.orWhere((x) => (list ? whereJsonListEmpty(x, ctx.dialect, column) : x.whereNull(column)));
      if (!list && labels.length === 0 && !wantsNull) w.whereRaw('1 = 0');
    });
  };
  return lookup.startsWith('n') ? (qb) => void qb.whereNot(positive) : positive;
}

/** A list field holds one of the values. */
export function listItemCondition(
  ctx: FilterContext,
  model: ModelInfo,
  filter: Extract<FilterSpec, { kind: 'list_item' }>,
  lookup: string,
  values: string[],
): Condition {
  const column = `t0.${model.fields.get(filter.field)!.column!}`;
  const positive: Condition = (qb) => void qb.where((w) => whereJsonListHasAny(w, ctx.dialect, column, values));
  return lookup === 'n' ? (qb) => void qb.whereNot(positive) : positive;
}

/** Case-insensitive substring search over the model's search fields, plus the domain's extra matches. */
export async function searchCondition(
  q: Knex,
  ctx: FilterContext,
  model: ModelInfo,
  text: string,
): Promise<Condition | null> {
  const term = text.trim();
  if (!term) return null;
  const pattern = `%${escapeLike(term)}%`;
  const extra: Condition[] = [];
  for (const name of model.spec.searchAlso) {
    const condition = await ctx.domain.filter(name)({ q, ...ctx }, model, [term], '');
    // A text the function cannot use (not an address, not a number) simply matches nothing more.
    if (typeof condition !== 'string') extra.push(condition);
  }
  return (qb) =>
    void qb.where((w) => {
      for (const entry of model.spec.search) {
        const [first, second] = entry.split('.') as [string, string | undefined];
        const field = model.fields.get(first)!;
        if (second === undefined) {
          w.orWhereRaw(ilike(ctx.dialect, '??'), [`t0.${field.column}`, pattern]);
          continue;
        }
        const target = ctx.schema.model((field as { target: string }).target);
        const column = target.fields.get(second)!.column!;
        w.orWhereIn(`t0.${field.column}`, function related() {
          this.select('s.id')
            .from({ s: target.table })
            .whereRaw(ilike(ctx.dialect, '??'), [`s.${column}`, pattern]);
        });
      }
      for (const condition of extra) w.orWhere(condition);
    });
}

/** Objects that the change records of one request show as created, updated, or either (`modify`). */
export function requestCondition(
  ctx: FilterContext,
  model: ModelInfo,
  action: 'create' | 'update' | 'modify',
  value: string,
): Condition {
  const records = ctx.schema.withRole('change_record');
  return (w) => {
    if (!records) return void w.whereRaw('1 = 0');
    const column = (name: string): string => records.fields.get(name)!.column!;
    w.whereIn('t0.id', (sub: Knex.QueryBuilder) =>
      sub
        .select(column('changed_object_id'))
        .from(records.table)
        .where(column('request_id'), value)
        .whereIn(column('action'), action === 'modify' ? ['create', 'update'] : [action])
        .where(column('changed_object_type'), model.label),
    );
  };
}
