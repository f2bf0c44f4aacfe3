import { describe, expect, it } from 'vitest';
import { buildTables } from '../../../generator/tables.js';
import type { ColumnSpec, TableSpec } from '../../../runtime/spec.js';
import { resolveFiles, shop } from './model-files.js';

/** The database tables the generator derives from resolved models. */

function tablesOf(models: string, choices = ''): TableSpec[] {
  const { graph, errors } = resolveFiles({ 'models/shop.yaml': shop(models, choices) });
  expect(errors).toEqual([]);
  return buildTables(graph.models);
}

const tableOf = (models: string, name = 'shop_item', choices = ''): TableSpec =>
  tablesOf(models, choices).find((t) => t.name === name)!;

const column = (table: TableSpec, name: string): ColumnSpec | undefined => table.columns.find((c) => c.name === name);

describe('columns', () => {
  const CHOICES =
    'choices:\n  size: [[1, S], [2, L]]\n  colour: [[red, Red], [a-very-long-colour-name-beyond-fifty-characters-long, X]]\n  short: [[a, A]]\n';
  const table = tableOf(
    `  item:
    fields:
      name: { type: string, max_length: 30, natural: true }
      note: { type: text, blank: true }
      count: { type: integer, default: 3 }
      big: { type: bigint, nullable: true }
      price: { type: decimal, max_digits: 8, decimal_places: 3 }
      flag: { type: boolean, default: false }
      day: { type: date, nullable: true }
      seen: { type: datetime, default: now }
      data: { type: json, nullable: true }
      words: { type: list }
      kinds: { type: object_types }
      secret: { type: password }
      size: { type: choice, choices: size }
      colour: { type: choice, choices: colour }
      short: { type: choice, choices: short, blank: true }
      kind: { type: content_type }
      photo: { type: image, upload_to: photos }
      up: { type: fk, to: shop.item, nullable: true }
      fixed: { type: constant, value: 1 }
      boxes: { type: m2m, to: shop.item }
`,
    'shop_item',
    CHOICES,
  );

  it.each([
    ['name', { type: 'string', maxLength: 30 }, false, undefined],
    ['note', { type: 'text' }, false, ''],
    ['count', { type: 'integer' }, false, 3],
    ['big', { type: 'bigint' }, true, undefined],
    ['price', { type: 'decimal', precision: 8, scale: 3 }, false, undefined],
    ['flag', { type: 'boolean' }, false, false],
    ['day', { type: 'date' }, true, undefined],
    // `now` is applied on create by the runtime, not by the database.
    ['seen', { type: 'datetime' }, false, undefined],
    ['data', { type: 'json' }, true, undefined],
    ['words', { type: 'json' }, false, undefined],
    ['kinds', { type: 'json' }, false, undefined],
    ['secret', { type: 'string', maxLength: 128 }, false, undefined],
    ['size', { type: 'integer' }, false, undefined],
    ['colour', { type: 'string', maxLength: 52 }, false, undefined],
    ['short', { type: 'string', maxLength: 50 }, false, ''],
    ['kind', { type: 'string', maxLength: 100 }, false, undefined],
    ['photo', { type: 'string', maxLength: 100 }, false, undefined],
    ['up_id', { type: 'bigint' }, true, undefined],
  ])('%s', (name, type, nullable, dbDefault) => {
    const found = column(table, name);
    expect(found).toMatchObject({ name, column: type, nullable });
    expect(found?.default).toEqual(dbDefault);
  });

  it('adds a natural-sort key beside a natural string, and nothing for derived fields', () => {
    expect(column(table, 'name_natural')).toEqual({
      name: 'name_natural',
      column: { type: 'text' },
      nullable: false,
      default: '',
    });
    expect(column(table, 'fixed')).toBeUndefined();
    expect(column(table, 'boxes')).toBeUndefined();
    expect(column(table, 'id')).toBeUndefined(); // every table gets its id from the migration runner
  });

  it('references the target table from an fk and indexes it', () => {
    expect(column(table, 'up_id')?.references).toBe('shop_item.id');
    expect(table.indexes).toContainEqual({ name: 'shop_item_up_id_idx', columns: ['up_id'], unique: false });
  });
});

describe('IP fields', () => {
  it('store the text and a family, a range and a length, indexed for containment', () => {
    const table = tableOf(
      '  item:\n    fields:\n      net: { type: ip_network, nullable: true }\n      family: { type: ip_family, of: net }\n',
    );
    expect(table.columns).toEqual([
      { name: 'net', column: { type: 'string', maxLength: 64 }, nullable: true },
      { name: 'net_family', column: { type: 'integer' }, nullable: true },
      { name: 'net_start', column: { type: 'string', maxLength: 32 }, nullable: true },
      { name: 'net_end', column: { type: 'string', maxLength: 32 }, nullable: true },
      { name: 'net_len', column: { type: 'integer' }, nullable: true },
    ]);
    expect(table.indexes).toEqual([
      { name: 'shop_item_net_range_idx', columns: ['net_family', 'net_start', 'net_end'], unique: false },
    ]);
  });
});

