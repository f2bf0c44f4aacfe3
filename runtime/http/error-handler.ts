import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { Schema } from '../rest/schema.js';
import { translateDatabaseError } from '../db/errors.js';
import { ApiError, BadRequestError } from '../errors.js';
import { sendJson } from './respond.js';

/**
 * The one place where errors become responses: API errors as NetBox's bodies, anything else a 500 that names
 * the request (its X-Request-ID) and nothing else: the message, stack and any SQL go to the server's log only.
 */
export function errorHandler(schema: Schema, version: string, log: (message: string) => void) {
  return (error: unknown, req: Request, res: Response, next: NextFunction): void => {
    if (res.headersSent) return next(error);
    const apiError = error instanceof ApiError ? error : (translateDatabaseError(error, schema) ?? httpError(error));
    if (apiError) {
      sendJson(res, apiError.status, apiError.body, apiError.headers);
      return;
    }
    const requestId = (res.locals.requestId as string | undefined) ?? randomUUID();
    if (!res.getHeader('X-Request-ID')) res.setHeader('X-Request-ID', requestId);
    log(`unhandled error in request ${requestId} (${req.method} ${req.originalUrl}): ${describe(error)}`);
    sendJson(res, 500, {
      error: `Internal server error (request ${requestId}).`,
      exception: 'InternalServerError',
      netbox_version: version,
      node_version: process.version,
    });
  };
}

/** Errors of Express and its parsers that carry a client status (a body too large, a path that does not decode). */
function httpError(error: unknown): ApiError | null {
  const e = error as { type?: string; status?: number } | null;
  if (e?.type === 'entity.too.large' || e?.status === 413)
    return new ApiError(413, { detail: 'Request body too large.' });
  if (error instanceof URIError) return new BadRequestError('The URL is not valid percent-encoded UTF-8.');
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500)
    return new ApiError(e.status, { detail: `${STATUS_CODES[e.status] ?? 'Bad request'}.` });
  return null;
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}
