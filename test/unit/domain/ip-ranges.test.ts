import { describe, expect, it } from 'vitest';
import { freeHostsOutside, MAX_RANGE_SIZE, rangeName, rangeSize } from '../../../runtime/domain/ip-ranges.js';
import { parseIp } from '../../../runtime/rest/ip.js';

describe('IP range arithmetic', () => {
  it.each([
    ['192.0.2.10/24', '192.0.2.20/24', '192.0.2.10-20/24'],
    ['192.0.2.250/16', '192.0.3.5/16', '192.0.2.250-3.5/16'],
    ['10.0.0.1/8', '10.0.0.1/8', '10.0.0.1-10.0.0.1/8'],
    ['2001:db8::1/64', '2001:db8::ff/64', '2001:db8::1-ff/64'],
  ])("names %s–%s as NetBox's IPRange.name does", (start, end, name) => {
    expect(rangeName(start, end)).toBe(name);
  });

  it('counts the addresses from start to end, both included', () => {
    expect(rangeSize(parseIp('192.0.2.10/24')!, parseIp('192.0.2.20/24')!)).toBe(11n);
    expect(rangeSize(parseIp('10.0.0.1/8')!, parseIp('10.0.0.1/8')!)).toBe(1n);
    expect(rangeSize(parseIp('2001:db8::/64')!, parseIp('2001:db8::ffff:ffff/64')!)).toBe(2n ** 32n);
    expect(2n ** 32n > MAX_RANGE_SIZE).toBe(true);
  });

  it('leaves out used addresses and excluded spans, lowest first, up to the limit', () => {
    const span = { first: 1n, last: 20n };
    const excluded = [
      { first: 3n, last: 5n },
      { first: 10n, last: 19n },
    ];
    expect(freeHostsOutside(span, excluded, [1n, 7n], 100)).toEqual([2n, 6n, 8n, 9n, 20n]);
    expect(freeHostsOutside(span, excluded, [1n, 7n], 3)).toEqual([2n, 6n, 8n]);
    expect(freeHostsOutside(span, [{ first: 1n, last: 20n }], [], 5)).toEqual([]);
  });
});
