import { readContextFor } from '../app-context.js';
import { formBody } from '../request-checks.js';
import type { Request, Response, Router } from 'express';
import type { Knex } from 'knex';
import type { AppContext } from '../app-context.js';
import type { Restriction } from '../../auth/principal.js';
import { V2_PREFIX } from '../../auth/tokens.js';
import { baseQuery, loadObjects, loadObjectsByIds, type ReadContext } from '../../rest/fetch.js';
import { deleteObjects } from '../../rest/delete.js';
import { runWrite } from '../writes.js';
import { applyOrdering } from '../../rest/params.js';
import type { ModelInfo } from '../../rest/schema.js';
import { createObjects } from '../../rest/write.js';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../errors.js';
import { csrfField, escapeHtml, formatTime, TOKENS_PAGE } from './layout.js';
import { openSession, sendPage, type PageSession } from './session.js';
import { lockForUpdate } from '../../db/transaction.js';

type Row = Record<string, unknown>;

/** What the create form holds (as typed, for showing it again with its errors). */
interface TokenForm {
  description: string;
  expires: string;
  writeEnabled: boolean;
  allowedIps: string;
}

const EMPTY_FORM: TokenForm = { description: '', expires: '', writeEnabled: true, allowedIps: '' };

/** The keys the token table shows (those the token model has). */
const LIST_KEYS = [
  'id',
  'display',
  'version',
  'key',
  'description',
  'created',
  'expires',
  'last_used',
  'enabled',
  'write_enabled',
  'allowed_ips',
];

/**
 * `/user/api-tokens/`: the signed-in user's own tokens (masked), a form that creates a token and shows its
 * secret in that one response, and a delete button per token. Creating and deleting go through the API's
 * write path (validation, permissions, change records, event rules).
 */
export function mountTokenPages(router: Router, app: AppContext): void {
  const model = app.schema.withRole('token');
  const userColumn = model?.fields.get('user')?.column;
  if (!model || !userColumn) return;
  const form = formBody('16kb');
  const keys = LIST_KEYS.filter((k) => model.outputKeys.has(k));

  const readContext = (res: Response): ReadContext => readContextFor(app, res);

  /** Only the user's own tokens, and only those the user's permissions show. */
  const ownTokens = (q: Knex, session: PageSession, restriction: Restriction): Knex.QueryBuilder => {
    const query = baseQuery(q, model).where(`t0.${userColumn}`, session.user.id);
    app.permissions.apply(query, model, restriction, session.principal);
    return query;
  };

  const show = async (
    res: Response,
    session: PageSession,
    status: number,
    extra: { values?: TokenForm; errors?: Record<string, unknown>; created?: Row; notice?: string } = {},
  ): Promise<void> => {
    const restriction = app.permissions.require(session.principal, model, 'view');
    const query = ownTokens(app.db.knex, session, restriction);
    applyOrdering(app.schema, model, new URLSearchParams(), query);
    const tokens = await loadObjects(app.db.knex, readContext(res), model, keys, query);
    const body = [
      extra.created ? createdNotice(extra.created) : '',
      extra.notice ? `<p class="notice ok" role="status">${escapeHtml(extra.notice)}</p>` : '',
      tokenTable(tokens, session, app.permissions.allows(session.principal, model, 'delete')),
      app.permissions.allows(session.principal, model, 'add')
        ? createForm(session, extra.values ?? EMPTY_FORM, extra.errors ?? {})
        : '<p class="muted">You may not create tokens.</p>',
    ].join('\n');
    sendPage(res, status, session.frame, 'API tokens', body, TOKENS_PAGE);
  };

  router
    .route(TOKENS_PAGE)
    .get(async (req, res) => {
      const session = await openSession(app, req, res);
      if (!session) return;
      const notice = req.query.deleted === '1' ? 'The token was deleted.' : undefined;
      await show(res, session, 200, { notice });
    })
    .post(form, async (req, res) => {
      const session = await openSession(app, req, res);
      if (!session) return;
      const values = formOf(req);
      const created = await createToken(app, model, req, session, values, readContext(res));
      if ('errors' in created) return show(res, session, 400, { values, errors: created.errors });
      await show(res, session, 201, { created: created.object });
    });

  router.post(`${TOKENS_PAGE}:id/delete/`, form, async (req, res) => {
    const session = await openSession(app, req, res);
    if (!session) return;
    const restriction = app.permissions.require(session.principal, model, 'delete');
    const id = /^\d+$/.test(String(req.params.id)) ? Number(req.params.id) : NaN;
    if (!Number.isSafeInteger(id)) throw new NotFoundError('No such token.');
    await runWrite(
      app,
      { requestId: session.requestId, method: 'DELETE', path: req.originalUrl, principal: session.principal },
      async (ctx) => {
        const query = ownTokens(ctx.q, session, restriction).where('t0.id', id).select('t0.id');
        lockForUpdate(query, app.db.dialect, 't0');
        if (!(await query.first())) throw new NotFoundError('No such token.');
        await deleteObjects(ctx, model, [id]);
      },
    );
    res.redirect(303, `${app.settings.BASE_PATH}${TOKENS_PAGE}?deleted=1`);
  });
}

