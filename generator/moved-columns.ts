import type { ModelSpec, MovedColumnSpec } from '../runtime/spec.js';
import type { MovedFromDef } from './language.js';
import type { Reporter } from './load.js';

/**
 * `moved_from`: columns of other models whose values became objects of `model`. Each entry must name a stored
 * field of the model (the value), one of its generic relations that may point at the other model (the
 * assignment) and an FK of the other model to this one (the link).
 */
export function resolveMovedFrom(
  defs: readonly MovedFromDef[] | undefined,
  model: ModelSpec,
  models: ReadonlyMap<string, ModelSpec>,
  report: Reporter,
): MovedColumnSpec[] | undefined {
  if (!defs) return undefined;
  const moved: MovedColumnSpec[] = [];
  defs.forEach((def, i) => {
    const at = `moved_from.${i}`;
    const other = models.get(def.model);
    if (!other) return report.error(`${at}.model`, `unknown model '${def.model}'`);
    const value = model.fields.find((f) => f.name === def.field);
    if (!value?.column) return report.error(`${at}.field`, `'${def.field}' is not a stored field of ${model.label}`);
    const assign = model.fields.find((f) => f.name === def.assign);
    if (assign?.kind !== 'generic_fk' || !assign.targets.includes(other.label))
      return report.error(`${at}.assign`, `'${def.assign}' is not a generic relation that may point at ${other.label}`);
    const typeColumn = model.fields.find((f) => f.name === assign.typeField)?.column;
    const idColumn = model.fields.find((f) => f.name === assign.idField)?.column;
    const link = other.fields.find((f) => f.name === def.link);
    if (link?.kind !== 'fk' || link.target !== model.label || !link.column)
      return report.error(`${at}.link`, `'${other.label}.${def.link}' is not an fk to ${model.label}`);
    if (!typeColumn || !idColumn) return report.error(`${at}.assign`, `'${def.assign}' has no stored columns`);
    moved.push({
      model: other.label,
      table: other.table,
      column: def.column,
      link: link.column,
      into: model.table,
      value: value.column,
      typeColumn,
      idColumn,
      timestamps: model.features.includes('change_logging') ? ['created', 'last_updated'] : [],
    });
  });
  return moved;
}
