import type { Request, Response, Router } from 'express';
import type { AppContext } from './app-context.js';
import { principalOf, readContextFor } from './app-context.js';
import { sendJson } from './respond.js';
import { AuthenticationError, MethodNotAllowedError, PermissionDeniedError, ValidationError } from '../errors.js';
import { lockForUpdate, runTransaction } from '../db/transaction.js';
import { loadObjectsByIds } from '../rest/fetch.js';
import { decodeJson } from '../rest/values.js';

type Json = Record<string, unknown>;

/**
 * The authenticated user's own endpoints: `GET /api/authentication-check/` (the user's representation) and
 * `GET`/`PATCH /api/<users app>/config/` (preferences, kept in the user's hidden `config` JSON field; a PATCH
 * merges objects key by key).
 */
export function mountAccount(router: Router, app: AppContext): void {
  const userModel = app.schema.withRole('user');
  if (!userModel?.listPath) return;
  const configColumn = userModel.fields.get('config')?.column;

  const currentUser = (res: Response): number => {
    const { user } = principalOf(res);
    if (!user) throw new AuthenticationError();
    return user.id;
  };
  const refuse = (req: Request): never => {
    throw new MethodNotAllowedError(req.method);
  };

  router
    .route('/authentication-check/')
    .get(async (_req, res) => {
      const id = currentUser(res);
      const [user] = await loadObjectsByIds(app.db.knex, readContextFor(app, res), userModel, userModel.spec.output, [
        id,
      ]);
      sendJson(res, 200, user);
    })
    .all(refuse);

  if (!configColumn) return;
  const read = async (id: number): Promise<Json> => {
    const row = (await app.db.knex(userModel.table).where('id', id).first(configColumn)) as Json | undefined;
    const config = decodeJson(row?.[configColumn]);
    return config && typeof config === 'object' && !Array.isArray(config) ? (config as Json) : {};
  };
  router
    .route(`/${userModel.spec.app}/config/`)
    .get(async (_req, res) => sendJson(res, 200, await read(currentUser(res))))
    .patch(async (req, res) => {
      const id = currentUser(res);
      // A change like any other: a read-only token may not make it.
      if (principalOf(res).token?.writeEnabled === false) throw new PermissionDeniedError();
      const body = req.body as unknown;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new ValidationError({ non_field_errors: ['Invalid data. Expected a dictionary.'] });
      }
      const merged = await runTransaction(app.db, async (trx) => {
        const query = trx(userModel.table).where('id', id).first(configColumn);
        const row = (await lockForUpdate(query, app.db.dialect)) as Json | undefined;
        const current = decodeJson(row?.[configColumn]);
        const next = deepMerge(current && typeof current === 'object' ? (current as Json) : {}, body as Json);
        await trx(userModel.table)
          .where('id', id)
          .update({ [configColumn]: JSON.stringify(next) });
        return next;
      });
      sendJson(res, 200, merged);
    })
    .all(refuse);
}

/** Objects merge key by key; anything else replaces. */
function deepMerge(base: Json, patch: Json): Json {
  const out: Json = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    const current = out[key];
    const bothObjects =
      value && typeof value === 'object' && !Array.isArray(value) && current && typeof current === 'object';
    out[key] = bothObjects && !Array.isArray(current) ? deepMerge(current as Json, value as Json) : value;
  }
  return out;
}
