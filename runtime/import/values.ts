/**
 * NetBox column values as the service's write path takes them (API input): most are the same; a few kinds are
 * stored in another shape.
 */
import type { FieldSpec } from '../spec.js';
import type { NetboxValueTransform } from '../domain/netbox-import.js';

/** A NetBox column value as API input for `field`. */
export function toInput(field: FieldSpec, value: unknown, transform?: NetboxValueTransform): unknown {
  if (value === undefined) return undefined;
  if (transform === 'int_ranges') return integerRanges(value);
  // NetBox's null where the service keeps a default instead (a token's allowed IPs: none means any).
  if (value === null) return !field.nullable && field.default !== undefined ? undefined : null;
  if (field.kind === 'fk') return Number(value);
  // NetBox keeps some empty values as '' where the service keeps null (a site's time zone).
  if (value === '' && field.nullable && (field.kind === 'string' || field.kind === 'choice') && !field.blank)
    return null;
  return value;
}

/** PostgreSQL `int4range[]` text (`{"[1,4095)","[5000,5011)"}`) → inclusive pairs (`[[1, 4094], [5000, 5010]]`). */
export function integerRanges(value: unknown): unknown {
  if (value === null) return null;
  const text = Array.isArray(value) ? value.join(',') : String(value);
  const pairs: [number, number][] = [];
  for (const match of text.matchAll(/([[(])\s*(-?\d+)\s*,\s*(-?\d+)\s*([\])])/g)) {
    const [, open, low, high, close] = match;
    pairs.push([Number(low) + (open === '(' ? 1 : 0), Number(high) - (close === ')' ? 1 : 0)]);
  }
  return pairs;
}
