import type { CountSpec, DerivedField, FieldSpec } from '../spec.js';
import { compileTemplate } from '../display-template.js';
import type { ModelInfo, Schema } from './schema.js';

/**
 * A read plan: which columns to select and which tables to join to render a set of keys of a model,
 * including nested objects of FKs (joined, never fetched per row) and the batched parts (tags, counts)
 * that are loaded after the rows. Plans are pure data and cached per model and key set.
 */
export interface Plan {
  model: ModelInfo;
  /** SQL alias of this model's table. */
  alias: string;
  keys: KeyPlan[];
  /** Select alias of the `id` column. */
  idColumn: string;
}

export type KeyPlan =
  | { key: string; kind: 'id' | 'url' | 'display_url' }
  | { key: string; kind: 'display'; columns: Record<string, string> }
  /** A derived field: the select alias and the field (for decoding) of each path it uses. */
  | { key: string; kind: 'derived'; field: DerivedField; uses: Record<string, { column: string; field?: FieldSpec }> }
  | { key: string; kind: 'value'; field: FieldSpec; column: string }
  | { key: string; kind: 'timestamp'; column: string }
  | { key: string; kind: 'depth'; column: string }
  | { key: string; kind: 'fk'; field: FieldSpec; column: string; nested: Plan }
  | { key: string; kind: 'constant'; value: unknown }
  | { key: string; kind: 'tags' }
  | { key: string; kind: 'custom_fields'; column: string }
  | { key: string; kind: 'count'; count: CountSpec }
  /** Loaded per page after the rows: related lists and generic relations (top level), computed values. */
  | { key: string; kind: 'm2m' | 'children' | 'computed'; field: FieldSpec }
  | { key: string; kind: 'generic'; field: FieldSpec; typeColumn: string; idColumn: string };

export interface Join {
  alias: string;
  table: string;
  /** `<alias>.<column>` on the joining side. */
  from: string;
}

/** The joins and selected columns of a plan, in the order they were needed. */
export interface Selection {
  plan: Plan;
  joins: Join[];
  /** Select alias → `<table alias>.<column>`, or an SQL expression (`{ sql }`). */
  columns: Record<string, string | { sql: string }>;
}

const MAX_NESTING = 3;
const cache = new WeakMap<ModelInfo, Map<string, Selection>>();

/**
 * The selection that renders `keys` of `model` (cached). `related` renders objects listed inside another
 * (many-to-many, generic relations): loaded in their own batch, but with counts as nested objects show them.
 */
export function planSelection(schema: Schema, model: ModelInfo, keys: readonly string[], related = false): Selection {
  let perModel = cache.get(model);
  if (!perModel) cache.set(model, (perModel = new Map<string, Selection>()));
  const cacheKey = `${related ? 'related:' : ''}${keys.join(',')}`;
  const found = perModel.get(cacheKey);
  if (found) return found;
  const state: BuildState = { joins: [], joined: new Map(), columns: {}, aliases: 0, related };
  const plan = buildPlan(schema, model, keys, 't0', 0, state);
  const selection = { plan, joins: state.joins, columns: state.columns };
  perModel.set(cacheKey, selection);
  return selection;
}

interface BuildState {
  joins: Join[];
  /** `<alias>.<column>` → the alias of the table joined on it: a display path and a nested object share it. */
  joined: Map<string, string>;
  columns: Record<string, string | { sql: string }>;
  aliases: number;
  related: boolean;
}

/** The alias of `table` joined on `from` (`<alias>.<column>`), joined once per selection. */
function join(state: BuildState, table: string, from: string): string {
  const found = state.joined.get(from);
  if (found) return found;
  const alias = `t${++state.aliases}`;
  state.joins.push({ alias, table, from });
  state.joined.set(from, alias);
  return alias;
}

function select(state: BuildState, alias: string, column: string): string {
  const name = `${alias}__${column}`;
  state.columns[name] = `${alias}.${column}`;
  return name;
}

