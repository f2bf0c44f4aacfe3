import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { PageSource } from './baseline-sources.js';
import type { Page, Roots } from './baseline-common.js';
import { siteDetail, sitePage } from './baseline-sites.js';
import { devicePage } from './baseline-devices.js';
import { createDevices, createSite, patchSite, type Actor } from './baseline-writes.js';
import { closeServer } from './service.js';

/**
 * The baseline: the least work that honestly answers the benchmark's pages with the same JSON as the service
 * — bare node:http, the same token check (the header compared with the one token the benchmark uses: the
 * service checks a cached verification), hand-written SQL, and the objects built by hand. It skips what a
 * real service must also do (permissions, filters, error bodies, request ids), so its rate is an upper bound
 * the service is measured against.
 *
 * Pages: `/api/dcim/sites/` (`limit`, `offset`, `brief`), `/api/dcim/sites/<id>/` and `/api/dcim/devices/`
 * (`limit`, `offset`, `brief`, `exclude=config_context`). Writes (`baseline-writes.ts`): `POST /api/dcim/sites/`
 * of one site, `PATCH /api/dcim/sites/<id>/`, `POST /api/dcim/devices/` of one device or a list.
 */

/** A listening baseline server. */
export interface RunningBaseline {
  port: number;
  close: () => Promise<void>;
}

const NOT_FOUND = '{"detail":"Not found."}';

/** Starts the baseline on an ephemeral port of 127.0.0.1; `close` also closes the source. */
export async function startBaseline(
  source: PageSource,
  authorization: string,
  actor: Actor,
  pageSize = 50,
  maxPageSize = 1000,
): Promise<RunningBaseline> {
  const expected = Buffer.from(authorization);
  const server = http.createServer((req, res) => {
    const given = Buffer.from(req.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.writeHead(403, { 'Content-Type': 'application/json' });
      res.end('{"detail":"Invalid token"}');
      return;
    }
    answer(source, req, actor, pageSize, maxPageSize).then(
      ({ status, body, headers }) => {
        res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
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
  actor: Actor,
  pageSize: number,
  maxPageSize: number,
): Promise<{ status: number; body: string; headers?: Record<string, string> }> {
  const origin = `http://${req.headers.host ?? 'localhost'}`;
  const url = new URL(req.url ?? '/', origin);
  const roots: Roots = { api: `${origin}/api`, site: origin };
  const detail = /^\/api\/dcim\/sites\/(\d+)\/$/.exec(url.pathname);
  if (req.method === 'POST' || req.method === 'PATCH') {
    const body = JSON.parse(await readBody(req)) as Record<string, unknown> | Record<string, unknown>[];
    const requestId = randomUUID();
    if (req.method === 'PATCH' && detail && !Array.isArray(body)) {
      const site = await patchSite(source, roots, actor, requestId, Number(detail[1]), body);
      return site ? { status: 200, body: JSON.stringify(site) } : { status: 404, body: NOT_FOUND };
    }
    if (req.method === 'POST' && url.pathname === '/api/dcim/sites/' && !Array.isArray(body)) {
      const site = await createSite(source, roots, actor, requestId, body);
      return { status: 201, body: JSON.stringify(site), headers: { Location: String(site.url) } };
    }
    if (req.method === 'POST' && url.pathname === '/api/dcim/devices/') {
      const devices = await createDevices(source, roots, actor, requestId, Array.isArray(body) ? body : [body]);
      if (Array.isArray(body)) return { status: 201, body: JSON.stringify(devices) };
      return { status: 201, body: JSON.stringify(devices[0]), headers: { Location: String(devices[0]!.url) } };
    }
    return { status: 405, body: NOT_FOUND };
  }
  if (req.method !== 'GET') return { status: 405, body: NOT_FOUND };
  if (detail) {
    const found = await siteDetail(source, roots, Number(detail[1]));
    if (!found) return { status: 404, body: NOT_FOUND };
    return { status: 200, body: JSON.stringify(found.body), headers: { ETag: found.etag } };
  }
  const brief = url.searchParams.get('brief') === '1';
  const page = pageOf(url, pageSize, maxPageSize);
  if (url.pathname === '/api/dcim/sites/') {
    return { status: 200, body: JSON.stringify(await sitePage(source, roots, page, brief)) };
  }
  if (url.pathname === '/api/dcim/devices/') {
    const mode = brief ? 'brief' : url.searchParams.get('exclude') === 'config_context' ? 'no-context' : 'complete';
    return { status: 200, body: JSON.stringify(await devicePage(source, roots, page, mode)) };
  }
  return { status: 404, body: NOT_FOUND };
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function pageOf(url: URL, pageSize: number, maxPageSize: number): Page {
  const rawLimit = url.searchParams.get('limit');
  const rawOffset = url.searchParams.get('offset');
  const limit = Math.min(rawLimit !== null && /^[1-9]\d*$/.test(rawLimit) ? Number(rawLimit) : pageSize, maxPageSize);
  const offset = rawOffset !== null && /^\d+$/.test(rawOffset) ? Number(rawOffset) : 0;
  const link = (nextOffset: number | null): string => {
    const target = new URL(url.href);
    target.searchParams.set('limit', String(limit));
    if (nextOffset === null) target.searchParams.delete('offset');
    else target.searchParams.set('offset', String(nextOffset));
    return target.href;
  };
  return {
    limit,
    offset,
    envelope: (count, results) => ({
      count,
      next: offset + limit < count ? link(offset + limit) : null,
      previous: offset > 0 ? link(offset - limit <= 0 ? null : offset - limit) : null,
      results,
    }),
  };
}
