import { randomUUID } from 'node:crypto';
import type { RenderContext } from './render.js';

/**
 * A site root that no stored value begins with (random per process, never sent): objects rendered under it
 * once can be given the request's absolute root for a response and the relative one for a webhook body, so
 * that a write reads its objects once for both.
 */
const MARK = `\u0000${randomUUID()}\u0000`;

/** The URL roots of a marked rendering. */
export function markedRoots(): Pick<RenderContext, 'apiRoot' | 'siteRoot'> {
  return { siteRoot: MARK, apiRoot: `${MARK}/api` };
}

/** A copy of a marked rendering whose URLs start at `siteRoot` (`''`: paths only; a request's: absolute). */
export function withSiteRoot<T>(value: T, siteRoot: string): T {
  if (typeof value === 'string') return (value.startsWith(MARK) ? siteRoot + value.slice(MARK.length) : value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => withSiteRoot(item, siteRoot)) as T;
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = withSiteRoot((value as Record<string, unknown>)[key], siteRoot);
  return copy as T;
}