/** Selects `a.b.c`: joins the FKs `a` and `b`, then selects column `c` (a plain name selects its column). */
function selectPath(schema: Schema, state: BuildState, model: ModelInfo, alias: string, path: string): string {
  const segments = path.split('.');
  let current = model;
  let currentAlias = alias;
  for (const segment of segments.slice(0, -1)) {
    const field = current.fields.get(segment);
    if (field?.kind !== 'fk') throw new Error(`${current.label}.${segment} is not an fk`);
    const target = schema.model(field.target);
    current = target;
    currentAlias = join(state, target.table, `${currentAlias}.${field.column}`);
  }
  const last = segments[segments.length - 1]!;
  return select(state, currentAlias, current.fields.get(last)?.column ?? last);
}

/** The field a path such as `event_rule.name` ends at (undefined for `id`). */
function fieldAtPath(schema: Schema, model: ModelInfo, path: string): FieldSpec | undefined {
  const segments = path.split('.');
  let current = model;
  for (const segment of segments.slice(0, -1)) {
    const field = current.fields.get(segment);
    if (field?.kind !== 'fk') return undefined;
    current = schema.model(field.target);
  }
  return current.fields.get(segments[segments.length - 1]!);
}

/**
 * The FK paths of a `first` display that only later templates use, each with the SQL condition under which
 * a row needs it: every earlier template lacks one of its own fields (device displays follow their type's
 * manufacturer and model only when unnamed). Paths used as soon as a template needing a path is reached
 * are joined as usual.
 */
function deferredPaths(
  schema: Schema,
  model: ModelInfo,
  alias: string,
  templates: readonly string[],
): Map<string, string> {
  const deferred = new Map<string, string>();
  const failed: string[] = [];
  for (const template of templates) {
    const { fields, required } = compileTemplate(template);
    const paths = fields.filter((f) => f.includes('.'));
    if (failed.length > 0) for (const path of paths) if (!deferred.has(path)) deferred.set(path, failed.join(' AND '));
    // A template that needs a path is reached by the rows that need the path; one that needs nothing always renders.
    if (required.length === 0 || required.some((name) => name.includes('.'))) break;
    failed.push(`(${required.map((name) => isEmpty(model, alias, name)).join(' OR ')})`);
  }
  return deferred;
}

/** SQL: the field of the row is empty (null, or an empty string for text). */
function isEmpty(model: ModelInfo, alias: string, name: string): string {
  const field = model.fields.get(name);
  const column = `${alias}.${field?.column ?? name}`;
  const text = field?.kind === 'string';
  return text ? `${column} IS NULL OR ${column} = ''` : `${column} IS NULL`;
}

/** Selects the FK path `a.b.c` through a subquery evaluated only for rows where `when` holds. */
function selectWhen(
  schema: Schema,
  state: BuildState,
  model: ModelInfo,
  alias: string,
  path: string,
  when: string,
): string {
  const segments = path.split('.');
  let current = model;
  let from = '';
  let previous = alias;
  let on = '';
  for (const [index, segment] of segments.slice(0, -1).entries()) {
    const field = current.fields.get(segment);
    if (field?.kind !== 'fk') throw new Error(`${current.label}.${segment} is not an fk`);
    current = schema.model(field.target);
    const sub = `${alias}_${index}`;
    if (index === 0) {
      from = `${current.table} ${sub}`;
      on = `${sub}.id = ${previous}.${field.column}`;
    } else from += ` JOIN ${current.table} ${sub} ON ${sub}.id = ${previous}.${field.column}`;
    previous = sub;
  }
  const last = segments[segments.length - 1]!;
  const name = `${alias}__${segments.join('__')}`;
  const column = `${previous}.${current.fields.get(last)?.column ?? last}`;
  state.columns[name] = { sql: `CASE WHEN ${when} THEN (SELECT ${column} FROM ${from} WHERE ${on}) END` };
  return name;
}

