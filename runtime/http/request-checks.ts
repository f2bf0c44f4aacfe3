import express, { type NextFunction, type Request, type Response } from 'express';
import { BadRequestError, ValidationError } from '../errors.js';
import { checkJsonValue, textProblem } from './json.js';

/**
 * Checks every request passes before any handler sees it: a well-formed Host named by ALLOWED_HOSTS (the
 * host is copied into every absolute URL of a response), a path that decodes, and query parameters without
 * characters no database can compare. Also the headers that keep browsers from sniffing, framing or loading
 * foreign content into the service's pages.
 */

/** Django's host syntax: a name or a bracketed IPv6 address, then an optional port. */
const HOST = /^([a-z0-9.-]+|\[[a-f0-9]*:[a-f0-9.:]+\])(:\d+)?$/i;

/** The Host header's name (lower-cased, without port or trailing dot); a 400 when malformed or not allowed. */
export function checkHost(header: string | undefined, allowed: readonly string[]): string {
  // HTTP/1.0 clients may send no Host at all: they get the local name, as before.
  if (header === undefined) return 'localhost';
  const match = HOST.exec(header);
  // A port beyond 65535 makes no URL: every absolute URL of the response would fail to build.
  if (!match || (match[2] !== undefined && Number(match[2].slice(1)) > 65535)) {
    throw new BadRequestError('Invalid Host header.');
  }
  const name = match[1]!.toLowerCase().replace(/\.$/, '');
  if (!allowed.some((pattern) => hostMatches(name, pattern.toLowerCase()))) {
    throw new BadRequestError('Invalid Host header: the host is not in ALLOWED_HOSTS.');
  }
  return name;
}

/** Django's patterns: `*` any host, `.example.com` the domain and its subdomains, else the exact name. */
function hostMatches(host: string, pattern: string): boolean {
  if (pattern === '*') return true;
  if (pattern.startsWith('.')) return host === pattern.slice(1) || host.endsWith(pattern);
  return host === pattern.replace(/\.$/, '');
}

/** A path whose percent-encoding is not UTF-8 names nothing the service has: a 400, not a crash later. */
export function checkPath(req: Request): void {
  try {
    decodeURIComponent(req.path);
  } catch {
    throw new BadRequestError('The URL path is not valid percent-encoded UTF-8.');
  }
}

/** Query parameters holding NUL or lone surrogates: a 400 naming them (as a filter form would). */
export function checkParams(params: URLSearchParams): void {
  const errors: Record<string, string[]> = {};
  for (const [name, value] of params) {
    const problem = textProblem(name) ?? textProblem(value);
    if (problem) errors[textProblem(name) ? 'non_field_errors' : name] = [problem];
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

/**
 * Pages load scripts, styles and images from the service only (Swagger UI's inline styles and data: images
 * included), may not be framed, and no response is content-sniffed.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export function setSecurityHeaders(res: Response): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('Referrer-Policy', 'same-origin');
}

/** HTML forms (`application/x-www-form-urlencoded`) of the pages: parsed, then held to the JSON bodies' rules. */
export function formBody(limit: string) {
  const parse = express.urlencoded({ extended: false, limit });
  return (req: Request, res: Response, next: NextFunction): void => {
    parse(req, res, (error?: unknown) => {
      if (error) return next(error);
      try {
        checkJsonValue(req.body);
        next();
      } catch (problem) {
        next(problem);
      }
    });
  };
}
