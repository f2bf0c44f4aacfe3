import { compileTemplate } from '../runtime/display-template.js';
import type {
  AppSpec,
  CountSpec,
  DisplaySpec,
  Feature,
  FieldSpec,
  ModelSpec,
  OrderingSpec,
  ReverseRelation,
  UniqueSpec,
} from '../runtime/spec.js';
import type { CountDef, FieldDef, ModelDef, ModelFile } from './language.js';
import { ModelError, type LoadedFile, type Reporter } from './load.js';
import { capitalize, defaultLabel, joinLabels, limitIdentifier, toPascalCase } from './names.js';
import { deriveFilters } from './filters.js';
import { kindOf, kindOfType } from '../runtime/kinds/index.js';
import { resolveActions } from './actions.js';
import { resolveRules } from './rules.js';
import { resolveMovedFrom } from './moved-columns.js';

/** The resolved, frozen intermediate form of every model. */
export interface ModelGraph {
  apps: AppSpec[];
  /** Sorted by label. */
  models: ModelSpec[];
  /** Model label → source file path. */
  sources: Map<string, string>;
}

/** Header keys every representation starts with. */
export const HEADER_KEYS = ['id', 'url', 'display_url', 'display'] as const;

interface ModelEntry {
  label: string;
  app: string;
  name: string;
  file: string;
  def: ModelDef;
  doc: ModelFile;
  plugin?: { name: string; baseUrl: string };
}

