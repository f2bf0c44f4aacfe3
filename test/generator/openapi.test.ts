import fs from 'node:fs';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/generate.js';
import { loadModelFiles } from '../../generator/load.js';
import { resolveModels } from '../../generator/resolve.js';
import { emitOpenApi } from '../../generator/emit/openapi.js';

const root = path.resolve(import.meta.dirname, '../..');
type Json = Record<string, any>;

/** The document `npm run generate` emits for the repository's models (in memory, no files written). */
async function generateDocument(): Promise<Json> {
  const read = (dir: string, prefix: string) =>
    fs
      .readdirSync(path.join(root, dir))
      .filter((f) => /\.(ya?ml|json)$/.test(f))
      .sort()
      .map((f) => ({ path: `${prefix}/${f}`, text: fs.readFileSync(path.join(root, dir, f), 'utf8') }));
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  const result = await generate({
    models: read('models', 'models'),
    migrations: read('generated/migrations', 'migrations'),
    version: pkg.version,
    registryTemplate: fs.readFileSync(path.join(root, 'templates', 'registry.ts.hbs'), 'utf8'),
  });
  expect(result.errors).toEqual([]);
  return JSON.parse(result.files.get('openapi.json')!) as Json;
}

/** Ajv (JSON Schema 2020-12, strict) holding the document, so `openapi.json#/…` pointers compile. */
function ajvFor(document: Json): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });
  addFormats.default(ajv);
  for (const key of Object.keys(document)) if (!['$id'].includes(key)) ajv.addKeyword(key);
  ajv.addSchema({ ...document, $id: 'openapi.json' });
  return ajv;
}

const pointer = (...parts: string[]): string =>
  `openapi.json#/${parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')}`;

