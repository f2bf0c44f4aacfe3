import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/**
 * VPN rules as NetBox's models check them (IKE versions and modes, IPSec algorithms, one tunnel per interface,
 * two ends for a point-to-point L2VPN), and the L2VPN termination that interfaces and VLANs show.
 */
describe.each(DIALECTS)('vpn on %s', (dialect) => {
  let app: TestApp;
  const id: Record<string, number> = {};

  const create = async (path: string, body: unknown): Promise<any> => {
    const response = await app.api.post(path, body);
    expect(response.status, response.text).toBe(201);
    return response.body;
  };
  const refused = async (path: string, body: unknown): Promise<unknown> => {
    const response = await app.api.post(path, body);
    expect(response.status, response.text).toBe(400);
    return response.body;
  };

  beforeAll(async () => {
    app = await startTestApp(dialect);
    const site = await create('/api/dcim/sites/', { name: 'Site 1', slug: 'site-1' });
    const manufacturer = await create('/api/dcim/manufacturers/', { name: 'Acme', slug: 'acme' });
    const type = await create('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'R1', slug: 'r1' });
    const role = await create('/api/dcim/device-roles/', { name: 'Router', slug: 'router' });
    const device = await create('/api/dcim/devices/', {
      name: 'edge1',
      site: site.id,
      device_type: type.id,
      role: role.id,
    });
    const interfaces = await create(
      '/api/dcim/interfaces/',
      [1, 2, 3].map((i) => ({ device: device.id, name: `ge-0/0/${i}`, type: '1000base-t' })),
    );
    [id.if1, id.if2, id.if3] = interfaces.map((i: { id: number }) => i.id);
    id.vlan = (await create('/api/ipam/vlans/', { vid: 100, name: 'Data', site: site.id })).id;
    id.tunnel = (await create('/api/vpn/tunnels/', { name: 'T1', encapsulation: 'gre' })).id;
    id.vpws = (await create('/api/vpn/l2vpns/', { name: 'Wire', slug: 'wire', type: 'vpws', identifier: 7 })).id;
  });
  afterAll(async () => {
    await app?.close();
  });

  it("refuses an IKE policy's mode where its version does not take one, and requires it where it does", async () => {
    expect(await refused('/api/vpn/ike-policies/', { name: 'P1', version: 1 })).toEqual({
      __all__: ['Mode is required for selected IKE version'],
    });
    expect(await refused('/api/vpn/ike-policies/', { name: 'P2', version: 2, mode: 'main' })).toEqual({
      __all__: ['Mode cannot be used for selected IKE version'],
    });
    const policy = await create('/api/vpn/ike-policies/', { name: 'P3' });
    expect(policy).toMatchObject({ version: { value: 2, label: 'IKEv2' }, mode: null, proposals: [] });
  });

  it('refuses an IPSec proposal without an encryption or an authentication algorithm', async () => {
    expect(await refused('/api/vpn/ipsec-proposals/', { name: 'Nothing' })).toEqual({
      __all__: ['Encryption and/or authentication algorithm must be defined'],
    });
    expect(await refused('/api/vpn/tunnels/', { name: 'T2', encapsulation: 'carrier-pigeon' })).toHaveProperty(
      'encapsulation',
    );
  });

  it('terminates an interface on one tunnel at a time', async () => {
    const termination = await create('/api/vpn/tunnel-terminations/', {
      tunnel: id.tunnel,
      termination_type: 'dcim.interface',
      termination_id: id.if1,
    });
    expect(termination).toMatchObject({
      display: `T1: Termination ${termination.id}`,
      role: { value: 'peer' },
      termination: { id: id.if1, name: 'ge-0/0/1' },
    });
    const again = await refused('/api/vpn/tunnel-terminations/', {
      tunnel: id.tunnel,
      termination_type: 'dcim.interface',
      termination_id: id.if1,
    });
    expect(JSON.stringify(again)).toContain('An object may be terminated to only one tunnel at a time.');
    const tunnel = await app.api.get(`/api/vpn/tunnels/${id.tunnel}/`);
    expect(tunnel.body.terminations_count).toBe(1);
  });

  it('gives a point-to-point L2VPN two terminations at most', async () => {
    const body = (type: string, object: number) => ({
      l2vpn: id.vpws,
      assigned_object_type: type,
      assigned_object_id: object,
    });
    await create('/api/vpn/l2vpn-terminations/', [body('dcim.interface', id.if2!), body('ipam.vlan', id.vlan!)]);
    expect(await refused('/api/vpn/l2vpn-terminations/', body('dcim.interface', id.if3!))).toEqual({
      __all__: ['VPWS L2VPNs cannot have more than two terminations; found 2 already defined.'],
    });
  });

  it('shows the L2VPN termination on its interface and VLAN, and filters them by L2VPN', async () => {
    const iface = await app.api.get(`/api/dcim/interfaces/${id.if2}/`);
    expect(iface.body.l2vpn_termination).toMatchObject({
      display: expect.stringContaining('<> Wire (7)'),
      l2vpn: { id: id.vpws, name: 'Wire', identifier: 7, type: { value: 'vpws', label: 'VPWS' } },
    });
    const vlan = await app.api.get(`/api/ipam/vlans/${id.vlan}/`);
    expect(vlan.body.l2vpn_termination).toMatchObject({ l2vpn: { id: id.vpws } });
    expect((await app.api.get(`/api/dcim/interfaces/${id.if3}/`)).body.l2vpn_termination).toBeNull();
    const byId = await app.api.get(`/api/dcim/interfaces/?l2vpn_id=${id.vpws}`);
    expect(byId.body.results.map((i: { id: number }) => i.id)).toEqual([id.if2]);
    const byIdentifier = await app.api.get('/api/ipam/vlans/?l2vpn=7');
    expect(byIdentifier.body.count).toBe(1);
    expect((await app.api.get('/api/ipam/vlans/?l2vpn=8')).status).toBe(400);
    const atSite = await app.api.get('/api/vpn/l2vpn-terminations/?site=site-1');
    expect(atSite.body.count).toBe(2);
    // An L2VPN is found by its identifier too (NetBox's search tries the text as a number).
    expect((await app.api.get('/api/vpn/l2vpns/?q=7')).body.count).toBe(1);
    expect((await app.api.get('/api/vpn/l2vpns/?q=wir')).body.count).toBe(1);
  });
});
