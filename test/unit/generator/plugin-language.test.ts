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
