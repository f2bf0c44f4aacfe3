import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/** Tree models (regions here; every tree model shares the code): order, depth, ancestry filters, counts, moves. */
describe.each(DIALECTS)('trees and deletion rules on %s', (dialect) => {
  let app: TestApp;
  const id: Record<string, number> = {};
  const create = async (path: string, body: Record<string, unknown>): Promise<Record<string, any>> => {
    const response = await app.api.post(path, body);
    expect(response.status, response.text).toBe(201);
    return response.body;
  };

  beforeAll(async () => {
    app = await startTestApp(dialect);
    for (const [name, parent] of [
      ['Europe', null],
      ['Asia', null],
      ['France', 'Europe'],
      ['Belgium', 'Europe'],
      ['Paris area', 'France'],
      ['Japan', 'Asia'],
      ['europe-lowercase', null],
    ] as const) {
      const slug = name.toLowerCase().replace(/\s+/g, '-');
      id[name] = (await create('/api/dcim/regions/', { name, slug, parent: parent ? id[parent] : null })).id;
    }
    id.paris = (await create('/api/dcim/sites/', { name: 'Paris 1', slug: 'paris-1', region: id['Paris area'] })).id;
    id.brussels = (
      await create('/api/dcim/sites/', { name: 'Brussels', slug: 'brussels', region: { slug: 'belgium' } })
    ).id;
    id.tokyo = (await create('/api/dcim/sites/', { name: 'Tokyo', slug: 'tokyo', region: id.Japan })).id;
  });
  afterAll(async () => app?.close());

  const names = async (query = ''): Promise<string[]> =>
    (await app.api.get(`/api/dcim/regions/?limit=0${query}`)).body.results.map((r: { name: string }) => r.name);

  it('lists depth-first with siblings by name, with _depth and the legacy nested parent', async () => {
    expect(await names()).toEqual(['Asia', 'Japan', 'Europe', 'Belgium', 'France', 'Paris area', 'europe-lowercase']);
    const paris = (await app.api.get(`/api/dcim/regions/${id['Paris area']}/`)).body;
    expect(paris._depth).toBe(2);
    expect(paris.parent).toEqual({
      id: id.France,
      url: `${app.baseUrl}/api/dcim/regions/${id.France}/`,
      display_url: `${app.baseUrl}/dcim/regions/${id.France}/`,
      display: 'France',
      name: 'France',
      slug: 'france',
      _depth: 1,
    });
    expect(await names('&ordering=-name')).toEqual([
      'europe-lowercase',
      'Paris area',
      'Japan',
      'France',
      'Europe',
      'Belgium',
      'Asia',
    ]);
  });

  it('filters parent directly and ancestor over the whole subtree', async () => {
    expect(await names('&parent=europe')).toEqual(['Belgium', 'France']);
    expect(await names(`&parent_id=${id.Europe}`)).toEqual(['Belgium', 'France']);
    expect(await names('&parent_id=null')).toEqual(['Asia', 'Europe', 'europe-lowercase']);
    expect(await names('&ancestor=europe')).toEqual(['Belgium', 'France', 'Paris area']);
    expect(await names(`&ancestor_id=${id.Asia}`)).toEqual(['Japan']);
  });

  it('matches descendants in tree filters and counts them cumulatively', async () => {
    const sites = async (query: string): Promise<string[]> =>
      (await app.api.get(`/api/dcim/sites/?${query}`)).body.results.map((s: { name: string }) => s.name);
    expect(await sites('region=europe')).toEqual(['Brussels', 'Paris 1']);
    expect(await sites(`region_id=${id.France}`)).toEqual(['Paris 1']);
    expect(await sites('region=europe&region=asia')).toEqual(['Brussels', 'Paris 1', 'Tokyo']);
    expect(await sites('region__n=europe')).toEqual(['Tokyo']);
    const counts = (await app.api.get('/api/dcim/regions/?limit=0&fields=name,site_count')).body.results;
    expect(counts).toEqual([
      { name: 'Asia', site_count: 1 },
      { name: 'Japan', site_count: 1 },
      { name: 'Europe', site_count: 2 },
      { name: 'Belgium', site_count: 1 },
      { name: 'France', site_count: 1 },
      { name: 'Paris area', site_count: 1 },
      { name: 'europe-lowercase', site_count: 0 },
    ]);
    const nested = (await app.api.get(`/api/dcim/sites/${id.paris}/`)).body.region;
    expect(nested).toEqual({
      id: id['Paris area'],
      url: `${app.baseUrl}/api/dcim/regions/${id['Paris area']}/`,
      display: 'Paris area',
      name: 'Paris area',
      slug: 'paris-area',
      description: '',
      site_count: 1,
      _depth: 2,
    });
  });

  it('refuses cycles and moves subtrees along with their node', async () => {
    const self = await app.api.patch(`/api/dcim/regions/${id.Europe}/`, { parent: id.Europe });
    expect(self.status).toBe(400);
    expect(self.body).toEqual({ parent: ['Cannot assign self or child region as parent.'] });
    const child = await app.api.patch(`/api/dcim/regions/${id.Europe}/`, { parent: id['Paris area'] });
    expect(child.body).toEqual({ parent: ['Cannot assign self or child region as parent.'] });

    const moved = await app.api.patch(`/api/dcim/regions/${id.France}/`, { parent: id.Asia });
    expect(moved.status).toBe(200);
    expect(moved.body._depth).toBe(1);
    expect(await names()).toEqual(['Asia', 'France', 'Paris area', 'Japan', 'Europe', 'Belgium', 'europe-lowercase']);
    expect((await app.api.get(`/api/dcim/regions/${id['Paris area']}/`)).body._depth).toBe(2);
    const renamed = await app.api.patch(`/api/dcim/regions/${id.France}/`, { name: 'Zzz France', parent: null });
    expect(renamed.body._depth).toBe(0);
    expect(await names()).toEqual([
      'Asia',
      'Japan',
      'Europe',
      'Belgium',
      'Zzz France',
      'Paris area',
      'europe-lowercase',
    ]);
    await app.api.patch(`/api/dcim/regions/${id.France}/`, { name: 'France', parent: id.Europe });
    expect(await names()).toEqual(['Asia', 'Japan', 'Europe', 'Belgium', 'France', 'Paris area', 'europe-lowercase']);
  });

  it('applies unique-together rules with NetBox messages', async () => {
    const topLevel = await app.api.post('/api/dcim/regions/', { name: 'Europe', slug: 'europe-2' });
    expect(topLevel.body).toEqual({ __all__: ['A top-level region with this name already exists.'] });
    const sibling = await app.api.post('/api/dcim/regions/', { name: 'France', slug: 'france-2', parent: id.Europe });
    expect(sibling.body).toEqual({ __all__: ['Region with this Parent and Name already exists.'] });
    const elsewhere = await app.api.post('/api/dcim/regions/', {
      name: 'France',
      slug: 'france-asia',
      parent: id.Asia,
    });
    expect(elsewhere.status).toBe(201);
    const tenants = await app.api.post('/api/tenancy/tenants/', [
      { name: 'T', slug: 't' },
      { name: 'T', slug: 't2' },
    ]);
    expect(tenants.body).toEqual([{}, { __all__: ['Constraint “tenancy_tenant_unique_name” is violated.'] }]);
  });

  it('keeps locations inside their site', async () => {
    const other = await create('/api/dcim/sites/', { name: 'Other', slug: 'other' });
    const floor = await create('/api/dcim/locations/', { name: 'Floor 1', slug: 'floor-1', site: id.paris });
    const wrong = await app.api.post('/api/dcim/locations/', {
      name: 'Room',
      slug: 'room',
      site: other.id,
      parent: floor.id,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ __all__: ['Parent location (Floor 1) must belong to the same site (Other).'] });
    const room = await create('/api/dcim/locations/', { name: 'Room', slug: 'room', site: id.paris, parent: floor.id });
    expect(room._depth).toBe(1);
    const duplicate = await app.api.post('/api/dcim/locations/', { name: 'Floor 1', slug: 'floor-x', site: id.paris });
    expect(duplicate.body).toEqual({
      __all__: ['A location with this name already exists within the specified site.'],
    });
    const byRegion = await app.api.get('/api/dcim/locations/?region=europe');
    expect(byRegion.body.results.map((l: { name: string }) => l.name)).toEqual(['Floor 1', 'Room']);
  });

  it('protects, cascades and clears on delete, all or nothing', async () => {
    const tenant = await create('/api/tenancy/tenants/', { name: 'Owner', slug: 'owner' });
    await app.api.patch(`/api/dcim/sites/${id.tokyo}/`, { tenant: tenant.id });
    const blocked = await app.api.delete(`/api/tenancy/tenants/${tenant.id}/`);
    expect(blocked.status).toBe(409);
    expect(blocked.body).toEqual({
      detail: `Unable to delete object. 1 dependent objects were found: Tokyo (${id.tokyo})`,
    });
    expect((await app.api.get(`/api/tenancy/tenants/${tenant.id}/`)).status).toBe(200);

    const bulkBlocked = await app.api.delete('/api/tenancy/tenants/', [{ id: tenant.id }]);
    expect(bulkBlocked.status).toBe(409);

    const europe = await app.api.delete(`/api/dcim/regions/${id.Europe}/`);
    expect(europe.status).toBe(204);
    expect(await names()).toEqual(['Asia', 'France', 'Japan', 'europe-lowercase']);
    const paris = (await app.api.get(`/api/dcim/sites/${id.paris}/`)).body;
    expect(paris.region).toBeNull();
    const site = await app.api.delete(`/api/dcim/sites/${id.paris}/`);
    expect(site.status).toBe(204);
    expect((await app.api.get('/api/dcim/locations/?q=Floor')).body.count).toBe(0);
  });
});
