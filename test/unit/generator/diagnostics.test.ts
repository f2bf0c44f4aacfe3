import { describe, expect, it } from 'vitest';
import { errorsOf, pathsOf, resolveFiles, shop } from './model-files.js';

/**
 * The model language's diagnostics, table-driven: each broken model file gives exactly the one error that
 * names its file and the dotted path of the node at fault (beyond test/generator/validate.test.ts).
 */

const ITEM = `  item:
    path: items
    fields:
      name: { type: string, max_length: 50 }
`;

/** The `item` model with one more line under its `fields:`, or with more keys of its own. */
const withField = (line: string): string => shop(`${ITEM}      ${line}\n`);
const withModelKey = (yaml: string): string => shop(`${ITEM}    ${yaml.replace(/\n/g, '\n    ')}\n`);
const E = (at: string, message: string): string => `models/shop.yaml: models.item.${at}: ${message}`;

describe('schema errors (ajv)', () => {
  it.each([
    [
      'an app name with a hyphen',
      shop(ITEM).replace('app: shop', 'app: my-shop'),
      'models/shop.yaml: app: must match pattern "^[a-z][a-z0-9_]*$"',
    ],
    ['no models', 'app: shop\nmodels: {}\n', 'models/shop.yaml: models: must NOT have fewer than 1 properties'],
    [
      'a model without fields',
      shop('  item:\n    path: items\n'),
      "models/shop.yaml: models.item: missing property 'fields'",
    ],
    [
      'an unknown feature',
      withModelKey('features: [tags, colours]'),
      'models/shop.yaml: models.item.features.1: must be one of "tags", "custom_fields", "change_logging", "events", "image_attachments", "contacts", "journaling", "bookmarks"',
    ],
    [
      'a repeated feature',
      withModelKey('features: [tags, tags]'),
      'models/shop.yaml: models.item.features: must NOT have duplicate items (items ## 0 and 1 are identical)',
    ],
    [
      'a function without a module',
      withModelKey('validators: [validateItem]'),
      'models/shop.yaml: models.item.validators.0: must match pattern "^[a-z][a-zA-Z0-9_]*\\.[a-z][a-zA-Z0-9]*$"',
    ],
    [
      'a display that is neither text nor a function',
      withModelKey('display: 5'),
      'models/shop.yaml: models.item.display: does not match any of the allowed forms',
    ],
    [
      'a filter of no known form',
      withModelKey('filters:\n  x: { path: name, op: exact }'),
      'models/shop.yaml: models.item.filters.x: does not match any of the allowed forms',
    ],
    [
      'a choice that is not a pair',
      shop(ITEM, 'choices:\n  colour: [[red]]\n'),
      'models/shop.yaml: choices.colour.0: must NOT have fewer than 2 items',
    ],
    [
      'a negative max_length',
      withField('code: { type: string, max_length: 0 }'),
      'models/shop.yaml: models.item.fields.code.max_length: must be >= 1',
    ],
    [
      'an unknown on_delete',
      withField('box: { type: fk, to: shop.item, on_delete: restrict }'),
      'models/shop.yaml: models.item.fields.box.on_delete: must be one of "cascade", "protect", "set_null", "do_nothing"',
    ],
    ['an unknown key at the top', `${shop(ITEM)}colour: red\n`, "models/shop.yaml: unknown property 'colour'"],
  ])('%s', (_name, yaml, expected) => {
    expect(pathsOf(yaml)).toEqual([expected]);
  });
});

