/**
 * The import plan, derived from the registry and the source's schema: which NetBox table feeds each model, which
 * column or join table feeds each field, and the order models are written in (every object after the objects it
 * refers to). Foreign keys that close a cycle (a device's primary IP address, which is assigned to one of the
 * device's interfaces) and those of a model to itself are written afterwards, once every object exists.
 */
import { ownsColumn } from '../kinds/index.js';
import type { ModelInfo, Schema } from '../rest/schema.js';
import type { ChildListField, FieldSpec, MovedColumnSpec } from '../spec.js';
import { NETBOX_IMPORT, type NetboxModelMap, type NetboxValueTransform } from '../domain/netbox-import.js';
import { atLeast } from './netbox-versions.js';
import type { NetboxSource } from './netbox-database.js';
import type { NetboxApiSource } from './netbox-api.js';

/** Where one field's value comes from. */
export type FieldSource =
  | { kind: 'column'; field: FieldSpec; column: string; transform?: NetboxValueTransform }
  | { kind: 'content_type'; field: FieldSpec; column: string }
  | { kind: 'deferred'; field: FieldSpec; column: string }
  | { kind: 'constant'; field: FieldSpec; value: unknown }
  /** A value in another table, by the id in `column`. */
  | { kind: 'lookup'; field: FieldSpec; column: string; table: string; value: string }
  /** A generic relation NetBox kept as separate FKs: the first set column gives the id, its model the type. */
  | { kind: 'first_of'; field: FieldSpec; part: 'type' | 'id'; columns: [column: string, model: string][] }
  | { kind: 'join'; field: FieldSpec; table: string; from: string; to: string; labels: boolean }
  | { kind: 'joined'; field: FieldSpec; table: string; key: string; column: string }
  /** A child list an earlier release kept as the owner's columns: one item, or none when they are empty. */
  | { kind: 'item'; field: FieldSpec; keys: ChildKey[]; constants: Record<string, unknown> }
  /**
   * A child list (a cable's `a_terminations`): the child model's rows in `table` whose `parent` column names the
   * object and whose `fixed` columns hold the list's values, each an item of `keys` (key → child column, read
   * as a content type's label, an id or as it is).
   */
  | {
      kind: 'children';
      field: FieldSpec;
      table: string;
      parent: string;
      fixed: [column: string, value: unknown][];
      keys: ChildKey[];
    };

/** An item key of a child list, the column it is read from, and how (a content type's label, an id, as it is). */
export interface ChildKey {
  key: string;
  column: string;
  as: 'label' | 'id' | 'value';
}

export interface ModelPlan {
  model: ModelInfo;
  /** The NetBox table, or null with the reason the model has no source. */
  table: string | null;
  reason?: string;
  fields: FieldSource[];
  /** Tree models: the parent FK, written with the row (rows come parents first). */
  parent?: string;
  timestamps: boolean;
  customFields: boolean;
  tags: boolean;
  /**
   * A model NetBox's release did not have yet, whose objects were columns of another model then (an
   * interface's MAC address before 4.2): the columns the source has, each value to become an object.
   */
  moved?: MovedColumnSpec[];
}

export interface ImportPlan {
  models: ModelPlan[];
  /** NetBox tables that some model reads (model tables, join tables, tagged items). */
  consumed: Set<string>;
}

/** Plans the import of `source` into the models of `schema`. */
export function planImport(schema: Schema, source: NetboxSource): ImportPlan {
  if (isApiSource(source)) return planApiImport(schema, source);
  const consumed = new Set<string>([NETBOX_IMPORT.taggedItems.table, NETBOX_IMPORT.contentTypes]);
  const plans = new Map<string, ModelPlan>();
  for (const model of schema.models.values()) {
    plans.set(model.label, planModel(schema, source, model, consumed));
  }
  const order = orderModels(schema, plans);
  return { models: order.map((label) => plans.get(label)!), consumed };
}

