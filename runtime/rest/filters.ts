import type { Knex } from 'knex';
import { filterLookups, type FilterSpec } from '../spec.js';
import type { Dialect } from '../db/connect.js';
import { escapeLike, ilike, lower, PATH_AFTER_SEPARATOR, PATH_SEPARATOR, regexMatch } from '../db/sql.js';
import { parseDateInput, parseDateTimeInput } from '../db/clock.js';
import { regexProblem } from '../db/regex.js';
import { ValidationError } from '../http/errors.js';
import type { Settings } from '../config.js';
import type { DomainFunctions } from '../domain/types.js';
import { parseIp } from './ip.js';
import { parseBoolean } from './values.js';
import type { ModelInfo, Schema } from './schema.js';
import type { CustomFields } from './custom-fields.js';

/** Query parameters that are never filters. */
export const RESERVED_PARAMS = new Set([
  'limit',
  'offset',
  'start',
  'ordering',
  'fields',
  'omit',
  'brief',
  'format',
  'exclude',
]);

export interface FilterContext {
  schema: Schema;
  dialect: Dialect;
  settings: Settings;
  domain: DomainFunctions;
  /** Builds `cf_<name>` filters; without it they are ignored. */
  customFields?: CustomFields;
}

type Condition = (qb: Knex.QueryBuilder) => void;

const invalidChoice = (value: string): string => `Select a valid choice. ${value} is not one of the available choices.`;

/**
 * Turns query parameters into conditions on alias `t0` of `query`. Repeated parameters are OR-ed, different
 * parameters AND-ed; unknown parameters are ignored; every invalid value is reported in one 400.
 */