describe('field errors', () => {
  it.each([
    [
      'a property of another field type',
      'flag: { type: boolean, max_length: 5 }',
      E('fields.flag.max_length', 'not allowed on a field of type boolean'),
    ],
    [
      'an invalid pattern',
      "code: { type: string, max_length: 5, pattern: '(' }",
      E('fields.code.pattern', 'not a valid regular expression'),
    ],
    [
      'a decimal without digits',
      'price: { type: decimal }',
      E('fields.price', "a decimal field needs 'max_digits' and 'decimal_places'"),
    ],
    [
      'a date default other than now',
      'day: { type: date, default: "2024-01-01" }',
      E('fields.day.default', "only 'now' is supported"),
    ],
    ['an fk without a target', 'box: { type: fk }', E('fields.box.to', "missing property 'to'")],
    [
      'an fk default other than the requesting user',
      'box: { type: fk, to: shop.item, default: 1 }',
      E('fields.box.default', "only 'current_user' is supported (the requesting user, on an FK to users)"),
    ],
    [
      'do_nothing on an fk',
      'box: { type: fk, to: shop.item, on_delete: do_nothing }',
      E('fields.box.on_delete', 'do_nothing is for generic relations only'),
    ],
    [
      'an m2m to an unknown model',
      'boxes: { type: m2m, to: shop.box }',
      E('fields.boxes.to', "unknown model 'shop.box'"),
    ],
    [
      'types and feature together',
      'kind: { type: content_type, types: [shop.item], feature: tags }',
      E('fields.kind.types', "give either 'types' or 'feature'"),
    ],
    [
      'a content type of an unknown model',
      'kind: { type: content_type, types: [shop.box] }',
      E('fields.kind.types', "unknown model 'shop.box'"),
    ],
    [
      'an ip_family of a string',
      'family: { type: ip_family, of: name }',
      E('fields.family.of', "'name' is not an IP field"),
    ],
    [
      'an alias of an unknown field',
      'title: { type: alias, of: nope }',
      E('fields.title.of', "'nope' is not a stored field"),
    ],
    [
      'an image without a folder',
      'photo: { type: image }',
      E('fields.photo.upload_to', "missing property 'upload_to'"),
    ],
    [
      'an image size in a writable field',
      'photo: { type: image, upload_to: photos, size_field: name }',
      E('fields.photo.size_field', "'name' is not a read-only integer field"),
    ],
    [
      'an image name from an unknown field',
      "photo: { type: image, upload_to: photos, file_name: '{nope|file}' }",
      E('fields.photo.file_name', "'nope' is not a stored field"),
    ],
    [
      'a computed field without a function',
      'total: { type: computed }',
      E('fields.total.function', "missing property 'function'"),
    ],
    [
      'a derived field without a function',
      'total: { type: derived, uses: [name] }',
      E('fields.total.function', "missing property 'function'"),
    ],
    [
      'a derived field without uses',
      'total: { type: derived, function: shop.total }',
      E('fields.total.uses', "missing property 'uses'"),
    ],
    [
      'a derived field using an unknown field',
      'total: { type: derived, function: shop.total, uses: [name, nope] }',
      E('fields.total.uses', "unknown field 'nope'"),
    ],
    [
      'a derived field using an unstored field',
      'total: { type: derived, function: shop.total, uses: [size] }\n      size: { type: constant, value: 1 }',
      E('fields.total.uses', "field 'size' is not stored"),
    ],
    [
      'a derived field following a string',
      'total: { type: derived, function: shop.total, uses: [name.size] }',
      E('fields.total.uses', "'name' in 'name.size' is not an fk"),
    ],
    [
      'a derived field following an fk to an unknown field',
      'total: { type: derived, function: shop.total, uses: [up.nope] }\n      up: { type: fk, to: shop.item }',
      E('fields.total.uses', "unknown field 'nope' in 'up.nope'"),
    ],
    [
      'a unique m2m',
      'boxes: { type: m2m, to: shop.item, unique: true }',
      E('fields.boxes.unique', 'only stored fields can be unique'),
    ],
    [
      'a default outside the choice set',
      'colour: { type: choice, choices: colour, default: blue }',
      E('fields.colour.default', "'blue' is not in choice set 'colour'"),
    ],
  ])('%s', (_name, line, expected) => {
    const yaml = line.includes('choices: colour')
      ? shop(`${ITEM}      ${line}\n`, 'choices:\n  colour: [[red, Red]]\n')
      : withField(line);
    expect(pathsOf(yaml)).toEqual([expected]);
  });

  it('checks both ends of a generic relation', () => {
    const yaml = withField('owner: { type: generic_fk, type_field: name, id_field: name, types: [shop.item] }');
    expect(pathsOf(yaml)).toEqual([
      E('fields.owner.type_field', "'name' is not a content_type field"),
      E('fields.owner.id_field', "'name' is not an integer field"),
    ]);
    const mismatch = shop(`${ITEM}      owner_type: { type: content_type, types: [shop.item, shop.box] }
      owner_id: { type: bigint }
      owner: { type: generic_fk, types: [shop.item] }
  box:
    fields:
      name: { type: string, max_length: 5 }
`);
    expect(pathsOf(mismatch)).toEqual([E('fields.owner.types', "the types must equal those of 'owner_type'")]);
    expect(pathsOf(withField('owner: { type: generic_fk }'))).toContain(
      E('fields.owner.types', "missing property 'types' (or 'feature')"),
    );
  });

  it('checks what moved_from names: a stored field, a generic relation to the model and its FK back', () => {
    const yaml = (moved: string): string =>
      shop(`${ITEM}      label_type: { type: content_type, types: [shop.box], nullable: true }
      label_id: { type: bigint, nullable: true }
      label: { type: generic_fk, type_field: label_type, id_field: label_id, types: [shop.box] }
    moved_from:
      - ${moved}
  box:
    fields:
      name: { type: string, max_length: 5 }
      item: { type: fk, to: shop.item, nullable: true }
`);
    expect(pathsOf(yaml('{ model: shop.box, column: old, field: name, assign: label, link: item }'))).toEqual([]);
    expect(pathsOf(yaml('{ model: shop.crate, column: old, field: name, assign: label, link: item }'))).toEqual([
      E('moved_from.0.model', "unknown model 'shop.crate'"),
    ]);
    expect(pathsOf(yaml('{ model: shop.box, column: old, field: label, assign: name, link: name }'))).toEqual([
      E('moved_from.0.field', "'label' is not a stored field of shop.item"),
    ]);
    expect(pathsOf(yaml('{ model: shop.box, column: old, field: name, assign: name, link: item }'))).toEqual([
      E('moved_from.0.assign', "'name' is not a generic relation that may point at shop.box"),
    ]);
    expect(pathsOf(yaml('{ model: shop.box, column: old, field: name, assign: label, link: name }'))).toEqual([
      E('moved_from.0.link', "'shop.box.name' is not an fk to shop.item"),
    ]);
  });

  it('checks that reverse_of names a forward many-to-many field to this model', () => {
    const yaml = (reverse: string): string =>
      shop(`${ITEM}      boxes: { type: m2m, to: shop.box }
  box:
    fields:
      items: { type: m2m, to: shop.item, reverse_of: ${reverse} }
`);
    expect(pathsOf(yaml('shop.item.boxes'))).toEqual([]);
    expect(pathsOf(yaml('shop.item.name'))).toEqual([
      "models/shop.yaml: models.box.fields.items.reverse_of: 'shop.item.name' is not a many-to-many field to 'shop.box'",
    ]);
    expect(pathsOf(yaml('shop.item.nope'))).toHaveLength(1);
  });
});