/** Resolves schema-valid model files into the model graph; reports every semantic error. */
export function resolveModels(files: readonly LoadedFile[]): { graph: ModelGraph; errors: ModelError[] } {
  const errors: ModelError[] = [];
  const entries = new Map<string, ModelEntry>();
  const choiceSets = new Map<string, [string | number, string][]>();
  const apps: AppSpec[] = [];
  /** App → the first file that defines it, and its plugin (none for the core). */
  const seenApps = new Map<string, { path: string; plugin: string | undefined }>();
  /** App → the file that gives its verbose_name. */
  const namedIn = new Map<string, string>();

  for (const { path, doc, plugin } of files) {
    if (plugin && doc.app !== plugin.name) {
      errors.push(new ModelError(path, 'app', `must be the plugin's name '${plugin.name}'`));
      continue;
    }
    // An app may span several files (the core's `dcim.yaml` and `dcim-components.yaml`, a plugin's folder), but
    // the core and a plugin never share one.
    const first = seenApps.get(doc.app);
    if (first && first.plugin !== plugin?.name) {
      errors.push(new ModelError(path, 'app', `app '${doc.app}' is already defined in ${first.path}`));
      continue;
    }
    seenApps.set(doc.app, first ?? { path, plugin: plugin?.name });
    for (const [name, choices] of Object.entries(doc.choices ?? {})) {
      if (choiceSets.has(`${doc.app}.${name}`))
        errors.push(new ModelError(path, `choices.${name}`, `choice set '${doc.app}.${name}' is already defined`));
      else choiceSets.set(`${doc.app}.${name}`, choices);
    }
    for (const [name, def] of Object.entries(doc.models)) {
      const label = `${doc.app}.${name}`;
      if (entries.has(label))
        errors.push(new ModelError(path, `models.${name}`, `model '${label}' is already defined`));
      else entries.set(label, { label, app: doc.app, name, file: path, def, doc, ...(plugin ? { plugin } : {}) });
    }
    const labels = Object.keys(doc.models).map((m) => `${doc.app}.${m}`);
    const sameApp = apps.find((a) => a.name === doc.app);
    if (sameApp) {
      sameApp.models = [...new Set([...sameApp.models, ...labels])].sort();
      // One of the files names the app (and may describe it); the others may leave it out.
      const named = namedIn.get(doc.app);
      if (doc.verbose_name && named && doc.verbose_name !== sameApp.verboseName)
        errors.push(
          new ModelError(path, 'verbose_name', `app '${doc.app}' is named '${sameApp.verboseName}' in ${named}`),
        );
      else if (doc.verbose_name) {
        sameApp.verboseName = doc.verbose_name;
        namedIn.set(doc.app, path);
      }
      if (doc.description && !sameApp.description) sameApp.description = doc.description;
      continue;
    }
    if (doc.verbose_name) namedIn.set(doc.app, path);
    apps.push({
      name: doc.app,
      verboseName: doc.verbose_name ?? capitalize(doc.app),
      ...(doc.description ? { description: doc.description } : {}),
      models: labels.sort(),
    });
  }

  // First pass: fields and per-model facts; cross-model facts (counts, reverse relations, filters) follow.
  const models = new Map<string, ModelSpec>();
  for (const entry of entries.values()) {
    const report: Reporter = {
      error: (at, message) =>
        errors.push(new ModelError(entry.file, `models.${entry.name}${at ? `.${at}` : ''}`, message)),
    };
    models.set(entry.label, resolveModel(entry, entries, choiceSets, report));
    checkPluginDependencies(entry, entries, report);
  }
  for (const entry of entries.values()) {
    const report: Reporter = {
      error: (at, message) =>
        errors.push(new ModelError(entry.file, `models.${entry.name}${at ? `.${at}` : ''}`, message)),
    };
    const model = models.get(entry.label)!;
    model.counts = resolveCounts(entry, models, report);
    model.output = resolveOutput(entry.def, model, report);
    model.brief =
      entry.def.brief === false
        ? model.output
        : resolveKeyList(entry.def.brief, 'brief', model, defaultBrief(model), report);
    model.nested = resolveKeyList(entry.def.nested, 'nested', model, model.brief, report, true);
    model.filters = deriveFilters(entry.def, model, models, report);
    model.actions = resolveActions(entry.def.actions, model, models, report);
    model.rules = resolveRules(entry.def.rules, model, models, report);
    const movedFrom = resolveMovedFrom(entry.def.moved_from, model, models, report);
    if (movedFrom) model.movedFrom = movedFrom;
    checkFieldPaths(model, models, report);
    checkSearch(entry.def, model, models, report);
  }
  for (const { path, doc, plugin } of files) {
    for (const [label, extension] of Object.entries(doc.extends ?? {})) {
      const report: Reporter = {
        error: (at, message) => errors.push(new ModelError(path, `extends.${label}${at ? `.${at}` : ''}`, message)),
      };
      extendModel(label, extension.counts, plugin?.name, entries, models, report);
    }
  }
  for (const model of models.values()) {
    model.reverse = collectReverse(model.label, models);
  }

  const sorted = [...models.values()].sort((a, b) => a.label.localeCompare(b.label));
  const sources = new Map([...entries.values()].map((e) => [e.label, e.file]));
  apps.sort((a, b) => a.name.localeCompare(b.name));
  return { graph: deepFreeze({ apps, models: sorted, sources }), errors };
}

