import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import { translateDatabaseError } from '../../runtime/db/errors.js';
import { ValidationError } from '../../runtime/errors.js';

/** Related objects by attributes, database-level uniqueness, and queries trimmed to the selected fields. */
describe.each(DIALECTS)('writes and reads on %s', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect);
    await app.api.post('/api/dcim/regions/', [
      { name: 'Europe', slug: 'europe', description: 'same' },
      { name: 'Asia', slug: 'asia', description: 'same' },
    ]);
    await app.api.post('/api/dcim/sites/', { name: 'Lyon', slug: 'lyon', region: { slug: 'europe' } });
  });
  afterAll(async () => app?.close());

  it('resolves related objects by nested attributes, and names the field when none or several match', async () => {
    const nested = await app.api.post('/api/dcim/locations/', {
      name: 'Hall',
      slug: 'hall',
      site: { region: { slug: 'europe' }, name: 'Lyon' },
    });
    expect(nested.status, nested.text).toBe(201);
    expect(nested.body.site.name).toBe('Lyon');
    const several = await app.api.post('/api/dcim/sites/', { name: 'X', slug: 'x', region: { description: 'same' } });
    expect(several.status).toBe(400);
    expect(several.body).toEqual({
      region: ["Multiple objects match the provided attributes: {'description': 'same'}"],
    });
    const none = await app.api.post('/api/dcim/locations/', {
      name: 'H',
      slug: 'h',
      site: { region: { slug: 'asia' } },
    });
    expect(none.body).toEqual({
      site: ["Related object not found using the provided attributes: {'region__slug': 'asia'}"],
    });
    const byIdObject = await app.api.post('/api/dcim/sites/', { name: 'Y', slug: 'y', region: { id: 987654 } });
    expect(byIdObject.body).toEqual({ region: ['Related object not found using the provided numeric ID: 987654'] });
    // A missing object named by its id, left to the database's foreign key first: NetBox's answer all the same.
    const missing = await app.api.post('/api/dcim/sites/', { name: 'W', slug: 'w', region: 987654 });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ region: ['Related object not found using the provided numeric ID: 987654'] });
    const bulkMissing = await app.api.post('/api/dcim/sites/', [
      { name: 'V1', slug: 'v1' },
      { name: 'V2', slug: 'v2', tenant: 987654 },
    ]);
    expect(bulkMissing.status).toBe(400);
    expect(bulkMissing.body).toEqual([
      {},
      { tenant: ['Related object not found using the provided numeric ID: 987654'] },
    ]);
    expect((await app.api.get('/api/dcim/sites/?slug=v1')).body.count).toBe(0);
    const lyon = (await app.api.get('/api/dcim/sites/?slug=lyon')).body.results[0].id as number;
    const patchMissing = await app.api.patch(`/api/dcim/sites/${lyon}/`, { tenant: 987654 });
    expect(patchMissing.status).toBe(400);
    expect(patchMissing.body).toEqual({ tenant: ['Related object not found using the provided numeric ID: 987654'] });
    const europe = (await app.api.get('/api/dcim/regions/?slug=europe')).body.results[0];
    const numericString = await app.api.post('/api/dcim/sites/', { name: 'Z', slug: 'z', region: String(europe.id) });
    expect(numericString.status).toBe(201);
    expect(numericString.body.region.slug).toBe('europe');
  });

  it('turns a unique violation that slips past validation into a 400 naming the field', async () => {
    const site = (await app.api.get('/api/dcim/sites/?slug=lyon')).body.results[0];
    let caught: unknown;
    try {
      await app.db
        .knex('dcim_site')
        .insert({ ...(await app.db.knex('dcim_site').where('id', site.id).first()), id: undefined, name: 'Other' });
    } catch (error) {
      caught = error;
    }
    const translated = translateDatabaseError(caught, app.context.schema);
    expect(translated).toBeInstanceOf(ValidationError);
    expect(translated?.body).toEqual({ slug: ['site with this slug already exists.'] });

    let partial: unknown;
    try {
      await app.db.knex('dcim_region').insert({
        name: 'Europe',
        slug: 'europe-2',
        description: '',
        comments: '',
        _path: '',
        _depth: 0,
        custom_field_data: '{}',
      });
    } catch (error) {
      partial = error;
    }
    expect(translateDatabaseError(partial, app.context.schema)?.body).toEqual({
      __all__: ['A top-level region with this name already exists.'],
    });
  });

  it('joins only the relations a response renders', async () => {
    const statements: string[] = [];
    const listener = (query: { sql: string }): void => {
      statements.push(query.sql.toLowerCase());
    };
    app.db.knex.on('query', listener);
    try {
      await app.api.get('/api/dcim/sites/?fields=id,name');
      const trimmed = statements.filter((s) => s.includes('"dcim_site"') || s.includes('`dcim_site`'));
      expect(trimmed.some((s) => s.includes(' join '))).toBe(false);
      statements.length = 0;
      await app.api.get('/api/dcim/sites/');
      expect(statements.some((s) => s.includes(' join ') && s.includes('dcim_region'))).toBe(true);
    } finally {
      app.db.knex.removeListener('query', listener);
    }
  });

  it('gives each object of a bulk update its own values of every type, and keeps the chassis master rule', async () => {
    const cf = await app.api.post('/api/extras/custom-fields/', [
      { name: 'bulk_json', type: 'json', object_types: ['dcim.site'] },
      { name: 'bulk_flag', type: 'boolean', object_types: ['dcim.site'] },
    ]);
    expect(cf.status, cf.text).toBe(201);
    const europe = (await app.api.get('/api/dcim/regions/?slug=europe')).body.results[0].id as number;
    const sites = await app.api.post(
      '/api/dcim/sites/',
      [1, 2, 3].map((n) => ({ name: `Bulk ${n}`, slug: `bulk-${n}` })),
    );
    expect(sites.status, sites.text).toBe(201);
    const ids = (sites.body as { id: number }[]).map((s) => s.id);
    const patched = await app.api.patch(
      '/api/dcim/sites/',
      ids.map((id, i) => ({
        id,
        region: i === 1 ? null : europe,
        latitude: i + 0.5,
        time_zone: i === 2 ? 'Europe/Paris' : null,
        custom_fields: { bulk_json: { n: i, list: [i] }, bulk_flag: i % 2 === 0 },
        description: i === 0 ? '' : `site ${i}`,
      })),
    );
    expect(patched.status, patched.text).toBe(200);
    const read = (await app.api.get(`/api/dcim/sites/?id=${ids.join('&id=')}&ordering=name`)).body.results as any[];
    expect(read.map((s) => [s.region?.id ?? null, s.latitude, s.time_zone, s.custom_fields, s.description])).toEqual([
      [europe, 0.5, null, { bulk_json: { n: 0, list: [0] }, bulk_flag: true }, ''],
      [null, 1.5, null, { bulk_json: { n: 1, list: [1] }, bulk_flag: false }, 'site 1'],
      [europe, 2.5, 'Europe/Paris', { bulk_json: { n: 2, list: [2] }, bulk_flag: true }, 'site 2'],
    ]);
    expect(read.map((s) => s.last_updated)).toEqual(read.map(() => read[0].last_updated));

    // A master stays in its chassis; its other fields change in a bulk update like any device's.
    const post = async (path: string, body: unknown) => (await app.api.post(path, body)).body as { id: number };
    const maker = await post('/api/dcim/manufacturers/', { name: 'VC maker', slug: 'vc-maker' });
    const type = await post('/api/dcim/device-types/', { manufacturer: maker.id, model: 'VC', slug: 'vc' });
    const role = await post('/api/dcim/device-roles/', { name: 'VC role', slug: 'vc-role' });
    const device = (name: string) => ({ name, device_type: type.id, role: role.id, site: ids[0] });
    const [master, other] = (await app.api.post('/api/dcim/devices/', [device('vc-1'), device('vc-2')])).body as {
      id: number;
    }[];
    const chassis = await post('/api/dcim/virtual-chassis/', { name: 'VC', master: master!.id });
    const moved = await app.api.patch('/api/dcim/devices/', [
      { id: master!.id, description: 'master' },
      { id: other!.id, description: 'other' },
    ]);
    expect(moved.status, moved.text).toBe(200);
    const left = await app.api.patch(`/api/dcim/devices/${master!.id}/`, { virtual_chassis: null });
    expect(left.status).toBe(400);
    expect(left.body).toEqual({
      virtual_chassis: [
        'Device cannot be removed from virtual chassis VC because it is currently designated as its master.',
      ],
    });
    expect((await app.api.get(`/api/dcim/devices/${master!.id}/`)).body.virtual_chassis.id).toBe(chassis.id);
  });

  it('records the lists and tags a create wrote and an update kept, without reading them again', async () => {
    const rir = (await app.api.post('/api/ipam/rirs/', { name: 'Lists RIR', slug: 'lists-rir' })).body.id as number;
    const asns = (
      await app.api.post('/api/ipam/asns/', [
        { asn: 65002, rir },
        { asn: 65001, rir },
      ])
    ).body as { id: number }[];
    await app.api.post('/api/extras/tags/', [
      { name: 'Zeta', slug: 'zeta' },
      { name: 'alpha', slug: 'alpha' },
    ]);
    const site = await app.api.post('/api/dcim/sites/', {
      name: 'Lists',
      slug: 'lists',
      asns: [asns[0]!.id, asns[1]!.id],
      tags: [{ slug: 'zeta' }, { slug: 'alpha' }],
    });
    expect(site.status, site.text).toBe(201);
    const patched = await app.api.patch(`/api/dcim/sites/${site.body.id}/`, { description: 'kept lists' });
    expect(patched.status, patched.text).toBe(200);
    const records = (
      await app.api.get(`/api/core/object-changes/?changed_object_type=dcim.site&changed_object_id=${site.body.id}`)
    ).body.results as { action: { value: string }; postchange_data: Record<string, unknown> }[];
    // The tags as the database orders their names, the lists by id: as a read gives them.
    const order = (await app.api.get('/api/extras/tags/?slug=zeta&slug=alpha&ordering=name')).body.results.map(
      (t: { name: string }) => t.name,
    );
    const ids = asns.map((a) => a.id).sort((a, b) => a - b);
    for (const action of ['create', 'update']) {
      const record = records.find((r) => r.action.value === action)!;
      expect(record.postchange_data).toMatchObject({ asns: ids, tags: order });
    }
  });

  it('answers HEAD like GET without a body', async () => {
    const head = await app.api.request('HEAD', '/api/dcim/sites/');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('api-version')).toBe('4.6');
  });

  it('accepts Accept versions it speaks and refuses others', async () => {
    expect(
      (await app.api.get('/api/dcim/sites/', { headers: { Accept: 'application/json; version=4.6' } })).status,
    ).toBe(200);
    const other = await app.api.get('/api/dcim/sites/', { headers: { Accept: 'application/json; version=3.0' } });
    expect(other.status).toBe(406);
    expect(other.body).toEqual({ detail: 'Invalid version in "Accept" header.' });
  });
});
