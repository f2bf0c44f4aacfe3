import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import { registry } from '../../generated/index.js';
import { enablePlugins } from '../../runtime/plugins.js';
import { SettingsError } from '../../runtime/config.js';

/**
 * Plugins (models/plugins/<name>/) as NetBox serves them: `/api/plugins/` lists the enabled plugins' roots by
 * base URL, `/api/status/` their versions, and their models are object types like any other. The BGP
 * plugin is the example. The generic suites (conformance, robustness, authorization, query counts) cover
 * its models; this file covers what is particular to plugins.
 */
const BGP_ENDPOINTS = [
  'community',
  'community-list',
  'peer-group',
  'prefix-list',
  'routing-policy',
  'routing-policy-rule',
  'session',
];

/** Core objects a BGP session refers to: a device, two addresses and two ASNs. */
async function createCoreObjects(app: TestApp): Promise<Record<string, number>> {
  const create = async (path: string, body: unknown): Promise<number> => {
    const response = await app.api.post(path, body);
    expect(response.status, response.text).toBe(201);
    return response.body.id as number;
  };
  const site = await create('/api/dcim/sites/', { name: 'BGP site', slug: 'bgp-site' });
  const manufacturer = await create('/api/dcim/manufacturers/', { name: 'BGP maker', slug: 'bgp-maker' });
  const type = await create('/api/dcim/device-types/', { manufacturer, model: 'Router', slug: 'router' });
  const role = await create('/api/dcim/device-roles/', { name: 'Edge', slug: 'edge' });
  const rir = await create('/api/ipam/rirs/', { name: 'RIR', slug: 'rir' });
  return {
    site,
    type,
    role,
    device: await create('/api/dcim/devices/', { name: 'edge1', device_type: type, role, site }),
    local: await create('/api/ipam/ip-addresses/', { address: '192.0.2.1/31' }),
    remote: await create('/api/ipam/ip-addresses/', { address: '192.0.2.0/31' }),
    localAs: await create('/api/ipam/asns/', { asn: 65001, rir }),
    remoteAs: await create('/api/ipam/asns/', { asn: 65002, rir }),
  };
}

/** Every string of every `enum` in an OpenAPI document. */
function enumValues(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(enumValues);
  if (!node || typeof node !== 'object') return [];
  const own = (node as { enum?: unknown }).enum;
  const values = Array.isArray(own) ? own.filter((v): v is string => typeof v === 'string') : [];
  return [...values, ...Object.values(node).flatMap(enumValues)];
}

describe('the PLUGINS setting', () => {
  it('stops start-up on a name that is no generated plugin, naming the setting', () => {
    expect(() => enablePlugins(registry, ['bgp', 'netbox_secrets'])).toThrow(SettingsError);
    expect(() => enablePlugins(registry, ['netbox_secrets'])).toThrow(
      "Invalid setting PLUGINS: unknown plugin 'netbox_secrets' (generated plugins: bgp, netbox_dns)",
    );
  });

  it('leaves a disabled plugin out of the registry, the OpenAPI document and the object types', () => {
    const off = enablePlugins(registry, []);
    expect(Object.keys(off.models).filter((l) => l.startsWith('bgp.'))).toEqual([]);
    expect(Object.keys(off.openapi.paths as object).filter((p) => p.startsWith('/api/plugins/bgp/'))).toEqual([]);
    const tagged = off.models['extras.taggeditem']!.fields.find((f) => f.kind === 'content_type');
    expect(tagged?.kind === 'content_type' && tagged.targets.some((t) => t.startsWith('bgp.'))).toBe(false);
    expect(off.models['dcim.device']!.reverse.some((r) => r.model.startsWith('bgp.'))).toBe(false);
    // Object types in the core schemas' enums (event rules, custom fields, tags, permissions, change records).
    expect(enumValues(registry.openapi)).toContain('bgp.bgpsession');
    expect(enumValues(off.openapi).filter((value) => /^(bgp|netbox_dns)\./.test(value))).toEqual([]);
    const eventTypes = (off.openapi as { components: { schemas: Record<string, any> } }).components.schemas
      .EventRuleRequest.properties.object_types.items.enum as string[];
    expect(eventTypes).toContain('dcim.device');
    expect(enumValues(registry.openapi).filter((value) => value.startsWith('bgp.'))).not.toEqual([]);
    const on = enablePlugins(registry, ['bgp']);
    expect(enumValues(on.openapi)).toContain('bgp.bgpsession');
    expect(enumValues(on.openapi).filter((value) => value.startsWith('netbox_dns.'))).toEqual([]);
    expect(on.migrations.map((m) => m.name)).toContain('plugins/bgp/0001_initial');
    expect(Object.keys(on.openapi.paths as object)).toContain('/api/plugins/bgp/session/{id}/');
  });
});

