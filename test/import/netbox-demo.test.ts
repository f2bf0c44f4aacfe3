/**
 * `svc import-netbox` on NetBox's own demo data (test/fixtures/netbox-demo/): each dump restored into
 * PostgreSQL, imported into SQLite and into PostgreSQL, then compared through the API with the NetBox rows —
 * counts per model, every field both sides have, tags, custom fields, timestamps — and the report's list of
 * tables without a home checked against the registry. The versions differ in what the importer reads, the
 * databases in what it writes: every version goes into SQLite, the newest also into PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../generated/index.js';
import { NETBOX_IMPORT } from '../../runtime/domain/netbox-import.js';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import { compareWithSource } from './compare.js';
import { canRestore, importInto, restoreNetboxDump, sourceRows } from './support.js';
import type { ImportReport } from '../../runtime/import/report.js';
import type { NetboxSource } from '../../runtime/import/netbox-database.js';

const VERSIONS = ['4.0', '4.1', '4.2'];
const NEWEST = VERSIONS.at(-1);

describe.runIf(canRestore()).each(VERSIONS)('NetBox %s demo data', (version) => {
  let dump: { url: string; drop: () => Promise<void> };
  beforeAll(async () => {
    dump = await restoreNetboxDump(version);
  });
  afterAll(async () => {
    await dump?.drop();
  });

  describe.each(DIALECTS.filter((d) => d === 'sqlite' || version === NEWEST))('into %s', (dialect) => {
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
      expect(await compareWithSource(app, report, source, dump.url)).toEqual([]);
    });

    it('lists exactly the NetBox tables that no model of the registry reads', async () => {
      const homes = new Set<string>([NETBOX_IMPORT.taggedItems.table]);
      for (const model of Object.values(app.context.registry.models)) {
        const map = NETBOX_IMPORT.models[model.label];
        if (map === null) continue;
        homes.add(model.table);
        for (const joined of Object.values(map?.joined ?? {})) homes.add(joined.table);
        for (const lookup of Object.values(map?.lookups ?? {})) homes.add(lookup.table);
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

    it('traces every complete cable path NetBox stored to the same far end', async () => {
      // NetBox's dcim_cablepath: nodes `<content type id>:<id>`, the origin first, the far end last.
      const paths = [...(await sourceRows(dump.url, 'dcim_cablepath')).values()].filter((p) => p.is_complete);
      const label = (node: string): [string, number] => {
        const [type, id] = node.split(':');
        return [source.contentTypes.get(Number(type))!, Number(id)];
      };
      const served = new Set(Object.values(app.context.registry.models).map((m) => m.label));
      const mismatches: string[] = [];
      let traced = 0;
      for (const path of paths) {
        const nodes = path._nodes as string[];
        const [originType, originId] = label(nodes[0]!);
        const [farType, farId] = label(nodes.at(-1)!);
        // Ends whose model has no home here yet (a provider network) cannot be traced to.
        if (!served.has(originType) || !served.has(farType)) continue;
        const model = app.context.schema.model(originType);
        const origin = await app.api.get(`/api${model.listPath}${originId}/`);
        const ends = (origin.body.connected_endpoints ?? []) as { id: number }[];
        const got = [origin.body.connected_endpoints_type, ends.map((e) => e.id)];
        if (JSON.stringify(got) !== JSON.stringify([farType, [farId]]))
          mismatches.push(`${originType} ${originId}: ${JSON.stringify(got)}, NetBox ${farType} ${farId}`);
        traced += 1;
      }
      expect(mismatches.slice(0, 20)).toEqual([]);
      expect(traced).toBeGreaterThan(100);
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
