import { describe, expect, it } from 'vitest';
import { deepMerge, validateConfigContext, validateLocalContextData } from '../../../runtime/domain/extras.js';
import { errorsAfter, runNamed, writeItem } from './write-item.js';

/** Config contexts, custom field definitions and choice sets. */

describe('deepMerge (NetBox utilities.data.deepmerge)', () => {
  it.each([
    ['disjoint keys', { a: 1 }, { b: 2 }, { a: 1, b: 2 }],
    ['a scalar replaced', { a: 1 }, { a: 2 }, { a: 2 }],
    ['dictionaries merged key by key', { a: { x: 1, y: 2 } }, { a: { y: 3, z: 4 } }, { a: { x: 1, y: 3, z: 4 } }],
    ['deeply', { a: { b: { c: 1, d: 1 } } }, { a: { b: { d: 2 } } }, { a: { b: { c: 1, d: 2 } } }],
    ['lists replaced, not concatenated', { a: [1, 2] }, { a: [3] }, { a: [3] }],
    ['a dictionary replacing a scalar', { a: 1 }, { a: { b: 1 } }, { a: { b: 1 } }],
    ['a scalar replacing a dictionary', { a: { b: 1 } }, { a: 'x' }, { a: 'x' }],
    ['null replacing a dictionary', { a: { b: 1 } }, { a: null }, { a: null }],
    ['an empty dictionary replacing rather than merging', { a: { b: 1 } }, { a: {} }, { a: {} }],
  ])('%s', (_name, base, overlay, merged) => {
    const before = structuredClone(base);
    expect(deepMerge(base, overlay)).toEqual(merged);
    expect(base).toEqual(before);
  });
});

describe('config context data', () => {
  const NOT_AN_OBJECT = 'JSON data must be in object form. Example: {"foo": 123}';
  it.each([
    [{ a: 1 }, {}],
    [{}, {}],
    [[1], { data: [NOT_AN_OBJECT] }],
    ['text', { data: [NOT_AN_OBJECT] }],
    [null, { data: [NOT_AN_OBJECT] }],
    [3, { data: [NOT_AN_OBJECT] }],
  ])('data %j', (data, errors) => {
    const item = writeItem('extras.configcontext', { data });
    validateConfigContext(item);
    expect(errorsAfter(item)).toEqual(errors);
  });

  it.each([
    [null, {}],
    [{ ntp: ['192.0.2.1'] }, {}],
    [{}, {}],
    [[1, 2], { local_context_data: [NOT_AN_OBJECT] }],
    ['text', { local_context_data: [NOT_AN_OBJECT] }],
    [true, { local_context_data: [NOT_AN_OBJECT] }],
  ])('local context data %j', (local, errors) => {
    for (const label of ['dcim.device', 'virtualization.virtualmachine']) {
      const item = writeItem(label, { local_context_data: local });
      validateLocalContextData(item);
      expect(errorsAfter(item), label).toEqual(errors);
    }
  });

  // NetBox 4.6 (#18838): `if self.local_context_data is not None and type(...) is not dict` — falsy values
  // other than null are refused too.
  it.fails.each([[[]], [false], [0], ['']])('local context data %j is refused (bug: accepted as empty)', (local) => {
    const item = writeItem('dcim.device', { local_context_data: local });
    validateLocalContextData(item);
    expect(errorsAfter(item)).toEqual({ local_context_data: [NOT_AN_OBJECT] });
  });
});

