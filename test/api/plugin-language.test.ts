import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/**
 * The model language for plugin authors (issue 27), through the NetBox DNS example plugin
 * (models/plugins/netbox_dns/, YAML only): conditional uniqueness, case-insensitive uniqueness over several
 * fields, rules over a many-to-many list on a PATCH that does not send it, typed validation functions, a
 * derived value that follows its related object (and the rack ↔ rack type case of the core models), display
 * templates with literal brackets and truncation, `now()`, and write hooks (a zone's `created` and `updated`
 * hooks keep its apex NS records, change-logged and evented).
 */
const DNS = '/api/plugins/netbox-dns';

describe.each(DIALECTS)('the model language through the NetBox DNS plugin on %s', (dialect) => {
  let app: TestApp;
  const ids: Record<string, number> = {};
  const create = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const response = await app.api.post(path, body);
    expect(response.status, response.text).toBe(201);
    return response.body as Record<string, unknown>;
  };

  beforeAll(async () => {
    app = await startTestApp(dialect, { settings: { PLUGINS: ['netbox_dns'] } });
    ids.internal = (await create(`${DNS}/views/`, { name: 'internal', default_view: true })).id as number;
    ids.external = (await create(`${DNS}/views/`, { name: 'external' })).id as number;
    ids.ns1 = (await create(`${DNS}/nameservers/`, { name: 'ns1.example.com' })).id as number;
    ids.ns2 = (await create(`${DNS}/nameservers/`, { name: 'ns2.example.com' })).id as number;
    const zone = await create(`${DNS}/zones/`, {
      view: ids.internal,
      name: 'Example.com',
      nameservers: [ids.ns1],
      soa_mname: ids.ns1,
    });
    ids.zone = zone.id as number;
  });
  afterAll(async () => app?.close());

  it('allows at most one object under a uniqueness condition (a single default view)', async () => {
    const second = await app.api.post(`${DNS}/views/`, { name: 'other', default_view: true });
    expect(second.status).toBe(400);
    expect(second.body).toEqual({ __all__: ['Only one view can be the default view.'] });
    expect((await app.api.patch(`${DNS}/views/${ids.external}/`, { default_view: true })).status).toBe(400);
    expect((await app.api.post(`${DNS}/views/`, { name: 'third' })).status).toBe(201);
    expect((await app.api.patch(`${DNS}/views/${ids.internal}/`, { description: 'kept' })).status).toBe(200);
  });

  it('compares every text field of a case-insensitive constraint in lower case, not the first one only', async () => {
    const clash = await app.api.post(`${DNS}/zones/`, { view: ids.internal, name: 'EXAMPLE.COM' });
    expect(clash.status).toBe(400);
    expect(clash.body).toEqual({ __all__: ['A zone with this name already exists in the view.'] });
    await create(`${DNS}/zones/`, { view: ids.external, name: 'example.COM' });
  });

  it('lets a rule over a many-to-many list see the stored list on a PATCH that does not send it', async () => {
    const patched = await app.api.patch(`${DNS}/zones/${ids.zone}/`, { description: 'only this' });
    expect(patched.status, patched.text).toBe(200);
    const refused = await app.api.patch(`${DNS}/zones/${ids.zone}/`, { soa_mname: ids.ns2 });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ soa_mname: ["The SOA MName must be one of the zone's name servers."] });
    const both = await app.api.patch(`${DNS}/zones/${ids.zone}/`, { soa_mname: ids.ns2, nameservers: [ids.ns2] });
    expect(both.status, both.text).toBe(200);
  });

  it('checks values with typed validation functions: addresses, host names and patterns', async () => {
    const record = (type: string, value: string): Promise<{ status: number; body: Record<string, unknown> }> =>
      app.api.post(`${DNS}/records/`, { zone: ids.zone, name: 'www', type, value });
    expect((await record('A', '192.0.2.300')).body).toEqual({ value: ['A records need an IPv4 address: 192.0.2.300'] });
    expect((await record('A', '2001:db8::1')).status).toBe(400);
    expect((await record('AAAA', '192.0.2.1')).body).toEqual({
      value: ['AAAA records need an IPv6 address: 192.0.2.1'],
    });
    expect((await record('CNAME', 'not a host')).body).toEqual({ value: ['not a host is not a valid host name.'] });
    expect((await record('TXT', 'caf\u00e9')).body).toEqual({ value: ['TXT records hold printable ASCII text.'] });
    expect((await app.api.post(`${DNS}/nameservers/`, { name: '-bad-.example' })).body).toEqual({
      name: ['-bad-.example is not a valid host name.'],
    });
    for (const [type, value] of [
      ['A', '192.0.2.1'],
      ['AAAA', '2001:db8::1'],
      ['CNAME', 'web.example.com.'],
      ['TXT', 'v=spf1 -all'],
    ]) {
      expect((await record(type!, value!)).status).toBe(201);
    }
  });

  it('renders display templates with literal brackets and truncated values', async () => {
    const short = await create(`${DNS}/records/`, { zone: ids.zone, name: 'mail', type: 'A', value: '192.0.2.25' });
    expect(short.display).toBe('mail [A] 192.0.2.25');
    const long = await create(`${DNS}/records/`, {
      zone: ids.zone,
      name: 'txt',
      value: 'a very long text value that goes on',
    });
    expect(long.display).toBe('txt [TXT] a very long text va…');
    const listed = await app.api.get(`${DNS}/records/?id=${short.id as number}&brief=1`);
    expect(listed.body.results[0].display).toBe('mail [A] 192.0.2.25');
  });

  it('keeps a derived value up to date when the related object changes, change-logged', async () => {
    const zone = await create(`${DNS}/zones/`, { view: ids.internal, name: 'follow.test' });
    const record = await create(`${DNS}/records/`, { zone: zone.id, name: 'www', value: 'x' });
    expect(record.fqdn).toBe('www.follow.test.');
    const renamed = await app.api.patch(`${DNS}/zones/${zone.id as number}/`, { name: 'renamed.test' });
    expect(renamed.status, renamed.text).toBe(200);
    const after = await app.api.get(`${DNS}/records/${record.id as number}/`);
    expect(after.body.fqdn).toBe('www.renamed.test.');
    const changes = await app.api.get(
      `/api/core/object-changes/?changed_object_type=netbox_dns.record&changed_object_id=${record.id as number}&action=update`,
    );
    expect(changes.body.count).toBe(1);
    expect(changes.body.results[0].postchange_data.fqdn).toBe('www.renamed.test.');
    const zoneChanges = await app.api.get(
      `/api/core/object-changes/?changed_object_type=netbox_dns.zone&changed_object_id=${zone.id as number}&action=update`,
    );
    expect(changes.body.results[0].request_id).toBe(zoneChanges.body.results[0].request_id);
  });

  it("runs a zone's write hooks in the write's transaction: its NS records follow its name servers", async () => {
    const nsRecords = async (zone: number): Promise<string[]> => {
      const listed = await app.api.get(`${DNS}/records/?zone_id=${zone}&type=NS&ordering=value`);
      expect(listed.status, listed.text).toBe(200);
      return (listed.body.results as { name: string; value: string }[]).map((r) => `${r.name} ${r.value}`);
    };
    const rule = await app.api.post('/api/extras/event-rules/', {
      name: 'ns records',
      object_types: ['netbox_dns.record'],
      event_types: ['object_created', 'object_deleted'],
      action_type: 'webhook',
      action_object_type: 'extras.webhook',
      action_object_id: (await create('/api/extras/webhooks/', { name: 'dns', payload_url: 'http://192.0.2.53/' })).id,
    });
    expect(rule.status, rule.text).toBe(201);

    const zone = await create(`${DNS}/zones/`, { view: ids.internal, name: 'hooks.test', nameservers: [ids.ns1] });
    const id = zone.id as number;
    expect(await nsRecords(id)).toEqual(['@ ns1.example.com']);
    const zoneCreated = await app.api.get(
      `/api/core/object-changes/?changed_object_type=netbox_dns.zone&changed_object_id=${id}`,
    );
    const recordsCreated = await app.api.get(
      `/api/core/object-changes/?changed_object_type=netbox_dns.record&action=create&request_id=${zoneCreated.body.results[0].request_id as string}`,
    );
    expect(recordsCreated.body.count).toBe(1);
    expect(recordsCreated.body.results[0].postchange_data).toMatchObject({
      name: '@',
      type: 'NS',
      value: 'ns1.example.com',
    });

    const both = await app.api.patch(`${DNS}/zones/${id}/`, { nameservers: [ids.ns1, ids.ns2] });
    expect(both.status, both.text).toBe(200);
    expect(await nsRecords(id)).toEqual(['@ ns1.example.com', '@ ns2.example.com']);
    const swapped = await app.api.put(`${DNS}/zones/${id}/`, {
      view: ids.internal,
      name: 'hooks.test',
      nameservers: [ids.ns2],
    });
    expect(swapped.status, swapped.text).toBe(200);
    expect(await nsRecords(id)).toEqual(['@ ns2.example.com']);
    const deleted = await app.api.get(
      `/api/core/object-changes/?changed_object_type=netbox_dns.record&action=delete&request_id=${swapped.headers.get('x-request-id')!}`,
    );
    expect(deleted.body.count).toBe(1);
    expect(deleted.body.results[0].prechange_data.value).toBe('ns1.example.com');
    // A write that leaves the name servers alone leaves the records alone.
    expect((await app.api.patch(`${DNS}/zones/${id}/`, { description: 'same servers' })).status).toBe(200);
    expect(await nsRecords(id)).toEqual(['@ ns2.example.com']);

    // The hook's writes are evented like a client's: a webhook job per created or deleted record.
    const tasks = await app.api.get('/api/core/background-tasks/?object_type=netbox_dns.record&limit=0');
    expect(tasks.status, tasks.text).toBe(200);
    // ns1 created with the zone, ns2 created, ns1 deleted.
    expect(tasks.body.count).toBe(3);
  });

  it('stamps the current time with now()', async () => {
    const zone = await create(`${DNS}/zones/`, { view: ids.internal, name: 'stamp.test' });
    expect(Date.parse(zone.soa_serial_stamped as string)).toBeGreaterThan(Date.now() - 60_000);
    const patched = await app.api.patch(`${DNS}/zones/${zone.id as number}/`, { description: 'again' });
    expect(patched.body.soa_serial_stamped > (zone.soa_serial_stamped as string)).toBe(true);
  });

  it('updates every rack of a rack type when the rack type changes (NetBox RackType.save())', async () => {
    const site = await create('/api/dcim/sites/', { name: 'Lang site', slug: 'lang-site' });
    const maker = await create('/api/dcim/manufacturers/', { name: 'Lang maker', slug: 'lang-maker' });
    const type = await create('/api/dcim/rack-types/', {
      manufacturer: maker.id,
      model: 'R42',
      slug: 'r42',
      form_factor: '4-post-cabinet',
      u_height: 42,
    });
    const racks = await Promise.all(
      ['r1', 'r2'].map((name) => create('/api/dcim/racks/', { name, site: site.id, rack_type: type.id })),
    );
    expect(racks.map((r) => r.u_height)).toEqual([42, 42]);
    const patched = await app.api.patch(`/api/dcim/rack-types/${type.id as number}/`, { u_height: 48 });
    expect(patched.status, patched.text).toBe(200);
    const listed = await app.api.get(`/api/dcim/racks/?rack_type_id=${type.id as number}&ordering=name`);
    expect(listed.body.results.map((r: { u_height: number }) => r.u_height)).toEqual([48, 48]);
    const changes = await app.api.get(`/api/core/object-changes/?changed_object_type=dcim.rack&action=update`);
    expect(changes.body.count).toBe(2);
  });

  it('moves the devices of a rack with the rack, without checking them again (NetBox handle_rack_site_change)', async () => {
    const [a, b] = await Promise.all(
      ['a', 'b'].map((x) => create('/api/dcim/sites/', { name: `Move ${x}`, slug: `move-${x}` })),
    );
    const location = await create('/api/dcim/locations/', { name: 'Hall', slug: 'hall', site: b!.id });
    const maker = await create('/api/dcim/manufacturers/', { name: 'Move maker', slug: 'move-maker' });
    const type = await create('/api/dcim/device-types/', { manufacturer: maker.id, model: 'Box', slug: 'box' });
    const role = await create('/api/dcim/device-roles/', { name: 'Move role', slug: 'move-role' });
    const rack = await create('/api/dcim/racks/', { name: 'mover', site: a!.id });
    const device = await create('/api/dcim/devices/', {
      name: 'moved',
      device_type: type.id,
      role: role.id,
      site: a!.id,
      rack: rack.id,
    });
    const moved = await app.api.patch(`/api/dcim/racks/${rack.id as number}/`, { site: b!.id, location: location.id });
    expect(moved.status, moved.text).toBe(200);
    const after = await app.api.get(`/api/dcim/devices/${device.id as number}/`);
    expect([after.body.site.id, after.body.location.id]).toEqual([b!.id, location.id]);
  });
});