function buildPlan(
  schema: Schema,
  model: ModelInfo,
  keys: readonly string[],
  alias: string,
  depth: number,
  state: BuildState,
  /** For a joined model: the select alias of the FK column that already holds its id. */
  knownId?: string,
): Plan {
  const nested = depth > 0;
  const idColumn = knownId ?? select(state, alias, 'id');
  const plan: Plan = { model, alias, keys: [], idColumn };
  for (const key of keys) {
    const field = model.fields.get(key);
    if (field) {
      if (field.kind === 'computed') {
        plan.keys.push({ key, kind: field.kind, field });
      } else if (field.kind === 'derived') {
        const uses = Object.fromEntries(
          field.uses.map((path) => [
            path,
            { column: selectPath(schema, state, model, alias, path), field: fieldAtPath(schema, model, path) },
          ]),
        );
        plan.keys.push({ key, kind: 'derived', field, uses });
      } else if (field.kind === 'm2m' || field.kind === 'children') {
        if (!nested) plan.keys.push({ key, kind: field.kind, field });
      } else if (field.kind === 'generic_fk') {
        if (!nested) {
          const typeField = model.fields.get(field.typeField)!;
          const idField = model.fields.get(field.idField)!;
          plan.keys.push({
            key,
            kind: 'generic',
            field,
            typeColumn: select(state, alias, typeField.column!),
            idColumn: select(state, alias, idField.column!),
          });
        }
      } else if (field.kind === 'constant') {
        plan.keys.push({ key, kind: 'constant', value: field.value });
      } else if (field.kind === 'alias') {
        const source = model.fields.get(field.of)!;
        plan.keys.push({ key, kind: 'value', field: source, column: select(state, alias, source.column!) });
      } else if (!field.column) {
        plan.keys.push({ key, kind: 'constant', value: null });
      } else if (field.kind === 'fk') {
        if (depth >= MAX_NESTING) continue;
        const target = schema.model(field.target);
        const joinAlias = join(state, target.table, `${alias}.${field.column}`);
        const nestedKeys = field.nested ?? target.spec.nested;
        const column = select(state, alias, field.column);
        plan.keys.push({
          key,
          kind: 'fk',
          field,
          column,
          nested: buildPlan(schema, target, nestedKeys, joinAlias, depth + 1, state, column),
        });
      } else {
        plan.keys.push({ key, kind: 'value', field, column: select(state, alias, field.column) });
      }
      continue;
    }
    const count = model.counts.get(key);
    if (count) {
      // Inside another object only counts that NetBox keeps on the row (its counter caches) are shown.
      if ((!nested && !state.related) || count.nested === 'include') plan.keys.push({ key, kind: 'count', count });
      continue;
    }
    switch (key) {
      case 'id':
      case 'url':
      case 'display_url':
        plan.keys.push({ key, kind: key });
        break;
      case 'display': {
        const display = model.spec.display;
        const uses = display.kind === 'field' ? [display.field] : display.uses;
        const columns: Record<string, string> = {};
        const deferred =
          display.kind === 'first' ? deferredPaths(schema, model, alias, display.templates) : new Map<string, string>();
        for (const name of uses) {
          const when = deferred.get(name);
          columns[name] = when
            ? selectWhen(schema, state, model, alias, name, when)
            : selectPath(schema, state, model, alias, name);
        }
        plan.keys.push({ key, kind: 'display', columns });
        break;
      }
      case 'created':
      case 'last_updated':
        plan.keys.push({ key, kind: 'timestamp', column: select(state, alias, key) });
        break;
      case '_depth':
        plan.keys.push({ key, kind: 'depth', column: select(state, alias, '_depth') });
        break;
      case 'tags':
        if (!nested) plan.keys.push({ key, kind: 'tags' });
        break;
      case 'custom_fields':
        plan.keys.push({ key, kind: 'custom_fields', column: select(state, alias, 'custom_field_data') });
        break;
      default:
        throw new Error(`${model.label} has no key ${key}`);
    }
  }
  return plan;
}
