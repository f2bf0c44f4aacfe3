import { ownsColumn } from '../kinds/index.js';
import type { Knex } from 'knex';
import { linkedIds, snapshotsBefore } from './changelog.js';
import { childDifference, countChildren, parseChildList, type ChildItem } from './children.js';
import { deleteObjects } from './delete.js';
import type { PreparedItem, WriteContext, WriteResult } from './write-types.js';
import type { CreatedContext } from '../domain/types.js';
import { normalizeTimestamp, now } from '../db/clock.js';
import { FieldErrors, ValidationError } from '../errors.js';
import type { ChildListField, FieldSpec, ForeignKeyField, ManyToManyField } from '../spec.js';
import { parseFieldValue, pythonType } from './parse-field.js';
import type { ModelInfo } from './schema.js';
import { applyTags, newObjectTagRows, TagResolver, type TagOps } from './tags.js';
import { isSelfOrDescendant, moveNode, placeNewNodes } from './tree.js';
import { checkUniques } from './unique.js';
import { applySetRules, checkRules, fieldsReadByRules, ruleForeignKeys } from './rules.js';
import { decodeJson, decodeRow, encodeColumn } from './values.js';
import { derivedFollowers } from './derived.js';
import { primeRows, withRowMemo } from '../db/row-memo.js';
import { chunks, IDS_PER_STATEMENT, rowsPerInsert, updateRows } from '../db/sql.js';
import { CheckAgain } from '../errors.js';
import { lockForUpdate } from '../db/transaction.js';
import { hashPassword } from '../auth/passwords.js';
import { parseIp } from './ip.js';
import { naturalKey } from './natural.js';
import { asId } from './related.js';
import { fileStem, INVALID_IMAGE, isUploadedFile, sniffImage, storeImage } from './images.js';

type Row = Record<string, unknown>;

/** Validates and creates objects (all or none). Bulk errors come back aligned with the input. */
export async function createObjects(
  ctx: WriteContext,
  model: ModelInfo,
  inputs: unknown[],
  bulk: boolean,
): Promise<WriteResult> {
  const timestamp = now();
  const serial = isSerial(ctx, model, true);
  const insert = async (item: PreparedItem): Promise<void> => {
    storeUploads(ctx, model, [item]);
    item.id = await insertOne(ctx.q, model, insertRow(ctx, model, item, timestamp));
  };
  const items = await prepareItems(
    ctx,
    model,
    inputs.map((input) => ({ input, existingRow: null })),
    false,
    serial ? insert : null,
  );
  throwIfInvalid(items, bulk ? 'aligned' : 'single');
  if (!serial) {
    storeUploads(ctx, model, items);
    const rows = items.map((item) => insertRow(ctx, model, item, timestamp));
    const width = Object.keys(rows[0] ?? {}).length;
    const ids: number[] = [];
    for (const chunk of chunks(rows, rowsPerInsert(ctx.dialect, width))) {
      const inserted = (await ctx.q(model.table).insert(chunk).returning('id')) as ({ id: number } | number)[];
      ids.push(...inserted.map((r) => Number(typeof r === 'object' ? r.id : r)));
    }
    items.forEach((item, i) => (item.id = ids[i]!));
  }
  const ids = items.map((item) => item.id!);
  if (model.spec.tree) {
    await placeNewNodes(
      ctx.q,
      ctx.dialect,
      model,
      items.map((item) => ({
        id: item.id!,
        parent: (item.values.parent as number | null) ?? null,
        name: nameOf(item),
      })),
    );
  }

  const tagRows = newObjectTagRows(
    model,
    items.filter((item) => item.tags).map((item) => ({ id: item.id!, ops: item.tags! })),
  );
  const itemModel = ctx.schema.withRole('tagged_item');
  if (itemModel)
    for (const chunk of chunks(tagRows, rowsPerInsert(ctx.dialect, 3))) await ctx.q(itemModel.table).insert(chunk);

  await writeRelatedLists(ctx, model, items, true);
  await writeChildLists(ctx, model, items);
  for (const item of items)
    ctx.changes.push({
      action: 'create',
      model,
      id: item.id!,
      before: null,
      lists: createdLists(model, item),
      message: item.message,
    });
  if (model.spec.hooks.created && !ctx.importing) {
    const created = items.map((item) => ({ id: item.id!, values: item.values }));
    await ctx.domain.created(model.spec.hooks.created)(hookContext(ctx), model, created);
  }
  await runWrittenHook(ctx, model, items);
  return { ids, transient: transientById(items) };
}

