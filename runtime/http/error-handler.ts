import type { NextFunction, Request, Response } from 'express';
import type { Schema } from '../rest/schema.js';
import { translateDatabaseError } from '../db/errors.js';
import { ApiError } from './errors.js';
import { sendJson } from './respond.js';

/** The one place where errors become responses: API errors as NetBox's bodies, anything else a 500. */
export function errorHandler(schema: Schema, version: string, log: (message: string) => void) {
  return (error: unknown, _req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) return next(error);
    const apiError = error instanceof ApiError ? error : translateDatabaseError(error, schema);
    if (apiError) {
      sendJson(res, apiError.status, apiError.body, apiError.headers);
      return;
    }
    const e = error as { type?: string; status?: number; message?: string; name?: string };
    if (e.type === 'entity.too.large' || e.status === 413) {
      sendJson(res, 413, { detail: 'Request body too large.' });
      return;
    }
    log(`unhandled error: ${(error as Error)?.stack ?? String(error)}`);
    sendJson(res, 500, {
      error: e.message ?? String(error),
      exception: e.name ?? 'Error',
      netbox_version: version,
      node_version: process.version,
    });
  };
}
