import { describe, expect, it } from 'vitest';
import { evaluateConditions, validateConditions } from '../../../runtime/events/conditions.js';
import {
  isPythonTruthy,
  pythonEquals,
  pythonRepr,
  pythonStr,
  pythonTypeName,
} from '../../../runtime/events/python-values.js';

/**
 * Event-rule conditions where test/runtime/conditions.test.ts leaves gaps: Python's semantics of `in`,
 * `contains` and `==` on lists and dictionaries, null items on a path, and the Python value helpers that
 * the messages are built from (NetBox: extras/conditions.py).
 */

const data = {
  tags: [{ slug: 'alpha' }, { slug: 'beta' }],
  holes: [{ slug: 'alpha' }, null],
  matrix: [[1, 2], [3]],
  pair: [1, true],
  custom_fields: { owner: 'ops', level: 3 },
  name: 'edge-1',
  vid: 100,
  nothing: null,
};

/** The outcome of a condition, and whether its evaluation failed (NetBox's InvalidCondition: no match). */
function outcome(ruleset: unknown): { matches: boolean; error: boolean } {
  let error = false;
  const matches = evaluateConditions(ruleset, data, { onError: () => (error = true) });
  return { matches, error };
}

describe('evaluation', () => {
  it.each([
    // `value in self.value`: a list found on the path is compared as a whole against each item.
    ['in, with a list found on the path', { attr: 'tags.slug', value: ['alpha', 'beta'], op: 'in' }, false, false],
    ['in, a list among lists', { attr: 'tags.slug', value: [['alpha', 'beta']], op: 'in' }, true, false],
    // `self.value in value`: a list found contains a list item.
    ['contains, a list in a list of lists', { attr: 'matrix', value: [1, 2], op: 'contains' }, true, false],
    ['contains, a number in a list', { attr: 'matrix', value: 3, op: 'contains' }, false, false],
    // A dict contains its keys; `1 in {...}` is False, `[1] in {...}` a TypeError (unhashable).
    ['contains, a number in a dict', { attr: 'custom_fields', value: 3, op: 'contains' }, false, false],
    ['contains, a list in a dict', { attr: 'custom_fields', value: ['owner'], op: 'contains' }, false, true],
    ['contains, on a number', { attr: 'vid', value: 1, op: 'contains' }, false, true],
    ['contains, on null', { attr: 'nothing', value: 'x', op: 'contains' }, false, true],
    ['eq, True == 1 inside lists', { attr: 'pair', value: [1, 1] }, true, false],
    ['eq, a number and its text differ', { attr: 'vid', value: '100' }, false, false],
    ['eq, a dict found against a list', { attr: 'custom_fields', value: ['owner'] }, false, false],
    ['gt on null', { attr: 'nothing', value: 1, op: 'gt' }, false, true],
    ['lt on a list', { attr: 'matrix', value: 1, op: 'lt' }, false, true],
    ['regex on a list', { attr: 'tags.slug', value: 'alpha', op: 'regex' }, false, true],
    // `item or {}`: a null item of a list has no keys.
    ['a path through a null list item', { attr: 'holes.slug', value: 'alpha', op: 'contains' }, false, true],
    ['a path through null', { attr: 'nothing.slug', value: 'x' }, false, true],
    ['a negated error is still no match', { attr: 'nothing.slug', value: 'x', negate: true }, false, true],
    [
      'a nested set decides the outer one',
      {
        or: [
          {
            and: [
              { attr: 'vid', value: 100 },
              { attr: 'name', value: 'edge', op: 'regex' },
            ],
          },
          { attr: 'vid', value: 1 },
        ],
      },
      true,
      false,
    ],
    ['a negated nested condition', { and: [{ attr: 'name', value: 'core', op: 'regex', negate: true }] }, true, false],
  ])('%s', (_name, ruleset, matches, error) => {
    expect(outcome(ruleset)).toEqual({ matches, error });
  });
});

