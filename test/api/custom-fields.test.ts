import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import { nextSeq } from '../support/fixtures.js';

/**
 * Custom fields: definitions (with NetBox's coherence rules), values read and written through
 * `custom_fields` on the models that have the feature, `cf_<name>` filters, OPTIONS, and stored data
 * following definition changes.
 */
describe.each(DIALECTS)('custom fields on %s', (dialect) => {
  let app: TestApp;
  let choiceSet: number;
  const sites = '/api/dcim/sites/';
  const fields = '/api/extras/custom-fields/';

  const field = async (body: Record<string, unknown>): Promise<Record<string, any>> => {
    const response = await app.api.post(fields, { object_types: ['dcim.site'], ...body });
    expect(response.status, response.text).toBe(201);
    return response.body;
  };
  const site = async (custom_fields?: Record<string, unknown>, status = 201): Promise<Record<string, any>> => {
    const seq = nextSeq();
    const response = await app.api.post(sites, {
      name: `CF site ${seq}`,
      slug: `cf-site-${seq}`,
      ...(custom_fields ? { custom_fields } : {}),
    });
    expect(response.status, response.text).toBe(status);
    return response.body;
  };

  beforeAll(async () => {
    app = await startTestApp(dialect, { settings: { STRICT_FILTERING: true } });
    const set = await app.api.post('/api/extras/custom-field-choice-sets/', {
      name: 'Tiers',
      extra_choices: [
        ['gold', 'Gold'],
        ['silver', 'Silver'],
        ['bronze', 'Bronze'],
      ],
    });
    expect(set.status, set.text).toBe(201);
    expect(set.body.choices_count).toBe(3);
    choiceSet = set.body.id;
    await field({ name: 'asset_code', type: 'text', validation_regex: '^[A-Z]{3}-\\d+$' });
    await field({ name: 'rack_units', type: 'integer', validation_minimum: 1, validation_maximum: 48, default: 42 });
    await field({ name: 'power_kw', type: 'decimal' });
    await field({ name: 'is_core', type: 'boolean', default: false });
    await field({ name: 'opened', type: 'date' });
    await field({ name: 'audited_at', type: 'datetime' });
    await field({ name: 'portal', type: 'url' });
    await field({ name: 'extra', type: 'json' });
    await field({ name: 'tier', type: 'select', choice_set: choiceSet });
    await field({ name: 'tiers', type: 'multiselect', choice_set: choiceSet });
    await field({ name: 'owner_tenant', type: 'object', related_object_type: 'tenancy.tenant' });
    await field({ name: 'peers', type: 'multiobject', related_object_type: 'dcim.site' });
    await field({ name: 'notes', type: 'longtext', label: 'Site notes' });
  });
  afterAll(async () => app?.close());

  it('renders every field of the model, with defaults on create', async () => {
    const created = await site();
    expect(created.custom_fields).toEqual({
      is_core: false,
      rack_units: 42,
      asset_code: null,
      power_kw: null,
      opened: null,
      audited_at: null,
      portal: null,
      extra: null,
      tier: null,
      tiers: null,
      owner_tenant: null,
      peers: null,
      notes: null,
    });
    // Models that the fields are not assigned to do not show them.
    const tenant = await app.api.post('/api/tenancy/tenants/', { name: `T ${nextSeq()}`, slug: `t-${nextSeq()}` });
    expect(tenant.body.custom_fields).toEqual({});
  });

  it('accepts a value of every type and reads it back', async () => {
    const tenant = await app.api.post('/api/tenancy/tenants/', {
      name: `Owner ${nextSeq()}`,
      slug: `owner-${nextSeq()}`,
    });
    const peer = await site();
    const values = {
      asset_code: 'ABC-12',
      rack_units: 10,
      power_kw: 3.5,
      is_core: true,
      opened: '2026-03-01',
      audited_at: '2026-03-01T10:20:30Z',
      portal: 'https://portal.example.com/a',
      extra: { racks: [1, 2], note: 'x' },
      tier: 'gold',
      tiers: ['silver', 'bronze'],
      owner_tenant: tenant.body.id,
      peers: [peer.id],
      notes: 'long\ntext',
    };
    const created = await site(values);
    const read = (await app.api.get(`${sites}${created.id}/`)).body;
    expect(read.custom_fields).toMatchObject({
      ...values,
      owner_tenant: { id: tenant.body.id },
      peers: [{ id: peer.id }],
    });
    expect(read.custom_fields.owner_tenant).toMatchObject({
      url: expect.stringContaining(`/api/tenancy/tenants/${tenant.body.id}/`),
      display: tenant.body.name,
    });
    expect(read.custom_fields.peers[0].display).toBe(peer.name);
    // Object values may also be given by attributes.
    const byAttrs = await site({ owner_tenant: { slug: tenant.body.slug } });
    expect(byAttrs.custom_fields.owner_tenant.id).toBe(tenant.body.id);
  });

  it('merges a PATCH into the stored values and leaves others untouched', async () => {
    const created = await site({ asset_code: 'XYZ-1', tier: 'gold' });
    const patched = await app.api.patch(`${sites}${created.id}/`, { custom_fields: { tier: 'silver' } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.custom_fields).toMatchObject({ asset_code: 'XYZ-1', tier: 'silver', rack_units: 42 });
    const cleared = await app.api.patch(`${sites}${created.id}/`, { custom_fields: { asset_code: null } });
    expect(cleared.body.custom_fields).toMatchObject({ asset_code: null, tier: 'silver' });
    // A PATCH without custom_fields keeps them.
    const other = await app.api.patch(`${sites}${created.id}/`, { description: 'x' });
    expect(other.body.custom_fields.tier).toBe('silver');
  });

  it.each([
    ['asset_code', 42, 'Value must be a string.'],
    ['asset_code', 'abc', "Values must match this regex: '^[A-Z]{3}-\\d+$'"],
    ['rack_units', 'ten', 'Value must be an integer.'],
    ['rack_units', 1.5, 'Value must be an integer.'],
    ['rack_units', 0, 'Value must be at least 1'],
    ['rack_units', 49, 'Value must not exceed 48'],
    ['power_kw', 'lots', 'Value must be a decimal.'],
    ['is_core', 'yes', 'Value must be true or false.'],
    ['opened', '01/03/2026', 'Date values must be in ISO 8601 format (YYYY-MM-DD).'],
    ['audited_at', 'yesterday', 'Date and time values must be in ISO 8601 format (YYYY-MM-DD HH:MM:SS).'],
    ['portal', 'not a url', 'Enter a valid URL.'],
    ['tier', 'platinum', 'Invalid choice (platinum). Available choices are: gold, silver, bronze'],
    ['tiers', ['gold', 'lead'], 'Invalid choice(s) (lead). Available choices are: gold, silver, bronze'],
    ['tiers', 'gold', 'Value must be a list of choices.'],
    ['owner_tenant', 999999, 'Related object not found using the provided numeric ID: 999999'],
    ['peers', 5, 'Value must be a list of object IDs.'],
  ])('rejects %s = %j with 400 naming the field', async (name, value, reason) => {
    const before = (await app.api.get(`${sites}?limit=1`)).body.count;
    const response = await app.api.post(sites, {
      name: `Bad ${nextSeq()}`,
      slug: `bad-${nextSeq()}`,
      custom_fields: { [name]: value },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      custom_fields: { [name]: [`Invalid value for custom field '${name}': ${reason}`] },
    });
    expect((await app.api.get(`${sites}?limit=1`)).body.count).toBe(before);
  });

  it('rejects unknown fields and non-objects', async () => {
    const unknown = await app.api.post(sites, { name: 'U', slug: 'u', custom_fields: { nope: 1 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({
      custom_fields: { nope: "Custom field 'nope' does not exist for this object type." },
    });
    const list = await app.api.post(sites, { name: 'U', slug: 'u', custom_fields: [1] });
    expect(list.status).toBe(400);
    expect(list.body).toEqual({
      custom_fields: [
        'Invalid data format. Custom field data must be passed as a dictionary mapping field names to their values.',
      ],
    });
  });

  it('enforces required and unique fields, all or none in bulk', async () => {
    const tenants = '/api/tenancy/tenants/';
    const required = await app.api.post(fields, {
      object_types: ['tenancy.tenant'],
      name: 'cost_center',
      type: 'text',
      required: true,
      unique: true,
    });
    expect(required.status, required.text).toBe(201);
    const missing = await app.api.post(tenants, { name: 'No CC', slug: 'no-cc' });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ custom_fields: { cost_center: ["Missing required custom field 'cost_center'."] } });
    const first = await app.api.post(tenants, { name: 'CC 1', slug: 'cc-1', custom_fields: { cost_center: 'A1' } });
    expect(first.status, first.text).toBe(201);
    const bulk = await app.api.post(tenants, [
      { name: 'CC 2', slug: 'cc-2', custom_fields: { cost_center: 'B2' } },
      { name: 'CC 3', slug: 'cc-3', custom_fields: { cost_center: 'A1' } },
    ]);
    expect(bulk.status).toBe(400);
    expect(bulk.body[1]).toEqual({
      custom_fields: { cost_center: ["Custom field 'cost_center' must have a unique value."] },
    });
    expect((await app.api.get(`${tenants}?slug=cc-2`)).body.count).toBe(0);
    // Updating an object keeps its own value.
    const same = await app.api.patch(`${tenants}${first.body.id}/`, { custom_fields: { cost_center: 'A1' } });
    expect(same.status, same.text).toBe(200);
    await app.api.delete(`${tenants}${first.body.id}/`);
    await app.api.delete(`${fields}${required.body.id}/`);
  });

  it('filters with cf_<name> and lookups', async () => {
    const tag = `f${nextSeq()}`;
    const a = await site({
      asset_code: `TAG-1${tag.slice(1)}`,
      rack_units: 5,
      is_core: true,
      tier: 'gold',
      tiers: ['gold', 'silver'],
      opened: '2026-01-10',
    });
    const b = await site({
      asset_code: `TAG-2${tag.slice(1)}`,
      rack_units: 20,
      is_core: false,
      tier: 'silver',
      tiers: ['bronze'],
      peers: [a.id],
    });
    const ids = async (query: string): Promise<number[]> => {
      const response = await app.api.get(`${sites}?${query}&id=${a.id}&id=${b.id}`);
      expect(response.status, response.text).toBe(200);
      return (response.body.results as { id: number }[]).map((r) => r.id).sort((x, y) => x - y);
    };
    expect(await ids('cf_rack_units=5')).toEqual([a.id]);
    expect(await ids('cf_rack_units__gte=10')).toEqual([b.id]);
    expect(await ids('cf_rack_units__lt=10')).toEqual([a.id]);
    expect(await ids('cf_rack_units__n=5')).toEqual([b.id]);
    expect(await ids('cf_is_core=true')).toEqual([a.id]);
    expect(await ids('cf_is_core=false')).toEqual([b.id]);
    expect(await ids('cf_tier=gold&cf_tier=silver')).toEqual([a.id, b.id]);
    expect(await ids('cf_tier=silver')).toEqual([b.id]);
    expect(await ids('cf_tiers=silver')).toEqual([a.id]);
    expect(await ids(`cf_asset_code=${tag.slice(1)}`)).toEqual([a.id, b.id]); // loose: contains
    expect(await ids(`cf_asset_code__isw=TAG-2`)).toEqual([b.id]);
    expect(await ids(`cf_asset_code__ie=tag-1${tag.slice(1)}`)).toEqual([a.id]);
    expect(await ids('cf_opened=2026-01-10')).toEqual([a.id]);
    expect(await ids('cf_opened__empty=true')).toEqual([b.id]);
    expect(await ids(`cf_peers=${a.id}`)).toEqual([b.id]);
    expect(await ids('cf_tier=null')).toEqual([]);
    // Unknown custom fields and lookups are unknown parameters (STRICT_FILTERING); bad values are 400s.
    const unknown = await app.api.get(`${sites}?cf_nothing=1&cf_rack_units__ic=5`);
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body).sort()).toEqual(['cf_nothing', 'cf_rack_units__ic']);
    const bad = await app.api.get(`${sites}?cf_rack_units=many`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ cf_rack_units: ['Enter a number.'] });
    const badFlag = await app.api.get(`${sites}?cf_is_core=maybe`);
    expect(badFlag.status).toBe(400);
  });

  it('exact filter logic matches whole values; disabled fields do not filter', async () => {
    const exact = await field({ name: `code_${nextSeq()}`, type: 'text', filter_logic: 'exact' });
    const off = await field({ name: `hidden_${nextSeq()}`, type: 'text', filter_logic: 'disabled' });
    const s = await site({ [exact.name]: 'ABCDEF', [off.name]: 'v' });
    const count = async (query: string): Promise<number> =>
      (await app.api.get(`${sites}?${query}&id=${s.id}`)).body.count as number;
    expect(await count(`cf_${exact.name}=BCD`)).toBe(0);
    expect(await count(`cf_${exact.name}=ABCDEF`)).toBe(1);
    // A field whose filtering is disabled has no filter (STRICT_FILTERING answers 400).
    expect((await app.api.get(`${sites}?cf_${off.name}=nothing`)).status).toBe(400);
    await app.api.delete(`${fields}${exact.id}/`);
    await app.api.delete(`${fields}${off.id}/`);
  });

  it('keeps stored data in step with definition changes', async () => {
    const existing = await site();
    const name = `later_${nextSeq()}`;
    const added = await field({ name, type: 'integer', default: 7 });
    expect((await app.api.get(`${sites}${existing.id}/`)).body.custom_fields[name]).toBe(7);
    expect((await app.api.get(`${sites}?cf_${name}=7&id=${existing.id}`)).body.count).toBe(1);
    const renamed = await app.api.patch(`${fields}${added.id}/`, { name: `${name}_x` });
    expect(renamed.status, renamed.text).toBe(200);
    const after = (await app.api.get(`${sites}${existing.id}/`)).body.custom_fields;
    expect(after[`${name}_x`]).toBe(7);
    expect(after).not.toHaveProperty(name);
    const moved = await app.api.patch(`${fields}${added.id}/`, { object_types: ['tenancy.tenant'] });
    expect(moved.status, moved.text).toBe(200);
    expect((await app.api.get(`${sites}${existing.id}/`)).body.custom_fields).not.toHaveProperty(`${name}_x`);
    expect((await app.api.delete(`${fields}${added.id}/`)).status).toBe(204);
  });

  it('describes a definition: data type, display, brief, filters', async () => {
    const list = await app.api.get(`${fields}?name=notes`);
    const notes = list.body.results[0];
    expect(notes).toMatchObject({
      display: 'Site notes',
      data_type: 'string',
      type: { value: 'longtext', label: 'Text (long)' },
    });
    const peers = (await app.api.get(`${fields}?name=peers`)).body.results[0];
    expect(peers).toMatchObject({ display: 'Peers', data_type: 'array', related_object_type: 'dcim.site' });
    const tier = (await app.api.get(`${fields}?name=tier&brief=1`)).body.results[0];
    expect(Object.keys(tier)).toEqual(['id', 'url', 'display', 'name', 'description']);
    const full = (await app.api.get(`${fields}${tier.id}/`)).body;
    expect(full.choice_set).toMatchObject({ id: choiceSet, name: 'Tiers', choices_count: 3 });
    expect((await app.api.get(`${fields}?object_type=dcim.site&limit=100`)).body.count).toBeGreaterThanOrEqual(13);
    expect((await app.api.get(`${fields}?object_type=virtualization.cluster`)).body.count).toBe(0);
    expect((await app.api.get(`${fields}?type=select&type=multiselect`)).body.count).toBe(2);
    expect((await app.api.get(`${fields}?choice_set=Tiers`)).body.count).toBe(2);
  });

  it.each([
    [{ name: 'bad name', type: 'text' }, { name: ['Only alphanumeric characters and underscores are allowed.'] }],
    [{ name: 'a__b', type: 'text' }, { name: ['Double underscores are not permitted in custom field names.'] }],
    [
      { name: 'flag_u', type: 'boolean', unique: true },
      { unique: ['Uniqueness cannot be enforced for boolean fields'] },
    ],
    [
      { name: 'min_t', type: 'text', validation_minimum: 1 },
      { validation_minimum: ['A minimum value may be set only for numeric fields'] },
    ],
    [
      { name: 'rx_i', type: 'integer', validation_regex: '^a' },
      { validation_regex: ['Regular expression validation is supported only for text and URL fields'] },
    ],
    [{ name: 'sel', type: 'select' }, { choice_set: ['Selection fields must specify a set of choices.'] }],
    [{ name: 'obj', type: 'object' }, { related_object_type: ['Object fields must define an object type.'] }],
    [
      { name: 'txt_o', type: 'text', related_object_type: 'dcim.site' },
      { related_object_type: ['Text fields may not define an object type.'] },
    ],
    [
      { name: 'def_i', type: 'integer', default: 'x' },
      { default: ['Invalid default value ""x"": Value must be an integer.'] },
    ],
    [
      { name: 'ot', type: 'text', object_types: ['extras.tag'] },
      { object_types: ['Invalid content type: extras.tag'] },
    ],
  ])('rejects incoherent definition %j', async (body, errors) => {
    const response = await app.api.post(fields, { object_types: ['dcim.site'], ...body });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(errors);
  });

  it('refuses to change a type, and a choice set that fields use cannot be deleted', async () => {
    const tier = (await app.api.get(`${fields}?name=tier`)).body.results[0];
    const changed = await app.api.patch(`${fields}${tier.id}/`, { type: 'text' });
    expect(changed.status).toBe(400);
    expect(changed.body).toEqual({ type: ['Changing the type of custom fields is not supported.'] });
    const removed = await app.api.delete(`/api/extras/custom-field-choice-sets/${choiceSet}/`);
    expect(removed.status).toBe(409);
  });

  it('OPTIONS describes the custom fields of the model', async () => {
    const response = await app.api.options(sites);
    const children = response.body.actions.POST.custom_fields.children;
    expect(children.rack_units).toEqual({ type: 'integer', required: false, read_only: false, label: 'rack_units' });
    expect(children.notes.label).toBe('Site notes');
    expect(children.tier.choices).toEqual([
      { value: 'gold', display_name: 'Gold' },
      { value: 'silver', display_name: 'Silver' },
      { value: 'bronze', display_name: 'Bronze' },
    ]);
  });
});
