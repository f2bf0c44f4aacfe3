import { loadModelFiles } from '../../../generator/load.js';
import { resolveModels, type ModelGraph } from '../../../generator/resolve.js';
import type { FieldSpec, ModelSpec } from '../../../runtime/spec.js';

/** Model files by path → their errors as the CLI prints them (load, then resolve), and the graph. */
export function resolveFiles(files: Record<string, string>): { graph: ModelGraph; errors: string[] } {
  const { loaded, errors } = loadModelFiles(Object.entries(files).map(([path, text]) => ({ path, text })));
  const resolved = resolveModels(loaded);
  return { graph: resolved.graph, errors: [...errors, ...resolved.errors].map(String) };
}

/** One model file (`models/shop.yaml`) → its errors. */
export function errorsOf(yaml: string): string[] {
  return resolveFiles({ 'models/shop.yaml': yaml }).errors;
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
