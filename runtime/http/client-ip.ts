import { isIP } from 'node:net';
import type { Request } from 'express';

/**
 * The client's address: the first valid address in the first configured trusted-proxy header that the
 * request carries (`X-Forwarded-For: client, proxy1` → client), else the socket's peer. Headers are only
 * believed when configured (HTTP_CLIENT_IP_HEADERS), since any client can send them.
 */
export function clientIp(req: Request, trustedHeaders: readonly string[]): string | null {
  for (const header of trustedHeaders) {
    const value = req.get(header);
    if (!value) continue;
    const first = normalize(value.split(',')[0]!.trim());
    if (first) return first;
  }
  return normalize(req.socket.remoteAddress ?? '');
}

/** A bare address: without brackets, port or the IPv4-mapped IPv6 prefix; null when it is not an address. */
function normalize(raw: string): string | null {
  let value = raw;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) value = bracketed[1]!;
  else if (/^[\d.]+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(':'));
  if (value.toLowerCase().startsWith('::ffff:') && isIP(value.slice(7)) === 4) value = value.slice(7);
  return isIP(value) ? value : null;
}
