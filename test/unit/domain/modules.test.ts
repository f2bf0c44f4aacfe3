import { describe, expect, it } from 'vitest';
import { schemaDefinitionError, schemaValueError } from '../../../runtime/domain/modules.js';

/** Module type profiles: their JSON schemas, and module types' attributes against them. */
describe('module type profile schemas', () => {
  it('accepts no schema and valid schemas', () => {
    expect(schemaDefinitionError(null)).toBeNull();
    expect(schemaDefinitionError('')).toBeNull();
    expect(schemaDefinitionError({ properties: { foo: { type: 'string' } } })).toBeNull();
  });

  it('refuses what is no JSON schema definition', () => {
    expect(schemaDefinitionError([1, 2])).toBe('Invalid JSON schema definition');
    expect(schemaDefinitionError('text')).toBe('Invalid JSON schema definition');
    expect(schemaDefinitionError({ properties: { foo: { type: 'strung' } } })).toMatch(
      /^Invalid JSON schema definition: /,
    );
  });

  it("checks attributes against the profile's schema", () => {
    const schema = { properties: { speed: { type: 'integer' } }, required: ['speed'] };
    expect(schemaValueError(schema, { speed: 10 })).toBeNull();
    expect(schemaValueError(schema, { speed: 'fast' })).toBe('Invalid schema: speed: must be integer');
    expect(schemaValueError(schema, {})).toMatch(/^Invalid schema: .*speed/);
  });
});
