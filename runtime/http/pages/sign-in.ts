/** The sign-in and sign-out pages outside the API (`/login/`, `/logout/`). */
import { randomBytes } from 'node:crypto';
import type { Request, Response, Router } from 'express';
import { now } from '../../db/clock.js';
import { clientIp } from '../client-ip.js';
import { formBody } from '../request-checks.js';
import { ThrottledError } from '../../auth/throttle.js';
import {
  checkCredentials,
  cookiesOf,
  csrfTokenFor,
  isFormCsrfValid,
  setCookie,
  CSRF_COOKIE,
  CSRF_FIELD,
  SESSION_COOKIE,
  type LoginDeps,
} from '../../auth/sessions.js';
import { escapeHtml } from './layout.js';

/** `/login/` (a form; POST signs in) and `/logout/` (POST signs out), outside the API. */
export function mountSessionPages(router: Router, deps: LoginDeps): void {
  const basePath = deps.settings.BASE_PATH;
  const cookiePath = basePath || '/';
  const form = formBody('16kb');

  const cookie = (req: Request, res: Response, name: string, value: string, httpOnly: boolean): void =>
    setCookie(req, res, deps.settings, name, value, httpOnly);
  const csrfToken = (req: Request, res: Response): string => csrfTokenFor(req, res, deps.settings);
  const formCsrfValid = isFormCsrfValid;
  /** Only a path on this site: never another origin (`//host`, `https://…`). */
  const nextOf = (req: Request): string => {
    const raw = (req.body as Record<string, unknown> | undefined)?.next ?? req.query.next;
    return typeof raw === 'string' && /^\/(?![/\\])/.test(raw) ? raw : `${basePath}/api/`;
  };
  const page = (res: Response, status: number, title: string, body: string): void => {
    res.status(status).set('Cache-Control', 'no-store').type('html').send(layout(title, body));
  };
  const loginForm = (req: Request, res: Response, status: number, error?: string): void => {
    const token = csrfToken(req, res);
    page(
      res,
      status,
      'Sign in',
      `${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${escapeHtml(`${basePath}/login/`)}">
  <input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(token)}">
  <input type="hidden" name="next" value="${escapeHtml(nextOf(req))}">
  <label>Username <input name="username" autocomplete="username" required autofocus></label>
  <label>Password <input name="password" type="password" autocomplete="current-password" required></label>
  <button type="submit">Sign in</button>
</form>`,
    );
  };

  router
    .route('/login/')
    .get((req, res) => loginForm(req, res, 200))
    .post(form, async (req, res) => {
      if (!formCsrfValid(req)) return loginForm(req, res, 403, 'Your session expired; please sign in again.');
      const body = (req.body ?? {}) as Record<string, unknown>;
      const username = typeof body.username === 'string' ? body.username : '';
      const password = typeof body.password === 'string' ? body.password : '';
      let found: Awaited<ReturnType<typeof checkCredentials>>;
      try {
        found = await checkCredentials(deps, clientIp(req, deps.settings.HTTP_CLIENT_IP_HEADERS), username, password);
      } catch (error) {
        if (!(error instanceof ThrottledError)) throw error;
        res.set(error.headers);
        return loginForm(req, res, 429, `Too many failed attempts; try again in ${error.retryAfter} seconds.`);
      }
      if (!found) return loginForm(req, res, 400, 'Please enter a correct username and password.');
      const userModel = deps.schema.withRole('user')!;
      if (userModel.fields.get('last_login')?.column && !deps.settings.MAINTENANCE_MODE) {
        await deps
          .q(userModel.table)
          .where('id', found.user.id)
          .update({ [userModel.fields.get('last_login')!.column!]: now() });
      }
      cookie(req, res, SESSION_COOKIE, deps.sessions.issue(found.user.id, found.row), true);
      // A new CSRF token after signing in (no fixation of a token planted before).
      cookie(req, res, CSRF_COOKIE, randomBytes(24).toString('base64url'), false);
      res.redirect(303, nextOf(req));
    })
    .all((_req, res) => res.status(405).set('Allow', 'GET, POST').end());

  router
    .route('/logout/')
    .get((req, res) => {
      const token = csrfToken(req, res);
      page(
        res,
        200,
        'Sign out',
        `<form method="post" action="${escapeHtml(`${basePath}/logout/`)}">
  <input type="hidden" name="${CSRF_FIELD}" value="${escapeHtml(token)}">
  <button type="submit">Sign out</button>
</form>`,
      );
    })
    .post(form, async (req, res) => {
      if (!formCsrfValid(req))
        return page(res, 403, 'Sign out', '<p class="error">CSRF token missing or incorrect.</p>');
      // The cookie is cleared in this browser, and the session ended on the server (a copied cookie fails too).
      const session = cookiesOf(req)[SESSION_COOKIE];
      const user = session ? await deps.sessions.userOf(session) : null;
      if (user) await deps.sessions.revoke(user.id);
      res.clearCookie(SESSION_COOKIE, { path: cookiePath });
      res.redirect(303, `${basePath}/login/`);
    })
    .all((_req, res) => res.status(405).set('Allow', 'GET, POST').end());
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)}</title>
  <style>
    body { font-family: system-ui, sans-serif; max-width: 24rem; margin: 4rem auto; padding: 0 1rem; color: #222; }
    label { display: block; margin: 0 0 1rem; }
    input { display: block; width: 100%; padding: .4rem; margin-top: .25rem; box-sizing: border-box; }
    button { padding: .5rem 1.2rem; }
    .error { color: #a40000; }
  </style>
</head>
<body>
  <h1>${escapeHtml(title)}</h1>
  ${body}
</body>
</html>
`;
}
