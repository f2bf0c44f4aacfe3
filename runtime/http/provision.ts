import { readContextFor } from './app-context.js';
import type { Router } from 'express';
import type { AppContext } from './app-context.js';
import { stateOf } from './request-state.js';
import { sendJson } from './respond.js';
import { AuthenticationError, MethodNotAllowedError, ValidationError } from '../errors.js';
import { loadObjectsByIds } from '../rest/fetch.js';
import { runWrite } from './writes.js';
import { createObjects } from '../rest/write.js';
import { clientIp } from './client-ip.js';
import { checkCredentials } from '../auth/sessions.js';
import type { Principal } from '../auth/principal.js';
import { TOKEN_PROVISION_KEYS } from '../spec.js';

/**
 * `POST /api/users/tokens/provision/`: exchanges a username and password for a new token (no other
 * authentication). The plaintext is in this response only.
 */
export function mountProvision(router: Router, app: AppContext): void {
  const tokenModel = app.schema.withRole('token');
  const userModel = app.schema.withRole('user');
  if (!tokenModel?.listPath || !userModel) return;
  const path = `${tokenModel.listPath}provision/`;
  router
    .route(path)
    .post(async (req, res) => {
      const body = req.body as Record<string, unknown> | undefined;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        throw new ValidationError({ non_field_errors: ['Invalid data. Expected a dictionary.'] });
      }
      const { username, password, ...tokenFields } = body;
      const errors: Record<string, string[]> = {};
      if (typeof username !== 'string' || username === '') errors.username = ['This field is required.'];
      if (typeof password !== 'string' || password === '') errors.password = ['This field is required.'];
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      const address = clientIp(req, app.settings.HTTP_CLIENT_IP_HEADERS);
      const found = await checkCredentials(
        { q: app.db.knex, schema: app.schema, throttle: app.loginThrottle },
        address,
        username as string,
        password as string,
      );
      if (!found) throw new AuthenticationError('Invalid username/password');
      const { user } = found;
      const principal: Principal = { user, token: null, grants: await app.grants.grantsFor(user) };
      app.permissions.require(principal, tokenModel, 'add');
      const state = stateOf(res);
      const object = await runWrite(
        app,
        { requestId: state.requestId, method: 'POST', path: req.originalUrl.split('?')[0]!, principal },
        async (ctx) => {
          const result = await createObjects(ctx, tokenModel, [{ ...tokenFields, user: user.id }], false);
          const render = readContextFor(app, res);
          const [created] = await loadObjectsByIds(
            ctx.q,
            render,
            tokenModel,
            TOKEN_PROVISION_KEYS.filter((k) => tokenModel.outputKeys.has(k)),
            result.ids,
          );
          const present = tokenModel.spec.hooks.present;
          if (present && created) app.domain.present(present)(created, result.transient.get(result.ids[0]!));
          return created;
        },
      );
      sendJson(res, 201, object);
    })
    .all((req) => {
      throw new MethodNotAllowedError(req.method);
    });
}
