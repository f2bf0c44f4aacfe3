import type { IntegerField } from '../spec.js';
import { decodeNumber, defineKind, fail, ok } from './kind.js';

/** A whole number (`integer`, or `bigint` stored as a 64-bit integer), optionally bounded. */
export const integerKind = defineKind<IntegerField>({
  kinds: ['integer'],
  types: ['integer', 'bigint'],
  properties: ['min_value', 'max_value'],
  resolve: (def, ctx) => ({
    ...ctx.base,
    kind: 'integer',
    required: ctx.required,
    big: def.type === 'bigint',
    ...(def.min_value !== undefined ? { min: def.min_value } : {}),
    ...(def.max_value !== undefined ? { max: def.max_value } : {}),
  }),
  column: (field) => ({ type: field.big ? 'bigint' : 'integer' }),
  valueType: () => 'number',
  readSchema: () => ({ type: 'integer' }),
  writeSchema: (field) => ({
    type: 'integer',
    ...(field.big ? { format: 'int64' } : {}),
    ...(field.min !== undefined ? { minimum: field.min } : {}),
    ...(field.max !== undefined ? { maximum: field.max } : {}),
  }),
  valueFilter: () => ({ valueKind: 'integer', lookups: 'number' }),
  parse(field, value) {
    let number: number;
    if (typeof value === 'number') number = value;
    else if (typeof value === 'string' && /^\s*-?\d+(\.0*)?\s*$/.test(value)) number = Number(value);
    else return fail('A valid integer is required.');
    if (!Number.isInteger(number) || !Number.isSafeInteger(number)) return fail('A valid integer is required.');
    if (field.max !== undefined && number > field.max)
      return fail(`Ensure this value is less than or equal to ${field.max}.`);
    if (field.min !== undefined && number < field.min)
      return fail(`Ensure this value is greater than or equal to ${field.min}.`);
    return ok(number);
  },
  decode: (_field, raw) => decodeNumber(raw),
  options(field, meta) {
    meta.type = 'integer';
    if (field.min !== undefined) meta.min_value = field.min;
    if (field.max !== undefined) meta.max_value = field.max;
  },
  constraintValue: () => 'integer',
});
