import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../../../generator/generate.js';
import { diffSchemas, nameMigration, replayMigrations } from '../../../generator/migrations.js';
import type { ColumnSpec, Migration, MigrationOp, TableSpec } from '../../../runtime/spec.js';

/** Migrations: replaying them, diffing a schema against the models, naming, and reading earlier ones. */

const int = (name: string, extra: Partial<ColumnSpec> = {}): ColumnSpec => ({
  name,
  column: { type: 'integer' },
  nullable: false,
  ...extra,
});
const table = (name: string, columns: ColumnSpec[], indexes: TableSpec['indexes'] = []): TableSpec => ({
  name,
  columns,
  indexes,
});

describe('diffSchemas', () => {
  it.each<[string, TableSpec[], TableSpec[], MigrationOp[]]>([
    ['nothing for an unchanged schema', [table('t', [int('a')])], [table('t', [int('a')])], []],
    [
      'a new table with its indexes',
      [],
      [table('t', [int('a')], [{ name: 't_a', columns: ['a'], unique: true }])],
      [
        { op: 'createTable', table: 't', columns: [int('a')] },
        { op: 'createIndex', table: 't', index: { name: 't_a', columns: ['a'], unique: true } },
      ],
    ],
    [
      'a nullable column added',
      [table('t', [int('a')])],
      [table('t', [int('a'), int('b', { nullable: true })])],
      [{ op: 'addColumn', table: 't', column: int('b', { nullable: true }) }],
    ],
    [
      'a column with a default added',
      [table('t', [int('a')])],
      [table('t', [int('a'), int('b', { default: 0 })])],
      [{ op: 'addColumn', table: 't', column: int('b', { default: 0 }) }],
    ],
    [
      'a changed default',
      [table('t', [int('a', { default: 1 })])],
      [table('t', [int('a', { default: 2 })])],
      [{ op: 'alterColumn', table: 't', column: int('a', { default: 2 }) }],
    ],
    [
      'a dropped column',
      [table('t', [int('a'), int('b')])],
      [table('t', [int('a')])],
      [{ op: 'dropColumn', table: 't', columnName: 'b' }],
    ],
    [
      'a changed index: dropped before the columns change, created after',
      [table('t', [int('a')], [{ name: 'i', columns: ['a'], unique: false }])],
      [table('t', [int('a', { nullable: true })], [{ name: 'i', columns: ['a'], unique: false, whereNull: ['a'] }])],
      [
        { op: 'dropIndex', table: 't', indexName: 'i' },
        { op: 'alterColumn', table: 't', column: int('a', { nullable: true }) },
        { op: 'createIndex', table: 't', index: { name: 'i', columns: ['a'], unique: false, whereNull: ['a'] } },
      ],
    ],
    [
      'dropped tables last, the latest created first',
      [table('a', []), table('b', []), table('c', [])],
      [table('b', [])],
      [
        { op: 'dropTable', table: 'c' },
        { op: 'dropTable', table: 'a' },
      ],
    ],
  ])('%s', (_name, before, after, ops) => {
    expect(diffSchemas(new Map(before.map((t) => [t.name, t])), after)).toEqual(ops);
  });

  it('refuses a non-null column without a default on a table that may hold rows', () => {
    expect(() => diffSchemas(new Map([['t', table('t', [])]]), [table('t', [int('b')])])).toThrow(
      "cannot add non-null column 'b' without a default; make it nullable, blank or give it a default",
    );
  });

  it('moves the values of a dropped column that became rows just before it is dropped', () => {
    const move = {
      model: 'shop.item',
      table: 't',
      column: 'b',
      link: 'c',
      into: 'u',
      value: 'v',
      typeColumn: 'kind',
      idColumn: 'of',
      timestamps: [],
    };
    const ops = diffSchemas(
      new Map([['t', table('t', [int('a'), int('b')])]]),
      [table('u', [int('v')]), table('t', [int('a'), int('c', { nullable: true })])],
      [move],
    );
    expect(ops.map((op) => `${op.op} ${op.table}`)).toEqual([
      'createTable u',
      'addColumn t',
      'moveToRows t',
      'dropColumn t',
    ]);
    expect(ops[2]).toEqual({ op: 'moveToRows', table: 't', columnName: 'b', move });
    // Replaying leaves the schema as the drop makes it: the move changes no table.
    const first: Migration = { name: '0001', ops: [{ op: 'createTable', table: 't', columns: [int('a'), int('b')] }] };
    const replayed = replayMigrations([first, { name: '0002', ops }]);
    expect(replayed.get('t')!.columns.map((c) => c.name)).toEqual(['a', 'c']);
  });

  it('produces what replaying gives back', () => {
    const before = [table('t', [int('a'), int('b')], [{ name: 'i', columns: ['a'], unique: false }]), table('u', [])];
    const after = [table('t', [int('a', { nullable: true }), int('c', { default: 1 })]), table('v', [int('x')])];
    const first: Migration = {
      name: '0001_initial',
      ops: diffSchemas(new Map(), before),
    };
    const second: Migration = { name: '0002', ops: diffSchemas(replayMigrations([first]), after) };
    expect([...replayMigrations([first, second]).values()]).toEqual(after);
  });
});

