import { kindOf } from '../runtime/kinds/index.js';
import type { FieldSpec, FilterSpec, Lookups, ModelSpec, PresentPlace } from '../runtime/spec.js';
import type { FieldDef, FilterDef, LookupsDef, ModelDef, PathFilterDef } from './language.js';
import type { Reporter } from './load.js';
import { walkPath } from './filter-paths.js';

type ValueKind = Extract<FilterSpec, { kind: 'value' }>['valueKind'];

/**
 * Derives a model's filter set from its field types (NetBox's FilterSet conventions), then applies the
 * YAML `filters` section: filters are added or replace a derived one, `false` removes a derived filter.
 */
export function deriveFilters(
  def: ModelDef,
  model: ModelSpec,
  models: Map<string, ModelSpec>,
  report: Reporter,
): FilterSpec[] {
  const filters: FilterSpec[] = [
    { kind: 'value', name: 'id', path: [], field: 'id', valueKind: 'integer', lookups: 'number' },
  ];
  if (model.search.length > 0) filters.push({ kind: 'search', name: 'q' });

  for (const field of model.fields) {
    if ((!field.column && field.kind !== 'm2m') || field.writeOnly) continue;
    // A hidden field is filterable only when it says so (`filter: true`).
    if (field.hidden && def.fields[field.name]?.filter !== true) continue;
    filters.push(...fieldFilters(field, model, models, def.fields[field.name]));
  }
  if (model.tree) {
    const ancestor = (name: string, by: string): FilterSpec => ({
      kind: 'relation',
      name,
      path: [{ kind: 'fk', field: 'parent', target: model.label }],
      target: model.label,
      by,
      tree: true,
      ancestor: true,
    });
    filters.push(ancestor('ancestor_id', 'id'));
    if (hasField(model, 'slug')) filters.push(ancestor('ancestor', 'slug'));
  }
  if (model.features.includes('tags')) {
    filters.push({ kind: 'tag', name: 'tag', by: 'slug' }, { kind: 'tag', name: 'tag_id', by: 'id' });
  }
  if (model.features.includes('change_logging')) {
    for (const name of ['created', 'last_updated']) {
      filters.push({ kind: 'value', name, path: [], field: name, valueKind: 'datetime', lookups: 'number' });
    }
    filters.push(
      { kind: 'request', name: 'created_by_request', action: 'create' },
      { kind: 'request', name: 'updated_by_request', action: 'update' },
      { kind: 'request', name: 'modified_by_request', action: 'modify' },
    );
  }

  for (const [name, extra] of Object.entries(def.filters ?? {})) {
    const existing = filters.findIndex((f) => f.name === name);
    const error = (message: string): void => report.error(`filters.${name}`, message);
    if (extra === false) {
      // Every derived filter of the name: two IP fields each derive `mask_length`.
      if (existing < 0) error(`no derived filter '${name}' to remove`);
      else for (let i = filters.length - 1; i >= existing; i -= 1) if (filters[i]!.name === name) filters.splice(i, 1);
      continue;
    }
    if (existing >= 0 && ('constant' in extra || 'present' in extra || 'count' in extra)) {
      // A stand-in for something this service lacks must not hide a filter its fields give.
      error(`'${name}' is already derived from the model's fields`);
      continue;
    }
    const resolved = resolveFilter(name, extra, model, models, error);
    if (!resolved) continue;
    if (existing >= 0) filters.splice(existing, 1, resolved);
    else filters.push(resolved);
  }
  return filters;
}

function resolveFilter(
  name: string,
  def: FilterDef,
  model: ModelSpec,
  models: Map<string, ModelSpec>,
  error: (message: string) => void,
): FilterSpec | null {
  if ('function' in def) {
    const lookups = lookupsOf(def.lookups) ?? 'exact';
    return { kind: 'function', name, function: def.function, valueKind: def.values ?? 'string', lookups };
  }
  if ('network' in def) {
    // The model's own IP field, or one of a related object (a plugin's `by_local_address`).
    const walked = walkPath(def.network, model, models, error);
    if (!walked) return null;
    const { steps, end } = walked;
    const field = end.kind === 'field' ? end.field : null;
    if (field?.kind !== 'ip_network' && field?.kind !== 'ip_interface') {
      error(`'${def.network}' is not an IP field`);
      return null;
    }
    return { kind: 'network', name, ...(steps.length > 0 ? { path: steps } : {}), field: field.name, op: def.op };
  }
  if ('constant' in def) {
    const lookups = lookupsOf(def.lookups) ?? CONSTANT_LOOKUPS[def.values];
    return { kind: 'constant', name, value: def.constant ?? null, valueKind: def.values, lookups };
  }
  if ('present' in def) {
    // Several paths: an object has the thing when any of them reaches a value (NetBox's "pass-through
    // ports": front or rear ports).
    const places: PresentPlace[] = [];
    for (const path of typeof def.present === 'string' ? [def.present] : def.present) {
      const walked = walkPath(path, model, models, error);
      if (!walked) return null;
      const { steps, end } = walked;
      if (end.kind === 'model') places.push({ path: steps });
      else if (!end.field.column) {
        error(`'${end.field.name}' is not stored`);
        return null;
      } else places.push({ path: steps, field: end.field.name });
    }
    const [first, ...rest] = places;
    return { kind: 'present', name, ...first!, ...(rest.length > 0 && { or: rest }) };
  }
  if ('count' in def) {
    if (!model.counts.some((c) => c.name === def.count)) {
      error(`'${def.count}' is not a count of '${model.label}'`);
      return null;
    }
    return { kind: 'count', name, count: def.count, lookups: lookupsOf(def.lookups) ?? 'number' };
  }
  return resolvePathFilter(name, def, model, models, error);
}

