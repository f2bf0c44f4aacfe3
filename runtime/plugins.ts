import { SettingsError } from './config.js';
import type { FieldSpec, Migration, ModelSpec, Registry } from './spec.js';

/** How a plugin's migrations are recorded in the migrations table: apart from the core's and each other's. */
export function pluginMigrationName(plugin: string, migration: string): string {
  return `plugins/${plugin}/${migration}`;
}

/**
 * The registry a server runs with the plugins named in `PLUGINS` (NetBox's setting): their models, routes,
 * OpenAPI paths and migrations join the core's; the other generated plugins are left out entirely, as if
 * absent, their tables untouched. Relations chosen by feature (the objects tags or custom fields apply to)
 * and deletion rules stop naming the models left out. Unknown names stop start-up.
 */
export function enablePlugins(registry: Registry, names: readonly string[]): Registry {
  const known = new Set(registry.plugins.map((p) => p.name));
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    const available = known.size ? [...known].join(', ') : 'none';
    throw new SettingsError(
      `Invalid setting PLUGINS: unknown plugin${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `'${n}'`).join(', ')} (generated plugins: ${available})`,
    );
  }
  const enabled = new Set(names);
  const plugins = registry.plugins.map((plugin) => ({ ...plugin, enabled: enabled.has(plugin.name) }));
  const left = new Set(plugins.filter((p) => !p.enabled).flatMap((p) => p.models));
  const migrations: Migration[] = [
    ...registry.migrations.filter((m) => !m.name.startsWith('plugins/')),
    ...plugins
      .filter((p) => p.enabled)
      .flatMap((p) => p.migrations.map((m) => ({ ...m, name: pluginMigrationName(p.name, m.name) }))),
  ];
  const models = Object.fromEntries(
    Object.entries(registry.models)
      .filter(([label]) => !left.has(label))
      .map(([label, spec]) => [label, left.size ? withoutModels(spec, left) : spec]),
  );
  const routes = Object.fromEntries(Object.entries(registry.routes).filter(([label]) => !left.has(label)));
  const off = plugins.filter((p) => !p.enabled);
  const openapi = withoutPaths(
    registry.openapi,
    off.map((p) => p.baseUrl),
    new Set(off.map((p) => p.name)),
    left,
  );
  return { ...registry, models, routes, migrations, plugins, openapi };
}

function withoutModels(spec: ModelSpec, left: ReadonlySet<string>): ModelSpec {
  const keep = (label: string): boolean => !left.has(label);
  const fields = spec.fields.map((field): FieldSpec => {
    if (field.kind === 'content_type' || field.kind === 'generic_fk')
      return { ...field, targets: field.targets.filter(keep) };
    return field;
  });
  const dropped = new Set(spec.counts.filter((c) => !keep(c.model)).map((c) => c.name));
  return {
    ...spec,
    fields,
    reverse: spec.reverse.filter((r) => keep(r.model)),
    counts: spec.counts.filter((c) => !dropped.has(c.name)),
    output: spec.output.filter((key) => !dropped.has(key)),
  };
}

/**
 * The OpenAPI document without the paths of disabled plugins, their keys in `/api/plugins/`, the
 * properties they add to core schemas (marked `x-plugin`), and their models' object types in the enums of
 * core schemas and parameters (an event rule's `object_types`, a custom field's, a change record's type).
 */
function withoutPaths(
  original: Record<string, unknown>,
  baseUrls: readonly string[],
  names: ReadonlySet<string>,
  models: ReadonlySet<string>,
): Record<string, unknown> {
  if (baseUrls.length === 0) return original;
  const openapi = structuredClone(original);
  dropObjectTypes(openapi, models);
  const paths = openapi.paths as Record<string, unknown>;
  const prefixes = baseUrls.map((url) => `/api/plugins/${url}/`);
  const kept = Object.fromEntries(Object.entries(paths).filter(([path]) => !prefixes.some((p) => path.startsWith(p))));
  const root = kept['/api/plugins/'] as
    | { get: { responses: { 200: { content: { 'application/json': { schema: { properties: object } } } } } } }
    | undefined;
  const schema = root?.get.responses[200].content['application/json'].schema;
  if (schema) {
    schema.properties = Object.fromEntries(
      Object.entries(schema.properties).filter(([key]) => !baseUrls.includes(key)),
    );
    kept['/api/plugins/'] = root;
  }
  const components = openapi.components as { schemas: Record<string, unknown> };
  for (const schema of Object.values(components.schemas)) dropMarked(schema, names);
  return { ...openapi, paths: kept, components };
}

/** Removes, throughout a schema, the properties marked with a disabled plugin's `x-plugin`. */
function dropMarked(node: unknown, names: ReadonlySet<string>): void {
  if (Array.isArray(node)) return node.forEach((item) => dropMarked(item, names));
  if (!node || typeof node !== 'object') return;
  const schema = node as { properties?: Record<string, { 'x-plugin'?: string }>; required?: string[] };
  if (schema.properties) {
    for (const [key, property] of Object.entries(schema.properties)) {
      if (property['x-plugin'] && names.has(property['x-plugin'])) {
        delete schema.properties[key];
        if (schema.required) schema.required = schema.required.filter((k) => k !== key);
      }
    }
  }
  for (const child of Object.values(node)) dropMarked(child, names);
}

/** Removes the object types of the given models from every enum of the document (which it changes). */
function dropObjectTypes(node: unknown, models: ReadonlySet<string>): void {
  if (Array.isArray(node)) return node.forEach((item) => dropObjectTypes(item, models));
  if (!node || typeof node !== 'object') return;
  const schema = node as { enum?: unknown[] };
  if (Array.isArray(schema.enum) && schema.enum.some((value) => typeof value === 'string' && models.has(value)))
    schema.enum = schema.enum.filter((value) => typeof value !== 'string' || !models.has(value));
  for (const child of Object.values(node)) dropObjectTypes(child, models);
}
