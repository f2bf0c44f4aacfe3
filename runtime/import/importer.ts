/**
 * `svc import-netbox`: copies a NetBox source into the service's database in one transaction (all or none).
 * Objects go through the service's own write path — validation, declared rules, values computed on save, trees,
 * tags, custom fields — with their NetBox ids and timestamps kept; a row that breaks a rule is left out and
 * reported. Each imported object gets one change record carrying the import's message; no event rule runs.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { removeStoredFile } from '../rest/images.js';
import type { AppContext } from '../http/app-context.js';
import { ValidationError, ApiError } from '../errors.js';
import { changeLogger } from '../rest/changelog.js';
import { RelatedResolver } from '../rest/related.js';
import type { ModelInfo } from '../rest/schema.js';
import { createObjects, updateObjects } from '../rest/write.js';
import type { WriteContext } from '../rest/write-types.js';
import { describeConstraintViolation, isConnectionError, translateDatabaseError } from '../db/errors.js';
import { chunks } from '../db/sql.js';
import { inheritTableLocks, lockTablesExclusively } from '../db/transaction.js';
import { NETBOX_IMPORT } from '../domain/netbox-import.js';
import { ImportError } from './import-error.js';
import type { NetboxSource } from './netbox-database.js';
import type { NetboxApiSource } from './netbox-api.js';
import { isApiSource, NOT_OVER_THE_API, planImport, type ChildKey, type FieldSource, type ModelPlan } from './plan.js';
import { emptyModelReport, type ImportReport, type ModelReport } from './report.js';
import { toInput } from './values.js';

type Row = Record<string, unknown>;

export interface ImportOptions {
  /** Update objects whose id exists in the target instead of refusing a target that holds objects. */
  merge: boolean;
  /** Roll everything back at the end: the report says what would have happened. */
  dryRun: boolean;
  /** The change records' message (`changelog_message`). */
  message: string;
  /** Where the source is, for the report (no secrets). */
  sourceName: string;
  /** Rows per write (default 500). */
  batchSize?: number;
  progress?: (model: string, done: number, total: number) => void;
  /** NetBox's media folder: image files are copied from it to MEDIA_ROOT (same relative paths). */
  media?: string;
}

class DryRunRollback extends Error {}

