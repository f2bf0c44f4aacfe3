import { createHash, randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { now } from '../db/clock.js';
import { BadRequestError } from '../errors.js';
import type { ModelInfo } from '../rest/schema.js';
import { sqlBoolean } from '../db/sql.js';
import { timeBoundFilter } from './core.js';
import type { DomainEntry, RunContext, RunFunction, WriteItemContext } from './types.js';

/**
 * Data sources of NetBox's `local` type: a folder on the server, read into data files on request (sync/) as a
 * job whose record is served at core/jobs/ (NetBox's SyncDataSourceJob and DataSource.sync()). A source's path
 * is resolved inside DATA_SOURCES_ROOT and can never leave it (`..` stops at the root, symbolic links are not
 * followed); messages name no server path.
 */

type Row = Record<string, unknown>;

/** Files larger than this are left out of a sync (and logged in the job). */
export const MAX_FILE_SIZE = 10 * 1024 * 1024;
/** At most this many files are read from one source. */
export const MAX_FILES = 10_000;

/** A sync that cannot run (NetBox's SyncError); its message is safe to show. */
export class SyncError extends Error {}

/** NetBox's DataSource.clean() for the one backend served: the type, and a file:// (or scheme-less) URL. */
function validateDataSource(item: WriteItemContext): void {
  const type = item.values.type;
  if (type !== 'local')
    item.errors.add(
      'type',
      `Data sources of type "${String(type)}" are not supported by this service; only "local" sources (a folder on the server) are.`,
    );
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(String(item.values.source_url ?? ''))?.[1];
  if (type === 'local' && scheme !== undefined && scheme.toLowerCase() !== 'file')
    item.errors.add('source_url', 'URLs for local sources must start with file:// (or specify no scheme)');
}

/**
 * The folder of a local source: its URL's path inside `root` (`file:///configs/` and `configs` are both
 * `<root>/configs`; `..` cannot climb above the root).
 */
export function sourceFolder(root: string, sourceUrl: string): string {
  let location = sourceUrl.replace(/^file:\/\//i, '');
  try {
    location = decodeURIComponent(location);
  } catch {
    throw new SyncError('The source URL is not a valid path.');
  }
  if (location.includes('\0')) throw new SyncError('The source URL is not a valid path.');
  return path.join(path.resolve(root), path.posix.normalize(`/${location}`));
}

/** Python's fnmatch.fnmatchcase as a regular expression (`*` also matches `/`, as in fnmatch). */
export function fnmatchPattern(pattern: string): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) {
        out += '\\[';
        continue;
      }
      let body = pattern.slice(i + 1, end).replace(/\\/g, '\\\\');
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      out += `[${body}]`;
      i = end;
    } else out += c.replace(/[.+^${}()|\\/]/g, '\\$&');
  }
  return new RegExp(`^${out}$`, 's');
}

/** NetBox's DataSource._ignore(): hidden files, and files whose path or name matches an ignore rule. */
export function ignoredBy(rules: string): (relative: string) => boolean {
  const patterns = rules
    .split(/\r?\n/)
    .filter((line) => line !== '')
    .map(fnmatchPattern);
  return (relative) => {
    const name = path.posix.basename(relative);
    return name.startsWith('.') || patterns.some((p) => p.test(relative) || p.test(name));
  };
}

/** One file found in a source's folder. */
export interface FoundFile {
  path: string;
  size: number;
  hash: string;
  text: string | null;
}

/**
 * The files of a folder (paths relative to it, `/`-separated), without hidden ones, ignored ones, symbolic
 * links, or files over MAX_FILE_SIZE (those are reported through `skip`).
 */
