import type { BooleanField } from '../spec.js';
import { defineKind, fail, ok } from './kind.js';

/** True or false; 0/1 on SQLite. */
export const booleanKind = defineKind<BooleanField>({
  kinds: ['boolean'],
  types: ['boolean'],
  properties: [],
  resolve: (_def, ctx) => ({ ...ctx.base, kind: 'boolean', required: ctx.required }),
  column: () => ({ type: 'boolean' }),
  valueType: () => 'boolean',
  readSchema: () => ({ type: 'boolean' }),
  writeSchema: () => ({ type: 'boolean' }),
  valueFilter: () => ({ valueKind: 'boolean', lookups: 'exact' }),
  parse(_field, value) {
    if (value === true || value === false) return ok(value);
    if (value === 1 || value === 0) return ok(value === 1);
    if (typeof value === 'string') {
      const lowered = value.trim().toLowerCase();
      if (['true', '1', 'yes', 'on', 't', 'y'].includes(lowered)) return ok(true);
      if (['false', '0', 'no', 'off', 'f', 'n'].includes(lowered)) return ok(false);
    }
    return fail('Must be a valid boolean.');
  },
  decode: (_field, raw) => raw === true || raw === 1 || raw === '1',
  encode: (_field, value, dialect) => (dialect === 'sqlite' ? (value ? 1 : 0) : value),
  options(_field, meta) {
    meta.type = 'boolean';
  },
  constraintValue: () => 'boolean',
});