/** Imports every model that NetBox's database holds and the registry serves; returns the report. */
export async function importNetbox(
  app: AppContext,
  source: NetboxSource,
  options: ImportOptions,
): Promise<ImportReport> {
  const started = Date.now();
  const plan = planImport(app.schema, source);
  const report: ImportReport = {
    source: options.sourceName,
    sourceKind: isApiSource(source) ? 'api' : 'database',
    netboxVersion: source.version,
    target: app.db.dialect,
    dryRun: options.dryRun,
    merge: options.merge,
    models: [],
    withoutHome: [],
    rowsWithHome: 0,
    rowsWithoutHome: 0,
    tokens: { unchanged: [], reissue: [] },
    notes: isApiSource(source)
      ? [
          'Read over the REST API: users come without a usable password (set one for each, or sign in another way), and every API token must be issued again (the API never shows a secret).',
        ]
      : [],
    seconds: 0,
  };
  if (!options.merge) await refuseNonEmptyTarget(app, plan.models);
  // The tables the report counts (NetBox's own bookkeeping left out), at once where the source can.
  const reported = [...source.tables.keys()].filter((t) => !NETBOX_IMPORT.internalTables.some((p) => p.test(t)));
  const counted = (await source.counts?.(reported)) ?? new Map<string, number>();
  const count = async (table: string): Promise<number> => counted.get(table) ?? (await source.count(table));
  let copied: string[] = [];
  try {
    await app.db.knex.transaction(async (trx) => {
      // Other writers wait until the import ends, and its rules take no advisory lock per key.
      const tables = plan.models.filter((p) => p.table || p.moved?.length).map((p) => p.model.table);
      await lockTablesExclusively(trx, app.db.dialect, tables);
      const ctx = writeContext(app, trx);
      copied = ctx.files.written;
      const deferred: { plan: ModelPlan; id: number; values: Row }[] = [];
      for (const modelPlan of plan.models) {
        if (!modelPlan.table) {
          if (modelPlan.moved?.length)
            await importMoved(app, ctx, source, modelPlan, plan.models, report, deferred, options);
          continue;
        }
        const modelReport = emptyModelReport(modelPlan);
        report.models.push(modelReport);
        await importModel(app, ctx, source, count, modelPlan, modelReport, deferred, options);
        if (modelPlan.model === app.customFields.model) app.customFields.invalidate();
      }
      await writeDeferred(ctx, deferred, report);
      for (const after of NETBOX_IMPORT.afterImport) await after(trx, app.schema, app.db.dialect);
      // Before the change records: they may go into a table whose NetBox rows were just imported with their ids.
      if (app.db.dialect === 'postgres') await continueSequences(trx, report.models, app);
      const logger = changeLogger({
        schema: app.schema,
        dialect: app.db.dialect,
        domain: app.domain,
        appNames: new Map(app.registry.apps.map((a) => [a.name, a.verboseName])),
        skipEmptyChanges: true,
      });
      const request = {
        requestId: crypto.randomUUID(),
        method: 'IMPORT',
        path: 'import-netbox',
        principal: { user: null, token: null },
      };
      // In slices, once every reference is written: records show the final objects, and memory stays bounded.
      for (const slice of chunks(ctx.changes, 500)) await logger(trx, slice, request);
      report.tokens = isApiSource(source) ? await apiTokenReport(app, source) : await tokenReport(app, trx, report);
      if (options.dryRun) throw new DryRunRollback();
    });
  } catch (error) {
    // Nothing was stored: neither are the files (a dry run copies none to keep).
    for (const file of copied) removeStoredFile(app.settings.MEDIA_ROOT, file);
    if (!(error instanceof DryRunRollback)) throw error;
  } finally {
    app.customFields.invalidate();
  }
  await listTablesWithoutHome(source, count, plan.consumed, report);
  report.seconds = Math.round((Date.now() - started) / 100) / 10;
  return report;
}

function writeContext(app: AppContext, trx: Knex.Transaction): WriteContext {
  const ctx: WriteContext = {
    q: trx,
    schema: app.schema,
    dialect: app.db.dialect,
    settings: app.settings,
    domain: app.domain,
    user: null,
    grantOf: () => undefined,
    resolver: new RelatedResolver(trx, app.schema, app.db.dialect),
    customFields: (m, input, existing, errors, id) =>
      app.customFields.validate(ctx.q, m, input, existing, errors, id, undefined),
    changes: [],
    files: { written: [], obsolete: [] },
    importing: true,
  };
  return ctx;
}

/** A target that already holds objects of the imported models is refused (unless merging). */
async function refuseNonEmptyTarget(app: AppContext, plans: readonly ModelPlan[]): Promise<void> {
  const holding: string[] = [];
  for (const plan of plans) {
    if (!plan.table) continue;
    const row = (await app.db.knex(plan.model.table).first('id')) as Row | undefined;
    if (row) holding.push(plan.model.label);
  }
  if (holding.length > 0) {
    throw new ImportError(
      `The target database already holds objects (${holding.slice(0, 5).join(', ')}${holding.length > 5 ? ', …' : ''}): import into an empty database, or give --merge to update objects with the same id and add the others.`,
    );
  }
}