/** Creates a token for the session's user; the new token with its secret, or the model's field errors. */
async function createToken(
  app: AppContext,
  model: ModelInfo,
  req: Request,
  session: PageSession,
  values: TokenForm,
  read: ReadContext,
): Promise<{ object: Row } | { errors: Record<string, unknown> }> {
  const restriction = app.permissions.require(session.principal, model, 'add');
  const expires = values.expires.trim();
  const input = {
    user: session.user.id,
    description: values.description,
    // A datetime-local value has no zone: the form asks for UTC.
    expires: expires === '' ? null : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(expires) ? `${expires}Z` : expires,
    write_enabled: values.writeEnabled,
    allowed_ips: values.allowedIps.split(/[\s,]+/).filter(Boolean),
  };
  const request = { requestId: session.requestId, method: 'POST', path: req.originalUrl, principal: session.principal };
  try {
    const object = await runWrite(app, request, async (ctx) => {
      const result = await createObjects(ctx, model, [input], false);
      const id = result.ids[0]!;
      if (!restriction.all) {
        const within = baseQuery(ctx.q, model).where('t0.id', id).select('t0.id');
        app.permissions.apply(within, model, restriction, session.principal);
        if (!(await within.first())) throw new PermissionDeniedError();
      }
      const keys = ['id', 'display', 'version', 'key', 'token'].filter((k) => model.outputKeys.has(k));
      const [created] = await loadObjectsByIds(ctx.q, read, model, keys, [id]);
      const present = model.spec.hooks.present;
      if (present && created) app.domain.present(present)(created, result.transient.get(id));
      return created!;
    });
    return { object };
  } catch (error) {
    // The form shows the model's validation errors next to its fields.
    if (error instanceof ValidationError && !Array.isArray(error.body)) return { errors: error.body };
    throw error;
  }
}

function formOf(req: Request): TokenForm {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const text = (name: string): string => (typeof body[name] === 'string' ? body[name] : '');
  return {
    description: text('description'),
    expires: text('expires'),
    writeEnabled: body.write_enabled !== undefined,
    allowedIps: text('allowed_ips'),
  };
}

/** The secret of the token just created: shown in this response only. */
function createdNotice(token: Row): string {
  const secret = typeof token.token === 'string' ? token.token : '';
  const header =
    Number(token.version) === 1 ? `Token ${secret}` : `Bearer ${V2_PREFIX}${String(token.key ?? '')}.${secret}`;
  return `<div class="notice secret" role="status" id="new-token">
  <strong>Token ${escapeHtml(String(token.display ?? ''))} created.</strong>
  Copy its secret now: it is shown only this once and cannot be retrieved later.
  <div>Authorization header:</div>
  <code id="new-token-header">${escapeHtml(header)}</code>
  <div>Secret alone:</div>
  <code id="new-token-secret">${escapeHtml(secret)}</code>
</div>`;
}

