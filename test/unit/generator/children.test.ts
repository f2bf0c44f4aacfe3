import { describe, expect, it } from 'vitest';
import { errorsOf, fieldOf, modelOf, pathsOf, shop } from './model-files.js';

/**
 * The `children` field kind (a writable inline list of another model's rows, e.g. a front port's `rear_ports`
 * over its port mappings): what it resolves to, and the diagnostics at the YAML node at fault.
 */

/** A `box` with a child list `slots` over the `slot` model; `field` replaces the list's definition. */
const boxes = (field: string, slot = ''): string =>
  shop(`  box:
    path: boxes
    fields:
      name: { type: string, max_length: 50 }
      size: { type: integer, default: 1, min_value: 1 }
      slots: ${field}
  thing:
    path: things
    fields:
      name: { type: string, max_length: 50 }
  slot:
    path: null
    features: [change_logging]
    fields:
      box: { type: fk, to: shop.box, on_delete: cascade, related_name: slots_of }
      position: { type: integer, default: 1, min_value: 1 }
      thing: { type: fk, to: shop.thing, on_delete: cascade }
      note: { type: string, max_length: 20, blank: true }
${slot}`);

const VALID =
  '{ type: children, model: shop.slot, parent: box, keys: { position: position, thing: thing, note: note } }';
const E = (at: string, message: string): string => `models/shop.yaml: models.box.fields.slots.${at}: ${message}`;

describe('children fields', () => {
  it('resolve to the child model, its parent FK, the keys in order and the identity (the first key)', () => {
    const field = fieldOf(modelOf(boxes(VALID), 'shop.box'), 'slots');
    expect(field).toMatchObject({
      kind: 'children',
      model: 'shop.slot',
      parent: 'box',
      keys: [
        { key: 'position', field: 'position' },
        { key: 'thing', field: 'thing' },
        { key: 'note', field: 'note' },
      ],
      identity: 'position',
      required: false,
      readOnly: false,
    });
    expect(field.column).toBeUndefined();
  });

  it('take another identity and a bound on the count', () => {
    const field = fieldOf(
      modelOf(
        boxes(
          '{ type: children, model: shop.slot, parent: box, keys: { at: position, thing: thing }, identity: thing, count_within: size, count_message: "At most {count}" }',
        ),
        'shop.box',
      ),
      'slots',
    );
    expect(field).toMatchObject({ identity: 'thing', countWithin: { field: 'size', message: 'At most {count}' } });
  });

  it.each([
    [
      'an unknown model',
      '{ type: children, model: shop.nope, parent: box, keys: { p: position } }',
      [E('model', "unknown model 'shop.nope'")],
    ],
    [
      'a parent that is not an FK to the owner',
      '{ type: children, model: shop.slot, parent: thing, keys: { p: position } }',
      [E('parent', "'thing' is not a foreign key of 'shop.slot' to 'shop.box'")],
    ],
    [
      'a key naming no field of the child',
      '{ type: children, model: shop.slot, parent: box, keys: { p: nope } }',
      [E('keys.p', "'shop.slot' has no field 'nope'")],
    ],
    [
      'the parent FK as a key',
      '{ type: children, model: shop.slot, parent: box, keys: { p: box } }',
      [E('keys.p', "'box' of 'shop.slot' cannot be an item key (a stored value or foreign key)")],
    ],
    [
      'an identity that is no key',
      '{ type: children, model: shop.slot, parent: box, keys: { p: position }, identity: q }',
      [E('identity', "'q' is not one of the keys")],
    ],
    [
      'a bound without its message',
      '{ type: children, model: shop.slot, parent: box, keys: { p: position }, count_within: size }',
      [E('count_within', "'count_within' and 'count_message' go together")],
    ],
    [
      'a bound that is not an integer field',
      '{ type: children, model: shop.slot, parent: box, keys: { p: position }, count_within: name, count_message: x }',
      [E('count_within', "'name' is not an integer field of the model")],
    ],
  ])('report %s', (_name, field, expected) => {
    expect(pathsOf(boxes(field))).toEqual(expected);
  });

  it('report the YAML line and column of the node at fault', () => {
    expect(errorsOf(boxes('{ type: children, model: shop.slot, parent: box, keys: { p: nope } }'))).toEqual([
      "models/shop.yaml:8:71: models.box.fields.slots.keys.p: 'shop.slot' has no field 'nope'",
    ]);
  });

  it('are checked by the schema: keys name identifiers', () => {
    expect(pathsOf(boxes('{ type: children, model: shop.slot, parent: box, keys: {} }'))).toEqual([
      'models/shop.yaml: models.box.fields.slots.keys: must NOT have fewer than 1 properties',
    ]);
  });
});
