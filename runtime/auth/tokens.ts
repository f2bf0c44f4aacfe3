import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** The prefix of v2 tokens in Authorization headers (NetBox uses `nbt_`). */
export const V2_PREFIX = 'svc_';
export const KEY_LENGTH = 12;
export const SECRET_LENGTH = 40;

/** A random string of `[A-Za-z0-9]`, each character drawn with a CSPRNG. */
export function randomToken(length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/** Lower-case hex HMAC-SHA256 of the secret, keyed with the pepper. */
export function tokenDigest(pepper: string, secret: string): string {
  return createHmac('sha256', Buffer.from(pepper, 'utf8')).update(Buffer.from(secret, 'utf8')).digest('hex');
}

/** Constant-time comparison of two strings. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The pepper id that new v2 tokens use: the highest configured. */
export function currentPepperId(peppers: Record<string, string>): number | null {
  const ids = Object.keys(peppers).map(Number);
  return ids.length ? Math.max(...ids) : null;
}
