import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/**
 * Wireless links as an interface's client sees them (NetBox 4.6.8): the link is the interface's path segment
 * (link_peers, connected_endpoints, _occupied, the occupied and connected filters), the interface points at it
 * while it exists, and only wireless interfaces may be linked. Wireless LANs on interfaces, both ways.
 */
describe.each(DIALECTS)('wireless links and LANs on %s', (dialect) => {
  let app: TestApp;
  const id: Record<string, number> = {};
  type Json = Record<string, any>;

  const create = async (path: string, body: Json): Promise<Json> => {
    const response = await app.api.post(path, body);
    expect(response.status, response.text).toBe(201);
    return response.body;
  };
  const iface = async (name: string): Promise<Json> =>
    (await app.api.get(`/api/dcim/interfaces/${id[name]}/`)).body as Json;
  const names = async (query: string): Promise<string[]> =>
    ((await app.api.get(`/api/dcim/interfaces/?device_id=${id.ap}&${query}`)).body.results as Json[]).map(
      (r) => r.name as string,
    );

  beforeAll(async () => {
    app = await startTestApp(dialect);
    const site = await create('/api/dcim/sites/', { name: 'Campus', slug: 'campus' });
    const maker = await create('/api/dcim/manufacturers/', { name: 'Acme', slug: 'acme' });
    const type = await create('/api/dcim/device-types/', { manufacturer: maker.id, model: 'AP', slug: 'ap' });
    const role = await create('/api/dcim/device-roles/', { name: 'AP', slug: 'ap' });
    const device = (name: string) =>
      create('/api/dcim/devices/', { name, site: site.id, device_type: type.id, role: role.id });
    id.ap = (await device('ap1')).id;
    id.bridge = (await device('bridge1')).id;
    for (const [name, device, type] of [
      ['wlan0', id.ap, 'ieee802.11ax'],
      ['wlan1', id.ap, 'ieee802.11ax'],
      ['eth0', id.ap, '1000base-t'],
      ['radio0', id.bridge, 'ieee802.11ac'],
      ['radio1', id.bridge, 'ieee802.11ac'],
    ] as const)
      id[name] = (await create('/api/dcim/interfaces/', { device, name, type })).id;
    id.link = (
      await create('/api/wireless/wireless-links/', { interface_a: id.wlan0, interface_b: id.radio0, ssid: 'BH-1' })
    ).id;
  });
  afterAll(async () => app?.close());

  it('shows the link on both interfaces, each the other one as peer and endpoint', async () => {
    const wlan0 = await iface('wlan0');
    expect(wlan0.wireless_link).toMatchObject({ id: id.link, ssid: 'BH-1', display: 'BH-1' });
    expect(Object.keys(wlan0.wireless_link)).toEqual(['id', 'url', 'display_url', 'display', 'ssid']);
    expect(wlan0.link_peers.map((p: Json) => p.id)).toEqual([id.radio0]);
    expect(wlan0.link_peers_type).toBe('dcim.interface');
    expect(wlan0.connected_endpoints.map((p: Json) => p.id)).toEqual([id.radio0]);
    expect(wlan0.connected_endpoints_type).toBe('dcim.interface');
    expect(wlan0.connected_endpoints_reachable).toBe(true);
    expect(wlan0._occupied).toBe(true);
    expect(wlan0.cable).toBeNull();
    const radio0 = await iface('radio0');
    expect(radio0.link_peers.map((p: Json) => p.id)).toEqual([id.wlan0]);
    expect(radio0.link_peers[0]._occupied).toBe(true);
    const link = (await app.api.get(`/api/wireless/wireless-links/${id.link}/`)).body;
    expect(link.interface_a).toMatchObject({ id: id.wlan0, _occupied: true, cable: null });
    const wlan1 = await iface('wlan1');
    expect(wlan1).toMatchObject({ wireless_link: null, link_peers: [], link_peers_type: null, _occupied: false });
    expect(wlan1.connected_endpoints).toBeNull();
  });

  it("traces a linked interface's one segment, and finds the device across the link", async () => {
    const trace = await app.api.get(`/api/dcim/interfaces/${id.wlan0}/trace/`);
    expect(trace.status, trace.text).toBe(200);
    expect(trace.body).toHaveLength(1);
    const [near, link, far] = (trace.body as [Json[], Json, Json[]][])[0]!;
    expect(near.map((n) => n.id)).toEqual([id.wlan0]);
    expect(link).toMatchObject({ id: id.link, ssid: 'BH-1', status: { value: 'connected' } });
    expect(far.map((n) => n.id)).toEqual([id.radio0]);
    expect((await app.api.get(`/api/dcim/interfaces/${id.wlan1}/trace/`)).body).toEqual([]);
    const device = await app.api.get('/api/dcim/connected-device/?peer_device=bridge1&peer_interface=radio0');
    expect(device.status, device.text).toBe(200);
    expect(device.body.name).toBe('ap1');
    const none = await app.api.get('/api/dcim/connected-device/?peer_device=ap1&peer_interface=wlan1');
    expect(none.status).toBe(404);
  });

  it('filters interfaces by link, occupancy and connection (a planned link is not connected)', async () => {
    expect(await names(`wireless_link_id=${id.link}`)).toEqual(['wlan0']);
    expect(await names('occupied=true')).toEqual(['wlan0']);
    expect(await names('occupied=false')).toEqual(['eth0', 'wlan1']);
    expect(await names('connected=true')).toEqual(['wlan0']);
    expect(await names('connected=false')).toEqual(['eth0', 'wlan1']);
    const planned = await app.api.patch(`/api/wireless/wireless-links/${id.link}/`, { status: 'planned' });
    expect(planned.status, planned.text).toBe(200);
    expect(await names('connected=true')).toEqual([]);
    expect(await names('occupied=true')).toEqual(['wlan0']);
    expect((await iface('wlan0')).connected_endpoints_reachable).toBe(false);
    await app.api.patch(`/api/wireless/wireless-links/${id.link}/`, { status: 'connected' });
  });

  it('moves the link with its ends, and clears the interfaces when it is deleted', async () => {
    const moved = await app.api.patch(`/api/wireless/wireless-links/${id.link}/`, { interface_b: id.radio1 });
    expect(moved.status, moved.text).toBe(200);
    expect((await iface('radio0')).wireless_link).toBeNull();
    expect((await iface('radio1')).wireless_link.id).toBe(id.link);
    const kept = await app.api.delete(`/api/dcim/interfaces/${id.radio1}/`);
    expect(kept.status).toBe(409);
    expect((await app.api.delete(`/api/wireless/wireless-links/${id.link}/`)).status).toBe(204);
    expect((await iface('wlan0')).wireless_link).toBeNull();
    expect((await iface('radio1'))._occupied).toBe(false);
  });

  it('links only wireless interfaces, as NetBox says it', async () => {
    const wired = await app.api.post('/api/wireless/wireless-links/', { interface_a: id.eth0, interface_b: id.radio0 });
    expect(wired.status).toBe(400);
    expect(wired.body).toEqual({ interface_a: ['1000BASE-T (1GE) is not a wireless interface.'] });
    const noUnit = await app.api.post('/api/wireless/wireless-links/', {
      interface_a: id.wlan1,
      interface_b: id.radio0,
      distance: 5,
    });
    expect(noUnit.status).toBe(400);
    expect(noUnit.body).toEqual({ __all__: ['Must specify a unit when setting a distance'] });
  });

  it('deletes a device with its links, and keeps the peer interface', async () => {
    const ap = (await app.api.get(`/api/dcim/devices/${id.ap}/`)).body as Json;
    const other = await create('/api/dcim/devices/', {
      name: 'ap2',
      site: ap.site.id,
      device_type: ap.device_type.id,
      role: ap.role.id,
    });
    const radio = await create('/api/dcim/interfaces/', { device: other.id, name: 'wlan0', type: 'ieee802.11n' });
    const link = await create('/api/wireless/wireless-links/', { interface_a: radio.id, interface_b: id.radio0 });
    expect((await app.api.delete(`/api/dcim/devices/${other.id}/`)).status).toBe(204);
    expect((await app.api.get(`/api/wireless/wireless-links/${link.id}/`)).status).toBe(404);
    expect((await iface('radio0')).wireless_link).toBeNull();
  });

  it('assigns wireless LANs to interfaces, and lists a LAN by interface', async () => {
    const lan = await create('/api/wireless/wireless-lans/', { ssid: 'corp' });
    const patched = await app.api.patch(`/api/dcim/interfaces/${id.wlan1}/`, { wireless_lans: [lan.id] });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.wireless_lans).toEqual([
      { id: lan.id, url: lan.url, display: 'corp', ssid: 'corp', description: '' },
    ]);
    expect(await names(`wireless_lan_id=${lan.id}`)).toEqual(['wlan1']);
    const lans = await app.api.get(`/api/wireless/wireless-lans/?interface_id=${id.wlan1}`);
    expect(lans.body.results.map((l: Json) => l.ssid)).toEqual(['corp']);
  });
});
