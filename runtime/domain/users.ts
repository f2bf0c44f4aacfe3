import { currentPepperId, randomToken, SECRET_LENGTH, KEY_LENGTH, tokenDigest } from '../auth/tokens.js';
import { now } from '../db/clock.js';
import type { DomainEntry, WriteItemContext } from './types.js';

/** `username`, or `username (First Last)` when the user has a name. */
export function displayUser(values: Record<string, unknown>): string {
  const full = [values.first_name, values.last_name].filter((v) => typeof v === 'string' && v.trim()).join(' ');
  return full ? `${String(values.username)} (${full})` : String(values.username ?? '');
}

/** v2 tokens show their key; v1 tokens a masked secret (34 `*` and its last 6 characters). */
export function displayToken(values: Record<string, unknown>): string {
  if (Number(values.version) === 1) return `${'*'.repeat(34)}${String(values.plaintext ?? '').slice(-6)}`;
  return String(values.key ?? '');
}

/** Django's username rule: letters, digits and `@ . + - _`. */
export function validateUsername(item: WriteItemContext): void {
  const username = item.values.username;
  if (typeof username === 'string' && !/^[\p{L}\p{N}@.+\-_]+$/u.test(username)) {
    item.errors.add(
      'username',
      'Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters.',
    );
  }
}

/**
 * Token creation: a v2 token gets a random key and the HMAC digest of its secret under the newest pepper;
 * a v1 token keeps its 40-character secret. The secret goes to `transient` so that only the response to
 * this request shows it.
 */
export function prepareToken(item: WriteItemContext): void {
  const { values, errors } = item;
  if (item.existing) {
    if (values.expires !== item.existing.expires) checkExpiry(item);
    return;
  }
  checkExpiry(item);
  const version = Number(values.version ?? 2);
  const supplied = typeof item.input.token === 'string' && item.input.token !== '' ? item.input.token : null;
  const secret = supplied ?? randomToken(SECRET_LENGTH);
  if (version === 1) {
    if (!item.settings.ALLOW_TOKEN_V1) {
      errors.add('version', 'v1 tokens are disabled on this server (ALLOW_TOKEN_V1).');
      return;
    }
    if (secret.length !== SECRET_LENGTH) {
      errors.add('token', `v1 tokens must be exactly ${SECRET_LENGTH} characters long.`);
      return;
    }
    Object.assign(values, { key: null, pepper_id: null, hmac_digest: null, plaintext: secret });
  } else {
    const pepperId = currentPepperId(item.settings.API_TOKEN_PEPPERS);
    if (pepperId === null) {
      errors.add('__all__', 'Unable to save v2 tokens: API_TOKEN_PEPPERS is not defined.');
      return;
    }
    const pepper = item.settings.API_TOKEN_PEPPERS[String(pepperId)]!;
    Object.assign(values, {
      key: randomToken(KEY_LENGTH),
      pepper_id: pepperId,
      hmac_digest: tokenDigest(pepper, secret),
      plaintext: null,
    });
  }
  item.transient.token = secret;
}

function checkExpiry(item: WriteItemContext): void {
  const expires = item.values.expires;
  if (typeof expires !== 'string') return;
  const current = now();
  if (expires <= current) {
    const shown = `${current.slice(0, 10)} ${current.slice(11, 19)} (UTC)`;
    item.errors.add('expires', `Expiration time must be in the future. Current server time is ${shown}.`);
  }
}

/** The plaintext appears only in the response to the request that created the token. */
export function presentToken(object: Record<string, unknown>, transient: Record<string, unknown> | undefined): void {
  if ('token' in object) object.token = (transient?.token as string | undefined) ?? null;
}

/** The users app's domain functions, by the names YAML uses. */
export const usersFunctions = {
  'users.displayToken': { kind: 'display', fn: displayToken },
  'users.displayUser': { kind: 'display', fn: displayUser },
  'users.prepareToken': { kind: 'prepare', fn: prepareToken },
  'users.presentToken': { kind: 'present', fn: presentToken },
  'users.validateUsername': { kind: 'validator', fn: validateUsername },
} satisfies Record<string, DomainEntry>;
