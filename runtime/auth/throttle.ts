import type { Knex } from 'knex';
import type { Dialect } from '../db/connect.js';
import { now, timestampAt } from '../db/clock.js';
import { ApiError } from '../errors.js';
import type { ModelInfo, Schema } from '../rest/schema.js';
import { lockKey } from '../db/transaction.js';

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

/** A password check that was let through: report its outcome. */
export interface SignInAttempt {
  /** The password was right: this username's failures from this address are forgotten. */
  succeeded(): Promise<void>;
  /** The password was wrong: the attempt stays counted for the window. */
  failed(): Promise<void>;
}

/**
 * Slows down password guessing (token provisioning and the sign-in page), for every server of the
 * database at once: an attempt is recorded in the sign-in attempt table *before* the password is checked,
 * under a per-address lock, so that parallel guesses cannot all pass the count. After `limit` attempts for
 * one username from one client address within `windowSeconds` (failed ones, and ones still being checked),
 * or `limit × 4` from one address over all usernames, further attempts are refused with 429 until the oldest
 * leaves the window. A success clears that username's attempts from that address. A registry without a
 * sign-in attempt model is not throttled.
 */
export class LoginThrottle {
  private readonly model: ModelInfo | undefined;

  constructor(
    private readonly q: Knex,
    schema: Schema,
    private readonly dialect: Dialect,
    private readonly limit: number,
    private readonly windowSeconds: number,
  ) {
    this.model = schema.withRole('sign_in_attempt');
  }

  /** Records an attempt, or throws ThrottledError while the address (or address and username) has too many. */
  async reserve(address: string | null, username: string): Promise<SignInAttempt> {
    const model = this.model;
    if (!model) return { succeeded: async () => undefined, failed: async () => undefined };
    const column = (name: string): string => model.fields.get(name)!.column!;
    const ip = (address ?? '-').slice(0, 100);
    const user = username.toLowerCase().slice(0, 150);
    await this.q.transaction(async (trx) => {
      await lockKey(trx, this.dialect, `sign-in attempts ${ip}`);
      const nowMs = Date.now();
      const since = timestampAt(nowMs - this.windowSeconds * 1000);
      await trx(model.table).where(column('time'), '<=', since).delete();
      const rows = (await trx(model.table)
        .where(column('address'), ip)
        .orderBy(column('time'))
        .select({ username: column('username'), time: column('time') })) as { username: string; time: string }[];
      const mine = rows.filter((r) => r.username === user);
      for (const [recent, limit] of [
        [mine, this.limit],
        [rows, this.limit * ADDRESS_FACTOR],
      ] as const) {
        if (recent.length < limit) continue;
        const oldest = Date.parse(recent[recent.length - limit]!.time);
        throw new ThrottledError(Math.max(1, Math.ceil((oldest + this.windowSeconds * 1000 - nowMs) / 1000)));
      }
      await trx(model.table).insert({ [column('address')]: ip, [column('username')]: user, [column('time')]: now() });
    });
    return {
      succeeded: async () => {
        await this.q(model.table).where(column('address'), ip).where(column('username'), user).delete();
      },
      failed: async () => undefined,
    };
  }
}
