import type { Knex } from 'knex';
import type { Settings } from '../config.js';
import { now } from '../db/clock.js';
import type { AuthToken, AuthUser } from './principal.js';
import { AuthenticationError } from '../errors.js';
import type { ModelInfo, Schema } from '../rest/schema.js';
import { decodeRow } from '../rest/values.js';
import { safeEqual, tokenDigest, V2_PREFIX } from './tokens.js';
import { addressAllowed } from './networks.js';

export interface Authenticated {
  user: AuthUser;
  token: AuthToken | null;
}

const LAST_USED_INTERVAL_MS = 60_000;

interface CachedAuthentication {
  result: Authenticated;
  allowedIps: string[];
  expires: string | null;
  validUntil: number;
}

const CACHE_LIMIT = 10_000;

/**
 * Authenticates requests, remembering verified tokens for CACHE_SECONDS so that a busy client does not
 * pay a query and an HMAC per request. Expiry and allowed IPs are still checked on every request; any change
 * to a token or user made through this process empties the cache at once (other processes notice within
 * the cache lifetime).
 */
export class Authenticator {
  private readonly cache = new Map<string, CachedAuthentication>();
  private generation = 0;

  constructor(
    private readonly q: Knex,
    private readonly schema: Schema,
    private readonly settings: Settings,
  ) {}

  /** Forgets every verified token (after tokens or users changed). */
  invalidate(): void {
    this.generation += 1;
    this.cache.clear();
  }

  async authenticate(header: string | undefined, clientIp: string | null): Promise<Authenticated | null> {
    const ttl = this.settings.CACHE_SECONDS * 1000;
    const cached = header && ttl > 0 ? this.cache.get(header) : undefined;
    if (cached && cached.validUntil > Date.now()) {
      checkAllowedIps(cached.allowedIps, clientIp);
      if (cached.expires !== null && cached.expires <= now()) throw new AuthenticationError('Token expired');
      return cached.result;
    }
    const generation = this.generation;
    const verified = await verifyHeader(this.q, this.schema, this.settings, header, clientIp);
    if (!verified || ttl <= 0 || generation !== this.generation) return verified?.result ?? null;
    if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
    this.cache.set(header!, { ...verified, validUntil: Date.now() + ttl });
    return verified.result;
  }
}

/** Checks the client address against a token's allowed networks (empty: anywhere). */
function checkAllowedIps(allowed: readonly string[], clientIp: string | null): void {
  if (allowed.length === 0) return;
  if (!clientIp) {
    throw new AuthenticationError(
      'Client IP address could not be determined for validation. Check that the HTTP server is correctly configured to pass the required header(s).',
    );
  }
  if (!addressAllowed(clientIp, allowed)) {
    throw new AuthenticationError(`Source IP ${clientIp} is not permitted to authenticate using this token.`);
  }
}

/**
 * Verifies an `Authorization` header (`Token <v1>`, `Bearer svc_<key>.<secret>`; the version is read from
 * the value, not the keyword) against the database. Returns null without credentials; throws
 * AuthenticationError (403) with NetBox's messages for bad ones.
 */
