import fs from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { toWireHeaderValue } from './headers.js';
import { checkTarget, pinnedLookup, systemLookup, type HostLookup, type TargetCheck } from './targets.js';
import type { WebhookRequest } from './templates.js';

/**
 * Sends a built webhook request with node:http/node:https (so that certificate verification can be turned
 * off per webhook and a CA file can replace the default trust store, as `verify=` does in NetBox) and
 * reports the outcome. It never throws for a network problem: every failure is a result with `ok: false`
 * and an error a person can act on. Before each request (redirects included) the host is resolved and
 * checked against the denied networks (targets.ts), and the connection goes to a checked address.
 */

export interface DeliveryOptions {
  /** Budget for the whole exchange (connect, send, receive, redirects), in milliseconds. */
  timeoutMs: number;
  /** Verify the server's certificate (the webhook's ssl_verification). */
  sslVerification: boolean;
  /** A PEM file of CA certificates to trust instead of the defaults (the webhook's ca_file_path). */
  caFilePath: string | null;
  /** Follow 301/302/303/307/308 like python-requests; otherwise a redirect is a failure. */
  followRedirects: boolean;
  /** Most redirects followed (default 5). */
  maxRedirects?: number;
  /** Networks never connected to (WEBHOOK_DENIED_NETWORKS). */
  deniedNetworks: readonly string[];
  /** Resolves host names (default: the system resolver). */
  lookup?: HostLookup;
}

export interface DeliveryResult {
  /** The final response's status, or null when there was none (connection error, time-out). */
  status: number | null;
  /** True for a 2xx response. */
  ok: boolean;
  /** Why the delivery failed, or null. */
  error: string | null;
  /**
   * True when a request was not sent because its host (or a redirect's) lies in WEBHOOK_DENIED_NETWORKS: a
   * failure that a retry would repeat.
   */
  refused: boolean;
  /** The start of the final response's body (at most RESPONSE_BODY_LIMIT bytes, decoded as UTF-8). */
  responseBody: string;
}

/** Bytes of a response body kept for the task record. */
export const RESPONSE_BODY_LIMIT = 2048;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

interface Hop {
  status: number | null;
  statusMessage: string;
  location: string | null;
  body: string;
  error: string | null;
}

/** Sends the request and reports the outcome; see DeliveryResult. */
export async function sendWebhook(request: WebhookRequest, options: DeliveryOptions): Promise<DeliveryResult> {
  const deadline = Date.now() + options.timeoutMs;
  let ca: Buffer | undefined;
  if (options.sslVerification && options.caFilePath) {
    try {
      ca = await fs.readFile(options.caFilePath);
    } catch (error) {
      return failure(null, `Cannot read the CA file ${options.caFilePath}: ${(error as Error).message}`);
    }
  }
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return failure(null, `Invalid URL: ${request.url}`);
  }
  let method = request.method;
  let headers = { ...request.headers };
  let body: Buffer | null = Buffer.from(request.body, 'utf8');
  const maxRedirects = options.maxRedirects ?? 5;
  /** The status of the redirect that led to the current URL. */
  let previous: number | null = null;

  for (let redirects = 0; ; redirects += 1) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return failure(null, `Unsupported URL scheme: ${url.protocol}`);
    }
    const check = await checkHost(url, options, deadline);
    if (check.kind !== 'allowed') {
      const error = redirects === 0 ? check.reason : `Redirect to ${url.href} not followed: ${check.reason}`;
      return { ...failure(previous, error), refused: check.kind === 'refused' };
    }
    const hop = await sendOnce(url, method, headers, body, {
      timeoutMs: Math.max(deadline - Date.now(), 1),
      totalTimeoutMs: options.timeoutMs,
      rejectUnauthorized: options.sslVerification,
      ca,
      lookup: pinnedLookup(check.addresses),
    });
    if (hop.error !== null) return { ...failure(hop.status, hop.error), responseBody: hop.body };
    const status = hop.status ?? 0;
    if (status >= 200 && status < 300) return { status, ok: true, error: null, refused: false, responseBody: hop.body };
    if (!REDIRECT_STATUSES.has(status) || hop.location === null) {
      return { ...failure(status, statusLine(hop)), responseBody: hop.body };
    }
    let target: URL;
    try {
      target = new URL(hop.location, url);
    } catch {
      return { ...failure(status, `Invalid redirect location: ${hop.location}`), responseBody: hop.body };
    }
    if (!options.followRedirects) {
      return { ...failure(status, `Redirect not followed: ${status} to ${target.href}`), responseBody: hop.body };
    }
    if (redirects >= maxRedirects) {
      return { ...failure(status, `Too many redirects (more than ${maxRedirects})`), responseBody: hop.body };
    }
    previous = status;
    // python-requests' rules: 303 (and 302, 301 for POST) become a GET without a body.
    if (((status === 302 || status === 303) && method !== 'HEAD') || (status === 301 && method === 'POST')) {
      method = 'GET';
    }
    if (status !== 307 && status !== 308) {
      body = null;
      headers = withoutHeaders(headers, ['content-type', 'content-length', 'transfer-encoding']);
    }
    if (target.origin !== url.origin) headers = withoutHeaders(headers, ['authorization']);
    url = target;
  }
}

