/**
 * Writes from HTTP requests: one transaction for the body's changes and the write hooks (change records, event
 * jobs), retried on conflicts, and the check that written objects stay within the user's constraints.
 */
import type { Knex } from 'knex';
import type { Request, Response } from 'express';
import type { AppContext } from './app-context.js';
import type { Change, WriteContext, WriteRequest } from '../rest/write-types.js';
import { principalOf } from './app-context.js';
import type { Principal, Restriction } from '../auth/principal.js';
import { PermissionDeniedError } from '../errors.js';
import { stateOf } from './request-state.js';
import { baseQuery } from '../rest/fetch.js';
import { RelatedResolver } from '../rest/related.js';
import type { ModelInfo } from '../rest/schema.js';
import { removeStoredFile } from '../rest/images.js';
import { isRetryable, runTransaction } from '../db/transaction.js';
import { isConnectionError } from '../db/errors.js';

/** After a create or update: every written object must still be within the user's constraints (else 403). */
export async function assertWithin(
  app: AppContext,
  principal: Principal,
  q: Knex,
  model: ModelInfo,
  ids: readonly number[],
  restriction: Restriction,
): Promise<void> {
  if (restriction.all || ids.length === 0) return;
  const query = baseQuery(q, model).whereIn('t0.id', ids);
  app.permissions.apply(query, model, restriction, principal);
  const row = (await query.count({ n: '*' }).first()) as { n: number | string };
  if (Number(row.n) !== new Set(ids).size) throw new PermissionDeniedError();
}

/** `runWrite` for an HTTP request: its id, method, path and principal go with the change records. */
export function runRequestWrite<T>(
  app: AppContext,
  req: Request,
  res: Response,
  body: (ctx: WriteContext) => Promise<T>,
): Promise<T> {
  return runWrite(
    app,
    {
      requestId: stateOf(res).requestId,
      method: req.method,
      path: req.originalUrl.split('?')[0]!,
      principal: principalOf(res),
    },
    body,
  );
}

/**
 * Runs a write in one transaction: the body's changes, then the write hooks (change records, event jobs),
 * all committed together or not at all; run again from the start when the database aborted it for a
 * conflict with a concurrent write (a deadlock, a busy SQLite file).
 */
export async function runWrite<T>(
  app: AppContext,
  request: WriteRequest,
  body: (ctx: WriteContext) => Promise<T>,
): Promise<T> {
  const { schema, db, settings } = app;
  const { principal } = request;
  let changes: readonly Change[] = [];
  let files = { written: [] as string[], obsolete: [] as string[] };
  // Unique values are left to the database's indexes first; a refusal runs the write again with the checks,
  // for NetBox's error body.
  let optimisticUniques = true;
  const attempt = () =>
    runTransaction(
      db,
      async (trx) => {
        files = { written: [], obsolete: [] };
        const ctx: WriteContext = {
          q: trx,
          schema,
          dialect: db.dialect,
          settings,
          domain: app.domain,
          user: principal.user,
          grantOf: (target, action) => app.permissions.grantOf(principal, target, action),
          resolver: new RelatedResolver(trx, schema, db.dialect, async (target, query) => {
            // Objects given by attributes are looked up only among those the user may view.
            let restriction: Restriction;
            try {
              restriction = app.permissions.require(principal, target, 'view');
            } catch {
              query.whereRaw('1 = 0');
              return;
            }
            if (!restriction.all) {
              const scoped = trx({ t0: target.table }).select('t0.id');
              app.permissions.apply(scoped, target, restriction, principal);
              query.whereIn('r0.id', scoped);
            }
          }),
          customFields: (m, input, existing, errors, id) =>
            app.customFields.validate(trx, m, input, existing, errors, id, ctx.resolver.restrictView),
          changes: [],
          files,
          optimisticUniques,
          representDeleted: async (model, ids) =>
            (await app.events.wantsDeletions(trx, model, ctx.changes)) ? app.events.represent(trx, model, ids) : null,
        };
        const result = await body(ctx);
        for (const hook of app.writeHooks) await hook(trx, ctx.changes, request);
        changes = ctx.changes;
        return result;
      },
      // Nothing was stored: neither are the files.
      () => files.written.forEach((file) => removeStoredFile(settings.MEDIA_ROOT, file)),
    );
  let result: T;
  try {
    result = await attempt();
  } catch (error) {
    // The optimistic attempt decides nothing about the input by failing: whatever stopped it (a taken value, a
    // missing related object, an invalid body), the checked attempt gives the answer. A database that cannot
    // be reached, or conflicts retried already, would only fail again.
    if (isConnectionError(error) || isRetryable(error)) throw error;
    optimisticUniques = false;
    result = await attempt();
  }
  // Files of deleted or replaced images go once the change is committed.
  for (const file of files.obsolete) removeStoredFile(settings.MEDIA_ROOT, file);
  for (const hook of app.commitHooks) await hook(changes);
  return result;
}