function resolveModel(
  entry: ModelEntry,
  entries: Map<string, ModelEntry>,
  choiceSets: Map<string, [string | number, string][]>,
  report: Reporter,
): ModelSpec {
  const { def, app, name, label } = entry;
  const verboseName = def.verbose_name ?? name;
  const features = [...(def.features ?? [])].sort() as Feature[];
  const fields: FieldSpec[] = [];
  for (const [fieldName, fieldDef] of Object.entries(def.fields)) {
    const field = resolveField(fieldName, fieldDef, entry, entries, choiceSets, {
      error: (at, message) => report.error(`fields.${fieldName}${at ? `.${at}` : ''}`, message),
    });
    if (field) fields.push(field);
  }
  checkFieldReferences(fields, report);
  if (def.tree) {
    if (!fields.some((f) => f.name === 'name' && f.kind === 'string'))
      report.error('tree', "a tree model needs a string field 'name'");
    const parent = fields.find((f) => f.name === 'parent');
    if (!parent || parent.kind !== 'fk' || parent.target !== label || !parent.nullable) {
      report.error('tree', `a tree model needs a nullable field 'parent' of type fk to '${label}'`);
    }
  }
  const spec: ModelSpec = {
    label,
    app,
    name,
    className: def.class_name ?? toPascalCase(verboseName),
    verboseName,
    verboseNamePlural: def.verbose_name_plural ?? `${verboseName}s`,
    ...(def.description ? { description: def.description } : {}),
    path: def.path ?? null,
    readOnly: def.read_only ?? false,
    ...(def.private ? { private: true as const } : {}),
    ...(def.open_view ? { openView: true as const } : {}),
    ...(def.string_id ? { stringId: true as const } : {}),
    table: `${app}_${name}`,
    tree: def.tree ?? false,
    features,
    roles: [...(def.roles ?? [])].sort(),
    display: { kind: 'field', field: 'id' },
    ordering: [],
    fields,
    counts: [],
    output: [],
    brief: [],
    nested: [],
    search: def.search ?? [],
    searchAlso: def.search_also ?? [],
    aliases: def.aliases ?? [],
    ...(def.related_object ? { relatedObject: def.related_object } : {}),
    filters: [],
    uniques: [],
    indexes: def.indexes ?? [],
    validators: def.validators ?? [],
    rules: [],
    hooks: { ...def.hooks },
    ...(def.instantiates ? { instantiates: def.instantiates } : {}),
    reverse: [],
    actions: [],
    ...(entry.plugin ? { plugin: entry.plugin } : {}),
    ...(def.shared ? { shared: { ...def.shared } } : {}),
  };
  if (def.shared) checkShared(def.shared, spec, report);
  spec.display = resolveDisplay(def, spec, report);
  spec.ordering = resolveOrdering(def, spec, report);
  spec.uniques = resolveUniques(def, spec, report);
  if (spec.relatedObject) {
    const field = spec.fields.find((f) => f.name === spec.relatedObject);
    if (field?.kind !== 'fk' && field?.kind !== 'generic_fk')
      report.error('related_object', `'${spec.relatedObject}' is not a foreign key or generic relation`);
  }
  spec.indexes.forEach((fields, i) => {
    for (const name of fields) {
      if (name !== 'id' && !spec.fields.some((f) => f.name === name && f.column))
        report.error(`indexes.${i}`, `unknown field '${name}'`);
    }
  });
  return spec;
}

/** The shared flag is a stored boolean and the owner an FK to the model that plays the user role. */
function checkShared(shared: { flag: string; user: string }, spec: ModelSpec, report: Reporter): void {
  const flag = spec.fields.find((f) => f.name === shared.flag);
  if (flag?.kind !== 'boolean' || !flag.column)
    report.error('shared.flag', `'${shared.flag}' is not a stored boolean field`);
  const user = spec.fields.find((f) => f.name === shared.user);
  if (user?.kind !== 'fk' || !user.nullable)
    report.error('shared.user', `'${shared.user}' is not a nullable foreign key`);
}

