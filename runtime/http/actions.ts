import type { Knex } from 'knex';
import type { Request, Response, Router } from 'express';
import type { AppContext } from './app-context.js';
import { principalOf, readContextFor } from './app-context.js';
import { lockTransaction } from '../db/lock.js';
import type { Restriction } from '../auth/principal.js';
import type { ActionContext, ActionParent, RunContext, RunResult } from '../domain/types.js';
import {
  ConflictError,
  MethodNotAllowedError,
  NotFoundError,
  PermissionDeniedError,
  ValidationError,
} from '../errors.js';
import { stateOf } from './request-state.js';
import { sendJson } from './respond.js';
import type { ActionHandlers, ActionSpec } from '../spec.js';
import { baseQuery, loadObjects, loadObjectsByIds } from '../rest/fetch.js';
import { pageLinks, presentObjects } from './listing.js';
import { assertWithin, runRequestWrite } from './writes.js';
import { parseQueryParameters } from '../rest/action-parameters.js';
import { parsePagination, selectKeys } from '../rest/params.js';
import { pythonType } from '../rest/parse-field.js';
import type { ModelInfo } from '../rest/schema.js';
import { decodeRow } from '../rest/values.js';
import { createObjects, hookContext } from '../rest/write.js';

/** NetBox's answer when an allocation does not fit. */
const INSUFFICIENT = 'Insufficient resources are available to satisfy the request';

/**
 * The handlers of one action below the objects of a model (runtime/spec.ts ActionSpec): the generic part
 * (permissions, the parent object, parameters, locking, creating, pagination), with the model-specific
 * part in the action's domain function.
 */
