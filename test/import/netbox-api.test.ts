/**
 * `svc import-netbox https://… --token …`: the REST source. One service (on SQLite) is loaded from NetBox's 4.2
 * demo dump (imported from the restored database), an empty one of each database imports it over its REST API, and every endpoint
 * both serve gives the same complete list body (ids equal), except what cannot come over the API: tokens
 * (their secrets are never shown), the second service's own superuser and token, and its import's change
 * records. Image files are downloaded from the URLs the source gives. The REST source is as safe as the database
 * source: a dry run writes nothing, a failure part-way leaves the target as it was, a target that holds objects is
 * refused unless merging (then objects are updated by id). Bad input is one line without a stack trace: a refused
 * token, an unreachable URL, not a NetBox.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImportError } from '../../runtime/import/import-error.js';
import { authorizationHeader } from '../../runtime/import/netbox-api.js';
import type { ImportReport } from '../../runtime/import/report.js';
import { createTestDatabase, DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import { runCommand } from '../support/command.js';
import { TINY_PNG } from '../support/fixtures.js';
import { listAll } from './compare.js';
import { canRestore, countRows, importFromApi, importInto, restoreNetboxDump } from './support.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

type Row = Record<string, unknown>;

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** JSON text with object keys sorted at every level. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Row).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** The secret of a test app's token, from its Authorization header. */
function tokenOf(app: TestApp): string {
  return app.adminAuth.replace(/^(Token|Bearer)\s+/i, '');
}

describe('the Authorization header of a NetBox token', () => {
  it('is Bearer for a v2 token (nbt_ or svc_ prefix, key.secret) and Token for a v1 token', () => {
    expect(authorizationHeader('nbt_abcdefghijkl.secretsecret')).toBe('Bearer nbt_abcdefghijkl.secretsecret');
    expect(authorizationHeader('svc_abcdefghijkl.secretsecret')).toBe('Bearer svc_abcdefghijkl.secretsecret');
    expect(authorizationHeader('0123456789abcdef0123456789abcdef01234567')).toBe(
      'Token 0123456789abcdef0123456789abcdef01234567',
    );
    expect(authorizationHeader('Bearer nbt_abc.def')).toBe('Bearer nbt_abc.def');
  });
});

