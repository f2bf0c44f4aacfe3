import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/** STRICT_FILTERING: a list refuses query parameters that are none of its filters; off, it ignores them. */
describe.each(DIALECTS)('strict filtering on %s', (dialect) => {
  let strict: TestApp;
  let lenient: TestApp;
  beforeAll(async () => {
    strict = await startTestApp(dialect, { settings: { STRICT_FILTERING: true } });
    // The default, as in NetBox.
    lenient = await startTestApp(dialect, { databaseUrl: strict.databaseUrl });
    const created = await strict.api.post('/api/dcim/sites/', [
      { name: 'Strict 1', slug: 'strict-1' },
      { name: 'Strict 2', slug: 'strict-2' },
    ]);
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    await lenient?.close({ keepDatabase: true });
    await strict?.close();
  });

  it('answers 400 naming each unknown parameter and lookup, and changes nothing', async () => {
    const response = await strict.api.get('/api/dcim/sites/?nmae=Strict+1&name__foo=x&slug=strict-1&stauts=');
    expect(response.status).toBe(400);
    expect(Object.keys(response.body).sort()).toEqual(['name__foo', 'nmae', 'stauts']);
    expect(response.body.nmae[0]).toMatch(/Unknown filter/);
    expect((await strict.api.get('/api/dcim/sites/')).body.count).toBe(2);
  });

  it("accepts the parameters NetBox's lists read, and known filters without a value", async () => {
    const query =
      'limit=1&offset=0&ordering=-name&brief=1&fields=id,name&omit=slug&exclude=config_context&q=Strict&format=json&_query=x&name=&status__n=';
    const response = await strict.api.get(`/api/dcim/sites/?${query}`);
    expect(response.status, response.text).toBe(200);
    expect(response.body.count).toBe(2);
    expect((await strict.api.get('/api/dcim/sites/?start=0&limit=1')).status).toBe(200);
  });

  it("takes NetBox's saved filters, and the export parameter, as known parameters", async () => {
    const response = await strict.api.get('/api/dcim/sites/?filter=my-filter&filter_id=1');
    expect(response.status, response.text).toBe(200);
    expect(response.body.count).toBe(2);
  });

  it('leaves details alone', async () => {
    const [site] = (await strict.api.get('/api/dcim/sites/?limit=1')).body.results;
    expect((await strict.api.get(`/api/dcim/sites/${site.id}/?nmae=x`)).status).toBe(200);
  });

  it('ignores unknown parameters when off, as NetBox does', async () => {
    const response = await lenient.api.get('/api/dcim/sites/?nmae=Strict+1&name__foo=x&filter=my-filter');
    expect(response.status).toBe(200);
    expect(response.body.count).toBe(2);
    // Known filters still filter, and bad values of known filters are still 400s.
    expect((await lenient.api.get('/api/dcim/sites/?slug=strict-1&nmae=x')).body.count).toBe(1);
    expect((await lenient.api.get('/api/dcim/sites/?id=abc')).status).toBe(400);
  });
});
