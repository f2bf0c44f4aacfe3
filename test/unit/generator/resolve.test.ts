import { describe, expect, it } from 'vitest';
import { readableKeys } from '../../../generator/resolve.js';
import { fieldOf, modelOf, resolveFiles, shop } from './model-files.js';

/** What the resolver derives from a model's YAML: the facts the emitters and the runtime rely on. */

/** The `item` model with these fields (and model keys `extra`); a choice set `c` is there to use. */
const item = (fields: string, extra = ''): string =>
  shop(
    `  item:\n    path: items\n${extra}    fields:\n${fields.replace(/^/gm, '      ')}\n`,
    'choices:\n  c: [[x, X]]\n',
  );
const itemModel = (fields: string, extra = '') => modelOf(item(fields, extra), 'shop.item');

describe('required fields', () => {
  it.each([
    ['a plain string', '{ type: string, max_length: 5 }', true],
    ['a nullable string', '{ type: string, max_length: 5, nullable: true }', false],
    ['a blank string', '{ type: string, max_length: 5, blank: true }', false],
    ['a string with a default', '{ type: string, max_length: 5, default: x }', false],
    ['a read-only integer', '{ type: integer, read_only: true }', false],
    ['a hidden integer', '{ type: integer, hidden: true }', false],
    ['an unstored integer', '{ type: integer, stored: false }', false],
    ['an explicit override', '{ type: integer, nullable: true, required: true }', true],
    ['a many-to-many field', '{ type: m2m, to: shop.item }', false],
    ['an fk', '{ type: fk, to: shop.item }', true],
    ['a boolean without default', '{ type: boolean }', true],
  ])('%s → %s', (_name, def, required) => {
    expect(fieldOf(itemModel(`x: ${def}`), 'x').required).toBe(required);
  });
});

describe('field defaults', () => {
  it('gives blank strings and blank choices an empty default', () => {
    const model = itemModel(
      'a: { type: string, max_length: 5, blank: true }\nb: { type: choice, choices: c, blank: true }\nc: { type: string, max_length: 5, blank: true, nullable: true }',
      '',
    );
    expect(fieldOf(model, 'a').default).toBe('');
    expect(fieldOf(model, 'b').default).toBe('');
    expect(fieldOf(model, 'c')).not.toHaveProperty('default');
  });

  it('gives string kinds their implicit lengths and formats', () => {
    const model = itemModel(
      [
        'colour: { type: color }',
        'mail: { type: email }',
        'link: { type: url }',
        'zone: { type: timezone }',
        'note: { type: text }',
        'plain: { type: slug, max_length: 9 }',
        'wide: { type: slug, max_length: 9, unicode: true }',
      ].join('\n'),
    );
    const facts = model.fields.map((f) => (f.kind === 'string' ? [f.name, f.format, f.maxLength ?? null] : null));
    expect(facts).toEqual([
      ['colour', 'color', 6],
      ['mail', 'email', 254],
      ['link', 'url', 200],
      ['zone', 'timezone', 63],
      ['note', 'text', null],
      ['plain', 'slug', 9],
      ['wide', 'unicode-slug', 9],
    ]);
  });

  it('makes passwords write-only and derived fields read-only and unstored', () => {
    const model = itemModel(
      [
        'secret: { type: password }',
        'net: { type: ip_network }',
        'family: { type: ip_family, of: net }',
        'kind: { type: constant, value: x }',
        'size: { type: computed, function: shop.size }',
        'label: { type: alias, of: secret }',
        'shown: { type: derived, function: shop.shown, uses: [net, up.net], schema: { type: string } }',
        'up: { type: fk, to: shop.item, nullable: true }',
      ].join('\n'),
    );
    expect(fieldOf(model, 'secret')).toMatchObject({ writeOnly: true, readOnly: false, maxLength: 128 });
    expect(fieldOf(model, 'net')).toMatchObject({ column: 'net', allowZero: false, required: true });
    // The family lives in the IP field's hidden family column.
    expect(fieldOf(model, 'family')).toMatchObject({ column: 'net_family', readOnly: true, required: false });
    for (const name of ['kind', 'size', 'label', 'shown']) {
      expect(fieldOf(model, name), name).toMatchObject({ readOnly: true, required: false });
      expect(fieldOf(model, name), name).not.toHaveProperty('column');
    }
    expect(fieldOf(model, 'kind')).toMatchObject({ value: 'x', schema: {} });
    expect(fieldOf(model, 'size')).toMatchObject({ function: 'shop.size', excludable: false });
    expect(fieldOf(model, 'shown')).toMatchObject({
      kind: 'derived',
      function: 'shop.shown',
      uses: ['net', 'up.net'],
      schema: { type: 'string' },
    });
  });

  it('names fk columns <name>_id unless a column is given, and defaults on_delete by nullability', () => {
    const model = itemModel(
      'up: { type: fk, to: shop.item }\nside: { type: fk, to: shop.item, nullable: true }\nold: { type: fk, to: shop.item, column: legacy_id, on_delete: protect }',
    );
    expect(fieldOf(model, 'up')).toMatchObject({ column: 'up_id', onDelete: 'cascade', target: 'shop.item' });
    expect(fieldOf(model, 'side')).toMatchObject({ column: 'side_id', onDelete: 'set_null' });
    expect(fieldOf(model, 'old')).toMatchObject({ column: 'legacy_id', onDelete: 'protect' });
  });

  it('labels fields from their names unless a label is given', () => {
    const model = itemModel(
      'time_zone: { type: timezone }\n_hidden: { type: integer, hidden: true }\nrd: { type: integer, label: Route distinguisher }',
    );
    expect(model.fields.map((f) => f.label)).toEqual(['Time zone', 'Hidden', 'Route distinguisher']);
  });
});

