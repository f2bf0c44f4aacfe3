import { kindOf } from '../kinds/index.js';
import type { Knex } from 'knex';
import type { Dialect } from '../db/connect.js';
import { escapeLike, ilike, matchCase } from '../db/sql.js';
import type { ModelInfo, Schema } from '../rest/schema.js';
import type { FieldSpec } from '../spec.js';
import type { Constraint } from './principal.js';

const LOOKUPS = new Set([
  'exact',
  'iexact',
  'in',
  'lt',
  'lte',
  'gt',
  'gte',
  'isnull',
  'contains',
  'icontains',
  'startswith',
  'istartswith',
  'endswith',
  'iendswith',
]);

const TIMESTAMPS = new Set(['created', 'last_updated']);

const PATTERNS = new Set(['contains', 'icontains', 'startswith', 'istartswith', 'endswith', 'iendswith']);

/** A constraint that names something the model does not have, or compares a field with a value it cannot hold. */
export class ConstraintError extends Error {}

/** What a field's values are, for checking constraint values before they reach the database. */
type ValueKind = 'integer' | 'number' | 'boolean' | 'datetime' | 'text' | 'json';

const EXPECTED: Record<ValueKind, string> = {
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  datetime: 'a date or a date and time',
  text: 'a string or a number',
  json: 'nothing but an isnull lookup',
};

function valueKind(field: FieldSpec): ValueKind {
  return kindOf(field).constraintValue(field);
}

/**
 * Restricts `query` (alias `t0`) to objects matching any of `constraints`. Keys are field paths with an
 * optional lookup (`site__slug`, `status__in`, `tenant__isnull`); `"$user"` stands for the current user's id.
 */
export function applyConstraints(
  query: Knex.QueryBuilder,
  schema: Schema,
  dialect: Dialect,
  model: ModelInfo,
  constraints: readonly Constraint[],
  userId: number | null,
): void {
  query.where((any) => {
    for (const constraint of constraints) {
      any.orWhere((all) => {
        for (const [key, raw] of Object.entries(constraint))
          addCondition(all, schema, dialect, model, key, substitute(raw, userId));
      });
    }
    if (constraints.length === 0) any.whereRaw('1 = 0');
  });
}

function substitute(value: unknown, userId: number | null): unknown {
  if (value === '$user') return userId;
  if (Array.isArray(value)) return value.map((v) => substitute(v, userId));
  return value;
}

/** One hop of a constraint path: a foreign key, or a join table (many-to-many fields, tags). */
type Step =
  | { kind: 'fk'; column: string; table: string }
  | { kind: 'join'; through: string; from: string; to: string; table: string; objectType?: string };

/** The join-table hop of a model's many-to-many field or of its tags, if `name` is one, and its target. */
function joinStep(schema: Schema, model: ModelInfo, name: string): { step: Step; target: ModelInfo } | null {
  const field = model.fields.get(name);
  if (field?.kind === 'm2m') {
    const target = schema.model(field.target);
    const step: Step = {
      kind: 'join',
      through: field.through,
      from: field.fromColumn,
      to: field.toColumn,
      table: target.table,
    };
    return { step, target };
  }
  const tag = schema.withRole('tag');
  const item = schema.withRole('tagged_item');
  if (name === 'tags' && !field && model.hasTags && tag && item) {
    const step: Step = {
      kind: 'join',
      through: item.table,
      from: 'object_id',
      to: 'tag_id',
      table: tag.table,
      objectType: model.label,
    };
    return { step, target: tag };
  }
  return null;
}

function addCondition(
  qb: Knex.QueryBuilder,
  schema: Schema,
  dialect: Dialect,
  model: ModelInfo,
  key: string,
  value: unknown,
): void {
  const segments = key.split('__');
  let lookup = 'exact';
  if (segments.length > 1 && LOOKUPS.has(segments[segments.length - 1]!)) lookup = segments.pop()!;
  const steps: Step[] = [];
  let current = model;
  let column = 'id';
  let kind: ValueKind = 'integer';
  for (const [index, name] of segments.entries()) {
    const last = index === segments.length - 1;
    if ((name === 'id' || name === 'pk') && last) {
      column = 'id';
      kind = 'integer';
      break;
    }
    // A many-to-many path matches when any related object does (Django's join semantics).
    const join = joinStep(schema, current, name);
    if (join) {
      steps.push(join.step);
      current = join.target;
      column = 'id';
      kind = 'integer';
      continue;
    }
    // The change-logging timestamps are columns of every such model, though not declared fields.
    if (last && current.hasTimestamps && !current.fields.has(name) && TIMESTAMPS.has(name)) {
      column = name;
      kind = 'datetime';
      break;
    }
    // Django also accepts a foreign key's column name (`site_id`).
    const attname = last && name.endsWith('_id') ? current.fields.get(name.slice(0, -3)) : undefined;
    const field = current.fields.get(name) ?? (attname?.kind === 'fk' ? attname : undefined);
    if (!field?.column) throw new ConstraintError(`${current.label} has no field '${name}'`);
    if (field.kind === 'fk' && !last) {
      const target = schema.model(field.target);
      steps.push({ kind: 'fk', column: field.column, table: target.table });
      current = target;
      continue;
    }
    if (!last) throw new ConstraintError(`'${name}' on ${current.label} is not a relation`);
    column = field.column;
    kind = valueKind(field);
  }
  const checked = checkValue(key, kind, lookup, value);
  const alias = steps.length === 0 ? 't0' : `c${steps.length}`;
  const inner = (w: Knex.QueryBuilder): void => compare(w, dialect, `${alias}.${column}`, kind, lookup, checked);
  if (steps.length === 0) {
    qb.where(inner);
    return;
  }
  const final = steps[steps.length - 1]!;
  // `tags__isnull: true` means "has no tags": an anti-join, which the inner-join chain below cannot express.
  const emptiness = lookup === 'isnull' && column === 'id' && final.kind === 'join';
  const build =
    (index: number): ((w: Knex.QueryBuilder) => void) =>
    (w) => {
      const step = steps[index]!;
      const from = index === 0 ? 't0' : `c${index}`;
      const own = `c${index + 1}`;
      const next = index + 1 < steps.length ? build(index + 1) : inner;
      if (step.kind === 'fk') {
        w.whereIn(`${from}.${step.column}`, function sub() {
          this.select(`${own}.id`).from({ [own]: step.table });
          this.where(next);
        });
        return;
      }
      const through = `j${index + 1}`;
      const related = function sub(this: Knex.QueryBuilder): void {
        this.select(`${through}.${step.from}`).from({ [through]: step.through });
        if (step.objectType !== undefined) this.where(`${through}.object_type`, step.objectType);
        if (emptiness && index + 1 === steps.length) return;
        this.join({ [own]: step.table }, `${own}.id`, `${through}.${step.to}`).where(next);
      };
      if (emptiness && index + 1 === steps.length && value) w.whereNotIn(`${from}.id`, related);
      else w.whereIn(`${from}.id`, related);
    };
  qb.where(build(0));
}