export async function readFolder(
  root: string,
  folder: string,
  ignore: (relative: string) => boolean,
  skip: (message: string) => void,
): Promise<FoundFile[]> {
  const realRoot = await fs.realpath(path.resolve(root)).catch(() => null);
  const realFolder = await fs.realpath(folder).catch(() => null);
  if (!realRoot || !realFolder) throw new SyncError("The data source's folder does not exist.");
  if (realFolder !== realRoot && !realFolder.startsWith(realRoot + path.sep))
    throw new SyncError("The data source's folder is outside DATA_SOURCES_ROOT.");
  const stat = await fs.stat(realFolder);
  if (!stat.isDirectory()) throw new SyncError("The data source's URL does not name a folder.");
  const found: FoundFile[] = [];
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const walk = async (relative: string): Promise<void> => {
    const entries = await fs.readdir(path.join(realFolder, relative), { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile() && !ignore(child)) {
        if (found.length >= MAX_FILES) throw new SyncError(`The data source has more than ${MAX_FILES} files.`);
        const full = path.join(realFolder, child);
        const { size } = await fs.lstat(full);
        if (size > MAX_FILE_SIZE) {
          skip(`Skipped ${child}: larger than ${MAX_FILE_SIZE} bytes.`);
          continue;
        }
        const bytes = await fs.readFile(full);
        let text: string | null;
        try {
          text = decoder.decode(bytes);
        } catch {
          text = null;
        }
        found.push({ path: child, size: bytes.length, hash: createHash('sha256').update(bytes).digest('hex'), text });
      }
    }
  };
  await walk('');
  return found;
}

/** A job's log entry as NetBox's JobLogEntry serialises it. */
function logEntry(level: 'debug' | 'info' | 'warning' | 'error', message: string): Row {
  return { level, message, timestamp: new Date().toISOString() };
}

/** Field name → value as a row of the model's table. */
function rowFor(model: ModelInfo, values: Row): Row {
  const row: Row = {};
  for (const [name, value] of Object.entries(values)) {
    const column = model.fields.get(name)?.column ?? name;
    row[column] = value !== null && typeof value === 'object' ? JSON.stringify(value) : value;
  }
  return row;
}

/**
 * Reads the folder into the source's data files (new ones created, changed ones updated, missing ones deleted;
 * NetBox's DataSource.sync()); the ids of the files whose content changed.
 */
async function syncFiles(ctx: RunContext, source: Row & { id: number }, log: (entry: Row) => void): Promise<number[]> {
  const files = ctx.schema.model('core.datafile');
  const folder = sourceFolder(ctx.settings.DATA_SOURCES_ROOT, String(source.source_url ?? ''));
  const found = await readFolder(
    ctx.settings.DATA_SOURCES_ROOT,
    folder,
    ignoredBy(String(source.ignore_rules ?? '')),
    (message) => log(logEntry('warning', message)),
  );
  const sourceColumn = files.fields.get('source')!.column!;
  const known = new Map<string, { id: number; hash: string }>();
  for (const row of (await ctx.q(files.table).where(sourceColumn, source.id).select('id', 'path', 'hash')) as Row[])
    known.set(String(row.path), { id: Number(row.id), hash: String(row.hash) });
  const timestamp = now();
  const changed: number[] = [];
  const created: Row[] = [];
  for (const file of found) {
    const existing = known.get(file.path);
    known.delete(file.path);
    if (!existing) {
      created.push(
        rowFor(files, {
          source: source.id,
          path: file.path,
          created: timestamp,
          last_updated: timestamp,
          size: file.size,
          hash: file.hash,
          data: file.text,
        }),
      );
    } else if (existing.hash !== file.hash) {
      await ctx
        .q(files.table)
        .where('id', existing.id)
        .update(rowFor(files, { last_updated: timestamp, size: file.size, hash: file.hash, data: file.text }));
      changed.push(existing.id);
    }
  }
  const deleted = [...known.values()].map((file) => file.id);
  for (let i = 0; i < deleted.length; i += 500)
    await ctx
      .q(files.table)
      .whereIn('id', deleted.slice(i, i + 500))
      .delete();
  for (let i = 0; i < created.length; i += 100) await ctx.q(files.table).insert(created.slice(i, i + 100));
  log(
    logEntry('info', `Created ${created.length}, updated ${changed.length} and deleted ${deleted.length} data files.`),
  );
  return changed;
}

/**
 * NetBox's auto-sync (AutoSyncRecord, on post_sync): objects with auto_sync_enabled whose data file changed take
 * its content again, through the write path (change-logged).
 */
