import type { Knex } from 'knex';
import type { Dialect } from '../db/connect.js';
import { sqlBoolean } from '../db/sql.js';
import type { ModelInfo, Schema } from './schema.js';
import { decodeJson } from './values.js';

/** Who asks, as the shared-object rules need it (null: anonymous). */
export type Asker = { id: number; isSuperuser: boolean } | null;

/**
 * NetBox's SharedObjectQuerySet.restrict_to_shared on a query of a model with `shared` (alias `alias`):
 * superusers see every object, anonymous clients the shared ones, other users the shared ones and their own.
 * Models without `shared` are left alone.
 */
export function restrictToShared(
  query: Knex.QueryBuilder,
  model: ModelInfo,
  dialect: Dialect,
  asker: Asker,
  alias = 't0',
): Knex.QueryBuilder {
  const shared = model.spec.shared;
  if (!shared || asker?.isSuperuser) return query;
  const flag = `${alias}.${model.fields.get(shared.flag)!.column!}`;
  const owner = `${alias}.${model.fields.get(shared.user)!.column!}`;
  return query.where((visible) => {
    void visible.where(flag, sqlBoolean(dialect, true));
    if (asker) void visible.orWhere(owner, asker.id);
  });
}

/** The query parameters that name saved filters. */
export const SAVED_FILTER_PARAMS = ['filter', 'filter_id'] as const;

/**
 * NetBox's BaseFilterSet applying referenced saved filters: `filter=<slug>` and `filter_id=<id>` (ids that are
 * not integers are ignored) are replaced by the parameters of the saved filters they name that the asker may
 * see (shared or their own); a parameter the request also gives gets the saved values added to its own. A
 * saved filter that does not exist, or is another user's private one, adds nothing. Without a model playing
 * the `saved_filter` role the parameters are left as they are.
 */
export async function expandSavedFilters(
  q: Knex,
  schema: Schema,
  dialect: Dialect,
  asker: Asker,
  params: URLSearchParams,
): Promise<URLSearchParams> {
  const model = schema.withRole('saved_filter');
  if (!model || !SAVED_FILTER_PARAMS.some((name) => params.has(name))) return params;
  const slugs = params.getAll('filter');
  const ids = params
    .getAll('filter_id')
    .filter((value) => /^\s*[+-]?\d+\s*$/.test(value))
    .map(Number)
    .filter(Number.isSafeInteger);
  const data = new URLSearchParams(params);
  for (const name of SAVED_FILTER_PARAMS) data.delete(name);
  if (slugs.length === 0 && ids.length === 0) return data;
  const query = q(`${model.table} as t0`)
    .select(`t0.${model.fields.get('parameters')!.column!} as parameters`)
    .where((named) => void named.whereIn(`t0.${model.fields.get('slug')!.column!}`, slugs).orWhereIn('t0.id', ids))
    .orderBy('t0.id');
  const rows = (await restrictToShared(query, model, dialect, asker)) as { parameters: unknown }[];
  for (const row of rows) {
    const parameters = decodeJson(row.parameters);
    if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) continue;
    for (const [key, value] of Object.entries(parameters as Record<string, unknown>)) {
      for (const item of Array.isArray(value) ? value : [value]) data.append(key, parameterText(item));
    }
  }
  return data;
}

/** A saved value as a query parameter (Python's str() of JSON scalars, booleans as the filters read them). */
function parameterText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return typeof value === 'object' ? JSON.stringify(value) : String(value as string | number);
}