describe('model features', () => {
  it('add tree, custom field and timestamp columns', () => {
    const table = tableOf(`  item:
    tree: true
    features: [custom_fields, change_logging, tags]
    fields:
      name: { type: string, max_length: 5 }
      parent: { type: fk, to: shop.item, nullable: true }
`);
    expect(table.columns.map((c) => c.name)).toEqual([
      'name',
      'parent_id',
      '_depth',
      '_path',
      'custom_field_data',
      'created',
      'last_updated',
    ]);
    expect(column(table, 'custom_field_data')).toMatchObject({ column: { type: 'json' }, default: {} });
    expect(table.indexes.map((i) => i.name)).toEqual(['shop_item__path_idx', 'shop_item_parent_id_idx']);
  });
});

describe('indexes', () => {
  it('make unique constraints unique indexes on the columns, partial or case-insensitive as declared', () => {
    const table = tableOf(`  item:
    fields:
      code: { type: string, max_length: 5, unique: true }
      up: { type: fk, to: shop.item, nullable: true, unique: true }
      name: { type: string, max_length: 5 }
      active: { type: boolean, default: false }
    unique_together:
      - { fields: [up, name], where_null: [code] }
      - { fields: [name], case_insensitive: true }
      - { fields: [up, name], case_insensitive: true, name: shop_item_up_lower_name }
      - { fields: [up], condition: { active: true, code: 'x' } }
      - { fields: [up, code], exclude: { code: '' } }
    indexes: [[name, up]]
`);
    expect(table.indexes).toEqual([
      { name: 'shop_item_code_key', columns: ['code'], unique: true },
      { name: 'shop_item_name_uniq', columns: ['name'], unique: true, lower: ['name'] },
      { name: 'shop_item_name_up_id_idx', columns: ['name', 'up_id'], unique: false },
      {
        name: 'shop_item_up_active_code_uniq',
        columns: ['up_id'],
        unique: true,
        whereEquals: { active: true, code: 'x' },
      },
      { name: 'shop_item_up_code_code_uniq', columns: ['up_id', 'code'], unique: true, whereNotEquals: { code: '' } },
      { name: 'shop_item_up_key', columns: ['up_id'], unique: true },
      { name: 'shop_item_up_lower_name', columns: ['up_id', 'name'], unique: true, lower: ['name'] },
      { name: 'shop_item_up_name_code_uniq', columns: ['up_id', 'name'], unique: true, whereNull: ['code'] },
    ]);
  });

  it('shorten names beyond PostgreSQL’s 63 characters with a stable hash', () => {
    const long = 'a_rather_long_field_name_that_goes_on';
    const table = tableOf(
      `  itemwithalongname:\n    fields:\n      ${long}: { type: fk, to: shop.itemwithalongname }\n`,
      'shop_itemwithalongname',
    );
    const [index] = table.indexes;
    expect(index!.name).toHaveLength(63);
    expect(index!.name).toMatch(/^shop_itemwithalongname_a_rather_long_field_name_that_go_[0-9a-z]{7}$/);
    expect(
      tableOf(
        `  itemwithalongname:\n    fields:\n      ${long}: { type: fk, to: shop.itemwithalongname }\n`,
        'shop_itemwithalongname',
      ).indexes[0]!.name,
    ).toBe(index!.name);
  });
});

describe('join tables and order', () => {
  const tables = tablesOf(`  zeta:
    fields:
      betas: { type: m2m, to: shop.beta }
  alpha:
    fields:
      beta: { type: fk, to: shop.beta }
  beta:
    fields:
      zetas: { type: m2m, to: shop.zeta, reverse_of: shop.zeta.betas }
      own: { type: fk, to: shop.beta, nullable: true }
`);

  it('creates one join table per forward many-to-many field, with a unique pair and an index on the target', () => {
    const through = tables.find((t) => t.name === 'shop_zeta_betas');
    expect(through).toEqual({
      name: 'shop_zeta_betas',
      columns: [
        { name: 'from_id', column: { type: 'bigint' }, nullable: false, references: 'shop_zeta.id' },
        { name: 'to_id', column: { type: 'bigint' }, nullable: false, references: 'shop_beta.id' },
      ],
      indexes: [
        { name: 'shop_zeta_betas_pair_uniq', columns: ['from_id', 'to_id'], unique: true },
        { name: 'shop_zeta_betas_to_idx', columns: ['to_id'], unique: false },
      ],
    });
    expect(tables.filter((t) => t.name.startsWith('shop_beta_'))).toEqual([]);
  });

  it('lists referenced tables before the tables that reference them (self references aside)', () => {
    expect(tables.map((t) => t.name)).toEqual(['shop_beta', 'shop_alpha', 'shop_zeta', 'shop_zeta_betas']);
  });
});