describe('replayMigrations', () => {
  it('refuses an operation on a table no migration created', () => {
    expect(() =>
      replayMigrations([{ name: '0001', ops: [{ op: 'addColumn', table: 'nope', column: int('a') }] }]),
    ).toThrow("migration refers to unknown table 'nope'");
  });
});

describe('nameMigration', () => {
  const ops: MigrationOp[] = [
    { op: 'addColumn', table: 'shop_item', column: int('note') },
    { op: 'dropIndex', table: 'shop_item', indexName: 'shop_item_x' },
  ];
  it.each<[number, MigrationOp[], string]>([
    [1, ops, '0001_initial'],
    [2, ops.slice(0, 1), '0002_shop_item_add_column_note'],
    [12, ops, '0012_shop_item_add_column_note_and_more'],
    [3, [{ op: 'dropIndex', table: 't', indexName: 'i' }], '0003_t_drop_index_i'],
    [4, [{ op: 'createTable', table: 't', columns: [] }], '0004_t_create_table'],
    [5, [{ op: 'dropColumn', table: 't', columnName: 'c' }], '0005_t_drop_column_c'],
  ])('migration %i %#', (number, list, name) => {
    expect(nameMigration(number, list)).toBe(name);
  });

  it('keeps names to 80 characters', () => {
    const long = nameMigration(2, [{ op: 'addColumn', table: 'x'.repeat(60), column: int('y'.repeat(40)) }]);
    expect(long).toHaveLength(80);
    expect(long.startsWith('0002_xxx')).toBe(true);
  });
});

describe('earlier migrations given to generate()', () => {
  const registryTemplate = fs.readFileSync(
    path.resolve(import.meta.dirname, '../../../templates/registry.ts.hbs'),
    'utf8',
  );
  const MODELS = [
    { path: 'models/shop.yaml', text: 'app: shop\nmodels:\n  item:\n    fields:\n      a: { type: integer }\n' },
  ];
  const run = (migrations: { path: string; text: string }[]) =>
    generate({ models: MODELS, migrations, version: '1.0.0', registryTemplate });
  const migration = (name: string, ops: MigrationOp[] = []): string => JSON.stringify({ name, ops });

  it.each([
    [
      'text that is not JSON',
      [{ path: 'migrations/0001_initial.json', text: '{' }],
      /^migrations\/0001_initial\.json: /,
    ],
    [
      'JSON that is no migration',
      [{ path: 'migrations/0001_initial.json', text: '{"name": "0001"}' }],
      /: not a migration$/,
    ],
    [
      'a gap in the numbering',
      [
        { path: 'migrations/0001_initial.json', text: migration('0001_initial') },
        { path: 'migrations/0003_more.json', text: migration('0003_more') },
      ],
      /^migrations\/0003_more\.json: migrations must be numbered 0001, 0002, … without gaps$/,
    ],
    [
      'an operation on an unknown table',
      [
        {
          path: 'migrations/0001_initial.json',
          text: migration('0001_initial', [{ op: 'dropColumn', table: 'gone', columnName: 'x' }]),
        },
      ],
      /^models: migration refers to unknown table 'gone'$/,
    ],
  ])('refuse %s, writing nothing', async (_name, migrations, message) => {
    const result = await run(migrations);
    expect(result.files.size).toBe(0);
    expect(result.errors).toEqual([expect.stringMatching(message)]);
  });

  it('are read in file-name order, and one generated earlier comes back byte for byte', async () => {
    const first = await run([]);
    const initial = first.files.get('migrations/0001_initial.json')!;
    const extra = migration('0002_shop_item_add_column_b', [
      { op: 'addColumn', table: 'shop_item', column: int('b', { nullable: true }) },
    ]);
    // The models no longer have `b`: a third migration drops it; the first two stay as given.
    const result = await run([
      { path: 'migrations/0002_shop_item_add_column_b.json', text: extra },
      { path: 'migrations/0001_initial.json', text: initial },
    ]);
    expect(result.errors).toEqual([]);
    expect([...result.files.keys()].filter((f) => f.startsWith('migrations/'))).toEqual([
      'migrations/0001_initial.json',
      'migrations/0002_shop_item_add_column_b.json',
      'migrations/0003_shop_item_drop_column_b.json',
    ]);
    expect(result.files.get('migrations/0001_initial.json')).toBe(initial);
  });
});
