import { pbkdf2, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const PARAMS = { N: 16384, r: 8, p: 1, keylen: 32 } as const;

function derive(password: string, salt: Buffer, options: ScryptOptions & { keylen: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(
      password,
      salt,
      options.keylen,
      { N: options.N, r: options.r, p: options.p, maxmem: 64 * 1024 * 1024 },
      (err, key) => (err ? reject(err) : resolve(key)),
    );
  });
}

/** Hashes a password with scrypt: `scrypt$N$r$p$<salt b64>$<hash b64>`. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Checks a password against a stored hash in constant time; false for unusable hashes. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const parts = (stored ?? '').split('$');
  if (parts.length === 4 && parts[0] === 'pbkdf2_sha256') return verifyDjangoPassword(password, parts);
  if (parts.length !== 6 || parts[0] !== 'scrypt') {
    // Spend comparable time so that unknown users cannot be told apart by timing.
    await derive(password, randomBytes(16), PARAMS);
    return false;
  }
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    keylen: expected.length,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * Django's `pbkdf2_sha256$<iterations>$<salt>$<hash b64>` (passwords of users imported from NetBox): they sign
 * in with the password they had there.
 */
async function verifyDjangoPassword(password: string, parts: string[]): Promise<boolean> {
  const [, iterations, salt, hash] = parts as [string, string, string, string];
  const expected = Buffer.from(hash, 'base64');
  const rounds = Number(iterations);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 10_000_000 || expected.length === 0) return false;
  const key = await new Promise<Buffer>((resolve, reject) =>
    pbkdf2(password, salt, rounds, expected.length, 'sha256', (err, derived) => (err ? reject(err) : resolve(derived))),
  );
  return timingSafeEqual(key, expected);
}
