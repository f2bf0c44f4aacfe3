import type { FieldSpec, FilterStep, ModelSpec } from '../runtime/spec.js';

/** Where a filter path ends: at a related model, or at a field of the model reached. */
export type PathEnd = { kind: 'model'; model: ModelSpec } | { kind: 'field'; owner: ModelSpec; field: FieldSpec };

/**
 * Walks a dotted filter path from `model`, as Django's lookups do: each name is a field of the current model
 * (an FK, a many-to-many field or, when it is not the last name, nothing else), a query name of one of its
 * generic FKs (`interface` for an IP address's assigned object), or the related_name of another model's FK
 * or many-to-many field that points at it (`terminations` for a circuit's terminations), or of another model's
 * generic FK that may point at it (`contacts` for the contact assignments of a site).
 */
export function walkPath(
  path: string,
  model: ModelSpec,
  models: ReadonlyMap<string, ModelSpec>,
  error: (message: string) => void,
): { steps: FilterStep[]; end: PathEnd } | null {
  const steps: FilterStep[] = [];
  let current = model;
  const names = path.split('.');
  for (const [index, name] of names.entries()) {
    const last = index === names.length - 1;
    const field = current.fields.find((f) => f.name === name);
    if (field?.kind === 'fk' || field?.kind === 'm2m') {
      const target = models.get(field.target);
      if (!target) return null;
      steps.push({ kind: field.kind, field: name, target: target.label });
      current = target;
      continue;
    }
    if (field) {
      if (!last) {
        error(`'${name}' on '${current.label}' is not a relation`);
        return null;
      }
      return { steps, end: { kind: 'field', owner: current, field } };
    }
    const step = genericStep(current, name) ?? reverseStep(current, name, models, error);
    if (!step) {
      error(`'${current.label}' has no field, query name or related name '${name}'`);
      return null;
    }
    steps.push(step);
    current = models.get('model' in step ? step.model : step.target)!;
  }
  return { steps, end: { kind: 'model', model: current } };
}

function genericStep(model: ModelSpec, name: string): FilterStep | null {
  for (const field of model.fields) {
    if (field.kind !== 'generic_fk') continue;
    const target = Object.entries(field.queryNames ?? {}).find(([, queryName]) => queryName === name)?.[0];
    if (target) return { kind: 'generic', field: field.name, target };
  }
  return null;
}

function reverseStep(
  model: ModelSpec,
  name: string,
  models: ReadonlyMap<string, ModelSpec>,
  error: (message: string) => void,
): FilterStep | null {
  const found: FilterStep[] = [];
  for (const other of models.values()) {
    for (const field of other.fields) {
      if (field.kind === 'generic_fk') {
        if (field.relatedName === name && field.targets.includes(model.label))
          found.push({ kind: 'reverse_generic', model: other.label, field: field.name });
        continue;
      }
      if ((field.kind !== 'fk' && field.kind !== 'm2m') || field.target !== model.label) continue;
      if (field.relatedName !== name) continue;
      found.push({ kind: field.kind === 'fk' ? 'reverse' : 'reverse_m2m', model: other.label, field: field.name });
    }
  }
  if (found.length > 1) error(`related name '${name}' of '${model.label}' is ambiguous`);
  return found[0] ?? null;
}
