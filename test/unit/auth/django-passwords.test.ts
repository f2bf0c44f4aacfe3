import { describe, expect, it } from 'vitest';
import { verifyPassword } from '../../../runtime/auth/passwords.js';

/** Users imported from NetBox keep their Django password hashes (`pbkdf2_sha256$…`) and sign in with them. */
describe("Django's pbkdf2_sha256 password hashes", () => {
  // Made with Python's hashlib.pbkdf2_hmac('sha256', b'NetBox-Password-1', b'somesalt123', 1000).
  const stored = 'pbkdf2_sha256$1000$somesalt123$NurDjIizXMrNKO0KqcQ9o/0lSsLi4dEmp4OhBtGVaaE=';

  it('accepts the password they were made from, and no other', async () => {
    expect(await verifyPassword('NetBox-Password-1', stored)).toBe(true);
    expect(await verifyPassword('NetBox-Password-2', stored)).toBe(false);
  });

  it('refuses a malformed hash', async () => {
    expect(await verifyPassword('x', 'pbkdf2_sha256$abc$salt$AAAA')).toBe(false);
    expect(await verifyPassword('x', 'pbkdf2_sha256$1000$salt$')).toBe(false);
  });
});
