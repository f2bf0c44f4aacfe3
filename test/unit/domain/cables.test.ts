import { describe, expect, it } from 'vitest';
import { compatibleTypes, displayCable, displayCableTermination, endMatches } from '../../../runtime/domain/cables.js';

/** The cables domain functions that need no query: NetBox's compatible types, displays, `cable_end` lookups. */

describe('compatibleTypes (NetBox COMPATIBLE_TERMINATION_TYPES)', () => {
  it.each([
    ['interface', 'interface', true],
    ['interface', 'frontport', true],
    ['interface', 'circuittermination', true],
    ['interface', 'consoleport', false],
    ['consoleport', 'consoleserverport', true],
    ['consoleport', 'consoleport', false],
    ['powerport', 'powerfeed', true],
    ['powerfeed', 'poweroutlet', false],
    ['rearport', 'rearport', true],
    ['unknown', 'interface', false],
  ])('%s to %s: %s', (a, b, expected) => expect(compatibleTypes(a, b)).toBe(expected));
});

describe('displays', () => {
  it('shows a cable by its label, else #id', () => {
    expect(displayCable({ id: 7, label: 'Uplink' })).toBe('Uplink');
    expect(displayCable({ id: 7, label: '' })).toBe('#7');
  });
  it('shows a termination with its cable', () => {
    expect(
      displayCableTermination({
        'cable.id': 3,
        'cable.label': '',
        termination_type: 'dcim.interface',
        termination_id: 9,
      }),
    ).toBe('Cable #3 to interface 9');
  });
});

describe('endMatches (cable_end lookups)', () => {
  it.each([
    ['', 'A', 'A', true],
    ['', 'A', 'B', false],
    ['', 'A', null, false],
    ['n', 'A', null, true],
    ['n', 'A', 'A', false],
    ['ic', 'a', 'A', true],
    ['nic', 'a', 'B', true],
    ['ie', 'b', 'B', true],
    ['isw', 'B', 'A', false],
    ['regex', '^[AB]$', 'B', true],
    ['iregex', '^a$', 'A', true],
    ['empty', 'true', null, true],
    ['empty', 'false', 'A', true],
    ['empty', 'true', 'A', false],
  ] as const)('%s=%s on %s: %s', (lookup, value, end, expected) =>
    expect(endMatches(lookup, value, end)).toBe(expected),
  );
  it('reports a bad value', () => {
    expect(endMatches('empty', 'maybe', 'A')).toMatch(/not one of the available choices/);
    expect(endMatches('regex', '(', 'A')).toBe('Enter a valid regular expression.');
  });
});
