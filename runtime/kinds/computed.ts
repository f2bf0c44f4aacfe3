import type { ComputedField } from '../spec.js';
import { defineKind } from './kind.js';

/** A value computed for a page of objects by a domain function, in one batch, with its JSON Schema. */
export const computedKind = defineKind<ComputedField>({
  kinds: ['computed'],
  types: ['computed'],
  properties: ['function', 'schema', 'excludable'],
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
