import express from 'express';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../generated/index.js';
import { errorHandler } from '../../runtime/http/error-handler.js';
import { requestState } from '../../runtime/http/middleware.js';
import { Schema } from '../../runtime/rest/schema.js';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import { rawHttp, rawRequest, show, Tally } from './support.js';

const schema = new Schema(registry);
/** Eighteen writable endpoints with a `name`: every bad request below is sent to each of them. */
const ENDPOINTS = schema
  .endpoints()
  .filter((m) => !m.spec.readOnly && m.fields.get('name')?.kind === 'string')
  .slice(0, 18);

/** 10,000 levels of arrays: a stack overflow for any recursive walk. */
const DEEP = `${'['.repeat(10_000)}1${']'.repeat(10_000)}`;
const NUL = { name: ['Null characters are not allowed.'] };
const JSON_TYPE = { 'Content-Type': 'application/json' };

/**
 * Malformed and hostile input answers 4xx and never shows internals: undecodable paths, huge offsets, NUL and
 * lone surrogates, invalid UTF-8, deep nesting, `__proto__` keys, malformed Host headers; plus the checks of
 * ALLOWED_HOSTS and the security headers of HTML pages.
 */
describe.each(DIALECTS)('malformed requests on %s', (dialect) => {
  let app: TestApp;
  const tally = new Tally();
  beforeAll(async () => {
    app = await startTestApp(dialect);
  });
  afterAll(async () => {
    console.log(
      `malformed requests on ${dialect}: ${tally.sent} sent, ${tally.serverErrors.length} × 5xx, ${tally.leaks.length} leaks`,
    );
    await app?.close();
  });

  it.each(ENDPOINTS.map((m) => [m.listPath!, m] as const))('%s: every bad request is a 4xx', async (path) => {
    const list = `/api${path}`;
    const queries = [
      'offset=99999999999999999999',
      'limit=99999999999999999999&offset=99999999999999999999',
      'start=99999999999999999999',
      'name=a%00b',
      'name__ic=%00',
      'q=%00',
      'id=1%00',
      'name__regex=%5C-',
      'name__regex=a%7B1',
      'name__regex=%5B%5B%3Aalpha%3A%5D%5D',
      'name__regex=(',
      'name__iregex=%00',
      'name=%ED%A0%80',
    ];
    for (const query of queries) {
      const response = await tally.send(app.api, 'GET', `${list}?${query}`);
      expect(response.status, `${query}: ${show(response)}`).toBeLessThan(500);
      if (query.includes('%00')) expect(response.status, query).toBe(400);
    }
    for (const detail of ['%FF/', '%E0%80%AF/', '99999999999999999999/', '1%00/']) {
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        const response = await tally.send(app.api, method, `${list}${detail}`, method === 'PATCH' ? { body: {} } : {});
        expect(response.status, `${method} ${detail}: ${show(response)}`).toBeGreaterThanOrEqual(400);
        expect(response.status, `${method} ${detail}`).toBeLessThan(500);
      }
    }

    const nul = await tally.send(app.api, 'POST', list, { body: { name: 'a\u0000b' } });
    expect(nul.status).toBe(400);
    expect(nul.body).toEqual(NUL);
    const bulkNul = await tally.send(app.api, 'POST', list, { body: [{ name: 'ok' }, { name: 'a\u0000b' }] });
    expect(bulkNul.body).toEqual([{}, NUL]);
    const surrogate = await tally.send(app.api, 'POST', list, { raw: '{"name": "\\ud800x"}', headers: JSON_TYPE });
    expect(surrogate.status).toBe(400);
    expect(surrogate.body).toEqual({ name: ['Surrogate characters are not allowed: U+D800.'] });
    const proto = await tally.send(app.api, 'POST', list, {
      raw: '{"name": "p", "custom_fields": {"__proto__": {}}}',
      headers: JSON_TYPE,
    });
    expect(proto.status).toBe(400);
    expect(proto.body).toEqual({ custom_fields: ['Keys named "__proto__" are not allowed.'] });
    for (const field of ['tags', 'tenant', 'site', 'custom_fields', 'name']) {
      const deep = await tally.send(app.api, 'POST', list, {
        raw: `{"name": "deep", "${field}": ${DEEP}}`,
        headers: JSON_TYPE,
      });
      expect(deep.status, `${field}: ${show(deep)}`).toBe(400);
    }
    const bulkPatch = await tally.send(app.api, 'PATCH', list, { body: [{ id: 1, name: '\u0000' }] });
    expect(bulkPatch.status).toBe(400);
  });

  it('refuses invalid UTF-8, overlong sequences and encoded surrogates in bodies', async () => {
    const bodies = [
      Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
      Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]),
      Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]),
    ];
    for (const body of bodies) {
      const response = await rawRequest(
        app,
        rawHttp('POST', '/api/dcim/sites/', {
          body,
          headers: { Authorization: app.adminAuth, 'Content-Type': 'application/json' },
        }),
      );
      tally.record('POST invalid UTF-8', response.status, response.body);
      expect(response.status, response.body).toBe(400);
      expect(JSON.parse(response.body)).toEqual({ detail: 'JSON parse error - the body is not valid UTF-8.' });
    }
    expect((await app.api.get('/api/dcim/sites/')).body.count).toBe(0);
  });

  it('refuses malformed Host headers with a 400', async () => {
    for (const host of [
      'a b',
      '[::1',
      '',
      'exa mple.com:80',
      'host:port',
      '..:99999x',
      'evil.example:99999',
      '[::1]:65536',
    ]) {
      const response = await rawRequest(app, rawHttp('GET', '/api/status/', { host }));
      tally.record(`Host ${host}`, response.status, response.body);
      expect(response.status, `${JSON.stringify(host)}: ${response.body}`).toBe(400);
    }
    const fine = await rawRequest(
      app,
      rawHttp('GET', '/api/dcim/sites/', { host: '[::1]:8080', headers: { Authorization: app.adminAuth } }),
    );
    expect(fine.status, fine.body).toBe(200);
  });

  it('refuses NUL in the forms of the pages (a username is compared in SQL)', async () => {
    const page = await app.anonymous.request('GET', '/login/', { headers: { Accept: 'text/html' } });
    const csrf = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(page.text)![1]!;
    const cookie = page.headers
      .getSetCookie()
      .map((line) => line.split(';')[0])
      .join('; ');
    const response = await tally.send(app.anonymous, 'POST', '/login/', {
      raw: `csrfmiddlewaretoken=${csrf}&username=admin%00&password=x`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ username: ['Null characters are not allowed.'] });
  });

  it('refuses deep nesting in every JSON field, user config included', async () => {
    const nested = (depth: number): unknown => {
      let value: unknown = 1;
      for (let i = 0; i < depth; i += 1) value = { a: value };
      return value;
    };
    const shallow = nested(90);
    const deep = nested(150);
    const writes: [string, string, (v: unknown) => unknown][] = [
      ['POST', '/api/extras/config-contexts/', (v) => ({ name: `cc-${Math.random()}`, data: v })],
      ['PATCH', '/api/users/config/', (v) => ({ deep: v })],
      [
        'POST',
        '/api/extras/custom-fields/',
        (v) => ({ name: `cf_${Date.now()}`, type: 'json', object_types: ['dcim.site'], default: v }),
      ],
      [
        'POST',
        '/api/dcim/sites/',
        (v) => ({ name: `s-${Math.random()}`, slug: `s-${Date.now()}`, local_context_data: v }),
      ],
    ];
    for (const [method, path, body] of writes) {
      const refused = await tally.send(app.api, method, path, { body: body(deep) });
      expect(refused.status, `${path}: ${show(refused)}`).toBe(400);
      expect(refused.body).toEqual({ detail: 'JSON parse error - nesting deeper than 100 levels.' });
    }
    const stored = await tally.send(app.api, 'POST', '/api/extras/config-contexts/', {
      body: { name: 'shallow', data: shallow },
    });
    expect(stored.status, show(stored)).toBe(201);
    const rule = await tally.send(app.api, 'POST', '/api/extras/event-rules/', {
      body: { name: 'deep', object_types: ['dcim.site'], event_types: ['object_created'], conditions: deep },
    });
    expect(rule.status).toBe(400);
  });

  it('sends security headers with HTML pages and every API response', async () => {
    const pages = [
      '/login/',
      '/api/schema/swagger-ui/',
      '/api/dcim/sites/',
      '/user/api-tokens/',
      '/core/background-tasks/',
    ];
    for (const page of pages) {
      const response = await app.anonymous.request('GET', page, { headers: { Accept: 'text/html' } });
      expect(response.status, page).toBeLessThan(500);
      expect(response.headers.get('x-content-type-options'), page).toBe('nosniff');
      expect(response.headers.get('x-frame-options'), page).toBe('DENY');
      expect(response.headers.get('content-security-policy'), page).toContain("frame-ancestors 'none'");
    }
  });

  it('shows a 500 without internals, with the request id, and logs the error in full', async () => {
    const logged: string[] = [];
    const server = express();
    server.use(requestState('4.6', ''));
    server.get('/boom', () => {
      throw new Error('SELECT secret FROM "users_user" — /work/runtime/x.ts:1');
    });
    server.use(errorHandler(schema, '4.6.0', (line) => logged.push(line)));
    const listening = server.listen(0, '127.0.0.1');
    await new Promise((resolve) => listening.once('listening', resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(listening.address() as AddressInfo).port}/boom`);
      const text = await response.text();
      const id = response.headers.get('x-request-id')!;
      expect(response.status).toBe(500);
      expect(JSON.parse(text)).toMatchObject({ error: `Internal server error (request ${id}).` });
      expect(text).not.toContain('secret');
      expect(logged.join('\n')).toContain(id);
      expect(logged.join('\n')).toContain('SELECT secret');
    } finally {
      listening.close();
    }
  });

  it('counts no 5xx and no leaks over all of the above', () => {
    expect(tally.sent).toBeGreaterThan(18 * 35);
    tally.expectClean();
  });
});

describe.each(DIALECTS)('ALLOWED_HOSTS on %s', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, { settings: { ALLOWED_HOSTS: ['api.example.com', '.example.org'] } });
  });
  afterAll(async () => app?.close());

  it('answers only to the allowed names, and builds URLs from them', async () => {
    const get = (host: string) =>
      rawRequest(app, rawHttp('GET', '/api/dcim/', { host, headers: { Authorization: app.adminAuth } }));
    for (const host of ['evil.test', '127.0.0.1', 'example.org.evil.test', 'api.example.com.evil']) {
      const refused = await get(host);
      expect(refused.status, host).toBe(400);
      expect(JSON.parse(refused.body)).toEqual({ detail: 'Invalid Host header: the host is not in ALLOWED_HOSTS.' });
    }
    const allowed = await get('api.example.com:8443');
    expect(allowed.status, allowed.body).toBe(200);
    expect(JSON.parse(allowed.body).sites).toBe('http://api.example.com:8443/api/dcim/sites/');
    for (const host of ['example.org', 'a.b.example.org']) expect((await get(host)).status, host).toBe(200);
  });
});