describe('many-to-many join tables', () => {
  it('name the join table after the owning field; the reverse side shares it with the columns swapped', () => {
    const yaml = shop(`  item:
    fields:
      boxes: { type: m2m, to: shop.box }
  box:
    fields:
      items: { type: m2m, to: shop.item, reverse_of: shop.item.boxes }
`);
    const { graph, errors } = resolveFiles({ 'models/shop.yaml': yaml });
    expect(errors).toEqual([]);
    const [box, itemSpec] = graph.models;
    expect(fieldOf(itemSpec!, 'boxes')).toMatchObject({
      through: 'shop_item_boxes',
      fromColumn: 'from_id',
      toColumn: 'to_id',
    });
    expect(fieldOf(box!, 'items')).toMatchObject({
      through: 'shop_item_boxes',
      fromColumn: 'to_id',
      toColumn: 'from_id',
      reverseOf: 'shop.item.boxes',
    });
  });
});

describe('content types and generic relations', () => {
  const yaml = shop(`  item:
    path: items
    features: [tags]
    fields:
      any_type: { type: content_type }
      tagged_type: { type: content_type, feature: tags }
      owner_type: { type: content_type, types: [shop.item, shop.box] }
      owner_id: { type: bigint, nullable: true }
      owner: { type: generic_fk, types: [shop.box, shop.item] }
  box:
    path: boxes
    fields:
      name: { type: string, max_length: 5 }
  hidden:
    fields:
      name: { type: string, max_length: 5 }
`);

  it('allow every model with an endpoint by default, or the models with a feature, or the listed ones (sorted)', () => {
    const model = modelOf(yaml, 'shop.item');
    expect(fieldOf(model, 'any_type')).toMatchObject({ targets: ['shop.box', 'shop.item'] });
    expect(fieldOf(model, 'tagged_type')).toMatchObject({ targets: ['shop.item'] });
    expect(fieldOf(model, 'owner')).toMatchObject({
      typeField: 'owner_type',
      idField: 'owner_id',
      targets: ['shop.box', 'shop.item'],
      onDelete: 'cascade',
      required: false,
    });
  });

  it('list generic relations among the reverse relations of their targets', () => {
    const box = modelOf(yaml, 'shop.box');
    expect(box.reverse).toEqual([{ model: 'shop.item', field: 'owner', onDelete: 'cascade', generic: true }]);
  });

  it('leave out do_nothing relations, which outlive their targets', () => {
    const box = modelOf(
      yaml.replace('types: [shop.box, shop.item] }', 'types: [shop.box, shop.item], on_delete: do_nothing }'),
      'shop.box',
    );
    expect(box.reverse).toEqual([]);
  });
});

