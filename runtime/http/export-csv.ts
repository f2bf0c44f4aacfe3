import type { ModelInfo } from '../rest/schema.js';

/**
 * The list as CSV, the way NetBox's table export writes cells: a column per key under its label, related
 * objects by their display text, choices by their label, lists joined with commas, booleans as Python prints
 * them, nothing for null. Rows end with CRLF, as Python's csv module writes them.
 */

/** The header line: each key's label (`ID` for id), as NetBox's columns are headed by verbose names. */
export function csvHeader(model: ModelInfo, keys: readonly string[]): string {
  return line(keys.map((key) => (key === 'id' ? 'ID' : labelOf(model, key))));
}

/** One object's line. */
export function csvRow(keys: readonly string[], object: Record<string, unknown>): string {
  return line(keys.map((key) => cellText(object[key])));
}

function labelOf(model: ModelInfo, key: string): string {
  const label = model.fields.get(key)?.label ?? key.replace(/_/g, ' ');
  return label.charAt(0).toUpperCase() + label.slice(1);
}

/** A cell's text. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'True' : 'False';
  if (typeof value !== 'object') return String(value as string | number);
  if (Array.isArray(value)) return value.map(cellText).join(',');
  const record = value as Record<string, unknown>;
  if ('label' in record && 'value' in record) return cellText(record.label);
  if ('display' in record) return cellText(record.display);
  if ('name' in record) return cellText(record.name);
  return JSON.stringify(value);
}

function line(cells: readonly string[]): string {
  return `${cells.map(quote).join(',')}\r\n`;
}

/** Python's csv.QUOTE_MINIMAL: quoted when the cell holds a comma, a quote or a line break. */
function quote(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}
