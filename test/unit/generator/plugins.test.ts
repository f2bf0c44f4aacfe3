import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../../../generator/generate.js';
import type { PluginSource } from '../../../generator/plugins.js';
import { compareVersions } from '../../../generator/plugins.js';
import { readDomainCatalog } from '../../../generator/domain-catalog.js';

/**
 * Plugins in the generator: a folder with a manifest (`plugin.yaml`) and model files, compiled with the core
 * models into modules under `plugins/<name>/`, migrations of its own, paths under `/api/plugins/<base_url>/`
 * and an entry of the registry's `plugins`; its mistakes reported at its own file and line.
 */

const root = path.resolve(import.meta.dirname, '../../..');
const fixtures = path.join(import.meta.dirname, 'fixtures');
const registryTemplate = fs.readFileSync(path.join(root, 'templates', 'registry.ts.hbs'), 'utf8');
const core = ['catalog.yaml', 'net.yaml'].map((f) => ({
  path: `fixtures/${f}`,
  text: fs.readFileSync(path.join(fixtures, f), 'utf8'),
}));

const MANIFEST = `name: shelf
verbose_name: Shelf
version: 1.2.0
base_url: shelves
description: Where products sit.
min_version: 4.6.0
max_version: 4.6.99
`;

const MODELS = `app: shelf
models:
  shelf:
    path: shelf
    display: name
    features: [tags]
    fields:
      name: { type: string, max_length: 50 }
      vendor: { type: fk, to: catalog.vendor, nullable: true }
  slot:
    path: slot
    fields:
      shelf: { type: fk, to: shelf.shelf }
      position: { type: integer, min_value: 1 }
`;

function plugin(manifest = MANIFEST, models = MODELS, name = 'shelf'): PluginSource {
  return {
    name,
    manifest: { path: `plugins/${name}/plugin.yaml`, text: manifest },
    models: [{ path: `plugins/${name}/models.yaml`, text: models }],
  };
}

async function run(plugins: PluginSource[], models = core) {
  return generate({ models, plugins, migrations: [], version: '4.6.0', registryTemplate });
}

