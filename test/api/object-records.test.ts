import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/**
 * Object types written from the registry, and the records kept about other objects: journal entries and
 * bookmarks go with the object they name, and only name objects of the models with their feature.
 */
describe.each(DIALECTS)('object types, journal entries and bookmarks on %s', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect);
  });
  afterAll(async () => app?.close());

  it("describes each model as NetBox's object types do", async () => {
    const site = await app.api.get(`/api/core/object-types/?app_label=dcim&model=site`);
    expect(site.body.results).toEqual([
      expect.objectContaining({
        id: app.context.schema.objectTypeId('dcim.site'),
        display: 'DCIM > Site',
        app_label: 'dcim',
        app_name: 'DCIM',
        model: 'site',
        model_name: 'site',
        model_name_plural: 'sites',
        public: true,
        features: [
          'bookmarks',
          'change_logging',
          'contacts',
          'custom_fields',
          'event_rules',
          'image_attachments',
          'journaling',
          'tags',
        ],
        is_plugin_model: false,
        rest_api_endpoint: '/api/dcim/sites/',
      }),
    ]);
    const tagged = await app.api.get(`/api/core/object-types/?app_label=extras&model=taggeditem`);
    expect(tagged.body.results[0]).toMatchObject({ public: false, features: [] });
    // Written again at every start: a row a client could not write anyway comes back as it was.
    const count = (await app.api.get('/api/core/object-types/?limit=1')).body.count as number;
    expect(count).toBe(app.context.schema.models.size);
  });

  it('removes journal entries and bookmarks with their object, and refuses models without the feature', async () => {
    const site = await app.api.post('/api/dcim/sites/', { name: 'Journaled', slug: 'journaled' });
    const entry = await app.api.post('/api/extras/journal-entries/', {
      assigned_object_type: 'dcim.site',
      assigned_object_id: site.body.id,
      kind: 'warning',
      comments: 'Power work tonight',
    });
    expect(entry.status, entry.text).toBe(201);
    expect(entry.body.display).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} \(Warning\)$/);
    expect(entry.body.assigned_object).toMatchObject({ id: site.body.id, name: 'Journaled' });
    const admin = (await app.api.get('/api/users/users/?username=admin')).body.results[0].id as number;
    expect(entry.body.created_by).toBe(admin);
    const bookmark = await app.api.post('/api/extras/bookmarks/', {
      object_type: 'dcim.site',
      object_id: site.body.id,
      user: admin,
    });
    expect(bookmark.status, bookmark.text).toBe(201);
    // One bookmark of an object per user.
    const again = await app.api.post('/api/extras/bookmarks/', {
      object_type: 'dcim.site',
      object_id: site.body.id,
      user: admin,
    });
    expect(again.status).toBe(400);

    const webhook = await app.api.post('/api/extras/webhooks/', { name: 'W', payload_url: 'http://192.0.2.1/' });
    const refused = await app.api.post('/api/extras/journal-entries/', {
      assigned_object_type: 'extras.webhook',
      assigned_object_id: webhook.body.id,
      comments: 'Webhooks keep no journal',
    });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body)).toEqual(['assigned_object_type']);

    expect((await app.api.delete(`/api/dcim/sites/${site.body.id}/`)).status).toBe(204);
    expect((await app.api.get(`/api/extras/journal-entries/${entry.body.id}/`)).status).toBe(404);
    expect((await app.api.get(`/api/extras/bookmarks/${bookmark.body.id}/`)).status).toBe(404);
  });
});