const CONSTANT_LOOKUPS: Record<Extract<FilterSpec, { kind: 'constant' }>['valueKind'], Lookups> = {
  object: 'relation',
  boolean: 'exact',
  integer: 'number',
  decimal: 'number',
  string: 'string',
  date: 'number',
  datetime: 'number',
};

/** `[ic, nic]` in YAML: the filter itself and those lookups. */
function lookupsOf(def: LookupsDef | undefined): Lookups | undefined {
  if (def === undefined) return undefined;
  return typeof def === 'string' ? def : ['', ...def];
}

function hasField(model: ModelSpec, name: string): boolean {
  return model.fields.some((f) => f.name === name && f.column);
}

/** The value kind and default lookups of a stored field, or null when its values are not filtered as such. */
function valueFilterKind(field: FieldSpec): { valueKind: ValueKind; lookups: Lookups } | null {
  return kindOf(field).valueFilter?.(field) ?? null;
}

function fieldFilters(
  field: FieldSpec,
  model: ModelSpec,
  models: Map<string, ModelSpec>,
  def: FieldDef | undefined,
): FilterSpec[] {
  if (def?.filter === false) return [];
  const kind = kindOf(field);
  if (kind.filters) return kind.filters(field, { model, models, def });
  const value = valueFilterKind(field);
  return value ? [{ kind: 'value', name: field.name, path: [], field: field.name, ...value }] : [];
}

function resolvePathFilter(
  name: string,
  def: PathFilterDef,
  model: ModelSpec,
  models: Map<string, ModelSpec>,
  error: (message: string) => void,
): FilterSpec | null {
  if (Array.isArray(def.path)) return resolveAnyPathFilter(name, { ...def, path: def.path }, model, models, error);
  const walked = walkPath(def.path, model, models, error);
  if (!walked) return null;
  const { steps: path, end } = walked;
  const lookups = lookupsOf(def.lookups);
  if (end.kind === 'model') {
    const target = end.model;
    const by = def.by ?? (name.endsWith('_id') ? 'id' : 'slug');
    if (by !== 'id' && !target.fields.some((f) => f.name === by && f.column)) {
      error(`unknown field '${by}' on '${target.label}'`);
      return null;
    }
    const tree = def.tree ?? target.tree;
    return { kind: 'relation', name, path, target: target.label, by, tree, ...(lookups ? { lookups } : {}) };
  }
  const field = end.field;
  if (field.kind === 'content_type' || field.kind === 'object_types') {
    if (path.length > 0) {
      error('object type filters apply to fields of the model itself');
      return null;
    }
    const by = def.by === 'id' ? 'id' : 'label';
    const fallback = by === 'id' || field.kind === 'content_type' ? 'relation' : 'text';
    return { kind: 'object_type', name, field: field.name, by, lookups: lookups ?? fallback };
  }
  if (field.kind === 'list') {
    if (path.length > 0) {
      error('list filters apply to fields of the model itself');
      return null;
    }
    return { kind: 'list_item', name, field: field.name, lookups: lookups ?? 'exact' };
  }
  const kind = field.column ? valueFilterKind(field) : null;
  if (!kind) {
    error(`'${field.name}' on '${end.owner.label}' cannot be filtered (${field.kind})`);
    return null;
  }
  if ((def.case_insensitive || def.contains) && kind.valueKind !== 'string') {
    error('case_insensitive and contains apply to string fields only');
    return null;
  }
  return {
    kind: 'value',
    name,
    path,
    field: field.name,
    valueKind: kind.valueKind,
    lookups: lookups ?? kind.lookups,
    ...(def.case_insensitive ? { caseInsensitive: true } : {}),
    ...(def.contains ? { contains: true } : {}),
  };
}

/** A relation filter over several paths to the same model: an object matches when any path reaches a value. */
function resolveAnyPathFilter(
  name: string,
  def: PathFilterDef & { path: string[] },
  model: ModelSpec,
  models: Map<string, ModelSpec>,
  error: (message: string) => void,
): FilterSpec | null {
  const resolved = def.path.map((path) => resolvePathFilter(name, { ...def, path }, model, models, error));
  if (resolved.some((f) => f === null)) return null;
  const relations = resolved as FilterSpec[];
  const [first, ...rest] = relations;
  if (relations.some((f) => f.kind !== 'relation')) {
    error('several paths must each end at a related model');
    return null;
  }
  const relation = first as Extract<FilterSpec, { kind: 'relation' }>;
  if (rest.some((f) => (f as typeof relation).target !== relation.target)) {
    error(`the paths end at different models`);
    return null;
  }
  return { ...relation, or: rest.map((f) => (f as typeof relation).path) };
}