/** The many-to-many lists (not the reverse ones) a create wrote: each field's ids in order, empty when not given. */
function createdLists(model: ModelInfo, item: PreparedItem): Record<string, number[]> {
  const lists: Record<string, number[]> = {};
  for (const field of model.spec.fields) {
    if (field.kind !== 'm2m' || field.reverseOf) continue;
    const value = Object.hasOwn(item.input, field.name) ? item.values[field.name] : [];
    lists[field.name] = Array.isArray(value) ? [...(value as number[])].sort((a, b) => a - b) : [];
  }
  return lists;
}

/** A write hook's view of the write: its transaction, and creates, updates and deletes through the write path. */
export function hookContext(ctx: WriteContext): CreatedContext {
  return {
    q: ctx.q,
    schema: ctx.schema,
    dialect: ctx.dialect,
    settings: ctx.settings,
    create: async (model, bodies) => (bodies.length ? (await createObjects(ctx, model, [...bodies], true)).ids : []),
    update: async (model, updates) => {
      if (updates.length) await updateObjects(ctx, model, updates, true);
    },
    remove: async (model, ids) => {
      if (ids.length) await deleteObjects(ctx, model, ids);
    },
  };
}

/**
 * Validates and updates objects (all or none). `partial` is PATCH; PUT needs every required field.
 * Items whose id does not exist are skipped (bulk) — callers check single objects beforehand. `following`: the
 * objects only take their derived values again (`set` rules) because a related object changed; their checks do
 * not run, as NetBox's `save()` methods update such objects with `QuerySet.update()`.
 */
export async function updateObjects(
  ctx: WriteContext,
  model: ModelInfo,
  updates: readonly { id: number; input: unknown }[],
  partial: boolean,
  following = false,
): Promise<WriteResult> {
  const existingRows = new Map<number, Row>();
  // Read under a row lock, in id order: what is merged into (custom fields, many-to-many lists) is what the
  // write replaces, even while other writes of the same objects wait.
  for (const chunk of chunks(
    [...new Set(updates.map((u) => u.id))].sort((a, b) => a - b),
    IDS_PER_STATEMENT,
  )) {
    const query = ctx.q(model.table).whereIn('id', chunk).orderBy('id').select('*');
    for (const row of (await lockForUpdate(query, ctx.dialect)) as Row[]) existingRows.set(Number(row.id), row);
  }
  const present = updates.filter((u) => existingRows.has(u.id));
  const befores = await snapshotsBefore(ctx, model, [...existingRows.values()]);
  const timestamp = now();
  const serial = isSerial(ctx, model, false);
  const update = async (item: PreparedItem): Promise<void> => {
    storeUploads(ctx, model, [item]);
    const changes = updateRow(ctx, model, item);
    if (model.hasTimestamps) changes.last_updated = timestamp;
    if (Object.keys(changes).length > 0) await ctx.q(model.table).where('id', item.id!).update(changes);
    if (model.spec.tree && (item.values.parent !== item.existing!.parent || nameOf(item) !== item.existing!.name)) {
      await moveNode(ctx.q, model, item.id!, (item.values.parent as number | null) ?? null, nameOf(item));
    }
  };
  const items = await prepareItems(
    ctx,
    model,
    present.map((u) => ({ input: u.input, existingRow: existingRows.get(u.id)! })),
    partial,
    serial ? update : null,
    following,
  );
  throwIfInvalid(items, 'first');
  if (!serial) {
    // Not a tree (its moves are serial): the rows only take their new values, in statements per column set.
    storeUploads(ctx, model, items);
    const rows = items.map((item) => {
      const values = updateRow(ctx, model, item);
      if (model.hasTimestamps) values.last_updated = timestamp;
      return { id: item.id!, values };
    });
    await updateRows(ctx.q, ctx.dialect, model.table, rows);
  }

  const tagChanges: { id: number; ops: TagOps }[] = [];
  for (const item of items) {
    const id = item.id!;
    if (item.tags) tagChanges.push({ id, ops: item.tags });
    ctx.changes.push({
      action: 'update',
      model,
      id,
      before: item.existingRow,
      beforeSnapshot: befores.get(id) ?? null,
      listsKept: !item.tags && !model.spec.fields.some((f) => f.kind === 'm2m' && Object.hasOwn(item.input, f.name)),
      message: item.message,
    });
  }
  await applyTags(ctx.q, ctx.schema, model, tagChanges);
  await writeRelatedLists(ctx, model, items, false);
  await writeChildLists(ctx, model, items);
  if (model.spec.hooks.updated && !following && !ctx.importing) {
    const updated = items.map((item) => ({ id: item.id!, values: item.values, before: item.existing! }));
    await ctx.domain.updated(model.spec.hooks.updated)(hookContext(ctx), model, updated);
  }
  if (!ctx.importing) {
    for (const follower of await derivedFollowers(ctx.q, ctx.schema, model, items)) {
      const updates = follower.ids.map((id) => ({ id, input: {} }));
      await updateObjects(ctx, follower.model, updates, true, true);
    }
  }
  await runWrittenHook(ctx, model, items);
  return { ids: items.map((i) => i.id!), transient: transientById(items) };
}

