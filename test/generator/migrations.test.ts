import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../../generator/generate.js';
import { generateProject } from '../../generator/project.js';
import { diffSchemas, replayMigrations } from '../../generator/migrations.js';
import type { Migration, TableSpec } from '../../runtime/spec.js';
import { connectDatabase } from '../../runtime/db/connect.js';
import { migrate } from '../../runtime/db/migrate.js';

const root = path.resolve(import.meta.dirname, '../..');
const template = fs.readFileSync(path.join(root, 'templates', 'registry.ts.hbs'), 'utf8');

const BASE = `
app: shop
models:
  item:
    path: items
    fields:
      name: { type: string, max_length: 50, unique: true }
`;

async function generateFrom(yaml: string, migrations: { path: string; text: string }[] = []) {
  return generate({
    models: [{ path: 'models/shop.yaml', text: yaml }],
    migrations,
    version: '4.6.0',
    registryTemplate: template,
  });
}

function migrationFiles(files: Map<string, string>): { path: string; text: string }[] {
  return [...files].filter(([p]) => p.startsWith('migrations/')).map(([p, text]) => ({ path: p, text }));
}

describe('migrations', () => {
  it('starts with an initial migration and adds one per change, never editing an earlier one', async () => {
    const first = await generateFrom(BASE);
    expect(first.errors).toEqual([]);
    expect([...first.files.keys()].filter((p) => p.startsWith('migrations/'))).toEqual([
      'migrations/0001_initial.json',
    ]);

    const again = await generateFrom(BASE, migrationFiles(first.files));
    expect([...again.files.keys()].filter((p) => p.startsWith('migrations/'))).toEqual([
      'migrations/0001_initial.json',
    ]);
    expect(again.files.get('migrations/0001_initial.json')).toBe(first.files.get('migrations/0001_initial.json'));

    const changed = BASE.replace(
      'unique: true }',
      'unique: true }\n      note: { type: string, max_length: 20, blank: true }',
    );
    const second = await generateFrom(changed, migrationFiles(first.files));
    expect(second.files.get('migrations/0001_initial.json')).toBe(first.files.get('migrations/0001_initial.json'));
    const added = JSON.parse(second.files.get('migrations/0002_shop_item_add_column_note.json')!) as Migration;
    expect(added.ops).toEqual([
      {
        op: 'addColumn',
        table: 'shop_item',
        column: { name: 'note', column: { type: 'string', maxLength: 20 }, nullable: false, default: '' },
      },
    ]);
  });

  it('refuses a new non-null column that has no default', async () => {
    const first = await generateFrom(BASE);
    const changed = BASE.replace('unique: true }', 'unique: true }\n      code: { type: integer }');
    const result = await generateFrom(changed, migrationFiles(first.files));
    expect(result.errors[0]).toMatch(/cannot add non-null column 'code' without a default/);
  });

  it('diffs tables: columns, indexes, new and dropped tables', () => {
    const before: TableSpec = {
      name: 't',
      columns: [{ name: 'a', column: { type: 'integer' }, nullable: false }],
      indexes: [{ name: 't_a_idx', columns: ['a'], unique: false }],
    };
    const after: TableSpec = {
      name: 't',
      columns: [
        { name: 'a', column: { type: 'bigint' }, nullable: true },
        { name: 'b', column: { type: 'text' }, nullable: true },
      ],
      indexes: [{ name: 't_a_idx', columns: ['a'], unique: true }],
    };
    const ops = diffSchemas(
      new Map([
        ['t', before],
        ['gone', { name: 'gone', columns: [], indexes: [] }],
      ]),
      [after],
    );
    expect(ops.map((o) => o.op)).toEqual(['dropIndex', 'alterColumn', 'addColumn', 'createIndex', 'dropTable']);
    const replayed = replayMigrations([
      {
        name: '0001',
        ops: [
          { op: 'createTable', table: 't', columns: before.columns },
          { op: 'createIndex', table: 't', index: before.indexes[0]! },
        ],
      },
      { name: '0002', ops },
    ]);
    expect(replayed.get('t')).toEqual(after);
  });

  it('applies a migration that adds a column to a table with rows, on SQLite', async () => {
    const first = await generateFrom(BASE);
    const changed = BASE.replace(
      'unique: true }',
      'unique: true }\n      note: { type: string, max_length: 20, blank: true }',
    );
    const second = await generateFrom(changed, migrationFiles(first.files));
    const migrations = migrationFiles(second.files).map((f) => JSON.parse(f.text) as Migration);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-migrate-'));
    const db = connectDatabase(`sqlite:${path.join(dir, 'db.sqlite3')}`);
    try {
      expect(await migrate(db, migrations.slice(0, 1))).toEqual(['0001_initial']);
      await db.knex('shop_item').insert({ name: 'old' });
      expect(await migrate(db, migrations)).toEqual(['0002_shop_item_add_column_note']);
      expect(await migrate(db, migrations)).toEqual([]);
      expect(await db.knex('shop_item').first()).toMatchObject({ name: 'old', note: '' });
    } finally {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('generation', () => {
  it('is deterministic: the same input gives byte-identical output', async () => {
    const a = await generateFrom(BASE);
    const b = await generateFrom(BASE);
    expect([...a.files]).toEqual([...b.files]);
    for (const [file, text] of a.files) {
      if (file.endsWith('.ts'))
        expect(text.startsWith('// Code generated by npm run generate. DO NOT EDIT.\n'), file).toBe(true);
    }
  });

  it('reproduces the committed generated/ folder (the --check run)', async () => {
    // The generated modules' type check is `npm run typecheck`'s (tsconfig.json includes generated/).
    const outcome = await generateProject({
      root,
      modelsDir: path.join(root, 'models'),
      outDir: path.join(root, 'generated'),
      check: true,
      skipTypecheck: true,
    });
    expect(outcome.messages).toEqual([]);
    expect(outcome.ok).toBe(true);
  });

  it('detects drift and orphan files in check mode', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-check-'));
    fs.cpSync(path.join(root, 'generated'), dir, { recursive: true });
    fs.appendFileSync(path.join(dir, 'dcim', 'site.ts'), '// edited by hand\n');
    fs.writeFileSync(path.join(dir, 'stray.ts'), '');
    const outcome = await generateProject({
      root,
      modelsDir: path.join(root, 'models'),
      outDir: dir,
      check: true,
      skipTypecheck: true,
    });
    fs.rmSync(dir, { recursive: true, force: true });
    expect(outcome.ok).toBe(false);
    // index.ts too: the registry imports the plugins' functions.ts relative to the output folder.
    expect(outcome.messages).toEqual(['differs: dcim/site.ts', 'differs: index.ts', 'orphan: stray.ts']);
  });
});
