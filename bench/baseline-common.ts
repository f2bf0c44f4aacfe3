/** What every baseline page shares: URL roots, pagination and the stored-timestamp form. */

type Row = Record<string, any>;

/** `http://host/api` and `http://host`. */
export interface Roots {
  api: string;
  site: string;
}

/** A page's limit and offset, and its `{count, next, previous, results}` envelope. */
export interface Page {
  limit: number;
  offset: number;
  envelope(count: number, results: unknown[]): unknown;
}

/** DRF's form: microseconds only when they are not zero. */
export function timestamp(stored: string | null): string | null {
  if (stored === null || stored === undefined) return null;
  return stored.endsWith('.000000Z') ? `${stored.slice(0, -8)}Z` : stored;
}

/** Rows grouped by a numeric column, each rendered, in row order. */
export function groupBy(rows: readonly Row[], column: string, render: (row: Row) => unknown): Map<number, unknown[]> {
  const result = new Map<number, unknown[]>();
  for (const row of rows) {
    const key = Number(row[column]);
    let list = result.get(key);
    if (!list) result.set(key, (list = []));
    list.push(render(row));
  }
  return result;
}

/** Python's `val and isinstance(val, dict)` merge of NetBox's config contexts. */
export function deepMerge(base: Record<string, unknown>, overlay: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base };
  for (const key of Object.keys(overlay)) {
    const value = overlay[key];
    const current = result[key];
    const merge = isObject(current) && isObject(value) && Object.keys(value).length > 0;
    result[key] = merge ? deepMerge(current, value) : value;
  }
  return result;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
