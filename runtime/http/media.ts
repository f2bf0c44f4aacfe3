import path from 'node:path';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { AppContext } from './app-context.js';
import { AuthenticationError } from '../errors.js';

/**
 * Uploaded files under `<BASE_PATH>/media/`, read-only, never as HTML or script: the stored names are
 * generated (safe characters, image extensions), and responses forbid sniffing and active content. With
 * LOGIN_REQUIRED they need a valid token like the API.
 */
export function mountMedia(router: Router, app: AppContext): void {
  const serve = express.static(path.resolve(app.settings.MEDIA_ROOT), {
    index: false,
    dotfiles: 'deny',
    redirect: false,
    fallthrough: true,
    setHeaders: (res) => {
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Content-Security-Policy', "default-src 'none'");
    },
  });
  router.use('/media', async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (app.settings.LOGIN_REQUIRED) {
      const principal = await app.authenticator.authenticate(
        req.get('authorization'),
        req.socket.remoteAddress ?? null,
      );
      if (!principal?.user) return next(new AuthenticationError());
    }
    serve(req, res, next);
  });
}