function resolveField(
  name: string,
  def: FieldDef,
  entry: ModelEntry,
  entries: Map<string, ModelEntry>,
  choiceSets: Map<string, [string | number, string][]>,
  report: Reporter,
): FieldSpec | null {
  const kind = kindOfType(def.type);
  if (!kind) {
    report.error('type', `unknown field type '${def.type}'`);
    return null;
  }
  const stored = def.stored ?? !kind.derived;
  const nullable = def.nullable ?? false;
  const readOnly = def.read_only ?? kind.readOnly ?? false;
  const hidden = def.hidden ?? false;
  const column = kind.columnName ? kind.columnName(name, def, stored) : stored ? (def.column ?? name) : undefined;
  const base = {
    name,
    ...(column !== undefined ? { column } : {}),
    label: def.label ?? defaultLabel(name),
    ...(def.description ? { description: def.description } : {}),
    ...(def.help_text ? { helpText: def.help_text } : {}),
    nullable,
    readOnly,
    writeOnly: def.write_only ?? kind.writeOnly ?? false,
    createOnly: def.create_only ?? false,
    hidden,
    unique: def.unique ?? false,
    ...(def.default !== undefined ? { default: def.default } : {}),
  };
  const blank = def.blank ?? false;
  const required =
    def.required ??
    (!nullable && !blank && def.default === undefined && !readOnly && !hidden && stored && !kind.optional);
  /** Allowed models of a content type or generic relation; a content type without either means any API model. */
  const targetsOf = (at: string, anyByDefault = false): string[] => {
    if (def.types && def.feature) report.error(at, "give either 'types' or 'feature'");
    if (def.types) {
      for (const label of def.types) if (!entries.has(label)) report.error(at, `unknown model '${label}'`);
      return [...def.types].sort();
    }
    if (def.feature) {
      return [...entries.values()]
        .filter((e) => e.def.features?.includes(def.feature!))
        .map((e) => e.label)
        .sort();
    }
    if (anyByDefault) {
      return [...entries.values()]
        .filter((e) => typeof e.def.path === 'string' && !e.def.private)
        .map((e) => e.label)
        .sort();
    }
    report.error(at, "missing property 'types' (or 'feature')");
    return [];
  };

  for (const key of Object.keys(def)) {
    if (!COMMON_PROPERTIES.has(key) && !kind.properties.includes(key)) {
      report.error(key, `not allowed on a field of type ${def.type}`);
    }
  }
  return kind.resolve(def, {
    name,
    app: entry.app,
    label: entry.label,
    base,
    required,
    blank,
    nullable,
    stored,
    error: (at, message) => report.error(at, message),
    hasModel: (label) => entries.has(label),
    fieldDef: (label, field) => entries.get(label)?.def.fields[field],
    choiceSet: (qualified) => choiceSets.get(qualified),
    targets: targetsOf,
    identifier: limitIdentifier,
  }) as FieldSpec;
}

/** Properties every field may have, whatever its type. */
const COMMON_PROPERTIES: ReadonlySet<string> = new Set<keyof FieldDef>([
  'type',
  'description',
  'label',
  'help_text',
  'column',
  'nullable',
  'default',
  'required',
  'read_only',
  'write_only',
  'create_only',
  'stored',
  'hidden',
  'unique',
  'filter',
]);

/** Cross-field rules, each kind's own (generic relations name a content-type and an integer field…). */
function checkFieldReferences(fields: readonly FieldSpec[], report: Reporter): void {
  const byName = new Map<string, FieldSpec>(fields.map((f) => [f.name, f]));
  for (const field of fields) {
    kindOf(field).checkReferences?.(field, byName, (at, message) =>
      report.error(`fields.${field.name}.${at}`, message),
    );
  }
}

function resolveDisplay(def: ModelDef, model: ModelSpec, report: Reporter): DisplaySpec {
  const display = def.display ?? (model.fields.some((f) => f.name === 'name') ? 'name' : 'id');
  if (Array.isArray(display)) {
    const uses = [...new Set(display.flatMap((template) => compileTemplate(template).fields))];
    for (const used of uses) checkColumnField(model, used.split('.')[0]!, 'display', report);
    return { kind: 'first', templates: display, uses };
  }
  if (typeof display === 'object') {
    // Dotted uses follow FKs (checked against the targets once every model is resolved).
    for (const used of display.uses) checkColumnField(model, used.split('.')[0]!, 'display.uses', report);
    return { kind: 'function', function: display.function, uses: display.uses };
  }
  if (display.includes('{')) {
    // Dotted uses follow FKs, as in the list form.
    const uses = [...new Set(compileTemplate(display).fields)];
    for (const used of uses) checkColumnField(model, used.split('.')[0]!, 'display', report);
    return { kind: 'template', template: display, uses };
  }
  if (display !== 'id') checkColumnField(model, display, 'display', report);
  return { kind: 'field', field: display };
}

/** The FK paths that derived fields and displays use. */
function checkFieldPaths(model: ModelSpec, models: Map<string, ModelSpec>, report: Reporter): void {
  for (const field of model.fields) {
    if (field.kind === 'derived') checkPaths(model, models, field.uses, `fields.${field.name}.uses`, report);
  }
  if (model.display.kind !== 'function' && model.display.kind !== 'first') return;
  checkPaths(model, models, model.display.uses, model.display.kind === 'first' ? 'display' : 'display.uses', report);
}

