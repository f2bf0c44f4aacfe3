import { filterLookups, type FieldSpec, type FilterSpec, type FilterStep, type ModelSpec } from '../../runtime/spec.js';
import type { Json } from './openapi-json.js';
import { enumSchema } from './openapi-read.js';

/**
 * Query parameters: pagination and field selection (runtime/rest/params.ts) and one parameter per filter
 * and allowed lookup (runtime/rest/filters.ts).
 */

const LOOKUP_TEXT: Record<string, string> = {
  '': 'equals (repeat the parameter to match any of several values)',
  n: 'does not equal any of the values',
  ic: 'contains (case-insensitive)',
  nic: 'does not contain (case-insensitive)',
  isw: 'starts with (case-insensitive)',
  nisw: 'does not start with (case-insensitive)',
  iew: 'ends with (case-insensitive)',
  niew: 'does not end with (case-insensitive)',
  ie: 'equals (case-insensitive)',
  nie: 'does not equal (case-insensitive)',
  empty: 'is empty (`true`) or not (`false`)',
  regex: 'matches the regular expression',
  iregex: 'matches the regular expression (case-insensitive)',
  lt: 'is less than',
  lte: 'is less than or equal to',
  gt: 'is greater than',
  gte: 'is greater than or equal to',
  any: 'matches any of the values',
};

const TEXT_LOOKUPS = new Set(['ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie', 'regex', 'iregex']);

/** The parameters of pagination and field selection, written into every operation that takes them. */
export function sharedParameters(): Record<string, Json> {
  const query = (name: string, schema: Json, description: string): Json => ({ name, in: 'query', description, schema });
  return {
    brief: query(
      'brief',
      { type: 'boolean' },
      'Render the brief representation (`true` or `1`); the response then has the keys of `Brief<Model>`.',
    ),
    fields: query(
      'fields',
      { type: 'string' },
      'Comma-separated keys to render (unknown keys are ignored); wins over `brief` and `omit`.',
    ),
    limit: query(
      'limit',
      { type: 'integer', minimum: 0 },
      'Results per page (capped by MAX_PAGE_SIZE; 0 means MAX_PAGE_SIZE).',
    ),
    offset: query('offset', { type: 'integer', minimum: 0 }, 'Number of results to skip.'),
    omit: query('omit', { type: 'string' }, 'Comma-separated keys not to render.'),
    start: query(
      'start',
      { type: 'integer', minimum: 0 },
      'Cursor pagination: results with an id of at least this, ordered by id (not with `offset` or `ordering`).',
    ),
  };
}

/** `fields`, `omit` and `brief`: every response that renders objects honours them. */
export const SELECTION_PARAMETERS = ['brief', 'fields', 'omit'] as const;

