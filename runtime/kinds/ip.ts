import { parseIp } from '../rest/ip.js';
import type { IpField } from '../spec.js';
import { defineKind, fail, ok } from './kind.js';

/**
 * An IPv4/IPv6 network (`ip_network`, host bits clear) or an address with its mask (`ip_interface`).
 * Hidden columns `<column>_family`, `_start`, `_end` and `_len` make ordering and containment numeric.
 */
export const ipKind = defineKind<IpField>({
  kinds: ['ip_network', 'ip_interface'],
  types: ['ip_network', 'ip_interface'],
  properties: ['allow_zero'],
  resolve: (def, ctx) => ({
    ...ctx.base,
    kind: def.type as IpField['kind'],
    required: ctx.required,
    allowZero: def.allow_zero ?? false,
  }),
  column: () => ({ type: 'string', maxLength: 64 }),
  valueType: () => 'string',
  readSchema: () => ({ type: 'string' }),
  writeSchema: (field) =>
    field.kind === 'ip_network'
      ? { type: 'string', description: 'A network in CIDR notation, e.g. `192.0.2.0/24` or `2001:db8::/32`.' }
      : { type: 'string', description: 'An address with its mask, e.g. `192.0.2.1/24`.' },
  filters: (field) =>
    field.kind === 'ip_network'
      ? [
          { kind: 'network', name: field.name, field: field.name, op: 'exact' },
          { kind: 'network', name: 'within', field: field.name, op: 'within' },
          { kind: 'network', name: 'within_include', field: field.name, op: 'within_include' },
          { kind: 'network', name: 'contains', field: field.name, op: 'contains' },
          { kind: 'network', name: 'mask_length', field: field.name, op: 'mask_length' },
        ]
      : [
          { kind: 'network', name: field.name, field: field.name, op: 'address' },
          { kind: 'network', name: 'parent', field: field.name, op: 'parent' },
          { kind: 'network', name: 'mask_length', field: field.name, op: 'mask_length' },
        ],
  parse(field, value) {
    const parsed = typeof value === 'string' ? parseIp(value) : null;
    if (field.kind === 'ip_interface') {
      if (!parsed) return fail(`Invalid IP address format: ${String(value)}`);
      return ok(`${parsed.address}/${parsed.len}`);
    }
    if (!parsed) return fail(`Invalid IP prefix format: ${String(value)}`);
    if (parsed.address !== parsed.network) {
      return fail(`${String(value).trim()} is not a valid prefix. Did you mean ${parsed.network}/${parsed.len}?`);
    }
    return ok(`${parsed.network}/${parsed.len}`);
  },
  options(_field, meta) {
    meta.type = 'string';
  },
  constraintValue: () => 'text',
});
