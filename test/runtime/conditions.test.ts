import { describe, expect, it } from 'vitest';
import { compileConditions, evaluateConditions, validateConditions } from '../../runtime/events/conditions.js';
import {
  compilePythonRegex,
  matchPythonRegex,
  MAX_PATTERN_LENGTH,
  MAX_SUBJECT_LENGTH,
} from '../../runtime/events/python-regex.js';

const UNKNOWN_OP = 'Must be one of: eq, gt, gte, lt, lte, in, contains, regex';

describe('validateConditions', () => {
  it.each([
    ['null', null],
    ['an empty object', {}],
    ['an empty list', []],
    ['a bare condition', { attr: 'status.value', value: 'active' }],
    ['a full condition', { attr: 'a', value: 1, op: 'gt', negate: true }],
    ['an and-set', { and: [{ attr: 'a', value: 1 }] }],
    ['an upper-case top-level key', { AND: [{ attr: 'a', value: 1 }] }],
    ['an empty or-set', { or: [] }],
    [
      'the reference example',
      {
        or: [
          {
            and: [
              { attr: 'status.value', value: 'active' },
              { attr: 'primary_ip4', value: null, negate: true },
            ],
          },
          { attr: 'tags.slug', value: 'exempt', op: 'contains' },
        ],
      },
    ],
    ['every type with eq', { and: ['s', 1, 1.5, true, [1], null].map((value) => ({ attr: 'a', value })) }],
    ['a list with in', { attr: 'a', value: ['x', 'y'], op: 'in' }],
    ['a Python regex', { attr: 'a', value: '(?i)(?P<x>ab)+\\Z', op: 'regex' }],
  ])('accepts %s', (_name, value) => {
    expect(validateConditions(value)).toBeNull();
  });

  it.each([
    ['a list', [{ attr: 'a', value: 1 }], 'Ruleset must be a dictionary, not list.'],
    ['a string', 'x', 'Ruleset must be a dictionary, not str.'],
    ['a number', 5, 'Ruleset must be a dictionary, not int.'],
    ['true', true, 'Ruleset must be a dictionary, not bool.'],
    ['one unknown key', { xor: [] }, "Invalid logic type: must be 'AND' or 'OR'. Please check documentation."],
    ['a lone attr', { attr: 'a' }, "Invalid logic type: must be 'AND' or 'OR'. Please check documentation."],
    ['a missing value', { attr: 'a', op: 'eq' }, 'Incorrect key(s) informed. Please check documentation.'],
    ['an extra key', { attr: 'a', value: 1, foo: 1 }, 'Incorrect key(s) informed. Please check documentation.'],
    ['an unknown operator', { attr: 'a', value: 1, op: 'x' }, `Unknown operator: x. ${UNKNOWN_OP}`],
    ['neq', { attr: 'a', value: 1, op: 'neq' }, `Unknown operator: neq. ${UNKNOWN_OP}`],
    ['a null operator', { attr: 'a', value: 1, op: null }, `Unknown operator: None. ${UNKNOWN_OP}`],
    ['a list operator', { attr: 'a', value: 1, op: ['eq'] }, `Unknown operator: ['eq']. ${UNKNOWN_OP}`],
    ['gt on a string', { attr: 'a', value: 'x', op: 'gt' }, 'Invalid type for gt operation: str'],
    ['regex on a number', { attr: 'a', value: 1.5, op: 'regex' }, 'Invalid type for regex operation: float'],
    ['in on an int', { attr: 'a', value: 3, op: 'in' }, 'Invalid type for in operation: int'],
    ['contains on null', { attr: 'a', value: null, op: 'contains' }, 'Invalid type for contains operation: NoneType'],
    ['lte on a bool', { attr: 'a', value: true, op: 'lte' }, 'Invalid type for lte operation: bool'],
    ['a dict value', { attr: 'a', value: { b: 1 } }, 'Unsupported value type: dict'],
  ])('rejects %s with NetBox’s message', (_name, value, message) => {
    expect(validateConditions(value)).toBe(message);
  });

  it.each([
    [
      'a non-list set',
      { and: { attr: 'a', value: 1 } },
      "Invalid value for 'and': must be a list of conditions, not dict.",
    ],
    ['a string item', { or: ['a'] }, 'Invalid condition: must be a dictionary, not str.'],
    ['a null item', { and: [null] }, 'Invalid condition: must be a dictionary, not NoneType.'],
    ['an empty item', { and: [{}] }, 'Incorrect key(s) informed. Please check documentation.'],
    [
      'bad keys in a nested item',
      { and: [{ attr: 'a', val: 1 }] },
      'Incorrect key(s) informed. Please check documentation.',
    ],
    ['an upper-case nested set', { and: [{ OR: [] }] }, 'Incorrect key(s) informed. Please check documentation.'],
    [
      'a deep bad operator',
      { and: [{ or: [{ attr: 'a', value: 1, op: 'x' }] }] },
      `Unknown operator: x. ${UNKNOWN_OP}`,
    ],
    ['a deep non-list', { and: [{ or: 7 }] }, "Invalid value for 'or': must be a list of conditions, not int."],
    ['a bad regex', { attr: 'a', value: '(', op: 'regex' }, 'Invalid regular expression: missing closing ): `(`'],
    [
      'a back-reference',
      { attr: 'a', value: '(?P<x>a)(?P=x)', op: 'regex' },
      'Invalid regular expression: invalid or unsupported Perl syntax: `(?P` (back-references and look-arounds ' +
        'are not supported: conditions are matched in linear time)',
    ],
    [
      'a look-ahead',
      { and: [{ attr: 'a', value: 'a(?!b)', op: 'regex' }] },
      'Invalid regular expression: invalid or unsupported Perl syntax: `(?!` (back-references and look-arounds ' +
        'are not supported: conditions are matched in linear time)',
    ],
    [
      'a numbered back-reference',
      { attr: 'a', value: '(a)\\1', op: 'regex' },
      'Invalid regular expression: invalid escape sequence: `\\1` (back-references and look-arounds ' +
        'are not supported: conditions are matched in linear time)',
    ],
    [
      'a regex too large to run',
      { attr: 'a', value: '(a{999})'.repeat(20), op: 'regex' },
      'Regular expression too complex.',
    ],
    [
      'the verbose flag',
      { attr: 'a', value: '(?x) a', op: 'regex' },
      'Invalid regular expression: the flags (?x) and (?L) are not supported.',
    ],
    [
      'a long regex',
      { attr: 'a', value: 'a'.repeat(MAX_PATTERN_LENGTH + 1), op: 'regex' },
      `Regular expression too long (more than ${MAX_PATTERN_LENGTH} characters).`,
    ],
  ])('rejects %s inside sets with a clear message (NetBox has a server error)', (_name, value, message) => {
    expect(validateConditions(value)).toBe(message);
  });
});

