import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import multer from 'multer';
import type { UploadedFile } from '../rest/images.js';
import type { Schema } from '../rest/schema.js';
import { queryLineTarget } from './browsable.js';
import { parseJsonBody, checkJsonValue } from './json.js';
import { checkHost, checkParams, checkPath, setSecurityHeaders } from './request-checks.js';
import {
  BadRequestError,
  NotAcceptableError,
  NotFoundError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
} from '../errors.js';
import type { RequestState } from './request-state.js';

/**
 * Assigns the request id, sets the headers every response carries (errors included) and reads the
 * Accept header: its JSON parameters, and whether a browser asked for the browsable API.
 */
export function requestState(apiVersion: string, basePath: string, schema?: Schema, allowedHosts: string[] = ['*']) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const requestId = randomUUID();
    res.setHeader('X-Request-ID', requestId);
    res.setHeader('API-Version', apiVersion);
    res.setHeader('Vary', 'Accept');
    setSecurityHeaders(res);
    res.locals.requestId = requestId;
    const host = req.get('host');
    checkHost(host, allowedHosts);
    checkPath(req);
    const origin = `${req.protocol}://${host ?? 'localhost'}`;
    // The path is appended, not resolved: `//elsewhere/…` stays a path on this origin.
    const url = new URL(`${origin}${req.originalUrl}`);
    checkParams(url.searchParams);
    const state: RequestState = {
      requestId,
      siteRoot: `${origin}${basePath}`,
      apiRoot: `${origin}${basePath}/api`,
      url,
      params: url.searchParams,
      indent: undefined,
      browsable: false,
      schema,
    };
    res.locals.state = state;
    // The best quality given to HTML and to JSON, and which of them the header names first.
    let html = 0;
    let json = 0;
    let htmlFirst = false;
    const accept = req.get('accept') ?? '';
    for (const part of accept.split(',')) {
      const [type, ...parameters] = part.split(';').map((s) => s.trim());
      if (type === 'text/html') {
        const q = qualityOf(parameters);
        htmlFirst ||= json === 0 && q > 0;
        html = Math.max(html, q);
      }
      if (type !== 'application/json') continue;
      json = Math.max(json, qualityOf(parameters));
      for (const parameter of parameters) {
        const [name, value = ''] = parameter.split('=').map((s) => s.trim());
        if (name === 'indent' && /^\d+$/.test(value)) state.indent = Math.min(Number(value), 8);
        if (name === 'version' && value !== apiVersion) {
          return next(new NotAcceptableError('Invalid version in "Accept" header.'));
        }
      }
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      const format = url.searchParams.get('format');
      state.browsable =
        format === 'api' || (format !== 'json' && (html > json || (html > 0 && html === json && htmlFirst)));
    }
    // The browsable API's query line is one text field: its submission becomes the page's query string.
    const target = state.browsable ? queryLineTarget(url, `${basePath}/api/`) : null;
    if (target !== null) return res.redirect(303, target);
    next();
  };
}

/** The `q` of an Accept entry's parameters (1 when absent, 0 when malformed). */
function qualityOf(parameters: string[]): number {
  const q = parameters.find((p) => /^q\s*=/.test(p));
  if (q === undefined) return 1;
  const value = Number(q.slice(q.indexOf('=') + 1).trim());
  return Number.isFinite(value) && value > 0 ? Math.min(value, 1) : 0;
}

/**
 * A path without its trailing slash: safe methods are redirected (302, query kept); writes get a 404 that
 * names the right path, because a redirect would turn them into GETs and drop their bodies.
 */
export function trailingSlash(req: Request, res: Response, next: NextFunction): void {
  const path = req.path;
  if (path.endsWith('/') || !path.startsWith('/api') || path.startsWith('/api/schema/swagger-ui/')) return next();
  const slashed = `${req.baseUrl}${path}/`;
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') {
    const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?')) : '';
    res.redirect(302, `${slashed}${query}`);
    return;
  }
  next(new NotFoundError(`Not found. ${req.method} requests need the trailing slash: ${slashed}`));
}

/**
 * Reads JSON bodies: `application/json` with any parameters (also pynetbox's `application/json;`), a size
 * limit, NetBox's errors for malformed JSON (400) and other media types (415). Multipart bodies are left to
 * the upload handler of the endpoints that accept them.
 */
export function jsonBody(limit: number) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const length = Number(req.get('content-length') ?? 0);
    const chunked = req.get('transfer-encoding') !== undefined;
    if (!chunked && !(length > 0)) {
      req.body = undefined;
      return next();
    }
    const mediaType = (req.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (mediaType === 'multipart/form-data') return next();
    if (mediaType !== 'application/json' && !mediaType.endsWith('+json')) {
      req.resume();
      return next(new UnsupportedMediaTypeError(mediaType || 'none'));
    }
    if (length > limit) {
      req.resume();
      return next(new PayloadTooLargeError(limit));
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit && !failed) {
        failed = true;
        next(new PayloadTooLargeError(limit));
      }
      if (!failed) chunks.push(chunk);
    });
    req.on('error', (error) => {
      if (!failed) next(error);
      failed = true;
    });
    req.on('end', () => {
      if (failed) return;
      try {
        req.body = parseJsonBody(Buffer.concat(chunks));
        next();
      } catch (error) {
        next(error);
      }
    });
  };
}

/**
 * `multipart/form-data` bodies (file uploads): text fields become strings, each file an `UploadedFile`
 * under its field name. Files are held in memory up to `maxFileSize` bytes (413 beyond); the whole form is
 * still bounded by `maxBodySize`.
 */
export function multipartBody(maxFileSize: number, maxBodySize: number) {
  const parse = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: maxFileSize, files: 10, fields: 200, fieldSize: maxBodySize, parts: 210 },
  }).any();
  return (req: Request, res: Response, next: NextFunction): void => {
    const mediaType = (req.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (mediaType !== 'multipart/form-data') return next();
    parse(req, res, (error: unknown) => {
      if (error instanceof multer.MulterError) {
        req.resume();
        if (error.code === 'LIMIT_FILE_SIZE') return next(new PayloadTooLargeError(maxFileSize, 'Uploaded file'));
        return next(new BadRequestError(`Multipart form parse error - ${error.message}`));
      }
      if (error) return next(new BadRequestError(`Multipart form parse error - ${(error as Error).message}`));
      const body: Record<string, unknown> = { ...(req.body as Record<string, unknown>) };
      try {
        checkJsonValue(body);
      } catch (problem) {
        return next(problem);
      }
      for (const file of (req.files as Express.Multer.File[] | undefined) ?? []) {
        const upload: UploadedFile = { originalName: file.originalname, size: file.size, buffer: file.buffer };
        body[file.fieldname] = upload;
      }
      req.body = body;
      res.locals.form = true;
      next();
    });
  };
}
