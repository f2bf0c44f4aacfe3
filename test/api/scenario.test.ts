import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/**
 * One end-to-end scenario per database, driven over real HTTP the way a network engineer builds a small
 * site: places and racks, hardware and devices with interfaces (a LAG and a sub-interface), a VRF with a
 * prefix tree and addresses on interfaces, VLANs on access and trunk ports, circuits terminating at sites, a
 * cluster with virtual machines; then the inventory is queried back (filters, search, brief and field
 * selection, counts, pagination) and torn down in dependency order.
 *
 * The steps share state and run in order: a failing step makes the following ones fail too.
 */
describe.each(DIALECTS)('network scenario on %s', (dialect) => {
  let app: TestApp;
  /** Ids of the objects the scenario creates, by a short name. */
  const id: Record<string, number> = {};

  const create = async (path: string, body: unknown): Promise<any> => {
    const response = await app.api.post(path, body);
    expect(response.status, `POST ${path}: ${response.text}`).toBe(201);
    return response.body;
  };
  const get = async (path: string): Promise<any> => {
    const response = await app.api.get(path);
    expect(response.status, `GET ${path}: ${response.text}`).toBe(200);
    return response.body;
  };
  const patch = async (path: string, body: unknown): Promise<any> => {
    const response = await app.api.patch(path, body);
    expect(response.status, `PATCH ${path}: ${response.text}`).toBe(200);
    return response.body;
  };
  const remove = async (path: string): Promise<void> => {
    const response = await app.api.delete(path);
    expect(response.status, `DELETE ${path}: ${response.text}`).toBe(204);
  };
  /** The results of a list query (one page of up to 1000). */
  const results = async (path: string): Promise<any[]> => {
    const body = await get(`${path}${path.includes('?') ? '&' : '?'}limit=0`);
    expect(body.count).toBe(body.results.length);
    return body.results;
  };
  /** The values of one key of every result, in order. */
  const pluck = async (path: string, key = 'name'): Promise<any[]> => (await results(path)).map((o) => o[key]);
  const count = async (path: string): Promise<number> =>
    (await get(`${path}${path.includes('?') ? '&' : '?'}limit=1`)).count;
  const absolute = (path: string): string => `${app.baseUrl}${path}`;

  beforeAll(async () => {
    app = await startTestApp(dialect);
  });
  afterAll(async () => app?.close());

  it('builds the places: a region, two sites, a location and two racks', async () => {
    id.europe = (await create('/api/dcim/regions/', { name: 'Europe', slug: 'europe' })).id;
    const par1 = await create('/api/dcim/sites/', {
      name: 'PAR1',
      slug: 'par1',
      region: id.europe,
      status: 'active',
      facility: 'Equinix PA3',
      time_zone: 'Europe/Paris',
    });
    id.par1 = par1.id;
    expect(par1).toMatchObject({
      display: 'PAR1',
      url: absolute(`/api/dcim/sites/${par1.id}/`),
      status: { value: 'active', label: 'Active' },
      region: { id: id.europe, name: 'Europe', slug: 'europe' },
      time_zone: 'Europe/Paris',
      device_count: 0,
    });
    expect(par1.region._depth).toBe(0);
    id.ams1 = (await create('/api/dcim/sites/', { name: 'AMS1', slug: 'ams1', region: id.europe })).id;

    const hall = await create('/api/dcim/locations/', { name: 'Hall 1', slug: 'hall-1', site: id.par1 });
    id.hall = hall.id;
    expect(hall).toMatchObject({ site: { id: id.par1, name: 'PAR1' }, parent: null, _depth: 0, rack_count: 0 });

    const racks = await create('/api/dcim/racks/', [
      { name: 'R01', site: id.par1, location: id.hall, facility_id: 'PA3-0101', u_height: 42 },
      { name: 'R02', site: id.par1, location: id.hall, status: 'planned' },
    ]);
    expect(racks.map((r: any) => r.display)).toEqual(['R01 (PA3-0101)', 'R02']);
    [id.r01, id.r02] = racks.map((r: any) => r.id);
    expect(racks[1].status).toEqual({ value: 'planned', label: 'Planned' });

    const region = await get(`/api/dcim/regions/${id.europe}/`);
    expect(region.site_count).toBe(2);
    expect((await get(`/api/dcim/locations/${id.hall}/`)).rack_count).toBe(2);
    expect((await get(`/api/dcim/sites/${id.par1}/`)).rack_count).toBe(2);
  });

  it('describes the hardware: a manufacturer, a device type, a role and a platform', async () => {
    id.juniper = (await create('/api/dcim/manufacturers/', { name: 'Juniper', slug: 'juniper' })).id;
    id.junos = (await create('/api/dcim/platforms/', { name: 'Junos', slug: 'junos', manufacturer: id.juniper })).id;
    const type = await create('/api/dcim/device-types/', {
      manufacturer: id.juniper,
      model: 'QFX5120-48Y',
      slug: 'qfx5120-48y',
      u_height: 1,
      default_platform: id.junos,
    });
    id.qfx = type.id;
    expect(type).toMatchObject({
      display: 'QFX5120-48Y',
      manufacturer: { id: id.juniper, name: 'Juniper' },
      default_platform: { id: id.junos, name: 'Junos' },
      u_height: 1,
      device_count: 0,
    });
    const role = await create('/api/dcim/device-roles/', { name: 'Leaf', slug: 'leaf', color: '2196f3' });
    id.leafRole = role.id;
    expect(role).toMatchObject({ color: '2196f3', vm_role: true, device_count: 0, _depth: 0 });
    id.spineRole = (await create('/api/dcim/device-roles/', { name: 'Spine', slug: 'spine' })).id;
  });

  it('racks three devices, which take the platform of their type and the location of their rack', async () => {
    const devices = await create('/api/dcim/devices/', [
      {
        name: 'leaf1',
        device_type: id.qfx,
        role: id.leafRole,
        site: id.par1,
        rack: id.r01,
        position: 10,
        face: 'front',
        serial: 'WS3718000001',
        asset_tag: 'A-0001',
      },
      {
        name: 'leaf2',
        device_type: id.qfx,
        role: id.leafRole,
        site: id.par1,
        rack: id.r01,
        position: 11,
        face: 'front',
      },
      {
        name: 'spine1',
        device_type: id.qfx,
        role: id.spineRole,
        site: id.par1,
        rack: id.r02,
        position: 20,
        face: 'rear',
      },
    ]);
    [id.leaf1, id.leaf2, id.spine1] = devices.map((d: any) => d.id);
    const leaf1 = devices[0];
    // A name and an asset tag: both in the display.
    expect(leaf1).toMatchObject({
      display: 'leaf1 (A-0001)',
      device_type: { id: id.qfx, model: 'QFX5120-48Y', manufacturer: { id: id.juniper } },
      role: { id: id.leafRole, name: 'Leaf' },
      platform: { id: id.junos, name: 'Junos' },
      site: { id: id.par1, name: 'PAR1' },
      location: { id: id.hall, name: 'Hall 1' },
      rack: { id: id.r01, name: 'R01' },
      position: 10,
      face: { value: 'front', label: 'Front' },
      status: { value: 'active', label: 'Active' },
      primary_ip: null,
      primary_ip4: null,
      interface_count: 0,
    });

    // The rack unit is taken on that face.
    const clash = await app.api.post('/api/dcim/devices/', {
      name: 'leaf3',
      device_type: id.qfx,
      role: id.leafRole,
      site: id.par1,
      rack: id.r01,
      position: 10,
      face: 'front',
    });
    expect(clash.status).toBe(400);
    expect(clash.body).toHaveProperty('position');
    // Device names are unique per site.
    const twin = await app.api.post('/api/dcim/devices/', {
      name: 'leaf1',
      device_type: id.qfx,
      role: id.leafRole,
      site: id.par1,
    });
    expect(twin.status).toBe(400);
    expect(twin.body).toEqual({ __all__: ['Device name must be unique per site.'] });
    expect(await count(`/api/dcim/devices/?site_id=${id.par1}`)).toBe(3);
  });

  it('adds interfaces: physical ports, a LAG with members, and a sub-interface on a parent', async () => {
    const ports = (device: number): Record<string, unknown>[] => [
      { device, name: 'xe-0/0/0', type: '10gbase-x-sfpp' },
      { device, name: 'xe-0/0/1', type: '10gbase-x-sfpp' },
      { device, name: 'xe-0/0/2', type: '10gbase-x-sfpp', description: 'uplink' },
      { device, name: 'xe-0/0/10', type: '10gbase-x-sfpp' },
      { device, name: 'ae0', type: 'lag', mtu: 9216 },
      { device, name: 'em0', type: '1000base-t', mgmt_only: true },
    ];
    for (const [name, device] of [
      ['leaf1', id.leaf1],
      ['leaf2', id.leaf2],
      ['spine1', id.spine1],
    ] as const) {
      const created = await create('/api/dcim/interfaces/', ports(device!));
      for (const iface of created) id[`${name}:${iface.name}`] = iface.id;
    }
    // xe-0/0/0 and xe-0/0/1 are members of ae0; xe-0/0/2.100 is a unit of xe-0/0/2.
    for (const name of ['leaf1', 'leaf2', 'spine1']) {
      for (const member of ['xe-0/0/0', 'xe-0/0/1'])
        await patch(`/api/dcim/interfaces/${id[`${name}:${member}`]}/`, { lag: id[`${name}:ae0`] });
    }
    const unit = await create('/api/dcim/interfaces/', {
      device: id.leaf1,
      name: 'xe-0/0/2.100',
      type: 'virtual',
      parent: id['leaf1:xe-0/0/2'],
    });
    id['leaf1:xe-0/0/2.100'] = unit.id;
    expect(unit.parent).toMatchObject({
      id: id['leaf1:xe-0/0/2'],
      display: 'xe-0/0/2',
      name: 'xe-0/0/2',
      device: { id: id.leaf1, name: 'leaf1' },
    });
    id['leaf1:lo0'] = (await create('/api/dcim/interfaces/', { device: id.leaf1, name: 'lo0', type: 'virtual' })).id;

    const member = await get(`/api/dcim/interfaces/${id['leaf1:xe-0/0/0']}/`);
    expect(member.lag).toMatchObject({ id: id['leaf1:ae0'], name: 'ae0', device: { id: id.leaf1 } });
    expect(member.type).toEqual({ value: '10gbase-x-sfpp', label: 'SFP+ (10GE)' });

    // A physical port may not have a parent; a LAG may not be its own member; a member stays on its device.
    const physicalChild = await app.api.post('/api/dcim/interfaces/', {
      device: id.leaf1,
      name: 'xe-0/0/3',
      type: '10gbase-x-sfpp',
      parent: id['leaf1:xe-0/0/2'],
    });
    expect(physicalChild.status).toBe(400);
    expect(physicalChild.body).toEqual({ parent: ['Only virtual interfaces may be assigned to a parent interface.'] });
    const ownMember = await app.api.patch(`/api/dcim/interfaces/${id['leaf1:ae0']}/`, { lag: id['leaf1:ae0'] });
    expect(ownMember.status).toBe(400);
    expect(ownMember.body).toHaveProperty('lag');
    const foreignLag = await app.api.patch(`/api/dcim/interfaces/${id['leaf1:xe-0/0/10']}/`, {
      lag: id['leaf2:ae0'],
    });
    expect(foreignLag.status).toBe(400);
    expect(foreignLag.body).toHaveProperty('lag');

    // Interfaces come back in natural order (xe-0/0/10 after xe-0/0/2), per device.
    expect(await pluck(`/api/dcim/interfaces/?device_id=${id.leaf1}`)).toEqual([
      'ae0',
      'em0',
      'lo0',
      'xe-0/0/0',
      'xe-0/0/1',
      'xe-0/0/2',
      'xe-0/0/2.100',
      'xe-0/0/10',
    ]);
    expect(await pluck(`/api/dcim/interfaces/?lag_id=${id['leaf1:ae0']}`)).toEqual(['xe-0/0/0', 'xe-0/0/1']);
    expect(await pluck(`/api/dcim/interfaces/?parent_id=${id['leaf1:xe-0/0/2']}`)).toEqual(['xe-0/0/2.100']);
    expect(await count('/api/dcim/interfaces/?type=lag')).toBe(3);
    expect(await count('/api/dcim/interfaces/?mgmt_only=true')).toBe(3);
    expect(await count('/api/dcim/interfaces/?kind=virtual')).toBe(5);
    expect(await count('/api/dcim/interfaces/?kind=physical')).toBe(15);
    expect((await get(`/api/dcim/devices/${id.leaf1}/`)).interface_count).toBe(8);
    expect((await get(`/api/dcim/devices/${id.leaf2}/`)).interface_count).toBe(6);
  });

  it('numbers the network: a VRF, a prefix tree, addresses on interfaces and primary IPs', async () => {
    const vrf = await create('/api/ipam/vrfs/', { name: 'Production', rd: '65000:1' });
    id.prod = vrf.id;
    expect(vrf).toMatchObject({ display: 'Production (65000:1)', enforce_unique: true });

    const container = await create('/api/ipam/prefixes/', {
      prefix: '10.10.0.0/16',
      vrf: id.prod,
      status: 'container',
      scope_type: 'dcim.site',
      scope_id: id.par1,
    });
    id.container = container.id;
    expect(container).toMatchObject({
      display: '10.10.0.0/16',
      family: { value: 4, label: 'IPv4' },
      status: { value: 'container', label: 'Container' },
      vrf: { id: id.prod, rd: '65000:1' },
      scope_type: 'dcim.site',
      scope_id: id.par1,
      scope: { id: id.par1, name: 'PAR1', slug: 'par1' },
      children: 0,
      _depth: 0,
    });
    const children = await create('/api/ipam/prefixes/', [
      { prefix: '10.10.1.0/24', vrf: id.prod, description: 'servers' },
      { prefix: '10.10.2.0/24', vrf: id.prod, description: 'fabric' },
      { prefix: '10.10.1.0/26', vrf: id.prod, description: 'servers, first block' },
      { prefix: '2001:db8:10::/48', vrf: id.prod, status: 'container' },
      { prefix: '2001:db8:10:1::/64', vrf: id.prod },
    ]);
    [id.servers, id.fabric, id.block, id.v6container, id.v6servers] = children.map((p: any) => p.id);
    // The hierarchy is kept up to date by every write.
    expect((await get(`/api/ipam/prefixes/${id.container}/`)).children).toBe(3);
    expect(await get(`/api/ipam/prefixes/${id.servers}/`)).toMatchObject({ children: 1, _depth: 1 });
    expect(await get(`/api/ipam/prefixes/${id.block}/`)).toMatchObject({ children: 0, _depth: 2 });
    expect(await get(`/api/ipam/prefixes/${id.v6container}/`)).toMatchObject({ children: 1, _depth: 0 });
    // Host bits and duplicates are refused.
    const hostBits = await app.api.post('/api/ipam/prefixes/', { prefix: '10.10.3.1/24', vrf: id.prod });
    expect(hostBits.status).toBe(400);
    expect(hostBits.body).toEqual({ prefix: ['10.10.3.1/24 is not a valid prefix. Did you mean 10.10.3.0/24?'] });
    const duplicate = await app.api.post('/api/ipam/prefixes/', { prefix: '10.10.2.0/24', vrf: id.prod });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body).toEqual({ prefix: ['Duplicate prefix found in VRF Production (65000:1): 10.10.2.0/24'] });

    const onInterface = (address: string, iface: string, extra: Record<string, unknown> = {}) => ({
      address,
      vrf: id.prod,
      assigned_object_type: 'dcim.interface',
      assigned_object_id: id[iface],
      ...extra,
    });
    const addresses = await create('/api/ipam/ip-addresses/', [
      onInterface('10.10.255.1/32', 'leaf1:lo0', { role: 'loopback', dns_name: 'Leaf1.PAR1.example.net' }),
      onInterface('2001:db8:10:1::1/64', 'leaf1:lo0'),
      onInterface('10.10.1.1/24', 'leaf1:xe-0/0/2.100', { description: 'server gateway' }),
      onInterface('10.10.1.2/24', 'leaf2:ae0'),
      onInterface('10.10.2.1/24', 'spine1:ae0'),
    ]);
    [id.loopback, id.loopback6, id.gateway, id.leaf2ip, id.spineip] = addresses.map((a: any) => a.id);
    expect(addresses[0]).toMatchObject({
      display: '10.10.255.1/32',
      family: { value: 4, label: 'IPv4' },
      role: { value: 'loopback', label: 'Loopback' },
      status: { value: 'active', label: 'Active' },
      dns_name: 'leaf1.par1.example.net',
      assigned_object_type: 'dcim.interface',
      assigned_object_id: id['leaf1:lo0'],
      assigned_object: {
        id: id['leaf1:lo0'],
        url: absolute(`/api/dcim/interfaces/${id['leaf1:lo0']}/`),
        display: 'lo0',
        name: 'lo0',
        device: { id: id.leaf1, name: 'leaf1' },
      },
    });
    expect(addresses[1].family).toEqual({ value: 6, label: 'IPv6' });
    const duplicateIp = await app.api.post('/api/ipam/ip-addresses/', onInterface('10.10.1.1/24', 'leaf2:ae0'));
    expect(duplicateIp.status).toBe(400);
    expect(duplicateIp.body).toEqual({
      address: ['Duplicate IP address found in VRF Production (65000:1): 10.10.1.1/24'],
    });
    expect((await get(`/api/dcim/interfaces/${id['leaf1:lo0']}/`)).count_ipaddresses).toBe(2);

    // Primary addresses must sit on the device's own interfaces and be of the right family.
    const foreign = await app.api.patch(`/api/dcim/devices/${id.leaf1}/`, { primary_ip4: id.spineip });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual({
      primary_ip4: ['The specified IP address (10.10.2.1/24) is not assigned to this device.'],
    });
    const wrongFamily = await app.api.patch(`/api/dcim/devices/${id.leaf1}/`, { primary_ip4: id.loopback6 });
    expect(wrongFamily.status).toBe(400);
    expect(wrongFamily.body).toHaveProperty('primary_ip4');
    const leaf1 = await patch(`/api/dcim/devices/${id.leaf1}/`, {
      primary_ip4: id.loopback,
      primary_ip6: id.loopback6,
    });
    expect(leaf1.primary_ip4).toMatchObject({
      id: id.loopback,
      address: '10.10.255.1/32',
      family: { value: 4, label: 'IPv4' },
      dns_name: 'leaf1.par1.example.net',
      nat_inside: null,
    });
    // Without PREFER_IPV4, the primary IP is the IPv6 one.
    expect(leaf1.primary_ip).toMatchObject({ id: id.loopback6, address: '2001:db8:10:1::1/64' });
    expect((await patch(`/api/dcim/devices/${id.spine1}/`, { primary_ip4: id.spineip })).primary_ip.id).toBe(
      id.spineip,
    );
    // A primary address stays on its device.
    const moved = await app.api.patch(`/api/ipam/ip-addresses/${id.loopback}/`, {
      assigned_object_id: id['leaf2:em0'],
    });
    expect(moved.status).toBe(400);
    expect(moved.body).toEqual({
      __all__: ['Cannot reassign IP address while it is designated as the primary IP for the parent object'],
    });
  });

  it('carries VLANs: a site VLAN group, access and trunk ports', async () => {
    const scoped = await app.api.post('/api/ipam/vlan-groups/', {
      name: 'PAR1 fabric',
      slug: 'par1-fabric',
      scope_type: 'dcim.site',
      scope_id: id.par1,
      vid_ranges: [[100, 199]],
    });
    expect(scoped.status, scoped.text).toBe(201);
    const group = scoped.body;
    id.vlanGroup = group.id;
    expect(group).toMatchObject({
      scope: { id: id.par1, name: 'PAR1' },
      vid_ranges: [[100, 199]],
      total_vlan_ids: 100,
      vlan_count: 0,
    });
    const vlans = await create('/api/ipam/vlans/', [
      { vid: 100, name: 'users', group: id.vlanGroup, site: id.par1 },
      { vid: 110, name: 'servers', group: id.vlanGroup, site: id.par1 },
      { vid: 120, name: 'management', group: id.vlanGroup, site: id.par1, status: 'reserved' },
      { vid: 999, name: 'native' },
    ]);
    [id.users, id.serversVlan, id.mgmt, id.native] = vlans.map((v: any) => v.id);
    expect(vlans[0]).toMatchObject({
      display: 'users (100)',
      group: { id: id.vlanGroup, name: 'PAR1 fabric' },
      site: { id: id.par1 },
      status: { value: 'active', label: 'Active' },
    });
    const outOfRange = await app.api.post('/api/ipam/vlans/', { vid: 300, name: 'far', group: id.vlanGroup });
    expect(outOfRange.status).toBe(400);
    expect(outOfRange.body).toHaveProperty('vid');
    const sameVid = await app.api.post('/api/ipam/vlans/', { vid: 100, name: 'other', group: id.vlanGroup });
    expect(sameVid.status).toBe(400);
    expect(sameVid.body).toEqual({ __all__: ['VLAN with this Group and VLAN ID already exists.'] });

    const access = await patch(`/api/dcim/interfaces/${id['leaf1:xe-0/0/10']}/`, {
      mode: 'access',
      untagged_vlan: id.users,
    });
    expect(access.mode).toEqual({ value: 'access', label: 'Access' });
    expect(access.untagged_vlan).toEqual({
      id: id.users,
      url: absolute(`/api/ipam/vlans/${id.users}/`),
      display: 'users (100)',
      vid: 100,
      name: 'users',
      description: '',
    });
    expect(access.tagged_vlans).toEqual([]);
    const trunk = await patch(`/api/dcim/interfaces/${id['leaf1:ae0']}/`, {
      mode: 'tagged',
      untagged_vlan: id.mgmt,
      tagged_vlans: [id.users, id.serversVlan, id.native],
    });
    expect(trunk.mode.value).toBe('tagged');
    expect(trunk.untagged_vlan.vid).toBe(120);
    expect(trunk.tagged_vlans.map((v: any) => v.vid)).toEqual([100, 110, 999]);
    await patch(`/api/dcim/interfaces/${id['spine1:ae0']}/`, { mode: 'tagged-all', untagged_vlan: id.mgmt });

    // An access port carries no tagged VLANs; without a mode, no untagged VLAN either.
    const taggedOnAccess = await app.api.patch(`/api/dcim/interfaces/${id['leaf1:xe-0/0/10']}/`, {
      tagged_vlans: [id.serversVlan],
    });
    expect(taggedOnAccess.status).toBe(400);
    expect(taggedOnAccess.body).toEqual({ tagged_vlans: ['Interface mode does not support tagged vlans'] });
    const untaggedWithoutMode = await app.api.patch(`/api/dcim/interfaces/${id['leaf2:em0']}/`, {
      untagged_vlan: id.users,
    });
    expect(untaggedWithoutMode.status).toBe(400);
    expect(untaggedWithoutMode.body).toEqual({ untagged_vlan: ['Interface mode does not support untagged vlan'] });

    expect((await app.api.get(`/api/ipam/vlan-groups/${id.vlanGroup}/`)).body.vlan_count).toBe(3);
    const interfaceNames = async (query: string): Promise<string[]> =>
      (await results(`/api/dcim/interfaces/?${query}`)).map((i) => `${i.device.name}:${i.name}`);
    expect(await interfaceNames(`vlan_id=${id.users}`)).toEqual(['leaf1:ae0', 'leaf1:xe-0/0/10']);
    expect(await interfaceNames('vlan=120')).toEqual(['leaf1:ae0', 'spine1:ae0']);
    expect(await interfaceNames('mode=access')).toEqual(['leaf1:xe-0/0/10']);
    expect(await interfaceNames('mode=tagged&mode=tagged-all')).toEqual(['leaf1:ae0', 'spine1:ae0']);
  });

  it('connects circuits: a provider, a type, circuits terminating at the two sites', async () => {
    const provider = await create('/api/circuits/providers/', { name: 'Zayo', slug: 'zayo' });
    id.zayo = provider.id;
    id.transit = (await create('/api/circuits/circuit-types/', { name: 'Transit', slug: 'transit' })).id;
    const circuits = await create('/api/circuits/circuits/', [
      { cid: 'ZY-1001', provider: id.zayo, type: id.transit, commit_rate: 10_000_000 },
      { cid: 'ZY-1002', provider: id.zayo, type: id.transit, status: 'planned', install_date: '2026-03-01' },
    ]);
    [id.zy1001, id.zy1002] = circuits.map((c: any) => c.id);
    expect(circuits[0]).toMatchObject({
      display: 'ZY-1001',
      provider: { id: id.zayo, name: 'Zayo' },
      type: { id: id.transit, name: 'Transit' },
      status: { value: 'active', label: 'Active' },
      commit_rate: 10_000_000,
      termination_a: null,
      termination_z: null,
    });
    expect(circuits[1].install_date).toBe('2026-03-01');
    const twice = await app.api.post('/api/circuits/circuits/', {
      cid: 'ZY-1001',
      provider: id.zayo,
      type: id.transit,
    });
    expect(twice.status).toBe(400);
    expect(twice.body).toEqual({ __all__: ['Circuit with this Provider and Circuit ID already exists.'] });

    const terminations = await create('/api/circuits/circuit-terminations/', [
      {
        circuit: id.zy1001,
        term_side: 'A',
        termination_type: 'dcim.site',
        termination_id: id.par1,
        port_speed: 10_000_000,
        xconnect_id: 'XC-PA3-0042',
      },
      { circuit: id.zy1001, term_side: 'Z', termination_type: 'dcim.site', termination_id: id.ams1 },
      { circuit: id.zy1002, term_side: 'A', termination_type: 'dcim.site', termination_id: id.par1 },
    ]);
    [id.termA, id.termZ, id.term2A] = terminations.map((t: any) => t.id);
    expect(terminations[0]).toMatchObject({
      display: 'ZY-1001: Termination A',
      circuit: { id: id.zy1001, cid: 'ZY-1001' },
      term_side: 'A',
      termination_type: 'dcim.site',
      termination_id: id.par1,
      termination: { id: id.par1, name: 'PAR1', slug: 'par1' },
      port_speed: 10_000_000,
    });
    const sideTwice = await app.api.post('/api/circuits/circuit-terminations/', {
      circuit: id.zy1001,
      term_side: 'A',
      termination_type: 'dcim.site',
      termination_id: id.ams1,
    });
    expect(sideTwice.status).toBe(400);
    expect(sideTwice.body).toEqual({
      __all__: ['Circuit termination with this Circuit and Termination side already exists.'],
    });

    const circuit = await get(`/api/circuits/circuits/${id.zy1001}/`);
    expect(circuit.termination_a).toEqual({
      id: id.termA,
      url: absolute(`/api/circuits/circuit-terminations/${id.termA}/`),
      display_url: absolute(`/circuits/circuit-terminations/${id.termA}/`),
      display: 'ZY-1001: Termination A',
      termination_type: 'dcim.site',
      termination_id: id.par1,
      termination: {
        id: id.par1,
        url: absolute(`/api/dcim/sites/${id.par1}/`),
        display: 'PAR1',
        name: 'PAR1',
        slug: 'par1',
        description: '',
      },
      port_speed: 10_000_000,
      upstream_speed: null,
      xconnect_id: 'XC-PA3-0042',
      description: '',
    });
    expect(circuit.termination_z).toMatchObject({ id: id.termZ, termination: { id: id.ams1, name: 'AMS1' } });
    expect((await get(`/api/circuits/circuits/${id.zy1002}/`)).termination_z).toBeNull();
    expect((await get(`/api/circuits/providers/${id.zayo}/`)).circuit_count).toBe(2);
    expect((await get(`/api/circuits/circuit-types/${id.transit}/`)).circuit_count).toBe(2);
  });

  it('virtualizes: a cluster at the site with virtual machines, their interfaces and addresses', async () => {
    id.vmware = (await create('/api/virtualization/cluster-types/', { name: 'VMware ESXi', slug: 'vmware-esxi' })).id;
    const cluster = await create('/api/virtualization/clusters/', {
      name: 'par1-vsphere',
      type: id.vmware,
      scope_type: 'dcim.site',
      scope_id: id.par1,
    });
    id.cluster = cluster.id;
    expect(cluster).toMatchObject({
      type: { id: id.vmware, name: 'VMware ESXi' },
      status: { value: 'active', label: 'Active' },
      scope_type: 'dcim.site',
      scope: { id: id.par1, name: 'PAR1' },
      virtualmachine_count: 0,
    });
    const vms = await create('/api/virtualization/virtual-machines/', [
      { name: 'web1', cluster: id.cluster, vcpus: 2, memory: 4096, disk: 40, role: id.leafRole },
      { name: 'web2', cluster: id.cluster, vcpus: 2, memory: 4096 },
      { name: 'db1', cluster: id.cluster, vcpus: 8.5, memory: 32768, status: 'planned' },
    ]);
    [id.web1, id.web2, id.db1] = vms.map((vm: any) => vm.id);
    // The site comes from the cluster.
    expect(vms[0]).toMatchObject({
      display: 'web1',
      site: { id: id.par1, name: 'PAR1' },
      cluster: { id: id.cluster, name: 'par1-vsphere' },
      vcpus: 2,
      memory: 4096,
      disk: 40,
      interface_count: 0,
      primary_ip: null,
    });
    expect(vms[2].vcpus).toBe(8.5);
    const sameName = await app.api.post('/api/virtualization/virtual-machines/', { name: 'web1', cluster: id.cluster });
    expect(sameName.status).toBe(400);
    expect(sameName.body).toEqual({ __all__: ['Virtual machine name must be unique per cluster.'] });

    const vnics = await create(
      '/api/virtualization/interfaces/',
      [id.web1, id.web2, id.db1].map((vm) => ({ virtual_machine: vm, name: 'eth0', mtu: 1500 })),
    );
    [id['web1:eth0'], id['web2:eth0'], id['db1:eth0']] = vnics.map((i: any) => i.id);
    const vnic = await create('/api/virtualization/interfaces/', {
      virtual_machine: id.web1,
      name: 'eth1',
      mode: 'access',
      untagged_vlan: id.serversVlan,
    });
    id['web1:eth1'] = vnic.id;
    expect(vnic).toMatchObject({
      virtual_machine: { id: id.web1, name: 'web1' },
      mode: { value: 'access', label: 'Access' },
      untagged_vlan: { id: id.serversVlan, vid: 110 },
    });

    const vmAddresses = await create(
      '/api/ipam/ip-addresses/',
      ['web1', 'web2', 'db1'].map((vm, i) => ({
        address: `10.10.1.${101 + i}/24`,
        vrf: id.prod,
        assigned_object_type: 'virtualization.vminterface',
        assigned_object_id: id[`${vm}:eth0`],
      })),
    );
    [id.web1ip, id.web2ip, id.db1ip] = vmAddresses.map((a: any) => a.id);
    expect(vmAddresses[0].assigned_object).toMatchObject({
      id: id['web1:eth0'],
      name: 'eth0',
      virtual_machine: { id: id.web1, name: 'web1' },
    });
    const web1 = await patch(`/api/virtualization/virtual-machines/${id.web1}/`, { primary_ip4: id.web1ip });
    expect(web1.primary_ip4).toMatchObject({ id: id.web1ip, address: '10.10.1.101/24' });
    expect(web1.primary_ip).toMatchObject({ id: id.web1ip });
    expect(web1.interface_count).toBe(2);
    const notMine = await app.api.patch(`/api/virtualization/virtual-machines/${id.web2}/`, { primary_ip4: id.web1ip });
    expect(notMine.status).toBe(400);
    expect(notMine.body).toEqual({
      primary_ip4: ['The specified IP address (10.10.1.101/24) is not assigned to this VM.'],
    });
    expect((await get(`/api/virtualization/clusters/${id.cluster}/`)).virtualmachine_count).toBe(3);
    expect((await get(`/api/virtualization/cluster-types/${id.vmware}/`)).cluster_count).toBe(1);
  });

  it('finds things back with filters', async () => {
    // Devices by site, rack, role, platform and primary address.
    expect(await pluck(`/api/dcim/devices/?site_id=${id.par1}`)).toEqual(['leaf1', 'leaf2', 'spine1']);
    expect(await pluck(`/api/dcim/devices/?site_id=${id.ams1}`)).toEqual([]);
    expect(await pluck('/api/dcim/devices/?site=par1&role=leaf')).toEqual(['leaf1', 'leaf2']);
    expect(await pluck(`/api/dcim/devices/?rack_id=${id.r02}`)).toEqual(['spine1']);
    expect(await pluck(`/api/dcim/devices/?location_id=${id.hall}&platform=junos`)).toEqual([
      'leaf1',
      'leaf2',
      'spine1',
    ]);
    expect(await pluck('/api/dcim/devices/?has_primary_ip=true')).toEqual(['leaf1', 'spine1']);
    expect(await pluck(`/api/dcim/devices/?primary_ip4_id=${id.loopback}`)).toEqual(['leaf1']);
    expect(await pluck('/api/dcim/devices/?region=europe&status=active')).toEqual(['leaf1', 'leaf2', 'spine1']);
    const unknownSite = await app.api.get('/api/dcim/devices/?site_id=99999');
    expect(unknownSite.status).toBe(400);
    expect(unknownSite.body).toEqual({
      site_id: ['Select a valid choice. 99999 is not one of the available choices.'],
    });

    // Interfaces of one or several devices.
    expect(await count(`/api/dcim/interfaces/?device_id=${id.leaf1}`)).toBe(8);
    expect(await count(`/api/dcim/interfaces/?device_id=${id.leaf2}&device_id=${id.spine1}`)).toBe(12);
    expect(await count('/api/dcim/interfaces/?device=leaf2')).toBe(6);
    expect(await count(`/api/dcim/interfaces/?site_id=${id.par1}`)).toBe(20);
    expect(await count(`/api/dcim/interfaces/?rack_id=${id.r01}&type=lag`)).toBe(2);

    // Addresses by device, virtual machine, interface, containing prefix and family.
    const addressesOf = async (query: string): Promise<any[]> => pluck(`/api/ipam/ip-addresses/?${query}`, 'address');
    expect(await addressesOf(`device_id=${id.leaf1}`)).toEqual([
      '10.10.1.1/24',
      '10.10.255.1/32',
      '2001:db8:10:1::1/64',
    ]);
    expect(await addressesOf(`device_id=${id.leaf1}&family=6`)).toEqual(['2001:db8:10:1::1/64']);
    expect(await addressesOf(`interface_id=${id['leaf1:xe-0/0/2.100']}`)).toEqual(['10.10.1.1/24']);
    expect(await addressesOf(`virtual_machine_id=${id.web1}`)).toEqual(['10.10.1.101/24']);
    expect(await addressesOf(`vminterface_id=${id['db1:eth0']}`)).toEqual(['10.10.1.103/24']);
    expect(await addressesOf('parent=10.10.1.0/24')).toEqual([
      '10.10.1.1/24',
      '10.10.1.2/24',
      '10.10.1.101/24',
      '10.10.1.102/24',
      '10.10.1.103/24',
    ]);
    expect(await addressesOf('parent=10.10.1.0/26&parent=10.10.2.0/24')).toEqual([
      '10.10.1.1/24',
      '10.10.1.2/24',
      '10.10.2.1/24',
    ]);
    expect(await count('/api/ipam/ip-addresses/?family=4')).toBe(7);
    expect(await count('/api/ipam/ip-addresses/?family=6')).toBe(1);
    expect(await count(`/api/ipam/ip-addresses/?vrf_id=${id.prod}`)).toBe(8);
    expect(await count('/api/ipam/ip-addresses/?assigned_object_type=virtualization.vminterface')).toBe(3);
    expect(await addressesOf('role=loopback')).toEqual(['10.10.255.1/32']);

    // Prefixes inside or containing others (NetBox has no `parent` filter on prefixes: `within` it is).
    const prefixesOf = async (query: string): Promise<any[]> => pluck(`/api/ipam/prefixes/?${query}`, 'prefix');
    expect(await prefixesOf('within=10.10.0.0/16')).toEqual(['10.10.1.0/24', '10.10.1.0/26', '10.10.2.0/24']);
    expect(await prefixesOf('within_include=10.10.1.0/24')).toEqual(['10.10.1.0/24', '10.10.1.0/26']);
    expect(await prefixesOf('contains=10.10.1.7')).toEqual(['10.10.0.0/16', '10.10.1.0/24', '10.10.1.0/26']);
    expect(await prefixesOf('family=6')).toEqual(['2001:db8:10::/48', '2001:db8:10:1::/64']);
    expect(await prefixesOf('family=4&mask_length=24')).toEqual(['10.10.1.0/24', '10.10.2.0/24']);
    expect(await prefixesOf('status=container')).toEqual(['10.10.0.0/16', '2001:db8:10::/48']);
    expect(await prefixesOf(`site_id=${id.par1}`)).toEqual(['10.10.0.0/16']);
    expect(await count(`/api/ipam/prefixes/?vrf_id=${id.prod}`)).toBe(6);
    const badNetwork = await app.api.get('/api/ipam/prefixes/?within=not-a-prefix');
    expect(badNetwork.status).toBe(200);
    expect(badNetwork.body.count).toBe(0);

    // VLANs by VID, group and site.
    const vlansOf = async (query: string): Promise<any[]> => pluck(`/api/ipam/vlans/?${query}`, 'display');
    expect(await vlansOf('vid=100')).toEqual(['users (100)']);
    expect(await vlansOf('vid=100&vid=999')).toEqual(['users (100)', 'native (999)']);
    expect(await vlansOf('vid__gte=110&vid__lt=999')).toEqual(['servers (110)', 'management (120)']);
    expect(await vlansOf(`group_id=${id.vlanGroup}&status=reserved`)).toEqual(['management (120)']);
    expect(await count(`/api/ipam/vlans/?site_id=${id.par1}`)).toBe(3);

    // Circuits by the sites they terminate at; virtual machines by cluster.
    expect(await pluck(`/api/circuits/circuits/?site_id=${id.par1}`, 'cid')).toEqual(['ZY-1001', 'ZY-1002']);
    expect(await pluck(`/api/circuits/circuits/?site_id=${id.ams1}`, 'cid')).toEqual(['ZY-1001']);
    expect(await pluck('/api/circuits/circuits/?site=ams1&status=planned', 'cid')).toEqual([]);
    expect(await pluck(`/api/circuits/circuit-terminations/?circuit_id=${id.zy1001}`, 'display')).toEqual([
      'ZY-1001: Termination A',
      'ZY-1001: Termination Z',
    ]);
    expect(await pluck(`/api/circuits/circuit-terminations/?site_id=${id.par1}`, 'id')).toEqual([id.termA, id.term2A]);
    expect(await pluck(`/api/circuits/providers/?site_id=${id.ams1}`)).toEqual(['Zayo']);
    expect(await pluck(`/api/virtualization/virtual-machines/?cluster_id=${id.cluster}`)).toEqual([
      'db1',
      'web1',
      'web2',
    ]);
    expect(await pluck(`/api/virtualization/virtual-machines/?site_id=${id.par1}&status=planned`)).toEqual(['db1']);
    expect(await pluck(`/api/virtualization/clusters/?site_id=${id.par1}`)).toEqual(['par1-vsphere']);
    expect(await count(`/api/virtualization/interfaces/?virtual_machine_id=${id.web1}`)).toBe(2);
    expect(await pluck(`/api/virtualization/interfaces/?vlan_id=${id.serversVlan}`)).toEqual(['eth1']);
  });

  it('searches with ?q= on several endpoints', async () => {
    expect(await pluck('/api/dcim/devices/?q=LEAF')).toEqual(['leaf1', 'leaf2']);
    expect(await pluck('/api/dcim/devices/?q=WS37180')).toEqual(['leaf1']);
    expect(await pluck('/api/dcim/devices/?q=%20%20')).toEqual(['leaf1', 'leaf2', 'spine1']);
    expect(await pluck('/api/dcim/sites/?q=equinix')).toEqual(['PAR1']);
    expect(await count('/api/dcim/interfaces/?q=xe-0/0/2')).toBe(4);
    expect(await count(`/api/dcim/interfaces/?q=uplink&device_id=${id.spine1}`)).toBe(1);
    expect(await pluck('/api/ipam/ip-addresses/?q=10.10.1.10', 'address')).toEqual([
      '10.10.1.101/24',
      '10.10.1.102/24',
      '10.10.1.103/24',
    ]);
    expect(await pluck('/api/ipam/ip-addresses/?q=par1.example', 'address')).toEqual(['10.10.255.1/32']);
    expect(await pluck('/api/ipam/prefixes/?q=10.10.1.0/26', 'prefix')).toEqual([
      '10.10.0.0/16',
      '10.10.1.0/24',
      '10.10.1.0/26',
    ]);
    expect(await pluck('/api/ipam/prefixes/?q=first%20block', 'prefix')).toEqual(['10.10.1.0/26']);
    expect(await pluck('/api/ipam/vlans/?q=MANAGE', 'name')).toEqual(['management']);
    expect(await pluck('/api/circuits/circuits/?q=zy-100', 'cid')).toEqual(['ZY-1001', 'ZY-1002']);
    expect(await pluck('/api/circuits/circuit-terminations/?q=xc-pa3', 'display')).toEqual(['ZY-1001: Termination A']);
    expect(await pluck('/api/virtualization/virtual-machines/?q=web')).toEqual(['web1', 'web2']);
    expect(await pluck('/api/ipam/vrfs/?q=65000:1')).toEqual(['Production']);
  });

  it('returns brief representations and selected fields', async () => {
    const brief = await get(`/api/dcim/devices/?brief=1&site_id=${id.par1}`);
    expect(brief.count).toBe(3);
    expect(brief.results[0]).toEqual({
      id: id.leaf1,
      url: absolute(`/api/dcim/devices/${id.leaf1}/`),
      display: 'leaf1 (A-0001)',
      name: 'leaf1',
      description: '',
    });
    const briefInterface = await get(`/api/dcim/interfaces/${id['leaf1:ae0']}/?brief=true`);
    expect(Object.keys(briefInterface)).toEqual([
      'id',
      'url',
      'display',
      'device',
      'name',
      'description',
      'cable',
      '_occupied',
    ]);
    expect(briefInterface.device).toEqual({
      id: id.leaf1,
      url: absolute(`/api/dcim/devices/${id.leaf1}/`),
      display: 'leaf1 (A-0001)',
      name: 'leaf1',
      description: '',
    });
    const briefPrefixes = await get(`/api/ipam/prefixes/?brief=1&family=4&vrf_id=${id.prod}`);
    expect(briefPrefixes.results.map((p: any) => Object.keys(p))).toEqual(
      Array(4).fill(['id', 'url', 'display', 'family', 'prefix', 'description', '_depth']),
    );
    expect(briefPrefixes.results.map((p: any) => p._depth)).toEqual([0, 1, 2, 1]);
    const briefIp = await get(`/api/ipam/ip-addresses/${id.gateway}/?brief=1`);
    expect(briefIp).toEqual({
      id: id.gateway,
      url: absolute(`/api/ipam/ip-addresses/${id.gateway}/`),
      display: '10.10.1.1/24',
      family: { value: 4, label: 'IPv4' },
      address: '10.10.1.1/24',
      description: 'server gateway',
    });
    const briefVlans = await get('/api/ipam/vlans/?brief=1&vid=100');
    expect(briefVlans.results).toEqual([
      {
        id: id.users,
        url: absolute(`/api/ipam/vlans/${id.users}/`),
        display: 'users (100)',
        vid: 100,
        name: 'users',
        description: '',
      },
    ]);

    // fields= takes precedence over brief and omit; unknown names are ignored.
    const fields = await get(`/api/dcim/devices/?fields=id,name&site_id=${id.par1}`);
    expect(fields.results).toEqual([
      { id: id.leaf1, name: 'leaf1' },
      { id: id.leaf2, name: 'leaf2' },
      { id: id.spine1, name: 'spine1' },
    ]);
    const fieldsOverBrief = await get(`/api/dcim/devices/${id.spine1}/?fields=name,primary_ip4,nothing&brief=1`);
    expect(fieldsOverBrief).toEqual({
      name: 'spine1',
      primary_ip4: expect.objectContaining({ id: id.spineip, address: '10.10.2.1/24' }),
    });
    const ipFields = await get(`/api/ipam/ip-addresses/?fields=address,assigned_object&device_id=${id.spine1}`);
    expect(ipFields.results).toEqual([
      {
        address: '10.10.2.1/24',
        assigned_object: expect.objectContaining({ id: id['spine1:ae0'], name: 'ae0' }),
      },
    ]);
    const full = await get(`/api/dcim/devices/${id.leaf1}/`);
    const omitted = await get(`/api/dcim/devices/${id.leaf1}/?omit=config_context,comments,custom_fields`);
    expect(Object.keys(omitted)).toEqual(
      Object.keys(full).filter((k) => !['config_context', 'comments', 'custom_fields'].includes(k)),
    );
    const sites = await get('/api/dcim/sites/?omit=asns,tags,custom_fields');
    expect(sites.results[0]).not.toHaveProperty('asns');
    expect(sites.results[0]).toHaveProperty('device_count');
  });

  it('counts what hangs off each parent', async () => {
    expect(await get(`/api/dcim/sites/${id.par1}/`)).toMatchObject({
      device_count: 3,
      rack_count: 2,
      prefix_count: 1,
      vlan_count: 3,
      circuit_count: 2,
      virtualmachine_count: 3,
    });
    expect(await get(`/api/dcim/sites/${id.ams1}/`)).toMatchObject({
      device_count: 0,
      rack_count: 0,
      circuit_count: 1,
    });
    // The same counts on a list page.
    const sites = await results('/api/dcim/sites/?fields=name,device_count,circuit_count');
    expect(sites).toEqual([
      { name: 'AMS1', device_count: 0, circuit_count: 1 },
      { name: 'PAR1', device_count: 3, circuit_count: 2 },
    ]);
    expect((await get(`/api/dcim/regions/${id.europe}/`)).site_count).toBe(2);
    expect(await get(`/api/dcim/locations/${id.hall}/`)).toMatchObject({ rack_count: 2, device_count: 3 });
    expect(await pluck(`/api/dcim/racks/?site_id=${id.par1}`, 'device_count')).toEqual([2, 1]);
    expect((await get(`/api/dcim/device-types/${id.qfx}/`)).device_count).toBe(3);
    expect(await pluck('/api/dcim/device-roles/', 'device_count')).toEqual([2, 1]);
    expect((await get(`/api/dcim/device-roles/${id.leafRole}/`)).virtualmachine_count).toBe(1);
    expect((await get(`/api/dcim/platforms/${id.junos}/`)).device_count).toBe(3);
    expect(await get(`/api/dcim/manufacturers/${id.juniper}/`)).toMatchObject({
      devicetype_count: 1,
      platform_count: 1,
    });
    expect(await get(`/api/ipam/vrfs/${id.prod}/`)).toMatchObject({ prefix_count: 6, ipaddress_count: 8 });
    expect(await pluck(`/api/ipam/prefixes/?vrf_id=${id.prod}&family=4`, 'children')).toEqual([3, 1, 0, 0]);
    expect((await get(`/api/ipam/vlans/${id.users}/`)).prefix_count).toBe(0);
    expect((await get(`/api/dcim/devices/${id.leaf1}/`)).interface_count).toBe(8);
    expect((await get(`/api/dcim/interfaces/${id['leaf1:lo0']}/`)).count_ipaddresses).toBe(2);
    expect((await get(`/api/virtualization/interfaces/${id['web1:eth0']}/`)).count_ipaddresses).toBe(1);
    expect((await get(`/api/virtualization/virtual-machines/${id.web1}/`)).interface_count).toBe(2);
    expect(await get(`/api/virtualization/clusters/${id.cluster}/`)).toMatchObject({
      virtualmachine_count: 3,
      device_count: 0,
      allocated_vcpus: 12.5,
      allocated_memory: 40960,
    });
  });

  it('pages through long lists', async () => {
    const all = await results('/api/dcim/interfaces/');
    expect(all).toHaveLength(20);
    // Follow `next` links, six interfaces at a time.
    const seen: number[] = [];
    let next: string | null = '/api/dcim/interfaces/?limit=6';
    let pages = 0;
    while (next) {
      const page: any = await get(next);
      expect(page.count).toBe(20);
      seen.push(...page.results.map((i: any) => i.id));
      if (pages === 0) expect(page.previous).toBeNull();
      if (pages === 1) expect(page.previous).toBe(absolute('/api/dcim/interfaces/?limit=6'));
      next = page.next;
      pages += 1;
    }
    expect(pages).toBe(4);
    expect(seen).toEqual(all.map((i) => i.id));
    // The links keep the filters.
    const filtered = await get(`/api/dcim/interfaces/?device_id=${id.leaf1}&limit=3&offset=3`);
    expect(filtered.results.map((i: any) => i.name)).toEqual(['xe-0/0/0', 'xe-0/0/1', 'xe-0/0/2']);
    expect(filtered.next).toBe(absolute(`/api/dcim/interfaces/?device_id=${id.leaf1}&limit=3&offset=6`));
    expect(filtered.previous).toBe(absolute(`/api/dcim/interfaces/?device_id=${id.leaf1}&limit=3`));
    const last = await get(`/api/dcim/interfaces/?device_id=${id.leaf1}&limit=3&offset=6`);
    expect(last.results).toHaveLength(2);
    expect(last.next).toBeNull();
    expect((await get('/api/dcim/interfaces/?offset=100')).results).toEqual([]);
    // Ordering by another field, descending.
    expect(await pluck('/api/ipam/vlans/?ordering=-vid&fields=vid', 'vid')).toEqual([999, 120, 110, 100]);
    // Cursor pagination: ids from `start` up, in id order, without a count.
    const ids = all.map((i) => i.id as number).sort((a, b) => a - b);
    const cursor = await get(`/api/dcim/interfaces/?start=${ids[0]}&limit=15`);
    expect(cursor.count).toBeNull();
    expect(cursor.previous).toBeNull();
    expect(cursor.results.map((i: any) => i.id)).toEqual(ids.slice(0, 15));
    expect(cursor.next).toBe(absolute(`/api/dcim/interfaces/?start=${ids[14]! + 1}&limit=15`));
    const rest = await get(cursor.next);
    expect(rest.results.map((i: any) => i.id)).toEqual(ids.slice(15));
    expect(rest.next).toBeNull();
    expect((await get(`/api/dcim/interfaces/?start=${ids[5]}&limit=100`)).results).toHaveLength(15);
  });

  // NetBox's searches go beyond text columns: primary addresses, VIDs, circuit terminations.
  it('finds a device by its primary address with ?q=', async () => {
    expect(await pluck('/api/dcim/devices/?q=10.10.2.1')).toEqual(['spine1']);
  });
  it('finds a virtual machine by its primary address with ?q=', async () => {
    expect(await pluck('/api/virtualization/virtual-machines/?q=10.10.1.101')).toEqual(['web1']);
  });
  it('finds a VLAN by its VID with ?q=', async () => {
    expect(await pluck('/api/ipam/vlans/?q=110', 'name')).toEqual(['servers']);
  });
  it('finds a circuit by the cross-connect id of a termination with ?q=', async () => {
    expect(await pluck('/api/circuits/circuits/?q=XC-PA3', 'cid')).toEqual(['ZY-1001']);
  });

  it('refuses to delete a site that still has devices, and deletes nothing', async () => {
    const inventory = async (): Promise<number[]> =>
      Promise.all(
        [
          '/api/dcim/sites/',
          '/api/dcim/locations/',
          '/api/dcim/racks/',
          '/api/dcim/devices/',
          '/api/dcim/interfaces/',
          '/api/ipam/prefixes/',
          '/api/ipam/ip-addresses/',
          '/api/ipam/vlans/',
          '/api/circuits/circuit-terminations/',
          '/api/virtualization/clusters/',
          '/api/virtualization/virtual-machines/',
        ].map((path) => count(path)),
      );
    const before = await inventory();
    const refused = await app.api.delete(`/api/dcim/sites/${id.par1}/`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/^Unable to delete object\. \d+ dependent objects were found: /);
    for (const blocker of [`leaf1 (A-0001) (${id.leaf1})`, `spine1 (${id.spine1})`, `R01 (PA3-0101) (${id.r01})`])
      expect(refused.body.detail).toContain(blocker);
    const refusedInBulk = await app.api.delete('/api/dcim/sites/', [{ id: id.ams1 }, { id: id.par1 }]);
    expect(refusedInBulk.status).toBe(409);
    expect(await inventory()).toEqual(before);
    expect((await get(`/api/dcim/sites/${id.ams1}/`)).circuit_count).toBe(1);
    expect((await get(`/api/dcim/sites/${id.par1}/`)).device_count).toBe(3);
  });

  it('deletes a device with its interfaces and their addresses', async () => {
    const interfaces = await pluck(`/api/dcim/interfaces/?device_id=${id.leaf2}`, 'id');
    expect(interfaces).toHaveLength(6);
    await remove(`/api/dcim/devices/${id.leaf2}/`);
    const gone = await app.api.get(`/api/dcim/devices/${id.leaf2}/`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ detail: 'No Device matches the given query.' });
    for (const interfaceId of interfaces)
      expect((await app.api.get(`/api/dcim/interfaces/${interfaceId}/`)).status).toBe(404);
    expect((await app.api.get(`/api/ipam/ip-addresses/${id.leaf2ip}/`)).status).toBe(404);
    // The device is no valid filter value any more.
    expect((await app.api.get(`/api/dcim/interfaces/?device_id=${id.leaf2}`)).status).toBe(400);
    expect(await count('/api/dcim/interfaces/')).toBe(14);
    expect(await count(`/api/dcim/interfaces/?device_id=${id.leaf1}`)).toBe(8);
    expect((await get(`/api/dcim/sites/${id.par1}/`)).device_count).toBe(2);
    expect(await pluck(`/api/dcim/racks/?site_id=${id.par1}`, 'device_count')).toEqual([1, 1]);
    expect((await get(`/api/ipam/vrfs/${id.prod}/`)).ipaddress_count).toBe(7);
  });

  // A device or VM refers to addresses on its own interfaces: deleting it deletes them all (204).
  it('deletes a device whose primary addresses sit on its own interfaces', async () => {
    await remove(`/api/dcim/devices/${id.spine1}/`);
  });
  it('deletes a virtual machine whose primary address sits on its own interface', async () => {
    await remove(`/api/virtualization/virtual-machines/${id.web1}/`);
  });

  it('tears everything down in dependency order', async () => {
    // Virtual machines (with their interfaces and addresses), then the cluster and its type.
    const vmIds = await pluck(`/api/virtualization/virtual-machines/?cluster_id=${id.cluster}`, 'id');
    const clusterInUse = await app.api.delete(`/api/virtualization/cluster-types/${id.vmware}/`);
    expect(clusterInUse.status).toBe(409);
    const vmsGone = await app.api.delete(
      '/api/virtualization/virtual-machines/',
      vmIds.map((vm) => ({ id: vm })),
    );
    expect(vmsGone.status, vmsGone.text).toBe(204);
    expect(await count('/api/virtualization/interfaces/')).toBe(0);
    for (const address of [id.web1ip, id.web2ip, id.db1ip])
      expect((await app.api.get(`/api/ipam/ip-addresses/${address}/`)).status).toBe(404);
    await remove(`/api/virtualization/clusters/${id.cluster}/`);
    await remove(`/api/virtualization/cluster-types/${id.vmware}/`);

    // Circuits: a termination, then the circuits (with their other terminations), the type and the provider.
    await remove(`/api/circuits/circuit-terminations/${id.termZ}/`);
    expect((await get(`/api/circuits/circuits/${id.zy1001}/`)).termination_z).toBeNull();
    expect((await get(`/api/dcim/sites/${id.ams1}/`)).circuit_count).toBe(0);
    expect((await app.api.delete(`/api/circuits/providers/${id.zayo}/`)).status).toBe(409);
    const circuitsGone = await app.api.delete('/api/circuits/circuits/', [{ id: id.zy1001 }, { id: id.zy1002 }]);
    expect(circuitsGone.status, circuitsGone.text).toBe(204);
    expect(await count('/api/circuits/circuit-terminations/')).toBe(0);
    await remove(`/api/circuits/circuit-types/${id.transit}/`);
    await remove(`/api/circuits/providers/${id.zayo}/`);

    // Devices, with their interfaces and addresses.
    const devicesGone = await app.api.delete(
      '/api/dcim/devices/',
      (await pluck('/api/dcim/devices/', 'id')).map((device) => ({ id: device })),
    );
    expect(devicesGone.status, devicesGone.text).toBe(204);
    expect(await count('/api/dcim/interfaces/')).toBe(0);
    expect(await count('/api/ipam/ip-addresses/')).toBe(0);

    // VLANs and their group.
    const vlansGone = await app.api.delete(
      '/api/ipam/vlans/',
      [id.users, id.serversVlan, id.mgmt, id.native].map((vlan) => ({ id: vlan })),
    );
    expect(vlansGone.status, vlansGone.text).toBe(204);
    await remove(`/api/ipam/vlan-groups/${id.vlanGroup}/`);

    // Prefixes: removing the container lifts its children one level; then the rest, and the VRF.
    await remove(`/api/ipam/prefixes/${id.container}/`);
    expect(await get(`/api/ipam/prefixes/${id.servers}/`)).toMatchObject({ _depth: 0, children: 1 });
    expect(await get(`/api/ipam/prefixes/${id.block}/`)).toMatchObject({ _depth: 1, children: 0 });
    expect((await get(`/api/dcim/sites/${id.par1}/`)).prefix_count).toBe(0);
    const prefixesGone = await app.api.delete(
      '/api/ipam/prefixes/',
      [id.servers, id.fabric, id.block, id.v6container, id.v6servers].map((prefix) => ({ id: prefix })),
    );
    expect(prefixesGone.status, prefixesGone.text).toBe(204);
    await remove(`/api/ipam/vrfs/${id.prod}/`);

    // Places: racks, the location, the sites (nothing refers to them now) and the region.
    const racksGone = await app.api.delete('/api/dcim/racks/', [{ id: id.r01 }, { id: id.r02 }]);
    expect(racksGone.status, racksGone.text).toBe(204);
    expect((await get(`/api/dcim/locations/${id.hall}/`)).rack_count).toBe(0);
    await remove(`/api/dcim/locations/${id.hall}/`);
    await remove(`/api/dcim/sites/${id.par1}/`);
    await remove(`/api/dcim/sites/${id.ams1}/`);
    expect((await get(`/api/dcim/regions/${id.europe}/`)).site_count).toBe(0);
    await remove(`/api/dcim/regions/${id.europe}/`);

    // Hardware: the manufacturer goes last, after its device types and platforms.
    const manufacturerInUse = await app.api.delete(`/api/dcim/manufacturers/${id.juniper}/`);
    expect(manufacturerInUse.status).toBe(409);
    expect(manufacturerInUse.body.detail).toContain(`QFX5120-48Y (${id.qfx})`);
    await remove(`/api/dcim/device-types/${id.qfx}/`);
    await remove(`/api/dcim/platforms/${id.junos}/`);
    await remove(`/api/dcim/device-roles/${id.leafRole}/`);
    await remove(`/api/dcim/device-roles/${id.spineRole}/`);
    await remove(`/api/dcim/manufacturers/${id.juniper}/`);

    // Nothing is left.
    for (const path of [
      '/api/dcim/regions/',
      '/api/dcim/sites/',
      '/api/dcim/locations/',
      '/api/dcim/racks/',
      '/api/dcim/manufacturers/',
      '/api/dcim/device-types/',
      '/api/dcim/device-roles/',
      '/api/dcim/platforms/',
      '/api/dcim/devices/',
      '/api/dcim/interfaces/',
      '/api/ipam/vrfs/',
      '/api/ipam/prefixes/',
      '/api/ipam/ip-addresses/',
      '/api/ipam/vlan-groups/',
      '/api/ipam/vlans/',
      '/api/circuits/providers/',
      '/api/circuits/circuit-types/',
      '/api/circuits/circuits/',
      '/api/circuits/circuit-terminations/',
      '/api/virtualization/cluster-types/',
      '/api/virtualization/clusters/',
      '/api/virtualization/virtual-machines/',
      '/api/virtualization/interfaces/',
    ])
      expect(await count(path), path).toBe(0);
  });

  // NestedSite and NestedClusterGroup have the same keys: the document's scope must still accept a site.
  it('documents a VLAN group scoped to a site so that the response validates', async () => {
    const site = await create('/api/dcim/sites/', { name: 'Doc', slug: 'doc' });
    await create('/api/ipam/vlan-groups/', { name: 'Doc', slug: 'doc', scope_type: 'dcim.site', scope_id: site.id });
  });
});
