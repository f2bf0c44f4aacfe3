import type { DecimalField } from '../spec.js';
import { decodeNumber, defineKind, fail, ok, type Parsed } from './kind.js';

/** A fixed-point number with at most `max_digits` digits, `decimal_places` of them after the point. */
export const decimalKind = defineKind<DecimalField>({
  kinds: ['decimal'],
  types: ['decimal'],
  properties: ['min_value', 'max_value', 'max_digits', 'decimal_places'],
  resolve(def, ctx) {
    if (def.max_digits === undefined || def.decimal_places === undefined) {
      ctx.error('', "a decimal field needs 'max_digits' and 'decimal_places'");
    }
    return {
      ...ctx.base,
      kind: 'decimal',
      required: ctx.required,
      maxDigits: def.max_digits ?? 10,
      decimalPlaces: def.decimal_places ?? 2,
      ...(def.min_value !== undefined ? { min: def.min_value } : {}),
      ...(def.max_value !== undefined ? { max: def.max_value } : {}),
    };
  },
  column: (field) => ({ type: 'decimal', precision: field.maxDigits, scale: field.decimalPlaces }),
  valueType: () => 'number',
  readSchema: () => ({ type: 'number' }),
  writeSchema: (field) => ({
    type: 'number',
    ...(field.min !== undefined ? { minimum: field.min } : {}),
    ...(field.max !== undefined ? { maximum: field.max } : {}),
    description: `At most ${field.maxDigits} digits, ${field.decimalPlaces} after the decimal point.`,
  }),
  valueFilter: () => ({ valueKind: 'decimal', lookups: 'number' }),
  parse: parseDecimal,
  decode: (_field, raw) => decodeNumber(raw),
  options(field, meta) {
    meta.type = 'decimal';
    meta.max_digits = field.maxDigits;
    meta.decimal_places = field.decimalPlaces;
    if (field.min !== undefined) meta.min_value = field.min;
    if (field.max !== undefined) meta.max_value = field.max;
  },
  constraintValue: () => 'number',
});

function parseDecimal(field: DecimalField, value: unknown): Parsed {
  let text: string;
  if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
  else if (typeof value === 'string' && /^\s*[-+]?(\d+(\.\d*)?|\.\d+)\s*$/.test(value)) text = value.trim();
  else return fail('A valid number is required.');
  const number = Number(text);
  const [whole = '', fraction = ''] = text.replace(/^[-+]/, '').replace(/e.*$/i, '').split('.');
  const wholeDigits = whole.replace(/^0+/, '').length;
  const fractionDigits = fraction.replace(/0+$/, '').length;
  if (wholeDigits + fractionDigits > field.maxDigits) {
    return fail(`Ensure that there are no more than ${field.maxDigits} digits in total.`);
  }
  if (fractionDigits > field.decimalPlaces) {
    return fail(`Ensure that there are no more than ${field.decimalPlaces} decimal places.`);
  }
  if (wholeDigits > field.maxDigits - field.decimalPlaces) {
    return fail(
      `Ensure that there are no more than ${field.maxDigits - field.decimalPlaces} digits before the decimal point.`,
    );
  }
  if (field.max !== undefined && number > field.max)
    return fail(`Ensure this value is less than or equal to ${field.max}.`);
  if (field.min !== undefined && number < field.min)
    return fail(`Ensure this value is greater than or equal to ${field.min}.`);
  return ok(number);
}
