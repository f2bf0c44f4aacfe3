import { describe, expect, it } from 'vitest';
import { parseIp } from '../../runtime/rest/ip.js';

/** 32 hex digits of a value given in hex (IPv4 values are zero-extended). */
const hex = (digits: string): string => digits.padStart(32, '0');

describe('parseIp: IPv4', () => {
  it('parses an address with a mask, keeping the host and deriving the network and its range', () => {
    expect(parseIp('192.0.2.1/24')).toEqual({
      family: 4,
      len: 24,
      address: '192.0.2.1',
      network: '192.0.2.0',
      start: hex('c0000200'),
      end: hex('c00002ff'),
      host: hex('c0000201'),
    });
  });

  it('reads a missing mask as a host mask (/32)', () => {
    expect(parseIp('10.1.2.3')).toMatchObject({ len: 32, network: '10.1.2.3', start: hex('0a010203') });
    expect(parseIp('10.1.2.3')!.end).toBe(hex('0a010203'));
  });

  it.each([
    ['0.0.0.0/0', 0, '0.0.0.0', hex('0'), hex('ffffffff')],
    ['10.20.30.40/8', 8, '10.0.0.0', hex('0a000000'), hex('0affffff')],
    ['172.16.5.4/12', 12, '172.16.0.0', hex('ac100000'), hex('ac1fffff')],
    ['192.0.2.5/31', 31, '192.0.2.4', hex('c0000204'), hex('c0000205')],
    ['255.255.255.255/32', 32, '255.255.255.255', hex('ffffffff'), hex('ffffffff')],
    ['198.51.100.77/27', 27, '198.51.100.64', hex('c6336440'), hex('c633645f')],
  ])('%s has length %i, network %s and range %s–%s', (text, len, network, start, end) => {
    expect(parseIp(text)).toMatchObject({ family: 4, len, network, start, end });
  });

  it('accepts a netmask or a host mask in place of the length, as netaddr does', () => {
    expect(parseIp('192.0.2.9/255.255.255.0')).toMatchObject({ len: 24, network: '192.0.2.0', address: '192.0.2.9' });
    expect(parseIp('10.0.0.0/0.255.255.255')).toMatchObject({ len: 8, network: '10.0.0.0' });
    expect(parseIp('10.0.0.0/255.255.255.255')!.len).toBe(32);
    expect(parseIp('10.0.0.0/0.0.0.0')!.len).toBe(0);
    expect(parseIp('10.0.0.0/255.0.255.0')).toBeNull();
    expect(parseIp('10.0.0.0/ffff::')).toBeNull();
  });

  it('ignores surrounding white space and leading zeros in the length', () => {
    expect(parseIp('  192.0.2.1/24 ')!.address).toBe('192.0.2.1');
    expect(parseIp('10.0.0.0/08')!.len).toBe(8);
  });

  it.each([
    '',
    ' ',
    'abc',
    '1.2.3',
    '1.2.3.4.5',
    '256.0.0.1',
    '192.0.2.-1',
    '010.0.0.1',
    '0x0a.0.0.1',
    '192.0.2.1/33',
    '192.0.2.1/-1',
    '192.0.2.1/',
    '192.0.2.1/ 24',
    '192.0.2.1/24/1',
    '192.0.2.1/1000',
    '192.0.2.1/x',
    '/24',
  ])('rejects %j', (text) => {
    expect(parseIp(text)).toBeNull();
  });
});

