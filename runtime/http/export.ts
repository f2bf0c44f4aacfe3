import type { Knex } from 'knex';
import type { Response } from 'express';
import type { AppContext } from './app-context.js';
import { principalOf, readContextFor } from './app-context.js';
import { stateOf } from './request-state.js';
import { presentObjects } from './listing.js';
import { sendJson } from './respond.js';
import { whereJsonListHasAny } from '../db/sql.js';
import { NotFoundError } from '../errors.js';
import { compileListTemplate, TemplateRenderError, type ListTemplate } from '../events/template-stream.js';
import { loadObjectsByIds } from '../rest/fetch.js';
import { applyOrdering, selectKeys } from '../rest/params.js';
import type { ModelInfo } from '../rest/schema.js';
import { csvHeader, csvRow } from './export-csv.js';

/**
 * `?export` on a list (NetBox's ExportTemplatesMixin and its list view's export): `export=<name>` renders the
 * export template of that name for the model over the filtered objects, with its MIME type and file name;
 * `export` without a name, or `export=table`, answers the list as CSV. The objects are read in chunks of
 * EXPORT_CHUNK_SIZE by their ids (read once, in the list's order) and written as they are rendered, so that
 * the server's memory stays flat however long the list; a template that is not of the streamed shape (see
 * template-stream.ts) renders once over every object.
 */

const EXPORT_CHUNK_SIZE = 1000;
const DEFAULT_MIME_TYPE = 'text/plain; charset=utf-8';

type Row = Record<string, unknown>;

/** Answers `?export` for a list query (filtered and restricted, not yet ordered). */
export async function sendExport(
  app: AppContext,
  res: Response,
  model: ModelInfo,
  query: Knex.QueryBuilder,
  name: string,
): Promise<void> {
  const state = stateOf(res);
  const ordered = query.clone().clearSelect().select('t0.id');
  applyOrdering(app.schema, model, state.params, ordered);
  if (name === '' || name === 'table') return sendCsv(app, res, model, ordered);
  const template = await findTemplate(app, res, model, name);
  let compiled: ListTemplate;
  try {
    compiled = compileListTemplate(String(template.template_code ?? ''));
  } catch (error) {
    return renderFailed(res, template, error);
  }
  const ids = ((await ordered) as { id: number }[]).map((row) => Number(row.id));
  const headers: Record<string, string> = {
    'Content-Type': String(template.mime_type || DEFAULT_MIME_TYPE),
  };
  if (template.as_attachment) {
    const extension = template.file_extension ? `.${String(template.file_extension)}` : '';
    const base = String(
      template.file_name || `netbox_${model.spec.verboseNamePlural.toLowerCase().replace(/ /g, '_')}`,
    );
    headers['Content-Disposition'] = attachment(`${base}${extension}`);
  }
  const load = (chunk: readonly number[]): Promise<Row[]> => loadComplete(app, res, model, chunk);
  const root = {};
  if (!compiled.streamed) {
    let text: string;
    try {
      text = compiled.whole(root, await load(ids));
    } catch (error) {
      return renderFailed(res, template, error);
    }
    return void sendText(res, headers, [normalize(text)]);
  }
  const parts = async function* (): AsyncGenerator<string> {
    yield normalize(compiled.head(root));
    if (ids.length === 0) yield normalize(compiled.rows(root, [], 0, true));
    for (let offset = 0; offset < ids.length; offset += EXPORT_CHUNK_SIZE) {
      const chunk = await load(ids.slice(offset, offset + EXPORT_CHUNK_SIZE));
      yield normalize(compiled.rows(root, chunk, offset, offset + EXPORT_CHUNK_SIZE >= ids.length));
    }
    yield normalize(compiled.tail(root));
  };
  await streamParts(app.log, res, headers, parts(), (error) => renderFailed(res, template, error));
}

/** The model's export template of that name the user may view (NetBox: 404 otherwise). */
async function findTemplate(app: AppContext, res: Response, model: ModelInfo, name: string): Promise<Row> {
  const templates = app.schema.withRole('export_template');
  const principal = principalOf(res);
  if (!templates || !app.permissions.allows(principal, templates, 'view')) throw new NotFoundError();
  const column = (field: string): string => `t0.${templates.fields.get(field)!.column!}`;
  const query = app.db.knex(`${templates.table} as t0`).where(column('name'), name).orderBy('t0.id').first('t0.*');
  whereJsonListHasAny(query, app.db.dialect, column('object_types'), [model.label]);
  app.permissions.apply(query, templates, app.permissions.require(principal, templates, 'view'), principal);
  const row = (await query) as Row | undefined;
  if (!row) throw new NotFoundError();
  const values: Row = {};
  for (const field of ['template_code', 'mime_type', 'file_name', 'file_extension', 'as_attachment', 'name']) {
    values[field] = row[templates.fields.get(field)!.column!];
  }
  values.as_attachment = values.as_attachment === true || values.as_attachment === 1;
  return values;
}

