import type { Request, Response, Router } from 'express';
import type { AppContext } from '../app-context.js';

/**
 * Where the links of this service lead a browser: `/` to the API root, and every object's `display_url`
 * (`/dcim/sites/1/`, the API path without `/api`, as NetBox's pages are) and list path to the same path of
 * the API, whose browsable page shows the object to a browser (and JSON to other clients). The query string
 * goes along. Pages that exist at such a path (the background tasks) are mounted before and win.
 */
export function mountObjectLinks(router: Router, app: AppContext): void {
  const basePath = app.settings.BASE_PATH;
  const toApi = (req: Request, res: Response): void => {
    const query = req.originalUrl.indexOf('?');
    res.redirect(302, `${basePath}/api${req.path}${query >= 0 ? req.originalUrl.slice(query) : ''}`);
  };
  router.get('/', toApi);
  for (const model of app.schema.endpoints()) {
    router.get([model.listPath!, `${model.listPath!}:id/`], toApi);
  }
}