/** Query parameters of a list operation, sorted by name. */
export function listParameters(model: ModelSpec, models: ReadonlyMap<string, ModelSpec>): Json[] {
  const shared = sharedParameters();
  const named: [string, Json][] = [...SELECTION_PARAMETERS, 'limit', 'offset', 'start'].map((name) => [
    name,
    shared[name]!,
  ]);
  named.push([
    'ordering',
    {
      name: 'ordering',
      in: 'query',
      description: `Comma-separated keys to order by, \`-\` for descending; unknown keys are ignored. Keys: ${orderableKeys(
        model,
      )
        .map((k) => `\`${k}\``)
        .join(', ')}.`,
      schema: { type: 'string' },
    },
  ]);
  for (const filter of model.filters) {
    for (const parameter of filterParameters(filter, model, models)) named.push([parameter.name as string, parameter]);
  }
  return named.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, parameter]) => parameter);
}

/** Keys the `ordering` parameter accepts (runtime/rest/params.ts isOrderable). */
function orderableKeys(model: ModelSpec): string[] {
  const keys = ['id'];
  for (const field of model.fields) {
    if (!field.column || field.hidden || field.writeOnly) continue;
    if (['json', 'list', 'object_types', 'password'].includes(field.kind)) continue;
    keys.push(field.name);
  }
  if (model.features.includes('change_logging')) keys.push('created', 'last_updated');
  if (model.tree) keys.push('_depth');
  return keys;
}

function filterParameters(filter: FilterSpec, model: ModelSpec, models: ReadonlyMap<string, ModelSpec>): Json[] {
  switch (filter.kind) {
    case 'search':
      return [
        {
          name: 'q',
          in: 'query',
          description: `Search (case-insensitive substring) in ${model.search.map((s) => `\`${s}\``).join(', ')}.`,
          schema: { type: 'string' },
        },
      ];
    case 'tag': {
      const item = filter.by === 'id' ? { type: 'integer', minimum: 0 } : { type: 'string' };
      const by = filter.by === 'id' ? 'id' : 'slug';
      return [
        multi(filter.name, item, `Objects that carry every given tag (by ${by}).`),
        multi(`${filter.name}__n`, item, `Objects that carry none of the given tags (by ${by}).`),
        multi(`${filter.name}__any`, item, `Objects that carry any of the given tags (by ${by}).`),
      ];
    }
    case 'relation': {
      const target = models.get(filter.target)!;
      const paths = [filter.path, ...(filter.or ?? [])];
      const nullable =
        paths.length > 1 || filter.path.some((step) => step.kind !== 'fk' || fieldOf(step, models)?.nullable);
      const item = relationItem(filter.by, target, nullable);
      const scope = filter.ancestor
        ? `descendants of the given ${target.verboseNamePlural}`
        : `objects whose ${paths.map((p) => `\`${describePath(p)}\``).join(' or ')} is one of the given ${target.verboseNamePlural}${filter.tree ? ' or their descendants' : ''}`;
      const by = `(by ${filter.by}${nullable ? '; `null` matches objects without one' : ''})`;
      return filterLookups(filter).map((lookup) =>
        multi(
          lookup ? `${filter.name}__${lookup}` : filter.name,
          item,
          `${lookup ? 'Excludes' : 'Selects'} ${scope} ${by}.`,
        ),
      );
    }
    case 'value': {
      const last = filter.path[filter.path.length - 1];
      const owner = last ? models.get(stepTarget(last)) : model;
      const field = owner?.fields.find((f) => f.name === filter.field);
      const base = valueItem(filter.valueKind, field);
      const subject = [describePath(filter.path), filter.field].filter(Boolean).join('.');
      return filterLookups(filter).map((lookup) => lookupParameter(filter.name, lookup, base, `\`${subject}\``));
    }
    case 'network': {
      const text: Record<typeof filter.op, string> = {
        exact: 'exact networks in CIDR notation',
        address: 'addresses: with a mask, exactly; without, the host with any mask',
        within: 'networks strictly inside one of the given networks',
        within_include: 'networks inside or equal to one of the given networks',
        contains: 'networks that contain one of the given addresses or networks',
        parent: 'addresses inside one of the given networks',
        mask_length: 'the mask length',
      };
      if (filter.op === 'mask_length') {
        return filterLookups(filter).map((lookup) =>
          multi(
            lookup ? `${filter.name}__${lookup}` : filter.name,
            { type: 'integer', minimum: 0, maximum: 128 },
            `Matches ${text.mask_length}.`,
          ),
        );
      }
      const subject = [describePath(filter.path ?? []), filter.field].filter(Boolean).join('.');
      return [multi(filter.name, { type: 'string' }, `Matches ${text[filter.op]} (\`${subject}\`).`)];
    }
    case 'request': {
      const done = { create: 'created', update: 'updated', modify: 'created or updated' }[filter.action];
      return [
        {
          name: filter.name,
          in: 'query',
          description: `Objects ${done} by the request with this id (\`X-Request-ID\`), per the change log.`,
          schema: { type: 'string', format: 'uuid' },
        },
      ];
    }
    case 'function': {
      const item = filter.valueKind === 'integer' ? { type: 'integer' } : { type: 'string' };
      return filterLookups(filter).map((lookup) =>
        lookupParameter(filter.name, lookup, item, `A model-specific filter (${filter.function}):`),
      );
    }
    case 'constant': {
      const item = filter.valueKind === 'object' ? { type: 'string', enum: ['null'] } : constantItem(filter.valueKind);
      const subject = `A NetBox filter over something this service does not serve (always \`${JSON.stringify(filter.value)}\`):`;
      return filterLookups(filter).map((lookup) => lookupParameter(filter.name, lookup, item, subject));
    }
    case 'present': {
      const subject = [filter, ...(filter.or ?? [])]
        .map((place) => [describePath(place.path), place.field].filter(Boolean).join('.'))
        .join('` or `');
      return [
        {
          name: filter.name,
          in: 'query',
          description: `\`true\`: objects with a value (or related object) at \`${subject}\`; \`false\`: objects without.`,
          schema: { type: 'boolean' },
        },
      ];
    }
    case 'count':
      return filterLookups(filter).map((lookup) =>
        lookupParameter(filter.name, lookup, { type: 'integer', minimum: 0 }, `\`${filter.count}\``),
      );
    case 'object_type': {
      const item = filter.by === 'id' ? { type: 'integer', minimum: 1 } : { type: 'string' };
      const by = filter.by === 'id' ? 'object type ids' : 'object types (`app.model`)';
      return filterLookups(filter).map((lookup) =>
        multi(
          lookup ? `${filter.name}__${lookup}` : filter.name,
          item,
          `${lookup.startsWith('n') ? 'Excludes' : 'Selects'} objects whose \`${filter.field}\` holds one of the given ${by}.`,
        ),
      );
    }
    case 'list_item':
      return filterLookups(filter).map((lookup) =>
        multi(
          lookup ? `${filter.name}__${lookup}` : filter.name,
          { type: 'string' },
          `${lookup ? 'Excludes' : 'Selects'} objects whose \`${filter.field}\` lists one of the values.`,
        ),
      );
  }
}