/** Whether the source is a NetBox REST API (rows are API input keyed by field name). */
export function isApiSource(source: NetboxSource): source is NetboxApiSource {
  return (source as Partial<NetboxApiSource>).shape === 'api';
}

/** Why a model is not read over the REST API although the source serves it. */
export const NOT_OVER_THE_API: Readonly<Record<string, string>> = {
  token: 'the API never shows a token’s secret: issue the tokens again',
};

/**
 * Plans an import from a NetBox REST API: every model whose list path the source serves, each field by its
 * own name (the API's key), except what the service computes or never takes as input.
 */
function planApiImport(schema: Schema, source: NetboxApiSource): ImportPlan {
  const plans = new Map<string, ModelPlan>();
  const tokenModel = schema.withRole('token');
  for (const model of schema.models.values()) {
    const empty = { model, fields: [], timestamps: false, customFields: false, tags: false };
    const map = NETBOX_IMPORT.models[model.label];
    const owner = ownerList(schema, model);
    let plan: ModelPlan;
    if (map === null) plan = { ...empty, table: null, reason: 'the service’s own records, not NetBox’s' };
    else if (model === tokenModel) plan = { ...empty, table: null, reason: NOT_OVER_THE_API.token };
    else if (owner) plan = { ...empty, table: null, reason: `written with ${owner.model.label}'s ${owner.field.name}` };
    else if (!model.listPath || !source.modelAt.has(model.listPath))
      plan = { ...empty, table: null, reason: `the source serves no ${model.listPath ?? model.label} list` };
    else {
      const fields: FieldSource[] = [];
      for (const field of model.spec.fields) {
        const planned = planApiField(schema, model, field);
        if (planned) fields.push(planned);
      }
      plan = {
        model,
        table: model.listPath,
        fields,
        parent: model.spec.tree && model.fields.get('parent')?.kind === 'fk' ? 'parent' : undefined,
        timestamps: model.hasTimestamps,
        customFields: model.hasCustomFields,
        tags: model.hasTags,
      };
    }
    plans.set(model.label, plan);
  }
  const order = orderModels(schema, plans);
  // Read, or knowingly not (tokens; object types, which the service writes from its models; tagged items, which
  // come with each object's tags): a model's other paths (`extras/object-changes` besides `core/…`) too.
  const consumed = new Set<string>();
  const readOtherwise = new Set([tokenModel, schema.withRole('object_type'), schema.withRole('tagged_item')]);
  for (const plan of plans.values()) {
    if (!plan.table && !readOtherwise.has(plan.model) && !ownerList(schema, plan.model)) continue;
    if (plan.model.listPath) consumed.add(plan.model.listPath);
    for (const alias of plan.model.spec.aliases) consumed.add(`/${alias}/`);
  }
  return { models: order.map((label) => plans.get(label)!), consumed };
}

function planApiField(schema: Schema, model: ModelInfo, field: FieldSpec): FieldSource | null {
  const column = field.name;
  // A child list as the API shows it, from the model whose lists write the child model.
  if (field.kind === 'children') {
    const owner = ownerList(schema, schema.model(field.model));
    return owner?.model === model ? { kind: 'column', field, column } : null;
  }
  if (field.kind === 'password') return null;
  // A many-to-many list is written from the side that declares it (a group's permissions by the permissions).
  if (field.kind === 'm2m' && field.fromColumn !== 'from_id') return null;
  if (field.kind === 'm2m' || field.kind === 'object_types') return { kind: 'column', field, column };
  if (!ownsColumn(field) || field.kind === 'computed' || field.kind === 'derived') return null;
  if (field.readOnly && !['string', 'datetime', 'integer', 'boolean', 'json'].includes(field.kind)) return null;
  if (field.kind === 'fk' && field.target === model.label && !(model.spec.tree && field.name === 'parent')) {
    return { kind: 'deferred', field, column };
  }
  return { kind: 'column', field, column };
}

