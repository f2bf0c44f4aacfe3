import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/**
 * Config contexts: a device's or virtual machine's `config_context` merges every active context whose
 * criteria match it (regions and site groups with their ancestors, sites, locations with theirs, device
 * types, roles and platforms with theirs, clusters and their types and groups, tenants and their group,
 * tags), by weight then name, and its own local context data last.
 */
describe.each(DIALECTS)('config contexts on %s', (dialect) => {
  let app: TestApp;
  const id: Record<string, any> = {};

  const create = async (path: string, body: unknown): Promise<any> => {
    const response = await app.api.post(path, body);
    expect(response.status, response.text).toBe(201);
    return response.body;
  };
  const contextsPath = '/api/extras/config-contexts/';
  const context = (name: string, data: Record<string, unknown>, criteria: Record<string, unknown> = {}) =>
    create(contextsPath, { name, data, ...criteria });
  const configOf = async (path: string): Promise<Record<string, unknown>> => {
    const response = await app.api.get(path);
    expect(response.status, response.text).toBe(200);
    return response.body.config_context;
  };

  beforeAll(async () => {
    // No caches (tokens, custom fields), so that query counts do not depend on their timing.
    app = await startTestApp(dialect, { settings: { CACHE_SECONDS: 0 } });
    id.europe = (await create('/api/dcim/regions/', { name: 'Europe', slug: 'europe' })).id;
    id.france = (await create('/api/dcim/regions/', { name: 'France', slug: 'france', parent: id.europe })).id;
    id.metro = (await create('/api/dcim/site-groups/', { name: 'Metro', slug: 'metro' })).id;
    id.inner = (await create('/api/dcim/site-groups/', { name: 'Inner', slug: 'inner', parent: id.metro })).id;
    id.par1 = (await create('/api/dcim/sites/', { name: 'PAR1', slug: 'par1', region: id.france, group: id.inner })).id;
    id.ams1 = (await create('/api/dcim/sites/', { name: 'AMS1', slug: 'ams1' })).id;
    id.hall = (await create('/api/dcim/locations/', { name: 'Hall', slug: 'hall', site: id.par1 })).id;
    id.room = (await create('/api/dcim/locations/', { name: 'Room', slug: 'room', site: id.par1, parent: id.hall })).id;
    const juniper = await create('/api/dcim/manufacturers/', { name: 'Juniper', slug: 'juniper' });
    id.mx204 = (
      await create('/api/dcim/device-types/', { manufacturer: juniper.id, model: 'MX204', slug: 'mx204' })
    ).id;
    id.qfx = (await create('/api/dcim/device-types/', { manufacturer: juniper.id, model: 'QFX', slug: 'qfx' })).id;
    id.network = (await create('/api/dcim/device-roles/', { name: 'Network', slug: 'network' })).id;
    id.core = (await create('/api/dcim/device-roles/', { name: 'Core', slug: 'core', parent: id.network })).id;
    id.server = (await create('/api/dcim/device-roles/', { name: 'Server', slug: 'server' })).id;
    id.junos = (await create('/api/dcim/platforms/', { name: 'Junos', slug: 'junos' })).id;
    id.evo = (await create('/api/dcim/platforms/', { name: 'Junos EVO', slug: 'junos-evo', parent: id.junos })).id;
    id.vmware = (await create('/api/virtualization/cluster-types/', { name: 'VMware', slug: 'vmware' })).id;
    id.prod = (await create('/api/virtualization/cluster-groups/', { name: 'Prod', slug: 'prod' })).id;
    id.c1 = (
      await create('/api/virtualization/clusters/', {
        name: 'c1',
        type: id.vmware,
        group: id.prod,
        scope_type: 'dcim.site',
        scope_id: id.par1,
      })
    ).id;
    id.customers = (await create('/api/tenancy/tenant-groups/', { name: 'Customers', slug: 'customers' })).id;
    id.vip = (await create('/api/tenancy/tenant-groups/', { name: 'VIP', slug: 'vip', parent: id.customers })).id;
    id.acme = (await create('/api/tenancy/tenants/', { name: 'Acme', slug: 'acme', group: id.vip })).id;
    await create('/api/extras/tags/', [
      { name: 'Gold', slug: 'gold' },
      { name: 'Silver', slug: 'silver' },
    ]);
    id.edge1 = (
      await create('/api/dcim/devices/', {
        name: 'edge1',
        site: id.par1,
        location: id.room,
        device_type: id.mx204,
        role: id.core,
        platform: id.evo,
        tenant: id.acme,
        cluster: id.c1,
        tags: [{ slug: 'gold' }],
      })
    ).id;
    id.plain = (
      await create('/api/dcim/devices/', { name: 'plain', site: id.ams1, device_type: id.qfx, role: id.network })
    ).id;
    id.vm1 = (
      await create('/api/virtualization/virtual-machines/', {
        name: 'vm1',
        cluster: id.c1,
        role: id.core,
        platform: id.evo,
        tenant: id.acme,
        tags: [{ slug: 'gold' }],
      })
    ).id;

    await context('all', { ntp: { servers: ['10.0.0.1'], prefer: true }, syslog: 'all' });
    await context('z-low', { motd: 'low', ntp: { servers: ['low'] } }, { weight: 100 });
    await context('a-high', { motd: 'high' }, { weight: 2000 });
    await context('b-same', { tie: 'b' });
    await context('c-same', { tie: 'c' });
    await context('inactive', { inactive: true }, { is_active: false });
    await context('region', { region: 'europe' }, { regions: [id.europe] });
    await context('site-group', { site_group: 'metro' }, { site_groups: [id.metro] });
    await context('site', { site: 'par1' }, { sites: [id.par1] });
    await context('location', { location: 'hall' }, { locations: [id.hall] });
    await context('device-type', { device_type: 'mx204' }, { device_types: [id.mx204] });
    await context('role', { role: 'network' }, { roles: [id.network] });
    await context('platform', { platform: 'junos' }, { platforms: [id.junos] });
    await context('cluster-type', { cluster_type: 'vmware' }, { cluster_types: [id.vmware] });
    await context('cluster-group', { cluster_group: 'prod' }, { cluster_groups: [id.prod] });
    await context('cluster', { cluster: 'c1' }, { clusters: [id.c1] });
    await context('tenant-group', { tenant_group: 'vip' }, { tenant_groups: [id.vip] });
    await context('parent-tenant-group', { parent_tenant_group: true }, { tenant_groups: [id.customers] });
    await context('tenant', { tenant: 'acme' }, { tenants: [id.acme] });
    await context('tag', { tag: 'gold' }, { tags: ['gold'] });
    await context('tag-silver', { silver: true }, { tags: ['silver'] });
    // Criteria of different kinds must all match.
    await context('site-and-server', { site_and_server: true }, { sites: [id.par1], roles: [id.server] });
    await context('site-or-site', { either_site: true }, { sites: [id.par1, id.ams1] });
  });
  afterAll(async () => app?.close());

  const shared = {
    ntp: { servers: ['10.0.0.1'], prefer: true },
    syslog: 'all',
    motd: 'high',
    tie: 'c',
    either_site: true,
  };

  it('merges every matching active context into a device’s config context, by weight then name', async () => {
    expect(await configOf(`/api/dcim/devices/${id.edge1}/`)).toEqual({
      ...shared,
      region: 'europe',
      site_group: 'metro',
      site: 'par1',
      location: 'hall',
      device_type: 'mx204',
      role: 'network',
      platform: 'junos',
      cluster_type: 'vmware',
      cluster_group: 'prod',
      cluster: 'c1',
      tenant_group: 'vip',
      tenant: 'acme',
      tag: 'gold',
    });
    expect(await configOf(`/api/dcim/devices/${id.plain}/`)).toEqual({ ...shared, role: 'network' });
  });

  it('merges the matching contexts into a virtual machine’s (never by location or device type)', async () => {
    const vm = (await app.api.get(`/api/virtualization/virtual-machines/${id.vm1}/`)).body;
    expect(Object.keys(vm).at(-1)).toBe('config_context');
    expect(vm.config_context).toEqual({
      ...shared,
      region: 'europe',
      site_group: 'metro',
      site: 'par1',
      role: 'network',
      platform: 'junos',
      cluster_type: 'vmware',
      cluster_group: 'prod',
      cluster: 'c1',
      tenant_group: 'vip',
      tenant: 'acme',
      tag: 'gold',
    });
  });

  it('merges the local context data last, deeply', async () => {
    const patched = await app.api.patch(`/api/dcim/devices/${id.plain}/`, {
      local_context_data: { syslog: 'local', ntp: { prefer: false, extra: ['x'] }, role: {} },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.local_context_data).toEqual({
      syslog: 'local',
      ntp: { prefer: false, extra: ['x'] },
      role: {},
    });
    expect(patched.body.config_context).toEqual({
      ...shared,
      syslog: 'local',
      ntp: { servers: ['10.0.0.1'], prefer: false, extra: ['x'] },
      role: {},
    });
    const list = await app.api.patch(`/api/dcim/devices/${id.plain}/`, { local_context_data: ['not', 'an', 'object'] });
    expect(list.body).toEqual({ local_context_data: ['JSON data must be in object form. Example: {"foo": 123}'] });
    await app.api.patch(`/api/dcim/devices/${id.plain}/`, { local_context_data: null });
    expect(await configOf(`/api/dcim/devices/${id.plain}/`)).toEqual({ ...shared, role: 'network' });
  });

  it('follows changes to contexts, their criteria and the objects', async () => {
    const silver = (await app.api.get(`${contextsPath}?name=tag-silver`)).body.results[0];
    await app.api.patch(`/api/dcim/devices/${id.plain}/`, { tags: [{ slug: 'silver' }] });
    expect((await configOf(`/api/dcim/devices/${id.plain}/`)).silver).toBe(true);
    await app.api.patch(`${contextsPath}${silver.id}/`, { is_active: false });
    expect((await configOf(`/api/dcim/devices/${id.plain}/`)).silver).toBeUndefined();
    await app.api.patch(`${contextsPath}${silver.id}/`, { is_active: true, weight: 5000, data: { motd: 'silver' } });
    expect((await configOf(`/api/dcim/devices/${id.plain}/`)).motd).toBe('silver');
    await app.api.delete(`${contextsPath}${silver.id}/`);
    expect((await configOf(`/api/dcim/devices/${id.plain}/`)).motd).toBe('high');
  });

  it('leaves config_context out of brief representations', async () => {
    const brief = (await app.api.get(`/api/dcim/devices/${id.edge1}/?brief=1`)).body;
    expect(brief).not.toHaveProperty('config_context');
    const only = (await app.api.get(`/api/dcim/devices/?fields=name,config_context&name=plain`)).body.results;
    expect(only).toEqual([{ name: 'plain', config_context: { ...shared, role: 'network' } }]);
    // Without the tags in the page, they are still matched (read with the contexts instead).
    const full = await configOf(`/api/dcim/devices/${id.edge1}/`);
    expect(full.tag).toBe('gold');
    const tagsLeftOut = (await app.api.get(`/api/dcim/devices/?fields=config_context&id=${id.edge1}`)).body.results;
    expect(tagsLeftOut).toEqual([{ config_context: full }]);
  });

  it('leaves config_context out with ?exclude=config_context', async () => {
    const device = (await app.api.get(`/api/dcim/devices/${id.edge1}/?exclude=config_context`)).body;
    expect(device).not.toHaveProperty('config_context');
    expect(device.local_context_data).toBeNull();
    const vms = (await app.api.get('/api/virtualization/virtual-machines/?exclude=config_context')).body.results;
    expect(vms[0]).not.toHaveProperty('config_context');
  });

  it('validates and lists config contexts with their criteria', async () => {
    const notObject = await app.api.post(contextsPath, { name: 'bad', data: ['a'] });
    expect(notObject.body).toEqual({ data: ['JSON data must be in object form. Example: {"foo": 123}'] });
    const missing = await app.api.post(contextsPath, { name: 'bad' });
    expect(missing.body).toEqual({ data: ['This field is required.'] });
    const duplicate = await app.api.post(contextsPath, { name: 'all', data: {} });
    expect(duplicate.body).toEqual({ name: ['config context with this name already exists.'] });
    const unknownTag = await app.api.post(contextsPath, { name: 'bad', data: {}, tags: ['nope'] });
    expect(unknownTag.body).toEqual({ tags: ['Object with slug=nope does not exist.'] });
    const weight = await app.api.post(contextsPath, { name: 'bad', data: {}, weight: 40000 });
    expect(weight.body).toEqual({ weight: ['Ensure this value is less than or equal to 32767.'] });

    const region = (await app.api.get(`${contextsPath}?name=region`)).body.results[0];
    expect(region.weight).toBe(1000);
    expect(region.is_active).toBe(true);
    expect(region.regions).toEqual([
      {
        id: id.europe,
        url: `${app.baseUrl}/api/dcim/regions/${id.europe}/`,
        display: 'Europe',
        name: 'Europe',
        slug: 'europe',
        description: '',
        site_count: 1,
        _depth: 0,
      },
    ]);
    expect(region.sites).toEqual([]);
    const tag = (await app.api.get(`${contextsPath}?name=tag`)).body.results[0];
    expect(tag.tags).toEqual(['gold']);
    const names = async (query: string): Promise<string[]> =>
      ((await app.api.get(`${contextsPath}?limit=0&${query}`)).body.results as { name: string }[]).map((c) => c.name);
    expect((await names('')).slice(0, 2)).toEqual(['z-low', 'all']);
    expect((await names('')).at(-1)).toBe('a-high');
    expect(await names(`region_id=${id.europe}`)).toEqual(['region']);
    expect(await names('site=par1')).toEqual(['site', 'site-and-server', 'site-or-site']);
    expect(await names('device_role=network')).toEqual(['role']);
    expect(await names('is_active=false')).toEqual(['inactive']);
    expect(await names('tag=gold')).toEqual(['tag']);
    expect(await names('q=site-')).toEqual(['site-and-server', 'site-group', 'site-or-site']);
  });

  it('renders a page of 50 devices or virtual machines with the same number of queries as a page of 5', async () => {
    const types = [id.mx204, id.qfx];
    const roles = [id.core, id.network, id.server];
    const bodies = Array.from({ length: 60 }, (_, i) => ({
      name: `bulk-${String(i).padStart(2, '0')}`,
      site: i % 2 ? id.par1 : id.ams1,
      location: i % 4 === 1 ? id.room : null,
      device_type: types[i % 2],
      role: roles[i % 3],
      platform: i % 5 ? id.evo : null,
      tenant: i % 3 ? id.acme : null,
      cluster: i % 4 === 1 ? id.c1 : null,
      tags: i % 2 ? [{ slug: 'gold' }] : [],
      local_context_data: i % 7 ? null : { seq: i },
    }));
    expect((await app.api.post('/api/dcim/devices/', bodies)).status).toBe(201);
    const vms = bodies.map((b, i) => ({
      name: b.name,
      site: b.site,
      role: b.role,
      tenant: b.tenant,
      tags: b.tags,
      cluster: i % 3 ? id.c1 : null,
    }));
    const createdVms = await app.api.post(
      '/api/virtualization/virtual-machines/',
      vms.map((v) => ({ ...v, site: v.cluster ? null : v.site })),
    );
    expect(createdVms.status, createdVms.text).toBe(201);

    const queriesFor = async (path: string): Promise<number> => {
      await app.api.get(path);
      const before = app.db.queryCount();
      const response = await app.api.get(path);
      expect(response.status, response.text).toBe(200);
      return app.db.queryCount() - before;
    };
    for (const list of ['/api/dcim/devices/', '/api/virtualization/virtual-machines/']) {
      const small = await queriesFor(`${list}?q=bulk&limit=5`);
      const large = await queriesFor(`${list}?q=bulk&limit=50`);
      expect(large).toBe(small);
      const without = await queriesFor(`${list}?q=bulk&limit=50&exclude=config_context`);
      // The config context costs one statement (objects, their tags, the active contexts, their criteria).
      expect(large - without).toBe(1);
    }
    const page = (await app.api.get('/api/dcim/devices/?q=bulk-0&limit=50')).body.results;
    expect(page[0].config_context).toEqual({ ...shared, seq: 0, device_type: 'mx204', role: 'network' });
  });
});
