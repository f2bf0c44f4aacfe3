import type { Knex } from 'knex';
import type { Dialect } from '../db/connect.js';
import type { ModelInfo, Schema } from './schema.js';
import { pythonRepr } from './values.js';
import { chunks } from '../db/sql.js';
import { sqlBoolean } from '../db/sql.js';

export type Resolved = { ok: true; id: number } | { ok: false; error: string };

/**
 * Resolves related objects written as an id, a numeric string or a dictionary of attributes. Ids are
 * checked in batches (`prefetch`), attribute lookups run one query each.
 */
export class RelatedResolver {
  private readonly known = new Map<string, Set<number>>();

  constructor(
    private readonly q: Knex,
    private readonly schema: Schema,
    private readonly dialect: Dialect,
    /** Restricts attribute lookups (and generic relations, custom field objects) to objects the user may view. */
    readonly restrictView?: (model: ModelInfo, query: Knex.QueryBuilder) => Promise<void>,
  ) {}

  /** Checks which of `values` (ids as numbers or numeric strings) exist, in one query per model. */
  async prefetch(target: ModelInfo, values: readonly unknown[]): Promise<void> {
    const ids = [...new Set(values.map(asId).filter((v): v is number => v !== null))];
    const known = this.knownFor(target);
    const missing = ids.filter((id) => !known.has(id));
    for (const chunk of chunks(missing, 500)) {
      const rows = (await this.q(target.table).whereIn('id', chunk).select('id')) as { id: number }[];
      for (const row of rows) known.add(Number(row.id));
    }
  }

  /** Resolves one written value to the id of exactly one object. */
  async resolve(target: ModelInfo, value: unknown): Promise<Resolved> {
    const id = asId(value);
    if (id !== null) {
      await this.prefetch(target, [id]);
      return this.knownFor(target).has(id)
        ? { ok: true, id }
        : { ok: false, error: `Related object not found using the provided numeric ID: ${id}` };
    }
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const attrs = value as Record<string, unknown>;
      if (Object.keys(attrs).length === 1 && 'id' in attrs && asId(attrs.id) !== null)
        return this.resolve(target, attrs.id);
      return this.lookup(target, attrs);
    }
    return {
      ok: false,
      error: `Related objects must be referenced by numeric ID or by dictionary of attributes. Received an unrecognized value: ${pythonRepr(value)}`,
    };
  }

  private knownFor(target: ModelInfo): Set<number> {
    let known = this.known.get(target.label);
    if (!known) this.known.set(target.label, (known = new Set()));
    return known;
  }

  private async lookup(target: ModelInfo, attrs: Record<string, unknown>): Promise<Resolved> {
    const flat = flatten(attrs);
    const query = this.q({ r0: target.table }).select('r0.id').limit(2);
    const usable = this.applyAttributes(query, target, attrs, 'r0', 0);
    const repr = pythonRepr(flat);
    if (!usable) return { ok: false, error: `Related object not found using the provided attributes: ${repr}` };
    if (this.restrictView) await this.restrictView(target, query);
    const rows = (await query) as { id: number }[];
    if (rows.length === 0)
      return { ok: false, error: `Related object not found using the provided attributes: ${repr}` };
    if (rows.length > 1) return { ok: false, error: `Multiple objects match the provided attributes: ${repr}` };
    return { ok: true, id: Number(rows[0]!.id) };
  }

  /** Adds `attribute = value` conditions; nested dictionaries follow FKs. False when an attribute is unknown. */
  private applyAttributes(
    query: Knex.QueryBuilder,
    model: ModelInfo,
    attrs: Record<string, unknown>,
    alias: string,
    depth: number,
  ): boolean {
    for (const [key, value] of Object.entries(attrs)) {
      if (key === 'id') {
        const id = asId(value);
        if (id === null) return false;
        query.where(`${alias}.id`, id);
        continue;
      }
      const field = model.fields.get(key);
      if (!field?.column || field.hidden || field.kind === 'password') return false;
      const column = `${alias}.${field.column}`;
      if (field.kind === 'fk' && value && typeof value === 'object' && !Array.isArray(value)) {
        if (depth >= 3) return false;
        const target = this.schema.model(field.target);
        const nestedAlias = `r${depth + 1}`;
        query.join({ [nestedAlias]: target.table }, `${nestedAlias}.id`, column);
        if (!this.applyAttributes(query, target, value as Record<string, unknown>, nestedAlias, depth + 1))
          return false;
        continue;
      }
      if (value === null) query.whereNull(column);
      else if (typeof value === 'object') return false;
      else if (typeof value === 'boolean') query.where(column, sqlBoolean(this.dialect, value));
      else query.where(column, value as string | number | boolean);
    }
    return true;
  }
}

/** An id written as a number or numeric string, else null. */
export function asId(value: unknown): number | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) return Number(value);
  return null;
}

/** `{site: {slug: 'a'}, name: 'r1'}` → `{site__slug: 'a', name: 'r1'}` (Django's lookup names). */
function flatten(attrs: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(attrs)) {
    const name = prefix ? `${prefix}__${key}` : key;
    if (value && typeof value === 'object' && !Array.isArray(value))
      Object.assign(out, flatten(value as Record<string, unknown>, name));
    else out[name] = value;
  }
  return out;
}