/** The model's `written` hook, after its objects were created or updated (not while importing). */
async function runWrittenHook(ctx: WriteContext, model: ModelInfo, items: readonly PreparedItem[]): Promise<void> {
  if (!model.spec.hooks.written || ctx.importing || items.length === 0) return;
  const written = items.map((item) => ({ id: item.id!, values: item.values }));
  await ctx.domain.written(model.spec.hooks.written)(ctx, model, written);
}

/** Uploaded images must be PNG, JPEG, GIF or WebP; their dimensions and size fill the named fields. */
function checkUploads(model: ModelInfo, item: PreparedItem): void {
  for (const field of model.spec.fields) {
    if (field.kind !== 'image') continue;
    const upload = item.values[field.name];
    if (!isUploadedFile(upload)) continue;
    const info = sniffImage(upload.buffer);
    if (!info) {
      item.errors.add(field.name, INVALID_IMAGE);
      continue;
    }
    if (field.heightField) item.values[field.heightField] = info.height;
    if (field.widthField) item.values[field.widthField] = info.width;
    if (field.sizeField) item.values[field.sizeField] = upload.size;
  }
}

/** Writes the uploads of valid items below MEDIA_ROOT; the stored path replaces the upload in the values. */
function storeUploads(ctx: WriteContext, model: ModelInfo, items: readonly PreparedItem[]): void {
  for (const field of model.spec.fields) {
    if (field.kind !== 'image') continue;
    for (const item of items) {
      const upload = item.values[field.name];
      const previous = item.existing?.[field.name];
      if (upload === null && typeof previous === 'string' && previous) ctx.files.obsolete.push(previous);
      if (!isUploadedFile(upload)) continue;
      const stem = fileNameFor(ctx, model, field.fileName, item.values, upload.originalName);
      const stored = storeImage(
        ctx.settings.MEDIA_ROOT,
        field.uploadTo,
        stem,
        sniffImage(upload.buffer)!.format,
        upload.buffer,
      );
      ctx.files.written.push(stored);
      if (typeof previous === 'string' && previous) ctx.files.obsolete.push(previous);
      item.values[field.name] = stored;
    }
  }
}

/** Fills a `{field}` / `{a|b}` / `{file}` template: a content type gives its model name. */
function fileNameFor(
  ctx: WriteContext,
  model: ModelInfo,
  template: string,
  values: Record<string, unknown>,
  originalName: string,
): string {
  return template.replace(/\{([^}]*)\}/g, (_match, names: string) => {
    for (const name of names.split('|')) {
      const value = name === 'file' ? fileStem(originalName) : values[name];
      if (value === null || value === undefined || value === '') continue;
      const field = model.fields.get(name);
      return field?.kind === 'content_type' ? String(value).split('.').pop()! : String(value);
    }
    return '';
  });
}

function nameOf(item: PreparedItem): string {
  return String(item.values.name ?? item.id ?? '');
}

function transientById(items: readonly PreparedItem[]): Map<number, Record<string, unknown>> {
  return new Map(items.filter((i) => Object.keys(i.transient).length > 0).map((i) => [i.id!, i.transient]));
}

function throwIfInvalid(items: readonly PreparedItem[], shape: 'single' | 'aligned' | 'first'): void {
  if (!items.some((i) => i.errors.has())) return;
  if (shape === 'aligned') throw new ValidationError(items.map((i) => i.errors.errors));
  throw new ValidationError(items.find((i) => i.errors.has())!.errors.errors);
}

async function insertOne(q: Knex, model: ModelInfo, row: Row): Promise<number> {
  const [inserted] = (await q(model.table).insert(row).returning('id')) as ({ id: number } | number)[];
  return Number(typeof inserted === 'object' ? inserted.id : inserted);
}

