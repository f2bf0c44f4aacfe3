import type { IpFamilyField } from '../spec.js';
import { decodeNumber, defineKind } from './kind.js';

/** The family (4 or 6) of an IP field of the same model, read from its hidden column as a choice. */
export const ipFamilyKind = defineKind<IpFamilyField>({
  kinds: ['ip_family'],
  types: ['ip_family'],
  properties: ['of'],
  derived: true,
  readOnly: true,
  columnName: (_name, def) => `${def.of ?? ''}_family`,
  resolve(def, ctx) {
    if (!def.of) ctx.error('of', "missing property 'of'");
    return { ...ctx.base, kind: 'ip_family', required: false, of: def.of ?? '' };
  },
  // A missing `of` has been reported while resolving the field.
  checkReferences(field, byName, error) {
    const of = byName.get(field.of);
    if (field.of && of?.kind !== 'ip_network' && of?.kind !== 'ip_interface')
      error('of', `'${field.of}' is not an IP field`);
  },
  column: () => null,
  valueType: () => 'number',
  readType: () => '{ value: 4 | 6; label: string }',
  readSchema: () => ({
    type: 'object',
    properties: { value: { type: 'integer', enum: [4, 6] }, label: { type: 'string', enum: ['IPv4', 'IPv6'] } },
    required: ['value', 'label'],
    additionalProperties: false,
  }),
  writeSchema: () => ({}),
  valueFilter: () => ({ valueKind: 'integer', lookups: 'exact' }),
  decode: (_field, raw) => decodeNumber(raw),
  present: (_field, value) => (value === null ? null : { value, label: value === 4 ? 'IPv4' : 'IPv6' }),
  options(_field, meta) {
    meta.type = 'field';
  },
  constraintValue: () => 'integer',
});
