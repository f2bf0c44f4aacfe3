import type { Knex } from 'knex';
import { ConflictError, ValidationError } from '../errors.js';
import { translateDatabaseError } from '../db/errors.js';
import { chunks, IDS_PER_STATEMENT, whichExist } from '../db/sql.js';
import { lockForUpdate } from '../db/transaction.js';
import type { ModelInfo, Schema } from './schema.js';
import { displayOf } from './display.js';
import { snapshotsBefore } from './changelog.js';
import type { Snapshot, WriteContext } from './write-types.js';

type Row = Record<string, unknown>;

interface Collected {
  model: ModelInfo;
  rows: Row[];
}

/**
 * Deletes objects with NetBox's deletion rules, all or nothing: dependents on a `protect` FK block the
 * delete (409 naming them), `cascade` dependents are deleted first (recursively), `set_null` FKs are
 * cleared. Every deleted object is recorded as a change; `messages` gives the changelog message per id.
 * Returns how many of `ids` existed (and are deleted).
 */
export async function deleteObjects(
  ctx: WriteContext,
  model: ModelInfo,
  ids: readonly number[],
  messages: ReadonlyMap<number, string> = new Map(),
): Promise<number> {
  const q = ctx.q;
  const order: Collected[] = [];
  const seen = new Map<string, Set<number>>();
  const blockers: { model: ModelInfo; row: Row }[] = [];
  const nullings: { model: ModelInfo; columns: string[]; ids: number[] }[] = [];

  const collect = async (current: ModelInfo, idList: readonly number[]): Promise<void> => {
    const visited = seen.get(current.label) ?? new Set<number>();
    seen.set(current.label, visited);
    const fresh = idList.filter((id) => !visited.has(id));
    if (fresh.length === 0) return;
    fresh.forEach((id) => visited.add(id));
    const rows: Row[] = [];
    for (const chunk of chunks(fresh, IDS_PER_STATEMENT)) {
      // The objects asked for are locked until the delete ends: a concurrent delete waits, then finds none.
      const query = q(current.table).whereIn('id', chunk).orderBy('id').select('*');
      rows.push(...((await (order.length === 0 ? lockForUpdate(query, ctx.dialect) : query)) as Row[]));
    }
    order.push({ model: current, rows });
    const relations = current.spec.reverse.map((relation) => {
      const dependent = ctx.schema.model(relation.model);
      const field = dependent.fields.get(relation.field)!;
      // A generic relation points here through its type and id fields.
      const columns =
        field.kind === 'generic_fk'
          ? [dependent.fields.get(field.typeField)!.column!, dependent.fields.get(field.idField)!.column!]
          : [field.column!];
      return { relation, dependent, columns };
    });
    const referring = await referringRelations(q, current, fresh, relations);
    for (const [index, { relation, dependent, columns }] of relations.entries()) {
      if (!referring.has(index)) continue;
      const column = columns[columns.length - 1]!;
      const found: Row[] = [];
      for (const chunk of chunks(fresh, IDS_PER_STATEMENT)) {
        const query = q(dependent.table).whereIn(column, chunk);
        if (columns.length > 1) query.where(columns[0]!, current.label);
        found.push(...((await query.select('*')) as Row[]));
      }
      // References are cleared even on rows deleted by this same request (a device pointing at its own
      // interface's address as primary), so that rows can go in any order.
      if (relation.onDelete === 'set_null') {
        if (found.length > 0) nullings.push({ model: dependent, columns, ids: found.map((r) => Number(r.id)) });
        continue;
      }
      const outside = found.filter((r) => !(seen.get(dependent.label)?.has(Number(r.id)) ?? false));
      if (outside.length === 0) continue;
      if (relation.onDelete === 'protect') outside.forEach((row) => blockers.push({ model: dependent, row }));
      else
        await collect(
          dependent,
          outside.map((r) => Number(r.id)),
        );
    }
  };
  await collect(model, ids);
  const existing = order[0]?.rows.length ?? 0;
  if (existing === 0) return 0;

  // A protected dependent that is itself being deleted does not block.
  const listed = new Set<string>();
  const remaining = blockers.filter((b) => {
    const key = `${b.model.label}:${String(b.row.id)}`;
    if (listed.has(key) || (seen.get(b.model.label)?.has(Number(b.row.id)) ?? false)) return false;
    listed.add(key);
    return true;
  });
  remaining.push(...(await nullingCollisions(q, nullings, seen)));
  if (remaining.length > 0) {
    const names = remaining.map((b) => `${displayOf(ctx.domain, b.model, b.row)} (${String(b.row.id)})`);
    throw new ConflictError(
      `Unable to delete object. ${remaining.length} dependent objects were found: ${names.join(', ')}`,
    );
  }

  // The change log keeps each object as it was, with its many-to-many fields and tags; events, as rendered.
  const befores = new Map<string, Snapshot>();
  const rendered = new Map<string, Record<string, unknown>>();
  for (const { model: current, rows } of order) {
    const data = await ctx.representDeleted?.(
      current,
      rows.map((r) => Number(r.id)),
    );
    for (const [id, object] of data ?? []) rendered.set(`${current.label}:${id}`, object);
    for (const [id, snapshot] of await snapshotsBefore(ctx, current, rows))
      befores.set(`${current.label}:${id}`, snapshot);
  }
  for (const nulling of nullings) {
    for (const chunk of chunks(nulling.ids, IDS_PER_STATEMENT)) {
      await q(nulling.model.table)
        .whereIn('id', chunk)
        .update(Object.fromEntries(nulling.columns.map((c) => [c, null])))
        .catch((error: unknown) => {
          throw conflictOf(error, ctx.schema) ?? error;
        });
    }
  }
  const itemModel = ctx.schema.withRole('tagged_item');
  // Dependents were collected after the objects they depend on: delete in reverse, but models that refer to
  // each other (a module's bay, a bay's module) may have been reached in either order.
  const deletion = deletionOrder(order);
  await clearNullableReferences(q, deletion);
  for (const { model: current, rows } of deletion) {
    const idList = rows.map((r) => Number(r.id));
    if (current.hasTags && itemModel) {
      for (const chunk of chunks(idList, IDS_PER_STATEMENT)) {
        await q(itemModel.table).where('object_type', current.label).whereIn('object_id', chunk).delete();
      }
    }
    await deleteListings(q, ctx.schema, current, idList);
    await deleteRows(q, current, idList);
    for (const field of current.spec.fields) {
      if (field.kind !== 'image') continue;
      for (const row of rows)
        if (typeof row[field.column!] === 'string' && row[field.column!])
          ctx.files.obsolete.push(String(row[field.column!]));
    }
    for (const row of rows) {
      ctx.changes.push({
        action: 'delete',
        model: current,
        id: Number(row.id),
        before: row,
        beforeSnapshot: befores.get(`${current.label}:${String(row.id)}`) ?? null,
        beforeData: rendered.get(`${current.label}:${String(row.id)}`),
        message: messages.get(Number(row.id)) ?? '',
      });
    }
  }
  for (const { model: current, rows } of deletion) {
    if (!current.spec.hooks.written || ctx.importing) continue;
    // The hook sees each deleted object's stored fields by name, as they were.
    const written = rows.map((row) => ({
      id: Number(row.id),
      values: Object.fromEntries(
        current.spec.fields.filter((f) => f.column).map((f) => [f.name, row[f.column!] ?? null]),
      ),
    }));
    await ctx.domain.written(current.spec.hooks.written)(ctx, current, written);
  }
  return existing;
}