describe.each(DIALECTS)('the BGP plugin on %s', (dialect) => {
  let app: TestApp;
  let core: Record<string, number>;
  beforeAll(async () => {
    app = await startTestApp(dialect, { settings: { PLUGINS: ['bgp'] } });
    core = await createCoreObjects(app);
  });
  afterAll(async () => app?.close());

  it('lists its API root under /api/plugins/ by base URL, as NetBox does', async () => {
    const root = await app.api.get('/api/');
    expect(root.body.plugins).toBe(`${app.baseUrl}/api/plugins/`);
    expect(Object.keys(root.body)).not.toContain('bgp');
    const plugins = await app.api.get('/api/plugins/');
    expect(plugins.status).toBe(200);
    expect(plugins.body).toEqual({
      'installed-plugins': `${app.baseUrl}/api/plugins/installed-plugins/`,
      bgp: `${app.baseUrl}/api/plugins/bgp/`,
    });
    const bgp = await app.api.get('/api/plugins/bgp/');
    expect(bgp.status).toBe(200);
    expect(bgp.body).toEqual(Object.fromEntries(BGP_ENDPOINTS.map((e) => [e, `${app.baseUrl}/api/plugins/bgp/${e}/`])));
    const installed = await app.api.get('/api/plugins/installed-plugins/');
    expect(installed.body).toEqual([
      {
        name: 'BGP',
        package: 'bgp',
        author: 'Nikolay Yuzefovich',
        author_email: null,
        description: 'Subsystem for tracking bgp related objects',
        version: '0.17.0',
        release_track: '',
      },
    ]);
    expect((await app.anonymous.get('/api/plugins/installed-plugins/')).status).toBe(403);
  });

  it('reports the enabled plugins and their versions in /api/status/', async () => {
    const status = await app.api.get('/api/status/');
    expect(status.body.plugins).toEqual({ bgp: '0.17.0' });
  });

  it('serves sessions with nested core objects, filters by core relations, and counts nothing it was not told to', async () => {
    const policy = await app.api.post('/api/plugins/bgp/routing-policy/', { name: 'EXPORT', description: 'out' });
    expect(policy.status, policy.text).toBe(201);
    const group = await app.api.post('/api/plugins/bgp/peer-group/', {
      name: 'TRANSIT',
      import_policies: [policy.body.id],
    });
    expect(group.status, group.text).toBe(201);
    expect(group.body.import_policies).toEqual([
      {
        id: policy.body.id,
        url: `${app.baseUrl}/api/plugins/bgp/routing-policy/${policy.body.id}/`,
        display: 'EXPORT',
        name: 'EXPORT',
        description: 'out',
      },
    ]);
    const session = await app.api.post('/api/plugins/bgp/session/', {
      name: 'to-transit',
      device: core.device,
      local_address: core.local,
      remote_address: core.remote,
      local_as: core.localAs,
      remote_as: { asn: 65002 },
      peer_group: group.body.id,
      export_policies: [policy.body.id],
    });
    expect(session.status, session.text).toBe(201);
    expect(session.body.url).toBe(`${app.baseUrl}/api/plugins/bgp/session/${session.body.id}/`);
    expect(session.body.status).toEqual({ value: 'active', label: 'Active' });
    expect(session.body.device).toMatchObject({ id: core.device, name: 'edge1' });
    expect(session.body.local_address).toMatchObject({ id: core.local, address: '192.0.2.1/31' });
    expect(session.body.remote_as).toMatchObject({ id: core.remoteAs, asn: 65002 });

    const byDevice = await app.api.get('/api/plugins/bgp/session/?device=edge1&remote_as=65002&brief=true');
    expect(byDevice.status, byDevice.text).toBe(200);
    expect(byDevice.body.results).toEqual([
      {
        id: session.body.id,
        url: session.body.url,
        display: 'to-transit',
        name: 'to-transit',
        description: '',
      },
    ]);
    expect((await app.api.get(`/api/plugins/bgp/session/?device_id=${core.device}`)).body.count).toBe(1);
    expect((await app.api.get('/api/plugins/bgp/session/?local_as=65002')).body.count).toBe(0);
    expect((await app.api.get(`/api/plugins/bgp/session/?peer_group=${group.body.id}`)).body.count).toBe(1);

    // The plugin declares a reverse count on devices.
    const device = await app.api.get(`/api/dcim/devices/${core.device}/`);
    expect(device.body.bgp_session_count).toBe(1);
    expect(Object.keys(device.body).at(-1)).toBe('bgp_session_count');
    const counted = await app.api.get(`/api/dcim/devices/?id=${core.device}&fields=id,bgp_session_count`);
    expect(counted.body.results).toEqual([{ id: core.device, bgp_session_count: 1 }]);

    // A core object a session refers to is protected, as the plugin's on_delete says.
    const deleted = await app.api.delete(`/api/dcim/devices/${core.device}/`);
    expect(deleted.status).toBe(409);
  });

  it("keeps a session's local address on its device (address → interface → device) and filters by addresses", async () => {
    const create = async (path: string, body: unknown): Promise<number> => {
      const response = await app.api.post(path, body);
      expect(response.status, response.text).toBe(201);
      return response.body.id as number;
    };
    const edge2 = await create('/api/dcim/devices/', {
      name: 'edge2',
      device_type: core.type,
      role: core.role,
      site: core.site,
    });
    const eth0 = await create('/api/dcim/interfaces/', { device: edge2, name: 'eth0', type: '1000base-t' });
    const local = await create('/api/ipam/ip-addresses/', {
      address: '198.51.100.1/31',
      assigned_object_type: 'dcim.interface',
      assigned_object_id: eth0,
    });
    const remote = await create('/api/ipam/ip-addresses/', { address: '198.51.100.0/31' });
    const body = { local_address: local, remote_address: remote, local_as: core.localAs, remote_as: core.remoteAs };

    const elsewhere = await app.api.post('/api/plugins/bgp/session/', { ...body, name: 'wrong', device: core.device });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body).toEqual({
      local_address: ['The local address 198.51.100.1/31 is assigned to edge2, not to edge1.'],
    });
    const session = await app.api.post('/api/plugins/bgp/session/', { ...body, name: 'right', device: edge2 });
    expect(session.status, session.text).toBe(201);
    const moved = await app.api.patch(`/api/plugins/bgp/session/${session.body.id}/`, { device: core.device });
    expect(moved.status).toBe(400);
    expect(moved.body.local_address).toHaveLength(1);
    // Without a device the rule has nothing to compare; an unassigned address has no device to differ.
    const bare = await app.api.post('/api/plugins/bgp/session/', { ...body, name: 'bare' });
    expect(bare.status, bare.text).toBe(201);

    // NetBox's address lookup through the relation: with a mask exactly, without it the host with any mask.
    const names = async (query: string): Promise<string[]> => {
      const response = await app.api.get(`/api/plugins/bgp/session/?${query}&ordering=name`);
      expect(response.status, response.text).toBe(200);
      return (response.body.results as { name: string }[]).map((r) => r.name);
    };
    expect(await names('by_local_address=198.51.100.1')).toEqual(['bare', 'right']);
    expect(await names('by_local_address=198.51.100.1/31')).toEqual(['bare', 'right']);
    expect(await names('by_local_address=198.51.100.1/24')).toEqual([]);
    expect(await names('by_remote_address=198.51.100.0&by_local_address=198.51.100.1')).toEqual(['bare', 'right']);
    expect(await names('by_local_address=192.0.2.1&by_local_address=198.51.100.1')).toEqual([
      'bare',
      'right',
      'to-transit',
    ]);
    expect(await names('by_local_address=not-an-ip')).toEqual([]);
  });

  it('makes each model an object type: custom fields, tags, change records and permissions name bgp.<model>', async () => {
    const field = await app.api.post('/api/extras/custom-fields/', {
      name: 'circuit_ref',
      type: 'text',
      object_types: ['bgp.bgpsession', 'bgp.community'],
    });
    expect(field.status, field.text).toBe(201);
    const tag = await app.api.post('/api/extras/tags/', {
      name: 'Peering',
      slug: 'peering',
      object_types: ['bgp.community'],
    });
    expect(tag.status, tag.text).toBe(201);
    const community = await app.api.post('/api/plugins/bgp/community/', {
      value: '65000:100',
      tags: [{ slug: 'peering' }],
      custom_fields: { circuit_ref: 'CID-1' },
    });
    expect(community.status, community.text).toBe(201);
    expect(community.body.tags.map((t: any) => t.slug)).toEqual(['peering']);
    expect(community.body.custom_fields).toEqual({ circuit_ref: 'CID-1' });
    const invalid = await app.api.post('/api/plugins/bgp/community/', { value: 'no-colon' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ value: ['Enter a community as ASN:value, e.g. 65000:100.'] });

    const changes = await app.api.get(
      `/api/core/object-changes/?changed_object_type=bgp.community&changed_object_id=${community.body.id}`,
    );
    expect(changes.body.results.map((c: any) => [c.action.value, c.changed_object_type])).toEqual([
      ['create', 'bgp.community'],
    ]);
    const types = await app.api.get('/api/extras/tags/?for_object_type_id=1');
    expect(types.status).toBe(200);

    const permission = await app.api.post('/api/users/permissions/', {
      name: 'BGP readers',
      object_types: ['bgp.bgpsession'],
      actions: ['view'],
    });
    expect(permission.status, permission.text).toBe(201);
    expect(permission.body.object_types).toEqual(['bgp.bgpsession']);
    const rule = await app.api.post('/api/extras/event-rules/', {
      name: 'BGP session changes',
      object_types: ['bgp.bgpsession'],
      event_types: ['object_created'],
      action_type: 'webhook',
      action_object_type: 'extras.webhook',
      action_object_id: (
        await app.api.post('/api/extras/webhooks/', { name: 'bgp hook', payload_url: 'http://192.0.2.50/' })
      ).body.id,
    });
    expect(rule.status, rule.text).toBe(201);
  });

  it('describes its paths in the OpenAPI document under /api/plugins/bgp/', async () => {
    const document = await app.api.get('/api/schema/?format=json');
    const paths = Object.keys(document.body.paths);
    for (const endpoint of BGP_ENDPOINTS) {
      expect(paths).toContain(`/api/plugins/bgp/${endpoint}/`);
      expect(paths).toContain(`/api/plugins/bgp/${endpoint}/{id}/`);
    }
    expect(document.body.paths['/api/plugins/bgp/session/'].get.operationId).toBe('plugins_bgp_session_list');
    expect(document.body.components.schemas.BGPSession).toBeDefined();
    // The core enums of object types list the enabled plugin's models and not the disabled one's.
    const eventTypes = document.body.components.schemas.EventRuleRequest.properties.object_types.items.enum;
    expect(eventTypes).toEqual(expect.arrayContaining(['bgp.bgpsession', 'dcim.device']));
    expect(enumValues(document.body).filter((value) => value.startsWith('netbox_dns.'))).toEqual([]);
  });
});