describe('validation', () => {
  it.each([
    [
      'two logic keys (read as a condition)',
      { and: [], or: [] },
      'Incorrect key(s) informed. Please check documentation.',
    ],
    [
      'a logic key inside a condition',
      { and: [{ attr: 'a', value: 1, and: [] }] },
      'Incorrect key(s) informed. Please check documentation.',
    ],
    ['in with a float', { attr: 'a', value: 1.5, op: 'in' }, 'Invalid type for in operation: float'],
    ['gt with a list', { attr: 'a', value: [1], op: 'gt' }, 'Invalid type for gt operation: list'],
    ['regex with a bool', { attr: 'a', value: false, op: 'regex' }, 'Invalid type for regex operation: bool'],
    [
      'an operator in capitals',
      { attr: 'a', value: 1, op: 'EQ' },
      'Unknown operator: EQ. Must be one of: eq, gt, gte, lt, lte, in, contains, regex',
    ],
  ])('refuses %s', (_name, ruleset, message) => {
    expect(validateConditions(ruleset)).toBe(message);
  });

  it.each([
    ['contains with a list value', { attr: 'a', value: [1], op: 'contains' }],
    ['contains with a bool', { attr: 'a', value: true, op: 'contains' }],
    ['a non-string attr (an evaluation error, not a validation one)', { attr: 5, value: 1 }],
    ['negate given as a string', { attr: 'a', value: 1, negate: 'false' }],
  ])('accepts %s', (_name, ruleset) => {
    expect(validateConditions(ruleset)).toBeNull();
  });

  it('treats a non-empty "false" negate as true, as Python does', () => {
    expect(outcome({ attr: 'vid', value: 100, negate: 'false' }).matches).toBe(false);
    expect(outcome({ attr: 'vid', value: 100, negate: 0 }).matches).toBe(true);
  });
});

describe('Python values', () => {
  it.each([
    ['text', "'text'"],
    ["it's", `"it's"`],
    [`"both" 'quotes'`, `'"both" \\'quotes\\''`],
    ['a\\b\n', "'a\\\\b\\n'"],
    [null, 'None'],
    [true, 'True'],
    [false, 'False'],
    [1.5, '1.5'],
    [['a', 1, null], "['a', 1, None]"],
    [{ a: [true], b: { c: 'd' } }, "{'a': [True], 'b': {'c': 'd'}}"],
    ['é✓', "'é✓'"],
  ])('repr(%j) is %s', (value, repr) => {
    expect(pythonRepr(value)).toBe(repr);
  });

  it('str() leaves text bare and writes everything else as repr()', () => {
    expect(pythonStr('eq')).toBe('eq');
    expect(pythonStr(['eq'])).toBe("['eq']");
    expect(pythonStr(undefined)).toBe('None');
  });

  it.each([
    ['s', 'str'],
    [1, 'int'],
    [1.0, 'int'],
    [1.25, 'float'],
    [true, 'bool'],
    [null, 'NoneType'],
    [undefined, 'NoneType'],
    [[], 'list'],
    [{}, 'dict'],
    [Object.create(null) as object, 'dict'],
    [new Date(0), 'object'],
  ])('the type of %j is %s', (value, name) => {
    expect(pythonTypeName(value)).toBe(name);
  });

  it.each([
    [0, false],
    ['', false],
    ['0', true],
    [[], false],
    [[0], true],
    [{}, false],
    [{ a: 0 }, true],
    [null, false],
    [0.5, true],
  ])('truth of %j is %s', (value, truthy) => {
    expect(isPythonTruthy(value)).toBe(truthy);
  });

  it.each([
    [1, true, true],
    [0, false, true],
    [1, 1.0, true],
    ['1', 1, false],
    [null, undefined, true],
    [null, 0, false],
    [[1, [2]], [1, [2]], true],
    [[1, 2], [2, 1], false],
    [{ a: 1, b: 2 }, { b: 2, a: 1 }, true],
    [{ a: 1 }, { a: 1, b: undefined }, false],
    [[], {}, false],
    [{ a: true }, { a: 1 }, true],
  ])('%j == %j is %s', (a, b, equal) => {
    expect(pythonEquals(a, b)).toBe(equal);
    expect(pythonEquals(b, a)).toBe(equal);
  });
});
