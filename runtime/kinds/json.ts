import type { JsonField } from '../spec.js';
import { decodeJsonValue, defineKind, ok } from './kind.js';

/** Any JSON value; text on SQLite. */
export const jsonKind = defineKind<JsonField>({
  kinds: ['json'],
  types: ['json'],
  properties: ['filter_prefix'],
  resolve: (def, ctx) => ({
    ...ctx.base,
    kind: 'json',
    required: ctx.required,
    ...(def.filter_prefix ? { filterPrefix: def.filter_prefix } : {}),
  }),
  column: () => ({ type: 'json' }),
  valueType: () => 'unknown',
  readSchema: () => ({}),
  writeSchema: () => ({}),
  parse: (_field, value) => ok(value),
  decode: (_field, raw) => decodeJsonValue(raw),
  encode: (_field, value) => JSON.stringify(value),
  options(_field, meta) {
    meta.type = 'field';
  },
  constraintValue: () => 'json',
});
