import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header NetBox puts the body's signature in. */
export const SIGNATURE_HEADER = 'X-Hook-Signature';

/** Lowercase hex HMAC-SHA512 of the body's UTF-8 bytes, keyed by the secret's UTF-8 bytes (as NetBox). */
export function signWebhookBody(body: string | Buffer, secret: string): string {
  return createHmac('sha512', Buffer.from(secret, 'utf8'))
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest('hex');
}

/** For receivers: whether a received `X-Hook-Signature` matches the body, compared in constant time. */
export function verifyWebhookSignature(body: string | Buffer, secret: string, signature: string): boolean {
  const expected = Buffer.from(signWebhookBody(body, secret), 'utf8');
  const given = Buffer.from(signature.trim().toLowerCase(), 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}
