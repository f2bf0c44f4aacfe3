import type { Response } from 'express';
import { stateOf } from './middleware.js';

/** Sends JSON (pretty-printed when the client asked for an indent). */
export function sendJson(res: Response, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const indent = res.locals.state ? stateOf(res).indent : undefined;
  res.status(status);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/json');
  res.end(JSON.stringify(body, null, indent));
}
