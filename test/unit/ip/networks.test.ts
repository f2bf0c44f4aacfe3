import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { addressAllowed } from '../../../runtime/auth/networks.js';
import { clientIp } from '../../../runtime/http/client-ip.js';
import { normalizeNetwork } from '../../../runtime/rest/parse-field.js';

/**
 * Address arithmetic beyond parseIp (test/runtime/ip.test.ts): a token's allowed networks as written and as
 * checked, and the client address a request is judged by.
 */

describe('normalizeNetwork (allowed_ips items)', () => {
  it.each([
    ['192.0.2.0/24', '192.0.2.0/24'],
    [' 192.0.2.0/24 ', '192.0.2.0/24'],
    ['192.0.2.7', '192.0.2.7/32'],
    ['2001:db8::/32', '2001:db8::/32'],
    ['2001:db8::1', '2001:db8::1/128'],
    ['10.0.0.0/008', '10.0.0.0/8'],
    // Host bits are kept, as in netaddr's IPNetwork; membership still means the whole network.
    ['192.0.2.5/24', '192.0.2.5/24'],
    ['0.0.0.0/0', '0.0.0.0/0'],
  ])('%j → %s', (text, network) => {
    expect(normalizeNetwork(text)).toBe(network);
  });

  it.each([
    '',
    '/24',
    '192.0.2.0/',
    '192.0.2.0/33',
    '2001:db8::/129',
    '192.0.2.0/-1',
    '192.0.2.0/x',
    '192.0.2.0/24/1',
    'example.com',
    '192.0.2',
  ])('rejects %j', (text) => {
    expect(normalizeNetwork(text)).toBeNull();
  });
});

describe('addressAllowed', () => {
  it.each([
    ['an address inside', '192.0.2.200', ['192.0.2.0/24'], true],
    ['an address outside', '198.51.100.1', ['192.0.2.0/24'], false],
    ['the network and broadcast addresses', '192.0.2.255', ['192.0.2.0/24'], true],
    ['a network written with host bits', '192.0.2.200', ['192.0.2.5/24'], true],
    ['a single host', '192.0.2.7', ['192.0.2.7/32'], true],
    ['a neighbour of a single host', '192.0.2.8', ['192.0.2.7/32'], false],
    ['any of several networks', '2001:db8::1', ['192.0.2.0/24', '2001:db8::/32'], true],
    ['an IPv6 address outside', '2001:db9::1', ['2001:db8::/32'], false],
    ['an IPv4-mapped IPv6 client as IPv4', '::ffff:192.0.2.1', ['192.0.2.0/24'], true],
    ['an IPv4 client against an IPv6 network', '192.0.2.1', ['2001:db8::/32'], false],
    ['everything in /0', '203.0.113.9', ['0.0.0.0/0'], true],
    ['no networks', '192.0.2.1', [], false],
    ['a client that is no address', 'localhost', ['0.0.0.0/0'], false],
    ['an entry that is no network', '192.0.2.1', ['example.com', '192.0.2.0/24'], true],
  ])('%s', (_name, address, networks, allowed) => {
    expect(addressAllowed(address, networks)).toBe(allowed);
  });

  it('agrees with normalizeNetwork on every network it accepts', () => {
    for (const written of ['192.0.2.0/24', '10.1.2.3', '2001:db8::/48', '::1']) {
      const network = normalizeNetwork(written)!;
      const host = network.split('/')[0]!;
      expect(addressAllowed(host, [network]), written).toBe(true);
    }
  });
});

describe('clientIp', () => {
  const request = (headers: Record<string, string>, remoteAddress?: string): Request =>
    ({
      get: (name: string) => headers[name.toLowerCase()],
      socket: { remoteAddress },
    }) as unknown as Request;

  it.each([
    ['the socket peer without trusted headers', {}, [], '192.0.2.9', '192.0.2.9'],
    [
      'the socket peer when headers are not trusted',
      { 'x-forwarded-for': '203.0.113.1' },
      [],
      '192.0.2.9',
      '192.0.2.9',
    ],
    [
      'the first address of a trusted header',
      { 'x-forwarded-for': '203.0.113.1, 10.0.0.1' },
      ['X-Forwarded-For'],
      '192.0.2.9',
      '203.0.113.1',
    ],
    [
      'the first trusted header that is present',
      { 'x-forwarded-for': '203.0.113.1' },
      ['X-Real-IP', 'X-Forwarded-For'],
      '192.0.2.9',
      '203.0.113.1',
    ],
    ['an IPv4 address with a port', { 'x-real-ip': '203.0.113.1:5050' }, ['X-Real-IP'], undefined, '203.0.113.1'],
    [
      'a bracketed IPv6 address with a port',
      { 'x-real-ip': '[2001:db8::1]:443' },
      ['X-Real-IP'],
      undefined,
      '2001:db8::1',
    ],
    ['an IPv4-mapped peer as IPv4', {}, [], '::ffff:192.0.2.9', '192.0.2.9'],
    ['an IPv6 peer', {}, [], '2001:db8::9', '2001:db8::9'],
    ['the peer when the header holds no address', { 'x-real-ip': 'unknown' }, ['X-Real-IP'], '192.0.2.9', '192.0.2.9'],
    ['nothing without a peer', {}, [], undefined, null],
  ])('is %s', (_name, headers, trusted, remote, expected) => {
    expect(clientIp(request(headers, remote), trusted)).toBe(expected);
  });
});
