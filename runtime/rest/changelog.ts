import type { Knex } from 'knex';
import { now } from '../db/clock.js';
import type { Dialect } from '../db/connect.js';
import { chunks, IDS_PER_STATEMENT, rowsPerInsert } from '../db/sql.js';
import type { DomainFunctions } from '../domain/types.js';
import type { ManyToManyField } from '../spec.js';
import { displaysOf } from './display.js';
import type { ModelInfo, Schema } from './schema.js';
import { decodeColumn, decodeJson, encodeRow } from './values.js';
import type { Change, Snapshot, WriteHook } from './write-types.js';

type Row = Record<string, unknown>;

const TIMESTAMPS = new Set(['created', 'last_updated']);

/**
 * Snapshots of objects (NetBox's change-log form, cleaned): every stored, visible field by name except the
 * id and the timestamps, FKs as ids, many-to-many fields as sorted id lists, tags as sorted names and
 * `custom_fields` as stored. One query for the rows (unless given), one per many-to-many field and one for
 * tags, whatever the number of objects.
 */
export async function snapshotsOf(
  q: Knex,
  schema: Schema,
  model: ModelInfo,
  ids: readonly number[],
  rows?: readonly Row[],
  lists?: ReadonlyMap<number, Snapshot>,
): Promise<Map<number, Snapshot>> {
  const result = new Map<number, Snapshot>();
  if (ids.length === 0) return result;
  const loaded: Row[] = rows ? [...rows] : [];
  if (!rows)
    for (const chunk of chunks(ids, IDS_PER_STATEMENT))
      loaded.push(...((await q(model.table).whereIn('id', chunk)) as Row[]));
  for (const row of loaded) {
    const snapshot: Snapshot = {};
    for (const field of model.spec.fields) {
      if (!field.column || field.hidden || field.kind === 'password' || TIMESTAMPS.has(field.name)) continue;
      snapshot[field.name] = decodeColumn(field, row[field.column]);
    }
    if (model.spec.features.includes('custom_fields')) snapshot.custom_fields = decodeJson(row.custom_field_data) ?? {};
    result.set(Number(row.id), snapshot);
  }
  const present = [...result.keys()];
  // Lists the write knows (an update that wrote none keeps its earlier ones; a create, those it wrote): not read.
  const known = (key: string): boolean => lists !== undefined && present.every((id) => key in (lists.get(id) ?? {}));
  for (const field of model.spec.fields) {
    if (field.kind !== 'm2m' || field.reverseOf) continue;
    const linked = known(field.name)
      ? new Map(present.map((id) => [id, lists!.get(id)![field.name]]))
      : await linkedIds(q, field as ManyToManyField, present);
    for (const [id, snapshot] of result) snapshot[field.name] = linked.get(id)!;
  }
  const tagModel = schema.withRole('tag');
  const itemModel = schema.withRole('tagged_item');
  if (model.hasTags && tagModel && itemModel && known('tags')) {
    for (const [id, snapshot] of result) snapshot.tags = lists!.get(id)!.tags;
  } else if (model.hasTags && tagModel && itemModel) {
    for (const snapshot of result.values()) snapshot.tags = [];
    for (const chunk of chunks(present, IDS_PER_STATEMENT)) {
      const tags = (await q({ ti: itemModel.table })
        .join({ t: tagModel.table }, 't.id', 'ti.tag_id')
        .where('ti.object_type', model.label)
        .whereIn('ti.object_id', chunk)
        .select({ owner: 'ti.object_id', name: 't.name' })
        .orderBy('t.name')) as { owner: number | string; name: string }[];
      for (const tag of tags) (result.get(Number(tag.owner))!.tags as string[]).push(tag.name);
    }
  }
  return result;
}

