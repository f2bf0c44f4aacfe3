import type { ConstantField } from '../spec.js';
import { defineKind } from './kind.js';

/** A fixed value (for NetBox keys whose feature this service does not have), with its JSON Schema. */
export const constantKind = defineKind<ConstantField>({
  kinds: ['constant'],
  types: ['constant'],
  properties: ['value', 'schema'],
  derived: true,
  readOnly: true,
  resolve: (def, ctx) => ({
    ...ctx.base,
    kind: 'constant',
    required: false,
    value: def.value ?? null,
    schema: def.schema ?? {},
  }),
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
