import { LineCounter, parseDocument } from 'yaml';
import { checkDomainFunctionNames, checkRoleContracts, withPluginFunctions, type DomainCatalog } from './contracts.js';
import { checkIdentifiers } from './identifiers.js';
import { loadModelFiles, uniqueErrors, type LoadedFile, type ModelError, type SourceFile } from './load.js';
import { locatePath, type Position } from './locate.js';
import { loadManifests, type PluginManifest, type PluginSource } from './plugins.js';
import { resolveModels, type ModelGraph } from './resolve.js';
import { applyTraits, retarget, type TraitOrigins } from './traits.js';

const EMPTY_GRAPH: ModelGraph = { apps: [], models: [], sources: new Map() };

/** What the compilation of the core models and the plugins gives. */
export interface Compiled {
  graph: ModelGraph;
  /** The plugins' manifests by name. */
  manifests: Map<string, PluginManifest>;
  errors: ModelError[];
}

/**
 * Model files (the core's and each plugin folder's) in, the model graph and every diagnostic out, each once and
 * at its YAML file, line and column. When a file does not parse or breaks the model language, the semantic
 * stages do not run: over the other files alone they would only repeat the mistake (every reference to the
 * broken file's models unknown).
 */
export function compileModels(
  sources: readonly SourceFile[],
  catalog?: DomainCatalog,
  plugins: readonly PluginSource[] = [],
  version = '',
): Compiled {
  const { loaded, errors: loadErrors } = loadModelFiles(sources);
  const coreApps = new Set(loaded.map((f) => f.doc.app));
  const { manifests, errors: manifestErrors } = loadManifests(plugins, version, coreApps);
  const pluginFiles: LoadedFile[] = [];
  for (const source of plugins) {
    const manifest = manifests.get(source.name);
    if (!manifest) continue;
    const plugin = { name: manifest.name, baseUrl: manifest.baseUrl };
    const result = loadModelFiles(source.models);
    loadErrors.push(...result.errors);
    pluginFiles.push(...result.loaded.map((file) => ({ ...file, plugin })));
  }
  const manifestFiles = plugins.map((p) => p.manifest);
  if (loadErrors.length > 0 || manifestErrors.length > 0) {
    return { graph: EMPTY_GRAPH, manifests, errors: located([...loadErrors, ...manifestErrors], [], manifestFiles) };
  }
  const { files, errors: traitErrors, origins } = applyTraits([...loaded, ...pluginFiles]);
  if (traitErrors.length > 0) return { graph: EMPTY_GRAPH, manifests, errors: located(traitErrors, files, []) };
  const { graph, errors } = resolveModels(files);
  if (errors.length === 0) errors.push(...checkRoleContracts(files, graph), ...checkIdentifiers(graph, files));
  if (catalog) {
    const withPlugins = withPluginFunctions(catalog, plugins);
    errors.push(...withPlugins.errors);
    errors.push(...checkDomainFunctionNames(files, withPlugins.catalog, new Set(manifests.keys())));
  }
  return { graph, manifests, errors: located(errors, files, manifestFiles, origins) };
}

/**
 * The errors at their positions (model files through their locators, manifests parsed here), each once; an
 * error about a part a trait brought is reported at the trait.
 */
function located(
  errors: ModelError[],
  files: readonly LoadedFile[],
  manifests: readonly SourceFile[],
  origins: TraitOrigins = new Map(),
): ModelError[] {
  errors = retarget(errors, origins);
  const locators = new Map<string, (at: string) => Position | undefined>(
    files.map((f) => [f.path, (at: string) => f.locate(at)]),
  );
  for (const manifest of manifests) {
    const lines = new LineCounter();
    const document = parseDocument(manifest.text, { lineCounter: lines });
    locators.set(manifest.path, (at) => locatePath(document, lines, at ? at.split('.') : []));
  }
  return uniqueErrors(errors.map((e) => (e.position ? e : e.placed(locators.get(e.file)?.(e.at)))));
}
