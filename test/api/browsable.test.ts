import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestState } from '../../runtime/http/middleware.js';
import { sendJson } from '../../runtime/http/respond.js';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/** What Chromium sends when it opens a page. */
const BROWSER_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8';
const HOSTILE = '<script>alert(1)</script>';

const escape = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The browsable API: browsers get HTML pages of the JSON (links, headers, pagination, an editable query
 * line), every other client the JSON exactly as before.
 */
describe.each(DIALECTS)('the browsable API on %s', (dialect) => {
  let app: TestApp;
  let siteId: number;
  let hostileId: number;

  const browse = (path: string, accept = BROWSER_ACCEPT) => app.api.get(path, { headers: { Accept: accept } });

  beforeAll(async () => {
    app = await startTestApp(dialect);
    for (const [name, slug] of [
      ['AMS1', 'ams1'],
      ['PAR1', 'par1'],
    ]) {
      const site = await app.api.post('/api/dcim/sites/', { name, slug, description: 'https://evil.example/x' });
      expect(site.status, site.text).toBe(201);
      siteId = site.body.id;
    }
    const hostile = await app.api.post('/api/dcim/sites/', {
      name: HOSTILE,
      slug: 'hostile',
      comments: `javascript:alert(1) ${app.baseUrl}/api/"onmouseover="alert(1)`,
    });
    expect(hostile.status, hostile.text).toBe(201);
    hostileId = hostile.body.id;
  });
  afterAll(async () => app?.close());

  it('shows the API root with its links, status line and headers', async () => {
    const page = await browse('/api/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('vary')).toBe('Accept');
    expect(page.text).toMatch(/^<!doctype html>/);
    expect(page.text).toContain('<h1>API Root</h1>');
    expect(page.text).toContain(`<a href="${app.baseUrl}/api/dcim/">&quot;${app.baseUrl}/api/dcim/&quot;</a>`);
    expect(page.text).toContain('<strong>HTTP 200 OK</strong>');
    expect(page.text).toContain('API-Version: 4.6');
    expect(page.text).toContain(`X-Request-ID: ${page.headers.get('x-request-id')}`);
    expect(page.text).toContain('Allow: GET, HEAD, OPTIONS');
    expect(page.text).toContain('Content-Type: application/json');
    expect(page.text).toContain('Signed in as <strong>admin</strong>');
    expect(page.text).toContain('href="/logout/"');
    expect(page.text).not.toContain('<script');
  });

  it('shows a list with pagination links and the query line holding the query', async () => {
    const json = await app.api.get('/api/dcim/sites/?brief=1&limit=1&offset=1');
    const page = await browse('/api/dcim/sites/?brief=1&limit=1&offset=1');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Sites</h1>');
    expect(page.text).toContain(`<a rel="next" href="${escape(json.body.next)}">`);
    expect(page.text).toContain(`<a rel="prev" href="${escape(json.body.previous)}">`);
    expect(page.text).toContain('<span>3 objects</span>');
    expect(page.text).toContain('name="_query" value="brief=1&amp;limit=1&amp;offset=1"');
    expect(page.text).toContain('<form class="query" method="get" action="/api/dcim/sites/">');
    expect(page.text).toContain(`href="/api/dcim/sites/?brief=1&amp;limit=1&amp;offset=1&amp;format=json"`);
    expect(page.text).toContain('<code>fields=id,name</code>');
    expect(page.text).toMatch(/Allow: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS|Allow: GET, POST/);
    const crumbs = `<a href="${app.baseUrl}/api/">API Root</a> <span class="sep">/</span> <a href="${app.baseUrl}/api/dcim/">dcim</a>`;
    expect(page.text).toContain(crumbs);
    // Every URL of the JSON is a link.
    for (const site of json.body.results) expect(page.text).toContain(`<a href="${site.url}">`);
  });

  it('shows a detail with its ETag, links only to this site and escapes every value', async () => {
    const json = await app.api.get(`/api/dcim/sites/${hostileId}/`);
    const page = await browse(`/api/dcim/sites/${hostileId}/`);
    expect(page.status).toBe(200);
    // "Site: " when the composition root gave requestState the models.
    expect(page.text).toMatch(new RegExp(`<h1>(Site: )?${escape(HOSTILE).replace(/[()]/g, '\\$&')}</h1>`));
    expect(page.text).toContain(`ETag: ${escape(json.headers.get('etag')!)}`);
    expect(page.text).toContain(`<a href="${json.body.url}">`);
    expect(page.text).toContain(`<a href="${json.body.display_url}">`);
    expect(page.text).not.toContain(HOSTILE);
    expect(page.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page.text).not.toContain('href="javascript:');
    expect(page.text).not.toContain('"onmouseover="');

    const other = await browse(`/api/dcim/sites/${siteId}/`);
    expect(other.text).toContain('https://evil.example/x');
    expect(other.text).not.toContain('href="https://evil.example');

    const query = `q=${encodeURIComponent(`"><script>alert(2)</script>`)}`;
    const searched = await browse(`/api/dcim/sites/?${query}`);
    expect(searched.status).toBe(200);
    expect(searched.text).not.toContain('<script>');
    expect(searched.text).toContain(`value="${escape(query)}"`);
  });

  it('gives JSON for ?format=json, Accept: application/json, */* and no Accept', async () => {
    const expected = await app.api.get(`/api/dcim/sites/${siteId}/`);
    for (const [path, accept] of [
      [`/api/dcim/sites/${siteId}/?format=json`, BROWSER_ACCEPT],
      [`/api/dcim/sites/${siteId}/`, 'application/json'],
      [`/api/dcim/sites/${siteId}/`, '*/*'],
      [`/api/dcim/sites/${siteId}/`, 'application/json, text/html;q=0.5'],
      [`/api/dcim/sites/${siteId}/`, ''],
    ] as const) {
      const response = await browse(path, accept);
      expect(response.headers.get('content-type'), `${path} ${accept}`).toBe('application/json');
      expect(response.text).toBe(expected.text);
    }
    const forced = await browse(`/api/dcim/sites/${siteId}/?format=api`, 'application/json');
    expect(forced.headers.get('content-type')).toBe('text/html; charset=utf-8');
    // Writes never get HTML.
    const patched = await app.api.patch(
      `/api/dcim/sites/${siteId}/`,
      { description: 'x' },
      {
        headers: { Accept: BROWSER_ACCEPT },
      },
    );
    expect(patched.headers.get('content-type')).toBe('application/json');
  });

  it('renders errors as pages, with a sign-in link for anonymous visitors', async () => {
    const anonymous = await app.anonymous.get('/api/dcim/sites/?limit=2', { headers: { Accept: BROWSER_ACCEPT } });
    expect(anonymous.status).toBe(403);
    expect(anonymous.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(anonymous.text).toContain('<strong>HTTP 403 Forbidden</strong>');
    expect(anonymous.text).toContain('Authentication credentials were not provided.');
    expect(anonymous.text).toContain('href="/login/?next=%2Fapi%2Fdcim%2Fsites%2F%3Flimit%3D2"');

    const missing = await browse('/api/dcim/sites/999999/');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('<strong>HTTP 404 Not Found</strong>');
    expect(missing.text).toContain('No Site matches the given query.');

    const invalid = await browse('/api/dcim/sites/?id=abc');
    expect(invalid.status).toBe(400);
    expect(invalid.text).toContain('<strong>HTTP 400 Bad Request</strong>');
    expect(invalid.text).toContain('<span class="key">&quot;id&quot;</span>');
  });

  it('turns a submitted query line into the page query', async () => {
    const submitted = await browse(`/api/dcim/sites/?_query=${encodeURIComponent('?brief=1&fields=id,name')}`);
    expect(submitted.status).toBe(303);
    expect(submitted.headers.get('location')).toBe('/api/dcim/sites/?brief=1&fields=id,name');
    const cleared = await browse('/api/dcim/sites/?_query=');
    expect(cleared.headers.get('location')).toBe('/api/dcim/sites/');
    const nested = await browse(`/api/dcim/sites/?_query=${encodeURIComponent('_query=x&limit=1')}`);
    expect(nested.headers.get('location')).toBe('/api/dcim/sites/?limit=1');
    // JSON clients are never redirected.
    expect((await app.api.get('/api/dcim/sites/?_query=limit%3D1')).status).toBe(200);
  });
});

describe('the browsable API query hint', () => {
  let app: TestApp;
  let server: Server;
  let baseUrl: string;

  beforeAll(async () => {
    app = await startTestApp('sqlite');
    // The hint needs the models: given to requestState by the composition root.
    const mini = express();
    mini.use(requestState('4.6', '', app.context.schema));
    mini.get('/api/dcim/sites/', (_req, res) =>
      sendJson(res, 200, { count: 0, next: null, previous: null, results: [] }),
    );
    mini.get('/api/dcim/sites/1/', (_req, res) => sendJson(res, 200, { id: 1, display: 'PAR1' }));
    server = await new Promise((resolve) => {
      const s = mini.listen(0, '127.0.0.1', () => resolve(s));
    });
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    await app?.close();
  });

  it("lists the filters of the list's model, found by its path", async () => {
    const model = app.context.schema.endpoints().find((m) => m.listPath === '/dcim/sites/')!;
    const response = await fetch(`${baseUrl}/api/dcim/sites/?status=active`, { headers: { Accept: BROWSER_ACCEPT } });
    const text = await response.text();
    expect(text).toContain('<h1>Sites</h1>');
    expect(text).toContain('Filters: ');
    for (const name of model.filters.keys()) expect(text).toContain(`<code>${name}</code>`);
    expect(text).toContain('value="status=active"');
    const detail = await fetch(`${baseUrl}/api/dcim/sites/1/`, { headers: { Accept: BROWSER_ACCEPT } });
    expect(await detail.text()).toContain('<h1>Site: PAR1</h1>');
  });
});

/** Where a browser lands from `/` and from every object's `display_url`. */
describe.each(DIALECTS)('links of the site on %s', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect);
  });
  afterAll(async () => app?.close());

  it('sends / to the API root and display_url to the object in the browsable API', async () => {
    const root = await app.anonymous.get('/');
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/api/');
    const site = await app.api.post('/api/dcim/sites/', { name: 'Linked', slug: 'linked' });
    const displayUrl = site.body.display_url as string;
    expect(displayUrl).toBe(`${app.baseUrl}/dcim/sites/${site.body.id}/`);
    const redirected = await app.api.get(`${displayUrl}?brief=1`);
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get('location')).toBe(`/api/dcim/sites/${site.body.id}/?brief=1`);
    const page = await app.api.get(displayUrl, { headers: { Accept: BROWSER_ACCEPT }, follow: true });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('<h1>Site: Linked</h1>');
    const json = await app.api.get(displayUrl, { follow: true });
    expect(json.body.name).toBe('Linked');
  });

  it('resolves the display_url of every model and of background tasks', async () => {
    // The background tasks' list is a page of its own (behind the sign-in); everything else is the API's.
    const pages = ['/core/background-tasks/'];
    for (const model of app.context.schema.endpoints()) {
      for (const path of [model.listPath!, `${model.listPath!}713/`]) {
        const response = await app.anonymous.get(path);
        expect(response.status, path).toBe(302);
        const expected = pages.includes(path) ? `/login/?next=${encodeURIComponent(path)}` : `/api${path}`;
        expect(response.headers.get('location'), path).toBe(expected);
      }
    }
    expect((await app.anonymous.get('/nowhere/1/')).status).toBe(404);
  });
});
