import type { Knex } from 'knex';
import type { Request, Response } from 'express';
import type { AppContext } from './app-context.js';
import type { Change, WriteContext, WriteResult } from '../rest/write-types.js';
import { markedRoots, withSiteRoot } from '../rest/marked-roots.js';
import { principalOf, readContextFor } from './app-context.js';
import type { Action } from '../auth/permissions.js';
import type { Restriction } from '../auth/principal.js';
import { isoformatTimestamp } from '../db/clock.js';
import { MethodNotAllowedError, NotFoundError, PreconditionFailedError, ValidationError } from '../errors.js';
import { stateOf } from './request-state.js';
import { sendJson } from './respond.js';
import { checkJsonValue } from './json.js';
import type { ModelHandlers } from '../spec.js';
import { deleteObjects } from '../rest/delete.js';
import { baseQuery, loadObjects, loadObjectsByIds, type ReadContext } from '../rest/fetch.js';
import { applyFilters } from '../rest/filters.js';
import { describeEndpoint } from '../rest/options.js';
import { applyOrdering, parsePagination, selectKeys } from '../rest/params.js';
import type { ModelInfo } from '../rest/schema.js';
import { createObjects, updateObjects } from '../rest/write.js';
import { pythonType } from '../rest/parse-field.js';
import { lockForUpdate } from '../db/transaction.js';
import { createActionHandlers } from './actions.js';
import { assertWithin, runRequestWrite } from './writes.js';
import { pageLinks, presentObjects } from './listing.js';
import { sendExport } from './export.js';
import { renderCustomLinks } from './custom-links.js';
import { restrictToShared, type Asker } from '../rest/shared-objects.js';

type Row = Record<string, unknown>;

/** The requesting user as the shared-object rules see them. */
function askerOf(res: Response): Asker {
  const user = principalOf(res).user;
  return user ? { id: user.id, isSuperuser: user.isSuperuser } : null;
}

