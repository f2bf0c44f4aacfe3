import { isIP } from 'node:net';
import type { ListField } from '../spec.js';
import { decodeJsonValue, defineKind, EMPTY_LIST, fail, ok, pythonType, type Parsed } from './kind.js';

/** A list of strings, integers or IP networks, stored as JSON. */
export const listKind = defineKind<ListField>({
  kinds: ['list'],
  types: ['list'],
  properties: ['items', 'max_items', 'allow_empty', 'min_value', 'max_value'],
  resolve(def, ctx) {
    if ((def.min_value !== undefined || def.max_value !== undefined) && def.items !== 'integer')
      ctx.error('', 'min_value and max_value bound integer items only');
    return {
      ...ctx.base,
      kind: 'list',
      required: ctx.required,
      items: def.items ?? 'string',
      ...(def.max_items !== undefined ? { maxItems: def.max_items } : {}),
      ...(def.allow_empty === false ? { allowEmpty: false as const } : {}),
      ...(def.min_value !== undefined ? { min: def.min_value } : {}),
      ...(def.max_value !== undefined ? { max: def.max_value } : {}),
    };
  },
  column: () => ({ type: 'json' }),
  valueType: (field) => (field.items === 'integer' ? 'number[]' : 'string[]'),
  readSchema: (field) => ({ type: 'array', items: { type: field.items === 'integer' ? 'integer' : 'string' } }),
  writeSchema: (field) => ({
    type: 'array',
    items:
      field.items === 'integer'
        ? {
            type: 'integer',
            ...(field.min !== undefined ? { minimum: field.min } : {}),
            ...(field.max !== undefined ? { maximum: field.max } : {}),
          }
        : { type: 'string' },
    ...(field.maxItems !== undefined ? { maxItems: field.maxItems } : {}),
    ...(field.allowEmpty === false ? { minItems: 1 } : {}),
    ...(field.items === 'ip_network' ? { description: 'IPv4/IPv6 networks or addresses, e.g. `192.0.2.0/24`.' } : {}),
  }),
  parse: parseList,
  decode: (_field, raw) => decodeJsonValue(raw),
  encode: (_field, value) => JSON.stringify(value),
  options(field, meta) {
    meta.type = 'list';
    meta.child = { type: field.items === 'integer' ? 'integer' : 'string', required: true, read_only: false };
  },
  constraintValue: () => 'json',
});

function parseList(field: ListField, value: unknown): Parsed {
  if (!Array.isArray(value)) return fail(`Expected a list of items but got type "${pythonType(value)}".`);
  if (field.maxItems !== undefined && value.length > field.maxItems) {
    return fail(`Ensure this field has no more than ${field.maxItems} elements.`);
  }
  if (value.length === 0 && field.allowEmpty === false) return fail(EMPTY_LIST);
  const items: unknown[] = [];
  for (const item of value) {
    if (field.items === 'integer') {
      if (!Number.isInteger(item)) return fail('A valid integer is required.');
      if (field.min !== undefined && (item as number) < field.min)
        return fail(`Ensure this value is greater than or equal to ${field.min}.`);
      if (field.max !== undefined && (item as number) > field.max)
        return fail(`Ensure this value is less than or equal to ${field.max}.`);
      items.push(item);
    } else if (field.items === 'ip_network') {
      const network = typeof item === 'string' ? normalizeNetwork(item) : null;
      if (!network) return fail(`Enter a valid IPv4 or IPv6 address or network: ${String(item)}`);
      items.push(network);
    } else {
      if (typeof item !== 'string') return fail('Not a valid string.');
      items.push(item);
    }
  }
  return ok(items);
}

/** `192.0.2.0/24`, `2001:db8::/32` or a single address (host mask added); null when invalid. */
export function normalizeNetwork(text: string): string | null {
  const [address, mask, extra] = text.trim().split('/');
  if (extra !== undefined || !address) return null;
  const version = isIP(address);
  if (version === 0) return null;
  const max = version === 4 ? 32 : 128;
  if (mask === undefined) return `${address}/${max}`;
  if (!/^\d+$/.test(mask) || Number(mask) > max) return null;
  return `${address}/${Number(mask)}`;
}