/** The ids each of `owners` links to through a many-to-many field, in id order (one query per IDS_PER_STATEMENT owners). */
export async function linkedIds(
  q: Knex,
  field: ManyToManyField,
  owners: readonly number[],
): Promise<Map<number, number[]>> {
  const linked = new Map(owners.map((id) => [id, [] as number[]]));
  for (const chunk of chunks([...linked.keys()], IDS_PER_STATEMENT)) {
    const links = (await q(field.through)
      .whereIn(field.fromColumn, chunk)
      .select({ owner: field.fromColumn, target: field.toColumn })
      .orderBy(field.toColumn)) as { owner: number | string; target: number | string }[];
    for (const link of links) linked.get(Number(link.owner))!.push(Number(link.target));
  }
  return linked;
}

/**
 * The snapshots after a write that its change records hold, by the write's change list: the event hook that
 * runs after the change logger in the same transaction takes them instead of reading the objects again.
 */
const recordedAfter = new WeakMap<readonly Change[], Map<string, Snapshot>>();

/** The snapshot the change logger recorded for an object after this write, if it recorded one. */
export function recordedSnapshot(changes: readonly Change[], model: ModelInfo, id: number): Snapshot | undefined {
  return recordedAfter.get(changes)?.get(`${model.label}:${id}`);
}

/** What the change logger needs to know about the request. */
interface ChangeLogOptions {
  schema: Schema;
  dialect: Dialect;
  domain: DomainFunctions;
  /** App name → verbose name (`dcim` → `DCIM`). */
  appNames: ReadonlyMap<string, string>;
  /** An update that changes nothing recorded leaves no record (NetBox's CHANGELOG_SKIP_EMPTY_CHANGES). */
  skipEmptyChanges: boolean;
}

/**
 * The write hook that records every change of a change-logged model in the same transaction: one record per
 * object per request (a create followed by updates is one create; anything followed by a delete is a delete),
 * with the user, the request id, the message, and snapshots before and after. Records are inserted in
 * batches; a page of changes costs a bounded number of queries per model.
 */
export function changeLogger(options: ChangeLogOptions): WriteHook {
  const { schema } = options;
  return async (trx, changes, request) => {
    const records = schema.withRole('change_record');
    if (!records) return;
    const merged = mergeChanges(changes.filter((c) => c.model.hasTimestamps && c.model !== records));
    if (merged.length === 0) return;

    const byModel = new Map<ModelInfo, number[]>();
    for (const change of merged) {
      if (change.action === 'delete') continue;
      byModel.set(change.model, [...(byModel.get(change.model) ?? []), change.id]);
    }
    // Objects whose tags or lists some change of this request wrote without saying what they became: read.
    const listsWritten = new Set(
      changes.filter((c) => !c.listsKept && !c.lists).map((c) => `${c.model.label}:${c.id}`),
    );
    const earlier = new Map<string, Snapshot>();
    for (const change of merged) {
      const known = change.action === 'create' ? change.lists : change.beforeSnapshot;
      if (known && !listsWritten.has(`${change.model.label}:${change.id}`))
        earlier.set(`${change.model.label}:${change.id}`, known);
    }
    const after = new Map<string, { snapshot: Snapshot; repr: string; row: Row }>();
    for (const [model, ids] of byModel) {
      const rows: Row[] = [];
      for (const chunk of chunks(ids, IDS_PER_STATEMENT))
        rows.push(...((await trx(model.table).whereIn('id', chunk)) as Row[]));
      const lists = new Map<number, Snapshot>();
      for (const id of ids) {
        const snapshot = earlier.get(`${model.label}:${id}`);
        if (snapshot) lists.set(id, snapshot);
      }
      const snapshots = await snapshotsOf(trx, schema, model, ids, rows, lists);
      const reprs = await displaysOf(trx, schema, options.domain, model, rows);
      for (const row of rows) {
        const id = Number(row.id);
        after.set(`${model.label}:${id}`, { snapshot: snapshots.get(id)!, repr: reprs.get(id)!, row });
      }
    }
    // Deleted objects are named from their last stored row (what it refers to is still there).
    const deletedBy = new Map<ModelInfo, Row[]>();
    for (const change of merged)
      if (change.action === 'delete' && change.before)
        deletedBy.set(change.model, [...(deletedBy.get(change.model) ?? []), change.before]);
    const deletedReprs = new Map<string, string>();
    for (const [model, befores] of deletedBy)
      for (const [id, repr] of await displaysOf(trx, schema, options.domain, model, befores))
        deletedReprs.set(`${model.label}:${id}`, repr);

    recordedAfter.set(changes, new Map([...after].map(([key, value]) => [key, value.snapshot])));

    const time = now();
    const { user } = request.principal;
    const rows: Row[] = [];
    for (const change of merged) {
      const post = change.action === 'delete' ? null : after.get(`${change.model.label}:${change.id}`);
      if (change.action !== 'delete' && !post) continue; // removed again later in this request
      const pre = change.action === 'create' ? null : (change.beforeSnapshot ?? null);
      if (
        change.action === 'update' &&
        options.skipEmptyChanges &&
        pre &&
        JSON.stringify(pre) === JSON.stringify(post!.snapshot)
      )
        continue;
      const repr = post?.repr ?? deletedReprs.get(`${change.model.label}:${change.id}`) ?? '';
      const related = relatedObject(change.model, post?.row ?? change.before);
      rows.push(
        encodeRow(
          records.fields,
          {
            time,
            user: user?.id ?? null,
            user_name: user?.username ?? '',
            request_id: request.requestId,
            action: change.action,
            changed_object_type: change.model.label,
            changed_object_id: change.id,
            related_object_type: related?.type ?? null,
            related_object_id: related?.id ?? null,
            object_type_name: `${options.appNames.get(change.model.spec.app) ?? change.model.spec.app} | ${change.model.spec.verboseName}`,
            object_repr: repr.slice(0, 200),
            message: change.message.slice(0, 200),
            prechange_data: pre,
            postchange_data: post?.snapshot ?? null,
          },
          options.dialect,
        ),
      );
    }
    const width = Object.keys(rows[0] ?? {}).length;
    for (const chunk of chunks(rows, rowsPerInsert(options.dialect, width))) await trx(records.table).insert(chunk);
  };
}

