import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { housekeeping } from '../../runtime/events/housekeeping.js';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/** Change records: one per changed object per request, in the write's transaction, read-only over the API. */
describe.each(DIALECTS)('change logging on %s', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect);
    for (const tag of ['alpha', 'beta']) await app.api.post('/api/extras/tags/', { name: tag, slug: tag });
  });
  afterAll(async () => app?.close());

  const changesOf = async (query: string) => (await app.api.get(`/api/core/object-changes/?${query}`)).body;

  it('records a create with the user, the request id, the message and the new state', async () => {
    const created = await app.api.post('/api/dcim/sites/', {
      name: 'Log Site',
      slug: 'log-site',
      tags: [{ name: 'alpha' }],
      changelog_message: 'Initial build',
    });
    expect(created.status, created.text).toBe(201);
    const requestId = created.headers.get('x-request-id')!;
    const page = await changesOf(`request_id=${requestId}`);
    expect(page.count).toBe(1);
    const record = page.results[0];
    expect(record).toMatchObject({
      display: 'DCIM | site Log Site created by admin',
      user: { username: 'admin' },
      user_name: 'admin',
      request_id: requestId,
      action: { value: 'create', label: 'Created' },
      changed_object_type: 'dcim.site',
      changed_object_id: created.body.id,
      changed_object: { id: created.body.id, name: 'Log Site' },
      object_repr: 'Log Site',
      message: 'Initial build',
      prechange_data: null,
    });
    expect(record.postchange_data).toMatchObject({
      name: 'Log Site',
      slug: 'log-site',
      status: 'active',
      region: null,
      tags: ['alpha'],
      custom_fields: {},
    });
    expect(record.postchange_data).not.toHaveProperty('id');
    expect(record.postchange_data).not.toHaveProperty('created');
    expect(record.postchange_data).not.toHaveProperty('last_updated');
    expect(new Date(record.time).getTime()).toBeGreaterThan(Date.now() - 60_000);
    // The same record through the old path.
    const old = await app.api.get(`/api/extras/object-changes/${record.id}/`);
    expect(old.status).toBe(200);
    expect(old.body.id).toBe(record.id);
    expect((await app.api.get('/api/extras/')).body['object-changes']).toMatch(/\/api\/extras\/object-changes\/$/);
    expect((await app.api.get('/api/core/')).body['object-changes']).toMatch(/\/api\/core\/object-changes\/$/);
    expect((await app.api.get(`/api/dcim/sites/?created_by_request=${requestId}`)).body.count).toBe(1);
  });

  it('records updates with the state before and after, and skips updates that change nothing', async () => {
    const site = (await app.api.post('/api/dcim/sites/', { name: 'Upd Site', slug: 'upd-site' })).body;
    const updated = await app.api.patch(`/api/dcim/sites/${site.id}/`, {
      description: 'now described',
      tags: [{ name: 'beta' }],
    });
    const requestId = updated.headers.get('x-request-id')!;
    const [record] = (await changesOf(`request_id=${requestId}`)).results;
    expect(record.action.value).toBe('update');
    expect(record.prechange_data).toMatchObject({ description: '', tags: [] });
    expect(record.postchange_data).toMatchObject({ description: 'now described', tags: ['beta'] });
    expect(record.display).toBe('DCIM | site Upd Site updated by admin');
    expect((await app.api.get(`/api/dcim/sites/?updated_by_request=${requestId}`)).body.results[0].id).toBe(site.id);

    const same = await app.api.patch(`/api/dcim/sites/${site.id}/`, { description: 'now described' });
    expect(same.status).toBe(200);
    expect((await changesOf(`request_id=${same.headers.get('x-request-id')}`)).count).toBe(0);
  });

  it('records every object of a bulk write under one request id, and nothing for a rolled-back one', async () => {
    const bulk = await app.api.post('/api/dcim/sites/', [
      { name: 'Bulk 1', slug: 'bulk-1', changelog_message: 'bulk' },
      { name: 'Bulk 2', slug: 'bulk-2', changelog_message: 'bulk' },
      { name: 'Bulk 3', slug: 'bulk-3', changelog_message: 'bulk' },
    ]);
    expect(bulk.status).toBe(201);
    const page = await changesOf(`request_id=${bulk.headers.get('x-request-id')}`);
    expect(page.count).toBe(3);
    expect(page.results.map((r: any) => r.message)).toEqual(['bulk', 'bulk', 'bulk']);

    const before = (await changesOf('limit=1')).count;
    const failed = await app.api.post('/api/dcim/sites/', [
      { name: 'Fine', slug: 'fine' },
      { name: 'Broken', slug: 'not a slug!' },
    ]);
    expect(failed.status).toBe(400);
    expect((await changesOf('limit=1')).count).toBe(before);

    const ids = bulk.body.map((s: any) => ({ id: s.id }));
    const removed = await app.api.delete('/api/dcim/sites/', ids);
    expect(removed.status).toBe(204);
    const deletes = await changesOf(`request_id=${removed.headers.get('x-request-id')}`);
    expect(deletes.count).toBe(3);
    for (const record of deletes.results) {
      expect(record.action.value).toBe('delete');
      expect(record.changed_object).toBeNull();
      expect(record.postchange_data).toBeNull();
      expect(record.prechange_data.name).toMatch(/^Bulk \d$/);
    }
  });

  it('records cascaded deletions, each object once', async () => {
    const site = (await app.api.post('/api/dcim/sites/', { name: 'Cascade Site', slug: 'cascade-site' })).body;
    const location = (
      await app.api.post('/api/dcim/locations/', { name: 'Room', slug: 'room', site: site.id, status: 'active' })
    ).body;
    const child = (
      await app.api.post('/api/dcim/locations/', {
        name: 'Cage',
        slug: 'cage',
        site: site.id,
        parent: location.id,
        status: 'active',
      })
    ).body;
    const removed = await app.api.delete(`/api/dcim/locations/${location.id}/`);
    expect(removed.status).toBe(204);
    const page = await changesOf(`request_id=${removed.headers.get('x-request-id')}`);
    expect(page.results.map((r: any) => [r.changed_object_id, r.action.value]).sort()).toEqual(
      [
        [location.id, 'delete'],
        [child.id, 'delete'],
      ].sort(),
    );
  });

  it('records the parent of components as the related object, filterable', async () => {
    const site = (await app.api.post('/api/dcim/sites/', { name: 'Rel Site', slug: 'rel-site' })).body;
    const maker = (await app.api.post('/api/dcim/manufacturers/', { name: 'Rel Maker', slug: 'rel-maker' })).body;
    const type = (
      await app.api.post('/api/dcim/device-types/', { manufacturer: maker.id, model: 'Rel Type', slug: 'rel-type' })
    ).body;
    const role = (await app.api.post('/api/dcim/device-roles/', { name: 'Rel Role', slug: 'rel-role' })).body;
    const device = (
      await app.api.post('/api/dcim/devices/', { name: 'rel-1', device_type: type.id, role: role.id, site: site.id })
    ).body;
    const iface = await app.api.post('/api/dcim/interfaces/', { device: device.id, name: 'eth0', type: '1000base-t' });
    expect(iface.status, iface.text).toBe(201);
    const page = await changesOf(`related_object_type=dcim.device&related_object_id=${device.id}`);
    expect(page.count).toBe(1);
    expect(page.results[0]).toMatchObject({ changed_object_type: 'dcim.interface', changed_object_id: iface.body.id });
    expect(page.results[0]).not.toHaveProperty('related_object_type');
    expect((await changesOf(`related_object_id=${device.id}&related_object_type=dcim.site`)).count).toBe(0);
    expect((await app.api.get('/api/core/object-changes/?related_object_id=x')).status).toBe(400);
  });

  it('names an object as its display does, through related objects (a device without a name)', async () => {
    const site = (await app.api.post('/api/dcim/sites/', { name: 'Repr Site', slug: 'repr-site' })).body;
    const maker = (await app.api.post('/api/dcim/manufacturers/', { name: 'Juniper', slug: 'juniper' })).body;
    const type = (await app.api.post('/api/dcim/device-types/', { manufacturer: maker.id, model: 'MX2', slug: 'mx2' }))
      .body;
    const role = (await app.api.post('/api/dcim/device-roles/', { name: 'Repr Role', slug: 'repr-role' })).body;
    const created = await app.api.post('/api/dcim/devices/', { device_type: type.id, role: role.id, site: site.id });
    expect(created.status, created.text).toBe(201);
    const { id, display } = created.body;
    expect(display).toBe(`Juniper MX2 (${id})`);
    expect((await app.api.patch(`/api/dcim/devices/${id}/`, { serial: 'A1' })).status).toBe(200);
    expect((await app.api.delete(`/api/dcim/devices/${id}/`)).status).toBe(204);
    const page = await changesOf(`changed_object_type=dcim.device&changed_object_id=${id}&ordering=time`);
    expect(
      page.results.map((r: { action: { value: string }; object_repr: string }) => [r.action.value, r.object_repr]),
    ).toEqual([
      ['create', display],
      ['update', display],
      ['delete', display],
    ]);
  });

  it('filters by user, action, type, object, time and text', async () => {
    const site = (await app.api.post('/api/dcim/sites/', { name: 'Filter Site', slug: 'filter-site' })).body;
    const admin = (await app.api.get('/api/users/users/?username=admin')).body.results[0];
    expect((await changesOf('user=admin&limit=1')).count).toBeGreaterThan(0);
    expect((await changesOf(`user_id=${admin.id}&limit=1`)).count).toBeGreaterThan(0);
    expect((await app.api.get('/api/core/object-changes/?user=nobody')).status).toBe(400);
    const ofSite = await changesOf(`changed_object_type=dcim.site&changed_object_id=${site.id}`);
    expect(ofSite.count).toBe(1);
    expect((await changesOf(`action=delete&changed_object_id=${site.id}`)).count).toBe(0);
    expect((await changesOf('q=filter site')).count).toBe(1);
    expect((await changesOf(`time_after=${new Date(Date.now() + 3_600_000).toISOString()}`)).count).toBe(0);
    expect((await changesOf('time_before=2001-01-01')).count).toBe(0);
    expect((await changesOf(`time_after=2001-01-01&changed_object_id=${site.id}`)).count).toBeGreaterThan(0);
    const bad = await app.api.get('/api/core/object-changes/?time_after=yesterday');
    expect(bad.status).toBe(400);
    // Newest first.
    const newest = await changesOf('limit=2');
    expect(newest.results[0].time >= newest.results[1].time).toBe(true);
  });

  it('is read-only, and visible only with permission', async () => {
    const post = await app.api.post('/api/core/object-changes/', { object_repr: 'forged' });
    expect(post.status).toBe(405);
    const [record] = (await changesOf('limit=1')).results;
    expect((await app.api.patch(`/api/core/object-changes/${record.id}/`, { message: 'x' })).status).toBe(405);
    expect((await app.api.delete(`/api/core/object-changes/${record.id}/`)).status).toBe(405);

    const user = await app.api.post('/api/users/users/', { username: 'viewer', password: 'Viewer-Password-1' });
    const token = await app.api.post('/api/users/tokens/', { user: user.body.id });
    const viewer = app.api.as(`Bearer svc_${token.body.key}.${token.body.token}`);
    const refused = await viewer.get('/api/core/object-changes/');
    expect(refused.status).toBe(403);
    await app.api.post('/api/users/permissions/', {
      name: 'changelog',
      object_types: ['core.objectchange'],
      actions: ['view'],
      users: [user.body.id],
    });
    expect((await viewer.get('/api/core/object-changes/')).status).toBe(200);
  });

  it('housekeeping deletes records older than CHANGELOG_RETENTION days', async () => {
    const [newest] = (await changesOf('limit=1')).results;
    const total = (await changesOf('limit=1')).count;
    await app.db.knex('core_objectchange').where('id', newest.id).update({ time: '2001-01-01T00:00:00.000000Z' });
    expect(await housekeeping(app.context)).toMatchObject({ changes: 1 });
    expect((await changesOf('limit=1')).count).toBe(total - 1);
    expect((await app.api.get(`/api/core/object-changes/${newest.id}/`)).status).toBe(404);
  });
});