function failure(status: number | null, error: string): DeliveryResult {
  return { status, ok: false, error, refused: false, responseBody: '' };
}

/** Resolves and checks the URL's host within the delivery's time budget. */
async function checkHost(url: URL, options: DeliveryOptions, deadline: number): Promise<TargetCheck> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<TargetCheck>((resolve) => {
    const reason = `Timed out after ${options.timeoutMs} ms (resolving ${url.hostname})`;
    timer = setTimeout(() => resolve({ kind: 'unresolved', reason }), Math.max(deadline - Date.now(), 1));
  });
  try {
    return await Promise.race([
      checkTarget(url.hostname, options.deniedNetworks, options.lookup ?? systemLookup),
      expired,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

function statusLine(hop: Hop): string {
  return `HTTP ${hop.status ?? ''}${hop.statusMessage ? ` ${hop.statusMessage}` : ''}`;
}

function withoutHeaders(headers: Record<string, string>, names: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name.toLowerCase())));
}

interface HopOptions {
  timeoutMs: number;
  totalTimeoutMs: number;
  rejectUnauthorized: boolean;
  ca: Buffer | undefined;
  /** Answers with the checked addresses (a literal host is connected to without a lookup). */
  lookup: LookupFunction;
}

function sendOnce(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | null,
  options: HopOptions,
): Promise<Hop> {
  return new Promise<Hop>((resolve) => {
    let settled = false;
    let status: number | null = null;
    let statusMessage = '';
    let location: string | null = null;
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (error: string | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const text = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString('utf8');
      resolve({ status, statusMessage, location, body: text, error });
    };

    const wireHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(withoutHeaders(headers, ['content-length', 'transfer-encoding']))) {
      wireHeaders[name] = toWireHeaderValue(value);
    }
    if (body) wireHeaders['Content-Length'] = String(body.length);

    let request: http.ClientRequest;
    try {
      const requestOptions: https.RequestOptions = { method, headers: wireHeaders, lookup: options.lookup };
      if (url.protocol === 'https:') {
        requestOptions.rejectUnauthorized = options.rejectUnauthorized;
        if (options.ca) requestOptions.ca = options.ca;
      }
      request = (url.protocol === 'https:' ? https : http).request(url, requestOptions);
    } catch (error) {
      resolve({ status, statusMessage, location, body: '', error: `Invalid request: ${(error as Error).message}` });
      return;
    }
    const timer = setTimeout(() => {
      settle(`Timed out after ${options.totalTimeoutMs} ms`);
      request.destroy();
    }, options.timeoutMs);

    request.on('error', (error) => settle(describeNetworkError(error)));
    request.on('response', (response) => {
      status = response.statusCode ?? null;
      statusMessage = response.statusMessage ?? '';
      location = response.headers.location ?? null;
      response.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.length;
        // Enough kept: stop downloading a large body.
        if (size >= RESPONSE_BODY_LIMIT) {
          settle(null);
          response.destroy();
        }
      });
      response.on('end', () => settle(null));
      response.on('error', (error) => settle(describeNetworkError(error)));
      response.on('close', () => settle(response.complete ? null : 'The connection closed before the response ended'));
    });
    request.end(body ?? undefined);
  });
}

/** A readable reason for a failed connection, keeping Node's own message (host, port, code). */
function describeNetworkError(error: Error & { code?: string; errors?: Error[] }): string {
  const message = error.message || (error.errors ?? []).map((e) => e.message).join('; ') || String(error.code);
  const code = error.code ?? '';
  if (code === 'ECONNREFUSED') return `Connection refused (${message})`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `Host not found (${message})`;
  if (code === 'ECONNRESET') return `Connection reset (${message})`;
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_|ERR_OSSL/.test(code)) return `TLS error (${message})`;
  return `Connection error (${message})`;
}
