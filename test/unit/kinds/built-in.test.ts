import { describe, expect, it } from 'vitest';
import languageSchema from '../../../generator/model-language.schema.json' with { type: 'json' };
import { fieldTypes, kindModules } from '../../../runtime/kinds/index.js';

describe('the built-in field kinds', () => {
  it('are the types the model language lists for editors, in its order', () => {
    expect(languageSchema.definitions.field.properties.type.enum).toEqual(fieldTypes());
  });

  it('allow only properties the model language defines', () => {
    const defined = Object.keys(languageSchema.definitions.field.properties);
    for (const module of kindModules()) expect(defined).toEqual(expect.arrayContaining([...module.properties]));
  });
});
