import type { Knex } from 'knex';
import type { FilterSpec } from '../spec.js';
import {
  asText,
  descendantOrSelf,
  escapeLike,
  ilike,
  lower,
  regexLookupProblem,
  regexMatch,
  sqlBoolean,
} from '../db/sql.js';
import { regexProblem, regexTest } from '../db/regex.js';
import { parseDateInput, parseDateTimeInput } from '../db/clock.js';
import { parseBoolean } from './values.js';
import { walkSteps, type Condition, type FilterContext } from './filter-paths.js';
import type { ModelInfo } from './schema.js';

export const invalidChoice = (value: string): string =>
  `Select a valid choice. ${value} is not one of the available choices.`;

const COMPARISONS: Record<string, string> = { lt: '<', lte: '<=', gt: '>', gte: '>=' };
const TEXT_LOOKUPS = new Set(['ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie', 'regex', 'iregex']);
const none: Condition = (qb) => void qb.whereRaw('1 = 0');
const all: Condition = () => {};

/** Parses one filter value of a kind, or returns the form error NetBox gives for it. */
export function parseValue(
  kind: string,
  raw: string,
  choices?: readonly (string | number)[],
): { value: unknown } | string {
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

/** Parses every value, or returns the first error. */
function parseAll(kind: string, values: readonly string[], choices?: readonly (string | number)[]): unknown[] | string {
  const parsed: unknown[] = [];
  for (const raw of values) {
    const result = parseValue(kind, raw, choices);
    if (typeof result === 'string') return result;
    parsed.push(result.value);
  }
  return parsed;
}

/**
 * A field's value compared with the lookup, through the filter's path. Negated lookups exclude the objects
 * that the positive lookup selects, as Django's `exclude()` does (so a null value is "not equal").
 */
export function valueCondition(
  ctx: FilterContext,
  model: ModelInfo,
  filter: Extract<FilterSpec, { kind: 'value' }>,
  given: string,
  values: string[],
): Condition | string {
  const lookup = given === '' && filter.contains ? 'ic' : given;
  const { target, alias, wrap } = walkSteps(ctx.schema, model, filter.path);
  const field = filter.field === 'id' ? null : target.fields.get(filter.field);
  const column = `${alias}.${filter.field === 'id' ? 'id' : (field?.column ?? filter.field)}`;
  const storedAsText =
    filter.valueKind === 'string' || (field?.kind === 'choice' && field.choices.some(([v]) => typeof v === 'string'));
  const negate = (positive: Condition): Condition =>
    filter.path.length > 0
      ? (qb) => void qb.whereNot(wrap(positive))
      : (qb) => void qb.where((w) => w.whereNot(positive).orWhereNull(column));

  if (lookup === 'empty') {
    const flag = parseBoolean(values[0]!);
    if (flag === null) return invalidChoice(values[0]!);
    const empty: Condition = (qb) =>
      void qb.where((w) => (storedAsText ? w.where(column, '').orWhereNull(column) : w.whereNull(column)));
    return flag ? wrap(empty) : negateEmpty(filter.path.length > 0, wrap, empty);
  }

  if (TEXT_LOOKUPS.has(lookup)) {
    if (lookup.endsWith('regex')) {
      for (const v of values) {
        const problem = regexLookupProblem(ctx.dialect, v, lookup === 'iregex');
        if (problem) return problem;
      }
    }
    const negated = lookup.startsWith('n');
    const base = negated ? lookup.slice(1) : lookup;
    const expression = storedAsText ? '??' : asText('??');
    const any: Condition = (qb) =>
      void qb.where((w) => {
        for (const v of values) {
          if (base === 'ie') w.orWhereRaw(`${lower(expression)} = ${lower('?')}`, [column, v]);
          else if (base === 'regex' || base === 'iregex')
            w.orWhereRaw(regexMatch(ctx.dialect, expression, base === 'iregex'), [column, v]);
          else {
            const pattern =
              base === 'ic' ? `%${escapeLike(v)}%` : base === 'isw' ? `${escapeLike(v)}%` : `%${escapeLike(v)}`;
            w.orWhereRaw(ilike(ctx.dialect, expression), [column, pattern]);
          }
        }
      });
    return negated ? negate(any) : wrap(any);
  }

  const choices = field?.kind === 'choice' ? field.choices.map(([v]) => v) : undefined;
  const parsed = parseAll(filter.valueKind, values, choices);
  if (typeof parsed === 'string') return parsed;
  if (lookup in COMPARISONS) {
    const op = COMPARISONS[lookup]!;
    return wrap((qb) => void qb.where((w) => parsed.forEach((v) => w.orWhere(column, op, v as Knex.Value))));
  }
  const encoded = parsed.map((v) =>
    filter.valueKind === 'boolean' ? sqlBoolean(ctx.dialect, v as boolean) : (v as Knex.Value),
  );
  const exact: Condition =
    filter.caseInsensitive && storedAsText
      ? (qb) =>
          void qb.where((w) => encoded.forEach((v) => w.orWhereRaw(`${lower('??')} = ${lower('?')}`, [column, v])))
      : (qb) => void qb.whereIn(column, encoded as readonly Knex.Value[]);
  return lookup === 'n' ? negate(exact) : wrap(exact);
}

/** `empty=false`: the value is set (through a path: some related object has it set). */
function negateEmpty(hasPath: boolean, wrap: (inner: Condition) => Condition, empty: Condition): Condition {
  const set: Condition = (qb) => void qb.whereNot(empty);
  return hasPath ? wrap(set) : set;
}

/**
 * A filter over a value every object shares (a relation or counter this service does not serve): the
 * values are checked as NetBox checks them, then the filter keeps every object or none.
 */
export function constantCondition(
  filter: Extract<FilterSpec, { kind: 'constant' }>,
  lookup: string,
  values: string[],
): Condition | string {
  const constant = filter.value;
  if (filter.valueKind === 'object') {
    // No related object can exist: every value but the null sentinel names an unknown object.
    const unknown = values.find((v) => v !== 'null');
    if (unknown !== undefined) return invalidChoice(unknown);
    const isNull = constant === null;
    return (lookup === 'n' ? !isNull : isNull) ? all : none;
  }
  if (lookup === 'empty') {
    const flag = parseBoolean(values[0]!);
    if (flag === null) return invalidChoice(values[0]!);
    return flag === (constant === null || constant === '') ? all : none;
  }
  const negated = lookup.startsWith('n') && lookup !== '';
  const base = negated ? lookup.slice(1) : lookup;
  if (TEXT_LOOKUPS.has(lookup)) {
    const text = constant === null ? null : String(constant).toLowerCase();
    const hit = values.some((v) => text !== null && matchesText(base, text, v));
    return hit !== negated ? all : none;
  }
  const parsed = parseAll(filter.valueKind, values);
  if (typeof parsed === 'string') return parsed;
  const compare = (v: unknown): boolean => {
    if (constant === null) return false;
    const [a, b] = [constant as number | string, v as number | string];
    switch (base) {
      case 'lt':
        return a < b;
      case 'lte':
        return a <= b;
      case 'gt':
        return a > b;
      case 'gte':
        return a >= b;
      default:
        return a === b;
    }
  };
  const hit = parsed.some(compare);
  return hit !== (lookup === 'n') ? all : none;
}

function matchesText(lookup: string, text: string, value: string): boolean {
  const v = value.toLowerCase();
  switch (lookup) {
    case 'ic':
      return text.includes(v);
    case 'isw':
      return text.startsWith(v);
    case 'iew':
      return text.endsWith(v);
    case 'ie':
      return text === v;
    default:
      // Linear time, as everywhere the service evaluates a client's pattern itself (runtime/db/regex.ts).
      return regexProblem(value, lookup === 'iregex') === null && regexTest(value, text, lookup === 'iregex');
  }
}

/** Numeric lookups on a count of related objects (a correlated subquery per row). */
export function countCondition(
  ctx: FilterContext,
  model: ModelInfo,
  filter: Extract<FilterSpec, { kind: 'count' }>,
  lookup: string,
  values: string[],
): Condition | string {
  if (lookup === 'empty') {
    const flag = parseBoolean(values[0]!);
    if (flag === null) return invalidChoice(values[0]!);
    return flag ? none : all;
  }
  const parsed = parseAll('integer', values);
  if (typeof parsed === 'string') return parsed;
  const count = model.counts.get(filter.count)!;
  const counted = ctx.schema.model(count.model);
  const relation = counted.fields.get(count.field)!;
  let sql: string;
  let bindings: string[] = [];
  if (relation.kind === 'm2m' && count.cumulative)
    sql = `(SELECT COUNT(DISTINCT c.${relation.fromColumn}) FROM ${model.table} d JOIN ${relation.through} c ON c.${relation.toColumn} = d.id WHERE ${descendantOrSelf(ctx.dialect, 'd', 't0')})`;
  else if (relation.kind === 'm2m')
    sql = `(SELECT COUNT(*) FROM ${relation.through} c WHERE c.${relation.toColumn} = t0.id)`;
  else if (relation.kind === 'generic_fk') {
    const type = counted.fields.get(relation.typeField)!.column!;
    const id = counted.fields.get(relation.idField)!.column!;
    sql = `(SELECT COUNT(*) FROM ${counted.table} c WHERE c.${type} = ? AND c.${id} = t0.id)`;
    bindings = [model.label];
  } else if (count.cumulative) {
    sql = `(SELECT COUNT(*) FROM ${model.table} d JOIN ${counted.table} c ON c.${relation.column!} = d.id WHERE ${descendantOrSelf(ctx.dialect, 'd', 't0')})`;
  } else sql = `(SELECT COUNT(*) FROM ${counted.table} c WHERE c.${relation.column!} = t0.id)`;
  const op = COMPARISONS[lookup] ?? '=';
  const any: Condition = (qb) =>
    void qb.where((w) => parsed.forEach((v) => w.orWhereRaw(`${sql} ${op} ?`, [...bindings, v as number])));
  return lookup === 'n' ? (qb) => void qb.whereNot(any) : any;
}
