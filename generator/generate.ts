import Handlebars from 'handlebars';
import { format } from 'prettier';
import type { Migration, ModelSpec, PluginSpec } from '../runtime/spec.js';
import type { SourceFile } from './load.js';
import type { PluginSource } from './plugins.js';
import type { ModelGraph } from './resolve.js';
import { compileModels } from './compile.js';
import type { DomainCatalog } from './contracts.js';
import { buildTables } from './tables.js';
import { diffSchemas, nameMigration, replayMigrations } from './migrations.js';
import { emitModelModule } from './emit/model-module.js';
import { emitOpenApi } from './emit/openapi.js';
import { GENERATED_HEADER, GENERATED_JSON_COMMENT } from './emit/header.js';
import { toLiteral } from './literal.js';
import { modelNames } from './emit/types.js';
import { toCamelCase } from './names.js';

export interface GenerateInput {
  /** YAML model files, e.g. `models/dcim.yaml`. */
  models: readonly SourceFile[];
  /** Plugin folders (`models/plugins/<name>/`): a manifest and model files each. */
  plugins?: readonly PluginSource[];
  /**
   * Migrations already emitted, with paths relative to the output folder: `migrations/0001_initial.json`
   * for the core models, `plugins/<name>/migrations/0001_initial.json` for a plugin's.
   */
  migrations: readonly SourceFile[];
  /** Package version, e.g. 4.6.0. */
  version: string;
  /** Text of `templates/registry.ts.hbs`. */
  registryTemplate: string;
  /** The runtime's domain functions by name, to check the names models use (unchecked when absent). */
  domainFunctions?: DomainCatalog;
}

export interface GenerateResult {
  /** Output path relative to the output folder → file text. Empty when there are errors. */
  files: Map<string, string>;
  errors: string[];
}

const PRETTIER_OPTIONS = { parser: 'typescript', singleQuote: true, printWidth: 120, trailingComma: 'all' } as const;

/** The generator's pure core: model files in, generated files out. No I/O, no clock, no module state. */
export async function generate(input: GenerateInput): Promise<GenerateResult> {
  const { graph, manifests, errors } = compileModels(
    input.models,
    input.domainFunctions,
    input.plugins ?? [],
    input.version,
  );
  if (errors.length > 0) return { files: new Map(), errors: errors.map(String) };

  // The core models and each plugin have their own migrations: a plugin's run when it is first enabled.
  const owners = [
    { prefix: 'migrations/', models: graph.models.filter((m) => !m.plugin) },
    ...[...manifests.keys()].sort().map((name) => ({
      prefix: `plugins/${name}/migrations/`,
      models: graph.models.filter((m) => m.plugin?.name === name),
    })),
  ];
  const files = new Map<string, string>();
  const migrationsOf = new Map<string, Migration[]>();
  for (const owner of owners) {
    const parsed = parseMigrations(input.migrations.filter((m) => isMigrationOf(m.path, owner.prefix)));
    if ('error' in parsed) return { files: new Map(), errors: [parsed.error] };
    let ops;
    try {
      const moves = owner.models.flatMap((m) => m.movedFrom ?? []);
      ops = diffSchemas(replayMigrations(parsed.list), buildTables(graph.models, owner.models), moves);
    } catch (error) {
      return { files: new Map(), errors: [`models: ${(error as Error).message}`] };
    }
    const all = [...parsed.list];
    if (ops.length > 0) all.push({ name: nameMigration(all.length + 1, ops), ops });
    for (const migration of all) {
      files.set(`${owner.prefix}${migration.name}.json`, toJson({ $comment: GENERATED_JSON_COMMENT, ...migration }));
    }
    migrationsOf.set(owner.prefix, all);
  }
  const plugins: PluginSpec[] = [...manifests.values()]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((manifest) => ({
      ...manifest,
      models: graph.models.filter((m) => m.plugin?.name === manifest.name).map((m) => m.label),
      migrations: migrationsOf.get(`plugins/${manifest.name}/migrations/`) ?? [],
    }));

  const byLabel = new Map(graph.models.map((m) => [m.label, m]));
  for (const model of graph.models) {
    const source = graph.sources.get(model.label) ?? '';
    files.set(`${modelNames(model).file}.ts`, emitModelModule(model, byLabel, source));
  }
  files.set('openapi.json', toJson(emitOpenApi(graph, input.version, plugins)));
  files.set('index.ts', emitRegistry(graph, migrationsOf.get('migrations/') ?? [], plugins, input));

  for (const [path, text] of files) {
    if (path.endsWith('.ts')) files.set(path, await format(text, PRETTIER_OPTIONS));
  }
  return { files: new Map([...files].sort(([a], [b]) => a.localeCompare(b))), errors: [] };
}