export function createActionHandlers(app: AppContext, model: ModelInfo, action: ActionSpec): ActionHandlers {
  const created = action.creates ? app.schema.model(action.creates) : null;

  /**
   * The parent object, if the user may view it (else 404, as for the object itself) and, for a run action with a
   * permission, may do that to it (NetBox's `restrict(user, action).restrict(user, 'view')`).
   */
  const parentOf = async (q: Knex, req: Request, res: Response, custom?: Restriction): Promise<ActionParent> => {
    const raw = String(req.params.id ?? '');
    const id = /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isSafeInteger(id)) throw new NotFoundError();
    const principal = principalOf(res);
    const restriction = app.permissions.require(principal, model, 'view');
    const query = baseQuery(q, model).where('t0.id', id).select('t0.*');
    app.permissions.apply(query, model, restriction, principal);
    if (custom) app.permissions.apply(query, model, custom, principal);
    const row = (await query.first()) as Record<string, unknown> | undefined;
    if (!row) throw new NotFoundError(`No ${model.spec.className} matches the given query.`);
    return { id, values: decodeRow(model.spec.fields, row) };
  };

  const contextFor = (q: Knex, res: Response): ActionContext => actionContext(app, q, res);

  const get = async (req: Request, res: Response): Promise<void> => {
    const q = app.db.knex;
    const state = stateOf(res);
    if (created) app.permissions.require(principalOf(res), created, 'view');
    const parent = await parentOf(q, req, res);
    const ctx = contextFor(q, res);
    const pagination = parsePagination(state.params, app.settings);
    if (action.kind === 'allocate') {
      const allocator = app.domain.allocator(action.function);
      const limit = pagination.limit ?? Number.MAX_SAFE_INTEGER;
      return sendJson(res, 200, await allocator.list(ctx, parent, limit));
    }
    const params = parseQueryParameters(action.parameters, state.params);
    const result = await app.domain.list(action.function)(ctx, parent, params);
    if ('body' in result) {
      res.status(200).setHeader('Content-Type', result.contentType);
      res.end(result.body);
      return;
    }
    if (!action.paginated) return sendJson(res, 200, result.items);
    const offset = pagination.mode === 'offset' ? pagination.offset : 0;
    const end = pagination.limit === null ? undefined : offset + pagination.limit;
    const results = result.items.slice(offset, end);
    const { next, previous } = pageLinks(state, pagination, result.items.length, results);
    sendJson(res, 200, { count: result.items.length, next, previous, results });
  };

  /**
   * A run action: the write-enabled token (NetBox's TokenWritePermission), view and the action's permission on
   * the object, then the function; in a write transaction when the action writes.
   */
  const run = async (req: Request, res: Response): Promise<void> => {
    const principal = principalOf(res);
    const notFound = new NotFoundError(`No ${model.spec.className} matches the given query.`);
    if (action.denied === 'not_found') {
      // NetBox's TokenWritePermission, then querysets restricted to what the user may view and do.
      if (!principal.token) throw new PermissionDeniedError('TokenWritePermission requires token authentication.');
      if (!principal.token.writeEnabled) throw new PermissionDeniedError();
      if (!app.permissions.allows(principal, model, 'view')) throw notFound;
    } else {
      app.permissions.require(principal, model, 'view');
      if (principal.token && !principal.token.writeEnabled) throw new PermissionDeniedError();
    }
    const custom = action.permission ? app.permissions.restriction(principal, model, action.permission) : undefined;
    if (action.permission && !custom) throw action.denied === 'not_found' ? notFound : new PermissionDeniedError();
    const body = (req.body ?? {}) as unknown;
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      throw new ValidationError({
        non_field_errors: [`Invalid data. Expected a dictionary, but got ${pythonType(body)}.`],
      });
    const accepted = req.accepts(['application/json', ...action.media]);
    const media = typeof accepted === 'string' ? accepted : 'application/json';
    const fn = app.domain.run(action.function);
    const state = stateOf(res);
    const invoke = async (q: Knex, write: RunContext['write']): Promise<RunResult> => {
      const parent = await parentOf(q, req, res, custom);
      const ctx: RunContext = {
        ...contextFor(q, res),
        model,
        user: principal.user,
        requestId: state.requestId,
        write,
        restriction: (label, name) => app.permissions.restriction(principal, app.schema.model(label), name),
      };
      return fn(ctx, parent, body as Record<string, unknown>, media);
    };
    const result = action.writes
      ? await runRequestWrite(app, req, res, (write) => invoke(write.q, hookContext(write)))
      : await invoke(app.db.knex, READ_ONLY_WRITES);
    if ('object' in result) {
      const keys = selectKeys(model, state.params);
      const [object] = await loadObjectsByIds(app.db.knex, readContextFor(app, res), model, keys, [
        Number(req.params.id),
      ]);
      return sendJson(res, 200, presentObjects(app, model, object ? [object] : [])[0] ?? null);
    }
    if ('json' in result) return sendJson(res, result.status ?? 200, result.json);
    res.status(result.status ?? 200).setHeader('Content-Type', result.contentType);
    for (const [name, value] of Object.entries(result.headers ?? {})) res.setHeader(name, value);
    res.end(result.body);
  };

  const post = async (req: Request, res: Response): Promise<void> => {
    if (action.kind === 'run') return run(req, res);
    if (!created) throw new MethodNotAllowedError(req.method);
    const principal = principalOf(res);
    const restriction = app.permissions.require(principal, created, 'add');
    const bulk = Array.isArray(req.body);
    const requests = requestItems(req.body);
    const allocator = app.domain.allocator(action.function);
    const objects = await runRequestWrite(app, req, res, async (write) => {
      const parent = await parentOf(write.q, req, res);
      const ctx = contextFor(write.q, res);
      // Like NetBox, the request's own parameters are checked (400) before anything is taken (409).
      const errors = requests.map((request) => allocator.check(ctx, parent, request));
      if (errors.some((e) => Object.keys(e).length > 0)) throw new ValidationError(errors);
      await lockTransaction(write.q, app.db.dialect, `action:${model.label}:${action.name}`);
      const bodies = await allocator.allocate(ctx, parent, requests);
      if (!bodies) throw new ConflictError(INSUFFICIENT);
      const result = await createObjects(write, created, bodies, bulk);
      await assertWithin(app, principal, write.q, created, result.ids, restriction);
      const keys = selectKeys(created, stateOf(res).params);
      const rendered = await loadObjectsByIds(write.q, readContextFor(app, res), created, keys, result.ids);
      return presentObjects(app, created, rendered, result.transient);
    });
    if (bulk) return sendJson(res, 201, objects);
    sendJson(res, 201, objects[0], objects[0]?.url ? { Location: String(objects[0].url) } : {});
  };

  const options = async (req: Request, res: Response): Promise<void> => {
    const principal = principalOf(res);
    await parentOf(app.db.knex, req, res);
    const run = action.kind === 'run';
    res.setHeader('Allow', run ? 'POST, OPTIONS' : created ? 'GET, POST, HEAD, OPTIONS' : 'GET, HEAD, OPTIONS');
    if (run) {
      const allowed =
        !action.permission || app.permissions.restriction(principal, model, action.permission) !== undefined;
      return sendJson(res, 200, {
        name: actionTitle(action.name),
        description: action.description ?? '',
        renders: ['application/json', ...action.media],
        parses: allowed ? ['application/json'] : [],
      });
    }
    sendJson(res, 200, {
      name: actionTitle(action.name),
      description: action.description ?? '',
      renders: ['application/json', 'text/html', ...action.media],
      parses: created && app.permissions.allows(principal, created, 'add') ? ['application/json'] : [],
    });
  };

  return { get, post, options };
}