function tokenTable(tokens: readonly Row[], session: PageSession, mayDelete: boolean): string {
  if (tokens.length === 0) return '<p class="muted">You have no API tokens yet.</p>';
  const yesNo = (value: unknown): string => (value === true ? 'Yes' : value === false ? 'No' : '—');
  const rows = tokens.map((t) => {
    const ips = Array.isArray(t.allowed_ips) && t.allowed_ips.length > 0 ? t.allowed_ips.map(String).join(', ') : 'Any';
    const remove = mayDelete
      ? `<form method="post" action="${escapeHtml(`${session.frame.basePath}${TOKENS_PAGE}${String(t.id)}/delete/`)}">
        ${csrfField(session.csrfToken)}
        <button type="submit" class="danger" aria-label="Delete token ${escapeHtml(String(t.display ?? ''))}">Delete</button>
      </form>`
      : '';
    return `<tr data-token-id="${escapeHtml(String(t.id))}">
      <td><code>${escapeHtml(String(t.display ?? ''))}</code></td>
      <td>${escapeHtml(String(t.description ?? '')) || '<span class="muted">—</span>'}</td>
      <td>${escapeHtml(formatTime(t.created))}</td>
      <td>${escapeHtml(t.expires ? formatTime(t.expires) : 'Never')}</td>
      <td>${escapeHtml(t.last_used ? formatTime(t.last_used) : 'Never')}</td>
      <td>${yesNo(t.enabled)}</td>
      <td>${yesNo(t.write_enabled)}</td>
      <td>${escapeHtml(ips)}</td>
      <td>${remove}</td>
    </tr>`;
  });
  return `<table>
  <thead><tr><th>Token</th><th>Description</th><th>Created</th><th>Expires</th><th>Last used</th><th>Enabled</th><th>Write enabled</th><th>Allowed IPs</th><th></th></tr></thead>
  <tbody>
    ${rows.join('\n    ')}
  </tbody>
</table>`;
}

function createForm(session: PageSession, values: TokenForm, errors: Record<string, unknown>): string {
  const messages = (name: string): string[] => {
    const value = errors[name];
    if (Array.isArray(value)) return value.map(String);
    return value === undefined ? [] : [typeof value === 'string' ? value : JSON.stringify(value)];
  };
  const fieldErrors = (name: string): string => {
    const list = messages(name);
    return list.length ? `<ul class="errors">${list.map((m) => `<li>${escapeHtml(m)}</li>`).join('')}</ul>` : '';
  };
  const known = new Set(['description', 'expires', 'write_enabled', 'allowed_ips']);
  const general = Object.keys(errors)
    .filter((name) => !known.has(name))
    .flatMap((name) =>
      messages(name).map((m) => (['__all__', 'non_field_errors'].includes(name) ? m : `${name}: ${m}`)),
    );
  return `<h2>Create a token</h2>
<form method="post" action="${escapeHtml(`${session.frame.basePath}${TOKENS_PAGE}`)}">
  ${csrfField(session.csrfToken)}
  <fieldset>
    <legend>New v2 token</legend>
    ${general.length ? `<div class="notice error" role="alert">${general.map(escapeHtml).join('<br>')}</div>` : ''}
    <label>Description
      <input type="text" name="description" maxlength="200" value="${escapeHtml(values.description)}">
      ${fieldErrors('description')}
    </label>
    <label>Expires (UTC)
      <span class="hint">Leave empty for a token that never expires.</span>
      <input type="datetime-local" name="expires" value="${escapeHtml(values.expires)}">
      ${fieldErrors('expires')}
    </label>
    <label class="check"><input type="checkbox" name="write_enabled" value="on"${values.writeEnabled ? ' checked' : ''}>
      Write enabled <span class="hint">Permit create, update and delete operations with this token.</span>
      ${fieldErrors('write_enabled')}
    </label>
    <label>Allowed IPs
      <span class="hint">Networks the token may be used from, e.g. <code>192.0.2.0/24</code>, one per line or separated by commas; empty means any.</span>
      <textarea name="allowed_ips" rows="3">${escapeHtml(values.allowedIps)}</textarea>
      ${fieldErrors('allowed_ips')}
    </label>
    <button type="submit" class="primary">Create token</button>
  </fieldset>
</form>`;
}
