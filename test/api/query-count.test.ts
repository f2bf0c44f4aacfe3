import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import { Fixtures } from '../support/fixtures.js';
import { Schema } from '../../runtime/rest/schema.js';
import { registry } from '../../generated/index.js';

/**
 * No N+1: a list page costs the same number of queries for 5 and for 40 objects, for every model
 * (nested FKs are joined; tags, counts and custom field objects are loaded in one batch each).
 */
const schema = new Schema(registry);
/** Large enough that a query per object (or per nested object) could not hide. */
const LARGE = 40;
const models = schema.endpoints().filter((m) => !m.spec.readOnly);

describe.each(DIALECTS)('queries per list page on %s', (dialect) => {
  let app: TestApp;
  let fixtures: Fixtures;
  beforeAll(async () => {
    // Every request authenticates with a query, so that counts do not depend on the token cache's timing.
    app = await startTestApp(dialect, { settings: { CACHE_SECONDS: 0 } });
    fixtures = new Fixtures(app.api, schema);
    await app.api.post('/api/extras/tags/', [
      { name: 'One', slug: 'one' },
      { name: 'Two', slug: 'two' },
    ]);
    // Every object gets custom field values, one of them a related object rendered in a batch.
    const site = await app.api.post('/api/dcim/sites/', { name: 'CF target', slug: 'cf-target' });
    const objectTypes = models.filter((m) => m.hasCustomFields).map((m) => m.label);
    const cfs = await app.api.post('/api/extras/custom-fields/', [
      {
        name: 'cf_site',
        type: 'object',
        related_object_type: 'dcim.site',
        object_types: objectTypes,
        default: site.body.id,
      },
      { name: 'cf_text', type: 'text', object_types: objectTypes, default: 'x' },
    ]);
    expect(cfs.status, cfs.text).toBe(201);
  });
  afterAll(async () => app?.close());

  const queriesFor = async (path: string): Promise<number> => {
    await app.api.get(path); // warm-up: token bookkeeping happens at most once a minute
    const before = app.db.queryCount();
    const response = await app.api.get(path);
    expect(response.status, response.text).toBe(200);
    return app.db.queryCount() - before;
  };

  it.each(models.map((m) => [m.label, m] as const))(
    `%s: 5 and ${LARGE} objects cost the same`,
    async (_label, model) => {
      const list = `/api${model.listPath}`;
      const overrides = model.hasTags ? { tags: [{ slug: 'one' }, { slug: 'two' }] } : {};
      const existing = (await app.api.get(`${list}?limit=1`)).body.count as number;
      const bodies = await fixtures.payloads(model.label, LARGE, overrides);
      if (model.spec.fields.some((f) => f.kind === 'image')) {
        // Files travel in multipart forms, one object each.
        for (const body of bodies) expect((await app.api.post(list, body)).status).toBe(201);
      } else {
        const created = await app.api.post(list, bodies);
        expect(created.status, created.text).toBe(201);
      }
      const small = await queriesFor(`${list}?limit=5&offset=${existing}`);
      const large = await queriesFor(`${list}?limit=${LARGE}&offset=${existing}`);
      expect(large).toBe(small);
      // rows + count + auth + one batch per batched key (config contexts take a fixed handful): bounded.
      expect(small).toBeLessThanOrEqual(40);
      const brief = await queriesFor(`${list}?limit=${LARGE}&brief=1&offset=${existing}`);
      expect(brief).toBeLessThanOrEqual(large);
    },
  );
});