describe('model errors', () => {
  it.each([
    [
      'a tree without a parent',
      'tree: true',
      [E('tree', "a tree model needs a nullable field 'parent' of type fk to 'shop.item'")],
    ],
    [
      'a tree with its own ordering',
      'fields:\n  parent: { type: fk, to: shop.item, nullable: true }\ntree: true\nordering: [name]',
      [E('ordering', 'tree models are ordered by the tree')],
    ],
    ['an ordering by an unknown field', 'ordering: [-nope]', [E('ordering', "unknown field 'nope'")]],
    [
      'an ordering by the timestamps of a model without change logging',
      'ordering: [-created]',
      [E('ordering', "unknown field 'created'")],
    ],
    ['a display of an unknown field', 'display: nope', [E('display', "unknown field 'nope'")]],
    [
      'a display template naming an unknown field',
      "display: '{name} ({nope})'",
      [E('display', "unknown field 'nope'")],
    ],
    [
      'a display function following a non-fk',
      'display: { function: shop.show, uses: [name.id] }',
      [E('display.uses', "'name' in 'name.id' is not an fk")],
    ],
    [
      'a related object that is not a relation',
      'related_object: name',
      [E('related_object', "'name' is not a foreign key or generic relation")],
    ],
    ['an index of an unknown field', 'indexes: [[name, nope]]', [E('indexes.0', "unknown field 'nope'")]],
    [
      'a unique constraint on an unknown field',
      'unique_together:\n  - { fields: [name, nope] }',
      [E('unique_together.0', "unknown field 'nope'")],
    ],
    ['a brief key the model does not render', 'brief: [id, nope]', [E('brief', "unknown key 'nope'")]],
    [
      'display_url in a brief set',
      'brief: [id, display_url]',
      [E('brief', 'display_url is never part of a brief set')],
    ],
    ['an output without a field', 'output: [id, url, display]', [E('output', "missing 'name'")]],
    ['an output without id', 'output: [url, display, name]', [E('output', "missing 'id'")]],
    ['an output with an unknown key', 'output: [id, url, display, name, nope]', [E('output', "unknown 'nope'")]],
    ['a search of an unknown field', 'search: [nope]', [E('search', "unknown field 'nope'")]],
    [
      'a search of a number',
      'fields:\n  size: { type: integer }\nsearch: [size]',
      [E('search', "'size' is not a string or IP field")],
    ],
    ['a search through a non-fk', 'search: [name.x]', [E('search', "'name' is not an fk")]],
    [
      'a count of an unknown model',
      'counts:\n  box_count: { model: shop.box, field: item }',
      [E('counts.box_count.model', "unknown model 'shop.box'")],
    ],
    [
      'a count over a field that is no relation to the model',
      'counts:\n  item_count: { model: shop.item, field: name }',
      [E('counts.item_count.field', "'shop.item.name' is not a relation to 'shop.item'")],
    ],
    [
      'a cumulative count outside a tree',
      'fields:\n  up: { type: fk, to: shop.item, nullable: true }\ncounts:\n  sub_count: { model: shop.item, field: up, cumulative: true }',
      [E('counts.sub_count.cumulative', 'only tree models have cumulative counts')],
    ],
    [
      'a count named like a field',
      'fields:\n  up: { type: fk, to: shop.item, nullable: true }\ncounts:\n  name: { model: shop.item, field: up }',
      [E('counts.name', 'a field has the same name')],
    ],
    [
      'removing a filter that is not derived',
      'filters:\n  nope: false',
      [E('filters.nope', "no derived filter 'nope' to remove")],
    ],
    [
      'a network filter on a string',
      'filters:\n  inside: { network: name, op: within }',
      [E('filters.inside', "'name' is not an IP field")],
    ],
    [
      'a path filter through an unknown field',
      'filters:\n  x: { path: nope.name }',
      [E('filters.x', "'shop.item' has no field, query name or related name 'nope'")],
    ],
    [
      'a path filter through a non-fk',
      'filters:\n  x: { path: name.name }',
      [E('filters.x', "'name' on 'shop.item' is not a relation")],
    ],
    [
      'case_insensitive on a number',
      'fields:\n  size: { type: integer }\nfilters:\n  x: { path: size, case_insensitive: true }',
      [E('filters.x', 'case_insensitive and contains apply to string fields only')],
    ],
    [
      'a path filter by an unknown field of the target',
      'fields:\n  up: { type: fk, to: shop.item, nullable: true }\nfilters:\n  x: { path: up, by: code }',
      [E('filters.x', "unknown field 'code' on 'shop.item'")],
    ],
  ])('%s', (_name, yaml, expected) => {
    // `fields:` lines in the snippet add fields to the item model rather than a second `fields` key.
    const [, own = '', after = ''] = /^(?:fields:\n((?: {2}.*\n?)*))?([\s\S]*)$/.exec(yaml) ?? [];
    const source = shop(
      `${ITEM}${own.replace(/^ {2}/gm, '      ')}${after ? `    ${after.trim().replace(/\n/g, '\n    ')}\n` : ''}`,
    );
    expect(pathsOf(source)).toEqual(expected);
  });

  it('takes an app over several files, but each model, choice set and name once', () => {
    const other = `  box:\n    path: boxes\n    fields:\n      name: { type: string, max_length: 50 }\n`;
    const split = resolveFiles({ 'models/a.yaml': shop(ITEM), 'models/b.yaml': shop(other) });
    expect(split.errors).toEqual([]);
    expect(split.graph.apps.find((a) => a.name === 'shop')?.models).toEqual(['shop.box', 'shop.item']);
    const { errors } = resolveFiles({
      'models/a.yaml': shop(ITEM, 'verbose_name: Shop\nchoices:\n  c: [[x, X]]\n'),
      'models/b.yaml': shop(ITEM, 'verbose_name: Store\nchoices:\n  c: [[y, Y]]\n'),
    });
    expect(errors).toEqual([
      "models/b.yaml:4:3: choices.c: choice set 'shop.c' is already defined",
      "models/b.yaml:6:3: models.item: model 'shop.item' is already defined",
      "models/b.yaml:2:1: verbose_name: app 'shop' is named 'Shop' in models/a.yaml",
    ]);
  });
});