describe('model facts', () => {
  it('derive names from the verbose name', () => {
    const model = itemModel('name: { type: string, max_length: 5 }', '    verbose_name: tenant group\n');
    expect(model).toMatchObject({
      className: 'TenantGroup',
      verboseName: 'tenant group',
      verboseNamePlural: 'tenant groups',
      table: 'shop_item',
      path: 'items',
      readOnly: false,
    });
    const named = itemModel(
      'name: { type: string, max_length: 5 }',
      '    verbose_name: VRF\n    verbose_name_plural: VRFs\n    class_name: VRF\n',
    );
    expect(named).toMatchObject({ className: 'VRF', verboseNamePlural: 'VRFs' });
  });

  it.each([
    ['a name field', 'name: { type: string, max_length: 5 }', '', { kind: 'field', field: 'name' }],
    ['no name field', 'code: { type: string, max_length: 5 }', '', { kind: 'field', field: 'id' }],
    ['a field', 'code: { type: string, max_length: 5 }', '    display: code\n', { kind: 'field', field: 'code' }],
    [
      'a template',
      'a: { type: integer }\nb: { type: integer }',
      "    display: '{a}[ ({b})]'\n",
      { kind: 'template', template: '{a}[ ({b})]', uses: ['a', 'b'] },
    ],
    [
      'a function',
      'up: { type: fk, to: shop.item }',
      '    display: { function: shop.show, uses: [up.up.id, id] }\n',
      { kind: 'function', function: 'shop.show', uses: ['up.up.id', 'id'] },
    ],
  ])('display by %s', (_name, fields, extra, display) => {
    expect(itemModel(fields, extra).display).toEqual(display);
  });

  it('order by id unless told otherwise, and trees by the tree', () => {
    expect(itemModel('a: { type: integer }').ordering).toEqual([{ field: 'id', descending: false }]);
    expect(itemModel('a: { type: integer }', '    ordering: [-a, { field: id, nulls: first }]\n').ordering).toEqual([
      { field: 'a', descending: true },
      { field: 'id', descending: false, nullsFirst: true },
    ]);
    const tree = itemModel(
      'name: { type: string, max_length: 5 }\nparent: { type: fk, to: shop.item, nullable: true }',
      '    tree: true\n',
    );
    expect(tree.ordering).toEqual([]);
  });

  it('name unique constraints and word their messages as Django does', () => {
    const model = itemModel(
      [
        'code: { type: string, max_length: 5, unique: true, label: Asset tag }',
        'a: { type: integer }',
        'b: { type: integer }',
        'up: { type: fk, to: shop.item, nullable: true }',
      ].join('\n'),
      [
        '    verbose_name: widget',
        '    unique_together:',
        '      - { fields: [a, b] }',
        '      - { fields: [a], where_null: [up] }',
        '      - { name: shop_named, fields: [b], case_insensitive: true, message: Taken. }',
        '',
      ].join('\n'),
    );
    expect(model.uniques).toEqual([
      {
        name: 'shop_item_code_key',
        fields: ['code'],
        whereNull: [],
        caseInsensitive: false,
        message: 'widget with this asset tag already exists.',
        errorKey: 'code',
      },
      {
        name: 'shop_item_a_b_uniq',
        fields: ['a', 'b'],
        whereNull: [],
        caseInsensitive: false,
        message: 'Widget with this A and B already exists.',
        errorKey: '__all__',
      },
      {
        name: 'shop_item_a_up_uniq',
        fields: ['a'],
        whereNull: ['up'],
        caseInsensitive: false,
        message: 'Constraint “shop_item_a_up_uniq” is violated.',
        errorKey: '__all__',
      },
      { name: 'shop_named', fields: ['b'], whereNull: [], caseInsensitive: true, message: 'Taken.', errorKey: 'b' },
    ]);
  });

  it('render header, fields, tags, custom fields, timestamps, counts and depth, in that order', () => {
    const model = itemModel(
      [
        'name: { type: string, max_length: 5 }',
        'secret: { type: password }',
        'internal: { type: integer, hidden: true }',
        'parent: { type: fk, to: shop.item, nullable: true }',
      ].join('\n'),
      '    tree: true\n    features: [custom_fields, tags, change_logging]\n    counts:\n      child_count: { model: shop.item, field: parent, cumulative: true }\n',
    );
    const expected = [
      ...['id', 'url', 'display_url', 'display', 'name', 'parent', 'tags', 'custom_fields'],
      ...['created', 'last_updated', 'child_count', '_depth'],
    ];
    expect(model.output).toEqual(expected);
    expect(readableKeys(model)).toEqual(expected);
    expect(model.features).toEqual(['change_logging', 'custom_fields', 'tags']);
    expect(model.counts).toEqual([
      { name: 'child_count', model: 'shop.item', field: 'parent', cumulative: true, nested: 'omit' },
    ]);
  });

  it('may render id as a string, and leave display out of an explicit output (NetBox’s RQ tasks)', () => {
    const model = itemModel(
      'name: { type: string, max_length: 5 }',
      '    string_id: true\n    output: [id, url, name]\n',
    );
    expect(model).toMatchObject({ stringId: true, output: ['id', 'url', 'name'] });
    expect(itemModel('name: { type: string, max_length: 5 }')).not.toHaveProperty('stringId');
  });

  it('take id, url, display and whichever of name, slug and description exist as the brief set', () => {
    expect(
      itemModel('slug: { type: slug, max_length: 5 }\ndescription: { type: string, max_length: 5 }').brief,
    ).toEqual(['id', 'url', 'display', 'slug', 'description']);
    const model = itemModel('name: { type: string, max_length: 5 }', '    brief: [id, name]\n');
    expect(model.brief).toEqual(['id', 'name']);
    // The nested set defaults to the brief one.
    expect(model.nested).toEqual(['id', 'name']);
  });

  it('is frozen, with models sorted by label and apps by name', () => {
    const { graph } = resolveFiles({
      'models/z.yaml':
        'app: zoo\nmodels:\n  b:\n    fields: { x: { type: integer } }\n  a:\n    fields: { x: { type: integer } }\n',
      'models/a.yaml': 'app: art\nverbose_name: Art works\nmodels:\n  c:\n    fields: { x: { type: integer } }\n',
    });
    expect(graph.models.map((m) => m.label)).toEqual(['art.c', 'zoo.a', 'zoo.b']);
    expect(graph.apps).toEqual([
      { name: 'art', verboseName: 'Art works', models: ['art.c'] },
      { name: 'zoo', verboseName: 'Zoo', models: ['zoo.a', 'zoo.b'] },
    ]);
    expect(graph.sources.get('zoo.a')).toBe('models/z.yaml');
    expect(Object.isFrozen(graph.models[0]!.fields[0])).toBe(true);
    expect(() => (graph.models as unknown as unknown[]).push(1)).toThrow(TypeError);
  });
});
