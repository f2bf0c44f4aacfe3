import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import type { ApiClient, ApiResponse } from '../support/client.js';

const names = (response: ApiResponse): string[] =>
  (response.body.results as { name: string }[]).map((object) => object.name);

/**
 * Saved filters applied to any list (`filter`, `filter_id`), the shared-object visibility of saved filters and
 * table configs, export templates (`?export=<name>` over the filtered list, `?export` as CSV) and the checks at
 * save of export templates, custom links and table configs.
 */
describe.each(DIALECTS)('saved filters and export templates on %s', (dialect) => {
  let app: TestApp;
  let alice: { id: number; client: ApiClient };
  let bob: { id: number; client: ApiClient };

  const create = async (client: ApiClient, path: string, body: unknown): Promise<any> => {
    const response = await client.post(path, body);
    expect(response.status, response.text).toBe(201);
    return response.body;
  };
  const account = async (username: string): Promise<{ id: number; client: ApiClient }> => {
    const user = await create(app.api, '/api/users/users/', { username, password: 'Strong-Password-1' });
    const token = await create(app.api, '/api/users/tokens/', { user: user.id });
    await create(app.api, '/api/users/permissions/', {
      name: `${username} views`,
      object_types: ['dcim.site', 'extras.savedfilter', 'extras.tableconfig', 'extras.exporttemplate'],
      actions: ['view', 'add', 'change'],
      users: [user.id],
    });
    return { id: user.id, client: app.api.as(`Bearer svc_${token.key}.${token.token}`) };
  };

  beforeAll(async () => {
    app = await startTestApp(dialect, { settings: { CACHE_SECONDS: 0 } });
    alice = await account('alice');
    bob = await account('bob');
    await create(app.api, '/api/dcim/sites/', [
      { name: 'Site 1', slug: 'site-1', status: 'active', facility: 'a,"b"' },
      { name: 'Site 2', slug: 'site-2', status: 'planned' },
      { name: 'Site 3', slug: 'site-3', status: 'retired' },
    ]);
    await create(app.api, '/api/extras/saved-filters/', {
      name: 'Active',
      slug: 'active',
      object_types: ['dcim.site'],
      parameters: { status: ['active'] },
    });
    await create(alice.client, '/api/extras/saved-filters/', {
      name: 'Alice planned',
      slug: 'alice-planned',
      object_types: ['dcim.site'],
      shared: false,
      parameters: { status: 'planned' },
    });
  });
  afterAll(() => app?.close());

  it('applies a saved filter by slug or id, adding to the request’s own values', async () => {
    expect(names(await app.api.get('/api/dcim/sites/?filter=active'))).toEqual(['Site 1']);
    const saved = await app.api.get('/api/extras/saved-filters/?slug=active');
    const id = saved.body.results[0].id as number;
    expect(names(await app.api.get(`/api/dcim/sites/?filter_id=${id}`))).toEqual(['Site 1']);
    expect(names(await app.api.get(`/api/dcim/sites/?filter_id=${id}&status=retired`))).toEqual(['Site 1', 'Site 3']);
    // Not an integer, or no such filter: ignored, as NetBox does.
    expect((await app.api.get('/api/dcim/sites/?filter_id=abc')).body.count).toBe(3);
    expect((await app.api.get('/api/dcim/sites/?filter=nothing')).body.count).toBe(3);
  });

  it('applies a private saved filter for its owner only, and hides it from others', async () => {
    expect(names(await alice.client.get('/api/dcim/sites/?filter=alice-planned'))).toEqual(['Site 2']);
    expect((await bob.client.get('/api/dcim/sites/?filter=alice-planned')).body.count).toBe(3);
    expect(names(await bob.client.get('/api/extras/saved-filters/'))).toEqual(['Active']);
    expect(names(await alice.client.get('/api/extras/saved-filters/'))).toEqual(['Active', 'Alice planned']);
    const own = (await alice.client.get('/api/extras/saved-filters/?slug=alice-planned')).body.results[0];
    expect(own.user).toBe(alice.id);
    expect((await bob.client.get(`/api/extras/saved-filters/${own.id}/`)).status).toBe(404);
    expect((await bob.client.patch(`/api/extras/saved-filters/${own.id}/`, { weight: 5 })).status).toBe(404);
    expect(names(await bob.client.get('/api/extras/saved-filters/?usable=true'))).toEqual(['Active']);
    // Another user's private filter is not listed at all (NetBox restricts the list to shared objects first).
    expect(names(await bob.client.get('/api/extras/saved-filters/?usable=false'))).toEqual([]);
    expect(names(await app.api.get('/api/extras/saved-filters/?usable=false'))).toEqual(['Alice planned']);
    expect(names(await alice.client.get('/api/extras/saved-filters/?usable=false'))).toEqual([]);
  });

  it('refuses saved filter parameters that are not an object', async () => {
    const response = await app.api.post('/api/extras/saved-filters/', {
      name: 'Bad',
      slug: 'bad',
      object_types: ['dcim.site'],
      parameters: ['status'],
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      parameters: ['Filter parameters must be stored as a dictionary of keyword arguments.'],
    });
  });

  it('renders an export template over the filtered list with its headers', async () => {
    await create(app.api, '/api/extras/export-templates/', {
      name: 'Names',
      object_types: ['dcim.site'],
      template_code: 'name,status\n{{#each queryset}}\n{{name}},{{status.label}}\n{{/each}}\n',
      mime_type: 'text/csv',
      file_name: 'sites',
      file_extension: 'csv',
    });
    const all = await app.api.get('/api/dcim/sites/?export=Names');
    expect(all.status).toBe(200);
    expect(all.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(all.headers.get('content-disposition')).toBe('attachment; filename="sites.csv"');
    expect(all.text).toBe('name,status\nSite 1,Active\nSite 2,Planned\nSite 3,Retired\n');
    const filtered = await app.api.get('/api/dcim/sites/?export=Names&status=planned&filter=active');
    expect(filtered.text).toBe('name,status\nSite 1,Active\nSite 2,Planned\n');
    expect((await app.api.get('/api/dcim/sites/?export=Nothing')).status).toBe(404);
    expect((await app.api.get('/api/dcim/regions/?export=Names')).status).toBe(404);
  });

  it('answers a render error with a 500 without internals, and a template that does not compile with a 400', async () => {
    const bad = await app.api.post('/api/extras/export-templates/', {
      name: 'Broken',
      object_types: ['dcim.site'],
      template_code: 'line one\n{{#each queryset}}\n{{/if}}',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.template_code[0]).toMatch(/line 2/);
    const reserved = await app.api.post('/api/extras/export-templates/', {
      name: 'Table',
      object_types: ['dcim.site'],
      template_code: 'x',
    });
    expect(reserved.body).toEqual({ name: ['"Table" is a reserved name. Please choose a different name.'] });
    await create(app.api, '/api/extras/export-templates/', {
      name: 'Failing',
      object_types: ['dcim.site'],
      template_code: '{{#each queryset}}{{#with}}{{/with}}{{/each}}',
      as_attachment: false,
    });
    const failing = await app.api.get('/api/dcim/sites/?export=Failing');
    expect(failing.status).toBe(500);
    expect(failing.body.detail).toMatch(/^There was an error rendering the selected export template \(Failing\): /);
    expect(failing.text).not.toMatch(/node_modules|at .*\.js/);
  });

  it('exports the list as CSV without a template name', async () => {
    const response = await app.api.get('/api/dcim/sites/?export&fields=id,name,status,facility&status=active');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="netbox_sites.csv"');
    const [site] = (await app.api.get('/api/dcim/sites/?status=active')).body.results;
    expect(response.text).toBe(`ID,Name,Status,Facility\r\n${site.id},Site 1,Active,"a,""b"""\r\n`);
    expect((await app.api.get('/api/dcim/sites/?export=table&brief=1')).text.split('\r\n')[0]).toBe(
      'ID,Name,Slug,Description',
    );
  });

  it('checks custom link templates and table configs when they are saved', async () => {
    const link = await app.api.post('/api/extras/custom-links/', {
      name: 'Bad link',
      object_types: ['dcim.site'],
      link_text: '{{#if name}}x',
      link_url: 'https://example.com/{{name}}',
    });
    expect(link.status).toBe(400);
    expect(Object.keys(link.body)).toEqual(['link_text']);
    const config = await app.api.post('/api/extras/table-configs/', {
      name: 'Sites',
      object_type: 'dcim.site',
      table: 'SiteTable',
      columns: ['name', 'nothing'],
    });
    expect(config.body).toEqual({ columns: ['Unknown column: nothing'] });
    const table = await app.api.post('/api/extras/table-configs/', {
      name: 'Sites',
      object_type: 'dcim.site',
      table: 'RegionTable',
      columns: ['name'],
    });
    expect(table.body).toEqual({ table: ['Unknown table: RegionTable'] });
    const private_ = await create(bob.client, '/api/extras/table-configs/', {
      name: 'Bob sites',
      object_type: 'dcim.site',
      table: 'SiteTable',
      columns: ['name', 'status'],
      ordering: ['-name'],
      shared: false,
    });
    expect((await alice.client.get(`/api/extras/table-configs/${private_.id}/`)).status).toBe(404);
    expect((await bob.client.get(`/api/extras/table-configs/${private_.id}/`)).status).toBe(200);
  });

  it('renders the custom links of an object’s model on its browsable page', async () => {
    await create(app.api, '/api/extras/custom-links/', [
      {
        name: 'Search',
        object_types: ['dcim.site'],
        link_text: 'Find {{object.name}} <b>',
        link_url: 'https://example.com/search?q={{object.name}}&by={{user.username}}',
        new_window: true,
      },
      { name: 'Hidden', object_types: ['dcim.site'], link_text: '{{#if object.tenant}}x{{/if}}', link_url: '/' },
      { name: 'Script', object_types: ['dcim.site'], link_text: 'Run', link_url: 'javascript:alert(1)' },
      { name: 'Other', object_types: ['dcim.region'], link_text: 'Region', link_url: '/' },
    ]);
    const [site] = (await app.api.get('/api/dcim/sites/?slug=site-1')).body.results;
    const page = await app.api.get(`/api/dcim/sites/${site.id}/?format=api`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(
      '<a class="button default" href="https://example.com/search?q=Site%201&amp;by=admin" target="_blank" rel="noopener noreferrer">Find Site 1 &lt;b&gt;</a>',
    );
    expect(page.text).toContain('<a class="button default" href="">Run</a>');
    expect(page.text).not.toContain('>Region<');
    expect(page.text).not.toContain('Hidden');
    // JSON clients see the object as before.
    expect(Object.keys((await app.api.get(`/api/dcim/sites/${site.id}/`)).body)).not.toContain('custom_links');
  });
});