async function verifyHeader(
  q: Knex,
  schema: Schema,
  settings: Settings,
  header: string | undefined,
  clientIp: string | null,
): Promise<Omit<CachedAuthentication, 'validUntil'> | null> {
  if (!header) return null;
  const parts = header.trim().split(/\s+/);
  const keyword = parts[0]?.toLowerCase();
  if (keyword !== 'token' && keyword !== 'bearer') return null;
  if (parts.length !== 2) {
    throw new AuthenticationError(
      'Invalid authorization header: Must be in the form "Bearer <key>.<token>" or "Token <token>"',
    );
  }
  const value = parts[1]!;
  if (!/^[\x21-\x7e]+$/.test(value))
    throw new AuthenticationError('Invalid authorization header: Token contains invalid characters');
  const tokenModel = schema.withRole('token');
  const userModel = schema.withRole('user');
  if (!tokenModel || !userModel) throw new AuthenticationError('Invalid v1 token');

  let row: Record<string, unknown> | undefined;
  let version: 1 | 2;
  if (value.startsWith(V2_PREFIX)) {
    version = 2;
    const body = value.slice(V2_PREFIX.length);
    const dot = body.indexOf('.');
    if (dot < 0) {
      throw new AuthenticationError(
        "Invalid authorization header: Could not parse key from v2 token. Did you mean to use 'Token' instead of 'Bearer'?",
      );
    }
    const key = body.slice(0, dot);
    const secret = body.slice(dot + 1);
    row = await findToken(q, tokenModel, userModel, { key, version: 2 });
    const pepper = row ? settings.API_TOKEN_PEPPERS[String(row.pepper_id)] : undefined;
    if (!row || !pepper || !safeEqual(tokenDigest(pepper, secret), String(row.hmac_digest ?? ''))) {
      throw new AuthenticationError('Invalid v2 token');
    }
  } else {
    version = 1;
    row = await findToken(q, tokenModel, userModel, { plaintext: value, version: 1 });
    if (!row || !safeEqual(String(row.plaintext ?? ''), value)) throw new AuthenticationError('Invalid v1 token');
  }

  const token: Record<string, unknown> = { id: Number(row.id), ...decodeRow(tokenModel.spec.fields, row) };
  const allowed = (token.allowed_ips as string[] | null) ?? [];
  checkAllowedIps(allowed, clientIp);
  if (token.enabled === false) throw new AuthenticationError('Token disabled');
  if (typeof token.expires === 'string' && token.expires <= now()) throw new AuthenticationError('Token expired');
  const userRow = Object.fromEntries(
    Object.entries(row)
      .filter(([k]) => k.startsWith(USER_PREFIX))
      .map(([k, v]) => [k.slice(USER_PREFIX.length), v]),
  );
  const user = userRow.id === null || userRow.id === undefined ? null : toAuthUser(userModel, userRow);
  if (!user || !user.isActive) throw new AuthenticationError('User inactive');

  if (!settings.MAINTENANCE_MODE) await touchLastUsed(q, tokenModel, token);
  return {
    result: { user, token: { id: Number(row.id), version, writeEnabled: token.write_enabled !== false } },
    allowedIps: allowed,
    expires: typeof token.expires === 'string' ? token.expires : null,
  };
}

const USER_PREFIX = 'user__';

/** The token row with its user's columns (prefixed `user__`), in one query. */
async function findToken(
  q: Knex,
  tokenModel: ModelInfo,
  userModel: ModelInfo,
  where: Record<string, string | number>,
): Promise<Record<string, unknown> | undefined> {
  const userColumns = ['id', ...userModel.spec.fields.filter((f) => f.column).map((f) => f.column!)];
  const userField = tokenModel.spec.fields.find((f) => f.kind === 'fk' && f.target === userModel.label);
  return (await q({ t: tokenModel.table })
    .leftJoin({ u: userModel.table }, 'u.id', `t.${userField?.column ?? 'user_id'}`)
    .where(Object.fromEntries(Object.entries(where).map(([k, v]) => [`t.${k}`, v])))
    .first(['t.*', ...userColumns.map((c) => `u.${c} as ${USER_PREFIX}${c}`)])) as Record<string, unknown> | undefined;
}

/** The request's user from a row of the user model. */
export function toAuthUser(model: ModelInfo, row: Record<string, unknown>): AuthUser {
  const values = decodeRow(model.spec.fields, row);
  return {
    id: Number(row.id),
    username: String(values.username),
    isSuperuser: values.is_superuser === true,
    isActive: values.is_active !== false,
  };
}

/** Records token use at most once a minute, so that authentication stays a read on most requests. */
async function touchLastUsed(q: Knex, model: ModelInfo, token: Record<string, unknown>): Promise<void> {
  const current = now();
  const last = token.last_used as string | null;
  if (last && Date.parse(current) - Date.parse(last) < LAST_USED_INTERVAL_MS) return;
  await q(model.table)
    .where('id', token.id as number)
    .update({ last_used: current });
}
