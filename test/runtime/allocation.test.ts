import { describe, expect, it } from 'vitest';
import {
  freeAddresses,
  freeBlocks,
  freeVids,
  spanToBlocks,
  subtractSpans,
  takeBlock,
  usableSpan,
  type Block,
} from '../../runtime/domain/allocation.js';
import { formatIp, hexToBigInt, parseIp } from '../../runtime/rest/ip.js';

/** The allocation arithmetic, checked against what netaddr and NetBox compute for the same inputs. */
const span = (cidr: string) => {
  const ip = parseIp(cidr)!;
  return { first: hexToBigInt(ip.start), last: hexToBigInt(ip.end) };
};
const text = (blocks: readonly Block[], family: 4 | 6 = 4) =>
  blocks.map((b) => `${formatIp(family, b.start)}/${b.len}`);

describe('allocation arithmetic', () => {
  it('finds the usable addresses of a network as NetBox does', () => {
    const net = span('192.0.2.0/29');
    expect(usableSpan(4, net, 29, false)).toEqual({ first: net.first + 1n, last: net.last - 1n });
    expect(usableSpan(4, net, 29, true)).toEqual(net);
    const p2p = span('192.0.2.0/31');
    expect(usableSpan(4, p2p, 31, false)).toEqual(p2p);
    const v6 = span('2001:db8::/64');
    expect(usableSpan(6, v6, 64, false)).toEqual({ first: v6.first + 1n, last: v6.last });
    expect(usableSpan(6, span('2001:db8::/127'), 127, false)).toEqual(span('2001:db8::/127'));
  });

  it('lists free addresses lowest first, skipping used ones, without walking the span', () => {
    const net = { first: 10n, last: 20n };
    expect(freeAddresses(net, [12n, 11n, 12n, 30n, 5n], 4)).toEqual([10n, 13n, 14n, 15n]);
    expect(freeAddresses(net, [], 0)).toEqual([]);
    expect(freeAddresses({ first: 1n, last: 3n }, [1n, 2n, 3n], 5)).toEqual([]);
    const huge = span('2001:db8::/32');
    expect(freeAddresses(huge, [huge.first], 2)).toEqual([huge.first + 1n, huge.first + 2n]);
  });

  it('subtracts spans and splits gaps into the largest aligned blocks (iprange_to_cidrs)', () => {
    expect(
      subtractSpans({ first: 0n, last: 15n }, [
        { first: 4n, last: 5n },
        { first: 3n, last: 4n },
      ]),
    ).toEqual([
      { first: 0n, last: 2n },
      { first: 6n, last: 15n },
    ]);
    expect(text(spanToBlocks({ first: span('10.0.0.1/32').first, last: span('10.0.0.6/32').first }, 32))).toEqual([
      '10.0.0.1/32',
      '10.0.0.2/31',
      '10.0.0.4/31',
      '10.0.0.6/32',
    ]);
  });

  it('lists the free child networks of a prefix (NetBox test_list_available_prefixes)', () => {
    const free = freeBlocks(span('192.0.2.0/24'), [span('192.0.2.64/26'), span('192.0.2.192/27')], 32);
    expect(text(free)).toEqual(['192.0.2.0/26', '192.0.2.128/26', '192.0.2.224/27']);
  });

  it('takes networks first fit in address order and keeps the rest free', () => {
    const free = freeBlocks(span('192.0.2.0/24'), [span('192.0.2.64/26'), span('192.0.2.192/27')], 32);
    expect(text([takeBlock(free, 27, 32)!])).toEqual(['192.0.2.0/27']);
    expect(text([takeBlock(free, 26, 32)!])).toEqual(['192.0.2.128/26']);
    expect(text([takeBlock(free, 28, 32)!])).toEqual(['192.0.2.32/28']);
    expect(text(free)).toEqual(['192.0.2.48/28', '192.0.2.224/27']);
    expect(takeBlock(free, 26, 32)).toBeNull();
    expect(takeBlock(free, 33, 32)).toBeNull();
  });

  it('lists free VLAN IDs of several ranges in order', () => {
    expect(
      freeVids(
        [
          [20, 22],
          [1, 3],
        ],
        [2, 21],
        10,
      ),
    ).toEqual([1, 3, 20, 22]);
    expect(freeVids([[1, 4094]], [], 3)).toEqual([1, 2, 3]);
  });
});

describe('rack units', () => {
  it('numbers half units top to bottom, or bottom to top when descending', async () => {
    const { rackUnits, unitName, placeDevices } = await import('../../runtime/domain/rack-elevation.js');
    expect(rackUnits(2, 1, false)).toEqual([2.5, 2, 1.5, 1]);
    expect(rackUnits(2, 5, true)).toEqual([5, 5.5, 6, 6.5]);
    expect([2.5, 2].map(unitName)).toEqual(['U2.5', 'U2']);
    const device = {
      id: 1,
      position: 1,
      height: 1.5,
      face: 'front',
      visible: false,
      color: '',
      frontImage: null,
      rearImage: null,
    };
    const placed = placeDevices([2.5, 2, 1.5, 1], [device], true);
    expect(placed.map((u) => [u.occupied, u.device])).toEqual([
      [false, null],
      [true, null],
      [true, null],
      [true, null],
    ]);
    expect(placeDevices([2.5, 2, 1.5, 1], [device], false, true)[3]).toMatchObject({ device, height: 1.5 });
  });
});