/**
 * Whether objects of a batch are validated and stored one at a time, so that each object's checks see the
 * objects stored before it in the same request (two equal addresses in one bulk create collide like two
 * requests do): when a validator of the model reads its own model's rows without looking at the batch (its
 * domain entry has no `batch`), and for updates of a tree (a move is checked against the tree as the earlier
 * moves left it). Other batches are validated whole (declared unique constraints look at the batch too) and
 * inserted in multi-row statements; a new tree node has no descendants yet, and its parent exists before the
 * request (the importer writes a tree level by level).
 */
function isSerial(ctx: WriteContext, model: ModelInfo, creating: boolean): boolean {
  if (model.spec.tree && !creating) return true;
  const names = [
    ...model.spec.validators,
    ...model.spec.rules.flatMap((rule) => (rule.kind === 'validator' ? [rule.function] : [])),
  ];
  return names.some((name) => !ctx.domain.validatesBatch(name));
}

/**
 * Parses and validates every body; FKs and tags of the whole batch are looked up first, in batches. With
 * `settle`, each valid object is written by it before the next object is validated.
 */
async function prepareItems(
  ctx: WriteContext,
  model: ModelInfo,
  raw: readonly { input: unknown; existingRow: Row | null }[],
  partial: boolean,
  settle: ((item: PreparedItem) => Promise<void>) | null,
  following = false,
): Promise<PreparedItem[]> {
  const objects = raw.map((r) => (isPlainObject(r.input) ? r.input : null));
  const optimistic = ctx.optimisticUniques === true;
  for (const field of model.writable) {
    if (field.kind !== 'fk' && !(field.kind === 'm2m' && !field.by)) continue;
    if (trustsReference(ctx, field)) continue;
    const target = ctx.schema.model(field.target);
    await ctx.resolver.prefetch(
      target,
      objects.flatMap((o) => {
        const value = o?.[field.name];
        return Array.isArray(value) ? (value as unknown[]) : [value];
      }),
    );
  }
  const tags = new TagResolver(ctx.q, ctx.schema, ctx.resolver.restrictView);
  if (model.hasTags) await tags.prefetch(objects.filter((o): o is Record<string, unknown> => o !== null));

  const storedLists = await storedListsForRules(
    ctx,
    model,
    raw.flatMap((r) => (r.existingRow ? [Number(r.existingRow.id)] : [])),
  );
  const items: PreparedItem[] = [];
  await withRowMemo(ctx.q, model.table, async () => {
    // A batch's rules follow its objects' FKs: the rows they reach first are read once for the whole batch.
    if (raw.length > 1) {
      for (const name of ruleForeignKeys(model)) {
        const field = model.fields.get(name) as ForeignKeyField;
        const ids = raw.flatMap(({ existingRow }, i) => {
          const value = objects[i]?.[name] ?? existingRow?.[field.column!];
          return typeof value === 'number' ? [value] : [];
        });
        await primeRows(ctx.q, ctx.schema.model(field.target).table, ids);
      }
    }
    for (const [index, { input, existingRow }] of raw.entries()) {
      const errors = new FieldErrors();
      const object = objects[index];
      const existing = existingRow
        ? { ...decodeRow(model.spec.fields, existingRow), ...storedLists.get(Number(existingRow.id)) }
        : null;
      const item: PreparedItem = {
        input: object ?? {},
        id: existingRow ? Number(existingRow.id) : null,
        existingRow,
        existing,
        values: { ...(existing ?? {}) },
        tags: null,
        customFields: null,
        message: '',
        errors,
        transient: {},
      };
      items.push(item);
      if (!object) {
        errors.add('non_field_errors', `Invalid data. Expected a dictionary, but got ${pythonType(input)}.`);
        continue;
      }
      await parseFields(ctx, model, item, partial);
      checkUploads(model, item);
      if (model.hasTags) item.tags = tags.parse(model, object, existing === null, errors);
      if (model.hasCustomFields && (existing === null || 'custom_fields' in object)) {
        const current = existingRow
          ? ((decodeJson(existingRow.custom_field_data) ?? {}) as Record<string, unknown>)
          : null;
        item.customFields = await ctx.customFields(model, object.custom_fields, current, errors, item.id);
      }
      parseMessage(object, errors, item);
      if (errors.has()) continue;
      await validateItem(ctx, model, item, items.slice(0, -1), following);
      if (settle && !errors.has() && !optimistic) await checkUniques(ctx.q, model, [item]);
      if (settle && !errors.has()) await settle(item);
    }
  });
  // NetBox's error body names every problem of every object, taken values included: ask after all.
  if (optimistic && items.some((item) => item.errors.has())) throw new CheckAgain();
  if (!settle && !optimistic) await checkUniques(ctx.q, model, items);
  return items;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseMessage(object: Record<string, unknown>, errors: FieldErrors, item: PreparedItem): void {
  const message = object.changelog_message;
  if (message === undefined || message === null) return;
  if (typeof message !== 'string') errors.add('changelog_message', 'Not a valid string.');
  else if (message.length > 200) errors.add('changelog_message', 'Ensure this field has no more than 200 characters.');
  else item.message = message;
}

async function parseFields(ctx: WriteContext, model: ModelInfo, item: PreparedItem, partial: boolean): Promise<void> {
  const creating = item.existing === null;
  for (const field of model.writable) {
    const present = Object.hasOwn(item.input, field.name) && item.input[field.name] !== undefined;
    if (!present) {
      if (creating) {
        if (field.required) item.errors.add(field.name, 'This field is required.');
        else item.values[field.name] = defaultValue(field, ctx.user?.id ?? null);
      } else if (!partial && field.required && !field.createOnly) {
        item.errors.add(field.name, 'This field is required.');
      }
      continue;
    }
    if (!creating && field.createOnly) continue;
    if (field.kind === 'children') {
      const list = await parseChildList(ctx.schema, ctx.resolver, field, item.input[field.name]);
      if (list.ok) item.values[field.name] = list.value;
      else item.errors.set(field.name, list.errors);
      continue;
    }
    const parsed = await parseInput(ctx, field, item.input[field.name]);
    if (parsed.ok) item.values[field.name] = parsed.value;
    else for (const message of parsed.errors) item.errors.add(field.name, message);
  }
  if (creating) {
    for (const field of model.spec.fields) {
      if (!(field.name in item.values)) item.values[field.name] = defaultValue(field, ctx.user?.id ?? null);
    }
  }
}

async function parseInput(
  ctx: WriteContext,
  field: FieldSpec,
  value: unknown,
): Promise<{ ok: true; value: unknown } | { ok: false; errors: string[] }> {
  if (value === null) {
    if (field.nullable) return { ok: true, value: null };
    if (field.kind === 'choice' && !field.raw) return parseFieldValue(field, '');
    return { ok: false, errors: ['This field may not be null.'] };
  }
  if (field.kind === 'fk') {
    const id = trustsReference(ctx, field) ? asId(value) : null;
    if (id !== null) return { ok: true, value: id };
    const resolved = await ctx.resolver.resolve(ctx.schema.model(field.target), value);
    return resolved.ok ? { ok: true, value: resolved.id } : { ok: false, errors: [resolved.error] };
  }
  if (field.kind === 'm2m') return parseRelatedList(ctx, field, value);
  // An imported image is a file already stored below MEDIA_ROOT: its path.
  if (field.kind === 'image' && ctx.importing && typeof value === 'string') return { ok: true, value: value || null };
  const parsed = parseFieldValue(field, value);
  if (parsed.ok && field.kind === 'object_types') {
    for (const label of parsed.value as string[]) {
      const model = ctx.schema.models.get(label);
      if (!model || (field.feature && !model.spec.features.includes(field.feature))) {
        return { ok: false, errors: [`Invalid content type: ${label}`] };
      }
    }
  }
  if (parsed.ok && field.kind === 'password')
    return { ok: true, value: ctx.importing ? parsed.value : await hashPassword(parsed.value as string) };
  return parsed;
}

/**
 * Whether an id written to the field is taken without asking whether its object exists: in the optimistic
 * attempt, for a foreign key stored in the row's own column, whose database constraint refuses a missing object
 * (the attempt is then run again with the checks, for NetBox's error body).
 */
function trustsReference(ctx: WriteContext, field: FieldSpec): boolean {
  return ctx.optimisticUniques === true && field.kind === 'fk' && field.column !== undefined && ownsColumn(field);
}

/** A many-to-many value: ids (DRF's primary-key list), or `by` attributes such as tag slugs. */
async function parseRelatedList(
  ctx: WriteContext,
  field: ManyToManyField,
  value: unknown,
): Promise<{ ok: true; value: unknown } | { ok: false; errors: string[] }> {
  if (!Array.isArray(value))
    return { ok: false, errors: [`Expected a list of items but got type "${pythonType(value)}".`] };
  const target = ctx.schema.model(field.target);
  if (field.by) {
    const column = target.fields.get(field.by)?.column ?? field.by;
    const wanted = [...new Set(value.map(String))];
    const rows = wanted.length
      ? ((await ctx.q(target.table).whereIn(column, wanted).select('id', column)) as Row[])
      : [];
    const missing = wanted.find((v) => !rows.some((r) => String(r[column]) === v));
    if (missing !== undefined) return { ok: false, errors: [`Object with ${field.by}=${missing} does not exist.`] };
    return { ok: true, value: wanted.map((v) => Number(rows.find((r) => String(r[column]) === v)!.id)) };
  }
  const ids: number[] = [];
  for (const item of value) {
    if (typeof item !== 'number' && !(typeof item === 'string' && /^\d+$/.test(item))) {
      return { ok: false, errors: [`Incorrect type. Expected pk value, received ${pythonType(item)}.`] };
    }
    const resolved = await ctx.resolver.resolve(target, item);
    if (!resolved.ok) return { ok: false, errors: [`Invalid pk "${String(item)}" - object does not exist.`] };
    if (!ids.includes(resolved.id)) ids.push(resolved.id);
  }
  return { ok: true, value: ids };
}

/**
 * The stored many-to-many lists (ids) of existing objects, for the fields the model's rules read: a rule over a
 * list that a PATCH does not send sees the stored one, not an empty list. One query per such field.
 */
async function storedListsForRules(
  ctx: WriteContext,
  model: ModelInfo,
  ids: readonly number[],
): Promise<Map<number, Record<string, number[]>>> {
  const lists = new Map<number, Record<string, number[]>>();
  if (ids.length === 0) return lists;
  const read = fieldsReadByRules(model.spec.rules);
  for (const field of model.spec.fields) {
    if (field.kind !== 'm2m' || !read.has(field.name)) continue;
    for (const [id, linked] of await linkedIds(ctx.q, field, ids))
      lists.set(id, { ...lists.get(id), [field.name]: linked });
  }
  return lists;
}

/** Replaces the related objects of many-to-many fields the bodies named (`values` hold the new ids). */
async function writeRelatedLists(
  ctx: WriteContext,
  model: ModelInfo,
  items: readonly PreparedItem[],
  creating: boolean,
): Promise<void> {
  for (const field of model.spec.fields) {
    if (field.kind !== 'm2m') continue;
    const touched = items.filter(
      (item) => Object.hasOwn(item.input, field.name) && Array.isArray(item.values[field.name]),
    );
    if (touched.length === 0) continue;
    if (!creating) {
      for (const chunk of chunks(
        touched.map((i) => i.id!),
        IDS_PER_STATEMENT,
      ))
        await ctx.q(field.through).whereIn(field.fromColumn, chunk).delete();
    }
    const rows = touched.flatMap((item) =>
      (item.values[field.name] as number[]).map((to) => ({ [field.fromColumn]: item.id!, [field.toColumn]: to })),
    );
    for (const chunk of chunks(rows, rowsPerInsert(ctx.dialect, 2))) await ctx.q(field.through).insert(chunk);
  }
}

/**
 * Child lists the bodies named: reconciled through the child model's write path (deleted before created, so
 * that values moving between children never collide), each child change-logged. A child that the child model's
 * rules refuse fails the write, reported under the list at the item's place.
 */
async function writeChildLists(ctx: WriteContext, model: ModelInfo, items: readonly PreparedItem[]): Promise<void> {
  for (const field of model.spec.fields) {
    if (field.kind !== 'children') continue;
    const owners = items
      .filter((item) => Object.hasOwn(item.input, field.name) && Array.isArray(item.values[field.name]))
      .map((item) => ({
        id: item.id!,
        items: item.values[field.name] as ChildItem[],
        inherited: inherited(ctx, item),
      }));
    if (owners.length === 0) continue;
    const child = ctx.schema.model(field.model);
    const difference = await childDifference(ctx.q, ctx.schema, field, owners);
    if (difference.deleteIds.length > 0) await deleteObjects(ctx, child, difference.deleteIds);
    if (difference.create.length === 0) continue;
    try {
      await createObjects(ctx, child, difference.create, true);
    } catch (error) {
      if (!(error instanceof ValidationError) || !Array.isArray(error.body)) throw error;
      throw new ValidationError({ [field.name]: childErrors(field, owners, difference.create, error.body) });
    }
  }
}

/**
 * What an owner's children take from its input: the change records' message, and when importing the owner's
 * timestamps (NetBox creates a cable's terminations with the cable).
 */
function inherited(ctx: WriteContext, item: PreparedItem): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  if (item.message !== undefined) values.changelog_message = item.message;
  if (ctx.importing)
    for (const key of ['created', 'last_updated'] as const) if (key in item.input) values[key] = item.input[key];
  return values;
}