/** The handlers of one model's endpoint: the generic REST algorithms, parameterised by the model. */
export function createModelHandlers(app: AppContext, model: ModelInfo): ModelHandlers {
  const { schema, db, settings } = app;

  const present = (objects: Row[], transient?: Map<number, Record<string, unknown>>): Row[] =>
    presentObjects(app, model, objects, transient);

  const restrictionFor = (res: Response, action: Action): Restriction =>
    app.permissions.require(principalOf(res), model, action);

  const restrict = (res: Response, query: Knex.QueryBuilder, restriction: Restriction): Knex.QueryBuilder => {
    app.permissions.apply(query, model, restriction, principalOf(res));
    return restrictToShared(query, model, db.dialect, askerOf(res));
  };

  /** The detail's id, or 404 when it is not numeric. */
  const detailId = (req: Request): number => {
    const raw = String(req.params.id ?? '');
    if (!/^\d+$/.test(raw)) throw new NotFoundError();
    const id = Number(raw);
    // Beyond any stored id (and beyond what the databases' integer types hold): simply not there.
    if (!Number.isSafeInteger(id)) throw notFound();
    return id;
  };

  const notFound = (): NotFoundError => new NotFoundError(`No ${model.spec.className} matches the given query.`);

  const write = <T>(req: Request, res: Response, body: (ctx: WriteContext) => Promise<T>): Promise<T> =>
    runRequestWrite(app, req, res, body);

  const ensureWithin = (q: Knex, res: Response, ids: readonly number[], restriction: Restriction): Promise<void> =>
    assertWithin(app, principalOf(res), q, model, ids, restriction);

  const etagOf = async (q: Knex, id: number): Promise<string | null> => {
    if (!model.hasTimestamps) return null;
    const row = (await q(model.table).where('id', id).first('created', 'last_updated')) as Row | undefined;
    const stamp = (row?.last_updated ?? row?.created) as string | null | undefined;
    return stamp ? `W/"${isoformatTimestamp(stamp)}"` : null;
  };

  /** The ETag from the rendered object's timestamps, when it shows them (`fields` may leave them out). */
  const etagOfObject = (object: Row): string | null | undefined => {
    if (!model.hasTimestamps || !('last_updated' in object) || !('created' in object)) return undefined;
    const stamp = (object.last_updated ?? object.created) as string | null;
    return stamp ? `W/"${isoformatTimestamp(stamp)}"` : null;
  };

  const checkIfMatch = async (q: Knex, req: Request, id: number): Promise<void> => {
    const header = req.get('if-match');
    if (!header) return;
    const current = await etagOf(q, id);
    const wanted = header.split(',').map((s) => s.trim());
    if (wanted.includes('*')) return;
    const normalize = (tag: string): string => tag.replace(/^W\//, '');
    if (!current || !wanted.some((tag) => normalize(tag) === normalize(current)))
      throw new PreconditionFailedError(current);
  };

  /**
   * The written objects as the response shows them (`load` reads them with the given context and keys). When
   * an event rule wants them and the response is their complete representation as anyone sees it, they are
   * read once for both: the event hook takes them with relative URLs.
   */
  const renderWritten = async (
    ctx: WriteContext,
    res: Response,
    action: Change['action'],
    load: (read: ReadContext, keys: readonly string[]) => Promise<Row[]>,
    transient?: Map<number, Row>,
    fresh?: ReadContext['fresh'],
  ): Promise<Row[]> => {
    const state = stateOf(res);
    const read = { ...readContextFor(app, res), fresh };
    const keys = selectKeys(model, state.params);
    if (!(await sharedWithEvents(ctx, res, action, keys))) return present(await load(read, keys), transient);
    // A superuser sees every object a representation names: as the events' unrestricted reading does.
    const marked = await load({ ...read, viewable: undefined, render: { ...read.render, ...markedRoots() } }, keys);
    app.events.keep(ctx.changes, model, marked);
    return present(
      marked.map((object) => withSiteRoot(object, state.siteRoot)),
      transient,
    );
  };

  const sharedWithEvents = async (
    ctx: WriteContext,
    res: Response,
    action: Change['action'],
    keys: readonly string[],
  ): Promise<boolean> => {
    if (principalOf(res).user?.isSuperuser !== true || keys.length !== completeKeys.length) return false;
    if (keys.some((key, i) => key !== completeKeys[i])) return false;
    return app.events.wants(ctx.q, model, action, ctx.changes);
  };
  const completeKeys = selectKeys(model, new URLSearchParams());

  const fetchFull = (
    ctx: WriteContext,
    res: Response,
    action: Change['action'],
    ids: readonly number[],
    transient?: Map<number, Row>,
    fresh?: ReadContext['fresh'],
  ): Promise<Row[]> =>
    renderWritten(ctx, res, action, (read, keys) => loadObjectsByIds(ctx.q, read, model, keys, ids), transient, fresh);

  const handlers: ModelHandlers = {
    list: async (_req, res) => {
      const state = stateOf(res);
      const restriction = restrictionFor(res, 'view');
      const q = db.knex;
      const params = state.params;
      const pagination = parsePagination(params, settings);
      const requested = selectKeys(model, params);
      // Cursor links need each page's last id, even when `fields` leaves it out.
      const keys = pagination.mode === 'cursor' && !requested.includes('id') ? ['id', ...requested] : requested;
      const query = restrict(res, baseQuery(q, model), restriction);
      await applyFilters(
        q,
        {
          schema,
          dialect: db.dialect,
          settings,
          domain: app.domain,
          customFields: app.customFields,
          user: askerOf(res),
        },
        model,
        params,
        query,
      );
      const exported = params.get('export');
      if (exported !== null) return sendExport(app, res, model, query, exported);
      let count: number | null = null;
      const rows = query.clone();
      if (pagination.mode === 'offset') {
        const counted = (await query.count({ n: '*' }).first()) as { n: number | string };
        count = Number(counted.n);
        applyOrdering(schema, model, params, rows);
        if (pagination.limit !== null) rows.limit(pagination.limit);
        if (pagination.offset > 0) rows.offset(pagination.offset);
      } else {
        rows.where('t0.id', '>=', pagination.start).orderBy('t0.id', 'asc');
        if (pagination.limit !== null) rows.limit(pagination.limit);
      }
      const results = present(await loadObjects(q, readContextFor(app, res), model, keys, rows));
      const { next, previous } = pageLinks(state, pagination, count, results);
      if (keys !== requested) for (const object of results) delete object.id;
      res.setHeader('Allow', allowHeader(model, 'list'));
      sendJson(res, 200, { count, next, previous, results });
    },

    retrieve: async (req, res) => {
      const restriction = restrictionFor(res, 'view');
      const id = detailId(req);
      const q = db.knex;
      const state = stateOf(res);
      const query = restrict(res, baseQuery(q, model).where('t0.id', id), restriction);
      const [object] = present(
        await loadObjects(q, readContextFor(app, res), model, selectKeys(model, state.params), query),
      );
      if (!object) throw notFound();
      const etag = etagOfObject(object) ?? (await etagOf(q, id));
      res.setHeader('Allow', allowHeader(model, 'detail'));
      if (state.browsable) res.locals.customLinks = await renderCustomLinks(app, res, model, object);
      sendJson(res, 200, object, etag ? { ETag: etag } : {});
    },

    create: async (req, res) => {
      const restriction = restrictionFor(res, 'add');
      const body: unknown = formValues(res, model, req.body);
      const bulk = Array.isArray(body);
      if (!bulk && (typeof body !== 'object' || body === null)) {
        throw new ValidationError({
          non_field_errors: [`Invalid data. Expected a dictionary, but got ${pythonType(body ?? null)}.`],
        });
      }
      if (bulk && body.length === 0) throw new ValidationError({ non_field_errors: ['This list may not be empty.'] });
      const { objects, etag } = await write(req, res, async (ctx) => {
        const result: WriteResult = await createObjects(ctx, model, bulk ? (body as unknown[]) : [body], bulk);
        await ensureWithin(ctx.q, res, result.ids, restriction);
        const fresh = { model, ids: new Set(result.ids), changed: new Set(ctx.changes.map((c) => c.model.label)) };
        const objects = await fetchFull(ctx, res, 'create', result.ids, result.transient, fresh);
        return { objects, etag: bulk ? null : (etagOfObject(objects[0]!) ?? (await etagOf(ctx.q, result.ids[0]!))) };
      });
      if (bulk) return sendJson(res, 201, objects);
      const headers: Record<string, string> = {};
      if (objects[0]?.url) headers.Location = String(objects[0].url);
      if (etag) headers.ETag = etag;
      sendJson(res, 201, objects[0], headers);
    },

    update: async (req, res) => {
      const restriction = restrictionFor(res, 'change');
      const id = detailId(req);
      const body: unknown = formValues(res, model, req.body);
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new ValidationError({
          non_field_errors: [`Invalid data. Expected a dictionary, but got ${pythonType(body ?? null)}.`],
        });
      }
      const { object, etag } = await write(req, res, async (ctx) => {
        // The update reads and locks the row itself: asked first only to apply constraints, sharing or If-Match.
        if (!restriction.all || model.spec.shared || req.get('if-match')) {
          await findForWrite(ctx.q, res, id, restriction);
          await checkIfMatch(ctx.q, req, id);
        }
        const result = await updateObjects(ctx, model, [{ id, input: body }], req.method === 'PATCH');
        if (result.ids.length === 0) throw notFound();
        await ensureWithin(ctx.q, res, result.ids, restriction);
        const [object] = await fetchFull(ctx, res, 'update', [id], result.transient);
        return { object, etag: etagOfObject(object!) ?? (await etagOf(ctx.q, id)) };
      });
      sendJson(res, 200, object, etag ? { ETag: etag } : {});
    },

    bulkUpdate: async (req, res) => {
      const restriction = restrictionFor(res, 'change');
      const items = bulkItems(req.body);
      const objects = await write(req, res, async (ctx) => {
        const visible = await visibleIds(
          ctx.q,
          res,
          items.map((i) => i.id),
          restriction,
        );
        const updates = items.filter((i) => visible.has(i.id));
        const result = await updateObjects(ctx, model, updates, req.method === 'PATCH');
        await ensureWithin(ctx.q, res, result.ids, restriction);
        return renderWritten(
          ctx,
          res,
          'update',
          (read, keys) => {
            const query = baseQuery(ctx.q, model).whereIn('t0.id', result.ids);
            applyOrdering(schema, model, new URLSearchParams(), query);
            return loadObjects(ctx.q, read, model, keys, query);
          },
          result.transient,
        );
      });
      sendJson(res, 200, objects);
    },

    destroy: async (req, res) => {
      const restriction = restrictionFor(res, 'delete');
      const id = detailId(req);
      const message = deleteMessage(req.body);
      await write(req, res, async (ctx) => {
        // The delete reads the row itself: asked first only to apply constraints, sharing or If-Match.
        if (!restriction.all || model.spec.shared || req.get('if-match')) {
          await findForWrite(ctx.q, res, id, restriction);
          await checkIfMatch(ctx.q, req, id);
        }
        if ((await deleteObjects(ctx, model, [id], new Map([[id, message]]))) === 0) throw notFound();
      });
      res.status(204).end();
    },

    bulkDelete: async (req, res) => {
      const restriction = restrictionFor(res, 'delete');
      const items = bulkItems(req.body, true);
      await write(req, res, async (ctx) => {
        const visible = await visibleIds(
          ctx.q,
          res,
          items.map((i) => i.id),
          restriction,
        );
        const messages = new Map(
          items.map((i) => [i.id, typeof i.input.changelog_message === 'string' ? i.input.changelog_message : '']),
        );
        await deleteObjects(ctx, model, [...visible], messages);
      });
      res.status(204).end();
    },

    options: async (req, res) => {
      const detail = req.params.id !== undefined;
      if (detail) detailId(req);
      const principal = principalOf(res);
      const action = detail ? 'change' : 'add';
      const writable = !model.spec.readOnly && app.permissions.allows(principal, model, action);
      res.setHeader('Allow', allowHeader(model, detail ? 'detail' : 'list'));
      const customFields = writable ? await app.customFields.forModel(db.knex, model) : [];
      sendJson(res, 200, describeEndpoint(schema, model, detail, writable, customFields));
    },

    methodNotAllowed: async (req, res) => {
      // As in DRF, authentication and permissions are checked before the method.
      const action = METHOD_ACTIONS[req.method];
      if (action) restrictionFor(res, action);
      throw new MethodNotAllowedError(req.method);
    },

    action: (name) => {
      const found = actions.get(name);
      if (!found) throw new Error(`${model.label} has no action ${name}`);
      return found;
    },
  };
  const actions = new Map(
    model.spec.actions.filter((a) => a.kind !== 'locate').map((a) => [a.name, createActionHandlers(app, model, a)]),
  );

  /** The object for a detail write, locked until the write ends; 404 when missing or outside the user's view. */
  async function findForWrite(q: Knex, res: Response, id: number, restriction: Restriction): Promise<void> {
    const query = restrict(res, baseQuery(q, model).where('t0.id', id).select('t0.id'), restriction);
    if (!(await lockForUpdate(query, db.dialect, 't0').first())) throw notFound();
  }

  async function visibleIds(
    q: Knex,
    res: Response,
    ids: readonly number[],
    restriction: Restriction,
  ): Promise<Set<number>> {
    if (ids.length === 0) return new Set();
    // Locked in id order: two bulk writes over the same objects queue instead of deadlocking.
    const query = baseQuery(q, model)
      .whereIn('t0.id', [...new Set(ids)])
      .orderBy('t0.id')
      .select('t0.id');
    const rows = (await lockForUpdate(restrict(res, query, restriction), db.dialect, 't0')) as Row[];
    return new Set(rows.map((r) => Number(r.id)));
  }

  return handlers;
}

