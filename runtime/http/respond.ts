import type { Response } from 'express';
import { sendBrowsable } from './browsable.js';
import type { RequestState } from './middleware.js';

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
  res.end(JSON.stringify(body, null, state?.indent));
}