async function autoSync(ctx: RunContext, changed: readonly number[]): Promise<number> {
  let count = 0;
  if (changed.length === 0) return count;
  // The models that take values from data files (NetBox's SyncedDataMixin: the core.synced_data trait).
  const synced = [...ctx.schema.models.values()].filter(
    (model) =>
      model.fields.get('data_file')?.kind === 'fk' && model.fields.get('auto_sync_enabled')?.kind === 'boolean',
  );
  for (const model of synced) {
    const ids = (
      (await ctx
        .q(model.table)
        .whereIn(model.fields.get('data_file')!.column!, [...changed])
        .where(model.fields.get('auto_sync_enabled')!.column!, sqlBoolean(ctx.dialect, true))
        .select('id')) as Row[]
    ).map((row) => Number(row.id));
    if (ids.length)
      await ctx.write.update(
        model,
        ids.map((id) => ({ id, input: {} })),
      );
    count += ids.length;
  }
  return count;
}

/**
 * A data source's sync/: a job (core/jobs/, NetBox's SyncDataSourceJob: `Synchronization`) records the run; the
 * source goes through syncing to completed (last_synced set) or failed, and the job to completed or errored
 * with the reason. The job runs within the request, so the answer is the source as it ended.
 */
const syncDataSource: RunFunction = async (ctx, parent) => {
  const sources = ctx.model;
  if (parent.values.status === 'syncing')
    throw new BadRequestError('Cannot initiate sync; syncing already in progress.');
  if (parent.values.type !== 'local')
    throw new BadRequestError(
      `Data sources of type "${String(parent.values.type)}" cannot be synchronised by this service.`,
    );
  const jobs = ctx.schema.model('core.job');
  const started = now();
  const entries: Row[] = [logEntry('info', `Syncing data source ${String(parent.values.name)}`)];
  const [inserted] = (await ctx
    .q(jobs.table)
    .insert(
      rowFor(jobs, {
        object_type: sources.label,
        object_id: parent.id,
        name: 'Synchronization',
        created: started,
        started,
        user: ctx.user?.id ?? null,
        status: 'running',
        error: '',
        job_id: randomUUID(),
        queue_name: 'default',
        notifications: 'always',
        log_entries: [],
      }),
    )
    .returning('id')) as (Row | number)[];
  const jobId = typeof inserted === 'object' ? Number(inserted.id) : Number(inserted);
  await ctx
    .q(sources.table)
    .where('id', parent.id)
    .update(rowFor(sources, { status: 'syncing' }));
  let status: 'completed' | 'errored' = 'completed';
  let error = '';
  try {
    const changed = await syncFiles(ctx, { ...parent.values, id: parent.id }, (entry) => entries.push(entry));
    const synced = await autoSync(ctx, changed);
    if (synced) entries.push(logEntry('info', `Synchronised ${synced} objects from their data files.`));
    entries.push(logEntry('info', 'Syncing completed successfully'));
    await ctx
      .q(sources.table)
      .where('id', parent.id)
      .update(rowFor(sources, { status: 'completed', last_synced: now() }));
  } catch (caught) {
    if (!(caught instanceof SyncError)) throw caught;
    status = 'errored';
    error = caught.message;
    entries.push(logEntry('error', `Error syncing data source: ${caught.message}`));
    await ctx
      .q(sources.table)
      .where('id', parent.id)
      .update(rowFor(sources, { status: 'failed' }));
  }
  await ctx
    .q(jobs.table)
    .where('id', jobId)
    .update(rowFor(jobs, { status, error, completed: now(), log_entries: entries }));
  return { object: true };
};

export const dataSourceFunctions = {
  'core.validateDataSource': { kind: 'validator', fn: validateDataSource, batch: true },
  'core.syncDataSource': { kind: 'run', fn: syncDataSource },
  'core.scheduledAfter': { kind: 'filter', fn: timeBoundFilter('scheduled', '>=') },
  'core.scheduledBefore': { kind: 'filter', fn: timeBoundFilter('scheduled', '<=') },
  'core.startedAfter': { kind: 'filter', fn: timeBoundFilter('started', '>=') },
  'core.startedBefore': { kind: 'filter', fn: timeBoundFilter('started', '<=') },
  'core.completedAfter': { kind: 'filter', fn: timeBoundFilter('completed', '>=') },
  'core.completedBefore': { kind: 'filter', fn: timeBoundFilter('completed', '<=') },
} satisfies Record<string, DomainEntry>;
