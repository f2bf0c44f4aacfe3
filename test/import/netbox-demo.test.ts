/**
 * `svc import-netbox` on NetBox's own demo data (test/fixtures/netbox-demo/): each dump restored into
 * PostgreSQL, imported into SQLite and into PostgreSQL, then compared through the API with the NetBox rows —
 * counts per model, every field both sides have, tags, custom fields, timestamps — and the report's list of
 * tables without a home checked against the registry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../generated/index.js';
import { NETBOX_IMPORT } from '../../runtime/domain/netbox-import.js';
import { Schema } from '../../runtime/rest/schema.js';
import { planImport } from '../../runtime/import/plan.js';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import { differences, listAll } from './compare.js';
import { canRestore, importInto, joinRows, restoreNetboxDump, sourceRows } from './support.js';
import type { ImportReport } from '../../runtime/import/report.js';
import type { NetboxSource } from '../../runtime/import/netbox-database.js';

const VERSIONS = ['4.0', '4.1', '4.2'];

describe.runIf(canRestore()).each(VERSIONS)('NetBox %s demo data', (version) => {
  let dump: { url: string; drop: () => Promise<void> };
  beforeAll(async () => {
    dump = await restoreNetboxDump(version);
  });
  afterAll(async () => {
    await dump?.drop();
  });

  describe.each(DIALECTS)('into %s', (dialect) => {
    let app: TestApp;
    let report: ImportReport;
    let source: NetboxSource;
    beforeAll(async () => {
      const imported = await importInto(dialect, dump.url);
      report = imported.report;
      source = imported.source;
      // The test app's own superuser comes after the imported users (ids continue after NetBox's).
      app = await startTestApp(dialect, { databaseUrl: imported.url });
    });
    afterAll(async () => {
      await app?.close();
    });

    it('imports every row that has a home, and leaves out only rows that refer to models without one', () => {
      expect(report.netboxVersion).toBe(version);
      const read = report.models.reduce((n, m) => n + m.read, 0);
      expect(read).toBeGreaterThan(3000);
      for (const model of report.models) {
        expect(model.imported + model.skipped.length, model.model).toBe(model.read);
        for (const skipped of model.skipped) {
          const type = /Invalid content type: (\S+)/.exec(skipped.reason)?.[1];
          expect(type && !(type in registry.models), `${model.model} ${skipped.id}: ${skipped.reason}`).toBe(true);
        }
      }
    });

    it('serves as many objects per model as NetBox holds, with the same values', async () => {
      const schema = new Schema(app.context.registry);
      const plan = planImport(schema, source);
      const mismatches: string[] = [];
      for (const modelReport of report.models) {
        const modelPlan = plan.models.find((p) => p.model.label === modelReport.model)!;
        const listPath = modelPlan.model.listPath;
        if (!listPath || modelReport.read === 0) continue;
        const served = await listAll(app.api, listPath);
        const own = modelPlan.model === schema.withRole('user') ? 1 : 0;
        const tokens = modelPlan.model === schema.withRole('token') ? 1 : 0;
        expect(served.length, modelReport.model).toBe(modelReport.read - modelReport.skipped.length + own + tokens);
        const rows = await sourceRows(dump.url, modelPlan.table!);
        const joins = new Map<string, Map<number, unknown[]>>();
        for (const field of modelPlan.fields) {
          if (field.kind === 'join')
            joins.set(field.field.name, await joinRows(dump.url, field.table, field.from, field.to));
          if (field.kind === 'joined')
            joins.set(field.field.name, await joinRows(dump.url, field.table, field.key, field.column));
        }
        const typeId = [...source.contentTypes].find(([, label]) => label === modelReport.model)?.[0];
        const tagged = await sourceRows(dump.url, NETBOX_IMPORT.taggedItems.table);
        const tags = new Map<number, number[]>();
        for (const item of tagged.values()) {
          if (Number(item.content_type_id) !== typeId) continue;
          tags.set(Number(item.object_id), [...(tags.get(Number(item.object_id)) ?? []), Number(item.tag_id)]);
        }
        mismatches.push(...differences(modelPlan, served, rows, joins, source.contentTypes, tags));
      }
      expect(mismatches.slice(0, 40)).toEqual([]);
    });

    it('lists exactly the NetBox tables that no model of the registry reads', async () => {
      const homes = new Set<string>([NETBOX_IMPORT.taggedItems.table]);
      for (const model of Object.values(app.context.registry.models)) {
        const map = NETBOX_IMPORT.models[model.label];
        if (map === null) continue;
        homes.add(model.table);
        for (const joined of Object.values(map?.joined ?? {})) homes.add(joined.table);
        for (const field of model.fields) {
          if (field.kind === 'object_types' || (field.kind === 'm2m' && field.fromColumn === 'from_id'))
            homes.add(`${model.table}_${field.name}`);
        }
      }
      const expected: string[] = [];
      for (const table of source.tables.keys()) {
        if (homes.has(table) || NETBOX_IMPORT.internalTables.some((p) => p.test(table))) continue;
        if ((await sourceRows(dump.url, table).catch(() => new Map())).size > 0) expected.push(table);
      }
      expect(report.withoutHome.map((t) => t.table).sort()).toEqual(expected.sort());
    });

    it('continues ids after the largest imported one, and records each import once with its message', async () => {
      const created = await app.api.post('/api/extras/tags/', { name: 'After import', slug: 'after-import' });
      expect(created.status).toBe(201);
      const tags = report.models.find((m) => m.model === 'extras.tag')!;
      expect((created.body as { id: number }).id).toBeGreaterThan(tags.read);
      const changes = await app.api.get('/api/core/object-changes/?limit=1&changed_object_type=dcim.site');
      expect((changes.body as { count: number }).count).toBe(
        report.models.find((m) => m.model === 'dcim.site')!.imported,
      );
      const first = (changes.body as { results: { message: string; action: { value: string } }[] }).results[0]!;
      expect(first).toMatchObject({ message: 'Imported from NetBox (test)', action: { value: 'create' } });
      const tasks = await app.api.get('/api/core/background-tasks/?limit=1');
      expect((tasks.body as { count: number }).count).toBe(0);
    });
  });
});
