import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import { createAll, createTestDevice, query, type Params, type Row } from '../support/filtersets.js';

/**
 * The filter constructs of the model language through the API: tags (all, none, any), change-log requests,
 * stand-ins for what this service does not serve, counts, presence, paths back through reverse relations, and
 * object types by `app.model` and by id.
 */
describe.each(DIALECTS)('filter constructs on %s', (dialect) => {
  let app: TestApp;
  let devices: Row[];
  const ids = async (list: string, params: Params): Promise<number[]> => {
    const response = await app.api.get(`${list}?${query(params)}&ordering=id`);
    expect(response.status, response.text).toBe(200);
    return (response.body.results as Row[]).map((o) => o.id as number);
  };

  beforeAll(async () => {
    app = await startTestApp(dialect);
    const { api } = app;
    await createAll(api, '/api/extras/tags/', [
      { name: 'Red', slug: 'red' },
      { name: 'Blue', slug: 'blue' },
    ]);
    devices = [
      await createTestDevice(api, 'dev-a', { tags: [{ slug: 'red' }, { slug: 'blue' }], local_context_data: { a: 1 } }),
      await createTestDevice(api, 'dev-b', { tags: [{ slug: 'red' }] }),
      await createTestDevice(api, 'dev-c'),
    ];
    await createAll(api, '/api/dcim/interfaces/', [
      { device: devices[0]!.id, name: 'eth0', type: '1000base-t' },
      { device: devices[0]!.id, name: 'eth1', type: '1000base-t' },
      { device: devices[1]!.id, name: 'eth0', type: '1000base-t' },
    ]);
  });
  afterAll(async () => app?.close());

  it('matches every tag, none of them, or any of them', async () => {
    const [a, b, c] = devices.map((d) => d.id as number);
    const list = '/api/dcim/devices/';
    expect(await ids(list, { tag: ['red', 'blue'] })).toEqual([a]);
    expect(await ids(list, { tag__any: ['red', 'blue'] })).toEqual([a, b]);
    expect(await ids(list, { tag__n: ['blue'] })).toEqual([b, c]);
    const blue = (await app.api.get('/api/extras/tags/?slug=blue')).body.results[0].id;
    expect(await ids(list, { tag_id__any: [blue] })).toEqual([a]);
  });

  it('finds the objects a request created or updated', async () => {
    const created = await app.api.post('/api/tenancy/tenants/', { name: 'Req', slug: 'req' });
    const updated = await app.api.patch(`/api/tenancy/tenants/${created.body.id}/`, { description: 'x' });
    const list = '/api/tenancy/tenants/';
    const createdBy = created.headers.get('x-request-id')!;
    const updatedBy = updated.headers.get('x-request-id')!;
    expect(await ids(list, { created_by_request: createdBy })).toEqual([created.body.id]);
    expect(await ids(list, { updated_by_request: createdBy })).toEqual([]);
    expect(await ids(list, { modified_by_request: createdBy })).toEqual([created.body.id]);
    expect(await ids(list, { modified_by_request: updatedBy })).toEqual([created.body.id]);
  });

  it('takes filters over relations it does not serve: null matches all, any object is a 400', async () => {
    const list = '/api/dcim/devices/';
    expect(await ids(list, { virtual_chassis_id: 'null' })).toHaveLength(3);
    expect(await ids(list, { virtual_chassis_id__n: 'null' })).toEqual([]);
    const unknown = await app.api.get(`${list}?virtual_chassis_id=5`);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({
      virtual_chassis_id: ['Select a valid choice. 5 is not one of the available choices.'],
    });
    expect(await ids(list, { console_ports: 'true' })).toEqual([]);
    expect(await ids(list, { console_ports: 'false' })).toHaveLength(3);
    expect((await app.api.get(`${list}?console_ports=maybe`)).status).toBe(400);
    expect(await ids(list, { console_port_count: 0, console_port_count__gte: 1 })).toEqual([]);
    expect(await ids(list, { console_port_count__lt: 1 })).toHaveLength(3);
    expect((await app.api.get(`${list}?console_port_count=x`)).status).toBe(400);
  });

  it('filters on counts, presence and relations that point back', async () => {
    const [a, b, c] = devices.map((d) => d.id as number);
    const list = '/api/dcim/devices/';
    expect(await ids(list, { interface_count: 2 })).toEqual([a]);
    expect(await ids(list, { interface_count__gte: 1 })).toEqual([a, b]);
    expect(await ids(list, { interface_count__n: 0 })).toEqual([a, b]);
    expect(await ids(list, { interfaces: 'true' })).toEqual([a, b]);
    expect(await ids(list, { interfaces: 'false' })).toEqual([c]);
    expect(await ids(list, { local_context_data: 'true' })).toEqual([a]);
    expect(await ids(list, { has_oob_ip: 'false' })).toEqual([a, b, c]);
  });

  it('filters by object type, by app.model (any lookup matches it whole) and by object type id', async () => {
    const list = '/api/core/object-changes/';
    const tenants = await ids(list, { changed_object_type: 'tenancy.tenant' });
    expect(tenants.length).toBeGreaterThan(0);
    expect(await ids(list, { changed_object_type: 'TENANCY.Tenant' })).toEqual(tenants);
    const tenantType = app.context.schema.objectTypeId('tenancy.tenant')!;
    expect(await ids(list, { changed_object_type_id: tenantType })).toEqual(tenants);
    const others = await ids(list, { changed_object_type__n: 'tenancy.tenant' });
    expect(others.filter((id) => tenants.includes(id))).toEqual([]);
    expect((await app.api.get(`${list}?changed_object_type_id=99999`)).status).toBe(400);
    await createAll(app.api, '/api/extras/custom-fields/', [
      { name: 'cf_site', type: 'text', object_types: ['dcim.site'] },
      { name: 'cf_device', type: 'text', object_types: ['dcim.device', 'dcim.rack'] },
    ]);
    const fields = '/api/extras/custom-fields/';
    const names = async (params: Params) =>
      ((await app.api.get(`${fields}?${query(params)}`)).body.results as Row[]).map((f) => f.name);
    expect(await names({ object_type: 'dcim.rack' })).toEqual(['cf_device']);
    expect(await names({ object_type__ic: 'dcim.site' })).toEqual(['cf_site']);
    expect(await names({ object_type__n: 'dcim.site' })).toEqual(['cf_device']);
    // NetBox's ContentTypeFilter reads every lookup's value as a whole type: a part of one matches nothing,
    // and so does a pattern. Its negated lookups match like equality there (the filter ignores `exclude`);
    // here they negate, a deliberate difference.
    expect(await names({ object_type__ic: 'site' })).toEqual([]);
    expect(await names({ object_type__regex: '.*' })).toEqual([]);
    expect(await names({ object_type__ie: 'DCIM.Site' })).toEqual(['cf_site']);
    expect(await names({ object_type__nic: 'dcim.site' })).toEqual(['cf_device']);
    expect(await names({ object_type__nisw: 'dcim.device' })).toEqual(['cf_site']);
    expect(await names({ object_type_id: app.context.schema.objectTypeId('dcim.device')! })).toEqual(['cf_device']);
  });
});