async function importModel(
  app: AppContext,
  ctx: WriteContext,
  source: NetboxSource,
  count: (table: string) => Promise<number>,
  plan: ModelPlan,
  report: ModelReport,
  deferred: { plan: ModelPlan; id: number; values: Row }[],
  options: ImportOptions,
): Promise<void> {
  const table = plan.table!;
  const total = await count(table);
  const size = options.batchSize ?? 500;
  const typeId = contentTypeId(source, plan.model.label);
  for await (const rows of pagesOf(source, plan, size)) {
    report.read += rows.length;
    const bodies = await bodiesOf(source, plan, rows, typeId, options.message);
    if (plan.model === app.schema.withRole('change_record')) nameChangedTypes(app, bodies);
    for (const [i, body] of bodies.entries()) {
      const later = laterValues(plan, rows[i]!);
      if (later) deferred.push({ plan, id: body.id as number, values: later });
    }
    const skippedBefore = report.skipped.length;
    await writeBodies(app, ctx, plan.model, bodies, report, options.merge);
    const skipped = new Set(report.skipped.slice(skippedBefore).map((s) => s.id));
    await copyImages(
      app,
      source,
      plan,
      bodies.filter((b) => !skipped.has(b.id as number)),
      report,
      options.media,
      ctx.files.written,
    );
    options.progress?.(plan.model.label, report.read, total);
  }
}

/**
 * A model the source's release kept in columns of other models (`plan.moved`): each non-null value becomes an
 * object (new ids after the largest there is), assigned to the row it came from, whose link FK is written
 * with the deferred references once every object exists.
 */
async function importMoved(
  app: AppContext,
  ctx: WriteContext,
  source: NetboxSource,
  plan: ModelPlan,
  plans: readonly ModelPlan[],
  report: ImportReport,
  deferred: { plan: ModelPlan; id: number; values: Row }[],
  options: ImportOptions,
): Promise<void> {
  const model = plan.model;
  const fieldOf = (target: ModelInfo, column: string): string =>
    target.spec.fields.find((f) => f.column === column)!.name;
  const last = (await ctx.q(model.table).max({ max: 'id' }).first()) as Row | undefined;
  let next = Number(last?.max ?? 0) + 1;
  const table = plan.moved!.map((m) => `${m.table}.${m.column}`).join(', ');
  const modelReport: ModelReport = { ...emptyModelReport(plan), table };
  report.models.push(modelReport);
  for (const move of plan.moved!) {
    const linked = plans.find((p) => p.model.label === move.model)!;
    const size = options.batchSize ?? 500;
    for (let after = 0; ;) {
      const rows = await source.page(move.table, after, size);
      if (rows.length === 0) break;
      after = Number(rows.at(-1)!.id);
      const bodies: Row[] = [];
      for (const row of rows.filter((r) => r[move.column] !== null && r[move.column] !== undefined)) {
        const id = next++;
        bodies.push({
          id,
          changelog_message: options.message,
          [fieldOf(model, move.value)]: row[move.column],
          [fieldOf(model, move.typeColumn)]: move.model,
          [fieldOf(model, move.idColumn)]: Number(row.id),
        });
        deferred.push({ plan: linked, id: Number(row.id), values: { [fieldOf(linked.model, move.link)]: id } });
      }
      modelReport.read += bodies.length;
      await writeBodies(app, ctx, model, bodies, modelReport, options.merge);
    }
  }
}

/**
 * Copies the image files of imported objects into MEDIA_ROOT (same relative path): from NetBox's media folder
 * (`--media`), or downloaded from the REST source. Without a media folder, or when a file is missing there, the
 * object keeps the path and the report says so.
 */
async function copyImages(
  app: AppContext,
  source: NetboxSource,
  plan: ModelPlan,
  bodies: readonly Row[],
  report: ModelReport,
  media: string | undefined,
  written: string[],
): Promise<void> {
  const root = path.resolve(app.settings.MEDIA_ROOT);
  for (const field of plan.fields) {
    if (field.field.kind !== 'image') continue;
    for (const body of bodies) {
      const file = body[field.field.name];
      if (typeof file !== 'string' || file === '') continue;
      const to = path.resolve(root, file);
      if (!to.startsWith(root + path.sep)) continue;
      const copied = await copyFile(source, media, file, to);
      if (copied) written.push(file);
      report.files.push({ id: body.id as number, file, copied: copied !== false });
    }
  }
}

