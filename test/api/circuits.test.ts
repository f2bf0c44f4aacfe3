import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/**
 * Circuits as a network engineer records them: providers (with their ASNs), circuit types, circuits with
 * their A and Z terminations at sites, locations, regions or site groups, and the filters by site.
 */
describe.each(DIALECTS)('circuits on %s', (dialect) => {
  let app: TestApp;
  const id: Record<string, any> = {};

  const create = async (path: string, body: unknown): Promise<any> => {
    const response = await app.api.post(path, body);
    expect(response.status, response.text).toBe(201);
    return response.body;
  };
  const list = async (path: string): Promise<Record<string, any>[]> => {
    const response = await app.api.get(path);
    expect(response.status, response.text).toBe(200);
    return response.body.results;
  };
  const cids = async (query: string): Promise<string[]> =>
    (await list(`/api/circuits/circuits/?limit=0&${query}`)).map((c) => c.cid);
  const api = (path: string, key: number): string => `${app.baseUrl}/api/${path}/${key}/`;
  const terminations = '/api/circuits/circuit-terminations/';

  beforeAll(async () => {
    app = await startTestApp(dialect);
    id.europe = (await create('/api/dcim/regions/', { name: 'Europe', slug: 'europe' })).id;
    id.metro = (await create('/api/dcim/site-groups/', { name: 'Metro', slug: 'metro' })).id;
    id.par1 = (await create('/api/dcim/sites/', { name: 'PAR1', slug: 'par1', region: id.europe })).id;
    id.ams1 = (await create('/api/dcim/sites/', { name: 'AMS1', slug: 'ams1', group: id.metro })).id;
    id.fra1 = (await create('/api/dcim/sites/', { name: 'FRA1', slug: 'fra1' })).id;
    id.cage = (await create('/api/dcim/locations/', { name: 'Cage 7', slug: 'cage-7', site: id.ams1 })).id;
    const rir = await create('/api/ipam/rirs/', { name: 'RIPE', slug: 'ripe' });
    const asns = await create('/api/ipam/asns/', [
      { asn: 3356, rir: rir.id },
      { asn: 1299, rir: rir.id },
    ]);
    id.as3356 = asns[0].id;
    id.as1299 = asns[1].id;
    id.lumen = (await create('/api/circuits/providers/', { name: 'Lumen', slug: 'lumen', asns: [id.as3356] })).id;
    id.arelion = (await create('/api/circuits/providers/', { name: 'Arelion', slug: 'arelion' })).id;
    id.transit = (await create('/api/circuits/circuit-types/', { name: 'Transit', slug: 'transit' })).id;
    id.wave = (await create('/api/circuits/circuit-types/', { name: 'Wave', slug: 'wave', color: '00ff00' })).id;
  });
  afterAll(async () => app?.close());

  it('lists providers with their ASNs and circuit counts', async () => {
    const lumen = (await app.api.get(`/api/circuits/providers/${id.lumen}/`)).body;
    expect(lumen.display).toBe('Lumen');
    expect(lumen.asns).toEqual([
      { id: id.as3356, url: api('ipam/asns', id.as3356), display: 'AS3356', asn: 3356, description: '' },
    ]);
    expect(lumen.circuit_count).toBe(0);
    const both = await app.api.patch(`/api/circuits/providers/${id.arelion}/`, { asns: [id.as1299, id.as3356] });
    expect(both.body.asns.map((a: { asn: number }) => a.asn)).toEqual([1299, 3356]);
    const names = async (query: string): Promise<string[]> =>
      (await list(`/api/circuits/providers/?${query}`)).map((p) => p.name);
    expect(await names('asn=3356')).toEqual(['Arelion', 'Lumen']);
    expect(await names(`asn_id=${id.as1299}`)).toEqual(['Arelion']);
    expect(await names('q=lum')).toEqual(['Lumen']);
    expect((await app.api.post('/api/circuits/providers/', { name: 'Lumen', slug: 'lumen-2' })).body).toEqual({
      name: ['provider with this name already exists.'],
    });
    expect((await app.api.patch(`/api/circuits/providers/${id.lumen}/`, { asns: [{ asn: 1299 }] })).body).toEqual({
      asns: ['Incorrect type. Expected pk value, received dict.'],
    });
    const asn = (await app.api.get(`/api/ipam/asns/${id.as3356}/`)).body;
    expect(asn.provider_count).toBe(2);
    const brief = (await app.api.get(`/api/circuits/providers/${id.lumen}/?brief=1`)).body;
    expect(Object.keys(brief)).toEqual(['id', 'url', 'display', 'name', 'slug', 'description', 'circuit_count']);
  });

  it('creates circuits with unique circuit ids per provider and a distance with its unit', async () => {
    const circuit = await create('/api/circuits/circuits/', {
      cid: 'LUM-001',
      provider: id.lumen,
      type: id.transit,
      commit_rate: 10000000,
      install_date: '2026-01-15',
    });
    id.lum1 = circuit.id;
    expect(circuit.display).toBe('LUM-001');
    expect(circuit.status).toEqual({ value: 'active', label: 'Active' });
    expect(circuit.provider).toEqual({
      id: id.lumen,
      url: api('circuits/providers', id.lumen),
      display: 'Lumen',
      name: 'Lumen',
      slug: 'lumen',
      description: '',
    });
    expect(circuit.type.display).toBe('Transit');
    expect(circuit.termination_a).toBeNull();
    expect(circuit.termination_z).toBeNull();
    expect(circuit.install_date).toBe('2026-01-15');

    const twin = await app.api.post('/api/circuits/circuits/', { cid: 'LUM-001', provider: id.lumen, type: id.wave });
    expect(twin.status).toBe(400);
    expect(twin.body).toEqual({ __all__: ['Circuit with this Provider and Circuit ID already exists.'] });
    id.arl1 = (await create('/api/circuits/circuits/', { cid: 'LUM-001', provider: id.arelion, type: id.wave })).id;
    const missing = await app.api.post('/api/circuits/circuits/', { cid: 'X' });
    expect(missing.body).toEqual({ provider: ['This field is required.'], type: ['This field is required.'] });

    const noUnit = await app.api.patch(`/api/circuits/circuits/${id.lum1}/`, { distance: 12.5 });
    expect(noUnit.body).toEqual({ __all__: ['Must specify a unit when setting a distance'] });
    const withUnit = await app.api.patch(`/api/circuits/circuits/${id.lum1}/`, { distance: 12.5, distance_unit: 'km' });
    expect(withUnit.body.distance).toBe(12.5);
    expect(withUnit.body.distance_unit).toEqual({ value: 'km', label: 'Kilometers' });
    const cleared = await app.api.patch(`/api/circuits/circuits/${id.lum1}/`, { distance: null });
    expect(cleared.body.distance).toBeNull();
    expect(cleared.body.distance_unit).toBeNull();

    const types = await list('/api/circuits/circuit-types/?fields=name,color,circuit_count');
    expect(types).toEqual([
      { name: 'Transit', color: '', circuit_count: 1 },
      { name: 'Wave', color: '00ff00', circuit_count: 1 },
    ]);
    expect((await app.api.get(`/api/circuits/providers/${id.lumen}/`)).body.circuit_count).toBe(1);
  });

  it('terminates each side once, at a site, a location, a region or a site group', async () => {
    const a = await create(terminations, {
      circuit: id.lum1,
      term_side: 'A',
      termination_type: 'dcim.site',
      termination_id: id.par1,
      port_speed: 10000000,
      xconnect_id: 'XC-1',
    });
    expect(a.display).toBe('LUM-001: Termination A');
    expect(a.term_side).toBe('A');
    expect(a.termination).toEqual({
      id: id.par1,
      url: api('dcim/sites', id.par1),
      display: 'PAR1',
      name: 'PAR1',
      description: '',
      slug: 'par1',
    });
    expect(a.circuit).toEqual({
      id: id.lum1,
      url: api('circuits/circuits', id.lum1),
      display: 'LUM-001',
      provider: expect.objectContaining({ id: id.lumen, name: 'Lumen' }),
      cid: 'LUM-001',
      description: '',
    });
    expect(a._occupied).toBe(false);
    const z = await create(terminations, {
      circuit: id.lum1,
      term_side: 'Z',
      termination_type: 'dcim.location',
      termination_id: id.cage,
      mark_connected: true,
    });
    expect(z.termination.name).toBe('Cage 7');
    expect(z._occupied).toBe(true);
    const brief = (await app.api.get(`${terminations}${a.id}/?brief=1`)).body;
    expect(Object.keys(brief)).toEqual([
      'id',
      'url',
      'display',
      'circuit',
      'term_side',
      'description',
      'cable',
      '_occupied',
    ]);

    const circuit = (await app.api.get(`/api/circuits/circuits/${id.lum1}/`)).body;
    expect(circuit.termination_a).toEqual({
      id: a.id,
      url: api('circuits/circuit-terminations', a.id),
      display_url: `${app.baseUrl}/circuits/circuit-terminations/${a.id}/`,
      display: 'LUM-001: Termination A',
      termination_type: 'dcim.site',
      termination_id: id.par1,
      termination: a.termination,
      port_speed: 10000000,
      upstream_speed: null,
      xconnect_id: 'XC-1',
      description: '',
    });
    expect(circuit.termination_z.termination_type).toBe('dcim.location');

    const again = await app.api.post(terminations, {
      circuit: id.lum1,
      term_side: 'A',
      termination_type: 'dcim.site',
      termination_id: id.fra1,
    });
    expect(again.body).toEqual({
      __all__: ['Circuit termination with this Circuit and Termination side already exists.'],
    });
    const nowhere = await app.api.post(terminations, { circuit: id.arl1, term_side: 'A' });
    expect(nowhere.body).toEqual({ __all__: ['A circuit termination must attach to a terminating object.'] });
    const side = await app.api.post(terminations, {
      circuit: id.arl1,
      term_side: 'B',
      termination_type: 'dcim.site',
      termination_id: id.fra1,
    });
    expect(side.body).toEqual({ term_side: ['"B" is not a valid choice.'] });
    const wrongType = await app.api.post(terminations, {
      circuit: id.arl1,
      term_side: 'A',
      termination_type: 'dcim.device',
      termination_id: id.fra1,
    });
    expect(wrongType.status).toBe(400);
    expect(Object.keys(wrongType.body)).toEqual(['termination_type']);

    // Arelion's circuit lands in a region and a site group.
    const inGroups = await app.api.post(terminations, [
      { circuit: id.arl1, term_side: 'A', termination_type: 'dcim.region', termination_id: id.europe },
      { circuit: id.arl1, term_side: 'Z', termination_type: 'dcim.sitegroup', termination_id: id.metro },
    ]);
    expect(inGroups.status, inGroups.text).toBe(201);
    const arl = (await app.api.get(`/api/circuits/circuits/${id.arl1}/`)).body;
    expect(arl.termination_a.termination.display).toBe('Europe');
    expect(arl.termination_z.termination.display).toBe('Metro');
  });

  it('filters circuits, providers and terminations by the sites they terminate at', async () => {
    expect(await cids(`site_id=${id.par1}`)).toEqual(['LUM-001']);
    // A termination at a location counts for the location's site.
    expect(await cids(`site_id=${id.ams1}`)).toEqual(['LUM-001']);
    expect(await cids('site=ams1')).toEqual(['LUM-001']);
    expect(await cids(`site_id=${id.fra1}`)).toEqual([]);
    expect(await cids('provider=arelion')).toEqual(['LUM-001']);
    expect((await list('/api/circuits/circuits/?limit=0')).map((c) => c.provider.name)).toEqual(['Arelion', 'Lumen']);
    const unknown = await app.api.get('/api/circuits/circuits/?site=nowhere');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ site: ['Select a valid choice. nowhere is not one of the available choices.'] });
    const providers = async (query: string): Promise<string[]> =>
      (await list(`/api/circuits/providers/?${query}`)).map((p) => p.name);
    expect(await providers(`site_id=${id.par1}`)).toEqual(['Lumen']);
    expect(await providers('site=fra1')).toEqual([]);

    const sides = async (query: string): Promise<string[]> =>
      ((await app.api.get(`${terminations}?limit=0&${query}`)).body.results as { display: string }[]).map(
        (t) => t.display,
      );
    expect(await sides(`site_id=${id.ams1}`)).toEqual(['LUM-001: Termination Z']);
    expect(await sides(`location_id=${id.cage}`)).toEqual(['LUM-001: Termination Z']);
    expect(await sides('region=europe')).toEqual(['LUM-001: Termination A', 'LUM-001: Termination A']);
    expect(await sides('site_group=metro')).toEqual(['LUM-001: Termination Z', 'LUM-001: Termination Z']);
    expect(await sides(`circuit_id=${id.lum1}`)).toEqual(['LUM-001: Termination A', 'LUM-001: Termination Z']);
    expect(await sides('provider=arelion&term_side=Z')).toEqual(['LUM-001: Termination Z']);
    expect(await sides('q=XC-1')).toEqual(['LUM-001: Termination A']);

    const counts = await list('/api/dcim/sites/?fields=name,circuit_count');
    expect(counts).toEqual([
      { name: 'AMS1', circuit_count: 1 },
      { name: 'FRA1', circuit_count: 0 },
      { name: 'PAR1', circuit_count: 1 },
    ]);
  });

  it('follows a site into another region and a location to another site', async () => {
    const asia = (await create('/api/dcim/regions/', { name: 'Asia', slug: 'asia' })).id;
    expect((await app.api.patch(`/api/dcim/sites/${id.ams1}/`, { region: asia })).status).toBe(200);
    const sides = async (query: string): Promise<string[]> =>
      ((await app.api.get(`${terminations}?limit=0&${query}`)).body.results as { display: string }[]).map(
        (t) => t.display,
      );
    expect(await sides('region=asia')).toEqual(['LUM-001: Termination Z']);
    expect((await app.api.patch(`/api/dcim/locations/${id.cage}/`, { site: id.fra1, parent: null })).status).toBe(200);
    expect(await sides(`site_id=${id.fra1}`)).toEqual(['LUM-001: Termination Z']);
    expect(await sides('region=asia')).toEqual([]);
    // Back where the other tests expect them.
    await app.api.patch(`/api/dcim/locations/${id.cage}/`, { site: id.ams1 });
    await app.api.patch(`/api/dcim/sites/${id.ams1}/`, { region: null });
    expect(await sides(`site_id=${id.ams1}`)).toEqual(['LUM-001: Termination Z']);
  });

  it('moves a termination, protects providers and deletes terminations with their circuit or site', async () => {
    const a = (await list(`${terminations}?circuit_id=${id.lum1}&term_side=A`))[0]!;
    const moved = await app.api.patch(`${terminations}${a.id}/`, { termination_id: id.fra1 });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.termination.name).toBe('FRA1');
    expect(await cids(`site_id=${id.fra1}`)).toEqual(['LUM-001']);
    expect(await cids(`site_id=${id.par1}`)).toEqual([]);

    const blocked = await app.api.delete(`/api/circuits/providers/${id.lumen}/`);
    expect(blocked.status).toBe(409);
    expect(blocked.body).toEqual({
      detail: `Unable to delete object. 1 dependent objects were found: LUM-001 (${id.lum1})`,
    });
    // A site takes the terminations at it (and at its locations) with it, as in NetBox.
    const site = await app.api.delete(`/api/dcim/sites/${id.ams1}/`);
    expect(site.status, site.text).toBe(204);
    const circuit = (await app.api.get(`/api/circuits/circuits/${id.lum1}/`)).body;
    expect(circuit.termination_z).toBeNull();
    expect(circuit.termination_a.termination.name).toBe('FRA1');
    expect((await app.api.delete(`/api/circuits/circuits/${id.lum1}/`)).status).toBe(204);
    expect((await list(`${terminations}?site_id=${id.fra1}`)).length).toBe(0);
    expect((await app.api.delete(`/api/circuits/providers/${id.lumen}/`)).status).toBe(204);
  });

  // Last: it adds a circuit the tests above do not expect.
  it('traces an interface across a circuit to the provider network at its far side, which takes no cable', async () => {
    const network = await create('/api/circuits/provider-networks/', { provider: id.arelion, name: 'Arelion IP' });
    const circuit = await create('/api/circuits/circuits/', {
      cid: 'ARE-PN-1',
      provider: id.arelion,
      type: id.transit,
    });
    const [near, far] = await create(terminations, [
      { circuit: circuit.id, term_side: 'A', termination_type: 'dcim.site', termination_id: id.fra1 },
      { circuit: circuit.id, term_side: 'Z', termination_type: 'circuits.providernetwork', termination_id: network.id },
    ]);
    const maker = await create('/api/dcim/manufacturers/', { name: 'PN Maker', slug: 'pn-maker' });
    const type = await create('/api/dcim/device-types/', { manufacturer: maker.id, model: 'PN 1', slug: 'pn-1' });
    const role = await create('/api/dcim/device-roles/', { name: 'PN Edge', slug: 'pn-edge' });
    const edge = await create('/api/dcim/devices/', {
      name: 'pn-edge',
      device_type: type.id,
      role: role.id,
      site: id.fra1,
    });
    const wan = await create('/api/dcim/interfaces/', { device: edge.id, name: 'wan0', type: '10gbase-x-sfpp' });
    const end = (type: string, objectId: number) => [{ object_type: type, object_id: objectId }];
    await create('/api/dcim/cables/', {
      a_terminations: end('dcim.interface', wan.id),
      b_terminations: end('circuits.circuittermination', near.id),
    });
    const traced = (await app.api.get(`/api/dcim/interfaces/${wan.id}/`)).body;
    expect(traced.connected_endpoints_type).toBe('circuits.providernetwork');
    expect(traced.connected_endpoints.map((e: { id: number; name: string }) => [e.id, e.name])).toEqual([
      [network.id, 'Arelion IP'],
    ]);
    expect(traced.connected_endpoints_reachable).toBe(true);

    const lan = await create('/api/dcim/interfaces/', { device: edge.id, name: 'wan1', type: '10gbase-x-sfpp' });
    const refused = await app.api.post('/api/dcim/cables/', {
      a_terminations: end('dcim.interface', lan.id),
      b_terminations: end('circuits.circuittermination', far.id),
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain(
      'Circuit terminations attached to a provider network may not be cabled.',
    );
  });
});
