import type { Knex } from 'knex';
import type { Settings } from '../config.js';
import type { Dialect } from '../db/connect.js';
import type { Principal, Restriction } from './principal.js';
import { AuthenticationError, PermissionDeniedError } from '../errors.js';
import type { ModelInfo, Schema } from '../rest/schema.js';
import type { Role } from '../spec.js';
import { applyConstraints } from './constraints.js';
import { unionOf } from './grants.js';

export type Action = 'view' | 'add' | 'change' | 'delete';

/** Models that a wildcard in EXEMPT_VIEW_PERMISSIONS does not open (NetBox's EXEMPT_EXCLUDE_MODELS). */
const SENSITIVE_ROLES: ReadonlySet<Role> = new Set<Role>(['user', 'group', 'object_permission', 'token']);

/**
 * Decides what a request may do with a model. Superusers may do everything; anonymous clients may view
 * models in EXEMPT_VIEW_PERMISSIONS unless LOGIN_REQUIRED; other users have the union of their object
 * permissions (direct or through groups) and DEFAULT_PERMISSIONS, each restricted by its constraints.
 * Tokens without write access may only view.
 */
export class PermissionService {
  constructor(
    private readonly settings: Settings,
    private readonly schema: Schema,
    private readonly dialect: Dialect,
  ) {}

  /** The restriction for an action, or a 403 (authentication or permission) when nothing is allowed. */
  require(principal: Principal, model: ModelInfo, action: Action): Restriction {
    const { user, token } = principal;
    if (action === 'view' && model.spec.openView && (user || !this.settings.LOGIN_REQUIRED)) return { all: true };
    if (!user) {
      if (action === 'view' && this.anonymousMayView(model)) return { all: true };
      throw new AuthenticationError();
    }
    if (action !== 'view' && token && !token.writeEnabled) throw new PermissionDeniedError();
    if (user.isSuperuser) return { all: true };
    if (action === 'view' && this.isExempt(model)) return { all: true };
    const granted = this.restrictionFor(principal, model, action);
    if (granted === undefined) throw new PermissionDeniedError();
    return granted;
  }

  /**
   * The user's restriction for a (custom) action on a model, e.g. `grant` on tokens (`users.grant_token`):
   * undefined when the user does not hold it at all.
   */
  grantOf(principal: Principal, model: ModelInfo, action: string): Restriction | undefined {
    if (!principal.user) return undefined;
    if (principal.user.isSuperuser) return { all: true };
    return this.restrictionFor(principal, model, action);
  }

  /** What the user may do with a (custom) action on a model: everything, some objects, or nothing (undefined). */
  restriction(principal: Principal, model: ModelInfo, action: string): Restriction | undefined {
    if (!principal.user) return undefined;
    if (principal.user.isSuperuser) return { all: true };
    return this.restrictionFor(principal, model, action);
  }

  private restrictionFor(principal: Principal, model: ModelInfo, action: string): Restriction | undefined {
    return unionOf(this.defaultPermission(model, action), principal.grants?.get(model.label)?.get(action));
  }

  /** True when the request may perform the action on at least some objects (OPTIONS shows `actions`). */
  allows(principal: Principal, model: ModelInfo, action: Action): boolean {
    try {
      this.require(principal, model, action);
      return true;
    } catch {
      return false;
    }
  }

  /** Anonymous clients reach the API roots only when LOGIN_REQUIRED is off. */
  requireLogin(principal: Principal): void {
    if (!principal.user && this.settings.LOGIN_REQUIRED) throw new AuthenticationError();
  }

  /** Adds the restriction's conditions to a query on alias `t0`. */
  apply(query: Knex.QueryBuilder, model: ModelInfo, restriction: Restriction, principal: Principal): void {
    if (restriction.all) return;
    applyConstraints(query, this.schema, this.dialect, model, restriction.constraints, principal.user?.id ?? null);
  }

  private anonymousMayView(model: ModelInfo): boolean {
    return !this.settings.LOGIN_REQUIRED && this.isExempt(model);
  }

  /**
   * Whether EXEMPT_VIEW_PERMISSIONS opens a model to reading. Like NetBox's EXEMPT_EXCLUDE_MODELS, `*` leaves
   * out the sensitive models (users, groups, permissions, tokens); listing one by name still exempts it.
   */
  private isExempt(model: ModelInfo): boolean {
    const exempt = this.settings.EXEMPT_VIEW_PERMISSIONS;
    if (exempt.includes(model.label)) return true;
    return exempt.includes('*') && !model.spec.roles.some((role) => SENSITIVE_ROLES.has(role));
  }

  private defaultPermission(model: ModelInfo, action: string): Restriction | undefined {
    const key = `${model.spec.app}.${action}_${model.spec.name}`;
    if (!(key in this.settings.DEFAULT_PERMISSIONS)) return undefined;
    const constraints = this.settings.DEFAULT_PERMISSIONS[key];
    if (constraints === null || constraints === undefined) return { all: true };
    return { all: false, constraints: Array.isArray(constraints) ? constraints : [constraints] };
  }
}