/**
 * The objects as the list would show them (`fields`, `omit`, `brief` and `exclude=config_context` choose the
 * keys, and so what reading them costs), in the ids' order.
 */
async function loadComplete(app: AppContext, res: Response, model: ModelInfo, ids: readonly number[]): Promise<Row[]> {
  const keys = selectKeys(model, stateOf(res).params);
  return presentObjects(app, model, await loadObjectsByIds(app.db.knex, readContextFor(app, res), model, keys, ids));
}

/** NetBox's list CSV: the list's keys (`fields`, `omit` and `brief` apply) as columns, one row per object. */
async function sendCsv(app: AppContext, res: Response, model: ModelInfo, ordered: Knex.QueryBuilder): Promise<void> {
  const state = stateOf(res);
  const named = new Set(state.params.getAll('fields').flatMap((v) => v.split(',').map((f) => f.trim())));
  const keys = selectKeys(model, state.params).filter(
    (key) => named.has(key) || !['url', 'display_url', 'display'].includes(key),
  );
  const ids = ((await ordered) as { id: number }[]).map((row) => Number(row.id));
  const read = readContextFor(app, res);
  const headers = {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': attachment(`netbox_${model.spec.verboseNamePlural}.csv`),
  };
  const parts = async function* (): AsyncGenerator<string> {
    yield csvHeader(model, keys);
    for (let offset = 0; offset < ids.length; offset += EXPORT_CHUNK_SIZE) {
      const chunk = ids.slice(offset, offset + EXPORT_CHUNK_SIZE);
      const objects = presentObjects(app, model, await loadObjectsByIds(app.db.knex, read, model, keys, chunk));
      yield objects.map((object) => csvRow(keys, object)).join('');
    }
  };
  await streamParts(app.log, res, headers, parts(), (error) => {
    throw error;
  });
}

/** Output kept back before the headers are sent, so that an error in the first rows is still a JSON answer. */
const HELD_BACK = 256 * 1024;

/**
 * Writes parts as they come, waiting for the socket to drain between them. The first parts (the head and at
 * least the first chunk's rows, up to HELD_BACK characters) are produced before the headers are sent, so that
 * an error there is still a JSON answer; a later error cuts the response off (the client sees an incomplete
 * transfer, never a complete-looking file).
 */
async function streamParts(
  log: (message: string) => void,
  res: Response,
  headers: Record<string, string>,
  parts: AsyncGenerator<string>,
  failed: (error: unknown) => void,
): Promise<void> {
  const held: string[] = [];
  let size = 0;
  let done = false;
  try {
    while (held.length < 2 || size < HELD_BACK) {
      const next = await parts.next();
      if (next.done) {
        done = true;
        break;
      }
      held.push(next.value);
      size += next.value.length;
    }
  } catch (error) {
    return failed(error);
  }
  if (done) return sendText(res, headers, held);
  res.status(200);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  try {
    await write(res, held.join(''));
    held.length = 0;
    for await (const part of parts) await write(res, part);
    res.end();
  } catch (error) {
    log(`export cut off: ${error instanceof Error ? error.message : String(error)}`);
    res.destroy();
  }
}

function write(res: Response, text: string): Promise<void> {
  if (text === '' || res.write(text)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = (): void => {
      res.off('close', closed);
      resolve();
    };
    const closed = (): void => {
      res.off('drain', done);
      reject(new Error('the client went away'));
    };
    res.once('drain', done);
    res.once('close', closed);
  });
}

function sendText(res: Response, headers: Record<string, string>, parts: readonly string[]): void {
  res.status(200);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.end(Buffer.from(parts.join('')));
}

/** NetBox replaces CRLF line ends of rendered templates with LF. */
function normalize(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

/** A render error: 500 with NetBox's message, no internals (render errors are Handlebars' own messages). */
function renderFailed(res: Response, template: Row, error: unknown): void {
  if (!(error instanceof TemplateRenderError)) throw error;
  sendJson(res, 500, {
    detail: `There was an error rendering the selected export template (${String(template.name)}): ${error.message}`,
  });
}

/** Django's content_disposition_header: a quoted ASCII file name, or RFC 5987's filename* for others. */
function attachment(filename: string): string {
  if (/^[\x20-\x7e]*$/.test(filename)) return `attachment; filename="${filename.replace(/(["\\])/g, '\\$1')}"`;
  return `attachment; filename*=utf-8''${encodeURIComponent(filename)}`;
}