/** Copies one file; true when written, null when the target already has it, false when the source lacks it. */
async function copyFile(
  source: NetboxSource,
  media: string | undefined,
  file: string,
  to: string,
): Promise<boolean | null> {
  if (isApiSource(source)) {
    // A merge into a target that has the file already downloads nothing.
    if (fs.existsSync(to)) return null;
    const content = await source.download(file);
    if (!content) return false;
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.writeFileSync(to, content);
    return true;
  }
  const from = media ? path.resolve(media, file) : null;
  if (!from || !fs.existsSync(from)) return false;
  if (fs.existsSync(to)) return null;
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
  return true;
}

/**
 * NetBox before 4.4 kept no `object_type_name` on change records, and its API does not show it: it is named as
 * the service names its own (`<app> | <model>`), or by its label for a model without a home here.
 */
function nameChangedTypes(app: AppContext, bodies: Row[]): void {
  const apps = new Map(app.registry.apps.map((a) => [a.name, a.verboseName]));
  for (const body of bodies) {
    // NetBox 4.4 and later keep it; its API does not show it.
    if (typeof body.object_type_name === 'string') continue;
    const label = String(body.changed_object_type ?? '');
    const model = app.schema.models.get(label);
    body.object_type_name = model ? `${apps.get(model.spec.app) ?? model.spec.app} | ${model.spec.verboseName}` : label;
  }
}

/** Rows in id order; a tree's rows parents first (depth by depth, each in id order). */
async function* pagesOf(source: NetboxSource, plan: ModelPlan, size: number): AsyncGenerator<Row[]> {
  const table = plan.table!;
  const parentColumn = plan.fields.find((f) => f.field.name === plan.parent && f.kind === 'column');
  if (!parentColumn || parentColumn.kind !== 'column') {
    for (let after = 0; ;) {
      const rows = await source.page(table, after, size);
      if (rows.length === 0) return;
      yield rows;
      after = Number(rows.at(-1)!.id);
    }
  }
  const parents = new Map(await source.pairs(table, 'id', parentColumn.column));
  const depth = new Map<number, number>();
  const depthOf = (id: number, seen = 0): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    const parent = parents.get(id);
    const value = parent === null || parent === undefined || seen > parents.size ? 0 : depthOf(parent, seen + 1) + 1;
    depth.set(id, value);
    return value;
  };
  const levels: number[][] = [];
  for (const id of parents.keys()) (levels[depthOf(id)] ??= []).push(id);
  for (const ids of levels) {
    if (!ids) continue;
    for (let start = 0; start < ids.length; start += size) {
      yield await source.page(table, 0, size, ids.slice(start, start + size));
    }
  }
}