/** One change per object: the first state before, the last action (a create then a delete cancels out). */
export function mergeChanges(changes: readonly Change[]): Change[] {
  const merged = new Map<string, Change>();
  const cancelled = new Set<string>();
  for (const change of changes) {
    const key = `${change.model.label}:${change.id}`;
    const earlier = merged.get(key);
    if (!earlier) {
      merged.set(key, change);
      continue;
    }
    if (change.action === 'delete') {
      if (earlier.action === 'create') cancelled.add(key);
      merged.set(key, {
        ...change,
        before: earlier.before,
        beforeSnapshot: earlier.beforeSnapshot,
        beforeData: change.beforeData ?? earlier.beforeData,
      });
    }
  }
  return [...merged.entries()].filter(([key]) => !cancelled.has(key)).map(([, change]) => change);
}

/** The object's parent per its model's `related_object` (an FK or a generic relation), from a stored row. */
function relatedObject(model: ModelInfo, row: Row | null): { type: string; id: number } | null {
  const name = model.spec.relatedObject;
  const field = name ? model.fields.get(name) : undefined;
  if (!row || !field) return null;
  if (field.kind === 'fk') {
    const id = row[field.column!];
    return id === null || id === undefined ? null : { type: field.target, id: Number(id) };
  }
  if (field.kind === 'generic_fk') {
    const type = row[model.fields.get(field.typeField)!.column!];
    const id = row[model.fields.get(field.idField)!.column!];
    return typeof type === 'string' && id !== null && id !== undefined ? { type, id: Number(id) } : null;
  }
  return null;
}

/** Snapshots of rows about to change, when the model's changes are recorded. */
export async function snapshotsBefore(
  ctx: { q: Knex; schema: Schema },
  model: ModelInfo,
  rows: readonly Row[],
): Promise<Map<number, Snapshot>> {
  if (!model.hasTimestamps || !ctx.schema.withRole('change_record')) return new Map();
  return snapshotsOf(
    ctx.q,
    ctx.schema,
    model,
    rows.map((r) => Number(r.id)),
    rows,
  );
}
