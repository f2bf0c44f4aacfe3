import type { Request, Response, Router } from 'express';
import type { AppContext } from './app-context.js';
import { principalOf, readContextFor } from './app-context.js';
import type { Action } from '../auth/permissions.js';
import type { Principal } from '../auth/principal.js';
import { MethodNotAllowedError, NotFoundError, ValidationError } from '../errors.js';
import { stateOf } from './request-state.js';
import { sendJson } from './respond.js';
import { loadObjectsByIds } from '../rest/fetch.js';
import { selectKeys } from '../rest/params.js';

/**
 * The actions of NetBox's background-task endpoint (core/api/views.py BackgroundTaskViewSet) that apply to
 * webhook deliveries, answered as NetBox answers them (200, no body):
 * - `POST <background tasks>/<id>/requeue/`: a failed task is queued again as a new delivery, due now,
 *   attempts counted afresh (change permission; 400 for a task that has not failed, where RQ raises);
 * - `POST <background tasks>/<id>/delete/`: the task is deleted, and with it its delivery if it has not run
 *   (delete permission).
 * And the service's own `POST <background tasks>/requeue/` with `{"ids": [...]}`, which requeues the failed
 * ones among several and answers them. NetBox's `enqueue` (force a deferred job) and `stop` (kill a running
 * job) have no counterpart: a delivery is never deferred, and a running attempt ends within WEBHOOK_TIMEOUT.
 * NetBox allows these actions to superusers only; here they follow object permissions (superusers hold all).
 */
export function mountTaskActions(router: Router, app: AppContext): void {
  const { tasks } = app;
  if (!tasks?.model.listPath) return;
  const model = tasks.model;

  /** Of `ids`, those the principal may act on (`action`), as far as they exist. */
  const permitted = async (ids: readonly number[], principal: Principal, action: Action): Promise<number[]> => {
    const restriction = app.permissions.require(principal, model, action);
    const query = app.db.knex({ t0: model.table }).select('t0.id').whereIn('t0.id', ids);
    if (!restriction.all) app.permissions.apply(query, model, restriction, principal);
    return ((await query) as { id: number | string }[]).map((r) => Number(r.id));
  };
  /** The task of a detail action's URL that the principal may act on, or 404. */
  const taskOf = async (raw: unknown, principal: Principal, action: Action): Promise<number> => {
    app.permissions.require(principal, model, action);
    const id = Number(raw);
    if (!/^\d+$/.test(String(raw)) || !Number.isSafeInteger(id)) throw new NotFoundError();
    const [found] = await permitted([id], principal, action);
    if (found === undefined) throw new NotFoundError(`No ${model.spec.className} matches the given query.`);
    return found;
  };
  const done = (res: Response): void => void res.status(200).end();
  /** Another method: refused (403) before it is not allowed (405), as NetBox checks permissions first. */
  const refuse =
    (action: Action) =>
    (req: Request, res: Response): never => {
      app.permissions.require(principalOf(res), model, action);
      throw new MethodNotAllowedError(req.method);
    };

  router
    .route(`${model.listPath}:id/requeue/`)
    .post(async (req, res) => {
      const id = await taskOf(req.params.id, principalOf(res), 'change');
      const requeued = await requeueTasks(app, [id]);
      if (requeued.length === 0) throw new ValidationError({ detail: 'Only failed tasks can be requeued.' });
      done(res);
    })
    .all(refuse('change'));
  router
    .route(`${model.listPath}:id/delete/`)
    .post(async (req, res) => {
      const id = await taskOf(req.params.id, principalOf(res), 'delete');
      await app.db.knex(model.table).where('id', id).delete();
      done(res);
    })
    .all(refuse('delete'));
  router
    .route(`${model.listPath}requeue/`)
    .post(async (req, res) => {
      const ids = (req.body as { ids?: unknown } | undefined)?.ids;
      if (!Array.isArray(ids) || ids.length === 0 || !ids.every((i) => Number.isSafeInteger(i) && Number(i) > 0))
        throw new ValidationError({ ids: ['A non-empty list of task ids is required.'] });
      const principal = principalOf(res);
      const requeued = await requeueTasks(app, await permitted(ids as number[], principal, 'change'));
      const keys = selectKeys(model, stateOf(res).params);
      sendJson(res, 200, await loadObjectsByIds(app.db.knex, readContextFor(app, res), model, keys, requeued));
    })
    .all(refuse('change'));
}

/** Requeues failed tasks as new deliveries and tells the workers; returns the ids requeued. */
export async function requeueTasks(app: AppContext, ids: readonly number[]): Promise<number[]> {
  if (!app.queue || ids.length === 0) return [];
  const done = await app.queue.requeue(ids);
  if (done.length > 0) {
    app.worker?.wake();
    app.signals.nudge(app.db.knex);
  }
  return done;
}