/** The action a method needs (for refusing methods only after authentication and permissions). */
const METHOD_ACTIONS: Record<string, Action> = { POST: 'add', PUT: 'change', PATCH: 'change', DELETE: 'delete' };

const STRUCTURED_KEYS = new Set(['tags', 'add_tags', 'remove_tags', 'custom_fields']);

/**
 * A multipart form's text values as a JSON body would carry them: an empty value of a nullable non-text
 * field is null, and structured values (JSON, lists, tags, custom fields) are JSON text.
 */
function formValues(res: Response, model: ModelInfo, body: unknown): unknown {
  if (res.locals.form !== true || typeof body !== 'object' || body === null) return body;
  const values: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const [key, value] of Object.entries(values)) {
    if (typeof value !== 'string') continue;
    const field = model.fields.get(key);
    const structured = STRUCTURED_KEYS.has(key) || ['json', 'list', 'object_types', 'm2m'].includes(field?.kind ?? '');
    if (value === '' && field?.nullable && field.kind !== 'string') values[key] = null;
    else if (structured) {
      try {
        values[key] = JSON.parse(value) as unknown;
      } catch {
        // Left as text: the field's own validation reports it.
      }
    }
  }
  checkJsonValue(values);
  return values;
}

/** Bulk bodies: a list of objects that each carry an integer `id`. */
function bulkItems(body: unknown, deleting = false): { id: number; input: Record<string, unknown> }[] {
  if (!Array.isArray(body)) {
    throw new ValidationError({
      non_field_errors: [`Expected a list of items but got type "${pythonType(body ?? null)}".`],
    });
  }
  const errors = body.map((item: unknown) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      return { non_field_errors: ['Invalid data. Expected a dictionary.'] };
    const id = (item as Record<string, unknown>).id;
    if (id === undefined || id === null) return { id: ['This field is required.'] };
    if (!Number.isSafeInteger(typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id))
      return { id: ['A valid integer is required.'] };
    if (deleting) {
      const extra = Object.keys(item).filter((k) => k !== 'id' && k !== 'changelog_message');
      if (extra.length)
        return { non_field_errors: [`Unexpected keys: ${extra.join(', ')}. Send only id and changelog_message.`] };
    }
    return {};
  });
  if (errors.some((e) => Object.keys(e).length > 0)) throw new ValidationError(errors);
  return (body as Record<string, unknown>[]).map((input) => ({ id: Number(input.id), input }));
}

/** A single DELETE may carry only `changelog_message`. */
function deleteMessage(body: unknown): string {
  if (body === undefined) return '';
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ValidationError({ non_field_errors: ['A DELETE body may only hold {"changelog_message": "…"}.'] });
  }
  const extra = Object.keys(body).filter((k) => k !== 'changelog_message');
  if (extra.length > 0)
    throw new ValidationError({
      non_field_errors: [`Unexpected keys: ${extra.join(', ')}. A DELETE body may only hold changelog_message.`],
    });
  const message = (body as Record<string, unknown>).changelog_message;
  if (message !== undefined && typeof message !== 'string')
    throw new ValidationError({ changelog_message: ['Not a valid string.'] });
  return typeof message === 'string' ? message.slice(0, 200) : '';
}

function allowHeader(model: ModelInfo, kind: 'list' | 'detail'): string {
  if (model.spec.readOnly) return 'GET, HEAD, OPTIONS';
  return kind === 'list' ? 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS' : 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS';
}
