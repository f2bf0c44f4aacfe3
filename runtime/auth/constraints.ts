import type { Knex } from 'knex';
import type { Dialect } from '../db/connect.js';
import { escapeLike, ilike } from '../db/sql.js';
import type { ModelInfo, Schema } from '../rest/schema.js';

/** A permission constraint: a dict is AND, a list of dicts is OR (Django queryset filter semantics). */
export type Constraint = Record<string, unknown>;

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

/** A constraint that names something the model does not have. */
export class ConstraintError extends Error {}

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
  const steps: { column: string; table: string }[] = [];
  let current = model;
  let column = 'id';
  for (const [index, name] of segments.entries()) {
    const last = index === segments.length - 1;
    if (name === 'id' && last) {
      column = 'id';
      break;
    }
    const field = current.fields.get(name);
    if (!field?.column) throw new ConstraintError(`${current.label} has no field '${name}'`);
    if (field.kind === 'fk' && !last) {
      const target = schema.model(field.target);
      steps.push({ column: field.column, table: target.table });
      current = target;
      continue;
    }
    if (!last) throw new ConstraintError(`'${name}' on ${current.label} is not a relation`);
    column = field.column;
  }
  const alias = steps.length === 0 ? 't0' : `c${steps.length}`;
  const inner = (w: Knex.QueryBuilder): void => compare(w, dialect, `${alias}.${column}`, lookup, value);
  if (steps.length === 0) {
    qb.where(inner);
    return;
  }
  const build =
    (index: number): ((w: Knex.QueryBuilder) => void) =>
    (w) => {
      const step = steps[index]!;
      const from = index === 0 ? 't0' : `c${index}`;
      const own = `c${index + 1}`;
      w.whereIn(`${from}.${step.column}`, function sub() {
        this.select(`${own}.id`).from({ [own]: step.table });
        this.where(index + 1 < steps.length ? build(index + 1) : inner);
      });
    };
  qb.where(build(0));
}

function compare(qb: Knex.QueryBuilder, dialect: Dialect, column: string, lookup: string, value: unknown): void {
  const v = value as Knex.Value;
  switch (lookup) {
    case 'exact':
      if (value === null) qb.whereNull(column);
      else qb.where(column, v);
      return;
    case 'iexact':
      qb.whereRaw('lower(??) = lower(?)', [column, v]);
      return;
    case 'in':
      qb.whereIn(column, (Array.isArray(value) ? value : [value]) as Knex.Value[]);
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
      const text = escapeLike(String(value));
      const pattern = lookup.endsWith('contains')
        ? `%${text}%`
        : lookup.endsWith('startswith')
          ? `${text}%`
          : `%${text}`;
      if (lookup.startsWith('i')) qb.whereRaw(ilike(dialect, '??'), [column, pattern]);
      else qb.whereRaw(`?? LIKE ? ESCAPE '\\'`, [column, pattern]);
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
