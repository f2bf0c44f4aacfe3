import type { FieldSpec, FilterSpec, ModelSpec } from '../runtime/spec.js';
import type { FieldDef, ModelDef } from './language.js';
import type { Reporter } from './resolve.js';

/**
 * Derives a model's filter set from its field types (NetBox's FilterSet conventions), then applies the
 * YAML `filters` section: path filters are added, `false` removes a derived filter.
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
    if ((!field.column && field.kind !== 'm2m') || field.hidden || field.writeOnly) continue;
    const derived = fieldFilters(field, model, models, def.fields[field.name]);
    filters.push(...derived);
  }
  if (model.tree) {
    filters.push(
      {
        kind: 'relation',
        name: 'ancestor_id',
        path: ['parent'],
        target: model.label,
        by: 'id',
        tree: true,
        ancestor: true,
      },
      ...(hasField(model, 'slug')
        ? [
            {
              kind: 'relation',
              name: 'ancestor',
              path: ['parent'],
              target: model.label,
              by: 'slug',
              tree: true,
              ancestor: true,
            } satisfies FilterSpec,
          ]
        : []),
    );
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
    );
  }

  for (const [name, extra] of Object.entries(def.filters ?? {})) {
    const existing = filters.findIndex((f) => f.name === name);
    if (extra === false) {
      if (existing < 0) report.error(`filters.${name}`, `no derived filter '${name}' to remove`);
      else filters.splice(existing, 1);
      continue;
    }
    const error = (message: string): void => report.error(`filters.${name}`, message);
    let resolved: FilterSpec | null;
    if ('function' in extra) {
      resolved = { kind: 'function', name, function: extra.function, valueKind: extra.values ?? 'string' };
    } else if ('network' in extra) {
      const field = model.fields.find((f) => f.name === extra.network);
      if (field?.kind !== 'ip_network' && field?.kind !== 'ip_interface') {
        error(`'${extra.network}' is not an IP field`);
        resolved = null;
      } else resolved = { kind: 'network', name, field: field.name, op: extra.op };
    } else {
      resolved = resolvePathFilter(name, extra, model, models, error);
    }
    if (!resolved) continue;
    if (existing >= 0) filters.splice(existing, 1, resolved);
    else filters.push(resolved);
  }
  return filters;
}

function hasField(model: ModelSpec, name: string): boolean {
  return model.fields.some((f) => f.name === name && f.column);
}

function fieldFilters(
  field: FieldSpec,
  model: ModelSpec,
  models: Map<string, ModelSpec>,
  def: FieldDef | undefined,
): FilterSpec[] {
  const enabled = def?.filter;
  const value = (
    valueKind: 'string' | 'integer' | 'decimal' | 'boolean' | 'date' | 'datetime' | 'choice',
    lookups: 'string' | 'number' | 'exact',
  ): FilterSpec[] =>
    enabled === false ? [] : [{ kind: 'value', name: field.name, path: [], field: field.name, valueKind, lookups }];
  switch (field.kind) {
    case 'string':
      if (field.format === 'text' && enabled !== true) return [];
      return value('string', 'string');
    case 'integer':
      return value('integer', 'number');
    case 'decimal':
      return value('decimal', 'number');
    case 'boolean':
      return value('boolean', 'exact');
    case 'date':
    case 'datetime':
      return value(field.kind, 'number');
    case 'choice':
      // Integer-valued choices (e.g. a token's version) compare as numbers, not text.
      return value('choice', field.choices.every(([v]) => typeof v === 'number') ? 'number' : 'string');
    case 'fk': {
      if (enabled === false) return [];
      const target = models.get(field.target);
      if (!target) return [];
      const isOwnParent = model.tree && field.name === 'parent';
      const tree = target.tree && !isOwnParent;
      const filters: FilterSpec[] = [
        { kind: 'relation', name: `${field.name}_id`, path: [field.name], target: target.label, by: 'id', tree },
      ];
      const by =
        def?.filter_by !== undefined ? def.filter_by : target.fields.some((f) => f.name === 'slug') ? 'slug' : null;
      if (by) filters.push({ kind: 'relation', name: field.name, path: [field.name], target: target.label, by, tree });
      return filters;
    }
    case 'm2m': {
      // `asns` filters as `asn_id` and `asn`, like NetBox's related-object filters.
      if (enabled === false) return [];
      const target = models.get(field.target);
      if (!target) return [];
      const singular = field.name.endsWith('s') ? field.name.slice(0, -1) : field.name;
      const filters: FilterSpec[] = [
        {
          kind: 'relation',
          name: `${singular}_id`,
          path: [field.name],
          target: target.label,
          by: 'id',
          tree: target.tree,
        },
      ];
      const by =
        def?.filter_by !== undefined ? def.filter_by : target.fields.some((f) => f.name === 'slug') ? 'slug' : null;
      if (by)
        filters.push({
          kind: 'relation',
          name: singular,
          path: [field.name],
          target: target.label,
          by,
          tree: target.tree,
        });
      return filters;
    }
    case 'content_type':
      return value('string', 'exact');
    case 'ip_family':
      return value('integer', 'exact');
    case 'ip_network':
      if (enabled === false) return [];
      return [
        { kind: 'network', name: field.name, field: field.name, op: 'exact' },
        { kind: 'network', name: 'within', field: field.name, op: 'within' },
        { kind: 'network', name: 'within_include', field: field.name, op: 'within_include' },
        { kind: 'network', name: 'contains', field: field.name, op: 'contains' },
        { kind: 'network', name: 'mask_length', field: field.name, op: 'mask_length' },
      ];
    case 'ip_interface':
      if (enabled === false) return [];
      return [
        { kind: 'network', name: field.name, field: field.name, op: 'address' },
        { kind: 'network', name: 'parent', field: field.name, op: 'parent' },
        { kind: 'network', name: 'mask_length', field: field.name, op: 'mask_length' },
      ];
    case 'json':
    case 'list':
    case 'object_types':
    case 'password':
    case 'image':
    case 'generic_fk':
    case 'constant':
    case 'computed':
    case 'alias':
      return [];
  }
}

function resolvePathFilter(
  name: string,
  def: { path: string; by?: string; tree?: boolean; case_insensitive?: boolean },
  model: ModelSpec,
  models: Map<string, ModelSpec>,
  error: (message: string) => void,
): FilterSpec | null {
  const segments = def.path.split('.');
  let current = model;
  const path: string[] = [];
  for (const [index, segment] of segments.entries()) {
    const field = current.fields.find((f) => f.name === segment);
    if (!field?.column && field?.kind !== 'm2m') {
      error(`unknown field '${segment}' on '${current.label}'`);
      return null;
    }
    const last = index === segments.length - 1;
    if (field.kind === 'm2m' && last) {
      const target = models.get(field.target);
      if (!target) return null;
      const by = def.by ?? (name.endsWith('_id') ? 'id' : 'slug');
      return {
        kind: 'relation',
        name,
        path: [...path, segment],
        target: target.label,
        by,
        tree: def.tree ?? target.tree,
      };
    }
    if (field.kind !== 'fk') {
      if (!last) {
        error(`'${segment}' on '${current.label}' is not an fk`);
        return null;
      }
      const valueKind = field.kind === 'string' ? 'string' : field.kind === 'integer' ? 'integer' : null;
      if (!valueKind) {
        error(`path filters support string and integer fields, not '${field.kind}'`);
        return null;
      }
      if (def.case_insensitive && valueKind !== 'string') {
        error('case_insensitive applies to string fields only');
        return null;
      }
      return {
        kind: 'value',
        name,
        path,
        field: segment,
        valueKind,
        lookups: valueKind === 'string' ? 'string' : 'number',
        ...(def.case_insensitive ? { caseInsensitive: true } : {}),
      };
    }
    path.push(segment);
    const target = models.get(field.target);
    if (!target) return null;
    if (last) {
      const by = def.by ?? (name.endsWith('_id') ? 'id' : 'slug');
      if (by !== 'id' && !target.fields.some((f) => f.name === by && f.column)) {
        error(`unknown field '${by}' on '${target.label}'`);
        return null;
      }
      return { kind: 'relation', name, path, target: target.label, by, tree: def.tree ?? target.tree };
    }
    current = target;
  }
  return null;
}
