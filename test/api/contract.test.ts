import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/** The generic HTTP contract: roots, headers, redirects, body parsing, pagination limits and error shapes. */
describe.each(DIALECTS)('HTTP contract on %s', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, { settings: { PAGINATE_COUNT: 3, MAX_PAGE_SIZE: 5 } });
    await app.api.post(
      '/api/tenancy/tenants/',
      Array.from({ length: 7 }, (_, i) => ({ name: `Tenant ${i}`, slug: `tenant-${i}` })),
    );
  });
  afterAll(async () => app?.close());

  it('lists the apps and their endpoints', async () => {
    const root = await app.api.get('/api/');
    expect(root.status).toBe(200);
    expect(Object.keys(root.body)).toEqual([...Object.keys(root.body)].sort());
    expect(root.body.dcim).toBe(`${app.baseUrl}/api/dcim/`);
    expect(root.body.status).toBe(`${app.baseUrl}/api/status/`);
    expect(root.body.plugins).toBe(`${app.baseUrl}/api/plugins/`);
    const dcim = await app.api.get('/api/dcim/');
    expect(Object.keys(dcim.body)).toEqual([...Object.keys(dcim.body)].sort());
    expect(dcim.body).toMatchObject({
      locations: `${app.baseUrl}/api/dcim/locations/`,
      regions: `${app.baseUrl}/api/dcim/regions/`,
      'site-groups': `${app.baseUrl}/api/dcim/site-groups/`,
      sites: `${app.baseUrl}/api/dcim/sites/`,
      devices: `${app.baseUrl}/api/dcim/devices/`,
    });
    expect(Object.keys((await app.api.get('/api/tenancy/')).body)).toEqual([
      'contact-assignments',
      'contact-groups',
      'contact-roles',
      'contacts',
      'tenant-groups',
      'tenants',
    ]);
    expect((await app.api.get('/api/plugins/')).body).toMatchObject({
      'installed-plugins': `${app.baseUrl}/api/plugins/installed-plugins/`,
    });
  });

  it('reports its status', async () => {
    const status = await app.api.get('/api/status/');
    expect(status.status).toBe(200);
    expect(status.body['netbox-version']).toBe('4.6.0');
    expect(status.body.installed_apps.express).toMatch(/^5\./);
    expect(status.body.database).toBe(dialect);
    expect(typeof status.body['rq-workers-running']).toBe('number');
  });

  it('sets API-Version, X-Request-ID and Vary on every response, errors included', async () => {
    const seen = new Set<string>();
    for (const response of [
      await app.api.get('/api/dcim/sites/'),
      await app.api.get('/api/dcim/sites/999999/'),
      await app.anonymous.get('/api/dcim/sites/'),
      await app.api.get('/api/nowhere/'),
      await app.api.post('/api/dcim/sites/', {}),
    ]) {
      expect(response.headers.get('api-version')).toBe('4.6');
      const id = response.headers.get('x-request-id')!;
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      seen.add(id);
      expect(response.headers.get('vary')).toBe('Accept');
    }
    expect(seen.size).toBe(5);
  });

  it('pretty-prints with Accept indent', async () => {
    const response = await app.api.get('/api/tenancy/tenants/?limit=1', {
      headers: { Accept: 'application/json; indent=4' },
    });
    expect(response.text).toContain('\n    "count": 7');
    expect((await app.api.get('/api/tenancy/tenants/?limit=1')).text).not.toContain('\n');
  });

  it('redirects safe methods without the trailing slash and refuses writes', async () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS']) {
      const response = await app.api.request(method, '/api/tenancy/tenants?name=Tenant%201&limit=2');
      expect(response.status, method).toBe(302);
      expect(response.headers.get('location')).toBe('/api/tenancy/tenants/?name=Tenant%201&limit=2');
    }
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const response = await app.api.request(method, '/api/tenancy/tenants', { body: { name: 'x', slug: 'x' } });
      expect(response.status, method).toBe(404);
      expect(response.body.detail).toContain('/api/tenancy/tenants/');
    }
    const followed = await app.api.get('/api/tenancy/tenants?limit=1', { follow: true });
    expect(followed.status).toBe(200);
    expect(followed.body.results).toHaveLength(1);
  });

  it('paginates with limit/offset: default, cap, zero and past the end', async () => {
    const first = await app.api.get('/api/tenancy/tenants/');
    expect(first.body.count).toBe(7);
    expect(first.body.results).toHaveLength(3);
    expect(first.body.previous).toBeNull();
    expect(first.body.next).toBe(`${app.baseUrl}/api/tenancy/tenants/?limit=3&offset=3`);
    expect((await app.api.get('/api/tenancy/tenants/?limit=100')).body.results).toHaveLength(5);
    expect((await app.api.get('/api/tenancy/tenants/?limit=0')).body.results).toHaveLength(5);
    expect((await app.api.get('/api/tenancy/tenants/?limit=-1')).body.results).toHaveLength(3);
    const past = await app.api.get('/api/tenancy/tenants/?offset=50');
    expect(past.status).toBe(200);
    expect(past.body.results).toEqual([]);
    const middle = await app.api.get('/api/tenancy/tenants/?limit=2&offset=4&name__isw=tenant');
    expect(middle.body.previous).toBe(`${app.baseUrl}/api/tenancy/tenants/?limit=2&offset=2&name__isw=tenant`);
    expect(middle.body.next).toBe(`${app.baseUrl}/api/tenancy/tenants/?limit=2&offset=6&name__isw=tenant`);
    const second = await app.api.get('/api/tenancy/tenants/?limit=2&offset=2');
    expect(second.body.previous).toBe(`${app.baseUrl}/api/tenancy/tenants/?limit=2`);
  });

  it('paginates with a cursor and rejects mixed modes', async () => {
    const all = (await app.api.get('/api/tenancy/tenants/?limit=5&ordering=id')).body.results.map(
      (t: { id: number }) => t.id,
    );
    const page = await app.api.get(`/api/tenancy/tenants/?start=${all[1]}&limit=2`);
    expect(page.body.count).toBeNull();
    expect(page.body.previous).toBeNull();
    expect(page.body.results.map((t: { id: number }) => t.id)).toEqual([all[1], all[2]]);
    expect(page.body.next).toBe(`${app.baseUrl}/api/tenancy/tenants/?start=${all[2] + 1}&limit=2`);
    const last = await app.api.get(`/api/tenancy/tenants/?start=${all[4] + 10}&limit=2`);
    expect(last.body).toEqual({ count: null, next: null, previous: null, results: [] });
    expect((await app.api.get('/api/tenancy/tenants/?start=1&offset=2')).body).toEqual([
      "'start' and 'offset' are mutually exclusive.",
    ]);
    expect((await app.api.get('/api/tenancy/tenants/?start=1&ordering=name')).body).toEqual([
      'Ordering cannot be specified in conjunction with cursor-based pagination.',
    ]);
    const bad = await app.api.get('/api/tenancy/tenants/?start=-1');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(["Invalid 'start' parameter: must be a non-negative integer."]);
  });

  it('orders by any field, ascending or descending, comma-separated, ignoring unknown names', async () => {
    const names = async (ordering: string): Promise<string[]> =>
      (await app.api.get(`/api/tenancy/tenants/?limit=5&ordering=${ordering}`)).body.results.map(
        (t: { name: string }) => t.name,
      );
    expect(await names('-name')).toEqual(['Tenant 6', 'Tenant 5', 'Tenant 4', 'Tenant 3', 'Tenant 2']);
    expect(await names('nonsense,-slug')).toEqual(['Tenant 6', 'Tenant 5', 'Tenant 4', 'Tenant 3', 'Tenant 2']);
    expect(await names('description,-id')).toEqual(['Tenant 6', 'Tenant 5', 'Tenant 4', 'Tenant 3', 'Tenant 2']);
  });

  it('ORs repeated parameters and ANDs different ones', async () => {
    const ids = async (query: string): Promise<string[]> =>
      (await app.api.get(`/api/tenancy/tenants/?${query}`)).body.results.map((t: { slug: string }) => t.slug);
    expect(await ids('slug=tenant-1&slug=tenant-2')).toEqual(['tenant-1', 'tenant-2']);
    expect(await ids('slug=tenant-1&slug=tenant-2&name=Tenant 2')).toEqual(['tenant-2']);
    expect(await ids('name__ic=ANT 3')).toEqual(['tenant-3']);
    expect(await ids('name__nic=tenant')).toEqual([]);
    expect(await ids('slug__isw=TENANT-4')).toEqual(['tenant-4']);
    expect(await ids('slug__iew=-5')).toEqual(['tenant-5']);
    expect(await ids('slug__ie=TENANT-6')).toEqual(['tenant-6']);
    expect(await ids('slug__regex=^tenant-[12]$')).toEqual(['tenant-1', 'tenant-2']);
    expect(await ids('description__empty=false')).toEqual([]);
    expect(await ids('q=nant 0')).toEqual(['tenant-0']);
    expect(await ids('q=   ')).toHaveLength(3);
    expect(await ids('group_id=null&slug=tenant-0')).toEqual(['tenant-0']);
    const bad = await app.api.get('/api/tenancy/tenants/?group_id=12345');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ group_id: ['Select a valid choice. 12345 is not one of the available choices.'] });
    const badDate = await app.api.get('/api/tenancy/tenants/?created__gte=yesterday');
    expect(badDate.body).toEqual({ created__gte: ['Enter a valid date/time.'] });
    expect((await app.api.get('/api/tenancy/tenants/?created__gte=2000-01-01')).body.count).toBe(7);
  });

  it('accepts pynetbox content types and rejects others', async () => {
    const withSemicolon = await app.api.post('/api/tenancy/tenants/', undefined, {
      raw: JSON.stringify({ name: 'Semi', slug: 'semi' }),
      headers: { 'Content-Type': 'application/json;' },
    });
    expect(withSemicolon.status).toBe(201);
    const charset = await app.api.post('/api/tenancy/tenants/', undefined, {
      raw: JSON.stringify({ name: 'Charset', slug: 'charset' }),
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
    });
    expect(charset.status).toBe(201);
    const text = await app.api.post('/api/tenancy/tenants/', undefined, {
      raw: 'name=x',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect(text.body).toEqual({ detail: 'Unsupported media type "text/plain" in request.' });
    const malformed = await app.api.post('/api/tenancy/tenants/', undefined, {
      raw: '{"name": ',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.detail).toMatch(/^JSON parse error - /);
    const scalar = await app.api.post('/api/tenancy/tenants/', 'just a string');
    expect(scalar.status).toBe(400);
    expect(scalar.body).toEqual({ non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] });
  });

  it('answers 405 for unsupported methods and 404 JSON for unknown paths', async () => {
    const response = await app.api.request('POST', '/api/dcim/');
    expect(response.status).toBe(405);
    expect(response.body).toEqual({ detail: 'Method "POST" not allowed.' });
    const unknown = await app.api.get('/api/dcim/nothing-here/');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: 'Not found.' });
  });

  // The document is the registry's, the same whatever the database: served from one.
  it.runIf(dialect === 'sqlite')(
    'serves the OpenAPI document anonymously as YAML or JSON, and Swagger UI from local assets',
    async () => {
      const yaml = await app.anonymous.get('/api/schema/', { headers: { Accept: '*/*' } });
      expect(yaml.status).toBe(200);
      expect(yaml.headers.get('content-type')).toContain('application/vnd.oai.openapi');
      expect(yaml.text).toMatch(/^openapi: 3\.1\.0$/m);
      const json = await app.anonymous.get('/api/schema/?format=json');
      expect(json.body.openapi).toBe('3.1.0');
      expect(json.body.paths['/api/dcim/sites/']).toBeDefined();
      expect(json.body.components.securitySchemes.tokenAuth).toMatchObject({
        type: 'apiKey',
        in: 'header',
        name: 'Authorization',
      });
      expect((await app.anonymous.get('/api/schema/', { headers: { Accept: 'application/json' } })).body.openapi).toBe(
        '3.1.0',
      );

      const page = await app.anonymous.get('/api/schema/swagger-ui/', { headers: { Accept: 'text/html' } });
      expect(page.status).toBe(200);
      expect(page.text).toContain('swagger-ui-bundle.js');
      expect(page.text).not.toMatch(/https?:\/\//);
      for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'swagger-ui-standalone-preset.js', 'init.js']) {
        const response = await app.anonymous.get(`/api/schema/swagger-ui/${asset}`, { headers: { Accept: '*/*' } });
        expect(response.status, asset).toBe(200);
      }
      const init = await app.anonymous.get('/api/schema/swagger-ui/init.js', { headers: { Accept: '*/*' } });
      expect(init.text).toContain('"/api/schema/?format=json&oas=3.0"');
    },
  );

  // The document is the registry's, the same whatever the database: served from one.
  it.runIf(dialect === 'sqlite')(
    'serves the document as OpenAPI 3.0.3 with oas=3.0, compressed and revalidated by its own ETag',
    async () => {
      const yaml = await app.anonymous.get('/api/schema/?oas=3.0', { headers: { Accept: '*/*' } });
      expect(yaml.status).toBe(200);
      expect(yaml.headers.get('content-type')).toContain('application/vnd.oai.openapi');
      expect(yaml.text).toMatch(/^openapi: 3\.0\.3$/m);
      const url = `${app.baseUrl}/api/schema/?format=json&oas=3.0`;
      const json = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
      expect(json.headers.get('content-encoding')).toBe('gzip');
      expect(json.headers.get('content-type')).toBe('application/json');
      const document = (await json.json()) as { openapi: string; paths: Record<string, unknown> };
      expect(document.openapi).toBe('3.0.3');
      expect(document.paths['/api/dcim/sites/']).toBeDefined();
      const etag = json.headers.get('etag')!;
      const current = await fetch(`${app.baseUrl}/api/schema/?format=json`, { headers: { 'accept-encoding': 'br' } });
      expect(current.headers.get('content-encoding')).toBe('br');
      expect(current.headers.get('etag')).not.toBe(etag);
      expect((await fetch(url, { headers: { 'if-none-match': etag } })).status).toBe(304);
      expect(
        (await fetch(`${app.baseUrl}/api/schema/?format=json`, { headers: { 'if-none-match': etag } })).status,
      ).toBe(200);
      const indented = await app.anonymous.get('/api/schema/?format=json&oas=3.0', {
        headers: { Accept: 'application/json; indent=2' },
      });
      expect(indented.body).toEqual(document);
    },
  );

  it('refuses any other OpenAPI version', async () => {
    expect((await app.anonymous.get('/api/schema/?format=json&oas=')).body.openapi).toBe('3.1.0');
    for (const oas of ['3.1', '2.0', '3', '3.0.3']) {
      const response = await app.anonymous.get(`/api/schema/?format=json&oas=${oas}`);
      expect(response.status, oas).toBe(400);
      expect(response.body, oas).toEqual({
        oas: [`Select a valid choice. ${oas} is not one of the available choices.`],
      });
    }
  });

  it('reports validation errors in NetBox shapes, never a 500', async () => {
    const empty = await app.api.post('/api/dcim/sites/', {});
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ name: ['This field is required.'], slug: ['This field is required.'] });
    const wrong = await app.api.post('/api/dcim/sites/', {
      name: 'x'.repeat(101),
      slug: 'not a slug',
      status: 'nope',
      latitude: 'north',
      time_zone: 'Mars/Olympus',
      region: [1],
      tenant: { slug: 'no-such-tenant' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      name: ['Ensure this field has no more than 100 characters.'],
      slug: ['Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.'],
      status: ['nope is not a valid choice.'],
      region: [
        'Related objects must be referenced by numeric ID or by dictionary of attributes. Received an unrecognized value: [1]',
      ],
      tenant: ["Related object not found using the provided attributes: {'slug': 'no-such-tenant'}"],
      time_zone: ['A valid timezone is required.'],
      latitude: ['A valid number is required.'],
    });
    const range = await app.api.post('/api/dcim/sites/', {
      name: 'r',
      slug: 'r',
      latitude: 91,
      longitude: '1.1234567',
    });
    expect(range.body).toEqual({
      latitude: ['Ensure this value is less than or equal to 90.'],
      longitude: ['Ensure that there are no more than 6 decimal places.'],
    });
    const nulls = await app.api.post('/api/dcim/sites/', { name: null, slug: 's', status: null });
    expect(nulls.body).toEqual({ name: ['This field may not be null.'], status: ['This field may not be blank.'] });
    const missingId = await app.api.post('/api/dcim/sites/', { name: 'm', slug: 'm', tenant: 999999 });
    expect(missingId.body).toEqual({ tenant: ['Related object not found using the provided numeric ID: 999999'] });
  });
});

describe.each(DIALECTS)('unlimited pages on %s', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect, { settings: { PAGINATE_COUNT: 2, MAX_PAGE_SIZE: 0 } });
    await app.api.post(
      '/api/tenancy/tenant-groups/',
      Array.from({ length: 6 }, (_, i) => ({ name: `Group ${i}`, slug: `group-${i}` })),
    );
  });
  afterAll(async () => app?.close());

  it('returns everything for limit=0 when MAX_PAGE_SIZE is 0, and honours any limit', async () => {
    const all = await app.api.get('/api/tenancy/tenant-groups/?limit=0');
    expect(all.body.results).toHaveLength(6);
    expect(all.body.next).toBeNull();
    expect((await app.api.get('/api/tenancy/tenant-groups/')).body.results).toHaveLength(2);
    expect((await app.api.get('/api/tenancy/tenant-groups/?limit=5')).body.results).toHaveLength(5);
  });
});
