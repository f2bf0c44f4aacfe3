import type { FieldSpec } from '../spec.js';
import { kindOf } from '../kinds/index.js';

/**
 * Turns a raw database value into its JavaScript value (same on both dialects): SQLite booleans are 0/1
 * and JSON is text there.
 */
export function decodeColumn(field: FieldSpec, raw: unknown): unknown {
  if (raw === null || raw === undefined) return null;
  const kind = kindOf(field);
  return kind.decode ? kind.decode(field, raw) : raw;
}

/** `decodeColumn` for one field, with its kind looked up once (for code that decodes many rows). */
export function columnDecoder(field: FieldSpec | undefined): (raw: unknown) => unknown {
  const kind = field ? kindOf(field) : undefined;
  if (!field || !kind?.decode) return (raw) => raw ?? null;
  return (raw) => (raw === null || raw === undefined ? null : kind.decode!(field, raw));
}

/** `presentValue(field, decodeColumn(field, raw))`, with the kind looked up once. */
export function columnPresenter(field: FieldSpec): (raw: unknown) => unknown {
  const decode = columnDecoder(field);
  const kind = kindOf(field);
  return kind.present ? (raw) => kind.present!(field, decode(raw)) : decode;
}

/** A stored row's field values by name (FKs as ids; the id itself is not a field). */
export function decodeRow(fields: readonly FieldSpec[], row: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of fields) if (field.column) values[field.name] = decodeColumn(field, row[field.column]);
  return values;
}

/** Values by field name as a row to write: column → encoded value. */
export function encodeRow(
  fields: ReadonlyMap<string, FieldSpec>,
  values: Record<string, unknown>,
  dialect: 'sqlite' | 'postgres',
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => {
      const field = fields.get(name);
      if (!field?.column) throw new Error(`no stored field '${name}'`);
      return [field.column, encodeColumn(field, value, dialect)];
    }),
  );
}

/** Decodes a JSON column (custom field data and the like). */
export function decodeJson(raw: unknown): unknown {
  if (raw === null || raw === undefined) return null;
  return typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw;
}

/** Encodes a value for a column: JSON as text on SQLite, booleans as 0/1 there. */
export function encodeColumn(field: FieldSpec, value: unknown, dialect: 'sqlite' | 'postgres'): unknown {
  if (value === null || value === undefined) return value ?? null;
  const kind = kindOf(field);
  return kind.encode ? kind.encode(field, value, dialect) : value;
}

/** The API representation of a decoded value: choices as `{value, label}`, timestamps in DRF's format. */
export function presentValue(field: FieldSpec, value: unknown): unknown {
  const kind = kindOf(field);
  return kind.present ? kind.present(field, value) : value;
}

/** Python's repr of a JSON-like value, for NetBox's "…provided attributes: {'slug': 'x'}" messages. */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => `${pythonRepr(k)}: ${pythonRepr(v)}`)
      .join(', ')}}`;
  }
  return String(value);
}

/** `True`/`False`/`true`/`false`/`1`/`0`; null for anything else. */
export function parseBoolean(raw: string): boolean | null {
  const lowered = raw.trim().toLowerCase();
  if (lowered === 'true' || lowered === '1') return true;
  if (lowered === 'false' || lowered === '0') return false;
  return null;
}
