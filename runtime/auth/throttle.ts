import { ApiError } from '../http/errors.js';

/** 429 with DRF's text and a `Retry-After` header. */
export class ThrottledError extends ApiError {
  constructor(readonly retryAfter: number) {
    super(
      429,
      { detail: `Request was throttled. Expected available in ${retryAfter} seconds.` },
      {
        'Retry-After': String(retryAfter),
      },
    );
  }
}

/** How many more failures from one address (over all usernames) are tolerated than for one username. */
const ADDRESS_FACTOR = 4;
const KEY_LIMIT = 100_000;

/**
 * Slows down password guessing (token provisioning and the sign-in page): after `limit` failed attempts
 * for one username from one client address within `windowSeconds`, or `limit × 4` from one address over
 * all usernames, further attempts are refused with 429 until the oldest failure leaves the window. A
 * success clears that username's failures from that address. Counters live in the process's memory.
 */
export class LoginThrottle {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowSeconds: number,
  ) {}

  /** Throws ThrottledError while the address (or the address and username) has too many recent failures. */
  check(address: string | null, username: string): void {
    const now = Date.now();
    for (const [key, limit] of this.keys(address, username)) {
      const recent = this.recent(key, now);
      if (recent.length >= limit) {
        const wait = Math.ceil((recent[recent.length - limit]! + this.windowSeconds * 1000 - now) / 1000);
        throw new ThrottledError(Math.max(1, wait));
      }
    }
  }

  failed(address: string | null, username: string): void {
    const now = Date.now();
    if (this.failures.size >= KEY_LIMIT) this.failures.clear();
    for (const [key] of this.keys(address, username)) this.failures.set(key, [...this.recent(key, now), now]);
  }

  succeeded(address: string | null, username: string): void {
    this.failures.delete(`${address ?? '-'}|${username.toLowerCase()}`);
  }

  private keys(address: string | null, username: string): [string, number][] {
    const ip = address ?? '-';
    return [
      [`${ip}|${username.toLowerCase()}`, this.limit],
      [ip, this.limit * ADDRESS_FACTOR],
    ];
  }

  private recent(key: string, now: number): number[] {
    const since = now - this.windowSeconds * 1000;
    return (this.failures.get(key) ?? []).filter((at) => at > since);
  }
}
