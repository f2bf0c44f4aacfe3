import type { Knex } from 'knex';
import { filterLookups, type FilterSpec } from '../spec.js';
import { ValidationError } from '../errors.js';
import type { ModelInfo } from './schema.js';
import type { Condition, FilterContext } from './filter-paths.js';
import { expandSavedFilters } from './shared-objects.js';
import { jsonKeyFilter } from './filter-json.js';
import { networkCondition } from './filter-networks.js';
import { constantCondition, countCondition, valueCondition } from './filter-values.js';
import {
  listItemCondition,
  objectTypeCondition,
  presentCondition,
  relationCondition,
  requestCondition,
  searchCondition,
  tagCondition,
} from './filter-relations.js';

export type { FilterContext } from './filter-paths.js';

/**
 * Query parameters of a list that are never filters: pagination (`start` is this service's cursor),
 * ordering, field selection (`exclude` drops config contexts), DRF's `format`, and the browsable API's
 * query line (`_query`, which redirects a browser and is ignored otherwise).
 */
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
  'export',
  '_query',
]);

/**
 * Turns query parameters into conditions on alias `t0` of `query`. Repeated parameters are OR-ed, different
 * parameters AND-ed; every invalid value is reported in one 400. A parameter that is no filter of the model
 * is reported too under STRICT_FILTERING (a mistyped filter would otherwise select every object), and
 * ignored without it, as NetBox does. Saved filters named by `filter`/`filter_id` add their parameters first.
 */
export async function applyFilters(
  q: Knex,
  ctx: FilterContext,
  model: ModelInfo,
  params: URLSearchParams,
  query: Knex.QueryBuilder,
): Promise<void> {
  params = await expandSavedFilters(q, ctx.schema, ctx.dialect, ctx.user ?? null, params);
  const errors: Record<string, string[]> = {};
  const conditions: Condition[] = [];
  const strict = ctx.settings.STRICT_FILTERING;
  for (const name of new Set(params.keys())) {
    if (RESERVED_PARAMS.has(name)) continue;
    const values = params.getAll(name).filter((v) => v !== '');
    if (name.startsWith('cf_') && model.hasCustomFields && ctx.customFields) {
      const [field, lookup = ''] = name.slice(3).split('__', 2);
      if (strict && !(await ctx.customFields.accepts(q, model, field!, lookup))) {
        errors[name] = [UNKNOWN_FILTER];
        continue;
      }
      const result = values.length > 0 ? await ctx.customFields.filter(q, model, field!, lookup, values) : null;
      if (typeof result === 'string') errors[name] = [result];
      else if (result) conditions.push(result);
      continue;
    }
    const match = matchFilter(model, name);
    const jsonKey = match ? null : jsonKeyFilter(ctx.dialect, model, name, values);
    if (jsonKey) {
      if (values.length > 0) conditions.push(jsonKey);
      continue;
    }
    if (!match) {
      if (strict) errors[name] = [UNKNOWN_FILTER];
      continue;
    }
    if (values.length === 0) continue;
    const result = await buildCondition(q, ctx, model, match.filter, match.lookup, values);
    if (typeof result === 'string') errors[name] = [result];
    else if (result) conditions.push(result);
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  for (const condition of conditions) query.where(condition);
}

const UNKNOWN_FILTER = 'Unknown filter: this list has no filter or lookup of this name (STRICT_FILTERING).';

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
      return networkCondition(ctx, model, filter, lookup, values);
    case 'request':
      return requestCondition(ctx, model, filter.action, values[0]!);
    case 'constant':
      return constantCondition(filter, lookup, values);
    case 'present':
      return presentCondition(ctx, model, filter, values);
    case 'count':
      return countCondition(ctx, model, filter, lookup, values);
    case 'object_type':
      return objectTypeCondition(ctx, model, filter, lookup, values);
    case 'list_item':
      return listItemCondition(ctx, model, filter, lookup, values);
    case 'function':
      return ctx.domain.filter(filter.function)(
        { q, schema: ctx.schema, dialect: ctx.dialect, settings: ctx.settings, user: ctx.user ?? null },
        model,
        values,
        lookup,
      );
  }
}