/** The child model's errors of created children, as the list's per-item errors of the first owner that has some. */
function childErrors(
  field: ChildListField,
  owners: readonly { id: number; items: readonly ChildItem[] }[],
  created: readonly Record<string, unknown>[],
  errors: readonly unknown[],
): Record<string, unknown>[] {
  const keyOf = new Map(field.keys.map(({ key, field: name }) => [name, key]));
  const identityField = field.keys.find((k) => k.key === field.identity)!.field;
  const failed = created.findIndex((_, i) => Object.keys((errors[i] ?? {}) as object).length > 0);
  const owner = owners.find((o) => o.id === created[failed]?.[field.parent]) ?? owners[0]!;
  return owner.items.map((item) => {
    const index = created.findIndex(
      (body) =>
        body[field.parent] === owner.id && JSON.stringify(body[identityField]) === JSON.stringify(item[field.identity]),
    );
    const childError = (index >= 0 ? errors[index] : {}) as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(childError ?? {}).map(([name, value]) => [keyOf.get(name) ?? name, value]),
    );
  });
}

/** A child list's `count_within`: the object keeps at least as many of the bounding field as it has children. */
async function checkChildCounts(ctx: WriteContext, model: ModelInfo, item: PreparedItem): Promise<void> {
  for (const field of model.spec.fields) {
    if (field.kind !== 'children' || !field.countWithin) continue;
    const written = item.values[field.name];
    const count =
      Array.isArray(written) && Object.hasOwn(item.input, field.name)
        ? written.length
        : item.id === null
          ? 0
          : ((await countChildren(ctx.q, ctx.schema, field, [item.id])).get(item.id) ?? 0);
    const bound = item.values[field.countWithin.field];
    if (typeof bound === 'number' && bound < count)
      item.errors.add(field.countWithin.field, field.countWithin.message.replace('{count}', String(count)));
  }
}

