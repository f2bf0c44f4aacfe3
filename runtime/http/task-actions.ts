import type { Router } from 'express';
import type { AppContext } from './app-context.js';
import { principalOf, readContextFor } from './app-context.js';
import { MethodNotAllowedError, NotFoundError, ValidationError } from '../errors.js';
import { stateOf } from './request-state.js';
import { sendJson } from './respond.js';
import { loadObjectsByIds } from '../rest/fetch.js';
import { selectKeys } from '../rest/params.js';

/**
 * `POST <background tasks>/<id>/requeue/` (one failed task) and `POST <background tasks>/requeue/` with
 * `{"ids": [...]}` (several): failed → queued as new deliveries, due now, attempts counted afresh. Needs the
 * change permission on background tasks (superusers have it); answers the requeued tasks.
 */
export function mountTaskActions(router: Router, app: AppContext): void {
  const { tasks } = app;
  if (!tasks?.model.listPath) return;
  const model = tasks.model;
  const respond = async (res: Parameters<Parameters<Router['post']>[1]>[1], ids: number[]) => {
    const state = stateOf(res);
    const objects = await loadObjectsByIds(
      app.db.knex,
      readContextFor(app, res),
      model,
      selectKeys(model, state.params),
      ids,
    );
    return objects;
  };
  const requeue = async (ids: number[], principal: ReturnType<typeof principalOf>): Promise<number[]> => {
    const restriction = app.permissions.require(principal, model, 'change');
    if (!restriction.all) {
      const query = app.db.knex({ t0: model.table }).select('t0.id').whereIn('t0.id', ids);
      app.permissions.apply(query, model, restriction, principal);
      ids = ((await query) as { id: number }[]).map((r) => Number(r.id));
    }
    return requeueTasks(app, ids);
  };

  router
    .route(`${model.listPath}:id/requeue/`)
    .post(async (req, res) => {
      app.permissions.require(principalOf(res), model, 'change');
      const id = Number(req.params.id);
      if (!/^\d+$/.test(String(req.params.id)) || !Number.isSafeInteger(id)) throw new NotFoundError();
      const exists = (await app.db.knex(model.table).where('id', id).first('id')) as { id: number } | undefined;
      if (!exists) throw new NotFoundError(`No ${model.spec.className} matches the given query.`);
      const done = await requeue([id], principalOf(res));
      if (done.length === 0) throw new ValidationError({ detail: 'Only failed tasks can be requeued.' });
      sendJson(res, 200, (await respond(res, done))[0]);
    })
    .all((req) => {
      throw new MethodNotAllowedError(req.method);
    });
  router
    .route(`${model.listPath}requeue/`)
    .post(async (req, res) => {
      const ids = (req.body as { ids?: unknown } | undefined)?.ids;
      if (!Array.isArray(ids) || ids.length === 0 || !ids.every((i) => Number.isSafeInteger(i) && Number(i) > 0))
        throw new ValidationError({ ids: ['A non-empty list of task ids is required.'] });
      const done = await requeue(ids as number[], principalOf(res));
      sendJson(res, 200, await respond(res, done));
    })
    .all((req) => {
      throw new MethodNotAllowedError(req.method);
    });
}

/** Requeues failed tasks as new deliveries and tells the workers; returns the ids requeued. */
export async function requeueTasks(app: AppContext, ids: readonly number[]): Promise<number[]> {
  if (!app.queue) return [];
  const done = await app.queue.requeue(ids);
  if (done.length > 0) {
    app.worker?.wake();
    app.signals.nudge(app.db.knex);
  }
  return done;
}
