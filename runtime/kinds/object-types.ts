import type { ObjectTypesField } from '../spec.js';
import { decodeJsonValue, defineKind, EMPTY_LIST, fail, ok, pythonType } from './kind.js';

/** A list of content types (`app.model`), optionally of the models with a feature; stored as JSON. */
export const objectTypesKind = defineKind<ObjectTypesField>({
  kinds: ['object_types'],
  types: ['object_types'],
  properties: ['feature', 'allow_empty'],
  resolve: (def, ctx) => ({
    ...ctx.base,
    kind: 'object_types',
    required: ctx.required,
    ...(def.feature ? { feature: def.feature } : {}),
    ...(def.allow_empty === false ? { allowEmpty: false as const } : {}),
  }),
  column: () => ({ type: 'json' }),
  valueType: () => 'string[]',
  readSchema: () => ({ type: 'array', items: { type: 'string' } }),
  writeSchema(field, ctx) {
    const labels = [...ctx.models.values()]
      .filter((m) => !field.feature || m.features.includes(field.feature))
      .map((m) => m.label)
      .sort();
    return {
      type: 'array',
      items: { type: 'string', enum: labels },
      ...(field.allowEmpty === false ? { minItems: 1 } : {}),
    };
  },
  parse(field, value) {
    if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
      return fail(`Expected a list of items but got type "${pythonType(value)}".`);
    }
    if (value.length === 0 && field.allowEmpty === false) return fail(EMPTY_LIST);
    return ok(value);
  },
  decode: (_field, raw) => decodeJsonValue(raw),
  encode: (_field, value) => JSON.stringify(value),
  options(_field, meta) {
    meta.type = 'field';
  },
  constraintValue: () => 'json',
});
