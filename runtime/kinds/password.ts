import type { PasswordField } from '../spec.js';
import { defineKind, fail, ok } from './kind.js';

/** A password: written only, stored as the hash a prepare hook makes of it. */
export const passwordKind = defineKind<PasswordField>({
  kinds: ['password'],
  types: ['password'],
  properties: ['max_length'],
  writeOnly: true,
  resolve: (def, ctx) => ({ ...ctx.base, kind: 'password', required: ctx.required, maxLength: def.max_length ?? 128 }),
  column: (field) => ({ type: 'string', maxLength: field.maxLength }),
  valueType: () => 'string',
  readSchema: () => ({ type: 'string' }),
  writeSchema: (field) => ({ type: 'string', format: 'password', minLength: 1, maxLength: field.maxLength }),
  parse(field, value) {
    if (typeof value === 'boolean' || (typeof value !== 'string' && typeof value !== 'number'))
      return fail('Not a valid string.');
    const text = String(value);
    if (text === '') return fail('This field may not be blank.');
    if ([...text].length > field.maxLength) {
      return fail(`Ensure this field has no more than ${field.maxLength} characters.`);
    }
    return ok(text);
  },
  options(field, meta) {
    meta.type = 'string';
    meta.max_length = field.maxLength;
  },
  constraintValue: () => 'text',
});
