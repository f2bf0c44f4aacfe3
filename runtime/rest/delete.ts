import type { Knex } from 'knex';
import { ConflictError } from '../http/errors.js';
import type { DomainFunctions } from '../domain/types.js';
import { chunks } from './fetch.js';
import type { ModelInfo, Schema } from './schema.js';
import { computeDisplay } from './render.js';
import { snapshotsBefore, type WriteContext } from './write.js';
import type { Snapshot } from './changelog.js';
import { decodeColumn } from './values.js';

type Row = Record<string, unknown>;

interface Collected {
  model: ModelInfo;
  rows: Row[];
}

/**
 * Deletes objects with NetBox's deletion rules, all or nothing: dependents on a `protect` FK block the
 * delete (409 naming them), `cascade` dependents are deleted first (recursively), `set_null` FKs are
 * cleared. Every deleted object is recorded as a change; `messages` gives the changelog message per id.
 */
export async function deleteObjects(
  ctx: WriteContext,
  model: ModelInfo,
  ids: readonly number[],
  messages: ReadonlyMap<number, string> = new Map(),
): Promise<void> {
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
    for (const chunk of chunks(fresh, 500))
      rows.push(...((await q(current.table).whereIn('id', chunk).select('*')) as Row[]));
    order.push({ model: current, rows });
    for (const relation of current.spec.reverse) {
      const dependent = ctx.schema.model(relation.model);
      const field = dependent.fields.get(relation.field)!;
      // A generic relation points here through its type and id fields.
      const columns =
        field.kind === 'generic_fk'
          ? [dependent.fields.get(field.typeField)!.column!, dependent.fields.get(field.idField)!.column!]
          : [field.column!];
      const column = columns[columns.length - 1]!;
      const found: Row[] = [];
      for (const chunk of chunks(fresh, 500)) {
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

  // A protected dependent that is itself being deleted does not block.
  const listed = new Set<string>();
  const remaining = blockers.filter((b) => {
    const key = `${b.model.label}:${String(b.row.id)}`;
    if (listed.has(key) || (seen.get(b.model.label)?.has(Number(b.row.id)) ?? false)) return false;
    listed.add(key);
    return true;
  });
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
    for (const chunk of chunks(nulling.ids, 500))
      await q(nulling.model.table)
        .whereIn('id', chunk)
        .update(Object.fromEntries(nulling.columns.map((c) => [c, null])));
  }
  const itemModel = ctx.schema.withRole('tagged_item');
  // Dependents were collected after the objects they depend on: delete in reverse.
  for (const { model: current, rows } of [...order].reverse()) {
    const idList = rows.map((r) => Number(r.id));
    if (current.hasTags && itemModel) {
      for (const chunk of chunks(idList, 500)) {
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
}

/** Many-to-many rows that list the deleted objects, on either side. */
async function deleteListings(q: Knex, schema: Schema, model: ModelInfo, ids: readonly number[]): Promise<void> {
  for (const owner of schema.models.values()) {
    for (const field of owner.spec.fields) {
      if (field.kind !== 'm2m') continue;
      const sides = [
        ...(owner === model ? [field.fromColumn] : []),
        ...(field.target === model.label ? [field.toColumn] : []),
      ];
      for (const side of sides) {
        for (const chunk of chunks(ids, 500)) await q(field.through).whereIn(side, chunk).delete();
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
  for (const chunk of chunks(ids, 500)) await q(model.table).whereIn('id', chunk).delete();
}

/** The display text of a stored row (for messages). */
export function displayOf(domain: DomainFunctions, model: ModelInfo, row: Row): string {
  return computeDisplay(domain, model.spec.display, (name) => {
    const field = model.fields.get(name);
    return field?.column ? decodeColumn(field, row[field.column]) : row[name];
  });
}
