import { isIP } from 'node:net';

/**
 * IPv4/IPv6 addresses and networks as the API stores them: canonical text (dotted quads; RFC 5952 for
 * IPv6) plus the first and last address as 32 hex digits, so that ordering and containment are string
 * comparisons on both databases.
 */
export interface ParsedIp {
  family: 4 | 6;
  /** Mask length. */
  len: number;
  /** The address as written (host part kept), canonical. */
  address: string;
  /** The network address, canonical. */
  network: string;
  /** First and last address of the network, 32 hex digits. */
  start: string;
  end: string;
  /** The address itself, 32 hex digits. */
  host: string;
}

const V6_BITS = 128n;

/**
 * Parses `address[/mask]` as netaddr does: the mask is a length, a netmask (`255.255.255.0`) or a host
 * mask (`0.0.0.255`); a missing mask means a host mask. Null when it is not an IP.
 */
export function parseIp(text: string): ParsedIp | null {
  const trimmed = text.trim();
  const slash = trimmed.indexOf('/');
  const addressText = slash < 0 ? trimmed : trimmed.slice(0, slash);
  const maskText = slash < 0 ? null : trimmed.slice(slash + 1);
  const family = isIP(addressText) as 0 | 4 | 6;
  if (family === 0) return null;
  const bits = family === 4 ? 32 : 128;
  const value = toBigInt(family, addressText);
  if (value === null) return null;
  const len = maskText === null ? bits : parseMask(family, maskText);
  if (len === null) return null;
  const width = BigInt(bits);
  const hostMask = (1n << (width - BigInt(len))) - 1n;
  const networkValue = value & ~hostMask & ((1n << width) - 1n);
  const lastValue = networkValue | hostMask;
  const toText = (v: bigint): string => (family === 4 ? bigIntToV4(v) : bigIntToV6(v));
  return {
    family,
    len,
    address: toText(value),
    network: toText(networkValue),
    start: hex(networkValue),
    end: hex(lastValue),
    host: hex(value),
  };
}

/** An address of the family as canonical text (dotted quad; RFC 5952). */
export function formatIp(family: 4 | 6, value: bigint): string {
  return family === 4 ? bigIntToV4(value) : bigIntToV6(value);
}

/** The 32-hex-digit form of an address (as the hidden range columns store it) as a number. */
export function hexToBigInt(text: string): bigint {
  return BigInt(`0x${text}`);
}

/** A number as the hidden range columns store it: 32 hex digits. */
export function bigIntToHex(value: bigint): string {
  return hex(value);
}

function toBigInt(family: 4 | 6, text: string): bigint | null {
  return family === 4 ? v4ToBigInt(text) : v6ToBigInt(text);
}

/** A mask length, or a netmask / host mask of the same family written as an address; null when invalid. */
function parseMask(family: 4 | 6, text: string): number | null {
  const bits = family === 4 ? 32 : 128;
  if (/^\d{1,3}$/.test(text)) return Number(text) <= bits ? Number(text) : null;
  if (isIP(text) !== family) return null;
  const value = toBigInt(family, text);
  if (value === null) return null;
  const all = (1n << BigInt(bits)) - 1n;
  // A netmask is ones then zeros; a host mask zeros then ones (netaddr tries the netmask first).
  for (let len = 0; len <= bits; len += 1) {
    if (value === (all ^ ((1n << BigInt(bits - len)) - 1n))) return len;
  }
  for (let len = 0; len <= bits; len += 1) {
    if (value === (1n << BigInt(bits - len)) - 1n) return len;
  }
  return null;
}

/** 32 hex digits; IPv4 values are zero-extended (the family column keeps them apart). */
function hex(value: bigint): string {
  return value.toString(16).padStart(Number(V6_BITS / 4n), '0');
}

function v4ToBigInt(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part) || Number(part) > 255) return null;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

function bigIntToV4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 255n)).join('.');
}

function v6ToBigInt(text: string): bigint | null {
  let address = text.toLowerCase();
  const zone = address.indexOf('%');
  if (zone >= 0) return null;
  // An embedded IPv4 tail (::ffff:192.0.2.1) becomes two hextets.
  const lastColon = address.lastIndexOf(':');
  const tail = address.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = v4ToBigInt(tail);
    if (v4 === null) return null;
    address = `${address.slice(0, lastColon + 1)}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const rest = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? head.length !== 8 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  let value = 0n;
  for (const group of groups) {
    if (!/^[0-9a-f]{1,4}$/.test(group)) return null;
    value = (value << 16n) | BigInt(`0x${group}`);
  }
  return value;
}

/**
 * RFC 5952: lower case, leading zeros dropped, the longest (leftmost on a tie) run of two or more zero
 * groups as `::`. IPv4-mapped (`::ffff:192.0.2.1`) and IPv4-compatible (`::192.0.2.1`) addresses keep
 * their last 32 bits in dotted form, as NetBox (netaddr over inet_ntop) prints them.
 */
function bigIntToV6(value: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((value >> BigInt((7 - i) * 16)) & 0xffffn));
  const embedsV4 = value >> 32n === 0xffffn || (value > 0xffffn && value <= 0xffffffffn);
  const text = groups.map((g) => g.toString(16));
  if (embedsV4) text.splice(6, 2, bigIntToV4(value & 0xffffffffn));
  let bestStart = -1;
  let bestLength = 0;
  for (let i = 0; i < text.length;) {
    if (text[i] !== '0') {
      i += 1;
      continue;
    }
    let j = i;
    while (j < text.length && text[j] === '0') j += 1;
    if (j - i > bestLength && j - i >= 2) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  if (bestStart < 0) return text.join(':');
  const left = text.slice(0, bestStart).join(':');
  const right = text.slice(bestStart + bestLength).join(':');
  return `${left}::${right}`;
}
