import { describe, expect, it } from 'vitest';
import {
  isKnownRelease,
  NEWEST_RELEASE,
  netboxVersionOf,
  OLDEST_RELEASE,
} from '../../../runtime/import/netbox-versions.js';
import { integerRanges } from '../../../runtime/import/values.js';

const dcim = (...numbers: number[]) =>
  numbers.map((n) => ({ app: 'dcim', name: `${String(n).padStart(4, '0')}_migration` }));

describe('the NetBox release of a database, from its dcim migrations', () => {
  it.each([
    [187, '4.0'],
    [190, '4.1'],
    [199, '4.1'],
    [200, '4.2'],
    [207, '4.3'],
    [215, '4.4'],
    [225, '4.5'],
    [233, '4.6'],
    [241, '4.6'],
  ])('dcim %i is NetBox %s', (latest, version) => {
    expect(netboxVersionOf([...dcim(1, 2, latest), { app: 'extras', name: '0999_other' }])).toBe(version);
  });

  it('refuses NetBox 3.x and releases after 4.6, in one line', () => {
    expect(() => netboxVersionOf(dcim(185))).toThrow(/older than NetBox 4\.0 .*upgrade it to NetBox 4\.0/);
    expect(() => netboxVersionOf(dcim(242))).toThrow(/newer than NetBox 4\.6/);
    expect(() => netboxVersionOf([])).toThrow(/older than NetBox 4\.0/);
  });
});

describe('releases read', () => {
  it('are NetBox 4.0 to 4.6 (a REST source is checked by its /api/status/ version)', () => {
    expect([OLDEST_RELEASE, NEWEST_RELEASE]).toEqual(['4.0', '4.6']);
    for (const version of ['4.0', '4.3', '4.6']) expect(isKnownRelease(version)).toBe(true);
    for (const version of ['3.7', '4.7', '5.0', '']) expect(isKnownRelease(version)).toBe(false);
  });
});

describe('PostgreSQL integer ranges', () => {
  it('become inclusive pairs', () => {
    expect(integerRanges('{"[1,4095)","[5000,5011)"}')).toEqual([
      [1, 4094],
      [5000, 5010],
    ]);
    expect(integerRanges(['[10,21)'])).toEqual([[10, 20]]);
    expect(integerRanges(null)).toBeNull();
  });
});
