import type { Knex } from 'knex';
import type { Settings } from '../config.js';
import { now } from '../db/clock.js';
import type { AuthUser } from '../domain/types.js';
import { AuthenticationError } from '../http/errors.js';
import type { ModelInfo, Schema } from '../rest/schema.js';
import { decodeColumn } from '../rest/values.js';
import { safeEqual, tokenDigest, V2_PREFIX } from './tokens.js';
import { addressAllowed } from './networks.js';

/** The token a request authenticated with. */
export interface AuthToken {
  id: number;
  version: 1 | 2;
  writeEnabled: boolean;
}

export interface Authenticated {
  user: AuthUser;
  token: AuthToken | null;
}

const LAST_USED_INTERVAL_MS = 60_000;

/**
 * Authenticates an `Authorization` header (`Token <v1>`, `Bearer svc_<key>.<secret>`; the version is read
 * from the value, not the keyword). Returns null without credentials; throws AuthenticationError (403) with
 * NetBox's messages for bad ones.
 */
export async function authenticateHeader(
  q: Knex,
  schema: Schema,
  settings: Settings,
  header: string | undefined,
  clientIp: string | null,
): Promise<Authenticated | null> {
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
    row = (await q(tokenModel.table).where({ key, version: 2 }).first()) as Record<string, unknown> | undefined;
    const pepper = row ? settings.API_TOKEN_PEPPERS[String(row.pepper_id)] : undefined;
    if (!row || !pepper || !safeEqual(tokenDigest(pepper, secret), String(row.hmac_digest ?? ''))) {
      throw new AuthenticationError('Invalid v2 token');
    }
  } else {
    version = 1;
    row = (await q(tokenModel.table).where({ plaintext: value, version: 1 }).first()) as
      Record<string, unknown> | undefined;
    if (!row || !safeEqual(String(row.plaintext ?? ''), value)) throw new AuthenticationError('Invalid v1 token');
  }

  const token = decode(tokenModel, row);
  const allowed = (token.allowed_ips as string[] | null) ?? [];
  if (allowed.length > 0) {
    if (!clientIp) {
      throw new AuthenticationError(
        'Client IP address could not be determined for validation. Check that the HTTP server is correctly configured to pass the required header(s).',
      );
    }
    if (!addressAllowed(clientIp, allowed))
      throw new AuthenticationError(`Source IP ${clientIp} is not permitted to authenticate using this token.`);
  }
  if (token.enabled === false) throw new AuthenticationError('Token disabled');
  if (typeof token.expires === 'string' && token.expires <= now()) throw new AuthenticationError('Token expired');
  const userRow = (await q(userModel.table)
    .where('id', token.user as number)
    .first()) as Record<string, unknown> | undefined;
  const user = userRow ? toAuthUser(userModel, userRow) : null;
  if (!user || !user.isActive) throw new AuthenticationError('User inactive');

  if (!settings.MAINTENANCE_MODE) await touchLastUsed(q, tokenModel, token);
  return { user, token: { id: Number(row.id), version, writeEnabled: token.write_enabled !== false } };
}

function decode(model: ModelInfo, row: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = { id: Number(row.id) };
  for (const field of model.spec.fields) if (field.column) values[field.name] = decodeColumn(field, row[field.column]);
  return values;
}

/** The request's user from a row of the user model. */
export function toAuthUser(model: ModelInfo, row: Record<string, unknown>): AuthUser {
  const values = decode(model, row);
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
