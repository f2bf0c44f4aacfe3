import type { ManyToManyField } from '../spec.js';
import { relationFilters } from './fk.js';
import { defineKind, relatedName } from './kind.js';

/** Related objects through a join table: read as nested objects (or an attribute), written as ids. */
export const m2mKind = defineKind<ManyToManyField>({
  kinds: ['m2m'],
  types: ['m2m'],
  properties: ['to', 'nested', 'by', 'filter_by', 'reverse_of', 'related_name'],
  derived: true,
  optional: true,
  resolve(def, ctx) {
    const target = def.to ?? '';
    if (!def.to) ctx.error('to', "missing property 'to'");
    else if (!ctx.hasModel(target)) ctx.error('to', `unknown model '${target}'`);
    // The other side of a field of the target: the same join table, columns swapped.
    let through = ctx.identifier(`${ctx.app}_${ctx.label.split('.')[1]!}_${ctx.name}`);
    if (def.reverse_of) {
      const [app, model, other] = def.reverse_of.split('.') as [string, string, string];
      const forward = ctx.fieldDef(`${app}.${model}`, other);
      if (`${app}.${model}` !== target) ctx.error('reverse_of', `'${def.reverse_of}' is not a field of '${target}'`);
      else if (forward?.type !== 'm2m' || forward.to !== ctx.label || forward.reverse_of)
        ctx.error('reverse_of', `'${def.reverse_of}' is not a many-to-many field to '${ctx.label}'`);
      through = ctx.identifier(`${app}_${model}_${other}`);
    }
    return {
      ...ctx.base,
      kind: 'm2m',
      required: ctx.required,
      target,
      through,
      fromColumn: def.reverse_of ? 'to_id' : 'from_id',
      toColumn: def.reverse_of ? 'from_id' : 'to_id',
      ...(def.reverse_of ? { reverseOf: def.reverse_of } : {}),
      nested: def.nested ?? null,
      ...(def.by ? { by: def.by } : {}),
      ...(def.related_name
        ? { relatedName: relatedName(def.related_name, (at, message) => ctx.error(at, message)) }
        : {}),
    };
  },
  column: () => null,
  valueType: (field) => (field.by ? 'string[]' : 'number[]'),
  readType(field, ctx) {
    if (field.by) return 'string[]';
    const target = ctx.models.get(field.target);
    return target ? `${target.className}Nested[]` : 'Record<string, unknown>[]';
  },
  readSchema: () => ({}),
  writeSchema(field, ctx) {
    const target = ctx.models.get(field.target)!;
    return field.by
      ? {
          type: 'array',
          items: { type: 'string' },
          description: `The ${target.verboseNamePlural}' ${field.by} values.`,
        }
      : { type: 'array', items: { type: 'integer', minimum: 0 }, description: `Ids of ${target.verboseNamePlural}.` };
  },
  filters: relationFilters,
  options(_field, meta) {
    meta.type = 'field';
  },
  constraintValue: () => 'json',
});
