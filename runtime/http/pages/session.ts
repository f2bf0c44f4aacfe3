import type { Request, Response } from 'express';
import type { AppContext } from '../app-context.js';
import { cookiesOf, csrfTokenFor, isFormCsrfValid, SESSION_COOKIE } from '../../auth/sessions.js';
import type { AuthUser, Principal } from '../../auth/principal.js';
import { stateOf } from '../request-state.js';
import { escapeHtml, renderPage, type PageFrame } from './layout.js';

/** The signed-in user of a page request, with what the page and its top bar need. */
export interface PageSession {
  user: AuthUser;
  principal: Principal;
  csrfToken: string;
  frame: PageFrame;
  requestId: string;
}

/**
 * The session of a page request. Without one, the browser is sent to the sign-in page (which returns here
 * afterwards) and the result is null; a form without the CSRF token gets a 403 page and null.
 */
export async function openSession(app: AppContext, req: Request, res: Response): Promise<PageSession | null> {
  const basePath = app.settings.BASE_PATH;
  const cookie = cookiesOf(req)[SESSION_COOKIE];
  const user = cookie ? await app.sessions.userOf(cookie) : null;
  if (!user) {
    // After a form post, come back to the page that showed the form.
    const back = req.method === 'GET' ? req.originalUrl : `${basePath}${req.path}`;
    res.redirect(req.method === 'GET' ? 302 : 303, `${basePath}/login/?next=${encodeURIComponent(back)}`);
    return null;
  }
  const csrfToken = csrfTokenFor(req, res, app.settings);
  const principal: Principal = { user, token: null, grants: await app.grants.grantsFor(user) };
  const tasks = app.schema.withRole('background_task');
  const frame: PageFrame = {
    basePath,
    username: user.username,
    csrfToken,
    tasksPath: tasks?.listPath && app.permissions.allows(principal, tasks, 'view') ? tasks.listPath : null,
  };
  const session: PageSession = { user, principal, csrfToken, frame, requestId: stateOf(res).requestId };
  // Error pages keep the top bar.
  res.locals.pageFrame = frame;
  if (req.method !== 'GET' && req.method !== 'HEAD' && !isFormCsrfValid(req)) {
    sendPage(
      res,
      403,
      session.frame,
      'Forbidden',
      '<p class="notice error" role="alert">CSRF verification failed: the form was stale or did not come from this site. Reload the page and try again.</p>',
    );
    return null;
  }
  return session;
}

/** Sends a page that is never cached (it shows per-user data and, once, token secrets). */
export function sendPage(
  res: Response,
  status: number,
  frame: PageFrame,
  title: string,
  body: string,
  currentPath = '',
): void {
  res
    .status(status)
    .set('Cache-Control', 'no-store')
    .type('html')
    .send(renderPage(frame, title, body, currentPath));
}

/** A page for an error that ends a request (403, 404, 400). */
export function sendErrorPage(res: Response, status: number, frame: PageFrame, title: string, detail: string): void {
  sendPage(res, status, frame, title, `<p class="notice error" role="alert">${escapeHtml(detail)}</p>`);
}
