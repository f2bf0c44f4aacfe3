import { describe, expect, it } from 'vitest';
import { errorsOf, modelOf, shop } from './model-files.js';

/**
 * What a plugin author meets first (issue 27): emitted names that clash with TypeScript or runtime names are
 * refused at the YAML line that gave them, and the additions to the model language resolve as documented.
 */

describe('emitted identifiers', () => {
  it.each([
    [
      'a model whose class name is a TypeScript type the module uses',
      '  record:\n    fields:\n      name: { type: string, max_length: 50 }\n',
      "models/shop.yaml:5:3: models.record: the class name 'Record' is a TypeScript or runtime name that the generated code uses; give the model another 'class_name'",
    ],
    [
      'a class name given in YAML',
      '  thing:\n    class_name: Map\n    fields:\n      name: { type: string, max_length: 50 }\n',
      "models/shop.yaml:6:5: models.thing.class_name: the class name 'Map' is a TypeScript or runtime name that the generated code uses; give the model another 'class_name'",
    ],
    [
      'a verbose name that makes an imported name',
      '  thing:\n    verbose_name: model spec\n    fields:\n      name: { type: string, max_length: 50 }\n',
      "models/shop.yaml:6:5: models.thing.verbose_name: the class name 'ModelSpec' is a TypeScript or runtime name that the generated code uses; give the model another 'class_name'",
    ],
    [
      'a choice union named like a type of its module',
      '  tag:\n    fields:\n      row: { type: choice, choices: kinds }\n',
      "models/shop.yaml:7:7: models.tag.fields.row: the choice type 'TagRow' is also the row type of the generated module; give the model another 'class_name'",
    ],
    [
      'two models of an app with one class name',
      '  a:\n    class_name: Same\n    fields: { n: { type: integer } }\n  b:\n    class_name: Same\n    fields: { n: { type: integer } }\n',
      "models/shop.yaml:9:5: models.b.class_name: the class name 'Same' is also the class name of 'shop.a'; give the model another 'class_name'",
    ],
  ])('refuses %s, at its YAML line', (_name, models, error) => {
    expect(errorsOf(shop(models, 'choices:\n  kinds: [[a, A]]\n'))).toEqual([error]);
  });

  it('accepts a renamed model', () => {
    expect(
      modelOf(shop('  record:\n    class_name: DnsRecord\n    fields: { n: { type: integer } }\n'), 'shop.record')
        .className,
    ).toBe('DnsRecord');
  });
});

describe('conditional and case-insensitive uniqueness', () => {
  const MODEL = `  view:
    fields:
      name: { type: string, max_length: 50 }
      parent: { type: fk, to: shop.view, nullable: true }
      default_view: { type: boolean, default: false }
    unique_together:
`;

  it('keeps a condition on values, named after every field it reads by default', () => {
    const view = modelOf(
      shop(`${MODEL}      - { fields: [default_view], condition: { default_view: true } }\n`),
      'shop.view',
    );
    expect(view.uniques).toEqual([
      {
        name: 'shop_view_default_view_default_view_uniq',
        fields: ['default_view'],
        whereNull: [],
        caseInsensitive: false,
        condition: { default_view: true },
        message: 'Constraint “shop_view_default_view_default_view_uniq” is violated.',
        errorKey: '__all__',
      },
    ]);
  });

  it('keeps an exclusion of values (a negated condition)', () => {
    const view = modelOf(shop(`${MODEL}      - { fields: [parent, name], exclude: { name: '' } }\n`), 'shop.view');
    expect(view.uniques).toEqual([
      {
        name: 'shop_view_parent_name_name_uniq',
        fields: ['parent', 'name'],
        whereNull: [],
        caseInsensitive: false,
        exclude: { name: '' },
        message: 'Constraint “shop_view_parent_name_name_uniq” is violated.',
        errorKey: '__all__',
      },
    ]);
    expect(errorsOf(shop(`${MODEL}      - { fields: [name], exclude: { active: '' } }\n`))).toEqual([
      "models/shop.yaml:9:9: models.view.unique_together.0: unknown field 'active'",
    ]);
  });

  it('refuses a condition on a field that does not exist, at the constraint', () => {
    expect(errorsOf(shop(`${MODEL}      - { fields: [name], condition: { active: true } }\n`))).toEqual([
      "models/shop.yaml:9:9: models.view.unique_together.0: unknown field 'active'",
    ]);
  });

  it('refuses a condition value that is not a constant', () => {
    expect(errorsOf(shop(`${MODEL}      - { fields: [name], condition: { default_view: [true] } }\n`))).toEqual([
      'models/shop.yaml:9:40: models.view.unique_together.0.condition.default_view: must be string,number,boolean',
    ]);
  });
});

describe('expressions of rules', () => {
  const withRule = (rule: string): string =>
    shop(
      `  host:\n    fields:\n      name: { type: string, max_length: 50 }\n      seen: { type: datetime, nullable: true }\n    rules:\n${rule}`,
    );

  it.each([
    [
      'typed validation functions',
      '      - { invalid: not is_hostname(name) and not is_ipv4(name) and not is_ipv6(name), message: x }\n',
    ],
    ['a pattern', '      - { invalid: "not matches(name, \'[a-z]+(-[a-z]+)*\')", message: x }\n'],
    ['now()', '      - { set: seen, to: now() }\n'],
  ])('accept %s', (_name, rule) => {
    expect(errorsOf(withRule(rule))).toEqual([]);
  });

  it.each([
    [
      'a pattern that is not a constant',
      '      - { invalid: "matches(name, name)", message: x }\n',
      "models/shop.yaml:8:11: models.host.rules.0.invalid: the pattern of matches() must be a string constant at column 15 of 'matches(name, name)'",
    ],
    [
      'a pattern RE2 cannot run in linear time',
      '      - { invalid: "matches(name, \'(a)\\\\\\\\1\')", message: x }\n',
      "models/shop.yaml:8:11: models.host.rules.0.invalid: Invalid regular expression: invalid escape sequence: `\\1` in matches() at column 15 of 'matches(name, '(a)\\\\1')'",
    ],
    [
      'a function with too few arguments',
      '      - { invalid: is_ipv4(), message: x }\n',
      "models/shop.yaml:8:11: models.host.rules.0.invalid: unexpected ')' at column 9 of 'is_ipv4()'",
    ],
  ])('refuse %s, at the rule', (_name, rule, error) => {
    expect(errorsOf(withRule(rule))).toEqual([error]);
  });
});

describe('display templates', () => {
  it('accept literal brackets and truncation, checking the fields they show', () => {
    const model = modelOf(
      shop(
        `  record:\n    class_name: Rec\n    display: '{name} [[{kind}]] {value|truncate:20}'\n    fields:\n      name: { type: string, max_length: 50 }\n      kind: { type: string, max_length: 50 }\n      value: { type: string, max_length: 50 }\n`,
      ),
      'shop.record',
    );
    expect(model.display).toEqual({
      kind: 'template',
      template: '{name} [[{kind}]] {value|truncate:20}',
      uses: ['name', 'kind', 'value'],
    });
    expect(
      errorsOf(
        shop(
          `  record:\n    class_name: Rec\n    display: '{name} [[{kind}]]'\n    fields:\n      name: { type: string, max_length: 50 }\n`,
        ),
      ),
    ).toEqual(["models/shop.yaml:5:5: models.record.display: unknown field 'kind'"]);
  });
});