/** The API bodies of a page of NetBox rows: fields, many-to-many lists, tags and custom fields. */
async function bodiesOf(
  source: NetboxSource,
  plan: ModelPlan,
  rows: readonly Row[],
  typeId: number | undefined,
  message: string,
): Promise<Row[]> {
  if (isApiSource(source)) return apiBodiesOf(plan, rows, message);
  const ids = rows.map((r) => Number(r.id));
  const lists = new Map<string, Map<number, unknown[]>>();
  for (const field of plan.fields) {
    if (field.kind !== 'join' && field.kind !== 'joined') continue;
    const byId = new Map<number, unknown[]>();
    const key = field.kind === 'join' ? field.from : field.key;
    for (const row of await source.rowsWhere(field.table, key, ids)) {
      const value =
        field.kind === 'joined'
          ? row[field.column]
          : field.labels
            ? source.contentTypes.get(Number(row[field.to]))
            : Number(row[field.to]);
      const list = byId.get(Number(row[key])) ?? [];
      list.push(value);
      byId.set(Number(row[key]), list);
    }
    lists.set(field.field.name, byId);
  }
  for (const field of plan.fields) {
    if (field.kind !== 'children') continue;
    const byId = new Map<number, unknown[]>();
    const children = await source.rowsWhere(field.table, field.parent, ids);
    children.sort((a, b) => Number(a.id) - Number(b.id));
    for (const row of children) {
      if (field.fixed.some(([column, value]) => row[column] !== value)) continue;
      const item = childItem(source, field.keys, row);
      const owner = Number(row[field.parent]);
      byId.set(owner, [...(byId.get(owner) ?? []), item]);
    }
    lists.set(field.field.name, byId);
  }
  for (const field of plan.fields) {
    if (field.kind !== 'lookup') continue;
    const keys = [...new Set(rows.map((r) => r[field.column]).filter((v) => v !== null && v !== undefined))];
    const byId = new Map<number, unknown[]>();
    for (const row of await source.rowsWhere(field.table, 'id', keys.map(Number)))
      byId.set(Number(row.id), [row[field.value]]);
    lists.set(field.field.name, new Map(rows.map((r) => [Number(r.id), byId.get(Number(r[field.column])) ?? [null]])));
  }
  const tags = new Map<number, number[]>();
  if (plan.tags && typeId !== undefined) {
    const { table, type, object, tag } = NETBOX_IMPORT.taggedItems;
    for (const row of await source.rowsWhere(table, object, ids)) {
      if (Number(row[type]) !== typeId) continue;
      const id = Number(row[object]);
      tags.set(id, [...(tags.get(id) ?? []), Number(row[tag])]);
    }
  }
  return rows.map((row) => {
    const id = Number(row.id);
    const body: Row = { id, changelog_message: message };
    for (const field of plan.fields)
      body[field.field.name] = valueOf(source, field, row, lists.get(field.field.name), id);
    if (plan.timestamps) Object.assign(body, { created: row.created, last_updated: row.last_updated });
    if (plan.customFields) body.custom_fields = row.custom_field_data ?? {};
    if (plan.tags) body.tags = tags.get(id) ?? [];
    return body;
  });
}

/**
 * The bodies of a page of a REST API source, whose rows are already API input: the planned fields, timestamps,
 * tags and custom fields. Users come without a usable password (the API never shows one): Django's unusable
 * form, which no password matches.
 */
function apiBodiesOf(plan: ModelPlan, rows: readonly Row[], message: string): Row[] {
  const users = plan.model.spec.roles.includes('user');
  return rows.map((row) => {
    const id = Number(row.id);
    const body: Row = { id, changelog_message: message };
    for (const field of plan.fields) {
      body[field.field.name] = field.kind === 'column' ? toInput(field.field, row[field.column]) : null;
    }
    if (plan.timestamps) Object.assign(body, { created: row.created, last_updated: row.last_updated });
    if (plan.customFields && row.custom_fields) body.custom_fields = row.custom_fields;
    if (plan.tags && Array.isArray(row.tags)) body.tags = row.tags;
    // Django's unusable form (`!` and random text), which the password rules accept and no sign-in matches.
    if (users) body.password = `!Unusable0-${randomBytes(20).toString('hex')}`;
    return body;
  });
}

function valueOf(
  source: NetboxSource,
  field: FieldSource,
  row: Row,
  list: Map<number, unknown[]> | undefined,
  id: number,
): unknown {
  switch (field.kind) {
    case 'deferred':
      return null;
    case 'constant':
      return field.value;
    case 'content_type': {
      const value = row[field.column];
      return value === null || value === undefined
        ? null
        : (source.contentTypes.get(Number(value)) ?? `#${String(value)}`);
    }
    case 'join':
    case 'children':
      return list?.get(id) ?? [];
    case 'item':
      return field.keys.some((k) => row[k.column] !== null && row[k.column] !== undefined)
        ? [{ ...field.constants, ...childItem(source, field.keys, row) }]
        : [];
    case 'joined':
      return list?.get(id)?.[0] ?? undefined;
    case 'lookup':
      return list?.get(id)?.[0] ?? null;
    case 'column':
      return toInput(field.field, row[field.column], field.transform);
    case 'first_of': {
      const set = field.columns.find(([column]) => row[column] !== null && row[column] !== undefined);
      if (!set) return null;
      return field.part === 'type' ? set[1] : Number(row[set[0]]);
    }
  }
}

