import { currentPepperId, randomToken, SECRET_LENGTH, KEY_LENGTH, tokenDigest } from '../auth/tokens.js';
import { now } from '../db/clock.js';
import { PermissionDeniedError } from '../errors.js';
import type { Knex } from 'knex';
import { applyConstraints, ConstraintError, constraintProblem } from '../auth/constraints.js';
import { type Constraint } from '../auth/principal.js';
import { unionOf } from '../auth/grants.js';
import { parseBoolean } from '../rest/values.js';
import type { BatchContext, DomainEntry, FilterFunction, WriteItemContext } from './types.js';
import { whereJsonListHasAny } from '../db/sql.js';

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
 * NetBox's `users.grant_token` (the `grant` action on tokens), constraints included: as the token does not
 * exist yet, they are read as constraints on its user (`user` → the user's id, `user__<field>` → the user's
 * field) and must match the token's owner; a constraint on any other token field cannot be met (NetBox's
 * `user_may_grant_token`).
 */
async function mayGrantToken(item: WriteItemContext, owner: number): Promise<boolean> {
  const restriction = unionOf(item.grantOf(item.model, 'grant'), item.grantOf(item.model, 'grant_token'));
  if (!restriction) return false;
  if (restriction.all) return true;
  const users = item.schema.withRole('user');
  if (!users) return false;
  const remapped: Constraint[] = [];
  for (const constraint of restriction.constraints) {
    const mapped: Constraint = {};
    for (const [key, value] of Object.entries(constraint)) {
      if (key === 'user') mapped.id = value;
      else if (key.startsWith('user__')) mapped[key.slice('user__'.length)] = value;
      else return false;
    }
    remapped.push(mapped);
  }
  const query = item.q({ t0: users.table }).where('t0.id', owner).first('t0.id');
  try {
    applyConstraints(query, item.schema, item.dialect, users, remapped, item.user?.id ?? null);
  } catch (error) {
    // A constraint naming what users do not have matches no user.
    if (error instanceof ConstraintError) return false;
    throw error;
  }
  return Boolean(await query);
}

/**
 * Token creation: a v2 token gets a random key and the HMAC digest of its secret under the newest pepper;
 * a v1 token keeps its 40-character secret. The secret goes to `transient` so that only the response to
 * this request shows it.
 */
export async function prepareToken(item: WriteItemContext): Promise<void> {
  const { values, errors } = item;
  if (item.existing) {
    if (values.expires !== item.existing.expires) checkExpiry(item);
    return;
  }
  checkExpiry(item);
  const owner = values.user as number | null | undefined;
  if (item.user && owner !== undefined && owner !== null && owner !== item.user.id) {
    if (!(await mayGrantToken(item, owner)))
      throw new PermissionDeniedError('This user does not have permission to create tokens for other users.');
  }
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

/** NetBox's default password policy: at least 12 characters with a numeral, an upper- and a lower-case letter. */
export function validatePassword(item: WriteItemContext): void {
  const password = item.input.password;
  if (typeof password !== 'string' || password === '') return;
  const problems = [
    password.length < 12 ? 'This password is too short. It must contain at least 12 characters.' : null,
    /\d/.test(password) ? null : 'Password must have at least one numeral.',
    /\p{Lu}/u.test(password) ? null : 'Password must have at least one uppercase letter.',
    /\p{Ll}/u.test(password) ? null : 'Password must have at least one lowercase letter.',
  ];
  for (const problem of problems) if (problem) item.errors.add('non_field_errors', problem);
}

/**
 * A permission's actions are names (view, add, change, delete or a custom action); its constraints an object
 * of lookups or a list of them, each valid for every one of its object types.
 */
export function validatePermission(item: WriteItemContext): void {
  const { values, errors } = item;
  const actions = values.actions as unknown[] | null;
  if (!Array.isArray(actions) || actions.length === 0) errors.add('actions', 'This list may not be empty.');
  else {
    for (const action of actions) {
      if (typeof action !== 'string' || !/^[a-z][a-z0-9_]*$/.test(action) || action.length > 30)
        errors.add('actions', `Invalid action: ${JSON.stringify(action)}`);
    }
  }
  const types = (values.object_types as string[] | null) ?? [];
  if (types.length === 0) errors.add('object_types', 'This list may not be empty.');
  const constraints = values.constraints;
  if (constraints === null || constraints === undefined) return;
  const list = Array.isArray(constraints) ? constraints : [constraints];
  if (list.length === 0 || list.some((c) => typeof c !== 'object' || c === null || Array.isArray(c))) {
    errors.add('constraints', 'Constraints must be a JSON object or a list of JSON objects.');
    return;
  }
  for (const label of types) {
    const model = item.schema.models.get(label);
    if (!model) continue;
    const problem = constraintProblem(item.q, item.schema, item.dialect, model, list as Constraint[]);
    if (problem) errors.add('constraints', `Invalid filter for ${label}: ${problem}`);
  }
}

/** JSON list column `column` on alias `t0` contains the value. */
function listContains(ctx: BatchContext, column: string, value: string): (query: Knex.QueryBuilder) => void {
  return (query) => whereJsonListHasAny(query, ctx.dialect, `t0.${column}`, [value]);
}

/** `can_<action>=true|false`: permissions that do (not) include the action. */
function canDo(action: string): FilterFunction {
  return async (ctx, _model, values) => {
    const flag = parseBoolean(values[0] ?? '');
    if (flag === null) return `Select a valid choice. ${values[0]} is not one of the available choices.`;
    const has = listContains(ctx, 'actions', action);
    return (query) => (flag ? query.where(has) : query.whereNot(has));
  };
}

/** The users app's domain functions, by the names YAML uses. */
export const usersFunctions = {
  'users.displayToken': { kind: 'display', fn: displayToken },
  'users.displayUser': { kind: 'display', fn: displayUser },
  'users.prepareToken': { kind: 'prepare', fn: prepareToken },
  'users.presentToken': { kind: 'present', fn: presentToken },
  'users.validateUsername': { kind: 'validator', fn: validateUsername, batch: true },
  'users.validatePassword': { kind: 'validator', fn: validatePassword, batch: true },
  'users.validatePermission': { kind: 'validator', fn: validatePermission, batch: true },
  'users.canView': { kind: 'filter', fn: canDo('view') },
  'users.canAdd': { kind: 'filter', fn: canDo('add') },
  'users.canChange': { kind: 'filter', fn: canDo('change') },
  'users.canDelete': { kind: 'filter', fn: canDo('delete') },
} satisfies Record<string, DomainEntry>;
