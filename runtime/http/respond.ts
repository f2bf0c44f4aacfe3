import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';
import { sendBrowsable } from './browsable.js';
import type { RequestState } from './request-state.js';

/**
 * Sends JSON (pretty-printed when the client asked for an indent); a browser gets the same body as the
 * browsable API's HTML page.
 */
export function sendJson(res: Response, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const state = res.locals.state as RequestState | undefined;
  res.status(status);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  if (state?.browsable) return sendBrowsable(res, state, body);
  res.setHeader('Content-Type', 'application/json');
  // Encoded first: Node writes the headers and a buffer together, where a string would be copied behind them.
  res.end(Buffer.from(JSON.stringify(body, null, state?.indent)));
}

/** A large document that never changes while the process runs, encoded once. */
export interface StaticDocument {
  contentType: string;
  etag: string;
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
}

/** Encodes `text` once: as is, gzip and Brotli, with a strong ETag of its content. */
export function staticDocument(contentType: string, text: string): StaticDocument {
  const identity = Buffer.from(text);
  return {
    contentType,
    etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
    identity,
    gzip: gzipSync(identity, { level: 9 }),
    br: brotliCompressSync(identity, {
      params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: identity.length },
    }),
  };
}

/**
 * Sends a static document compressed when the client accepts it (Brotli, else gzip), cacheable but revalidated
 * (`no-cache` with its ETag), and 304 Not Modified when the client's copy is current.
 */
export function sendDocument(req: Request, res: Response, document: StaticDocument): void {
  res.setHeader('ETag', document.etag);
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('Vary', 'Accept, Accept-Encoding');
  const match = req.get('if-none-match');
  if (match && match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === document.etag)) {
    res.status(304).end();
    return;
  }
  const accepted = req.get('accept-encoding') ?? '';
  const [encoding, body] = /\bbr\b/.test(accepted)
    ? ['br', document.br]
    : /\bgzip\b/.test(accepted)
      ? ['gzip', document.gzip]
      : [null, document.identity];
  res.status(200).setHeader('Content-Type', document.contentType);
  if (encoding) res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', String(body.length));
  res.end(req.method === 'HEAD' ? undefined : body);
}
