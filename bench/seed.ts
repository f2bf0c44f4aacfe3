import http from 'node:http';
import { requestJson } from './http-client.js';
import { siteBody, type SeedRefs } from './site-body.js';

/** How many objects the seed creates. */
export interface SeedSize {
  sites: number;
  regions: number;
  tenants: number;
  tags: number;
  /** Sites per bulk POST. */
  chunk: number;
}

/** What the seed created and how long the sites took. */
export interface SeedResult {
  refs: SeedRefs;
  siteIds: number[];
  /** Wall time of the whole seed, milliseconds. */
  totalMs: number;
  /** Wall time of each bulk POST of sites, milliseconds. */
  chunkMs: number[];
}

const COLORS = ['f44336', '2196f3', '4caf50', 'ff9800', '9c27b0', '00bcd4', '795548', '607d8b', 'e91e63', 'cddc39'];

/**
 * Seeds through the API's bulk POSTs, so that the seed itself exercises validation, nested references and
 * tag assignment: tags, tenants, regions (a fifth top-level, the rest children of those), then the sites.
 */
export async function seedThroughApi(port: number, authorization: string, size: SeedSize): Promise<SeedResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const headers = { authorization };
  const post = <T>(path: string, body: unknown): Promise<T> =>
    requestJson<T>(agent, port, 'POST', path, headers, 201, body);
  const idsOf = (objects: { id: number }[]): number[] => objects.map((o) => o.id);
  const started = performance.now();
  try {
    const tagIds = idsOf(
      await post<{ id: number }[]>(
        '/api/extras/tags/',
        range(size.tags).map((i) => ({ name: `Tag ${i + 1}`, slug: `tag-${i + 1}`, color: COLORS[i % COLORS.length] })),
      ),
    );
    const tenantIds = idsOf(
      await post<{ id: number }[]>(
        '/api/tenancy/tenants/',
        range(size.tenants).map((i) => ({ name: `Tenant ${i + 1}`, slug: `tenant-${i + 1}` })),
      ),
    );
    const topLevel = Math.max(1, Math.floor(size.regions / 4));
    const parents = idsOf(
      await post<{ id: number }[]>(
        '/api/dcim/regions/',
        range(topLevel).map((i) => ({ name: `Region ${i + 1}`, slug: `region-${i + 1}` })),
      ),
    );
    const children = range(size.regions - topLevel).map((i) => ({
      name: `Region ${parents.length + i + 1}`,
      slug: `region-${parents.length + i + 1}`,
      parent: parents[i % parents.length],
    }));
    const childIds = children.length ? idsOf(await post<{ id: number }[]>('/api/dcim/regions/', children)) : [];
    const refs: SeedRefs = { regionIds: [...parents, ...childIds], tenantIds, tagIds };

    const siteIds: number[] = [];
    const chunkMs: number[] = [];
    for (let start = 0; start < size.sites; start += size.chunk) {
      const count = Math.min(size.chunk, size.sites - start);
      const body = range(count).map((i) => siteBody('site', start + i, refs));
      const chunkStarted = performance.now();
      siteIds.push(...idsOf(await post<{ id: number }[]>('/api/dcim/sites/', body)));
      chunkMs.push(performance.now() - chunkStarted);
    }
    return { refs, siteIds, totalMs: performance.now() - started, chunkMs };
  } finally {
    agent.destroy();
  }
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
