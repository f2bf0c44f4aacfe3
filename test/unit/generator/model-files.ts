import { compileModels } from '../../../generator/compile.js';
import type { DomainCatalog } from '../../../generator/contracts.js';
import type { ModelGraph } from '../../../generator/resolve.js';
import type { FieldSpec, ModelSpec } from '../../../runtime/spec.js';

/** Model files by path → their errors as the CLI prints them, and the graph. */
export function resolveFiles(
  files: Record<string, string>,
  catalog?: DomainCatalog,
): { graph: ModelGraph; errors: string[] } {
  const { graph, errors } = compileModels(
    Object.entries(files).map(([path, text]) => ({ path, text })),
    catalog,
  );
  return { graph, errors: errors.map(String) };
}

/** One model file (`models/shop.yaml`) → its errors (`models/shop.yaml:6:7: models.item…: message`). */
export function errorsOf(yaml: string, catalog?: DomainCatalog): string[] {
  return resolveFiles({ 'models/shop.yaml': yaml }, catalog).errors;
}

/**
 * One model file → its errors without their line and column (`models/shop.yaml: models.item…: message`),
 * for tables about what is reported rather than where; fails on an error without a line and column.
 */
export function pathsOf(yaml: string): string[] {
  return errorsOf(yaml).map((error) => {
    const match = /^([^:]+):\d+:\d+: /.exec(error);
    if (!match) throw new Error(`no line and column: ${error}`);
    return `${match[1]}: ${error.slice(match[0].length)}`;
  });
}

/** One valid model file → the resolved model with this label (fails on any error). */
export function modelOf(yaml: string, label: string): ModelSpec {
  const { graph, errors } = resolveFiles({ 'models/shop.yaml': yaml });
  if (errors.length > 0) throw new Error(`unexpected errors:\n${errors.join('\n')}`);
  const model = graph.models.find((m) => m.label === label);
  if (!model) throw new Error(`no model ${label}`);
  return model;
}

/** A field of a resolved model. */
export function fieldOf(model: ModelSpec, name: string): FieldSpec {
  const field = model.fields.find((f) => f.name === name);
  if (!field) throw new Error(`no field ${name} on ${model.label}`);
  return field;
}

/** A `shop` app holding the given models (YAML text indented as under `models:`). */
export function shop(models: string, extra = ''): string {
  return `app: shop\n${extra}models:\n${models}`;
}
