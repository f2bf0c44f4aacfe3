/**
 * `svc import-netbox` is safe: all or none, a non-empty target is refused unless merging (then objects with
 * the same id are updated), `--dry-run` writes nothing, and bad input is one line without a stack trace.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ImportError } from '../../runtime/import/import-error.js';
import { createTestDatabase, DIALECTS } from '../support/app.js';
import { runCommand } from '../support/command.js';
import { canRestore, countRows, importInto, restoreNetboxDump } from './support.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

function countSites(url: string): Promise<number> {
  return countRows(url, 'dcim_site');
}

describe.runIf(canRestore())('import safety', () => {
  let dump: { url: string; drop: () => Promise<void> };
  beforeAll(async () => {
    dump = await restoreNetboxDump('4.2');
  });
  afterAll(async () => {
    await dump?.drop();
  });

  describe.each(DIALECTS)('into %s', (dialect) => {
    it('writes nothing on a dry run, and reports what it would have written', async () => {
      const target = await createTestDatabase(dialect, { migrated: true });
      try {
        const { report } = await importInto(dialect, dump.url, { targetUrl: target.url, dryRun: true });
        expect(report.dryRun).toBe(true);
        expect(report.models.find((m) => m.model === 'dcim.site')?.imported).toBe(24);
        expect(await countSites(target.url)).toBe(0);
      } finally {
        await target.drop();
      }
    }, 300_000);

    it('leaves the target as it was when the import fails part-way', async () => {
      const target = await createTestDatabase(dialect, { migrated: true });
      try {
        const failing = importInto(dialect, dump.url, {
          targetUrl: target.url,
          progress: (model) => {
            if (model === 'ipam.prefix') throw new Error('disk full');
          },
        });
        await expect(failing).rejects.toThrow('disk full');
        expect(await countSites(target.url)).toBe(0);
      } finally {
        await target.drop();
      }
    }, 300_000);

    it('refuses a target that holds objects, and with merge updates them by id', async () => {
      const target = await createTestDatabase(dialect, { migrated: true });
      try {
        const first = await importInto(dialect, dump.url, { targetUrl: target.url });
        const again = importInto(dialect, dump.url, { targetUrl: target.url });
        await expect(again).rejects.toThrow(ImportError);
        await expect(again).rejects.toThrow(/already holds objects .*--merge/);
        const merged = await importInto(dialect, dump.url, { targetUrl: target.url, merge: true });
        const sites = merged.report.models.find((m) => m.model === 'dcim.site')!;
        expect(sites).toMatchObject({ read: 24, imported: 0, updated: 24 });
        const imported = first.report.models.reduce((n, m) => n + m.imported, 0);
        const updated = merged.report.models.reduce((n, m) => n + m.updated, 0);
        expect(updated).toBe(imported);
        expect(await countSites(target.url)).toBe(24);
      } finally {
        await target.drop();
      }
    }, 300_000);
  });

  it('says in one line what is wrong with the source', async () => {
    const target = await createTestDatabase('sqlite', { migrated: true });
    try {
      const env = { DATABASE_URL: target.url, API_TOKEN_PEPPERS: '{"1":"' + 'p'.repeat(50) + '"}' };
      const unreachable = await runCommand(
        'node',
        ['bin/svc.js', 'import-netbox', 'postgres://nobody@127.0.0.1:1/netbox'],
        env,
        30_000,
        ROOT,
      );
      expect(unreachable.code).toBe(1);
      expect(unreachable.output.trim()).toMatch(
        /^Cannot reach the NetBox database postgres:\/\/nobody@127\.0\.0\.1:1\/netbox: .*$/,
      );
      const notNetbox = await runCommand('node', ['bin/svc.js', 'import-netbox', inject('pgUrl')], env, 30_000, ROOT);
      expect(notNetbox.code).toBe(1);
      expect(notNetbox.output.trim().split('\n')).toHaveLength(1);
      expect(notNetbox.output).toMatch(/is not a NetBox database/);
      const unsupported = await runCommand(
        'node',
        ['bin/svc.js', 'import-netbox', 'ftp://example.com/'],
        env,
        30_000,
        ROOT,
      );
      expect(unsupported.code).toBe(1);
      expect(unsupported.output.trim()).toMatch(/^Unsupported source ftp:\/\/example\.com\/: /);
    } finally {
      await target.drop();
    }
  });
});
