import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/**
 * Data sources of the local type synchronised as jobs, config templates and config context profiles that take
 * their text from data files, and the rendering of a device's configuration (render-config/) from a template
 * stored in a local data source.
 */
describe.each(DIALECTS)('config templates and data sources on %s', (dialect) => {
  let app: TestApp;
  let root: string;
  const id: Record<string, number> = {};

  const create = async (url: string, body: unknown): Promise<any> => {
    const response = await app.api.post(url, body);
    expect(response.status, response.text).toBe(201);
    return response.body;
  };
  const write = (relative: string, text: string): void => {
    const file = path.join(root, 'configs', relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  };
  const sync = async (source: number): Promise<any> => {
    const response = await app.api.post(`/api/core/data-sources/${source}/sync/`, {});
    expect(response.status, response.text).toBe(200);
    return response.body;
  };
  const fileId = async (source: number, relative: string): Promise<number> => {
    const response = await app.api.get(
      `/api/core/data-files/?source_id=${source}&path=${encodeURIComponent(relative)}`,
    );
    expect(response.body.count, response.text).toBe(1);
    return response.body.results[0].id as number;
  };

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'netbox-sources-'));
    write(
      'templates/edge.hbs',
      'hostname {{device.name}}\n{{#each ntp}}ntp server {{this}}\n{{/each}}site {{device.site.name}} {{extra}}\n',
    );
    write('contexts/ntp.yaml', 'ntp: [192.0.2.1, 192.0.2.2]\n');
    write('profiles/ntp.json', '{"properties": {"ntp": {"type": "array"}}, "required": ["ntp"]}');
    write('.hidden', 'never read');
    write('notes.tmp', 'ignored');
    app = await startTestApp(dialect, { settings: { DATA_SOURCES_ROOT: root } });
    id.source = (
      await create('/api/core/data-sources/', {
        name: 'Configs',
        type: 'local',
        source_url: 'file:///configs/',
        ignore_rules: '*.tmp',
      })
    ).id;
    const site = await create('/api/dcim/sites/', { name: 'AMS1', slug: 'ams1' });
    const manufacturer = await create('/api/dcim/manufacturers/', { name: 'Juniper', slug: 'juniper' });
    const type = await create('/api/dcim/device-types/', {
      manufacturer: manufacturer.id,
      model: 'MX204',
      slug: 'mx204',
    });
    id.role = (await create('/api/dcim/device-roles/', { name: 'Edge', slug: 'edge' })).id;
    id.device = (
      await create('/api/dcim/devices/', { name: 'edge1', device_type: type.id, role: id.role, site: site.id })
    ).id;
  });

  afterAll(async () => {
    await app?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('synchronises a local folder into data files as a job', async () => {
    const source = await sync(id.source!);
    expect(source.status.value).toBe('completed');
    expect(source.last_synced).not.toBeNull();
    expect(source.file_count).toBe(3);
    const files = await app.api.get(`/api/core/data-files/?source_id=${id.source}&ordering=path`);
    expect(files.body.results.map((f: any) => f.path)).toEqual([
      'contexts/ntp.yaml',
      'profiles/ntp.json',
      'templates/edge.hbs',
    ]);
    const [first] = files.body.results;
    expect(first.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(first.source.id).toBe(id.source);
    const jobs = await app.api.get(`/api/core/jobs/?object_type=core.datasource&object_id=${id.source}`);
    expect(jobs.status, jobs.text).toBe(200);
    const [job] = jobs.body.results;
    expect(job).toMatchObject({
      name: 'Synchronization',
      status: { value: 'completed' },
      object_id: id.source,
      error: '',
    });
    expect(job.object.id).toBe(id.source);
    expect(job.user.username).toBe('admin');
    expect(job.started).not.toBeNull();
    expect(job.completed).not.toBeNull();
    expect(job.log_entries.at(-1).message).toBe('Syncing completed successfully');
  });

  it('refuses other source types, and never leaves DATA_SOURCES_ROOT', async () => {
    const git = await app.api.post('/api/core/data-sources/', {
      name: 'Git',
      type: 'git',
      source_url: 'https://example.com/repo.git',
    });
    expect(git.status).toBe(400);
    expect(git.body.type[0]).toContain('only "local" sources');
    const http = await app.api.post('/api/core/data-sources/', {
      name: 'Web',
      type: 'local',
      source_url: 'https://example.com/',
    });
    expect(http.body).toEqual({
      source_url: ['URLs for local sources must start with file:// (or specify no scheme)'],
    });
    // `..` stops at the root: this names <root>/etc, which does not exist.
    const escape = await create('/api/core/data-sources/', {
      name: 'Escape',
      type: 'local',
      source_url: 'file:///../../../../etc',
    });
    const failed = await sync(escape.id);
    expect(failed.status.value).toBe('failed');
    expect(failed.file_count).toBe(0);
    const jobs = await app.api.get(`/api/core/jobs/?object_id=${escape.id}&object_type=core.datasource`);
    const [job] = jobs.body.results;
    expect(job.status.value).toBe('errored');
    expect(job.error).toBe("The data source's folder does not exist.");
    expect(JSON.stringify(job)).not.toContain(root);
  });

  it("renders a device's config from a template stored in a local data source", async () => {
    await sync(id.source!);
    const template = await create('/api/extras/config-templates/', {
      name: 'Edge',
      template_code: 'placeholder',
      data_file: await fileId(id.source!, 'templates/edge.hbs'),
      auto_sync_enabled: true,
    });
    expect(template.data_source.id).toBe(id.source);
    expect(template.data_path).toBe('templates/edge.hbs');
    expect(template.template_code).toContain('hostname {{device.name}}');
    expect(template.data_synced).not.toBeNull();
    id.template = template.id;
    await create('/api/extras/config-contexts/', {
      name: 'NTP',
      data: { placeholder: true },
      data_file: await fileId(id.source!, 'contexts/ntp.yaml'),
    });
    const url = `/api/dcim/devices/${id.device}/render-config/`;
    const none = await app.api.post(url, {});
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ error: 'No config template found for this device.' });
    // The role's template applies to its devices.
    expect((await app.api.patch(`/api/dcim/device-roles/${id.role}/`, { config_template: template.id })).status).toBe(
      200,
    );
    const rendered = await app.api.post(url, { extra: 'primary' });
    expect(rendered.status, rendered.text).toBe(200);
    expect(rendered.body.configtemplate.id).toBe(template.id);
    expect(rendered.body.content).toBe('hostname edge1\nntp server 192.0.2.1\nntp server 192.0.2.2\nsite AMS1 primary');
    const text = await app.api.post(url, {}, { headers: { Accept: 'text/plain' } });
    expect(text.status).toBe(200);
    expect(text.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(text.text).toMatch(/^hostname edge1\n/);
    const missing = await app.api.post(url, { config_template_id: 999999 });
    expect(missing.body).toEqual({ error: 'Config template with ID 999999 not found.' });
  });

  it('takes a changed file again on sync when auto-sync is on', async () => {
    write('templates/edge.hbs', 'hostname {{device.name}} v2');
    await sync(id.source!);
    const template = await app.api.get(`/api/extras/config-templates/${id.template}/`);
    expect(template.body.template_code).toBe('hostname {{device.name}} v2');
    const rendered = await app.api.post(`/api/dcim/devices/${id.device}/render-config/`, {});
    expect(rendered.body.content).toBe('hostname edge1 v2');
  });

  it('exports a list with an export template stored in a local data source, taken again by its sync/', async () => {
    write('exports/devices.hbs', 'name{{#each queryset}}\n{{name}}{{/each}}');
    await sync(id.source!);
    const template = await create('/api/extras/export-templates/', {
      name: 'Device names',
      object_types: ['dcim.device'],
      template_code: 'placeholder',
      data_file: await fileId(id.source!, 'exports/devices.hbs'),
    });
    expect(template.data_source.id).toBe(id.source);
    expect(template.data_path).toBe('exports/devices.hbs');
    expect(template.data_synced).not.toBeNull();
    expect((await app.api.get(`/api/extras/export-templates/?data_source_id=${id.source}`)).body.count).toBe(1);
    const exported = await app.api.get('/api/dcim/devices/?export=Device+names');
    expect(exported.status, exported.text).toBe(200);
    expect(exported.text).toBe('name\nedge1');

    write('exports/devices.hbs', 'devices{{#each queryset}} {{name}}{{/each}}');
    await sync(id.source!);
    const again = await app.api.post(`/api/extras/export-templates/${template.id}/sync/`, {});
    expect(again.status, again.text).toBe(200);
    expect(again.body.template_code).toBe('devices{{#each queryset}} {{name}}{{/each}}');
    expect((await app.api.get('/api/dcim/devices/?export=Device+names')).text).toBe('devices edge1');
  });

  it('checks templates when they are saved and reports render errors without internals', async () => {
    const broken = await app.api.post('/api/extras/config-templates/', {
      name: 'Broken',
      template_code: 'a\n{{#if x}}\nb',
    });
    expect(broken.status).toBe(400);
    expect(broken.body.template_code[0]).toMatch(/^Template error: Parse error on line 3/);
    const helper = await app.api.post('/api/extras/config-templates/', {
      name: 'Helper',
      template_code: '{{exec "ls"}}',
    });
    expect(helper.body.template_code[0]).toContain("Unknown helper 'exec'");
    const params = await app.api.post('/api/extras/config-templates/', {
      name: 'Params',
      template_code: 'x',
      environment_params: { extensions: ['x'] },
    });
    expect(params.body).toEqual({
      environment_params: ['"extensions" is not a permitted Jinja2 environment parameter.'],
    });
    const strict = await create('/api/extras/config-templates/', {
      name: 'Strict',
      template_code: 'Foo: {{foo}}\n',
      environment_params: { undefined: 'jinja2.StrictUndefined' },
    });
    const ok = await app.api.post(`/api/extras/config-templates/${strict.id}/render/`, { foo: 'bar' });
    expect(ok.body).toMatchObject({ configtemplate: { id: strict.id, name: 'Strict' }, content: 'Foo: bar' });
    const failed = await app.api.post(`/api/extras/config-templates/${strict.id}/render/`, {});
    expect(failed.status).toBe(400);
    expect(failed.body.detail).toMatch(/^TemplateError: "foo" not defined/);
    expect(failed.text).not.toMatch(/node_modules|\/work\/|at [A-Za-z.]+ \(/);
  });

  it('stops a render that runs too long or grows too large', async () => {
    const loops = await create('/api/extras/config-templates/', {
      name: 'Loops',
      template_code:
        '{{#each a}}{{#each ../a}}{{#each ../../a}}{{#each ../../../a}}xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx{{/each}}{{/each}}{{/each}}{{/each}}',
    });
    const a = Array.from({ length: 200 }, (_, i) => i);
    const response = await app.api.post(`/api/extras/config-templates/${loops.id}/render/`, { a });
    expect(response.status).toBe(400);
    expect(response.body.detail).toMatch(
      /^TemplateLimitError: (The rendered text is longer than|Rendering took longer than)/,
    );
  });

  it('validates config context data against its profile', async () => {
    const profile = await create('/api/extras/config-context-profiles/', {
      name: 'NTP',
      schema: { type: 'null' },
      data_file: await fileId(id.source!, 'profiles/ntp.json'),
    });
    expect(profile.schema.required).toEqual(['ntp']);
    const bad = await app.api.post('/api/extras/config-contexts/', {
      name: 'No NTP',
      profile: profile.id,
      data: { dns: [] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.__all__[0]).toMatch(/^Data does not conform to profile schema: /);
    await create('/api/extras/config-contexts/', { name: 'With NTP', profile: profile.id, data: { ntp: [] } });
    const invalid = await app.api.post('/api/extras/config-context-profiles/', { name: 'Bad', schema: { type: 12 } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.schema[0]).toMatch(/^Invalid JSON schema definition/);
  });
});