describe('a plugin folder', () => {
  it('compiles with the core models: own modules, own migrations, plugin paths and a registry entry', async () => {
    const result = await run([plugin()]);
    expect(result.errors).toEqual([]);
    const files = [...result.files.keys()];
    expect(files).toContain('plugins/shelf/shelf.ts');
    expect(files).toContain('plugins/shelf/slot.ts');
    expect(files.filter((f) => f.includes('migrations/'))).toEqual([
      'migrations/0001_initial.json',
      'plugins/shelf/migrations/0001_initial.json',
    ]);
    const coreMigration = result.files.get('migrations/0001_initial.json')!;
    expect(coreMigration).not.toContain('shelf_');
    const pluginMigration = JSON.parse(result.files.get('plugins/shelf/migrations/0001_initial.json')!) as {
      ops: { op: string; table: string }[];
    };
    expect(pluginMigration.ops.filter((o) => o.op === 'createTable').map((o) => o.table)).toEqual([
      'shelf_shelf',
      'shelf_slot',
    ]);

    const module = result.files.get('plugins/shelf/shelf.ts')!;
    expect(module).toContain("from '../../../runtime/spec.js'");
    expect(module).toContain("from '../../catalog/vendor.js'");
    expect(module).toContain(".route('/plugins/shelves/shelf/')");
    expect(module).toContain("plugin: { name: 'shelf', baseUrl: 'shelves' }");

    const openapi = JSON.parse(result.files.get('openapi.json')!) as { paths: Record<string, any> };
    expect(openapi.paths['/api/plugins/shelves/shelf/'].get.operationId).toBe('plugins_shelves_shelf_list');
    expect(openapi.paths['/api/plugins/shelves/'].get.operationId).toBe('plugins_shelves_root_retrieve');
    expect(
      Object.keys(openapi.paths['/api/'].get.responses['200'].content['application/json'].schema.properties),
    ).not.toContain('plugins/shelves');
    expect(Object.keys(openapi.paths).filter((p) => p.startsWith('/api/shelf/'))).toEqual([]);

    const registry = result.files.get('index.ts')!;
    expect(registry).toContain("import shelfMigration1 from './plugins/shelf/migrations/0001_initial.json'");
    expect(registry).toMatch(/name: 'shelf',\s+verboseName: 'Shelf',\s+version: '1.2.0',\s+baseUrl: 'shelves'/);
  });

  it('keeps its migrations apart: a change to the plugin adds a plugin migration only', async () => {
    const first = await run([plugin()]);
    const migrations = [...first.files]
      .filter(([p]) => p.includes('migrations/'))
      .map(([p, text]) => ({ path: p, text }));
    const changed = MODELS.replace(
      'position: { type: integer, min_value: 1 }',
      'position: { type: integer }\n      depth: { type: integer, nullable: true }',
    );
    const second = await generate({
      models: core,
      plugins: [plugin(MANIFEST, changed)],
      migrations,
      version: '4.6.0',
      registryTemplate,
    });
    expect(second.errors).toEqual([]);
    expect([...second.files.keys()].filter((f) => f.includes('migrations/'))).toEqual([
      'migrations/0001_initial.json',
      'plugins/shelf/migrations/0001_initial.json',
      'plugins/shelf/migrations/0002_shelf_slot_add_column_depth.json',
    ]);
  });

  it.each([
    [
      'a manifest naming another plugin',
      plugin(MANIFEST.replace('name: shelf', 'name: rack')),
      "plugins/shelf/plugin.yaml:1:1: name: must be the folder's name 'shelf'",
    ],
    [
      'an unknown manifest key',
      plugin(`${MANIFEST}colour: red\n`),
      "plugins/shelf/plugin.yaml:1:1: unknown property 'colour'",
    ],
    [
      'a service version above the range',
      plugin(MANIFEST.replace('max_version: 4.6.99', 'max_version: 4.5.99')),
      'plugins/shelf/plugin.yaml:7:1: max_version: supports up to 4.5.99; this service is 4.6.0',
    ],
    [
      'a core app name',
      plugin(MANIFEST.replace('name: shelf', 'name: catalog'), MODELS, 'catalog'),
      "plugins/catalog/plugin.yaml:1:1: name: 'catalog' is the name of a core app",
    ],
    [
      'no manifest',
      plugin(''),
      'plugins/shelf/plugin.yaml: a plugin folder needs a manifest (plugin.yaml) naming the plugin',
    ],
    [
      'a model file of another app',
      plugin(MANIFEST, MODELS.replace('app: shelf', 'app: other')),
      "plugins/shelf/models.yaml:1:1: app: must be the plugin's name 'shelf'",
    ],
    [
      'an unknown model, at its line',
      plugin(MANIFEST, MODELS.replace('to: catalog.vendor', 'to: catalog.vendr')),
      "plugins/shelf/models.yaml:9:27: models.shelf.fields.vendor.to: unknown model 'catalog.vendr'",
    ],
  ])('reports %s at the plugin file', async (_name, source, message) => {
    const result = await run([source]);
    expect(result.errors).toEqual([message]);
  });

  it('lets a plugin name core models and its own, and nothing else', async () => {
    const other = plugin(
      MANIFEST.replace('name: shelf', 'name: bin').replace('base_url: shelves', 'base_url: bins'),
      `app: bin
models:
  bin:
    path: bin
    fields:
      shelf: { type: fk, to: shelf.shelf }
`,
      'bin',
    );
    const result = await run([plugin(), other]);
    expect(result.errors).toEqual([
      "plugins/bin/models.yaml:6:26: models.bin.fields.shelf.to: 'shelf.shelf' belongs to plugin 'shelf'; a plugin may name core models and its own",
    ]);
    const coreOnPlugin = core.map((f) =>
      f.path.endsWith('net.yaml')
        ? {
            ...f,
            text: f.text.replace(
              /models:\n/,
              'models:\n  holder:\n    fields:\n      shelf: { type: fk, to: shelf.shelf }\n',
            ),
          }
        : f,
    );
    const fromCore = await run([plugin()], coreOnPlugin);
    expect(fromCore.errors).toEqual([
      expect.stringMatching(
        /^fixtures\/net\.yaml:\d+:\d+: models\.holder\.fields\.shelf\.to: 'shelf\.shelf' belongs to plugin 'shelf'; core models never depend on a plugin$/,
      ),
    ]);
  });

  it("adds the reverse counts a plugin declares on core models, marked as the plugin's", async () => {
    const counting = MODELS.replace(
      'models:\n',
      'extends:\n  catalog.vendor:\n    counts:\n      shelf_count: { model: shelf.shelf, field: vendor }\nmodels:\n',
    );
    const result = await run([plugin(MANIFEST, counting)]);
    expect(result.errors).toEqual([]);
    const vendor = result.files.get('catalog/vendor.ts')!;
    expect(vendor).toMatch(/name: 'shelf_count',\s+model: 'shelf.shelf',\s+field: 'vendor',[^}]*plugin: 'shelf'/);
    const openapi = JSON.parse(result.files.get('openapi.json')!) as { components: { schemas: Record<string, any> } };
    expect(openapi.components.schemas.Vendor.properties.shelf_count).toEqual({
      type: 'integer',
      minimum: 0,
      'x-plugin': 'shelf',
    });
    const wrong = MODELS.replace(
      'models:\n',
      'extends:\n  catalog.vendor:\n    counts:\n      products: { model: catalog.product, field: vendor }\nmodels:\n',
    );
    expect((await run([plugin(MANIFEST, wrong)])).errors).toEqual([
      "plugins/shelf/models.yaml:5:19: extends.catalog.vendor.counts.products.model: 'catalog.product' is not a model of plugin 'shelf'",
    ]);
  });

  it('rejects two plugins with one base URL', async () => {
    const twin = plugin(
      MANIFEST.replace('name: shelf', 'name: bin'),
      MODELS.replace('app: shelf', 'app: bin').replaceAll('shelf.shelf', 'bin.shelf'),
      'bin',
    );
    const result = await run([plugin(), twin]);
    expect(result.errors).toEqual([
      "plugins/shelf/plugin.yaml:4:1: base_url: 'shelves' is already used by plugin 'bin'",
    ]);
  });

  it("runs a plugin's own functions: its models name them, the registry imports them, others may not", async () => {
    const functions = (names: string[]) => ({
      path: 'plugins/shelf/functions.ts',
      text: `import type { DomainEntry } from '../../../runtime/plugin-api.js';

export const functions = {
${names.map((name) => `  '${name}': { kind: 'created', fn: async () => {} },`).join('\n')}
} satisfies Record<string, DomainEntry>;
`,
      module: '../plugins/shelf/functions.js',
    });
    const hooked = MODELS.replace('    path: slot\n', '    path: slot\n    hooks: { created: shelf.fillSlot }\n');
    const withFunctions = { ...plugin(MANIFEST, hooked), functions: functions(['shelf.fillSlot']) };
    const catalog = readDomainCatalog(root);
    const run = (plugins: PluginSource[], models = core) =>
      generate({ models, plugins, migrations: [], version: '4.6.0', registryTemplate, domainFunctions: catalog });

    const result = await run([withFunctions]);
    expect(result.errors).toEqual([]);
    const index = result.files.get('index.ts')!;
    expect(index).toContain("import { functions as shelfFunctions } from '../plugins/shelf/functions.js';");
    expect(index).toMatch(/const pluginFunctions = \{\s+\.\.\.shelfFunctions,\s+\} satisfies/);
    expect(index).toContain("'shelf.fillSlot'");
    expect(index).toContain('functions: pluginFunctions,');

    // Named after the plugin, or refused at the line of functions.ts; unknown names at the YAML line.
    const misnamed = { ...plugin(MANIFEST, hooked), functions: functions(['shelf.fillSlot', 'dcim.fillSlot']) };
    expect((await run([misnamed])).errors).toEqual([
      "plugins/shelf/functions.ts:5:1: 'dcim.fillSlot': a plugin's functions are named 'shelf.<function>'",
    ]);
    expect((await run([plugin(MANIFEST, hooked)])).errors).toEqual([
      "plugins/shelf/models.yaml:12:14: models.slot.hooks.created: unknown domain function 'shelf.fillSlot'",
    ]);

    // The core runs without the plugin: none of its models may name the plugin's functions.
    const coreHooked = core.map((f) =>
      f.path.endsWith('net.yaml')
        ? {
            ...f,
            text: f.text.replace(
              /models:\n/,
              'models:\n  holder:\n    hooks: { created: shelf.fillSlot }\n    fields:\n      name: { type: text }\n',
            ),
          }
        : f,
    );
    expect((await run([withFunctions], coreHooked)).errors).toEqual([
      expect.stringMatching(
        /^fixtures\/net\.yaml:\d+:\d+: models\.holder\.hooks\.created: 'shelf\.fillSlot' is a function of plugin 'shelf'; only its own models may name it$/,
      ),
    ]);
  });

  it('compares service versions numerically', () => {
    expect(compareVersions('4.6.0', '4.6')).toBe(0);
    expect(compareVersions('4.10.0', '4.9.99')).toBeGreaterThan(0);
    expect(compareVersions('4.6.0', '4.6.99')).toBeLessThan(0);
  });
});
