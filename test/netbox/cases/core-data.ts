import { createHash, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { NetBoxTestCase } from '../generic.js';
import type { PortedClass } from '../harness.js';

/**
 * Ported from NetBox 4.6.8 core/tests/test_api.py: DataSourceTestCase, DataFileTestCase and JobTestCase. Data files
 * and jobs are read-only in the API; NetBox's setUpTestData makes them with `bulk_create`, here they are rows
 * written into their tables (what a sync writes).
 */

type Json = Record<string, any>;

/** `Model.objects.bulk_create(...)` of a read-only model: rows written into its table, field names → columns. */
export async function insertRows(t: PortedClass, label: string, rows: readonly Json[]): Promise<number[]> {
  const { context } = t.app;
  const model = context.schema.model(label);
  const ids: number[] = [];
  for (const values of rows) {
    const row: Json = {};
    for (const [name, value] of Object.entries(values)) {
      const column = model.fields.get(name)?.column ?? name;
      row[column] = value !== null && typeof value === 'object' ? JSON.stringify(value) : value;
    }
    const [inserted] = (await context.db.knex(model.table).insert(row).returning('id')) as (Json | number)[];
    ids.push(Number(typeof inserted === 'object' ? inserted.id : inserted));
  }
  return ids;
}

const stamp = (): string => new Date().toISOString().replace(/(\.\d{3})Z$/, '$1000Z');

/** A data file of a source, as `DataFile(source=…, path=…, last_updated=now(), size=…, hash=…, data=…)`. */
export function dataFile(source: number, path: string, text: string): Json {
  const bytes = Buffer.from(text);
  return {
    source,
    path,
    created: stamp(),
    last_updated: stamp(),
    size: bytes.length,
    hash: createHash('sha256').update(bytes).digest('hex'),
    data: text,
  };
}

export const coreDataCases: NetBoxTestCase[] = [
  {
    source: 'core/tests/test_api.py::DataSourceTestCase',
    model: 'core.datasource',
    briefFields: ['description', 'display', 'id', 'name', 'url'],
    bulkUpdateData: { enabled: false, description: 'foo bar baz' },
    setUp: async (t) => {
      await t.makeAll('core.datasource', [
        {
          name: 'Data Source 1',
          type: 'local',
          source_url: 'file:///var/tmp/source1/',
          parameters: { sync_date: '2024-01-01', sync_datetime: '2024-01-01T12:30:00+00:00', sync_time: '12:30:00' },
        },
        { name: 'Data Source 2', type: 'local', source_url: 'file:///var/tmp/source2/' },
        { name: 'Data Source 3', type: 'local', source_url: 'file:///var/tmp/source3/' },
      ]);
      // NetBox creates git sources (type 'git', https URLs); only local sources are served here, and a git
      // source is refused (test/api/config-templates.test.ts).
      return {
        createData: [4, 5, 6].map((i) => ({
          name: `Data Source ${i}`,
          type: 'local',
          source_url: `file:///var/tmp/source${i}/`,
        })),
      };
    },
  },
  {
    source: 'core/tests/test_api.py::DataFileTestCase',
    model: 'core.datafile',
    briefFields: ['display', 'id', 'path', 'url'],
    userPermissions: ['core.view_datasource'],
    mixins: ['get', 'list'],
    setUp: async (t) => {
      const source = await t.make('core.datasource', {
        name: 'Data Source 1',
        type: 'local',
        source_url: 'file:///var/tmp/source1/',
      });
      await insertRows(
        t,
        'core.datafile',
        [1, 2, 3].map((i) => dataFile(source.id as number, `dir1/file${i}.txt`, 'x'.repeat(i * 1000))),
      );
      return { createData: [] };
    },
  },
  {
    source: 'core/tests/test_api.py::JobTestCase',
    model: 'core.job',
    briefFields: ['completed', 'created', 'status', 'url', 'user'],
    mixins: ['get', 'list'],
    setUp: async (t) => {
      const source = await t.make('core.datasource', {
        name: 'Data Source 1',
        type: 'local',
        source_url: 'file:///var/tmp/source1/',
      });
      await insertRows(
        t,
        'core.job',
        (
          [
            ['Job 1', 'pending'],
            ['Job 2', 'running'],
            ['Job 3', 'completed'],
          ] as const
        ).map(([name, status]) => ({
          name,
          object_type: 'core.datasource',
          object_id: source.id,
          status,
          queue_name: 'default',
          job_id: randomUUID(),
          created: stamp(),
          notifications: 'always',
          error: '',
          log_entries: [],
        })),
      );
      return { createData: [] };
    },
    tests: {
      // Not NetBox's: a sync/ of a local source is a job, with NetBox's `core.sync_datasource` permission.
      test_sync_data_source: async (t) => {
        const source = await t.make('core.datasource', { name: 'Empty', type: 'local', source_url: 'nothing-here' });
        const url = `${t.path('core.datasource')}${source.id}/sync/`;
        const user = await t.user(['core.view_datasource']);
        // NetBox's has_perm('core.sync_datasource'): 403 without it.
        expect((await user.client.post(url, {})).status).toBe(403);
        await user.addPermissions('core.sync_datasource');
        const response = await user.client.post(url, {});
        expect(response.status, response.text).toBe(200);
        expect((response.body as Json).status.value).toBe('failed');
        const jobs = await t.admin.get(`${t.path()}?object_id=${source.id}&status=errored`);
        expect(jobs.body.count).toBe(1);
      },
    },
  },
];