describe('custom field definitions (NetBox CustomField.clean)', () => {
  const field = (values: Record<string, unknown>, existing?: Record<string, unknown>) =>
    writeItem(
      'extras.customfield',
      {
        name: 'owner',
        type: 'text',
        default: null,
        choice_set: null,
        related_object_type: null,
        related_object_filter: null,
        validation_minimum: null,
        validation_maximum: null,
        validation_regex: '',
        validation_schema: null,
        unique: false,
        ...values,
      },
      existing ? { existing } : {},
    );

  it.each([
    ['a text field', {}, {}],
    [
      'a name with a hyphen',
      { name: 'the-owner' },
      { name: ['Only alphanumeric characters and underscores are allowed.'] },
    ],
    [
      'a name with a double underscore',
      { name: 'a__b' },
      { name: ['Double underscores are not permitted in custom field names.'] },
    ],
    [
      'a unique boolean',
      { type: 'boolean', unique: true },
      { unique: ['Uniqueness cannot be enforced for boolean fields'] },
    ],
    ['a minimum on an integer', { type: 'integer', validation_minimum: 1 }, {}],
    [
      'a minimum on text',
      { validation_minimum: 1 },
      { validation_minimum: ['A minimum value may be set only for numeric fields'] },
    ],
    [
      'a maximum on a date',
      { type: 'date', validation_maximum: 5 },
      { validation_maximum: ['A maximum value may be set only for numeric fields'] },
    ],
    ['a regex on a URL field', { type: 'url', validation_regex: '^https://' }, {}],
    [
      'a regex on an integer',
      { type: 'integer', validation_regex: '^1' },
      { validation_regex: ['Regular expression validation is supported only for text and URL fields'] },
    ],
    ['an invalid regex', { validation_regex: '(' }, { validation_regex: ['Invalid regular expression: ('] }],
    [
      'a schema on text',
      { validation_schema: { type: 'object' } },
      { validation_schema: ['JSON schema validation is supported only for JSON fields'] },
    ],
    [
      'a select without choices',
      { type: 'select' },
      { choice_set: ['Selection fields must specify a set of choices.'] },
    ],
    ['choices on text', { choice_set: 1 }, { choice_set: ['Choices may be set only on selection fields.'] }],
    [
      'an object field without a type',
      { type: 'object' },
      { related_object_type: ['Object fields must define an object type.'] },
    ],
    [
      'a filter on text',
      { related_object_filter: { x: 1 } },
      { related_object_filter: ['A related object filter can be defined only for object fields.'] },
    ],
    [
      'an object field with its type and filter',
      { type: 'multiobject', related_object_type: 'dcim.site', related_object_filter: { status: 'active' } },
      {},
    ],
  ])('%s', async (_name, values, errors) => {
    expect(await runNamed('extras.validateCustomField', field(values))).toEqual(errors);
  });

  it('refuses a change of type', async () => {
    expect(await runNamed('extras.validateCustomField', field({ type: 'integer' }, { type: 'text' }))).toEqual({
      type: ['Changing the type of custom fields is not supported.'],
    });
  });

  // NetBox: `if self.validation_minimum:` — zero is falsy, so a zero minimum passes on any type.
  it.fails('accepts a zero minimum on a text field (bug: refused)', async () => {
    expect(await runNamed('extras.validateCustomField', field({ validation_minimum: 0 }))).toEqual({});
  });

  // NetBox raises {'type': '<Type> fields may not define an object type.'}; the service keys it by
  // related_object_type (and test/api/custom-fields.test.ts asserts that key).
  it.fails('reports an object type on a text field under type, as NetBox does (bug: related_object_type)', async () => {
    expect(await runNamed('extras.validateCustomField', field({ related_object_type: 'dcim.site' }))).toEqual({
      type: ['Text fields may not define an object type.'],
    });
  });
});

describe('custom field choice sets (NetBox CustomFieldChoiceSet.clean)', () => {
  const set = (values: Record<string, unknown>) =>
    writeItem('extras.customfieldchoiceset', { base_choices: null, extra_choices: null, ...values });

  it.each([
    [
      'pairs of strings',
      {
        extra_choices: [
          ['gold', 'Gold'],
          ['silver', 'Silver'],
        ],
      },
      {},
    ],
    [
      'a pair with an empty label',
      { extra_choices: [['gold', '']] },
      { extra_choices: ['Enter a list of [value, label] pairs, e.g. [["gold", "Gold"]].'] },
    ],
    [
      'a triple',
      { extra_choices: [['a', 'b', 'c']] },
      { extra_choices: ['Enter a list of [value, label] pairs, e.g. [["gold", "Gold"]].'] },
    ],
    [
      'a number',
      { extra_choices: [[1, 'One']] },
      { extra_choices: ['Enter a list of [value, label] pairs, e.g. [["gold", "Gold"]].'] },
    ],
    [
      'base choices without data here',
      { base_choices: 'UN_LOCODE', extra_choices: [['a', 'A']] },
      { base_choices: ['The UN_LOCODE base choices are not available in this service; give extra_choices.'] },
    ],
    ['IATA base choices with extra choices', { base_choices: 'IATA', extra_choices: [['a', 'A']] }, {}],
  ])('%s', async (_name, values, errors) => {
    expect(await runNamed('extras.validateChoiceSet', set(values))).toEqual(errors);
  });

  it('counts the choices', async () => {
    const item = set({
      extra_choices: [
        ['a', 'A'],
        ['b', 'B'],
      ],
    });
    await runNamed('extras.storeChoices', item);
    expect(item.values.choices_count).toBe(2);
    const none = set({ extra_choices: null });
    await runNamed('extras.storeChoices', none);
    expect(none.values.choices_count).toBe(0);
  });

  // NetBox's model clean() raises these without a field, which the API returns under __all__, and quotes a
  // duplicate value in single quotes.
  it.fails.each([
    ['no choices', { extra_choices: [] }, { __all__: ['Must define base or extra choices.'] }],
    [
      'a duplicate value',
      {
        extra_choices: [
          ['a', 'A'],
          ['a', 'B'],
        ],
      },
      { __all__: ["Duplicate value 'a' found in extra choices."] },
    ],
  ])(
    'reports %s under __all__ with NetBox’s message (bug: non_field_errors / extra_choices)',
    async (_name, values, errors) => {
      expect(await runNamed('extras.validateChoiceSet', set(values))).toEqual(errors);
    },
  );
});
