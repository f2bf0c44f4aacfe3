import type { Knex } from 'knex';
import { BadRequestError, type FieldErrors } from '../errors.js';
import { decodeJson, pythonRepr } from './values.js';
import type { ModelInfo, Schema } from './schema.js';
import { asId } from './related.js';
import { pythonType } from './parse-field.js';

/** What a write does to an object's tags. */
export interface TagOps {
  set?: number[];
  add?: number[];
  remove?: number[];
}

interface TagRow {
  id: number;
  name: string;
  slug: string;
  object_types: unknown;
}

/**
 * Resolves the tags named in write bodies: ids, `{name}`, `{slug}` or `{id}`, in few queries for a batch.
 * As in NetBox 4.6, tags of `tags` given by attributes are looked up among those the user may view, while
 * `add_tags` and `remove_tags` are resolved without that restriction (NetBox parses them with a serializer
 * that has no request).
 */
export class TagResolver {
  private rows: TagRow[] = [];
  /** Tags that `tags` may name by attributes. */
  private viewable = new Set<number>();

  constructor(
    private readonly q: Knex,
    private readonly schema: Schema,
    /** Restricts lookups by name or slug to tags the user may view (as for other related objects). */
    private readonly restrictView?: (model: ModelInfo, query: Knex.QueryBuilder) => Promise<void>,
  ) {}

  /** Loads every tag that the inputs refer to. */
  async prefetch(inputs: readonly Record<string, unknown>[]): Promise<void> {
    const tagModel = this.schema.withRole('tag');
    if (!tagModel) return;
    const ids = new Set<number>();
    // Attributes named in `tags` (restricted) and in `add_tags`/`remove_tags` (open).
    const named = {
      restricted: { names: new Set<string>(), slugs: new Set<string>() },
      open: { names: new Set<string>(), slugs: new Set<string>() },
    };
    for (const input of inputs) {
      for (const key of ['tags', 'add_tags', 'remove_tags']) {
        const list = input[key];
        if (!Array.isArray(list)) continue;
        const into = key === 'tags' ? named.restricted : named.open;
        for (const ref of list) {
          const id = asId(ref);
          if (id !== null) ids.add(id);
          else if (ref && typeof ref === 'object') {
            const r = ref as Record<string, unknown>;
            if (asId(r.id) !== null) ids.add(asId(r.id)!);
            if (typeof r.name === 'string') into.names.add(r.name);
            if (typeof r.slug === 'string') into.slugs.add(r.slug);
          }
        }
      }
    }
    const columns = ['r0.id', 'r0.name', 'r0.slug', 'r0.object_types'];
    const byAttributes = async (names: Set<string>, slugs: Set<string>, restrict: boolean): Promise<TagRow[]> => {
      if (names.size + slugs.size === 0) return [];
      const query = this.q({ r0: tagModel.table })
        .where((w) => w.whereIn('r0.name', [...names]).orWhereIn('r0.slug', [...slugs]))
        .select(columns);
      if (restrict) await this.restrictView?.(tagModel, query);
      return (await query) as TagRow[];
    };
    const byId = ids.size
      ? ((await this.q({ r0: tagModel.table })
          .whereIn('r0.id', [...ids])
          .select(columns)) as TagRow[])
      : [];
    const restricted = await byAttributes(named.restricted.names, named.restricted.slugs, true);
    const open = await byAttributes(named.open.names, named.open.slugs, false);
    this.viewable = new Set(restricted.map((row) => Number(row.id)));
    this.rows = [...new Map([...byId, ...restricted, ...open].map((row) => [Number(row.id), row])).values()];
  }

  /**
   * Reads `tags` / `add_tags` / `remove_tags` of one body, with NetBox's rules; errors go under the key that
   * caused them. A tag restricted to other object types aborts the whole request.
   */
  parse(model: ModelInfo, input: Record<string, unknown>, creating: boolean, errors: FieldErrors): TagOps | null {
    const has = (key: string): boolean => key in input && input[key] !== undefined;
    if (!has('tags') && !has('add_tags') && !has('remove_tags')) return null;
    if (has('tags') && (has('add_tags') || has('remove_tags'))) {
      errors.add('tags', 'Cannot specify "tags" together with "add_tags" or "remove_tags".');
      return null;
    }
    if (has('remove_tags') && creating) {
      errors.add('remove_tags', 'Cannot use "remove_tags" when creating a new object.');
      return null;
    }
    const ops: TagOps = {};
    for (const [key, op] of [
      ['tags', 'set'],
      ['add_tags', 'add'],
      ['remove_tags', 'remove'],
    ] as const) {
      if (!has(key)) continue;
      const resolved = this.resolveList(input[key], key, errors, key !== 'tags');
      if (resolved) ops[op] = resolved;
    }
    if (ops.add && ops.remove) {
      const both = ops.add.filter((id) => ops.remove!.includes(id));
      if (both.length > 0) {
        const names = both.map((id) => this.rows.find((r) => Number(r.id) === id)?.name ?? String(id));
        errors.add('remove_tags', `Tags may not be present in both "add_tags" and "remove_tags": ${names.join(', ')}`);
      }
    }
    for (const id of [...(ops.set ?? []), ...(ops.add ?? [])]) {
      const row = this.rows.find((r) => Number(r.id) === id)!;
      const allowed = (decodeJson(row.object_types) ?? []) as string[];
      if (allowed.length > 0 && !allowed.includes(model.label)) {
        throw new BadRequestError(`Tag ${row.name} cannot be assigned to ${model.spec.verboseName} objects.`);
      }
    }
    return ops;
  }

