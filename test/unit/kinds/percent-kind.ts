import { defineKind, fail, ok } from '../../../runtime/kinds/kind.js';
import type { FieldBase } from '../../../runtime/spec.js';

/**
 * A field kind that the service does not have, written as a plugin would write one: a whole percentage,
 * written as `42` or `"42%"`, stored as an integer, read as a number; `at_most` lowers the bound.
 */
export interface PercentField extends FieldBase {
  kind: 'percent';
  max: number;
}

export const percentKind = defineKind<PercentField>({
  kinds: ['percent'],
  types: ['percent'],
  properties: ['at_most'],
  propertySchemas: { at_most: { type: 'integer', minimum: 1, maximum: 100 } },
  resolve: (def, ctx) => ({
    ...ctx.base,
    kind: 'percent',
    required: ctx.required,
    max: (def as unknown as { at_most?: number }).at_most ?? 100,
  }),
  column: () => ({ type: 'integer' }),
  valueType: () => 'number',
  readSchema: (field) => ({ type: 'integer', minimum: 0, maximum: field.max }),
  writeSchema: (field) => ({
    oneOf: [
      { type: 'integer', minimum: 0, maximum: field.max },
      { type: 'string', pattern: '^\\d+%$' },
    ],
  }),
  valueFilter: () => ({ valueKind: 'integer', lookups: 'number' }),
  parse(field, value) {
    const text = typeof value === 'string' ? value.replace(/%$/, '') : value;
    const number = typeof text === 'string' && /^\d+$/.test(text) ? Number(text) : text;
    if (typeof number !== 'number' || !Number.isInteger(number)) return fail('A valid percentage is required.');
    if (number < 0 || number > field.max) return fail(`Ensure this value is between 0 and ${field.max}.`);
    return ok(number);
  },
  decode: (_field, raw) => Number(raw),
  present: (_field, value) => value,
  options(field, meta) {
    meta.type = 'integer';
    meta.min_value = 0;
    meta.max_value = field.max;
  },
  constraintValue: () => 'integer',
});