function planModel(schema: Schema, source: NetboxSource, model: ModelInfo, consumed: Set<string>): ModelPlan {
  const map: NetboxModelMap | null | undefined = NETBOX_IMPORT.models[model.label];
  const empty = { model, fields: [], timestamps: false, customFields: false, tags: false };
  if (map === null) return { ...empty, table: null, reason: 'the service’s own records, not NetBox’s' };
  const table = tableOf(model, map, source.version);
  const columns = source.tables.get(table);
  // Children the source keeps in their own table are written with their owners' lists (a cable's ends).
  const owner = columns && ownerList(schema, model);
  if (owner) return { ...empty, table: null, reason: `written with ${owner.model.label}'s ${owner.field.name}` };
  if (!columns) {
    const moved = (model.spec.movedFrom ?? []).filter((m) => source.tables.get(m.table)?.has(m.column));
    for (const m of moved) consumed.add(m.table);
    return { ...empty, table: null, reason: `NetBox ${source.version} has no table ${table}`, moved };
  }
  consumed.add(table);
  const fields: FieldSource[] = [];
  for (const field of model.spec.fields) {
    const planned =
      field.kind === 'children'
        ? planChildren(schema, source, model, columns, map ?? {}, field)
        : planField(source, model, table, columns, map ?? {}, field);
    if (!planned) continue;
    // A source read from another table (a join, a lookup, a child list): that table has a home too.
    if ('table' in planned) consumed.add(planned.table);
    fields.push(planned);
  }
  const parent = model.spec.tree && model.fields.get('parent')?.kind === 'fk' ? 'parent' : undefined;
  return {
    model,
    table,
    fields,
    parent,
    timestamps: model.hasTimestamps && columns.has('created') && columns.has('last_updated'),
    customFields: model.hasCustomFields && columns.has('custom_field_data'),
    tags: model.hasTags,
  };
}

/**
 * The first model whose child lists hold this model's objects (a cable's ends; a front port's mappings, which
 * rear ports list too): its lists write them, other models' lists of the same children are left to it.
 */
function ownerList(schema: Schema, model: ModelInfo): { model: ModelInfo; field: ChildListField } | undefined {
  let owners = OWNERS.get(schema);
  if (!owners) {
    owners = new Map();
    for (const owner of schema.models.values())
      for (const field of owner.spec.fields)
        if (field.kind === 'children' && !owners.has(field.model)) owners.set(field.model, { model: owner, field });
    OWNERS.set(schema, owners);
  }
  return owners.get(model.label);
}

/** Child model label → the first owner's list, per schema (see ownerList). */
const OWNERS = new WeakMap<Schema, Map<string, { model: ModelInfo; field: ChildListField }>>();

/**
 * A child list read from the child model's NetBox table, when the source has it (and this model's lists are the
 * ones that write the child model), or from the owner's columns where an earlier release kept its one item.
 */
function planChildren(
  schema: Schema,
  source: NetboxSource,
  model: ModelInfo,
  ownColumns: ReadonlySet<string>,
  map: NetboxModelMap,
  field: ChildListField,
): FieldSource | null {
  const child = schema.model(field.model);
  const columnOf = (name: string): { column: string; as: ChildKey['as'] } => {
    const spec = child.fields.get(name);
    if (spec?.kind === 'content_type') return { column: `${name}_id`, as: 'label' };
    if (spec?.kind === 'fk') return { column: `${name}_id`, as: 'id' };
    // PostgreSQL's bigint comes as text.
    if (spec?.kind === 'integer') return { column: name, as: 'id' };
    return { column: name, as: 'value' };
  };
  const earlier = map.earlierLists?.[field.name];
  if (earlier && !atLeast(source.version, earlier.before)) {
    const keys = Object.entries(earlier.columns).map(([key, column]) => {
      const name = field.keys.find((k) => k.key === key)?.field ?? key;
      return { key, column, as: columnOf(name).as };
    });
    if (!keys.every((k) => ownColumns.has(k.column))) return null;
    return { kind: 'item', field, keys, constants: { ...earlier.constants } };
  }
  const owner = ownerList(schema, child);
  if (owner?.model !== model) return null;
  const table = tableOf(child, NETBOX_IMPORT.models[child.label] ?? undefined, source.version);
  const columns = source.tables.get(table);
  const parent = columnOf(field.parent).column;
  const keys = field.keys.map(({ key, field: name }) => ({ key, ...columnOf(name) }));
  const fixed = Object.entries(field.fixed ?? {}).map(
    ([name, value]) => [columnOf(name).column, value] as [string, unknown],
  );
  const needed = [parent, ...keys.map((k) => k.column), ...fixed.map(([column]) => column)];
  if (!columns || !needed.every((column) => columns.has(column))) return null;
  return { kind: 'children', field, table, parent, fixed, keys };
}