describe('evaluateConditions', () => {
  const data = {
    name: 'Site 1',
    status: { value: 'active', label: 'Active' },
    site: null,
    vid: 100,
    weight: 2.5,
    enabled: true,
    primary_ip4: null,
    tags: [
      { name: 'Alpha', slug: 'alpha' },
      { name: 'Exempt', slug: 'exempt' },
    ],
    empty: [],
    custom_fields: { owner: 'ops', numbers: [1, 2, 3] },
    description: 'line one\nline two',
  };

  it.each([
    ['no ruleset', null, true],
    ['an empty ruleset', {}, true],
    ['eq on a nested string', { attr: 'status.value', value: 'active' }, true],
    ['eq mismatch', { attr: 'status.value', value: 'planned' }, false],
    ['negate', { attr: 'status.value', value: 'planned', negate: true }, true],
    ['a truthy negate string', { attr: 'status.value', value: 'active', negate: 'yes' }, false],
    ['eq null on a null value', { attr: 'primary_ip4', value: null }, true],
    ['negated eq null', { attr: 'primary_ip4', value: null, negate: true }, false],
    ['eq True == 1', { attr: 'enabled', value: 1 }, true],
    ['eq on lists', { attr: 'custom_fields.numbers', value: [1, 2, 3] }, true],
    ['gt', { attr: 'vid', value: 99, op: 'gt' }, true],
    ['gte', { attr: 'vid', value: 100, op: 'gte' }, true],
    ['lt float', { attr: 'weight', value: 2.5, op: 'lt' }, false],
    ['lte', { attr: 'weight', value: 2.5, op: 'lte' }, true],
    ['gt on a bool (an int in Python)', { attr: 'enabled', value: 0, op: 'gt' }, true],
    ['in', { attr: 'status.value', value: ['active', 'planned'], op: 'in' }, true],
    ['in, not there', { attr: 'vid', value: [1, 2], op: 'in' }, false],
    ['contains on a list mapped from a path', { attr: 'tags.slug', value: 'exempt', op: 'contains' }, true],
    ['contains, not there', { attr: 'tags.slug', value: 'other', op: 'contains' }, false],
    ['contains on a string', { attr: 'name', value: 'te 1', op: 'contains' }, true],
    ['contains on a dict (a key)', { attr: 'custom_fields', value: 'owner', op: 'contains' }, true],
    ['contains on an empty list', { attr: 'empty.slug', value: 'x', op: 'contains' }, false],
    ['regex anchored at the start', { attr: 'name', value: 'Site', op: 'regex' }, true],
    ['regex not found at the start', { attr: 'name', value: '1', op: 'regex' }, false],
    ['regex with $ before a final newline', { attr: 'name', value: 'Site 1$', op: 'regex' }, true],
    ['regex dot stops at a newline', { attr: 'description', value: 'line one.line', op: 'regex' }, false],
    ['regex (?s)', { attr: 'description', value: '(?s)line one.line', op: 'regex' }, true],
    ['regex (?i)', { attr: 'name', value: '(?i)site', op: 'regex' }, true],
    ['a missing key', { attr: 'nope', value: 1 }, false],
    ['a negated missing key (still an error)', { attr: 'nope', value: 1, negate: true }, false],
    ['a null intermediate', { attr: 'site.slug', value: 'x' }, false],
    ['a path through a string', { attr: 'name.x', value: 'x' }, false],
    ['a path through the prototype', { attr: 'status.constructor', value: null, negate: true }, false],
    ['gt on a string value', { attr: 'name', value: 1, op: 'gt' }, false],
    ['contains with a number in a string', { attr: 'name', value: 1, op: 'contains' }, false],
    ['regex on a number', { attr: 'vid', value: '1', op: 'regex' }, false],
    ['an invalid ruleset', { attr: 'a', value: { x: 1 } }, false],
    [
      'or: any',
      {
        or: [
          { attr: 'status.value', value: 'planned' },
          { attr: 'tags.slug', value: 'alpha', op: 'contains' },
        ],
      },
      true,
    ],
    [
      'and: all',
      {
        and: [
          { attr: 'status.value', value: 'active' },
          { attr: 'vid', value: 1 },
        ],
      },
      false,
    ],
    ['AND at the top level', { AND: [{ attr: 'status.value', value: 'active' }] }, true],
    ['an empty and-set', { and: [] }, true],
    ['an empty or-set', { or: [] }, false],
    [
      'nested sets',
      {
        or: [
          {
            and: [
              { attr: 'status.value', value: 'active' },
              { attr: 'primary_ip4', value: null, negate: true },
            ],
          },
          { attr: 'tags.slug', value: 'exempt', op: 'contains' },
        ],
      },
      true,
    ],
    [
      'or short-circuits before an error',
      {
        or: [
          { attr: 'vid', value: 100 },
          { attr: 'nope', value: 1 },
        ],
      },
      true,
    ],
    [
      'an error before the deciding item spoils the set',
      {
        or: [
          { attr: 'nope', value: 1 },
          { attr: 'vid', value: 100 },
        ],
      },
      false,
    ],
  ])('%s', (_name, ruleset, expected) => {
    expect(evaluateConditions(ruleset, data)).toBe(expected);
  });

  it('reports evaluation errors to onError', () => {
    const errors: string[] = [];
    expect(
      evaluateConditions({ attr: 'site.slug', value: 'x' }, data, { onError: (e) => errors.push(e.message) }),
    ).toBe(false);
    expect(errors).toEqual(['Invalid key path: site.slug']);
  });

  it('compiles once and evaluates many times', () => {
    const matches = compileConditions({ attr: 'vid', value: 10, op: 'gte' });
    expect([5, 10, 20].map((vid) => matches({ vid }))).toEqual([false, true, true]);
  });
});

