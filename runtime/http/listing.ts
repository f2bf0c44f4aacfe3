/** What list and action responses share: the models' `present` hooks and absolute pagination links. */
import type { AppContext } from './app-context.js';
import { type RequestState } from './request-state.js';
import { parsePagination } from '../rest/params.js';
import type { ModelInfo } from '../rest/schema.js';
type Row = Record<string, unknown>;

/** Applies a model's `present` hook to rendered objects (`transient`: per-object data of the write). */
export function presentObjects(
  app: AppContext,
  model: ModelInfo,
  objects: Row[],
  transient?: Map<number, Record<string, unknown>>,
): Row[] {
  const hook = model.spec.hooks.present;
  if (hook) {
    const fn = app.domain.present(hook);
    for (const object of objects) fn(object, transient?.get(object.id as number));
  }
  return objects;
}

/** Absolute `next`/`previous` links that keep every other parameter once. */
export function pageLinks(
  state: RequestState,
  pagination: ReturnType<typeof parsePagination>,
  count: number | null,
  results: readonly unknown[],
): { next: string | null; previous: string | null } {
  const link = (changes: Record<string, string | null>): string => {
    const url = new URL(state.url.href);
    for (const [name, value] of Object.entries(changes)) {
      if (value === null) url.searchParams.delete(name);
      else url.searchParams.set(name, value);
    }
    return url.href;
  };
  const limit = pagination.limit;
  if (pagination.mode === 'cursor') {
    if (limit === null || results.length < limit) return { next: null, previous: null };
    const lastId = (results[results.length - 1] as { id?: number }).id;
    if (lastId === undefined) return { next: null, previous: null };
    return { next: link({ start: String(lastId + 1), limit: String(limit), offset: null }), previous: null };
  }
  if (limit === null) return { next: null, previous: null };
  const offset = pagination.offset;
  const next =
    count !== null && offset + limit < count ? link({ limit: String(limit), offset: String(offset + limit) }) : null;
  let previous: string | null = null;
  if (offset > 0)
    previous =
      offset - limit <= 0
        ? link({ limit: String(limit), offset: null })
        : link({ limit: String(limit), offset: String(offset - limit) });
  return { next, previous };
}