/** A generic relation is a type and an id together, naming an object that exists. */
async function checkGenericRelations(ctx: WriteContext, model: ModelInfo, item: PreparedItem): Promise<void> {
  for (const field of model.spec.fields) {
    if (field.kind !== 'generic_fk') continue;
    const written =
      item.existing === null || [field.typeField, field.idField].some((name) => Object.hasOwn(item.input, name));
    if (!written) continue;
    const type = item.values[field.typeField] as string | null | undefined;
    const id = item.values[field.idField] as number | null | undefined;
    if ((type === null || type === undefined) && (id === null || id === undefined)) continue;
    if (id === null || id === undefined) {
      item.errors.add(field.idField, 'This field cannot be null.');
      continue;
    }
    if (type === null || type === undefined) {
      item.errors.add(field.typeField, 'This field cannot be null.');
      continue;
    }
    const target = ctx.schema.model(type);
    // An attachment cannot be made to an object the user may not view (it is "not found", like a missing one).
    const query = ctx.q({ r0: target.table }).where('r0.id', id).first('r0.id');
    if (field.visibleOnly && ctx.resolver.restrictView) await ctx.resolver.restrictView(target, query);
    if (!(await query)) item.errors.add(field.idField, `Related object not found using the provided value: ${id}.`);
  }
}

