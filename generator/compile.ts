import { checkDomainFunctionNames, checkRoleContracts, type DomainCatalog } from './contracts.js';
import { loadModelFiles, uniqueErrors, type ModelError, type SourceFile } from './load.js';
import { resolveModels, type ModelGraph } from './resolve.js';

const EMPTY_GRAPH: ModelGraph = { apps: [], models: [], sources: new Map() };

/**
 * Model files in, the model graph and every diagnostic out, each once and at its YAML file, line and column.
 * When a file does not parse or breaks the model language, the semantic stages do not run: over the other
 * files alone they would only repeat the mistake (every reference to the broken file's models unknown).
 */
export function compileModels(
  sources: readonly SourceFile[],
  catalog?: DomainCatalog,
): { graph: ModelGraph; errors: ModelError[] } {
  const { loaded, errors: loadErrors } = loadModelFiles(sources);
  if (loadErrors.length > 0) return { graph: EMPTY_GRAPH, errors: loadErrors };
  const { graph, errors } = resolveModels(loaded);
  if (errors.length === 0) errors.push(...checkRoleContracts(loaded, graph));
  if (catalog) errors.push(...checkDomainFunctionNames(loaded, catalog));
  const files = new Map(loaded.map((f) => [f.path, f]));
  const located = errors.map((e) => (e.position ? e : e.placed(files.get(e.file)?.locate(e.at))));
  return { graph, errors: uniqueErrors(located) };
}
