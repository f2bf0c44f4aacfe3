import { describe, expect, it } from 'vitest';
import { models } from '../support/models.js';
import { createDomainFunctions } from '../../../runtime/domain/index.js';
import type { DomainEntry } from '../../../runtime/domain/types.js';

/** The named domain functions: each name YAML uses is a function of the kind its place needs. */

describe('domain functions', () => {
  const uses: [string, string, DomainEntry['kind']][] = [];
  for (const model of Object.values(models)) {
    for (const name of model.validators) uses.push([model.label, name, 'validator']);
    if (model.hooks.prepare) uses.push([model.label, model.hooks.prepare, 'prepare']);
    if (model.hooks.present) uses.push([model.label, model.hooks.present, 'present']);
    if (model.display.kind === 'function') uses.push([model.label, model.display.function, 'display']);
    for (const field of model.fields)
      if (field.kind === 'computed') uses.push([model.label, field.function, 'compute']);
    for (const filter of model.filters)
      if (filter.kind === 'function') uses.push([model.label, filter.function, 'filter']);
    for (const name of model.searchAlso) uses.push([model.label, name, 'filter']);
  }

  it.each(uses)('%s uses %s as a %s function', (_label, name, kind) => {
    const domain = createDomainFunctions();
    expect(() => domain.check(name, kind)).not.toThrow();
  });

  it('refuse a name of another kind or an unknown name', () => {
    const domain = createDomainFunctions();
    expect(() => domain.check('ipam.displayAsn', 'validator')).toThrow(
      'domain function ipam.displayAsn is not a validator function',
    );
    expect(() => domain.validator('dcim.nope')).toThrow('domain function dcim.nope is not a validator function');
    expect(domain.display('ipam.displayAsn', { asn: 1 })).toBe('AS1');
  });

  it('say which validators hold for a batch validated before it is stored', () => {
    const domain = createDomainFunctions();
    // Rack space looks at the earlier devices of the batch; an address's duplicates only at stored rows.
    expect(domain.validatesBatch('dcim.validateDevicePlacement')).toBe(true);
    expect(domain.validatesBatch('dcim.checkInterfaceVlansAndDevice')).toBe(true);
    expect(domain.validatesBatch('ipam.validateIpAddress')).toBe(false);
    expect(domain.validatesBatch('dcim.validateRackReservationUnits')).toBe(false);
    expect(() => domain.validatesBatch('ipam.displayAsn')).toThrow('is not a validator function');
  });
});