/** Field paths that follow FKs (`device_type.model`): each step but the last an FK, each field stored. */
function checkPaths(
  model: ModelSpec,
  models: Map<string, ModelSpec>,
  uses: readonly string[],
  at: string,
  report: Reporter,
): void {
  for (const used of uses) {
    const segments = used.split('.');
    let current: ModelSpec | undefined = model;
    for (const [index, segment] of segments.entries()) {
      if (segment === 'id' && index === segments.length - 1) break;
      const field: FieldSpec | undefined = current?.fields.find((f) => f.name === segment);
      if (!field?.column) {
        // The first segment has been checked with the model's own fields already.
        if (index > 0) report.error(at, `unknown field '${segment}' in '${used}'`);
        break;
      }
      if (index < segments.length - 1) {
        if (field.kind !== 'fk') {
          report.error(at, `'${segment}' in '${used}' is not an fk`);
          break;
        }
        current = models.get(field.target);
      }
    }
  }
}

/** A change-logged model's timestamps, stored beside its fields (orderable, and usable by its display). */
function isTimestamp(model: ModelSpec, name: string): boolean {
  return (name === 'created' || name === 'last_updated') && model.features.includes('change_logging');
}

function checkColumnField(model: ModelSpec, name: string, at: string, report: Reporter): void {
  if (name === 'id' || isTimestamp(model, name)) return;
  const field = model.fields.find((f) => f.name === name);
  if (!field) report.error(at, `unknown field '${name}'`);
  else if (!field.column) report.error(at, `field '${name}' is not stored`);
}

function resolveOrdering(def: ModelDef, model: ModelSpec, report: Reporter): OrderingSpec[] {
  if (model.tree && def.ordering) report.error('ordering', 'tree models are ordered by the tree');
  const ordering = def.ordering ?? (model.tree ? [] : ['id']);
  return ordering.map((entry) => {
    const text = typeof entry === 'string' ? entry : entry.field;
    const descending = text.startsWith('-');
    const field = descending ? text.slice(1) : text;
    if (field !== 'id' && !isTimestamp(model, field) && !model.fields.some((f) => f.name === field && f.column)) {
      report.error('ordering', `unknown field '${field}'`);
    }
    const nullsFirst = typeof entry === 'object' && entry.nulls === 'first';
    return { field, descending, ...(nullsFirst ? { nullsFirst } : {}) };
  });
}

function resolveUniques(def: ModelDef, model: ModelSpec, report: Reporter): UniqueSpec[] {
  const labelOf = (name: string): string => model.fields.find((f) => f.name === name)?.label ?? defaultLabel(name);
  const uniques: UniqueSpec[] = [];
  for (const field of model.fields) {
    if (!field.unique) continue;
    if (!field.column) {
      report.error(`fields.${field.name}.unique`, 'only stored fields can be unique');
      continue;
    }
    uniques.push({
      name: limitIdentifier(`${model.table}_${field.name}_key`),
      fields: [field.name],
      whereNull: [],
      caseInsensitive: false,
      message: `${model.verboseName} with this ${labelOf(field.name).toLowerCase()} already exists.`,
      errorKey: field.name,
    });
  }
  (def.unique_together ?? []).forEach((u, index) => {
    const condition = { ...u.condition, ...u.exclude };
    for (const name of [...u.fields, ...(u.where_null ?? []), ...Object.keys(condition)]) {
      const field = model.fields.find((f) => f.name === name);
      if (!field?.column) report.error(`unique_together.${index}`, `unknown field '${name}'`);
    }
    const whereNull = u.where_null ?? [];
    const name = limitIdentifier(
      u.name ?? `${model.table}_${[...u.fields, ...whereNull, ...Object.keys(condition)].join('_')}_uniq`,
    );
    const conditional = whereNull.length > 0 || u.condition !== undefined || u.exclude !== undefined;
    const message =
      u.message ??
      (conditional
        ? `Constraint “${name}” is violated.`
        : `${capitalize(model.verboseName)} with this ${joinLabels(u.fields.map(labelOf))} already exists.`);
    uniques.push({
      name,
      fields: u.fields,
      whereNull,
      caseInsensitive: u.case_insensitive ?? false,
      ...(u.condition ? { condition: u.condition } : {}),
      ...(u.exclude ? { exclude: u.exclude } : {}),
      message,
      errorKey: u.fields.length === 1 && !conditional ? u.fields[0]! : '__all__',
    });
  });
  return uniques;
}