/** One lookup of a value-like filter: text lookups take strings, `empty` a boolean, the others `item`. */
function lookupParameter(name: string, lookup: string, item: Json, subject: string): Json {
  const full = lookup ? `${name}__${lookup}` : name;
  const text = `${subject} ${LOOKUP_TEXT[lookup]}.`;
  if (lookup === 'empty') return { name: full, in: 'query', description: text, schema: { type: 'boolean' } };
  return multi(full, TEXT_LOOKUPS.has(lookup) ? { type: 'string' } : item, text);
}

function constantItem(kind: Exclude<Extract<FilterSpec, { kind: 'constant' }>['valueKind'], 'object'>): Json {
  switch (kind) {
    case 'boolean':
      return { type: 'boolean' };
    case 'integer':
      return { type: 'integer' };
    case 'decimal':
      return { type: 'number' };
    case 'string':
      return { type: 'string' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
  }
}

function stepTarget(step: FilterStep): string {
  return 'model' in step ? step.model : step.target;
}

/** The FK or many-to-many field a forward step follows. */
function fieldOf(step: FilterStep, models: ReadonlyMap<string, ModelSpec>): FieldSpec | undefined {
  if (step.kind !== 'fk') return undefined;
  for (const model of models.values()) {
    const field = model.fields.find((f) => f.name === step.field && f.kind === 'fk' && f.target === step.target);
    if (field) return field;
  }
  return undefined;
}

/** A filter path for people: field names, and `<model>.<field>` for the objects pointing back. */
function describePath(steps: readonly FilterStep[]): string {
  return steps.map((step) => ('model' in step ? `(${step.model}.${step.field})` : step.field)).join('.');
}

function relationItem(by: string, target: ModelSpec, nullable: boolean): Json {
  const field = target.fields.find((f) => f.name === by);
  const numeric = by === 'id' || field?.kind === 'integer';
  if (!numeric) return { type: 'string' };
  const id = { type: 'integer', minimum: 0 };
  return nullable ? { oneOf: [id, { type: 'string', enum: ['null'] }] } : id;
}

function valueItem(kind: Extract<FilterSpec, { kind: 'value' }>['valueKind'], field: FieldSpec | undefined): Json {
  switch (kind) {
    case 'string':
      return { type: 'string' };
    case 'integer':
      return { type: 'integer' };
    case 'decimal':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'choice':
      return field?.kind === 'choice' ? enumSchema(field.choices.map(([v]) => v)) : { type: 'string' };
  }
}

/** A repeatable query parameter (`?a=1&a=2`). */
function multi(name: string, item: Json, description: string): Json {
  return { name, in: 'query', description, schema: { type: 'array', items: item }, style: 'form', explode: true };
}