/** Bindings of one probe statement: under SQLite's 32,766 and PostgreSQL's 65,535. */
const PROBE_BINDINGS = 30_000;

/**
 * Which reverse relations have rows referring to the objects (by index), in statements of EXISTS probes (one
 * for a thousand objects of a model with thirty relations), so that only those are read in full.
 */
async function referringRelations(
  q: Knex,
  model: ModelInfo,
  ids: readonly number[],
  relations: readonly { dependent: ModelInfo; columns: string[] }[],
): Promise<Set<number>> {
  const found = new Set<number>();
  if (relations.length === 0) return found;
  const size = Math.max(1, Math.floor(PROBE_BINDINGS / relations.length) - 2);
  for (const chunk of chunks(ids, size)) {
    // Relations already known to refer need no probe for the next ids.
    const open = [...relations.keys()].filter((index) => !found.has(index));
    if (open.length === 0) break;
    const probes = open.map((index) => {
      const { dependent, columns } = relations[index]!;
      const probe = q(dependent.table).whereIn(columns[columns.length - 1]!, chunk);
      if (columns.length > 1) probe.where(columns[0]!, model.label);
      return probe;
    });
    for (const index of await whichExist(q, probes)) found.add(open[index]!);
  }
  return found;
}

/**
 * The collected groups in reverse order of collection, moved so that a group whose model has a required FK
 * to another group's model is deleted first (FKs between groups of one model keep the reverse order).
 */