describe('OpenAPI document of the repository models', () => {
  let doc: Json;
  let ajv: Ajv2020;
  const check = (schema: string, value: unknown): string | null => {
    const validate = ajv.getSchema(pointer('components', 'schemas', schema))!;
    return validate(value) ? null : ajv.errorsText(validate.errors);
  };

  beforeAll(async () => {
    doc = await generateDocument();
    ajv = ajvFor(doc);
  });

  it('is a valid OpenAPI 3.1 document whose references all resolve', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc)); // it resolves references in place
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  it('compiles every component schema and every operation schema with ajv (2020-12, strict)', () => {
    for (const name of Object.keys(doc.components.schemas)) {
      expect(ajv.getSchema(pointer('components', 'schemas', name)), name).toBeTypeOf('function');
    }
    for (const [template, item] of Object.entries<Json>(doc.paths)) {
      for (const [method, operation] of Object.entries<Json>(item)) {
        if (method === 'parameters') continue;
        for (const [status, response] of Object.entries<Json>(operation.responses)) {
          for (const mediaType of Object.keys(response.content ?? {})) {
            const at = pointer('paths', template, method, 'responses', status, 'content', mediaType, 'schema');
            expect(ajv.getSchema(at), `${method} ${template} ${status}`).toBeTypeOf('function');
          }
        }
      }
    }
  });

  it('writes every parameter inline with its name, as NetBox does (no $ref parameters)', () => {
    expect(doc.components.parameters).toBeUndefined();
    for (const [template, item] of Object.entries<Json>(doc.paths)) {
      for (const [method, operation] of Object.entries<Json>(item)) {
        const parameters = (method === 'parameters' ? operation : operation.parameters) as Json[] | undefined;
        for (const parameter of parameters ?? []) expect(parameter.name, `${method} ${template}`).toBeTypeOf('string');
      }
    }
  });

  it('declares complete representations in responses, every key required', () => {
    const site = doc.components.schemas.Site;
    expect(doc.paths['/api/dcim/sites/{id}/'].get.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Site',
    });
    expect(doc.components.schemas.PaginatedSiteList.properties.results.items).toEqual({
      $ref: '#/components/schemas/Site',
    });
    expect(site.required).toEqual(Object.keys(site.properties));
    const device = doc.components.schemas.Device;
    // A device's config_context is left out with exclude=config_context.
    expect(device.required).toEqual(Object.keys(device.properties).filter((k) => k !== 'config_context'));
  });

  it('is deterministic and sorted', async () => {
    expect(JSON.stringify(await generateDocument())).toBe(JSON.stringify(doc));
    for (const map of [doc.paths, doc.components.schemas, doc.components.responses]) {
      expect(Object.keys(map)).toEqual(Object.keys(map).sort());
    }
  });

  it('has unique operation ids in NetBox style', () => {
    const ids = Object.values<Json>(doc.paths).flatMap((item) =>
      Object.values<Json>(item)
        .map((op) => op.operationId)
        .filter(Boolean),
    );
    expect(new Set(ids).size).toBe(ids.length);
    const sites = doc.paths['/api/dcim/sites/'];
    const site = doc.paths['/api/dcim/sites/{id}/'];
    expect([sites.get, sites.post, sites.put, sites.patch, sites.delete].map((op: Json) => op.operationId)).toEqual([
      'dcim_sites_list',
      'dcim_sites_create',
      'dcim_sites_bulk_update',
      'dcim_sites_bulk_partial_update',
      'dcim_sites_bulk_destroy',
    ]);
    expect([site.get, site.put, site.patch, site.delete].map((op: Json) => op.operationId)).toEqual([
      'dcim_sites_retrieve',
      'dcim_sites_update',
      'dcim_sites_partial_update',
      'dcim_sites_destroy',
    ]);
    expect(doc.paths['/api/dcim/site-groups/'].get.operationId).toBe('dcim_site_groups_list');
    expect(sites.get.tags).toEqual(['dcim']);
  });

  it('lists every filter and lookup of a model', () => {
    const names = (doc.paths['/api/dcim/sites/'].get.parameters as Json[]).map((p) => p.name);
    for (const name of [
      'limit',
      'offset',
      'start',
      'ordering',
      'fields',
      'omit',
      'brief',
      'q',
      'region',
      'region__n',
      'region_id',
      'name',
      'name__n',
      'name__ic',
      'name__regex',
      'id__gte',
      'tag',
      'tag__n',
      'tenant_group',
      'created__lt',
      'status__n',
      'latitude__gt',
    ]) {
      expect(names, name).toContain(name);
    }
    expect(names).not.toContain('comments'); // text fields are not filtered unless asked
    const region = doc.paths['/api/dcim/sites/'].get.parameters.find((p: Json) => p.name === 'region');
    expect(region).toMatchObject({
      in: 'query',
      style: 'form',
      explode: true,
      schema: { type: 'array', items: { type: 'string' } },
    });
  });

  it('describes choices, FKs, counts and tags exactly', () => {
    const site = doc.components.schemas.Site;
    expect(site.additionalProperties).toBe(false);
    expect(site.required).toEqual(Object.keys(site.properties));
    expect(site.properties.status.oneOf[0].properties.value.enum).toEqual([
      'planned',
      'staging',
      'active',
      'decommissioning',
      'retired',
    ]);
    expect(site.properties.status.oneOf[1]).toEqual({ type: 'null' });
    expect(site.properties.region.oneOf).toEqual([{ $ref: '#/components/schemas/NestedRegion' }, { type: 'null' }]);
    expect(site.properties.tags.items).toEqual({ $ref: '#/components/schemas/NestedTag' });
    expect(site.properties.facility.description).toBe('Local facility ID or description.');
    const nestedRegion = doc.components.schemas.NestedRegion;
    expect(nestedRegion.properties.site_count).toMatchObject({ type: 'integer', minimum: 0 });
    expect(doc.components.schemas.NestedRegionParent.required).toEqual([
      'id',
      'url',
      'display_url',
      'display',
      'name',
      'slug',
      '_depth',
    ]);
    expect(doc.components.schemas.NestedTag.properties).not.toHaveProperty('tagged_items'); // nested: 'omit'
    expect(doc.components.schemas.Token.properties.version).toEqual({ type: 'integer', enum: [1, 2] });
  });

  it('accepts what the runtime renders and rejects anything else', () => {
    const url = (p: string) => `http://localhost:8000/api/dcim/${p}`;
    const region = {
      id: 1,
      url: url('regions/1/'),
      display: 'Europe',
      name: 'Europe',
      slug: 'europe',
      description: '',
      site_count: 0,
      _depth: 0,
    };
    const site = {
      id: 1,
      url: url('sites/1/'),
      display_url: 'http://localhost:8000/dcim/sites/1/',
      display: 'S1',
      name: 'S1',
      slug: 's1',
      status: { value: 'active', label: 'Active' },
      region,
      group: null,
      tenant: null,
      facility: '',
      time_zone: null,
      description: '',
      physical_address: '',
      shipping_address: '',
      latitude: 40.7128,
      longitude: null,
      owner: null,
      comments: '',
      tags: [
        {
          id: 1,
          url: 'http://localhost:8000/api/extras/tags/1/',
          display_url: 'http://localhost:8000/extras/tags/1/',
          display: 'T',
          name: 'T',
          slug: 't',
          color: '9e9e9e',
        },
      ],
      asns: [],
      custom_fields: {},
      created: '2026-01-01T00:00:00.123456Z',
      last_updated: '2026-01-01T00:00:00Z',
      circuit_count: 0,
      device_count: 2,
      prefix_count: 0,
      rack_count: 1,
      virtualmachine_count: 0,
      vlan_count: 0,
    };
    expect(check('Site', site)).toBeNull();
    expect(check('SelectedSite', { id: 1, name: 'S1' })).toBeNull();
    expect(check('SelectedSite', {})).toBeNull();
    expect(
      check('BriefSite', { id: 1, url: url('sites/1/'), display: 'S1', name: 'S1', description: '', slug: 's1' }),
    ).toBeNull();
    expect(check('Site', { ...site, status: null })).toBeNull();
    expect(check('PaginatedSiteList', { count: null, next: null, previous: null, results: [site] })).toBeNull();
    expect(check('PaginatedSiteList', { count: 2, next: null, previous: null, results: [{ id: 2 }] })).toMatch(
      /required/,
    );

    expect(check('Site', { ...site, extra: 1 })).toMatch(/additional properties/);
    expect(check('SelectedSite', { id: 1, extra: 1 })).toMatch(/additional properties/);
    expect(check('Site', { ...site, status: 'active' })).not.toBeNull();
    expect(check('Site', { ...site, status: { value: 'nope', label: '' } })).not.toBeNull();
    expect(check('Site', { ...site, region: 3 })).not.toBeNull();
    const { tenant: _omitted, ...withoutTenant } = site;
    expect(check('Site', withoutTenant)).toMatch(/tenant/);
  });

  it('accepts every error body the runtime produces', () => {
    for (const body of [
      { name: ['This field is required.'] },
      { custom_fields: { foo: "Custom field 'foo' does not exist for this object type." } },
      [{}, { name: ['This field may not be blank.'] }],
      ["'start' and 'offset' are mutually exclusive."],
      { detail: 'JSON parse error - Unexpected token' },
    ]) {
      expect(check('ValidationErrorBody', body), JSON.stringify(body)).toBeNull();
    }
    expect(check('ErrorDetail', { detail: 'Not found.' })).toBeNull();
    const siteDetail = doc.paths['/api/dcim/sites/{id}/'];
    expect(Object.keys(siteDetail.put.responses)).toEqual(
      expect.arrayContaining(['200', '400', '403', '404', '409', '412', '415', 'default']),
    );
  });

  it('describes write bodies with NetBox’s value formats', () => {
    const request = doc.components.schemas.SiteRequest;
    expect(request.required).toEqual(['name', 'slug']);
    expect(request.properties.region.oneOf.map((b: Json) => b.type)).toEqual(['integer', 'object', 'null']);
    expect(request.properties.status).toMatchObject({ type: 'string', enum: expect.arrayContaining(['active']) });
    expect(request.properties.changelog_message.maxLength).toBe(200);
    expect(request.properties.tags.items).toEqual({ $ref: '#/components/schemas/TagReference' });
    expect(doc.components.schemas.PatchedSiteRequest.required).toBeUndefined();
    expect(doc.components.schemas.UserRequest.properties.password.writeOnly).toBe(true);
    // A token's user is set on create only, so PUT has its own schema without it among the required keys.
    expect(doc.components.schemas.TokenRequest.required).toContain('user');
    expect(doc.components.schemas.TokenUpdateRequest.required ?? []).not.toContain('user');
  });

  it('describes the roots, status, schema and token provisioning', () => {
    expect(Object.keys(doc.paths['/api/'].get.responses['200'].content['application/json'].schema.properties)).toEqual([
      'circuits',
      'core',
      'dcim',
      'extras',
      'ipam',
      'plugins',
      'status',
      'tenancy',
      'users',
      'virtualization',
      'vpn',
      'wireless',
    ]);
    expect(doc.paths['/api/schema/'].get.security).toEqual([]);
    const provision = doc.paths['/api/users/tokens/provision/'].post;
    expect(provision.security).toEqual([]);
    const response = doc.components.schemas.ProvisionedToken;
    expect(response.required).toEqual([
      'id',
      'url',
      'display_url',
      'display',
      'version',
      'user',
      'key',
      'created',
      'expires',
      'last_used',
      'enabled',
      'write_enabled',
      'description',
      'allowed_ips',
      'token',
    ]);
    expect(doc.components.schemas.TokenProvisionRequest.required).toEqual(['username', 'password']);
    expect(doc.components.securitySchemes.tokenAuth).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
    });
    expect(doc.security).toEqual([{ tokenAuth: [] }]);
  });
});