/** A field's value when a created object leaves it out; `current_user` is the requesting user's id. */
function defaultValue(field: FieldSpec, userId: number | null): unknown {
  if (field.default === 'now' && field.kind === 'datetime') return now();
  if (field.default === 'current_user' && field.kind === 'fk') return userId;
  if (field.default !== undefined) return structuredClone(field.default);
  if (field.kind === 'string' && field.blank && !field.nullable) return '';
  return null;
}

async function validateItem(
  ctx: WriteContext,
  model: ModelInfo,
  item: PreparedItem,
  earlier: readonly PreparedItem[],
  following: boolean,
): Promise<void> {
  await checkGenericRelations(ctx, model, item);
  if (item.errors.has()) return;
  if (model.spec.tree && item.existing && item.values.parent !== null && item.values.parent !== item.existing.parent) {
    if (await isSelfOrDescendant(ctx.q, model, item.id!, item.values.parent as number)) {
      item.errors.add('parent', `Cannot assign self or child ${model.spec.verboseName} as parent.`);
      return;
    }
  }
  const itemContext = {
    q: ctx.q,
    schema: ctx.schema,
    dialect: ctx.dialect,
    settings: ctx.settings,
    model,
    user: ctx.user,
    grantOf: ctx.grantOf,
    id: item.id,
    values: item.values,
    existing: item.existing,
    input: item.input,
    errors: item.errors,
    transient: item.transient,
    earlier: earlier.filter((other) => !other.errors.has()).map((other) => ({ id: other.id, values: other.values })),
  };
  if (!following) {
    await checkChildCounts(ctx, model, item);
    if (item.errors.has()) return;
    await checkRules(ctx, itemContext);
    if (item.errors.has()) return;
    for (const name of model.spec.validators) {
      await ctx.domain.validator(name)(itemContext);
      if (item.errors.has()) return;
    }
  }
  await applySetRules(ctx, itemContext);
  if (model.spec.hooks.prepare) await ctx.domain.prepare(model.spec.hooks.prepare)(itemContext);
}