function resolveCounts(entry: ModelEntry, models: Map<string, ModelSpec>, report: Reporter): CountSpec[] {
  const model = models.get(entry.label)!;
  return Object.entries(entry.def.counts ?? {}).map(([name, def]) => {
    const counted = models.get(def.model);
    if (!counted) report.error(`counts.${name}.model`, `unknown model '${def.model}'`);
    else {
      const relation = counted.fields.find((f) => f.name === def.field);
      const points =
        relation?.kind === 'fk' || relation?.kind === 'm2m'
          ? relation.target === entry.label
          : relation?.kind === 'generic_fk'
            ? relation.targets.includes(entry.label)
            : false;
      if (!points)
        report.error(`counts.${name}.field`, `'${def.model}.${def.field}' is not a relation to '${entry.label}'`);
      if (def.cumulative && relation?.kind !== 'fk' && relation?.kind !== 'm2m')
        report.error(`counts.${name}.cumulative`, 'cumulative counts follow an fk or a many-to-many field');
    }
    if (def.cumulative && !model.tree)
      report.error(`counts.${name}.cumulative`, 'only tree models have cumulative counts');
    if (model.fields.some((f) => f.name === name)) report.error(`counts.${name}`, 'a field has the same name');
    return {
      name,
      model: def.model,
      field: def.field,
      cumulative: def.cumulative ?? false,
      nested: def.nested ?? 'omit',
      ...(def.description ? { description: def.description } : {}),
    };
  });
}

/** Every key a model can render, in the default order. */
export function readableKeys(model: ModelSpec): string[] {
  const keys: string[] = [...HEADER_KEYS];
  for (const field of model.fields) if (!field.hidden && !field.writeOnly) keys.push(field.name);
  if (model.features.includes('tags')) keys.push('tags');
  if (model.features.includes('custom_fields')) keys.push('custom_fields');
  if (model.features.includes('change_logging')) keys.push('created', 'last_updated');
  for (const count of model.counts) keys.push(count.name);
  if (model.tree) keys.push('_depth');
  return keys;
}

function resolveOutput(def: ModelDef, model: ModelSpec, report: Reporter): string[] {
  const keys = readableKeys(model);
  if (!def.output) return keys;
  // display_url may be left out: NetBox omits it for objects without a page of their own; display too, as
  // NetBox's plain serializers (its RQ tasks) have neither.
  const optional = new Set(['display_url', 'display']);
  const missing = keys.filter((k) => !optional.has(k) && !def.output!.includes(k));
  const unknown = def.output.filter((k) => !keys.includes(k));
  if (missing.length) report.error('output', `missing ${missing.map((k) => `'${k}'`).join(', ')}`);
  if (unknown.length) report.error('output', `unknown ${unknown.map((k) => `'${k}'`).join(', ')}`);
  return def.output;
}

function defaultBrief(model: ModelSpec): string[] {
  const keys = ['id', 'url', 'display'];
  for (const name of ['name', 'slug', 'description']) if (model.fields.some((f) => f.name === name)) keys.push(name);
  return keys;
}

function resolveKeyList(
  list: string[] | undefined,
  at: string,
  model: ModelSpec,
  fallback: string[],
  report: Reporter,
  allowDisplayUrl = false,
): string[] {
  if (!list) return fallback;
  for (const key of list) {
    if (!model.output.includes(key)) report.error(at, `unknown key '${key}'`);
    if (key === 'display_url' && !allowDisplayUrl) report.error(at, 'display_url is never part of a brief set');
  }
  return list;
}