  private resolveList(value: unknown, key: string, errors: FieldErrors, open: boolean): number[] | null {
    if (!Array.isArray(value)) {
      errors.add(key, `Expected a list of items but got type "${pythonType(value)}".`);
      return null;
    }
    const ids: number[] = [];
    for (const ref of value) {
      const found = this.find(ref, open);
      if (typeof found === 'string') {
        errors.add(key, found);
        return null;
      }
      if (!ids.includes(found)) ids.push(found);
    }
    return ids;
  }

  private find(ref: unknown, open: boolean): number | string {
    const id = asId(ref);
    if (id !== null) {
      return this.rows.some((r) => Number(r.id) === id)
        ? id
        : `Related object not found using the provided numeric ID: ${id}`;
    }
    if (ref && typeof ref === 'object' && !Array.isArray(ref)) {
      const attrs = ref as Record<string, unknown>;
      const byIdOnly = Object.keys(attrs).length === 1 && attrs.id !== undefined;
      const matches = this.rows.filter(
        (r) =>
          (open || byIdOnly || this.viewable.has(Number(r.id))) &&
          (attrs.id === undefined || Number(r.id) === asId(attrs.id)) &&
          (attrs.name === undefined || r.name === attrs.name) &&
          (attrs.slug === undefined || r.slug === attrs.slug),
      );
      const known = Object.keys(attrs).every((k) => ['id', 'name', 'slug'].includes(k));
      if (!known || matches.length === 0)
        return `Related object not found using the provided attributes: ${pythonRepr(attrs)}`;
      if (matches.length > 1) return `Multiple objects match the provided attributes: ${pythonRepr(attrs)}`;
      return Number(matches[0]!.id);
    }
    return `Related objects must be referenced by numeric ID or by dictionary of attributes. Received an unrecognized value: ${pythonRepr(ref)}`;
  }
}

/** Applies tag operations to objects of a model. */
export async function applyTags(
  q: Knex,
  schema: Schema,
  model: ModelInfo,
  changes: readonly { id: number; ops: TagOps }[],
): Promise<void> {
  const itemModel = schema.withRole('tagged_item');
  if (!itemModel || changes.length === 0) return;
  const table = itemModel.table;
  const inserts: { tag_id: number; object_type: string; object_id: number }[] = [];
  for (const { id, ops } of changes) {
    let current: number[] = [];
    if (ops.set || ops.add) {
      current = (
        (await q(table).where({ object_type: model.label, object_id: id }).select('tag_id')) as { tag_id: number }[]
      ).map((r) => Number(r.tag_id));
    }
    if (ops.set) {
      const removed = current.filter((t) => !ops.set!.includes(t));
      if (removed.length)
        await q(table).where({ object_type: model.label, object_id: id }).whereIn('tag_id', removed).delete();
      for (const tagId of ops.set)
        if (!current.includes(tagId)) inserts.push({ tag_id: tagId, object_type: model.label, object_id: id });
    }
    if (ops.add) {
      for (const tagId of ops.add)
        if (!current.includes(tagId)) inserts.push({ tag_id: tagId, object_type: model.label, object_id: id });
    }
    if (ops.remove?.length) {
      await q(table).where({ object_type: model.label, object_id: id }).whereIn('tag_id', ops.remove).delete();
    }
  }
  for (let i = 0; i < inserts.length; i += 300) await q(table).insert(inserts.slice(i, i + 300));
}

/** Tags of newly created objects in one batch insert. */
export function newObjectTagRows(
  model: ModelInfo,
  items: readonly { id: number; ops: TagOps }[],
): { tag_id: number; object_type: string; object_id: number }[] {
  return items.flatMap(({ id, ops }) =>
    [...new Set([...(ops.set ?? []), ...(ops.add ?? [])])].map((tagId) => ({
      tag_id: tagId,
      object_type: model.label,
      object_id: id,
    })),
  );
}