function deletionOrder(order: readonly Collected[]): Collected[] {
  const reversed = [...order].reverse();
  const requires = (a: ModelInfo, b: ModelInfo): boolean =>
    a !== b && a.spec.fields.some((f) => f.kind === 'fk' && !f.nullable && f.target === b.label);
  const result: Collected[] = [];
  const pending = [...reversed];
  while (pending.length > 0) {
    // The first group that no other pending group must precede (a cycle of required FKs: the first one).
    const index = pending.findIndex((g) => !pending.some((other) => other !== g && requires(other.model, g.model)));
    result.push(...pending.splice(Math.max(index, 0), 1));
  }
  return result;
}

/** Clears nullable FKs between deleted rows, so that rows can go in the order chosen. */
async function clearNullableReferences(q: Knex, groups: readonly Collected[]): Promise<void> {
  const ids = new Map<string, number[]>();
  for (const { model, rows } of groups)
    ids.set(model.label, [...(ids.get(model.label) ?? []), ...rows.map((r) => Number(r.id))]);
  for (const { model, rows } of groups) {
    for (const field of model.spec.fields) {
      if (field.kind !== 'fk' || !field.nullable || !ids.has(field.target)) continue;
      const targets = new Set(ids.get(field.target));
      const referring = rows.filter((r) => targets.has(Number(r[field.column!]))).map((r) => Number(r.id));
      for (const chunk of chunks(referring, IDS_PER_STATEMENT))
        await q(model.table)
          .whereIn('id', chunk)
          .update({ [field.column!]: null });
    }
  }
}

/** Many-to-many rows that list the deleted objects, on either side (each join table's column once). */
async function deleteListings(q: Knex, schema: Schema, model: ModelInfo, ids: readonly number[]): Promise<void> {
  const done = new Set<string>();
  for (const owner of schema.models.values()) {
    for (const field of owner.spec.fields) {
      if (field.kind !== 'm2m') continue;
      const sides = [
        ...(owner === model ? [field.fromColumn] : []),
        ...(field.target === model.label ? [field.toColumn] : []),
      ];
      for (const side of sides) {
        if (done.has(`${field.through}.${side}`)) continue;
        done.add(`${field.through}.${side}`);
        for (const chunk of chunks(ids, IDS_PER_STATEMENT)) await q(field.through).whereIn(side, chunk).delete();
      }
    }
  }
}

/** Tree tables reference themselves: delete the deepest nodes first so each statement leaves no orphan. */
async function deleteRows(q: Knex, model: ModelInfo, ids: number[]): Promise<void> {
  if (model.spec.tree) {
    const rows = (await q(model.table).whereIn('id', ids).select('id', '_depth')) as { id: number; _depth: number }[];
    rows.sort((a, b) => Number(b._depth) - Number(a._depth));
    for (const chunk of chunks(
      rows.map((r) => Number(r.id)),
      500,
    )) {
      await q(model.table).whereIn('id', chunk).delete();
    }
    return;
  }
  for (const chunk of chunks(ids, IDS_PER_STATEMENT)) await q(model.table).whereIn('id', chunk).delete();
}