describe.runIf(canRestore())('import over the REST API', () => {
  // One source for both targets: what the REST import reads does not depend on the source's database.
  let source: TestApp;
  let sourceDrop: (() => Promise<void>) | undefined;
  /** The image attachment added to the source (the demo data has none), as the source serves it. */
  let attachment: { id: number; image: string };
  beforeAll(async () => {
    const dump = await restoreNetboxDump('4.2');
    try {
      const loaded = await importInto('sqlite', dump.url);
      sourceDrop = loaded.drop;
      source = await startTestApp('sqlite', { databaseUrl: loaded.url });
    } finally {
      await dump.drop();
    }
    const upload = await source.api.post('/api/extras/image-attachments/', {
      object_type: 'dcim.site',
      object_id: 1,
      name: 'Front',
      image: new File([TINY_PNG], 'front.png', { type: 'image/png' }),
    });
    expect(upload.status, upload.text).toBe(201);
    attachment = upload.body as { id: number; image: string };
  }, 300_000);
  afterAll(async () => {
    await source?.close();
    await sourceDrop?.();
  });

  describe.each(DIALECTS)('into %s', (dialect) => {
    let target: TestApp;
    let report: ImportReport;
    let targetUrl: string;
    const mediaRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-media-'));
    beforeAll(async () => {
      const settings = { MEDIA_ROOT: mediaRoot };
      const imported = await importFromApi(dialect, source.baseUrl, tokenOf(source), { settings });
      report = imported.report;
      targetUrl = imported.url;
      target = await startTestApp(dialect, { databaseUrl: imported.url, settings });
    }, 300_000);
    afterAll(async () => {
      await target?.close();
      fs.rmSync(mediaRoot, { recursive: true, force: true });
    });

    const changeRecords = 'core.objectchange';

    it('reads every endpoint both serve and leaves out only tokens, saying what must be issued again', () => {
      expect(report.sourceKind).toBe('api');
      expect(report.netboxVersion).toBe('4.6');
      for (const model of report.models) {
        // The source's change records of unnamed devices have a blank object_repr (its display of such a
        // device is blank), which the write path refuses.
        const refused = model.skipped.filter(
          (s) => !(model.model === changeRecords && /^object_repr: /.test(s.reason)),
        );
        expect(refused, model.model).toEqual([]);
        expect(model.imported + model.skipped.length, model.model).toBe(model.read);
      }
      expect(report.models.some((m) => m.model === 'users.token')).toBe(false);
      expect(report.tokens.reissue.length).toBeGreaterThan(0);
      expect(report.tokens.unchanged).toEqual([]);
      expect(report.notes.join(' ')).toMatch(/without a usable password.*issued again/);
      expect(report.withoutHome).toEqual([]);
    });

    it('serves the same complete list body on every endpoint, ids equal', async () => {
      const schema = source.context.schema;
      const skip = new Set(
        [schema.withRole('token')?.label].concat(
          ['core.backgroundtask', 'core.worker'].filter((label) => schema.models.has(label)),
        ),
      );
      const own = new Set<number>();
      const users = schema.withRole('user')!;
      const changes = schema.withRole('change_record')!;
      const tagged = schema.withRole('tagged_item')!;
      const mismatches: string[] = [];
      let compared = 0;
      for (const model of schema.models.values()) {
        if (!model.listPath || skip.has(model.label)) continue;
        let before = JSON.parse(
          JSON.stringify(await listAll(source.api, model.listPath)).replaceAll(source.baseUrl, target.baseUrl),
        ) as Row[];
        let after = await listAll(target.api, model.listPath);
        if (model === tagged) {
          // Tagged items are written again with each object's tags: the same assignments, under new ids.
          const key = (r: Row): string =>
            `${String(r.object_type)} ${String(r.object_id)} ${String((r.tag as Row).slug)}`;
          expect(after.map(key).sort()).toEqual(before.map(key).sort());
          continue;
        }
        if (model === users) {
          // The target's own superuser, made when it started.
          const extra = after.filter((u) => !before.some((b) => b.id === u.id));
          for (const u of extra) own.add(Number(u.id));
          expect(extra).toHaveLength(1);
          after = after.filter((u) => !own.has(Number(u.id)));
        }
        if (model === changes) {
          // The import's own change records come besides the source's; those the write path refused are left out.
          const skipped = new Set(report.models.find((m) => m.model === changeRecords)!.skipped.map((s) => s.id));
          after = after.filter((c) => c.message !== 'Imported from NetBox (test, REST)');
          before = before.filter((c) => !skipped.has(Number(c.id)));
        }
        compared += before.length;
        if (before.length !== after.length) {
          mismatches.push(`${model.listPath}: ${before.length} served by the source, ${after.length} after`);
          continue;
        }
        // The write path trims text: the source's change records of objects whose name is blank (a rack
        // reservation's `Reservation for rack `) come without the trailing space. JSON objects compare by their
        // members: PostgreSQL's jsonb keeps keys in its own order, as in NetBox, SQLite in the written order.
        const text = (value: unknown): string =>
          model === changes ? canonical(value)?.replace(/ +"/g, '"').replace(/  +/g, ' ') : canonical(value);
        for (const [i, object] of before.entries()) {
          const got = after[i]!;
          for (const key of new Set([...Object.keys(object), ...Object.keys(got)])) {
            if (text(object[key]) !== text(got[key])) {
              mismatches.push(
                `${model.listPath} ${String(object.id)} ${key}: ${JSON.stringify(object[key])?.slice(0, 200)} → ${JSON.stringify(got[key])?.slice(0, 200)}`,
              );
            }
          }
        }
      }
      expect(mismatches.slice(0, 30)).toEqual([]);
      expect(compared).toBeGreaterThan(5000);
    }, 300_000);

    it('gives users no usable password', async () => {
      const users = await listAll(source.api, '/users/users/');
      const username = users.reduce((a, b) => (Number(a.id) > Number(b.id) ? a : b)).username;
      const credentials = { username, password: 'Admin-Password-1' };
      expect((await source.anonymous.post('/api/users/tokens/provision/', credentials)).status).toBe(201);
      expect([400, 401, 403]).toContain(
        (await target.anonymous.post('/api/users/tokens/provision/', credentials)).status,
      );
    });

    it('downloads each image attachment’s file from the URL the source gives, with the token', async () => {
      const file = decodeURIComponent(new URL(attachment.image).pathname.replace(/^\/media\//, ''));
      expect(report.models.find((m) => m.model === 'extras.imageattachment')?.files).toEqual([
        { id: attachment.id, file, copied: true },
      ]);
      expect(fs.readFileSync(path.join(mediaRoot, file))).toEqual(TINY_PNG);
      const served = await fetch(attachment.image.replace(source.baseUrl, target.baseUrl));
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer())).toEqual(TINY_PNG);
    });

    // The target's side (one transaction, refusal, merge by id) is tested on both databases in safety.test.ts.
    it.runIf(dialect === 'sqlite')(
      'writes nothing on a dry run, and leaves the target as it was when the import fails part-way',
      async () => {
        const media = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-media-'));
        const empty = await createTestDatabase(dialect, { migrated: true });
        try {
          const options = { targetUrl: empty.url, settings: { MEDIA_ROOT: media } };
          const dry = await importFromApi(dialect, source.baseUrl, tokenOf(source), { ...options, dryRun: true });
          expect(dry.report.dryRun).toBe(true);
          expect(dry.report.models.find((m) => m.model === 'dcim.site')).toMatchObject({ read: 24, imported: 24 });
          expect(dry.report.models.find((m) => m.model === 'extras.imageattachment')?.files).toHaveLength(1);
          expect(await countRows(empty.url, 'dcim_site')).toBe(0);
          expect(fs.readdirSync(media, { recursive: true }).filter((f) => String(f).endsWith('.png'))).toEqual([]);
          const failing = importFromApi(dialect, source.baseUrl, tokenOf(source), {
            ...options,
            progress: (model) => {
              if (model === 'ipam.prefix') throw new Error('disk full');
            },
          });
          await expect(failing).rejects.toThrow('disk full');
          expect(await countRows(empty.url, 'dcim_site')).toBe(0);
        } finally {
          await empty.drop();
          fs.rmSync(media, { recursive: true, force: true });
        }
      },
      300_000,
    );

    // Last: it writes to the target the other tests read.
    // The target's side (one transaction, refusal, merge by id) is tested on both databases in safety.test.ts.
    it.runIf(dialect === 'sqlite')(
      'refuses a target that holds objects, and with merge updates them by id',
      async () => {
        const again = importFromApi(dialect, source.baseUrl, tokenOf(source), { targetUrl });
        await expect(again).rejects.toThrow(ImportError);
        await expect(again).rejects.toThrow(/already holds objects .*--merge/);
        const merged = await importFromApi(dialect, source.baseUrl, tokenOf(source), {
          targetUrl,
          merge: true,
          settings: { MEDIA_ROOT: mediaRoot },
        });
        expect(merged.report.merge).toBe(true);
        expect(merged.report.models.find((m) => m.model === 'dcim.site')).toMatchObject({
          read: 24,
          imported: 0,
          updated: 24,
        });
        const imported = report.models.reduce((n, m) => n + m.imported, 0);
        expect(merged.report.models.reduce((n, m) => n + m.updated, 0)).toBe(imported);
        expect(merged.report.models.reduce((n, m) => n + m.imported, 0)).toBe(0);
        expect(await countRows(targetUrl, 'dcim_site')).toBe(24);
        expect(
          fs.readFileSync(
            path.join(mediaRoot, report.models.find((m) => m.model === 'extras.imageattachment')!.files[0]!.file),
          ),
        ).toEqual(TINY_PNG);
      },
      600_000,
    );
  });

  it('says in one line what is wrong with the source', async () => {
    const app = await startTestApp('sqlite');
    const target = await createTestDatabase('sqlite', { migrated: true });
    try {
      const env = { DATABASE_URL: target.url, API_TOKEN_PEPPERS: '{"1":"' + 'p'.repeat(50) + '"}' };
      const run = (...args: string[]) =>
        runCommand('node', ['bin/svc.js', 'import-netbox', ...args], env, 30_000, ROOT);
      const badToken = await run(app.baseUrl, '--token', '0123456789abcdef0123456789abcdef01234567');
      expect(badToken.code).toBe(1);
      expect(badToken.output.trim()).toMatch(
        /^The NetBox API http:\/\/127\.0\.0\.1:\d+ refused the token \(40[13]: Invalid v1 token\): give a valid API token with --token\.$/,
      );
      const closed = await closedPort();
      const unreachable = await run(`http://127.0.0.1:${closed}`, '--token', tokenOf(app));
      expect(unreachable.code).toBe(1);
      expect(unreachable.output.trim()).toBe(`Cannot reach the NetBox API http://127.0.0.1:${closed}: ECONNREFUSED`);
      const notNetbox = await run(`${app.baseUrl}/static/`, '--token', tokenOf(app));
      expect(notNetbox.code).toBe(1);
      expect(notNetbox.output.trim()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/static is not a NetBox API /);
      const noToken = await run(app.baseUrl);
      expect(noToken.code).toBe(1);
      expect(noToken.output.trim()).toMatch(/needs an API token: give --token TOKEN/);
    } finally {
      await target.drop();
      await app.close();
    }
  }, 180_000);
});