function tableOf(model: ModelInfo, map: NetboxModelMap | undefined, version: string): string {
  const table = map?.table;
  if (typeof table === 'string') return table;
  if (table) return table.find((t) => atLeast(version, t.since))?.table ?? model.table;
  return model.table;
}

function planField(
  source: NetboxSource,
  model: ModelInfo,
  table: string,
  columns: ReadonlySet<string>,
  map: NetboxModelMap,
  field: FieldSpec,
): FieldSource | null {
  const joined = map.joined?.[field.name];
  if (joined) return source.tables.has(joined.table) ? { kind: 'joined', field, ...joined } : null;
  const join = map.joins?.[field.name];
  if (join) {
    return source.tables.get(join.table)?.has(join.from)
      ? { kind: 'join', field, ...join, labels: field.kind === 'object_types' }
      : null;
  }
  const lookup = map.lookups?.[field.name];
  if (lookup && atLeast(source.version, lookup.since)) {
    const present = columns.has(lookup.column) && source.tables.get(lookup.table)?.has(lookup.value);
    return present ? { kind: 'lookup', field, column: lookup.column, table: lookup.table, value: lookup.value } : null;
  }
  for (const legacy of map.legacyGeneric ?? []) {
    if (atLeast(source.version, legacy.before) || (field.name !== legacy.type && field.name !== legacy.id)) continue;
    const present = Object.entries(legacy.columns).filter(([column]) => columns.has(column));
    if (present.length === 0) return null;
    return { kind: 'first_of', field, part: field.name === legacy.type ? 'type' : 'id', columns: present };
  }
  if (field.kind === 'm2m' || field.kind === 'object_types') {
    if (field.kind === 'm2m' && field.fromColumn !== 'from_id') return null;
    const through = `${table}_${field.name}`;
    const joinColumns = source.tables.get(through);
    const from = `${model.spec.name}_id`;
    if (!joinColumns?.has(from)) return null;
    const to = [...joinColumns].find((c) => c !== 'id' && c !== from && c.endsWith('_id'));
    if (!to) return null;
    return { kind: 'join', field, table: through, from, to, labels: field.kind === 'object_types' };
  }
  const earlier = (map.earlier ?? []).filter((e) => !atLeast(source.version, e.before));
  const constant = earlier.find((e) => e.constants && field.name in e.constants);
  if (constant) return { kind: 'constant', field, value: constant.constants![field.name] };
  const renamed = earlier.find((e) => e.columns && field.name in e.columns)?.columns?.[field.name];
  if (renamed === null) return null;
  const named = renamed ?? map.columns?.[field.name];
  if (!named && (!ownsColumn(field) || field.kind === 'computed' || field.kind === 'derived')) return null;
  if (field.readOnly && !['string', 'datetime', 'integer', 'boolean', 'json'].includes(field.kind)) return null;
  const reference = field.kind === 'fk' || field.kind === 'content_type';
  const column = named ?? (reference ? `${field.name}_id` : field.name);
  if (!columns.has(column)) return null;
  if (field.kind === 'content_type') return { kind: 'content_type', field, column };
  // A model's references to its own objects wait for every object, except a tree's parent (parents come first).
  if (field.kind === 'fk' && field.target === model.label && !(model.spec.tree && field.name === 'parent')) {
    return { kind: 'deferred', field, column };
  }
  const transform = map.values?.[field.name];
  return transform ? { kind: 'column', field, column, transform } : { kind: 'column', field, column };
}

