import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import { Schema } from '../../runtime/rest/schema.js';
import { registry } from '../../generated/index.js';
import { Fixtures } from '../support/fixtures.js';
import { sampledFor } from '../support/sampling.js';

const schema = new Schema(registry);
const tagged = schema.endpoints().filter((m) => m.hasTags);

/**
 * Tags on every model with the tags feature (on PostgreSQL sampled by kind: test/support/sampling.ts): nested
 * reads, writes by id or attributes, add/remove, filters.
 */
describe.each(DIALECTS)('tags on %s', (dialect) => {
  let app: TestApp;
  let fixtures: Fixtures;
  beforeAll(async () => {
    app = await startTestApp(dialect);
    fixtures = new Fixtures(app.api, schema);
    const created = await app.api.post('/api/extras/tags/', [
      { name: 'Gold', slug: 'gold', color: 'ffd700', weight: 10 },
      { name: 'Blue', slug: 'blue', color: '0000ff' },
      { name: 'Red', slug: 'red' },
      { name: 'Sites only', slug: 'sites-only', object_types: ['dcim.site'] },
    ]);
    expect(created.status, created.text).toBe(201);
  });
  afterAll(async () => app?.close());

  it('has a tag model and tagged models in the slice', () => {
    expect(tagged.map((m) => m.label)).toEqual(
      expect.arrayContaining([
        'dcim.location',
        'dcim.region',
        'dcim.site',
        'dcim.sitegroup',
        'tenancy.tenant',
        'tenancy.tenantgroup',
      ]),
    );
  });

  describe.each(sampledFor(dialect, tagged).map((m) => [m.label, m] as const))('%s', (_label, model) => {
    const list = `/api${model.listPath}`;

    it('writes tags as ids or attributes and reads them nested, ordered by weight then name', async () => {
      const created = await app.api.post(
        list,
        await fixtures.payload(model.label, { tags: [{ slug: 'red' }, { name: 'Blue' }, 1] }),
      );
      expect(created.status, created.text).toBe(201);
      expect(created.body.tags.map((t: { slug: string }) => t.slug)).toEqual(['gold', 'blue', 'red']);
      expect(Object.keys(created.body.tags[0])).toEqual([
        'id',
        'url',
        'display_url',
        'display',
        'name',
        'slug',
        'color',
      ]);
      expect(created.body.tags[0]).toMatchObject({
        id: 1,
        display: 'Gold',
        color: 'ffd700',
        url: `${app.baseUrl}/api/extras/tags/1/`,
      });
      const url = `${list}${created.body.id}/`;

      const added = await app.api.patch(url, { add_tags: [{ slug: 'red' }], remove_tags: [{ slug: 'gold' }] });
      expect(added.body.tags.map((t: { slug: string }) => t.slug)).toEqual(['blue', 'red']);
      const replaced = await app.api.patch(url, { tags: [{ slug: 'gold' }] });
      expect(replaced.body.tags.map((t: { slug: string }) => t.slug)).toEqual(['gold']);
      const cleared = await app.api.patch(url, { tags: [] });
      expect(cleared.body.tags).toEqual([]);
    });

    it('filters by tag (AND), tag__n and tag_id', async () => {
      const both = await fixtures.create(model.label, { tags: [{ slug: 'gold' }, { slug: 'blue' }] });
      const gold = await fixtures.create(model.label, { tags: [{ slug: 'gold' }] });
      const none = await fixtures.create(model.label, {});
      const scope = [both, gold, none].map((o) => `id=${o.id}`).join('&');
      const ids = async (query: string): Promise<number[]> =>
        (await app.api.get(`${list}?${scope}&${query}`)).body.results.map((o: { id: number }) => o.id);
      expect(await ids('tag=gold')).toEqual(expect.arrayContaining([both.id, gold.id]));
      expect(await ids('tag=gold&tag=blue')).toEqual([both.id]);
      expect(await ids('tag__n=gold')).toEqual([none.id]);
      expect(await ids('tag_id=2')).toEqual([both.id]);
      const unknown = await app.api.get(`${list}?tag=nope`);
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ tag: ['Select a valid choice. nope is not one of the available choices.'] });
    });

    it('enforces the add/remove rules', async () => {
      const payload = await fixtures.payload(model.label);
      const both = await app.api.post(list, { ...payload, tags: [1], add_tags: [2] });
      expect(both.body).toEqual({ tags: ['Cannot specify "tags" together with "add_tags" or "remove_tags".'] });
      const removeOnCreate = await app.api.post(list, { ...payload, remove_tags: [1] });
      expect(removeOnCreate.body).toEqual({ remove_tags: ['Cannot use "remove_tags" when creating a new object.'] });
      const object = await fixtures.create(model.label);
      const overlap = await app.api.patch(`${list}${object.id}/`, { add_tags: [{ slug: 'gold' }], remove_tags: [1] });
      expect(overlap.body).toEqual({
        remove_tags: ['Tags may not be present in both "add_tags" and "remove_tags": Gold'],
      });
      const missing = await app.api.patch(`${list}${object.id}/`, { tags: [999] });
      expect(missing.body).toEqual({ tags: ['Related object not found using the provided numeric ID: 999'] });
      if (model.label !== 'dcim.site') {
        const restricted = await app.api.patch(`${list}${object.id}/`, { tags: [{ slug: 'sites-only' }] });
        expect(restricted.status).toBe(400);
        expect(restricted.body).toEqual({
          detail: `Tag Sites only cannot be assigned to ${model.spec.verboseName} objects.`,
        });
      }
    });
  });

  it('counts tagged items and keeps tags when objects go away', async () => {
    const tag = await app.api.get('/api/extras/tags/1/');
    expect(tag.body.tagged_items).toBeGreaterThan(0);
    const site = await fixtures.create('dcim.site', { tags: [{ slug: 'sites-only' }] });
    const before = (await app.api.get('/api/extras/tags/4/')).body.tagged_items;
    expect((await app.api.delete(`/api/dcim/sites/${site.id}/`)).status).toBe(204);
    expect((await app.api.get('/api/extras/tags/4/')).body.tagged_items).toBe(before - 1);
    const invalidType = await app.api.post('/api/extras/tags/', {
      name: 'T',
      slug: 't',
      object_types: ['dcim.nothing'],
    });
    expect(invalidType.status).toBe(400);
  });
});