/** A child list's item from a NetBox row: each key's column, a content type as its label, an id as a number. */
function childItem(source: NetboxSource, keys: readonly ChildKey[], row: Row): Row {
  const item: Row = {};
  for (const key of keys) {
    const value = row[key.column];
    item[key.key] =
      value === null || value === undefined
        ? null
        : key.as === 'label'
          ? (source.contentTypes.get(Number(value)) ?? `#${String(value)}`)
          : key.as === 'id'
            ? Number(value)
            : value;
  }
  return item;
}

/** Values of deferred references, written once every object exists. */
function laterValues(plan: ModelPlan, row: Row): Row | null {
  let values: Row | null = null;
  for (const field of plan.fields) {
    if (field.kind !== 'deferred') continue;
    const value = row[field.column];
    if (value === null || value === undefined) continue;
    (values ??= {})[field.field.name] = Number(value);
  }
  return values;
}

/**
 * Writes a page of bodies through the write path in a savepoint. Rows the service refuses are left out and
 * reported, and the others written again; in a merge, objects whose id exists are updated instead.
 */
async function writeBodies(
  app: AppContext,
  ctx: WriteContext,
  model: ModelInfo,
  bodies: Row[],
  report: ModelReport,
  merge: boolean,
): Promise<void> {
  let pending = bodies;
  if (merge && bodies.length) {
    const existing = new Set(
      (
        (await ctx
          .q(model.table)
          .whereIn(
            'id',
            bodies.map((b) => b.id as number),
          )
          .select('id')) as Row[]
      ).map((r) => Number(r.id)),
    );
    const updates = bodies.filter((b) => existing.has(b.id as number));
    pending = bodies.filter((b) => !existing.has(b.id as number));
    await updateBodies(app, ctx, model, updates, report);
  }
  while (pending.length > 0) {
    const error = await attempt(app, ctx, (sub) => createObjects(sub, model, pending, true));
    if (!error) {
      report.imported += pending.length;
      return;
    }
    if (error instanceof ValidationError && Array.isArray(error.body) && error.body.length === pending.length) {
      const failures = error.body as unknown[];
      const failed = new Set<number>();
      failures.forEach((errors, i) => {
        if (errors && typeof errors === 'object' && Object.keys(errors).length > 0) failed.add(i);
      });
      if (failed.size > 0) {
        for (const i of failed) report.skipped.push({ id: pending[i]!.id as number, reason: describe(error, i) });
        pending = pending.filter((_, i) => !failed.has(i));
        continue;
      }
    }
    if (pending.length === 1) {
      report.skipped.push({ id: pending[0]!.id as number, reason: describe(error, 0) });
      return;
    }
    // Find the row at fault one at a time.
    for (const body of pending) await writeBodies(app, ctx, model, [body], report, false);
    return;
  }
}

/** Merge: updates objects whose id exists, the page at once; when that is refused, one at a time to find the rows at fault. */
async function updateBodies(
  app: AppContext,
  ctx: WriteContext,
  model: ModelInfo,
  bodies: readonly Row[],
  report: ModelReport,
): Promise<void> {
  const updatesOf = (some: readonly Row[]) => some.map((body) => ({ id: body.id as number, input: body }));
  if (bodies.length > 1 && !(await attempt(app, ctx, (sub) => updateObjects(sub, model, updatesOf(bodies), true)))) {
    report.updated += bodies.length;
    return;
  }
  for (const body of bodies) {
    const error = await attempt(app, ctx, (sub) => updateObjects(sub, model, updatesOf([body]), true));
    if (error) report.skipped.push({ id: body.id as number, reason: describe(error, 0) });
    else report.updated += 1;
  }
}

/**
 * Runs a write in a savepoint; returns the error that rolled it back (an API or database error), or null.
 * As the API's writes do, unique values are first left to the database's unique indexes (no query per object
 * asking whether its values are taken); a refusal, or any invalid object, runs the write again with the checks,
 * for the error body that names each object at fault.
 */