function insertRow(ctx: WriteContext, model: ModelInfo, item: PreparedItem, timestamp: string): Row {
  const row: Row = {};
  for (const field of model.spec.fields) {
    if (!ownsColumn(field)) continue;
    Object.assign(row, columnsOf(ctx, field, item.values[field.name] ?? null));
  }
  if (model.spec.tree) Object.assign(row, { _path: '', _depth: 0 });
  if (model.hasCustomFields) row.custom_field_data = JSON.stringify(item.customFields ?? {});
  if (model.hasTimestamps) Object.assign(row, { created: timestamp, last_updated: timestamp });
  if (ctx.importing) Object.assign(row, importedColumns(ctx, model, item.input));
  return row;
}

/** An imported object keeps its id, its timestamps and its read-only and hidden stored values (a token's key and digest). */
function importedColumns(ctx: WriteContext, model: ModelInfo, input: Row): Row {
  const row: Row = {};
  if (typeof input.id === 'number') row.id = input.id;
  for (const key of ['created', 'last_updated'] as const) {
    const value = input[key];
    if (model.hasTimestamps && typeof value === 'string') row[key] = normalizeTimestamp(value);
  }
  for (const field of model.spec.fields) {
    if (!(field.readOnly || field.hidden) || !ownsColumn(field) || input[field.name] === undefined) continue;
    const value = input[field.name];
    Object.assign(
      row,
      columnsOf(ctx, field, field.kind === 'datetime' && typeof value === 'string' ? normalizeTimestamp(value) : value),
    );
  }
  return row;
}

function updateRow(ctx: WriteContext, model: ModelInfo, item: PreparedItem): Row {
  const changes: Row = {};
  for (const field of model.spec.fields) {
    if (!ownsColumn(field) || !(field.name in item.values)) continue;
    const value = item.values[field.name];
    if (sameValue(value, item.existing![field.name])) continue;
    Object.assign(changes, columnsOf(ctx, field, value ?? null));
  }
  if (item.customFields) changes.custom_field_data = JSON.stringify(item.customFields);
  return changes;
}

/** A field's stored columns: IP fields also keep family, range and mask length; natural names a sort key. */
function columnsOf(ctx: WriteContext, field: FieldSpec, value: unknown): Row {
  const column = field.column!;
  const row: Row = { [column]: encodeColumn(field, value, ctx.dialect) };
  if (field.kind === 'ip_network' || field.kind === 'ip_interface') {
    const ip = typeof value === 'string' ? parseIp(value) : null;
    const interfaceAddress = field.kind === 'ip_interface';
    Object.assign(row, {
      [`${column}_family`]: ip?.family ?? null,
      [`${column}_start`]: ip ? (interfaceAddress ? ip.host : ip.start) : null,
      [`${column}_end`]: ip ? (interfaceAddress ? ip.host : ip.end) : null,
      [`${column}_len`]: ip?.len ?? null,
    });
  }
  if (field.kind === 'string' && field.natural) row[`${column}_natural`] = naturalKey(String(value ?? ''));
  return row;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'object' || typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  return false;
}

/** The FK field of `model` named `name` (used by domain code and tests). */
export function foreignKey(model: ModelInfo, name: string): ForeignKeyField {
  const field = model.fields.get(name);
  if (!field || field.kind !== 'fk') throw new Error(`${model.label}.${name} is not an fk`);
  return field;
}