describe('parseIp: IPv6', () => {
  it('parses an address with a mask into RFC 5952 text and 128-bit ranges', () => {
    expect(parseIp('2001:DB8:0:0:0:0:0:1/64')).toEqual({
      family: 6,
      len: 64,
      address: '2001:db8::1',
      network: '2001:db8::',
      start: '20010db8000000000000000000000000',
      end: '20010db800000000ffffffffffffffff',
      host: '20010db8000000000000000000000001',
    });
  });

  it('reads a missing mask as /128', () => {
    expect(parseIp('2001:db8::1')).toMatchObject({ len: 128, network: '2001:db8::1' });
  });

  it.each([
    ['2001:DB8:0:0::/32', '2001:db8::'],
    ['2001:0db8:0000:0000:0000:0000:0000:0000/32', '2001:db8::'],
    ['::', '::'],
    ['0:0:0:0:0:0:0:0', '::'],
    ['::1', '::1'],
    ['1::', '1::'],
    ['fe80::', 'fe80::'],
    ['FE80:0:0:0:0200:5EFF:FE00:5301', 'fe80::200:5eff:fe00:5301'],
    // One zero group is never shortened; the longest run wins, the first one on a tie.
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
    ['1:2:3:4:5:6:7::', '1:2:3:4:5:6:7:0'],
    ['::2:3:4:5:6:7:8', '0:2:3:4:5:6:7:8'],
    ['2001:0:0:1:0:0:0:1', '2001:0:0:1::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:db8::1:0:0:1', '2001:db8::1:0:0:1'],
    ['1:0:0:2:0:0:0:0', '1:0:0:2::'],
    ['0:0:1:0:0:0:0:1', '0:0:1::1'],
    ['1:2:3:4:5:6:7:8', '1:2:3:4:5:6:7:8'],
    ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ])('writes %s as %s', (text, canonical) => {
    expect(parseIp(text)!.address).toBe(canonical);
  });

  it.each([
    // Embedded IPv4 is accepted on input; mapped and compatible addresses keep dotted quads on output.
    ['::ffff:192.0.2.1', '::ffff:192.0.2.1', '00000000000000000000ffffc0000201'],
    ['::FFFF:c000:0201', '::ffff:192.0.2.1', '00000000000000000000ffffc0000201'],
    ['0:0:0:0:0:ffff:192.0.2.1', '::ffff:192.0.2.1', '00000000000000000000ffffc0000201'],
    ['::ffff:0.0.0.0', '::ffff:0.0.0.0', '00000000000000000000ffff00000000'],
    ['::192.0.2.1', '::192.0.2.1', '000000000000000000000000c0000201'],
    ['::1:0', '::0.1.0.0', '00000000000000000000000000010000'],
    ['::ffff', '::ffff', '0000000000000000000000000000ffff'],
    ['::1:0:0', '::1:0:0', '00000000000000000000000100000000'],
    ['64:ff9b::192.0.2.33', '64:ff9b::c000:221', '0064ff9b0000000000000000c0000221'],
    ['1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:102:304', '00010002000300040005000601020304'],
  ])('reads %s as %s (%s)', (text, canonical, host) => {
    expect(parseIp(text)).toMatchObject({ family: 6, address: canonical, host });
  });

  it.each([
    ['::/0', 0, '::', '0'.repeat(32), 'f'.repeat(32)],
    ['2001:db8::1/32', 32, '2001:db8::', '20010db8' + '0'.repeat(24), '20010db8' + 'f'.repeat(24)],
    [
      '2001:db8:1:2::5/127',
      127,
      '2001:db8:1:2::4',
      '20010db8000100020000000000000004',
      '20010db8000100020000000000000005',
    ],
    ['2001:db8::ff/120', 120, '2001:db8::', '20010db8' + '0'.repeat(24), '20010db8' + '0'.repeat(22) + 'ff'],
    [
      '2001:db8:abcd:12::/60',
      60,
      '2001:db8:abcd:10::',
      '20010db8abcd0010' + '0'.repeat(16),
      '20010db8abcd001f' + 'f'.repeat(16),
    ],
  ])('%s has length %i and network %s (%s–%s)', (text, len, network, start, end) => {
    expect(parseIp(text)).toMatchObject({ family: 6, len, network, start, end });
  });

  it('accepts an IPv6 netmask in place of the length', () => {
    expect(parseIp('2001:db8::/ffff:ffff::')).toMatchObject({ len: 32, network: '2001:db8::' });
    expect(parseIp('2001:db8::/255.255.0.0')).toBeNull();
  });

  it('orders by value through the hex columns: IPv4 below IPv6, numerically within a family', () => {
    const hosts = ['10.0.0.0/8', '9.0.0.0/8', '192.0.2.10', '192.0.2.9', '::1', '2001:db8::', '100.64.0.0/10'].map(
      (t) => parseIp(t)!,
    );
    const sorted = [...hosts].sort((a, b) => a.family - b.family || (a.start < b.start ? -1 : 1));
    expect(sorted.map((h) => h.address)).toEqual([
      '9.0.0.0',
      '10.0.0.0',
      '100.64.0.0',
      '192.0.2.9',
      '192.0.2.10',
      '::1',
      '2001:db8::',
    ]);
  });

  it.each([
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    '1::2::3',
    ':::',
    ':1::',
    '1::2:',
    '2001:db8::00001',
    '2001:db8::g',
    'fe80::1%eth0',
    '::ffff:1.2.3.256',
    '::1.2.3.4.5',
    '1:2:3:4:5:6:7:1.2.3.4',
    '2001:db8::/129',
    '2001:db8::/-1',
    '[2001:db8::1]',
    '2001:db8::1/64/1',
  ])('rejects %j', (text) => {
    expect(parseIp(text)).toBeNull();
  });
});
