import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateProject } from '../../generator/project.js';
import type { Registry } from '../../runtime/spec.js';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/**
 * Proof that the runtime names no model: a model this repository has never seen is written to a temporary
 * folder, generated into a temporary output folder, and served by an app built on that output alone.
 */
const root = path.resolve(import.meta.dirname, '../..');
const WIDGETS = `
app: inventory
verbose_name: Inventory
choices:
  widget_kind: [[gear, Gear], [sprocket, Sprocket], [lever, Lever]]
models:
  widget:
    description: A widget stored somewhere.
    path: widgets
    tree: true
    display: "{name} ({serial})"
    features: [tags, custom_fields, change_logging, events]
    fields:
      name: { type: string, max_length: 50 }
      serial: { type: string, max_length: 20, unique: true }
      kind: { type: choice, choices: widget_kind, default: gear }
      site: { type: fk, to: dcim.site, nullable: true, on_delete: protect }
      parent: { type: fk, to: inventory.widget, nullable: true, on_delete: cascade }
      weight: { type: integer, min_value: 0, nullable: true }
    brief: [id, url, display, name, serial]
    search: [name, serial]
`;

describe('a model generated from a temporary folder', () => {
  let registry: Registry;
  let workDir: string;

  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-unseen-'));
    const modelsDir = path.join(workDir, 'models');
    const outDir = path.join(workDir, 'generated');
    fs.cpSync(path.join(root, 'models'), modelsDir, { recursive: true });
    // Laid out as the project: a plugin's functions.ts reaches the runtime at ../../../runtime.
    fs.symlinkSync(path.join(root, 'runtime'), path.join(workDir, 'runtime'));
    fs.writeFileSync(path.join(modelsDir, 'inventory.yaml'), WIDGETS);
    const outcome = await generateProject({ root, modelsDir, outDir });
    expect(outcome.messages).toEqual([]);
    expect(outcome.ok).toBe(true);
    expect(fs.existsSync(path.join(outDir, 'inventory', 'widget.ts'))).toBe(true);
    registry = ((await import(path.join(outDir, 'index.ts'))) as { registry: Registry }).registry;
  });
  afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

  it('is in the registry and the OpenAPI document', () => {
    expect(registry.models['inventory.widget']?.table).toBe('inventory_widget');
    const paths = registry.openapi.paths as Record<string, unknown>;
    expect(paths['/api/inventory/widgets/']).toBeDefined();
    expect(paths['/api/inventory/widgets/{id}/']).toBeDefined();
  });

  describe.each(DIALECTS)('served on %s', (dialect) => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp(dialect, { registry, settings: { STRICT_FILTERING: true } });
    });
    afterAll(async () => app?.close());

    it('lists, filters, creates, updates and deletes widgets', async () => {
      const site = await app.api.post('/api/dcim/sites/', { name: 'Depot', slug: 'depot' });
      const root = await app.api.post('/api/inventory/widgets/', {
        name: 'Box',
        serial: 'B-1',
        kind: 'lever',
        site: { slug: 'depot' },
      });
      expect(root.status, root.text).toBe(201);
      expect(root.body).toMatchObject({ display: 'Box (B-1)', kind: { value: 'lever', label: 'Lever' }, _depth: 0 });
      expect(root.body.site).toMatchObject({ id: site.body.id, name: 'Depot' });
      const child = await app.api.post('/api/inventory/widgets/', [
        { name: 'Gear', serial: 'G-1', parent: root.body.id, weight: 3 },
        { name: 'Axle', serial: 'A-1', parent: root.body.id },
      ]);
      expect(child.status, child.text).toBe(201);
      expect(child.body[0]._depth).toBe(1);

      const list = await app.api.get('/api/inventory/widgets/');
      expect(list.body.results.map((w: { name: string }) => w.name)).toEqual(['Box', 'Axle', 'Gear']);
      const names = async (query: string): Promise<string[]> =>
        (await app.api.get(`/api/inventory/widgets/?${query}`)).body.results.map((w: { name: string }) => w.name);
      expect(await names('kind=lever')).toEqual(['Box']);
      expect(await names('site=depot')).toEqual(['Box']);
      expect(await names(`parent_id=${root.body.id}`)).toEqual(['Axle', 'Gear']);
      expect(await names(`ancestor_id=${root.body.id}`)).toEqual(['Axle', 'Gear']);
      // Without a slug there is no `ancestor` filter: an unknown parameter (STRICT_FILTERING).
      expect((await app.api.get('/api/inventory/widgets/?ancestor=no-slug')).status).toBe(400);
      expect(await names('weight__gte=2')).toEqual(['Gear']);
      expect(await names('q=g-1')).toEqual(['Gear']);
      expect(await names('serial__ic=1&ordering=-name')).toEqual(['Gear', 'Box', 'Axle']);
      expect((await app.api.get('/api/inventory/widgets/?kind=nope')).status).toBe(400);

      const duplicate = await app.api.post('/api/inventory/widgets/', { name: 'Other', serial: 'B-1' });
      expect(duplicate.body).toEqual({ serial: ['widget with this serial already exists.'] });
      const patched = await app.api.patch(`/api/inventory/widgets/${child.body[0].id}/`, {
        weight: 4,
        kind: 'sprocket',
      });
      expect(patched.body).toMatchObject({ weight: 4, kind: { value: 'sprocket', label: 'Sprocket' } });

      const options = await app.api.options('/api/inventory/widgets/');
      expect(options.body.name).toBe('Widget List');
      expect(options.body.actions.POST.kind.choices).toEqual([
        { value: 'gear', display_name: 'Gear' },
        { value: 'sprocket', display_name: 'Sprocket' },
        { value: 'lever', display_name: 'Lever' },
      ]);
      expect(options.body.actions.POST.site.type).toBe('nested object');

      const protectedSite = await app.api.delete(`/api/dcim/sites/${site.body.id}/`);
      expect(protectedSite.status).toBe(409);
      expect((await app.api.delete(`/api/inventory/widgets/${root.body.id}/`)).status).toBe(204);
      expect((await app.api.get('/api/inventory/widgets/')).body.count).toBe(0);
      expect((await app.api.get('/api/inventory/')).body).toEqual({ widgets: `${app.baseUrl}/api/inventory/widgets/` });
    });
  });
});
