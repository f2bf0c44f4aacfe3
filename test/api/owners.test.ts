import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../generated/index.js';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/**
 * Owners (NetBox 4.6's users.Owner): every model with NetBox's OwnerMixin has an `owner`, shown nested,
 * written by id, filtered by owner and owner group; an owner in use cannot be deleted.
 */
describe.each(DIALECTS)('owners on %s', (dialect) => {
  let app: TestApp;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    app = await startTestApp(dialect);
    const created = async (path: string, body: Record<string, unknown>): Promise<number> => {
      const response = await app.api.post(path, body);
      expect(response.status, response.text).toBe(201);
      return response.body.id as number;
    };
    ids.network = await created('/api/users/owner-groups/', { name: 'Network' });
    ids.core = await created('/api/users/owners/', { name: 'Core team', group: ids.network, description: 'Core' });
    ids.edge = await created('/api/users/owners/', { name: 'Edge team' });
    ids.owned = await created('/api/dcim/sites/', { name: 'Owned', slug: 'owned', owner: ids.core });
    ids.edgeSite = await created('/api/dcim/sites/', { name: 'Edge', slug: 'edge', owner: ids.edge });
    ids.free = await created('/api/dcim/sites/', { name: 'Free', slug: 'free' });
  });
  afterAll(async () => app?.close());

  it('shows the owner nested, as NetBox does, and null when there is none', async () => {
    const site = await app.api.get(`/api/dcim/sites/${ids.owned}/`);
    expect(site.body.owner).toEqual({
      id: ids.core,
      url: expect.stringMatching(new RegExp(`^https?://[^/]+/api/users/owners/${ids.core}/$`)),
      display: 'Core team',
      name: 'Core team',
      description: 'Core',
    });
    expect((await app.api.get(`/api/dcim/sites/${ids.free}/`)).body.owner).toBeNull();
    const owner = await app.api.get(`/api/users/owners/${ids.core}/`);
    expect(owner.body.group).toMatchObject({ id: ids.network, name: 'Network' });
    expect((await app.api.get(`/api/users/owner-groups/${ids.network}/`)).body.member_count).toBe(1);
  });

  it('filters by owner and owner group, by id and by name, and their negations', async () => {
    const names = async (query: string): Promise<string[]> => {
      const response = await app.api.get(`/api/dcim/sites/?${query}&ordering=name`);
      expect(response.status, response.text).toBe(200);
      return response.body.results.map((s: { name: string }) => s.name);
    };
    expect(await names(`owner_id=${ids.core}`)).toEqual(['Owned']);
    expect(await names('owner=Core+team&owner=Edge+team')).toEqual(['Edge', 'Owned']);
    expect(await names(`owner_id__n=${ids.core}`)).toEqual(['Edge', 'Free']);
    expect(await names('owner_id=null')).toEqual(['Free']);
    expect(await names(`owner_group_id=${ids.network}`)).toEqual(['Owned']);
    expect(await names('owner_group=Network')).toEqual(['Owned']);
    expect(await names('owner_group__n=Network')).toEqual(['Edge', 'Free']);
  });

  it('writes and clears the owner, and refuses one that does not exist', async () => {
    const patched = await app.api.patch(`/api/dcim/sites/${ids.free}/`, { owner: ids.edge });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.owner.name).toBe('Edge team');
    expect((await app.api.patch(`/api/dcim/sites/${ids.free}/`, { owner: null })).body.owner).toBeNull();
    const missing = await app.api.patch(`/api/dcim/sites/${ids.free}/`, { owner: 999999 });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body)).toEqual(['owner']);
  });

  it('keeps an owner that objects still have, and an owner group that owners are in', async () => {
    const owner = await app.api.delete(`/api/users/owners/${ids.edge}/`);
    expect(owner.status, owner.text).toBe(409);
    const group = await app.api.delete(`/api/users/owner-groups/${ids.network}/`);
    expect(group.status, group.text).toBe(409);
    expect((await app.api.get(`/api/users/owners/${ids.edge}/`)).status).toBe(200);
  });

  it("gives every model with NetBox's OwnerMixin an owner", () => {
    const owned = Object.values(registry.models)
      .filter((m) => m.fields.some((f) => f.name === 'owner' && f.kind === 'fk' && f.target === 'users.owner'))
      .map((m) => m.label);
    expect(owned.length).toBeGreaterThanOrEqual(42);
    expect(owned).toEqual(expect.arrayContaining(['dcim.site', 'dcim.interface', 'extras.tag', 'ipam.vlan']));
  });
});
