import { createHmac, randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import type { Knex } from 'knex';
import type { Settings } from '../config.js';
import type { AuthUser } from './principal.js';
import { PermissionDeniedError } from '../errors.js';
import type { ModelInfo, Schema } from '../rest/schema.js';
import { toAuthUser } from './authenticate.js';
import { verifyPassword } from './passwords.js';
import type { LoginThrottle } from './throttle.js';
import { safeEqual } from './tokens.js';

export const SESSION_COOKIE = 'sessionid';
export const CSRF_COOKIE = 'csrftoken';
export const CSRF_HEADER = 'X-CSRFToken';
/** The hidden form field that echoes the CSRF cookie (Django's name). */
export const CSRF_FIELD = 'csrfmiddlewaretoken';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/** The cookies of a request, name → value (the first of duplicates). */
export function cookiesOf(req: Request): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    if (!name || name in cookies) continue;
    try {
      cookies[name] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      // A malformed value is ignored, like a missing one.
    }
  }
  return cookies;
}

/**
 * Signed cookie sessions for people using a browser (the browsable API and Swagger UI). The cookie holds the
 * user id, an expiry and a digest of the user's password hash, signed with HMAC-SHA256 under SECRET_KEY:
 * a changed password, a deactivated or deleted user or an expired cookie ends the session. Unsafe requests
 * made with a session must echo the `csrftoken` cookie in `X-CSRFToken` (double-submit); requests with a
 * token never need it.
 */
export class Sessions {
  private readonly key: Buffer;

  constructor(
    private readonly q: Knex,
    private readonly schema: Schema,
    private readonly settings: Settings,
  ) {
    this.key = signingKey(settings);
  }

  private get userModel(): ModelInfo | undefined {
    return this.schema.withRole('user');
  }

  /** The cookie value for a new session of a user (their stored row: password hash, session generation). */
  issue(userId: number, row: Record<string, unknown>): string {
    const payload = Buffer.from(
      JSON.stringify({
        u: userId,
        e: Math.floor(Date.now() / 1000) + this.settings.SESSION_COOKIE_AGE,
        h: this.digest(`password:${String(row.password ?? '')}`).slice(0, 22),
        g: this.generationOf(row),
      }),
    ).toString('base64url');
    return `${payload}.${this.digest(`session:${payload}`)}`;
  }

  /** The session's active user, or null for a missing, forged, expired or outdated cookie. */
  async userOf(cookie: string): Promise<AuthUser | null> {
    const model = this.userModel;
    const [payload, signature] = cookie.split('.');
    if (!model || !payload || !signature || !safeEqual(signature, this.digest(`session:${payload}`))) return null;
    let data: { u?: unknown; e?: unknown; h?: unknown; g?: unknown };
    try {
      data = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as typeof data;
    } catch {
      return null;
    }
    if (typeof data.u !== 'number' || typeof data.e !== 'number' || data.e * 1000 <= Date.now()) return null;
    const row = (await this.q(model.table).where('id', data.u).first()) as Record<string, unknown> | undefined;
    if (!row || typeof data.h !== 'string') return null;
    if (!safeEqual(data.h, this.digest(`password:${String(row.password ?? '')}`).slice(0, 22))) return null;
    if (data.g !== this.generationOf(row)) return null;
    const user = toAuthUser(model, row);
    return user.isActive ? user : null;
  }

  /**
   * Ends every session of the user issued so far (signing out): the user's session generation moves on, and
   * cookies carry the generation they were issued under. Stored in the database, so every server agrees.
   */
  async revoke(userId: number): Promise<void> {
    const column = this.userModel?.fields.get('session_generation')?.column;
    if (!column) return;
    await this.q(this.userModel!.table)
      .where('id', userId)
      .update({ [column]: this.q.raw('?? + 1', [column]) });
  }

  private generationOf(row: Record<string, unknown>): number {
    const column = this.userModel?.fields.get('session_generation')?.column;
    return column ? Number(row[column] ?? 0) : 0;
  }

  private digest(value: string): string {
    return createHmac('sha256', this.key).update(value).digest('base64url');
  }
}

/** SECRET_KEY; else a key derived from the token peppers (stable across restarts); else a random one. */
function signingKey(settings: Settings): Buffer {
  if (settings.SECRET_KEY) return Buffer.from(settings.SECRET_KEY, 'utf8');
  const peppers = Object.entries(settings.API_TOKEN_PEPPERS).sort(([a], [b]) => Number(a) - Number(b));
  if (peppers.length > 0) {
    return createHmac('sha256', 'session-signing-key').update(JSON.stringify(peppers)).digest();
  }
  return randomBytes(32);
}

/** Refuses an unsafe request made with a session whose `X-CSRFToken` header does not match its cookie. */
export function checkCsrf(req: Request): void {
  if (SAFE_METHODS.has(req.method)) return;
  const expected = cookiesOf(req)[CSRF_COOKIE];
  const given = req.get(CSRF_HEADER);
  if (!expected || !given) throw new PermissionDeniedError('CSRF Failed: CSRF token missing.');
  if (!safeEqual(given, expected)) throw new PermissionDeniedError('CSRF Failed: CSRF token incorrect.');
}

/** Sets one of the session cookies (path BASE_PATH, SameSite=Lax, Secure over HTTPS). */
export function setCookie(
  req: Request,
  res: Response,
  settings: Settings,
  name: string,
  value: string,
  httpOnly: boolean,
): void {
  res.cookie(name, value, {
    path: settings.BASE_PATH || '/',
    httpOnly,
    sameSite: 'lax',
    secure: req.secure,
    maxAge: settings.SESSION_COOKIE_AGE * 1000,
  });
}

/** The CSRF cookie's token for a form to echo; a new cookie is set when it is missing or malformed. */
export function csrfTokenFor(req: Request, res: Response, settings: Settings): string {
  const existing = cookiesOf(req)[CSRF_COOKIE];
  if (existing && /^[A-Za-z0-9_-]{20,100}$/.test(existing)) return existing;
  const token = randomBytes(24).toString('base64url');
  setCookie(req, res, settings, CSRF_COOKIE, token, false);
  return token;
}

/** Whether a submitted form echoes the CSRF cookie (in its hidden field or the `X-CSRFToken` header). */
export function isFormCsrfValid(req: Request): boolean {
  const expected = cookiesOf(req)[CSRF_COOKIE];
  const given = (req.body as Record<string, unknown> | undefined)?.[CSRF_FIELD] ?? req.get(CSRF_HEADER);
  return Boolean(expected) && typeof given === 'string' && safeEqual(given, expected!);
}

export interface LoginDeps {
  q: Knex;
  schema: Schema;
  settings: Settings;
  sessions: Sessions;
  throttle: LoginThrottle;
}

/**
 * Checks a username and password, throttling repeated failures per client address (the attempt is counted
 * before the password is checked); the user row on success, null otherwise. Inactive users never pass.
 */
export async function checkCredentials(
  deps: Pick<LoginDeps, 'q' | 'schema' | 'throttle'>,
  address: string | null,
  username: string,
  password: string,
): Promise<{ user: AuthUser; row: Record<string, unknown> } | null> {
  const model = deps.schema.withRole('user');
  if (!model) return null;
  const attempt = await deps.throttle.reserve(address, username);
  const row = (await deps.q(model.table).where('username', username).first()) as Record<string, unknown> | undefined;
  const valid = await verifyPassword(password, (row?.password as string | undefined) ?? null);
  const user = row ? toAuthUser(model, row) : null;
  if (!valid || !row || !user?.isActive) {
    await attempt.failed();
    return null;
  }
  await attempt.succeeded();
  return { user, row };
}
