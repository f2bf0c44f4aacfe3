import type { Knex } from 'knex';
import type { Settings } from '../config.js';
import type { Dialect } from '../db/connect.js';
import type { AuthUser, Constraint, Grants, Restriction } from './principal.js';
import type { Schema } from '../rest/schema.js';
import type { ManyToManyField } from '../spec.js';
import { decodeJson } from '../rest/values.js';
import { sqlBoolean } from '../db/sql.js';
const CACHE_LIMIT = 10_000;

/** The union of two restrictions: everything if either allows everything, else either's constraints. */
export function unionOf(a: Restriction | undefined, b: Restriction | undefined): Restriction | undefined {
  if (!a) return b;
  if (!b) return a;
  if (a.all || b.all) return { all: true };
  return { all: false, constraints: [...a.constraints, ...b.constraints] };
}

/**
 * Loads the enabled object permissions of a user (assigned directly or through the user's groups) in one
 * query, and remembers them for CACHE_SECONDS; a change to users, groups or permissions through this
 * process empties the cache at once.
 */
export class GrantStore {
  private readonly cache = new Map<number, { at: number; grants: Grants }>();
  private generation = 0;

  constructor(
    private readonly q: Knex,
    private readonly schema: Schema,
    private readonly dialect: Dialect,
    private readonly settings: Settings,
  ) {}

  invalidate(): void {
    this.generation += 1;
    this.cache.clear();
  }

  async grantsFor(user: AuthUser): Promise<Grants> {
    const ttl = this.settings.CACHE_SECONDS * 1000;
    const cached = this.cache.get(user.id);
    if (cached && Date.now() - cached.at < ttl) return cached.grants;
    const generation = this.generation;
    const grants = await this.load(user.id);
    if (ttl > 0 && generation === this.generation) {
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      this.cache.set(user.id, { at: Date.now(), grants });
    }
    return grants;
  }

  private async load(userId: number): Promise<Grants> {
    const permissions = this.schema.withRole('object_permission');
    const userModel = this.schema.withRole('user');
    if (!permissions || !userModel) return new Map();
    const users = permissions.fields.get('users') as ManyToManyField | undefined;
    const groups = permissions.fields.get('groups') as ManyToManyField | undefined;
    const memberships = userModel.fields.get('groups') as ManyToManyField | undefined;
    const q = this.q;
    const rows = (await q({ p: permissions.table })
      .where('p.enabled', sqlBoolean(this.dialect, true))
      .where((w) => {
        if (users) w.orWhereIn('p.id', q(users.through).select(users.fromColumn).where(users.toColumn, userId));
        if (groups && memberships) {
          w.orWhereIn(
            'p.id',
            q(groups.through)
              .select(groups.fromColumn)
              .whereIn(
                groups.toColumn,
                q(memberships.through).select(memberships.toColumn).where(memberships.fromColumn, userId),
              ),
          );
        }
        if (!users && !(groups && memberships)) w.whereRaw('1 = 0');
      })
      .select('p.object_types', 'p.actions', 'p.constraints')) as Record<string, unknown>[];
    const grants = new Map<string, Map<string, Restriction>>();
    for (const row of rows) {
      const raw = decodeJson(row.constraints);
      const restriction: Restriction =
        raw === null || (Array.isArray(raw) && raw.length === 0)
          ? { all: true }
          : { all: false, constraints: (Array.isArray(raw) ? raw : [raw]) as Constraint[] };
      for (const label of (decodeJson(row.object_types) ?? []) as string[]) {
        const byAction = grants.get(label) ?? new Map<string, Restriction>();
        grants.set(label, byAction);
        for (const action of (decodeJson(row.actions) ?? []) as string[]) {
          byAction.set(action, unionOf(byAction.get(action), restriction)!);
        }
      }
    }
    return grants;
  }
}