export async function applyFilters(
  q: Knex,
  ctx: FilterContext,
  model: ModelInfo,
  params: URLSearchParams,
  query: Knex.QueryBuilder,
): Promise<void> {
  const errors: Record<string, string[]> = {};
  const conditions: Condition[] = [];
  for (const name of new Set(params.keys())) {
    if (RESERVED_PARAMS.has(name)) continue;
    if (name.startsWith('cf_') && model.hasCustomFields && ctx.customFields) {
      const values = params.getAll(name).filter((v) => v !== '');
      const [field, lookup = ''] = name.slice(3).split('__', 2);
      const result = values.length > 0 ? await ctx.customFields.filter(q, model, field!, lookup, values) : null;
      if (typeof result === 'string') errors[name] = [result];
      else if (result) conditions.push(result);
      continue;
    }
    const match = matchFilter(model, name);
    if (!match) continue;
    const values = params.getAll(name).filter((v) => v !== '');
    if (values.length === 0) continue;
    const result = await buildCondition(q, ctx, model, match.filter, match.lookup, values);
    if (typeof result === 'string') errors[name] = [result];
    else if (result) conditions.push(result);
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  for (const condition of conditions) query.where(condition);
}

function matchFilter(model: ModelInfo, name: string): { filter: FilterSpec; lookup: string } | null {
  const direct = model.filters.get(name);
  if (direct) return { filter: direct, lookup: '' };
  const split = name.lastIndexOf('__');
  if (split <= 0) return null;
  const filter = model.filters.get(name.slice(0, split));
  const lookup = name.slice(split + 2);
  if (!filter) return null;
  return filterLookups(filter).includes(lookup) ? { filter, lookup } : null;
}

async function buildCondition(
  q: Knex,
  ctx: FilterContext,
  model: ModelInfo,
  filter: FilterSpec,
  lookup: string,
  values: string[],
): Promise<Condition | string | null> {
  switch (filter.kind) {
    case 'search':
      return searchCondition(q, ctx, model, values[0]!);
    case 'tag':
      return tagCondition(q, ctx, model, filter.by, lookup, values);
    case 'relation':
      return relationCondition(q, ctx, model, filter, lookup, values);
    case 'value':
      return valueCondition(ctx, model, filter, lookup, values);
    case 'network':
      return networkCondition(model, filter, lookup, values);
    case 'request':
      return requestCondition(ctx, model, filter.action, values[0]!);
    case 'function':
      return ctx.domain.filter(filter.function)(
        { q, schema: ctx.schema, dialect: ctx.dialect, settings: ctx.settings },
        model,
        values,
      );
  }
}

/**
 * IP filters on the hidden range columns: `within` (strictly inside), `within_include`, `contains`,
 * `parent` (addresses inside), `exact` networks, `address` (with a mask exactly, without it the host), and
 * `mask_length`. Values that are not IPs match nothing, as in NetBox.
 */
function networkCondition(
  model: ModelInfo,
  filter: Extract<FilterSpec, { kind: 'network' }>,
  lookup: string,
  values: string[],
): Condition | string {
  const column = `t0.${model.fields.get(filter.field)!.column!}`;
  const [family, start, end, len] = ['family', 'start', 'end', 'len'].map((suffix) => `${column}_${suffix}`) as [
    string,
    string,
    string,
    string,
  ];
  if (filter.op === 'mask_length') {
    const lengths: number[] = [];
    for (const value of values) {
      if (!/^\d+$/.test(value.trim())) return 'Enter a whole number.';
      lengths.push(Number(value));
    }
    const comparisons: Record<string, string> = { lt: '<', lte: '<=', gt: '>', gte: '>=' };
    if (lookup in comparisons)
      return (qb) => qb.where((w) => lengths.forEach((n) => w.orWhere(len, comparisons[lookup]!, n)));
    if (lookup === 'n') return (qb) => qb.whereNotIn(len, lengths);
    return (qb) => qb.whereIn(len, lengths);
  }
  const parsed = values.map((v) => ({ text: v, ip: parseIp(v) }));
  return (qb) =>
    qb.where((w) => {
      w.whereRaw('1 = 0');
      for (const { text, ip } of parsed) {
        if (!ip) continue;
        const sameFamily = (x: Knex.QueryBuilder): Knex.QueryBuilder => x.where(family, ip.family);
        switch (filter.op) {
          case 'exact':
            w.orWhere(column, `${ip.network}/${ip.len}`);
            break;
          case 'address':
            if (text.includes('/')) w.orWhere(column, `${ip.address}/${ip.len}`);
            else w.orWhere((x) => sameFamily(x).where(start, ip.host));
            break;
          case 'within':
          case 'within_include':
            w.orWhere((x) =>
              sameFamily(x)
                .where(start, '>=', ip.start)
                .where(end, '<=', ip.end)
                .where(len, filter.op === 'within' ? '>' : '>=', ip.len),
            );
            break;
          case 'contains':
            w.orWhere((x) =>
              sameFamily(x).where(start, '<=', ip.start).where(end, '>=', ip.end).where(len, '<=', ip.len),
            );
            break;
          case 'parent':
            w.orWhere((x) => sameFamily(x).where(start, '>=', ip.start).where(start, '<=', ip.end));
            break;
          case 'mask_length':
            break;
        }
      }
    });
}

/** Resolves `path` (FK names from the model) to a function that wraps a condition on the final table. */
function viaPath(
  ctx: FilterContext,
  model: ModelInfo,
  path: readonly string[],
): {
  target: ModelInfo;
  alias: string;
  wrap: (inner: Condition) => Condition;
} {
  let current = model;
  const steps: { column: string; table: string }[] = [];
  for (const name of path) {
    const field = current.fields.get(name);
    if (!field || field.kind !== 'fk') throw new Error(`${current.label}.${name} is not an fk`);
    const target = ctx.schema.model(field.target);
    steps.push({ column: field.column!, table: target.table });
    current = target;
  }
  if (steps.length === 0) return { target: model, alias: 't0', wrap: (inner) => inner };
  const alias = `p${steps.length}`;
  return {
    target: current,
    alias,
    wrap: (inner) => {
      // t0.fk1 IN (SELECT p1.id FROM T1 p1 WHERE p1.fk2 IN (SELECT p2.id FROM T2 p2 WHERE <inner on p2>))
      const build =
        (index: number): Condition =>
        (qb) => {
          const step = steps[index]!;
          const from = index === 0 ? 't0' : `p${index}`;
          const own = `p${index + 1}`;
          qb.whereIn(`${from}.${step.column}`, function subquery() {
            this.select(`${own}.id`).from({ [own]: step.table });
            if (index + 1 < steps.length) this.where(build(index + 1));
            else this.where(inner);
          });
        };
      return build(0);
    },
  };
}

function parseValue(kind: string, raw: string, choices?: readonly (string | number)[]): { value: unknown } | string {
  switch (kind) {
    case 'integer': {
      if (!/^-?\d+$/.test(raw.trim())) return 'Enter a whole number.';
      const value = Number(raw);
      return Number.isSafeInteger(value)
        ? { value }
        : `Ensure this value is between ${Number.MIN_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}.`;
    }
    case 'decimal':
      return raw.trim() !== '' && Number.isFinite(Number(raw)) ? { value: Number(raw) } : 'Enter a number.';
    case 'date': {
      const date = parseDateInput(raw);
      return date ? { value: date } : 'Enter a valid date.';
    }
    case 'datetime': {
      const datetime = parseDateTimeInput(raw);
      return datetime ? { value: datetime } : 'Enter a valid date/time.';
    }
    case 'boolean': {
      const parsed = parseBoolean(raw);
      return parsed === null ? invalidChoice(raw) : { value: parsed };
    }
    case 'choice': {
      const found = choices?.find((c) => String(c) === raw);
      return found === undefined ? invalidChoice(raw) : { value: found };
    }
    default:
      return { value: raw };
  }
}

function valueCondition(
  ctx: FilterContext,
  model: ModelInfo,
  filter: Extract<FilterSpec, { kind: 'value' }>,
  lookup: string,
  values: string[],
): Condition | string {
  const { target, alias, wrap } = viaPath(ctx, model, filter.path);
  const field = filter.field === 'id' ? null : target.fields.get(filter.field);
  const column = `${alias}.${filter.field === 'id' ? 'id' : (field?.column ?? filter.field)}`;
  const isString =
    filter.valueKind === 'string' || (field?.kind === 'choice' && field.choices.some(([v]) => typeof v === 'string'));
  const nullable = field?.nullable ?? false;

  if (lookup === 'empty') {
    const flag = parseBoolean(values[0]!);
    if (flag === null) return invalidChoice(values[0]!);
    return wrap((qb) => {
      if (flag) qb.where((w) => (isString ? w.where(column, '').orWhereNull(column) : w.whereNull(column)));
      else qb.where((w) => (isString ? w.whereNot(column, '').whereNotNull(column) : w.whereNotNull(column)));
    });
  }

  const textLookups = ['ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie', 'regex', 'iregex'];
  if (textLookups.includes(lookup)) {
    // PostgreSQL judges its own patterns (an invalid one is a 400 from the database error's translation).
    if (lookup.endsWith('regex') && ctx.dialect === 'sqlite') {
      for (const v of values) {
        const problem = regexProblem(v, lookup === 'iregex');
        if (problem) return problem;
      }
    }
    const negated = lookup.startsWith('n') && lookup !== 'n';
    const base = negated ? lookup.slice(1) : lookup;
    const any: Condition = (qb) =>
      qb.where((w) => {
        for (const v of values) {
          if (base === 'ie') w.orWhereRaw(`${lower('??')} = ${lower('?')}`, [column, v]);
          else if (base === 'regex' || base === 'iregex')
            w.orWhereRaw(regexMatch(ctx.dialect, '??', base === 'iregex'), [column, v]);
          else {
            const pattern =
              base === 'ic' ? `%${escapeLike(v)}%` : base === 'isw' ? `${escapeLike(v)}%` : `%${escapeLike(v)}`;
            w.orWhereRaw(ilike(ctx.dialect, '??'), [column, pattern]);
          }
        }
      });
    return wrap(negated ? (qb) => qb.where((w) => w.whereNot(any).orWhereNull(column)) : any);
  }

  const parsed: unknown[] = [];
  const choices = field?.kind === 'choice' ? field.choices.map(([v]) => v) : undefined;
  for (const raw of values) {
    const result = parseValue(filter.valueKind, raw, choices);
    if (typeof result === 'string') return result;
    parsed.push(result.value);
  }
  const comparisons: Record<string, string> = { lt: '<', lte: '<=', gt: '>', gte: '>=' };
  if (lookup in comparisons) {
    const op = comparisons[lookup]!;
    return wrap((qb) => qb.where((w) => parsed.forEach((v) => w.orWhere(column, op, v as Knex.Value))));
  }
  const encode = (v: unknown): Knex.Value =>
    filter.valueKind === 'boolean' && ctx.dialect === 'sqlite' ? (v ? 1 : 0) : (v as Knex.Value);
  const encoded = parsed.map(encode);
  const caseInsensitive = filter.caseInsensitive && isString;
  const exact: Condition = (qb) => {
    if (caseInsensitive)
      qb.where((w) => encoded.forEach((v) => w.orWhereRaw(`${lower('??')} = ${lower('?')}`, [column, v])));
    else qb.whereIn(column, encoded as readonly Knex.Value[]);
  };
  if (lookup === 'n')
    return wrap((qb) => qb.where((w) => (nullable ? w.whereNot(exact).orWhereNull(column) : w.whereNot(exact))));
  return wrap(exact);
}

async function relationCondition(
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
  let ids: number[] = [];
  if (given.length > 0) {
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
    ids = found.map((r) => Number(r.id));
    if (filter.tree && found.length > 0) {
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
      ids = [...new Set([...ids, ...descendants.map((r) => Number(r.id))])];
    }
  }
  const path = filter.path;
  const { wrap } = viaPath(ctx, model, path.slice(0, -1));
  const last = path[path.length - 1]!;
  const owner = path.length === 1 ? model : viaPath(ctx, model, path.slice(0, -1)).target;
  const lastField = owner.fields.get(last)!;
  if (lastField.kind === 'm2m') {
    // Objects that list one of the given objects in the many-to-many field.
    const own = `${path.length === 1 ? 't0' : `p${path.length - 1}`}.id`;
    const listed: Condition = (qb) => {
      qb.whereIn(own, function listing() {
        this.select(`m.${lastField.fromColumn}`)
          .from({ m: lastField.through })
          .whereIn(`m.${lastField.toColumn}`, ids.length ? ids : [-1]);
      });
    };
    return wrap(lookup === 'n' ? (qb) => qb.whereNot(listed) : listed);
  }
  const fkColumn = `${path.length === 1 ? 't0' : `p${path.length - 1}`}.${owner.fields.get(last)!.column}`;
  const matches: Condition = (qb) =>
    qb.where((w) => {
      if (ids.length > 0) w.orWhereIn(fkColumn, ids);
      if (wantsNull) w.orWhereNull(fkColumn);
      if (ids.length === 0 && !wantsNull) w.whereRaw('1 = 0');
    });
  if (lookup === 'n') {
    return wrap((qb) => qb.where((w) => (wantsNull ? w.whereNot(matches) : w.whereNot(matches).orWhereNull(fkColumn))));
  }
  return wrap(matches);
}

async function tagCondition(
  q: Knex,
  ctx: FilterContext,
  model: ModelInfo,
  by: 'slug' | 'id',
  lookup: string,
  values: string[],
): Promise<Condition | string> {
  const tagModel = ctx.schema.withRole('tag');
  const itemModel = ctx.schema.withRole('tagged_item');
  if (!tagModel || !itemModel) return (qb) => qb.whereRaw('1 = 0');
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
  if (lookup === 'n') return (qb) => qb.whereNotExists(has(tagIds));
  // Repeated tag parameters are AND-ed: the object carries every given tag.
  return (qb) => tagIds.forEach((id) => qb.whereExists(has(id)));
}

async function searchCondition(q: Knex, ctx: FilterContext, model: ModelInfo, text: string): Promise<Condition | null> {
  const term = text.trim();
  if (!term) return null;
  const pattern = `%${escapeLike(term)}%`;
  const extra: Condition[] = [];
  for (const name of model.spec.searchAlso) {
    const condition = await ctx.domain.filter(name)({ q, ...ctx }, model, [term]);
    // A text the function cannot use (not an address, not a number) simply matches nothing more.
    if (typeof condition !== 'string') extra.push(condition);
  }
  return (qb) =>
    qb.where((w) => {
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

/** Objects that the change records of one request show as created (or updated). */
function requestCondition(ctx: FilterContext, model: ModelInfo, action: 'create' | 'update', value: string): Condition {
  const records = ctx.schema.withRole('change_record');
  const column = (name: string): string => records!.fields.get(name)!.column!;
  return (w) => {
    if (!records) return void w.whereRaw('1 = 0');
    w.whereIn('t0.id', (sub: Knex.QueryBuilder) =>
      sub
        .select(column('changed_object_id'))
        .from(records.table)
        .where(column('request_id'), value)
        .where(column('action'), action)
        .where(column('changed_object_type'), model.label),
    );
  };
}