/**
 * Dependents whose cleared reference would make them collide under a uniqueness rule that holds only
 * without that reference (two tenants of the same name leaving their groups), with the objects they would
 * collide with: such a delete is blocked like a protected one (NetBox's TenantGroup.delete).
 */
async function nullingCollisions(
  q: Knex,
  nullings: readonly { model: ModelInfo; columns: string[]; ids: number[] }[],
  deleted: ReadonlyMap<string, ReadonlySet<number>>,
): Promise<{ model: ModelInfo; row: Row }[]> {
  const collisions: { model: ModelInfo; row: Row }[] = [];
  const byModel = new Map<ModelInfo, { columns: Set<string>; ids: Set<number> }>();
  for (const nulling of nullings) {
    const entry = byModel.get(nulling.model) ?? { columns: new Set<string>(), ids: new Set<number>() };
    nulling.columns.forEach((c) => entry.columns.add(c));
    nulling.ids.forEach((id) => entry.ids.add(id));
    byModel.set(nulling.model, entry);
  }
  for (const [model, { columns, ids }] of byModel) {
    const gone = deleted.get(model.label) ?? new Set<number>();
    const column = (name: string): string => model.fields.get(name)!.column!;
    const affected: Row[] = [];
    for (const chunk of chunks(
      [...ids].filter((id) => !gone.has(id)),
      IDS_PER_STATEMENT,
    ))
      affected.push(...((await q(model.table).whereIn('id', chunk).select('*')) as Row[]));
    for (const unique of model.spec.uniques) {
      const nulled = unique.whereNull.filter((name) => columns.has(column(name)));
      if (nulled.length === 0 || unique.fields.some((name) => columns.has(column(name)))) continue;
      const keyOf = (row: Row): string | null => {
        const values = unique.fields.map((name) => row[column(name)]);
        if (values.some((v) => v === null || v === undefined)) return null;
        return JSON.stringify(values.map((v) => (unique.caseInsensitive ? String(v).toLowerCase() : String(v))));
      };
      const others = unique.whereNull.filter((name) => !nulled.includes(name));
      const candidates = affected.filter((row) => others.every((name) => row[column(name)] === null));
      if (candidates.length === 0) continue;
      const staying = q(model.table).select('*');
      for (const name of unique.whereNull) staying.whereNull(column(name));
      staying.whereNotIn('id', [...new Set([...ids, ...gone])]);
      const groups = new Map<string, Row[]>();
      for (const row of [...candidates, ...((await staying) as Row[])]) {
        const key = keyOf(row);
        if (key !== null) groups.set(key, [...(groups.get(key) ?? []), row]);
      }
      for (const rows of groups.values()) {
        if (rows.length > 1 && rows.some((r) => candidates.includes(r)))
          rows.forEach((row) => collisions.push({ model, row }));
      }
    }
  }
  const unique = new Map(collisions.map((c) => [`${c.model.label}:${String(c.row.id)}`, c]));
  return [...unique.values()].sort((a, b) => Number(a.row.id) - Number(b.row.id));
}

/**
 * A dependent whose reference is cleared can collide with another object (two tenants of the same name
 * leaving their groups): the delete conflicts with what exists (409), rather than being invalid input.
 */
function conflictOf(error: unknown, schema: Schema): ConflictError | null {
  const translated = translateDatabaseError(error, schema);
  if (!(translated instanceof ValidationError)) return null;
  const messages = Object.values(translated.body as Record<string, unknown>).flat();
  return new ConflictError(`Unable to delete object. ${messages.map(String).join(' ')}`);
}