/**
 * Models in dependency order. Required references (non-null FKs, generic relations that must name an existing
 * object, many-to-many lists, tags, custom field definitions) always order; an optional FK orders too unless
 * it would close a cycle, in which case it is deferred (written once every object exists).
 */
function orderModels(schema: Schema, plans: Map<string, ModelPlan>): string[] {
  const labels = [...plans.keys()].sort();
  const after = new Map<string, Set<string>>(labels.map((l) => [l, new Set<string>()]));
  const optional: [string, FieldSource][] = [];
  const loose: [string, string][] = [];
  const tagModel = schema.withRole('tag')?.label;
  const definitions = schema.withRole('custom_field')?.label;
  for (const label of labels) {
    const plan = plans.get(label)!;
    const deps = after.get(label)!;
    if (plan.tags && tagModel && tagModel !== label) deps.add(tagModel);
    if (plan.customFields && definitions && definitions !== label) deps.add(definitions);
    for (const source of plan.fields) {
      const field = source.field;
      if (field.kind === 'fk' && source.kind === 'column' && field.target !== label) {
        if (field.nullable) optional.push([label, source]);
        else deps.add(field.target);
      } else if (field.kind === 'm2m' && field.target !== label) {
        deps.add(field.target);
      } else if (field.kind === 'children') {
        // The objects the children name exist first (a cable's terminations).
        for (const spec of schema.model(field.model).spec.fields) {
          const targets =
            spec.kind === 'generic_fk'
              ? spec.targets
              : spec.kind === 'fk' && spec.name !== field.parent
                ? [spec.target]
                : [];
          for (const target of targets) if (target !== label && plans.has(target)) deps.add(target);
        }
      } else if (field.kind === 'content_type') {
        const generic = plan.model.spec.fields.find((f) => f.kind === 'generic_fk' && f.typeField === field.name);
        if (generic?.kind === 'generic_fk' && generic.onDelete !== 'do_nothing') {
          for (const target of generic.targets) if (target !== label && plans.has(target)) deps.add(target);
        } else if (generic?.kind === 'generic_fk') {
          // A reference that may outlive its object (a change record's) still comes after the objects it names.
          for (const target of generic.targets) if (target !== label && plans.has(target)) loose.push([label, target]);
        }
      }
    }
  }
  for (const [label, source] of optional) {
    const target = (source.field as { target: string }).target;
    if (!plans.has(target)) continue;
    if (reaches(after, target, label)) {
      const plan = plans.get(label)!;
      if (source.kind !== 'column') continue;
      const later: FieldSource = { kind: 'deferred', field: source.field, column: source.column };
      plan.fields = plan.fields.map((f) => (f === source ? later : f));
    } else {
      after.get(label)!.add(target);
    }
  }
  for (const [label, target] of loose) if (!reaches(after, target, label)) after.get(label)!.add(target);
  const order: string[] = [];
  const done = new Set<string>();
  const visit = (label: string, stack: Set<string>): void => {
    if (done.has(label) || stack.has(label)) return;
    stack.add(label);
    for (const dep of [...(after.get(label) ?? [])].sort()) if (plans.has(dep)) visit(dep, stack);
    stack.delete(label);
    done.add(label);
    order.push(label);
  };
  for (const label of labels) visit(label, new Set());
  return order;
}

/** Whether `from` depends, directly or through others, on `to`. */
function reaches(after: Map<string, Set<string>>, from: string, to: string): boolean {
  const seen = new Set<string>();
  const pending = [from];
  while (pending.length) {
    const next = pending.pop()!;
    if (next === to) return true;
    if (seen.has(next)) continue;
    seen.add(next);
    pending.push(...(after.get(next) ?? []));
  }
  return false;
}