/**
 * DESIGN.md 6a: a diagnostic appears once. These nodes were reported twice: a name that breaks a pattern
 * (ajv's pattern error beside its propertyNames summary), and a missing `of` or an unknown display field
 * (the missing or unknown name checked again by a later pass).
 */
describe('model properties', () => {
  it("resolve private, open_view, and a change-logged model's timestamps in its ordering", () => {
    const { graph, errors } = resolveFiles({
      'models/shop.yaml': shop(
        `${ITEM}    private: true\n    open_view: true\n    features: [change_logging]\n    ordering: [-created]\n`,
      ),
    });
    expect(errors).toEqual([]);
    const item = graph.models.find((m) => m.label === 'shop.item')!;
    expect([item.private, item.openView, item.ordering]).toEqual([
      true,
      true,
      [{ field: 'created', descending: true }],
    ]);
  });
});

describe('shared objects', () => {
  it('need a stored boolean flag and a nullable foreign key', () => {
    expect(pathsOf(withModelKey('shared: { flag: name, user: owner }'))).toEqual([
      E('shared.flag', "'name' is not a stored boolean field"),
      E('shared.user', "'owner' is not a nullable foreign key"),
    ]);
  });
});

describe('each diagnostic appears once', () => {
  it.each([
    [
      'a model name with a capital',
      shop(ITEM.replace('item:', 'Item:')),
      "models/shop.yaml:3:3: models: invalid name 'Item'",
    ],
    [
      'a field name with a hyphen',
      withField('the-name: { type: integer }'),
      "models/shop.yaml:7:7: models.item.fields: invalid name 'the-name'",
    ],
    [
      'an ip_family without its field',
      withField('family: { type: ip_family }'),
      "models/shop.yaml:7:7: models.item.fields.family.of: missing property 'of'",
    ],
    [
      'an alias without its field',
      withField('title: { type: alias }'),
      "models/shop.yaml:7:7: models.item.fields.title.of: missing property 'of'",
    ],
    [
      'a display function using an unknown field',
      withModelKey('display: { function: shop.show, uses: [nope] }'),
      "models/shop.yaml:7:37: models.item.display.uses: unknown field 'nope'",
    ],
  ])('reports %s once', (_name, yaml, expected) => {
    expect(errorsOf(yaml)).toEqual([expected]);
  });

  it('reports a mistake in an anchored template once, at the template', () => {
    const yaml = `app: shop
templates:
  name: &name { type: string, max_lenght: 50 }
models:
  item:
    fields:
      name: *name
  box:
    fields:
      name: *name
`;
    expect(errorsOf(yaml)).toEqual(["models/shop.yaml:3:31: models.item.fields.name: unknown property 'max_lenght'"]);
  });

  it('gives two errors for two schema mistakes, and none from the files that use the broken one', () => {
    const errors = resolveFiles({
      'models/shop.yaml': shop(`${ITEM}      code: { type: strnig }
      size: { type: integer, max_lenght: 5 }
`),
      'models/store.yaml': `app: store
models:
  shelf:
    fields:
      name: { type: string, max_length: 50 }
      item: { type: fk, to: shop.item, on_delete: cascade }
`,
    }).errors;
    expect(errors).toEqual([
      expect.stringMatching(/^models\/shop\.yaml:7:15: models\.item\.fields\.code\.type: must be one of "string", /),
      "models/shop.yaml:8:30: models.item.fields.size: unknown property 'max_lenght'",
    ]);
  });
});