function checkSearch(def: ModelDef, model: ModelSpec, models: Map<string, ModelSpec>, report: Reporter): void {
  for (const entry of def.search ?? []) {
    const [first, second] = entry.split('.') as [string, string | undefined];
    const field = model.fields.find((f) => f.name === first);
    if (!field?.column) {
      report.error('search', `unknown field '${first}'`);
      continue;
    }
    if (second === undefined) {
      if (!['string', 'ip_network', 'ip_interface', 'image'].includes(field.kind)) {
        report.error('search', `'${first}' is not a string or IP field`);
      }
      continue;
    }
    const target = field.kind === 'fk' ? models.get(field.target) : undefined;
    if (!target) report.error('search', `'${first}' is not an fk`);
    else if (!target.fields.some((f) => f.name === second && f.kind === 'string' && f.column)) {
      report.error('search', `unknown string field '${second}' on '${target.label}'`);
    }
  }
}

function collectReverse(label: string, models: Map<string, ModelSpec>): ReverseRelation[] {
  const reverse: ReverseRelation[] = [];
  for (const model of [...models.values()].sort((a, b) => a.label.localeCompare(b.label))) {
    for (const field of model.fields) {
      if (field.kind === 'fk' && field.target === label) {
        reverse.push({ model: model.label, field: field.name, onDelete: field.onDelete });
      }
      // A `do_nothing` relation outlives its target: deleting the target need not look for it.
      if (field.kind === 'generic_fk' && field.targets.includes(label) && field.onDelete !== 'do_nothing') {
        reverse.push({ model: model.label, field: field.name, onDelete: field.onDelete, generic: true });
      }
    }
  }
  return reverse;
}

/**
 * Core models never name a plugin's model, and a plugin names only core models and its own: each plugin
 * can be disabled on its own. (Relations chosen by feature, such as the objects tags may be applied to,
 * include plugin models; the runtime leaves out those of disabled plugins.)
 */
function checkPluginDependencies(entry: ModelEntry, entries: Map<string, ModelEntry>, report: Reporter): void {
  const allowed = (label: string): boolean => {
    const owner = entries.get(label)?.plugin?.name;
    return owner === undefined || owner === entry.plugin?.name;
  };
  const problem = (label: string): string => {
    const owner = entries.get(label)!.plugin!.name;
    return entry.plugin
      ? `'${label}' belongs to plugin '${owner}'; a plugin may name core models and its own`
      : `'${label}' belongs to plugin '${owner}'; core models never depend on a plugin`;
  };
  for (const [name, def] of Object.entries(entry.def.fields)) {
    if (def.to && !allowed(def.to)) report.error(`fields.${name}.to`, problem(def.to));
    for (const label of def.types ?? []) if (!allowed(label)) report.error(`fields.${name}.types`, problem(label));
  }
  for (const [name, def] of Object.entries(entry.def.counts ?? {})) {
    if (!allowed(def.model)) report.error(`counts.${name}.model`, problem(def.model));
  }
}

/** A plugin's reverse counts on a core model: counted models are the plugin's own, keys come last. */
function extendModel(
  label: string,
  counts: Record<string, CountDef>,
  plugin: string | undefined,
  entries: Map<string, ModelEntry>,
  models: Map<string, ModelSpec>,
  report: Reporter,
): void {
  const target = entries.get(label);
  if (!plugin) return report.error('', 'only a plugin extends models');
  if (!target) return report.error('', `unknown model '${label}'`);
  if (target.plugin) return report.error('', `'${label}' is not a core model`);
  for (const [name, def] of Object.entries(counts)) {
    if (entries.get(def.model)?.plugin?.name !== plugin)
      report.error(`counts.${name}.model`, `'${def.model}' is not a model of plugin '${plugin}'`);
  }
  const model = models.get(label)!;
  const added = resolveCounts({ ...target, def: { ...target.def, counts } }, models, {
    error: (at, message) => report.error(at, message),
  });
  for (const count of added) {
    if (model.output.includes(count.name) || model.counts.some((c) => c.name === count.name))
      report.error(`counts.${count.name}`, `'${label}' already has a key '${count.name}'`);
    model.counts.push({ ...count, plugin });
    model.output.push(count.name);
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as object)) deepFreeze(child);
  }
  return value;
}