/** An action's name as DRF titles it (`render-config` → `Render Config`). */
function actionTitle(name: string): string {
  return name
    .split('-')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}

/** The write path of a run action that does not declare `writes`. */
const READ_ONLY_WRITES: RunContext['write'] = {
  create: () => Promise.reject(new Error('this action does not write')),
  update: () => Promise.reject(new Error('this action does not write')),
  remove: () => Promise.reject(new Error('this action does not write')),
};

/** What an action's domain function may use, for the request's user. */
function actionContext(app: AppContext, q: Knex, res: Response): ActionContext {
  const read = readContextFor(app, res);
  const principal = principalOf(res);
  return {
    q,
    schema: app.schema,
    dialect: app.db.dialect,
    settings: app.settings,
    load: (label, keys, ids) => loadObjectsByIds(q, read, app.schema.model(label), keys, ids, true),
    siteRoot: read.render.siteRoot,
    restrictView: (label, query) => {
      const target = app.schema.model(label);
      if (!app.permissions.allows(principal, target, 'view')) return false;
      app.permissions.apply(query, target, app.permissions.require(principal, target, 'view'), principal);
      return true;
    },
  };
}

/**
 * Mounts the `locate` actions at their app's root (`/<app>/<name>/`): any signed-in user (or anyone when
 * LOGIN_REQUIRED is off) may ask; the object found is answered in full if the user may view it, else 404
 * (as NetBox's restricted querysets do). The app-root listings of these paths, by app root.
 */
export function mountLocateActions(router: Router, app: AppContext): Record<string, Record<string, string>> {
  const listed: Record<string, Record<string, string>> = {};
  for (const model of app.schema.endpoints()) {
    for (const action of model.spec.actions) {
      if (action.kind !== 'locate') continue;
      const root = model.listPath!.slice(0, -(model.spec.path!.length + 1));
      const path = `${root}${action.name}/`;
      listed[root.slice(1, -1)] = { ...listed[root.slice(1, -1)], [action.name]: path };
      const locate = app.domain.locate(action.function);
      router
        .route(path)
        .get(async (_req: Request, res: Response) => {
          const principal = principalOf(res);
          app.permissions.requireLogin(principal);
          const q = app.db.knex;
          const state = stateOf(res);
          const params = parseQueryParameters(action.parameters, state.params);
          const id = await locate(actionContext(app, q, res), params);
          if (id === null || !app.permissions.allows(principal, model, 'view')) throw new NotFoundError();
          const query = baseQuery(q, model).where('t0.id', id);
          app.permissions.apply(query, model, app.permissions.require(principal, model, 'view'), principal);
          const rows = await loadObjects(q, readContextFor(app, res), model, selectKeys(model, state.params), query);
          const [object] = presentObjects(app, model, rows);
          if (!object) throw new NotFoundError(`No ${model.spec.className} matches the given query.`);
          sendJson(res, 200, object);
        })
        .options((_req: Request, res: Response) => {
          app.permissions.requireLogin(principalOf(res));
          res.setHeader('Allow', 'GET, HEAD, OPTIONS');
          sendJson(res, 200, {
            name: actionTitle(action.name),
            description: action.description ?? '',
            renders: ['application/json', 'text/html'],
            parses: [],
          });
        })
        .all((req: Request) => {
          throw new MethodNotAllowedError(req.method);
        });
    }
  }
  return listed;
}

/** A POST body of an allocation: one object or a non-empty list of objects. */
function requestItems(body: unknown): Record<string, unknown>[] {
  const items: unknown[] = Array.isArray(body) ? body : [body ?? {}];
  if (items.length === 0) throw new ValidationError({ non_field_errors: ['This list may not be empty.'] });
  const errors = items.map((item) =>
    typeof item === 'object' && item !== null && !Array.isArray(item)
      ? {}
      : { non_field_errors: [`Invalid data. Expected a dictionary, but got ${pythonType(item)}.`] },
  );
  if (errors.some((e) => Object.keys(e).length > 0)) throw new ValidationError(errors);
  return items as Record<string, unknown>[];
}
