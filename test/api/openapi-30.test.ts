import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import { createTestDevice } from '../support/filtersets.js';

/**
 * The OpenAPI 3.0.3 rendering (`/api/schema/?oas=3.0`, what Swagger UI reads) describes real responses as the
 * 3.1 document does: they validate against it with ajv's draft-07 validator, which reads OpenAPI's `nullable`.
 */
describe.each(DIALECTS)('the OpenAPI 3.0.3 document on %s', (dialect) => {
  let app: TestApp;
  let ajv: Ajv;
  const errorsOf = (schema: string, value: unknown): string | null => {
    const validate = ajv.getSchema(`openapi.json#/components/schemas/${schema}`)!;
    return validate(value) ? null : ajv.errorsText(validate.errors);
  };

  beforeAll(async () => {
    app = await startTestApp(dialect);
    const tenant = await app.api.post('/api/tenancy/tenants/', { name: 'Tenant 1', slug: 'tenant-1' });
    await app.api.post('/api/dcim/sites/', { name: 'Site 2', slug: 'site-2', tenant: tenant.body.id, latitude: 48.8 });
    await createTestDevice(app.api, 'Device 1');
    await createTestDevice(app.api, 'Device 2', { serial: 'S2', description: 'Second' });
    const document = await app.anonymous.get('/api/schema/?format=json&oas=3.0');
    expect(document.status).toBe(200);
    expect(document.body.openapi).toBe('3.0.3');
    ajv = new Ajv({ strict: false });
    addFormats.default(ajv);
    ajv.addSchema({ ...document.body, $id: 'openapi.json' });
  });
  afterAll(async () => app?.close());

  it('describes a site with null fields, and one without', async () => {
    const sites = (await app.api.get('/api/dcim/sites/?ordering=name')).body.results as Record<string, unknown>[];
    const [bare, filled] = sites;
    expect(bare).toMatchObject({ name: 'Site 1', tenant: null, region: null, latitude: null, time_zone: null });
    expect(filled).toMatchObject({ name: 'Site 2', tenant: { slug: 'tenant-1' }, latitude: 48.8 });
    for (const site of sites) expect(errorsOf('Site', site)).toBeNull();
    // The document constrains what it accepts: a wrong type or an unknown key is refused.
    expect(errorsOf('Site', { ...bare, tenant: 'tenant-1' })).toMatch(/tenant/);
    expect(errorsOf('Site', { ...bare, latitude: 'north' })).toMatch(/latitude/);
    expect(errorsOf('Site', { ...bare, unknown: 1 })).toMatch(/additional properties/);
  });

  it('describes a page of devices', async () => {
    const page = await app.api.get('/api/dcim/devices/?limit=1');
    expect(page.body).toMatchObject({ count: 2, previous: null, results: [{ name: 'Device 1', tenant: null }] });
    expect(page.body.next).toEqual(expect.any(String));
    expect(errorsOf('PaginatedDeviceList', page.body)).toBeNull();
    const last = await app.api.get('/api/dcim/devices/?limit=1&offset=1');
    expect(last.body.next).toBeNull();
    expect(errorsOf('PaginatedDeviceList', last.body)).toBeNull();
  });

  it('describes brief representations', async () => {
    for (const [list, schema] of [
      ['/api/dcim/sites/?brief=1', 'BriefSite'],
      ['/api/dcim/devices/?brief=1', 'BriefDevice'],
    ] as const) {
      const page = await app.api.get(list);
      expect(page.body.results.length, list).toBe(2);
      for (const item of page.body.results) expect(errorsOf(schema, item), list).toBeNull();
      expect(errorsOf(schema, { ...page.body.results[0], id: 'one' }), list).toMatch(/id/);
    }
  });
});
