import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AsnRow, CountRow, PageSource, SiteRow, TagRow } from './baseline-sources.js';
import { closeServer } from './service.js';

/**
 * The baseline: the least work that honestly answers `GET /api/dcim/sites/?limit=N[&offset=M]` with the same
 * JSON as the service — bare node:http, one count query, one joined page query, one query each for the tags,
 * the ASNs and the related-object counts of the page, and the objects built by hand. It skips what a real service must also do (authentication, permissions, filters,
 * error bodies, request ids), so its rate is an upper bound the service is measured against.
 */

/** A listening baseline server. */
export interface RunningBaseline {
  port: number;
  close: () => Promise<void>;
}

const STATUS_LABELS: Record<string, string> = {
  planned: 'Planned',
  staging: 'Staging',
  active: 'Active',
  decommissioning: 'Decommissioning',
  retired: 'Retired',
};

/** Starts the baseline on an ephemeral port of 127.0.0.1; `close` also closes the source. */
export async function startBaseline(source: PageSource, pageSize = 50, maxPageSize = 1000): Promise<RunningBaseline> {
  const server = http.createServer((req, res) => {
    answer(source, req, pageSize, maxPageSize).then(
      ({ status, body }) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(body);
      },
      (error: unknown) => {
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ detail: String(error) }));
      },
    );
  });
  server.keepAliveTimeout = 5000;
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      await closeServer(server);
      await source.close();
    },
  };
}

async function answer(
  source: PageSource,
  req: http.IncomingMessage,
  pageSize: number,
  maxPageSize: number,
): Promise<{ status: number; body: string }> {
  const origin = `http://${req.headers.host ?? 'localhost'}`;
  const url = new URL(req.url ?? '/', origin);
  if (req.method !== 'GET' || url.pathname !== '/api/dcim/sites/')
    return { status: 404, body: '{"detail":"Not found."}' };
  const rawLimit = url.searchParams.get('limit');
  const rawOffset = url.searchParams.get('offset');
  const limit = Math.min(rawLimit !== null && /^[1-9]\d*$/.test(rawLimit) ? Number(rawLimit) : pageSize, maxPageSize);
  const offset = rawOffset !== null && /^\d+$/.test(rawOffset) ? Number(rawOffset) : 0;

  const count = await source.count();
  const rows = await source.page(limit, offset);
  const ids = rows.map((r) => r.id);
  const tags = await source.tags(ids);
  const asns = await source.asns(ids);
  const counts = new Map((await source.counts(ids)).map((c) => [Number(c.id), c]));

  const api = `${origin}/api`;
  const tagsBySite = new Map<number, unknown[]>();
  for (const tag of tags) {
    let list = tagsBySite.get(tag.object_id);
    if (!list) tagsBySite.set(tag.object_id, (list = []));
    list.push(renderTag(origin, api, tag));
  }
  const asnsBySite = new Map<number, unknown[]>();
  for (const asn of asns) {
    let list = asnsBySite.get(asn.site_id);
    if (!list) asnsBySite.set(asn.site_id, (list = []));
    list.push(renderAsn(api, asn));
  }
  const link = (nextOffset: number | null): string => {
    const target = new URL(url.href);
    target.searchParams.set('limit', String(limit));
    if (nextOffset === null) target.searchParams.delete('offset');
    else target.searchParams.set('offset', String(nextOffset));
    return target.href;
  };
  const page = {
    count,
    next: offset + limit < count ? link(offset + limit) : null,
    previous: offset > 0 ? link(offset - limit <= 0 ? null : offset - limit) : null,
    results: rows.map((row) =>
      renderSite(origin, api, row, tagsBySite.get(row.id) ?? [], asnsBySite.get(row.id) ?? [], counts.get(row.id)),
    ),
  };
  return { status: 200, body: JSON.stringify(page) };
}

function renderSite(
  origin: string,
  api: string,
  row: SiteRow,
  tags: unknown[],
  asns: unknown[],
  counts: CountRow | undefined,
): Record<string, unknown> {
  return {
    id: row.id,
    url: `${api}/dcim/sites/${row.id}/`,
    display_url: `${origin}/dcim/sites/${row.id}/`,
    display: row.name,
    name: row.name,
    slug: row.slug,
    status: { value: row.status, label: STATUS_LABELS[row.status] ?? '' },
    region:
      row.region_id === null
        ? null
        : treeNested(api, 'dcim/regions', row.region_id, row.r_name, row.r_slug, row.r_description, row.r_depth),
    group:
      row.group_id === null
        ? null
        : treeNested(api, 'dcim/site-groups', row.group_id, row.g_name, row.g_slug, row.g_description, row.g_depth),
    tenant:
      row.tenant_id === null
        ? null
        : {
            id: row.tenant_id,
            url: `${api}/tenancy/tenants/${row.tenant_id}/`,
            display: row.t_name,
            name: row.t_name,
            slug: row.t_slug,
            description: row.t_description,
          },
    facility: row.facility,
    time_zone: row.time_zone,
    description: row.description,
    physical_address: row.physical_address,
    shipping_address: row.shipping_address,
    latitude: row.latitude,
    longitude: row.longitude,
    comments: row.comments,
    asns,
    tags,
    custom_fields: {},
    created: renderTimestamp(row.created),
    last_updated: renderTimestamp(row.last_updated),
    circuit_count: Number(counts?.circuit_count ?? 0),
    device_count: Number(counts?.device_count ?? 0),
    prefix_count: Number(counts?.prefix_count ?? 0),
    rack_count: Number(counts?.rack_count ?? 0),
    virtualmachine_count: Number(counts?.virtualmachine_count ?? 0),
    vlan_count: Number(counts?.vlan_count ?? 0),
  };
}

function renderAsn(api: string, asn: AsnRow): Record<string, unknown> {
  const number = Number(asn.asn);
  return {
    id: asn.id,
    url: `${api}/ipam/asns/${asn.id}/`,
    display: `AS${number}`,
    asn: number,
    description: asn.description,
  };
}

/** A region or site group nested in a site; its site count is not computed when nested (NetBox shows 0). */
function treeNested(
  api: string,
  path: string,
  id: number,
  name: string,
  slug: string,
  description: string,
  depth: number,
): Record<string, unknown> {
  return { id, url: `${api}/${path}/${id}/`, display: name, name, slug, description, site_count: 0, _depth: depth };
}

function renderTag(origin: string, api: string, tag: TagRow): Record<string, unknown> {
  return {
    id: tag.id,
    url: `${api}/extras/tags/${tag.id}/`,
    display_url: `${origin}/extras/tags/${tag.id}/`,
    display: tag.name,
    name: tag.name,
    slug: tag.slug,
    color: tag.color,
  };
}

/** DRF's form: microseconds only when they are not zero. */
function renderTimestamp(stored: string | null): string | null {
  if (stored === null) return null;
  return stored.endsWith('.000000Z') ? `${stored.slice(0, -8)}Z` : stored;
}
