import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/app.js';
import { changeLoggedTests, createAll, filterSetSuite, setValue, useApp } from '../support/filtersets.js';

/**
 * NetBox 4.6.8's filter-set tests of data sources and data files (core/tests/test_filtersets.py) and of config
 * context profiles and config templates (extras/tests/test_filtersets.py). NetBox's third data source is a git
 * source with a status; sources are created here as local ones (the only type served), and their type and
 * status (read-only in the API) are then set in the table, as NetBox's bulk_create sets them.
 */
describe.each(DIALECTS)('config and data source filter sets on %s', (dialect) => {
  const shared = useApp(dialect);

  describe('DataSourceTestCase', () => {
    const suite = filterSetSuite(shared, 'core.datasource', async (api, app) => {
      const sources = await createAll(api, '/api/core/data-sources/', [
        {
          name: 'Data Source 1',
          type: 'local',
          source_url: 'file:///var/tmp/source1/',
          enabled: true,
          description: 'foobar1',
          sync_interval: 60,
        },
        {
          name: 'Data Source 2',
          type: 'local',
          source_url: 'file:///var/tmp/source2/',
          enabled: true,
          description: 'foobar2',
          sync_interval: 1440,
        },
        {
          name: 'Data Source 3',
          type: 'local',
          source_url: 'file:///var/tmp/source3/',
          enabled: false,
          sync_interval: 10080,
        },
      ]);
      const ids = sources.map((s) => s.id as number);
      await setValue(app, 'core.datasource', [ids[1]!], 'status', 'syncing');
      await setValue(app, 'core.datasource', [ids[2]!], 'status', 'completed');
      await setValue(app, 'core.datasource', [ids[2]!], 'type', 'git');
      return { sources };
    });
    changeLoggedTests(suite);
    it('test_q', async () => expect(await suite.count({ q: 'foobar1' })).toBe(1));
    it('test_name', async () => expect(await suite.count({ name: ['Data Source 1', 'Data Source 2'] })).toBe(2));
    it('test_description', async () => expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2));
    it('test_type', async () => expect(await suite.count({ type: ['local'] })).toBe(2));
    it('test_enabled', async () => {
      expect(await suite.count({ enabled: 'true' })).toBe(2);
      expect(await suite.count({ enabled: 'false' })).toBe(1);
    });
    it('test_status', async () => expect(await suite.count({ status: ['new', 'syncing'] })).toBe(2));
    it('test_sync_interval', async () => expect(await suite.count({ sync_interval: [60, 1440] })).toBe(2));
  });

  describe('DataFileTestCase', () => {
    const hashes = [
      '442da078f0111cbdf42f21903724f6597c692535f55bdfbbea758a1ae99ad9e1',
      'a78168c7c97115bafd96450ed03ea43acec495094c5caa28f0d02e20e3a76cc2',
      '12b8827a14c4d5a2f30b6c6e2b7983063988612391c6cbe8ee7493b59054827a',
    ];
    const suite = filterSetSuite(shared, 'core.datafile', async (api, app) => {
      const sources = await createAll(
        api,
        '/api/core/data-sources/',
        [1, 2, 3].map((i) => ({ name: `Data Source ${i}`, type: 'local', source_url: `file:///var/tmp/source${i}/` })),
      );
      // DataFile.objects.bulk_create: rows written into the table, as a sync writes them.
      const model = app.context.schema.model('core.datafile');
      const column = (name: string): string => model.fields.get(name)?.column ?? name;
      await app.db.knex(model.table).insert(
        [0, 1, 2].map((i) => ({
          [column('source')]: sources[i]!.id,
          [column('path')]: `dir1/file${i + 1}.txt`,
          created: `2023-01-0${i + 1}T00:00:00.000000Z`,
          last_updated: `2023-01-0${i + 1}T00:00:00.000000Z`,
          [column('size')]: (i + 1) * 1000,
          [column('hash')]: hashes[i],
        })),
      );
      return { sources };
    });
    changeLoggedTests(suite);
    it('test_q', async () => expect(await suite.count({ q: 'file1.txt' })).toBe(1));
    it('test_source', async () => {
      const sources = suite.data.sources.slice(0, 2);
      expect(await suite.count({ source_id: sources.map((s) => s.id) })).toBe(2);
      expect(await suite.count({ source: sources.map((s) => s.name) })).toBe(2);
    });
    it('test_path', async () => expect(await suite.count({ path: ['dir1/file1.txt', 'dir1/file2.txt'] })).toBe(2));
    it('test_size', async () => expect(await suite.count({ size: [1000, 2000] })).toBe(2));
    it('test_hash', async () => expect(await suite.count({ hash: hashes.slice(0, 2) })).toBe(2));
  });

  describe('ConfigContextProfileTestCase', () => {
    const suite = filterSetSuite(shared, 'extras.configcontextprofile', async (api) =>
      createAll(
        api,
        '/api/extras/config-context-profiles/',
        ['foo', 'bar', 'baz'].map((description, i) => ({ name: `Config Context Profile ${i + 1}`, description })),
      ),
    );
    changeLoggedTests(suite);
    it('test_q', async () => expect(await suite.count({ q: 'foo' })).toBe(1));
    it('test_name', async () =>
      expect(await suite.count({ name: ['Config Context Profile 1', 'Config Context Profile 2'] })).toBe(2));
  });

  describe('ConfigTemplateTestCase', () => {
    const suite = filterSetSuite(shared, 'extras.configtemplate', async (api) =>
      createAll(
        api,
        '/api/extras/config-templates/',
        (['foo', 'bar', 'baz'] as const).map((x, i) => ({
          name: `Config Template ${i + 1}`,
          template_code: 'TESTING',
          description: i < 2 ? `foobar${i + 1}` : '',
          mime_type: `text/${x}`,
          file_name: x,
          file_extension: x,
          as_attachment: i < 2,
        })),
      ),
    );
    changeLoggedTests(suite);
    it('test_q', async () => expect(await suite.count({ q: 'foobar1' })).toBe(1));
    it('test_name', async () =>
      expect(await suite.count({ name: ['Config Template 1', 'Config Template 2'] })).toBe(2));
    it('test_description', async () => expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2));
    it('test_mime_type', async () => expect(await suite.count({ mime_type: ['text/foo', 'text/bar'] })).toBe(2));
    it('test_file_name', async () => expect(await suite.count({ file_name: ['foo', 'bar'] })).toBe(2));
    it('test_file_extension', async () => expect(await suite.count({ file_extension: ['foo', 'bar'] })).toBe(2));
    it('test_as_attachment', async () => expect(await suite.count({ as_attachment: true })).toBe(2));
  });
});