async function attempt(
  app: AppContext,
  ctx: WriteContext,
  write: (sub: WriteContext) => Promise<unknown>,
  optimistic = true,
): Promise<Error | null> {
  const changes: WriteContext['changes'] = [];
  try {
    await ctx.q.transaction(async (sp) => {
      inheritTableLocks(ctx.q, sp);
      const sub: WriteContext = {
        ...ctx,
        q: sp,
        resolver: new RelatedResolver(sp, app.schema, app.db.dialect),
        changes,
        optimisticUniques: optimistic,
      };
      await write(sub);
    });
  } catch (error) {
    // As a request's write: the optimistic attempt decides nothing by failing (a missing related object included).
    if (optimistic && !isConnectionError(error)) {
      return attempt(app, ctx, write, false);
    }
    if (error instanceof ApiError) return error;
    const translated = translateDatabaseError(error, app.schema);
    if (translated) return translated;
    // A constraint the database enforces, described without the statement or the driver's words.
    const refusal = describeConstraintViolation(error);
    if (refusal) return new Error(refusal);
    throw error;
  }
  ctx.changes.push(...changes);
  return null;
}

/** One line: `field: message` for each field at fault. */
function describe(error: Error, index: number): string {
  if (error instanceof ApiError) {
    const body = Array.isArray(error.body) ? (error.body as unknown[])[index] : error.body;
    return flatten(body);
  }
  return error.message.split('\n')[0]!;
}

function flatten(body: unknown, prefix = ''): string {
  if (Array.isArray(body)) return body.map((b) => flatten(b, prefix)).join('; ');
  if (body && typeof body === 'object') {
    return Object.entries(body)
      .map(([key, value]) =>
        flatten(value, key === 'non_field_errors' || key === '__all__' ? prefix : `${prefix}${key}: `),
      )
      .join('; ');
  }
  return `${prefix}${String(body)}`;
}

/** Deferred references, once every object exists: a reference to an object that was not imported is dropped. */
async function writeDeferred(
  ctx: WriteContext,
  deferred: readonly { plan: ModelPlan; id: number; values: Row }[],
  report: ImportReport,
): Promise<void> {
  // Which referenced objects exist, one query per target model and 500 ids.
  const wanted = new Map<string, Set<number>>();
  for (const { plan, values } of deferred) {
    for (const [name, value] of Object.entries(values)) {
      const field = plan.model.fields.get(name);
      if (field?.kind !== 'fk') continue;
      let set = wanted.get(field.target);
      if (!set) wanted.set(field.target, (set = new Set()));
      set.add(value as number);
    }
  }
  const existing = new Map<string, Set<number>>();
  for (const [label, ids] of wanted) {
    const found = new Set<number>();
    for (const chunk of chunks([...ids], 500)) {
      const rows = (await ctx.q(ctx.schema.model(label).table).whereIn('id', chunk).select('id')) as Row[];
      for (const row of rows) found.add(Number(row.id));
    }
    existing.set(label, found);
  }
  // Objects that take the same values (the interfaces of one LAG) are updated by one statement.
  const updates = new Map<string, { table: string; changes: Row; ids: number[] }>();
  for (const { plan, id, values } of deferred) {
    const changes: Row = {};
    for (const [name, value] of Object.entries(values)) {
      const field = plan.model.fields.get(name);
      if (field?.kind !== 'fk') continue;
      if (existing.get(field.target)?.has(value as number)) changes[field.column!] = value;
      else {
        report.models
          .find((m) => m.model === plan.model.label)
          ?.dropped.push({ id, reason: `${name}: ${field.target} ${String(value)} was not imported` });
      }
    }
    if (Object.keys(changes).length === 0) continue;
    const key = `${plan.model.table} ${JSON.stringify(changes)}`;
    const update = updates.get(key) ?? { table: plan.model.table, changes, ids: [] };
    update.ids.push(id);
    updates.set(key, update);
  }
  for (const { table, changes, ids } of updates.values()) {
    for (const chunk of chunks(ids, 500)) await ctx.q(table).whereIn('id', chunk).update(changes);
  }
}