describe('YAML syntax errors', () => {
  it('name the file, the line and the column, once', () => {
    expect(errorsOf('app: shop\nmodels:\n  item:\n    fields: { name: [ }\n')).toEqual([
      expect.stringMatching(
        /^models\/shop\.yaml:4:23: Flow sequence in block collection must be sufficiently indented/,
      ),
    ]);
    expect(errorsOf('app: shop\napp: other\nmodels: {}\n')).toEqual([
      expect.stringMatching(/^models\/shop\.yaml:2:1: Map keys must be unique/),
    ]);
  });

  it('expand anchors and merge keys, so one template serves many fields', () => {
    const yaml = `app: shop
templates:
  name: &name { type: string, max_length: 50 }
  common: &common
    code: *name
models:
  item:
    fields:
      name: *name
      <<: *common
`;
    expect(pathsOf(yaml)).toEqual([]);
  });

  // DESIGN.md 6a / CONVENTIONS.md 6a: every diagnostic carries the YAML file:line:column of the node at
  // fault (the tables above check that each of their errors has one).
  it('name the line and column of a schema or semantic error', () => {
    expect(errorsOf(withField('flag: { type: boolean, max_length: 5 }'))).toEqual([
      'models/shop.yaml:7:30: models.item.fields.flag.max_length: not allowed on a field of type boolean',
    ]);
    expect(errorsOf(withField('colour: { type: strnig }'))).toEqual([
      expect.stringMatching(/^models\/shop\.yaml:7:17: models\.item\.fields\.colour\.type: must be one of /),
    ]);
    expect(errorsOf(withModelKey('ordering: [-nope]'))).toEqual([
      "models/shop.yaml:7:5: models.item.ordering: unknown field 'nope'",
    ]);
  });
});