describe('regular expressions', () => {
  it('translate the Python syntax NetBox users write', () => {
    const match = (pattern: string, subject: string): boolean => matchPythonRegex(compilePythonRegex(pattern), subject);
    expect(match('(?P<a>x)(?P<b>y)', 'xy')).toBe(true);
    expect(match('\\Aab\\Z', 'ab')).toBe(true);
    expect(match('ab\\Z', 'ab\n')).toBe(false);
    expect(match('ab$', 'ab\n')).toBe(true);
    expect(match('ab$', 'ab\n\n')).toBe(false);
    expect(match('a$|b', 'b')).toBe(true);
    expect(match('[$]', '$')).toBe(true);
    expect(match('a.b', 'a\nb')).toBe(false);
    expect(match('(?s)a.b', 'a\nb')).toBe(true);
    expect(match('[]a]+$', ']a]')).toBe(true);
    expect(match('(?m)^two$', 'one\ntwo')).toBe(false); // re.match anchors at the start even in MULTILINE
    expect(match('(?m)one$', 'one\ntwo')).toBe(true);
    expect(match('(?i)CAFÉ', 'café')).toBe(true);
    expect(match('caf\\u00e9 \\U0001F600', 'café 😀')).toBe(true);
    expect(match('b', 'ab')).toBe(false);
    expect(() => compilePythonRegex('(?P<a>x)(?P=a)')).toThrow(/back-references and look-arounds are not supported/);
  });

  it('run in linear time: a pattern that makes a backtracking engine run for ever gives its answer', () => {
    // With backtracking, `(a+)+$` tries every split of the a's before it fails: 2^9999 of them here. A test
    // that finishes proves the engine does not backtrack; no duration is measured.
    const evil = compilePythonRegex('(a+)+$');
    const long = `${'a'.repeat(MAX_SUBJECT_LENGTH - 1)}b`;
    expect(matchPythonRegex(evil, long)).toBe(false);
    expect(matchPythonRegex(evil, 'a'.repeat(MAX_SUBJECT_LENGTH))).toBe(true);
    expect(matchPythonRegex(compilePythonRegex('(x+x+)+y'), 'x'.repeat(5000))).toBe(false);
    // The answer, not an evaluation error: the negated condition holds.
    const errors: string[] = [];
    const onError = (error: Error): number => errors.push(error.message);
    expect(
      evaluateConditions({ attr: 'name', value: '(a+)+$', op: 'regex', negate: true }, { name: long }, { onError }),
    ).toBe(true);
    expect(evaluateConditions({ attr: 'name', value: '(a+)+$', op: 'regex' }, { name: long }, { onError })).toBe(false);
    expect(errors).toEqual([]);
  });

  it('refuse subjects longer than MAX_SUBJECT_LENGTH', () => {
    expect(() => matchPythonRegex(compilePythonRegex('a'), 'a'.repeat(MAX_SUBJECT_LENGTH + 1))).toThrow(/too long/);
  });
});