describe.each(DIALECTS)('enabling and disabling a plugin on %s', (dialect) => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps.reverse()) await app.close();
  });
  /** A server on the one shared database (the first one creates it, empty, and migrates the core). */
  const serve = async (plugins: string[]): Promise<TestApp> => {
    const app = await startTestApp(dialect, {
      settings: { PLUGINS: plugins },
      ...(apps[0] ? { databaseUrl: apps[0].databaseUrl } : { emptyDatabase: true }),
    });
    apps.push(app);
    return app;
  };
  const applied = async (app: TestApp): Promise<string[]> =>
    ((await app.db.knex('svc_migrations').select('name').orderBy('name')) as { name: string }[])
      .map((r) => r.name)
      .filter((n) => n.startsWith('plugins/'));

  it('migrates a plugin when first enabled, answers 404 while disabled, and keeps its data', async () => {
    const off = await serve([]);
    expect(await applied(off)).toEqual([]);
    expect(await off.db.knex.schema.hasTable('bgp_bgpsession')).toBe(false);
    expect((await off.api.get('/api/plugins/bgp/session/')).status).toBe(404);
    expect((await off.api.get('/api/plugins/bgp/')).status).toBe(404);
    expect((await off.api.get('/api/plugins/')).body).toEqual({
      'installed-plugins': `${off.baseUrl}/api/plugins/installed-plugins/`,
    });
    expect((await off.api.get('/api/status/')).body.plugins).toEqual({});
    const core = await createCoreObjects(off);

    const on = await serve(['bgp']);
    expect(await applied(on)).toEqual(['plugins/bgp/0001_initial']);
    const created = await on.api.post('/api/plugins/bgp/session/', {
      name: 'kept',
      device: core.device,
      local_address: core.local,
      remote_address: core.remote,
      local_as: core.localAs,
      remote_as: core.remoteAs,
    });
    expect(created.status, created.text).toBe(201);
    const path = `/api/plugins/bgp/session/${created.body.id}/`;
    const before = await on.api.get(path);

    const offAgain = await serve([]);
    expect((await offAgain.api.get(path)).status).toBe(404);
    expect((await offAgain.api.get('/api/plugins/bgp/session/')).status).toBe(404);
    expect((await offAgain.api.post('/api/plugins/bgp/session/', {})).status).toBe(404);
    const [{ n }] = (await offAgain.db.knex('bgp_bgpsession').count({ n: '*' })) as [{ n: number | string }];
    expect(Number(n)).toBe(1);

    const device = await offAgain.api.get(`/api/dcim/devices/${core.device}/`);
    expect(device.status).toBe(200);
    expect(device.body).not.toHaveProperty('bgp_session_count');
    expect((await on.api.get(`/api/dcim/devices/${core.device}/`)).body.bgp_session_count).toBe(1);

    const onAgain = await serve(['bgp']);
    expect(await applied(onAgain)).toEqual(['plugins/bgp/0001_initial']);
    const after = await onAgain.api.get(path);
    expect(after.status).toBe(200);
    const unchanged = JSON.stringify(before.body).replaceAll(on.baseUrl, onAgain.baseUrl);
    expect(after.body).toEqual(JSON.parse(unchanged));
  });
});
