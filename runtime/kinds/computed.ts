import type { ComputedField } from '../spec.js';
import type { FieldDef } from './definition.js';
import { defineKind, type ResolveContext } from './kind.js';

/** A value computed for a page of objects by a domain function, in one batch, with its JSON Schema. */
export const computedKind = defineKind<ComputedField>({
  kinds: ['computed'],
  types: ['computed'],
  properties: ['function', 'schema', 'excludable', 'referenced_by'],
  derived: true,
  readOnly: true,
  resolve(def, ctx) {
    if (!def.function) ctx.error('function', "missing property 'function'");
    return {
      ...ctx.base,
      kind: 'computed',
      required: false,
      function: def.function ?? '',
      schema: def.schema ?? {},
      excludable: def.excludable ?? false,
      ...(def.referenced_by ? { referencedBy: referencedBy(def.referenced_by, ctx) } : {}),
    };
  },
  column: () => null,
  valueType: () => 'unknown',
  readType: () => 'unknown',
  readSchema: (field) => field.schema,
  writeSchema: () => ({}),
  options(_field, meta) {
    meta.type = 'field';
  },
  constraintValue: () => 'text',
});

/** `referenced_by`: an FK of an existing model that points at this one. */
function referencedBy(
  by: NonNullable<FieldDef['referenced_by']>,
  ctx: ResolveContext,
): NonNullable<ComputedField['referencedBy']> {
  if (!ctx.hasModel(by.model)) ctx.error('referenced_by.model', `unknown model '${by.model}'`);
  else {
    const field = ctx.fieldDef(by.model, by.field);
    if (field?.type !== 'fk' || field.to !== ctx.label)
      ctx.error('referenced_by.field', `'${by.model}.${by.field}' is not an fk to ${ctx.label}`);
  }
  return { model: by.model, field: by.field, otherwise: by.otherwise };
}
