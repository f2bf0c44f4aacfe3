import type { Knex } from 'knex';
import type { Settings } from '../config.js';
import { orderColumn } from '../db/sql.js';
import { ValidationError } from '../errors.js';
import type { ModelInfo, Schema } from './schema.js';
import type { FieldSpec, OrderingSpec } from '../spec.js';

/** The keys a response renders: `fields` wins over `brief`, which wins over `omit`. */
export function selectKeys(model: ModelInfo, params: URLSearchParams): string[] {
  const keys = selectedKeys(model, params);
  // `exclude=<name>` leaves out excludable computed values (a device's config_context) and skips their work.
  const excluded = new Set(params.getAll('exclude').flatMap((value) => value.split(',').map((f) => f.trim())));
  if (excluded.size === 0) return keys;
  return keys.filter((key) => {
    const field = model.fields.get(key);
    return !(field?.kind === 'computed' && field.excludable && excluded.has(key));
  });
}

function selectedKeys(model: ModelInfo, params: URLSearchParams): string[] {
  const fields = params.get('fields');
  if (fields !== null && fields.trim() !== '') {
    const wanted = new Set(fields.split(',').map((f) => f.trim()));
    return model.spec.output.filter((key) => wanted.has(key));
  }
  if (isBrief(params)) return model.spec.brief;
  const omit = params.get('omit');
  if (omit !== null && omit.trim() !== '') {
    const omitted = new Set(omit.split(',').map((f) => f.trim()));
    return model.spec.output.filter((key) => !omitted.has(key));
  }
  return model.spec.output;
}

/** `brief=true|True|1` selects the brief representation. */
export function isBrief(params: URLSearchParams): boolean {
  const value = params.get('brief');
  return value !== null && ['true', '1'].includes(value.trim().toLowerCase());
}

export type Pagination =
  { mode: 'offset'; limit: number | null; offset: number } | { mode: 'cursor'; limit: number | null; start: number };

/** Reads `limit`/`offset`/`start` (NetBox's pagination; bad limits fall back to the default). */
export function parsePagination(params: URLSearchParams, settings: Settings): Pagination {
  const max = settings.MAX_PAGE_SIZE;
  let limit: number | null = settings.PAGINATE_COUNT;
  const rawLimit = params.get('limit');
  if (rawLimit !== null && /^\d+$/.test(rawLimit.trim())) {
    const requested = clampInteger(rawLimit);
    if (requested === 0) limit = max > 0 ? max : null;
    else limit = max > 0 ? Math.min(requested, max) : requested;
  }
  if (max > 0 && limit !== null) limit = Math.min(limit, max);
  const rawStart = params.get('start');
  if (rawStart !== null) {
    if (params.get('offset') !== null) throw new ValidationError(["'start' and 'offset' are mutually exclusive."]);
    if (params.get('ordering') !== null) {
      throw new ValidationError(['Ordering cannot be specified in conjunction with cursor-based pagination.']);
    }
    if (!/^\d+$/.test(rawStart.trim()))
      throw new ValidationError(["Invalid 'start' parameter: must be a non-negative integer."]);
    return { mode: 'cursor', limit, start: clampInteger(rawStart) };
  }
  const rawOffset = params.get('offset');
  const offset = rawOffset !== null && /^\d+$/.test(rawOffset.trim()) ? clampInteger(rawOffset) : 0;
  return { mode: 'offset', limit, offset };
}

/** A non-negative integer parameter, at most 2^53 − 1: beyond every table, and within what both databases bind. */
function clampInteger(raw: string): number {
  return Math.min(Number(raw), Number.MAX_SAFE_INTEGER);
}

/**
 * Orders the query: the `ordering` parameter (unknown names ignored) or the model's default, then `id`,
 * so that every list has a total order. FK names order by the related model's own ordering.
 */
export function applyOrdering(
  schema: Schema,
  model: ModelInfo,
  params: URLSearchParams,
  query: Knex.QueryBuilder,
): void {
  const requested = (params.get('ordering') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const terms: OrderingSpec[] = [];
  for (const entry of requested) {
    const descending = entry.startsWith('-');
    const field = descending ? entry.slice(1) : entry;
    if (isOrderable(model, field)) terms.push({ field, descending });
  }
  if (terms.length === 0) terms.push(...model.spec.ordering);
  let joins = 0;
  let hasId = false;
  // Through a nullable FK every column of the joined table may be null.
  const addDefault = (target: ModelInfo, alias: string, descending: boolean, nullable: boolean): void => {
    if (target.spec.tree) orderColumn(query, `${alias}._path`, descending, nullable);
    else {
      for (const term of target.spec.ordering) {
        const field = target.fields.get(term.field);
        if (term.field === 'id' || !field || field.kind === 'fk') continue;
        orderField(query, alias, field, descending !== term.descending, nullable);
      }
    }
    orderColumn(query, `${alias}.id`, descending, nullable);
  };
  if (terms.length === 0 && model.spec.tree) orderColumn(query, 't0._path', false, false);
  for (const { field, descending, nullsFirst } of terms) {
    if (field === 'id') {
      hasId = true;
      orderColumn(query, 't0.id', descending, false);
      continue;
    }
    if (['_depth', 'created', 'last_updated'].includes(field)) {
      orderColumn(query, `t0.${field}`, descending, field !== '_depth');
      continue;
    }
    const spec = model.fields.get(field)!;
    if (spec.kind === 'fk') {
      const target = schema.model(spec.target);
      if (nullsFirst) query.orderByRaw(`(?? IS NULL) ${descending ? 'ASC' : 'DESC'}`, [`t0.${spec.column}`]);
      const alias = `o${++joins}`;
      query.leftJoin({ [alias]: target.table }, `${alias}.id`, `t0.${spec.column}`);
      addDefault(target, alias, descending, spec.nullable);
    } else {
      if (nullsFirst) query.orderByRaw(`(?? IS NULL) ${descending ? 'ASC' : 'DESC'}`, [`t0.${spec.column}`]);
      orderField(query, 't0', spec, descending, false);
    }
  }
  if (!hasId) query.orderBy('t0.id', 'asc');
}

/** Orders by one field: IP fields by family, address and mask length; natural names by their sort key. */
function orderField(
  query: Knex.QueryBuilder,
  alias: string,
  field: FieldSpec,
  descending: boolean,
  nullable: boolean,
): void {
  const column = `${alias}.${field.column}`;
  const mayBeNull = nullable || field.nullable;
  if (field.kind === 'ip_network' || field.kind === 'ip_interface') {
    for (const suffix of ['family', 'start', 'len']) orderColumn(query, `${column}_${suffix}`, descending, mayBeNull);
  } else if (field.kind === 'string' && field.natural) {
    orderColumn(query, `${column}_natural`, descending, mayBeNull);
  } else {
    orderColumn(query, column, descending, mayBeNull);
  }
}

function isOrderable(model: ModelInfo, name: string): boolean {
  if (name === 'id') return true;
  if (name === '_depth') return model.spec.tree;
  if (name === 'created' || name === 'last_updated') return model.hasTimestamps;
  const field = model.fields.get(name);
  if (!field?.column || field.hidden || field.writeOnly) return false;
  return !['json', 'list', 'object_types', 'password', 'm2m', 'generic_fk', 'constant', 'computed'].includes(
    field.kind,
  );
}
