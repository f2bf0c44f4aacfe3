import type { AliasField } from '../spec.js';
import { defineKind } from './kind.js';

/** Another stored field's value under a second name (read-only). */
export const aliasKind = defineKind<AliasField>({
  kinds: ['alias'],
  types: ['alias'],
  properties: ['of'],
  derived: true,
  readOnly: true,
  resolve(def, ctx) {
    if (!def.of) ctx.error('of', "missing property 'of'");
    return { ...ctx.base, kind: 'alias', required: false, of: def.of ?? '' };
  },
  // A missing `of` has been reported while resolving the field.
  checkReferences(field, byName, error) {
    const of = byName.get(field.of);
    if (field.of && (!of?.column || of.kind === 'alias')) error('of', `'${field.of}' is not a stored field`);
  },
  column: () => null,
  valueType: () => 'unknown',
  readSchema: () => ({}),
  writeSchema: () => ({}),
  options(_field, meta) {
    meta.type = 'field';
  },
  constraintValue: () => 'text',
});
