import { describe, expect, it } from 'vitest';
import { chassisPosition, resolveVcPosition } from '../../../runtime/domain/instantiate.js';
import {
  modulePositions,
  resolveModulePlaceholder,
  schemaDefinitionError,
  schemaValueError,
} from '../../../runtime/domain/modules.js';

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

describe('{module} placeholders', () => {
  it("gives one token the bay's position", () => {
    expect(resolveModulePlaceholder('eth{module}/1', ['2'])).toBe('eth2/1');
    expect(resolveModulePlaceholder('eth{module}/1', ['1', '3'])).toBe('eth3/1');
    expect(resolveModulePlaceholder('console', [])).toBe('console');
  });

  it('gives as many tokens as bays deep the positions level by level', () => {
    expect(resolveModulePlaceholder('Gi{module}/{module}/0', ['1', '2'])).toBe('Gi1/2/0');
  });

  it('refuses more tokens than bays deep', () => {
    expect(() => resolveModulePlaceholder('{module}-{module}-eth0', ['1'])).toThrow(
      'Cannot install module with placeholder values in a module bay tree 1 levels deep but 2 placeholders given.',
    );
  });

  it('lists positions root first, a token replaced by the position taken before it', () => {
    expect(modulePositions(['3', '1'])).toEqual(['1', '3']);
    expect(modulePositions(['2', '{module}/1'])).toEqual(['2/1', '2']);
  });
});

describe('{vc_position} tokens', () => {
  it('become the position in the virtual chassis, ignoring the fallback', () => {
    expect(resolveVcPosition('ge-{vc_position}/0/1', 8)).toBe('ge-8/0/1');
    expect(resolveVcPosition('ge-{vc_position:99}/{vc_position}', 2)).toBe('ge-2/2');
  });
  it('become the fallback, or 0, outside a virtual chassis', () => {
    expect(resolveVcPosition('ge-{vc_position:18}/1', null)).toBe('ge-18/1');
    expect(resolveVcPosition('ge-{vc_position}/1', null)).toBe('ge-0/1');
    expect(resolveVcPosition('Member {vc_position:} x', null)).toBe('Member  x');
  });
  it('take the position only when the device is in a chassis', () => {
    expect(chassisPosition({ virtual_chassis: 3, vc_position: 4 })).toBe(4);
    expect(chassisPosition({ virtual_chassis: null, vc_position: 4 })).toBeNull();
    expect(chassisPosition({ virtual_chassis: 3, vc_position: null })).toBeNull();
  });
});