describe('OpenAPI emitter on a fixture model', () => {
  const FIXTURE = `
app: demo
models:
  part:
    path: null
    fields:
      name: { type: string, max_length: 50 }
  widget:
    path: widgets
    read_only: true
    fields:
      name: { type: string, max_length: 50 }
      part: { type: fk, to: demo.part, nullable: true }
      size: { type: choice, choices: sizes, raw: true, blank: true }
choices:
  sizes: [[s, Small], [l, Large]]
`;
  const { loaded, errors } = loadModelFiles([{ path: 'models/demo.yaml', text: FIXTURE }]);
  const { graph, errors: resolveErrors } = resolveModels(loaded);
  const doc = emitOpenApi(graph, '1.2.3') as Json;

  it('resolves without errors', () => {
    expect([...errors, ...resolveErrors].map(String)).toEqual([]);
  });

  it('offers only GET (and OPTIONS) on a read-only model', () => {
    expect(Object.keys(doc.paths['/api/demo/widgets/'])).toEqual(['get', 'options']);
    expect(Object.keys(doc.paths['/api/demo/widgets/{id}/'])).toEqual(['parameters', 'get', 'options']);
    expect(doc.components.schemas).not.toHaveProperty('WidgetRequest');
  });

  it('renders URLs of a model without an endpoint as null and raw blank choices with the empty value', () => {
    expect(doc.components.schemas.NestedPart.properties.url).toMatchObject({ type: 'null' });
    expect(doc.components.schemas.Widget.properties.size).toEqual({ type: 'string', enum: ['s', 'l', ''] });
    expect(doc.paths).not.toHaveProperty('/api/demo/parts/');
    expect(doc.info).toMatchObject({ version: '1.2.3' });
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.valid, JSON.stringify(result.errors, null, 2)).toBe(true);
  });
});