/**
 * Which imported tokens work unchanged: v1 tokens (their secret came along; ALLOW_TOKEN_V1 must be on, or they
 * were refused), v2 tokens whose pepper id is in API_TOKEN_PEPPERS (clients then send `svc_<KEY>.<TOKEN>`,
 * provided the pepper is NetBox's); the others, and tokens left out, must be issued again.
 */
async function tokenReport(
  app: AppContext,
  trx: Knex.Transaction,
  report: ImportReport,
): Promise<ImportReport['tokens']> {
  const model = app.schema.withRole('token');
  const imported = model && report.models.find((m) => m.model === model.label);
  const result: ImportReport['tokens'] = { unchanged: [], reissue: [] };
  if (!model || !imported) return result;
  for (const skipped of imported.skipped) result.reissue.push({ id: skipped.id, reason: skipped.reason });
  const column = (name: string): string => model.fields.get(name)?.column ?? name;
  const rows = (await trx(model.table).select('id', column('version'), column('pepper_id'))) as Row[];
  for (const row of rows) {
    const id = Number(row.id);
    const version = Number(row[column('version')]);
    const pepper = row[column('pepper_id')];
    if (version === 1) result.unchanged.push({ id, how: 'v1: Authorization: Token <TOKEN>, as before' });
    else if (pepper !== null && app.settings.API_TOKEN_PEPPERS[String(pepper)] !== undefined)
      result.unchanged.push({ id, how: `v2: Authorization: Bearer svc_<KEY>.<TOKEN> (pepper ${String(pepper)})` });
    else result.reissue.push({ id, reason: `v2: API_TOKEN_PEPPERS has no pepper ${String(pepper)} (NetBox's)` });
  }
  result.reissue.sort((a, b) => a.id - b.id);
  return result;
}

/** Over the REST API no token's secret comes: every token of the source must be issued again. */
async function apiTokenReport(app: AppContext, source: NetboxApiSource): Promise<ImportReport['tokens']> {
  const path = app.schema.withRole('token')?.listPath;
  if (!path || !source.tables.has(path)) return { unchanged: [], reissue: [] };
  const ids = await source.ids(path);
  return { unchanged: [], reissue: ids.map((id) => ({ id, reason: NOT_OVER_THE_API.token! })) };
}

/** PostgreSQL: each imported table's id sequence continues after its largest id. */
async function continueSequences(
  trx: Knex.Transaction,
  models: readonly ModelReport[],
  app: AppContext,
): Promise<void> {
  const tables = [...new Set(models.filter((m) => m.imported > 0).map((m) => app.schema.model(m.model).table))];
  // One statement for every table: a round trip each would cost more than the work.
  for (const chunk of chunks(tables, 100)) {
    const calls = chunk.map(() => `setval(pg_get_serial_sequence(?, 'id'), GREATEST((SELECT max(id) FROM ??), 1))`);
    await trx.raw(
      `SELECT ${calls.join(', ')}`,
      chunk.flatMap((table) => [table, table]),
    );
  }
}

function contentTypeId(source: NetboxSource, label: string): number | undefined {
  for (const [id, type] of source.contentTypes) if (type === label) return id;
  return undefined;
}

/** Source tables with rows that no model reads (NetBox's own bookkeeping left out). */
async function listTablesWithoutHome(
  source: NetboxSource,
  count: (table: string) => Promise<number>,
  consumed: ReadonlySet<string>,
  report: ImportReport,
): Promise<void> {
  for (const table of [...source.tables.keys()].sort()) {
    if (NETBOX_IMPORT.internalTables.some((pattern) => pattern.test(table))) continue;
    const rows = await count(table);
    if (consumed.has(table)) report.rowsWithHome += rows;
    else {
      report.rowsWithoutHome += rows;
      if (rows > 0) report.withoutHome.push({ table, rows });
    }
  }
}