/** Whether a migration file belongs to the folder `prefix` itself (not to a folder below it). */
function isMigrationOf(path: string, prefix: string): boolean {
  return path.startsWith(prefix) && !path.slice(prefix.length).includes('/');
}

function toJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function parseMigrations(sources: readonly SourceFile[]): { list: Migration[] } | { error: string } {
  const list: Migration[] = [];
  const sorted = [...sources].sort((a, b) => a.path.localeCompare(b.path));
  for (const [index, source] of sorted.entries()) {
    let parsed: Migration;
    try {
      parsed = JSON.parse(source.text) as Migration;
    } catch (error) {
      return { error: `${source.path}: ${(error as Error).message}` };
    }
    if (!parsed.name || !Array.isArray(parsed.ops)) return { error: `${source.path}: not a migration` };
    if (!parsed.name.startsWith(String(index + 1).padStart(4, '0'))) {
      return { error: `${source.path}: migrations must be numbered 0001, 0002, … without gaps` };
    }
    list.push({ name: parsed.name, ops: parsed.ops });
  }
  return { list };
}

function emitRegistry(graph: ModelGraph, migrations: Migration[], plugins: PluginSpec[], input: GenerateInput): string {
  const template = Handlebars.compile(input.registryTemplate, { noEscape: true, strict: true });
  const functions = new Set<string>();
  for (const model of graph.models) collectFunctions(model, functions);
  const functionsOf = new Map(
    (input.plugins ?? []).flatMap((source) =>
      source.functions
        ? [[source.name, { variable: `${toCamelCase(source.name)}Functions`, module: source.functions.module }]]
        : [],
    ),
  );
  return template({
    header: GENERATED_HEADER,
    sources: [...new Set(graph.sources.values())].sort().join(', '),
    version: input.version,
    migrations: migrations.map((m, index) => ({
      variable: `migration${index + 1}`,
      file: `migrations/${m.name}.json`,
    })),
    plugins: plugins.map((plugin) => ({
      manifest: toLiteral({ ...plugin, migrations: undefined }),
      functions: functionsOf.get(plugin.name) ?? false,
      migrations: plugin.migrations.map((m, index) => ({
        variable: `${toCamelCase(plugin.name)}Migration${index + 1}`,
        file: `plugins/${plugin.name}/migrations/${m.name}.json`,
      })),
    })),
    models: graph.models.map((model) => {
      const names = modelNames(model);
      return {
        label: model.label,
        namespace: `${model.app}${model.className}`,
        file: names.file,
        spec: names.spec,
        mount: model.path ? names.mount : false,
      };
    }),
    domainFunctions: toLiteral([...functions].sort()),
    apps: toLiteral(graph.apps),
  });
}

function collectFunctions(model: ModelSpec, into: Set<string>): void {
  for (const name of model.validators) into.add(name);
  for (const rule of model.rules) if (rule.kind === 'validator') into.add(rule.function);
  if (model.hooks.prepare) into.add(model.hooks.prepare);
  if (model.hooks.present) into.add(model.hooks.present);
  if (model.hooks.created) into.add(model.hooks.created);
  if (model.hooks.updated) into.add(model.hooks.updated);
  if (model.display.kind === 'function') into.add(model.display.function);
  for (const field of model.fields) {
    if (field.kind === 'computed' || field.kind === 'derived') into.add(field.function);
  }
  for (const filter of model.filters) if (filter.kind === 'function') into.add(filter.function);
  for (const name of model.searchAlso) into.add(name);
  for (const action of model.actions) into.add(action.function);
}