/** The value of a lookup, checked against the field: a value the column cannot hold is a ConstraintError. */
function checkValue(key: string, kind: ValueKind, lookup: string, value: unknown): unknown {
  if (lookup === 'isnull') {
    if (typeof value !== 'boolean') throw new ConstraintError(`'${key}' expects true or false`);
    return value;
  }
  if (kind === 'json') throw new ConstraintError(`'${key}': this field accepts ${EXPECTED.json}`);
  if (lookup === 'in') return (Array.isArray(value) ? value : [value]).map((item) => checkScalar(key, kind, item));
  if (lookup === 'exact' && value === null) return null;
  // Pattern lookups compare the field's text, as Django does (`::text` on PostgreSQL).
  if (PATTERNS.has(lookup) || lookup === 'iexact') return String(checkScalar(key, 'text', value));
  return checkScalar(key, kind, value);
}

function checkScalar(key: string, kind: ValueKind, value: unknown): string | number | boolean {
  const refuse = (): never => {
    throw new ConstraintError(`'${key}' expects ${EXPECTED[kind]} but got ${JSON.stringify(value) ?? String(value)}`);
  };
  switch (kind) {
    case 'integer': {
      const n = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
      return typeof n === 'number' && Number.isSafeInteger(n) ? n : refuse();
    }
    case 'number': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      return typeof n === 'number' && Number.isFinite(n) ? n : refuse();
    }
    case 'boolean':
      return typeof value === 'boolean' ? value : refuse();
    case 'datetime':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? value : refuse();
    default:
      return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : refuse();
  }
}

function compare(
  qb: Knex.QueryBuilder,
  dialect: Dialect,
  column: string,
  kind: ValueKind,
  lookup: string,
  value: unknown,
): void {
  const v = value as Knex.Value;
  const text = kind === 'text' ? '??' : 'CAST(?? AS TEXT)';
  switch (lookup) {
    case 'exact':
      if (value === null) qb.whereNull(column);
      else qb.where(column, v);
      return;
    case 'iexact':
      qb.whereRaw(`lower(${text}) = lower(?)`, [column, v]);
      return;
    case 'in':
      qb.whereIn(column, value as Knex.Value[]);
      return;
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte':
      qb.where(column, { lt: '<', lte: '<=', gt: '>', gte: '>=' }[lookup], v);
      return;
    case 'isnull':
      if (value) qb.whereNull(column);
      else qb.whereNotNull(column);
      return;
    default: {
      const how = lookup.endsWith('contains') ? 'contains' : lookup.endsWith('startswith') ? 'startswith' : 'endswith';
      if (lookup.startsWith('i')) {
        const escaped = escapeLike(String(value));
        const pattern = how === 'contains' ? `%${escaped}%` : how === 'startswith' ? `${escaped}%` : `%${escaped}`;
        qb.whereRaw(ilike(dialect, text), [column, pattern]);
      } else {
        const [sql, pattern] = matchCase(dialect, text, how, String(value));
        qb.whereRaw(sql, [column, pattern]);
      }
    }
  }
}

/** Why constraints cannot filter a model (an unknown field, a lookup through a non-relation), or null. */
export function constraintProblem(
  q: Knex,
  schema: Schema,
  dialect: Dialect,
  model: ModelInfo,
  constraints: readonly Constraint[],
): string | null {
  try {
    const query = q({ t0: model.table }).select('t0.id');
    applyConstraints(query, schema, dialect, model, constraints, 0);
    query.toSQL();
    return null;
  } catch (error) {
    if (error instanceof ConstraintError) return error.message;
    throw error;
  }
}
