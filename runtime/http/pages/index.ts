import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { AppContext } from '../app-context.js';
import { ApiError } from '../../errors.js';
import type { PageFrame } from './layout.js';
import { sendErrorPage } from './session.js';
import { mountTaskPages } from './tasks.js';
import { mountTokenPages } from './tokens.js';

const TITLES: Record<number, string> = { 400: 'Bad request', 403: 'Forbidden', 404: 'Not found', 409: 'Conflict' };

/**
 * The pages people use in a browser besides the API: their API tokens and the background tasks. Every page
 * needs a signed-in session and every form its CSRF token; errors are shown as pages, not JSON.
 */
export function mountPages(router: Router, app: AppContext): void {
  const pages = express.Router({ strict: true, caseSensitive: true });
  mountTokenPages(pages, app);
  mountTaskPages(pages, app);
  pages.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (!(error instanceof ApiError) || res.headersSent) return next(error);
    const frame = (res.locals.pageFrame as PageFrame | undefined) ?? {
      basePath: app.settings.BASE_PATH,
      username: null,
      csrfToken: null,
      tasksPath: null,
    };
    const detail = typeof (error.body as { detail?: unknown }).detail === 'string' ? error.message : errorText(error);
    res.set(error.headers);
    sendErrorPage(res, error.status, frame, TITLES[error.status] ?? 'Error', detail);
  });
  router.use(pages);
}

/** Field errors as one line per field. */
function errorText(error: ApiError): string {
  const body = error.body;
  if (Array.isArray(body)) return body.map(String).join(' ');
  return Object.entries(body)
    .map(([name, messages]) => `${name}: ${Array.isArray(messages) ? messages.join(' ') : String(messages)}`)
    .join('; ');
}
