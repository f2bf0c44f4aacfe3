import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/**
 * Shapes and rules of NetBox 4.6.8 that clients rely on: protected child interfaces, wireless channels,
 * 64-bit speeds, deletions that would make names collide, rack space within one bulk request, tags added by
 * name, the role of an ASN.
 */
describe.each(DIALECTS)('NetBox rules on %s', (dialect) => {
  let app: TestApp;
  const id: Record<string, number> = {};
  const create = async (path: string, body: unknown): Promise<Record<string, any>> => {
    const response = await app.api.post(path, body);
    expect(response.status, response.text).toBe(201);
    return response.body;
  };

  beforeAll(async () => {
    app = await startTestApp(dialect);
    id.site = (await create('/api/dcim/sites/', { name: 'Rules site', slug: 'rules-site' })).id;
    const maker = await create('/api/dcim/manufacturers/', { name: 'Rules maker', slug: 'rules-maker' });
    id.type = (
      await create('/api/dcim/device-types/', { manufacturer: maker.id, model: '2U', slug: '2u', u_height: 2 })
    ).id;
    id.role = (await create('/api/dcim/device-roles/', { name: 'Rules role', slug: 'rules-role' })).id;
    id.rack = (await create('/api/dcim/racks/', { name: 'Rules rack', site: id.site })).id;
    id.device = (
      await create('/api/dcim/devices/', {
        name: 'rules-1',
        device_type: id.type,
        role: id.role,
        site: id.site,
      })
    ).id;
  });
  afterAll(async () => app?.close());

  it('refuses to delete an interface with child interfaces, of a device or a VM', async () => {
    const parent = await create('/api/dcim/interfaces/', { device: id.device, name: 'eth0', type: '1000base-t' });
    const child = await create('/api/dcim/interfaces/', {
      device: id.device,
      name: 'eth0.100',
      type: 'virtual',
      parent: parent.id,
    });
    const refused = await app.api.delete(`/api/dcim/interfaces/${parent.id}/`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      detail: `Unable to delete object. 1 dependent objects were found: eth0.100 (${child.id})`,
    });
    // Both at once, or the child first, is fine.
    expect((await app.api.delete('/api/dcim/interfaces/', [{ id: parent.id }, { id: child.id }])).status).toBe(204);

    const type = await create('/api/virtualization/cluster-types/', { name: 'Rules ct', slug: 'rules-ct' });
    const cluster = await create('/api/virtualization/clusters/', { name: 'Rules cluster', type: type.id });
    const vm = await create('/api/virtualization/virtual-machines/', { name: 'rules-vm', cluster: cluster.id });
    const vmParent = await create('/api/virtualization/interfaces/', { virtual_machine: vm.id, name: 'ens3' });
    await create('/api/virtualization/interfaces/', { virtual_machine: vm.id, name: 'ens3.7', parent: vmParent.id });
    expect((await app.api.delete(`/api/virtualization/interfaces/${vmParent.id}/`)).status).toBe(409);
    // Deleting the VM takes its interfaces, children and parents alike.
    expect((await app.api.delete(`/api/virtualization/virtual-machines/${vm.id}/`)).status).toBe(204);
  });

  it('stores wireless channels, filling in their frequency and width', async () => {
    const wlan = await create('/api/dcim/interfaces/', {
      device: id.device,
      name: 'wlan0',
      type: 'ieee802.11ac',
      rf_channel: '5g-36-5180-20',
    });
    expect(wlan.rf_channel).toEqual({ value: '5g-36-5180-20', label: '36 (5180/20 MHz)' });
    expect([wlan.rf_channel_frequency, wlan.rf_channel_width]).toEqual([5180, 20]);
    const stored = (await app.api.get(`/api/dcim/interfaces/${wlan.id}/`)).body;
    expect(stored.rf_channel.value).toBe('5g-36-5180-20');
    const wired = await app.api.post('/api/dcim/interfaces/', {
      device: id.device,
      name: 'eth9',
      type: '1000base-t',
      rf_channel: '5g-36-5180-20',
    });
    expect(wired.body).toEqual({ rf_channel: ['Channel may be set only on wireless interfaces.'] });
    const custom = await app.api.patch(`/api/dcim/interfaces/${wlan.id}/`, { rf_channel_frequency: 5200 });
    expect(custom.body).toEqual({ rf_channel_frequency: ['Cannot specify custom frequency with channel selected.'] });
    expect((await app.api.patch(`/api/dcim/interfaces/${wlan.id}/`, { rf_channel: 'bogus' })).status).toBe(400);
  });

  it('keeps interface speeds beyond 32 bits', async () => {
    const fast = await create('/api/dcim/interfaces/', {
      device: id.device,
      name: 'et-0/0/0',
      type: '400gbase-x-qsfpdd',
      speed: 16_000_000_000,
    });
    expect(fast.speed).toBe(16_000_000_000);
    expect((await app.api.get(`/api/dcim/interfaces/?speed=16000000000`)).body.count).toBe(1);
  });

  it('answers 409 when deleting a tenant group would make tenant names collide', async () => {
    const a = await create('/api/tenancy/tenant-groups/', { name: 'Group A', slug: 'group-a' });
    const b = await create('/api/tenancy/tenant-groups/', { name: 'Group B', slug: 'group-b' });
    await create('/api/tenancy/tenants/', { name: 'Acme', slug: 'acme', group: a.id });
    await create('/api/tenancy/tenants/', { name: 'Acme', slug: 'acme-2' });
    const refused = await app.api.delete(`/api/tenancy/tenant-groups/${a.id}/`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(
      /^Unable to delete object. 2 dependent objects were found: Acme \(\d+\), Acme \(\d+\)$/,
    );
    expect((await app.api.get(`/api/tenancy/tenant-groups/${a.id}/`)).status).toBe(200);
    expect((await app.api.delete(`/api/tenancy/tenant-groups/${b.id}/`)).status).toBe(204);
  });

  it('refuses two devices of one bulk request that overlap in a rack, creating neither', async () => {
    const body = (name: string, position: number) => ({
      name,
      device_type: id.type,
      role: id.role,
      site: id.site,
      rack: id.rack,
      position,
      face: 'front',
    });
    const clash = await app.api.post('/api/dcim/devices/', [body('stack-1', 10), body('stack-2', 11)]);
    expect(clash.status).toBe(400);
    expect(clash.body).toEqual([
      {},
      {
        position: [
          'U11.0 is already occupied or does not have sufficient space to accommodate this device type: 2U (2.0U)',
        ],
      },
    ]);
    expect((await app.api.get('/api/dcim/devices/?name=stack-1')).body.count).toBe(0);
    const fits = await app.api.post('/api/dcim/devices/', [body('stack-1', 10), body('stack-2', 12)]);
    expect(fits.status, fits.text).toBe(201);
    // Moving both in one bulk update: each sees where the earlier one goes, as NetBox saves them in turn.
    const [one, two] = fits.body;
    const moved = await app.api.patch('/api/dcim/devices/', [
      { id: one.id, position: 20 },
      { id: two.id, position: 10 },
    ]);
    expect(moved.status, moved.text).toBe(200);
    const onto = await app.api.patch('/api/dcim/devices/', [
      { id: one.id, position: 30 },
      { id: two.id, position: 31 },
    ]);
    expect(onto.status).toBe(400);
    expect((await app.api.get(`/api/dcim/devices/${one.id}/`)).body.position).toBe(20);
  });

  it('adds and removes tags by name for a user who may only change the object', async () => {
    for (const name of ['Alpha', 'Bravo', 'Charlie'])
      await create('/api/extras/tags/', { name, slug: name.toLowerCase() });
    const site = await create('/api/dcim/sites/', { name: 'Tagged', slug: 'tagged', tags: [{ name: 'Alpha' }] });
    const user = await create('/api/users/users/', { username: 'tagger', password: 'Tagger-Password-1' });
    const token = await create('/api/users/tokens/', { user: user.id });
    await create('/api/users/permissions/', {
      name: 'change sites',
      object_types: ['dcim.site'],
      actions: ['view', 'change'],
      users: [user.id],
    });
    const client = app.api.as(`Bearer svc_${token.key}.${token.token}`);
    const added = await client.patch(`/api/dcim/sites/${site.id}/`, { add_tags: [{ name: 'Charlie' }] });
    expect(added.status, added.text).toBe(200);
    expect(added.body.tags.map((t: any) => t.name)).toEqual(['Alpha', 'Charlie']);
    expect(added.body).not.toHaveProperty('add_tags');
    const removed = await client.patch(`/api/dcim/sites/${site.id}/`, { remove_tags: [{ name: 'Alpha' }] });
    expect(removed.body.tags.map((t: any) => t.name)).toEqual(['Charlie']);
    // Replacing the tags by name still needs the right to view them, as in NetBox.
    const replaced = await client.patch(`/api/dcim/sites/${site.id}/`, { tags: [{ name: 'Bravo' }] });
    expect(replaced.status).toBe(400);
  });

  it('gives ASNs a role and counts them on the role', async () => {
    const role = await create('/api/ipam/roles/', { name: 'Transit', slug: 'transit' });
    const rir = await create('/api/ipam/rirs/', { name: 'Rules RIR', slug: 'rules-rir' });
    const asn = await create('/api/ipam/asns/', { asn: 65100, rir: rir.id, role: role.id, sites: [id.site] });
    expect(asn.role).toMatchObject({ id: role.id, name: 'Transit' });
    expect(asn.sites).toEqual([expect.objectContaining({ id: id.site, name: 'Rules site', slug: 'rules-site' })]);
    expect((await app.api.get(`/api/ipam/asns/?role_id=${role.id}`)).body.count).toBe(1);
    const brief = (await app.api.get(`/api/ipam/roles/${role.id}/?brief=1`)).body;
    expect(brief).toMatchObject({ prefix_count: 0, vlan_count: 0, asn_count: 1 });
    expect((await app.api.get(`/api/dcim/sites/${id.site}/`)).body.asns.map((a: any) => a.asn)).toEqual([65100]);
  });
});
