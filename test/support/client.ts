import type { RequestListener } from 'node:http';
import { inject } from './inject.js';

export interface ResponseValidator {
  /**
   * Throws when a JSON response of a documented operation does not match its schema. `url` is the request's
   * absolute URL: `fields`, `omit` and `brief` narrow the documented representations to their `Selected…` form.
   */
  check(method: string, url: string, response: ApiResponse): void;
  /** Operations that responses were checked against (`GET /api/dcim/sites/`). */
  covered: Set<string>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON (undefined for empty or non-JSON bodies). */
  body: any;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Send this text as the body instead of JSON-encoding `body`. */
  raw?: string;
  headers?: Record<string, string>;
  /** Do not follow redirects (default: not followed). */
  follow?: boolean;
}

/**
 * A small HTTP client. Requests for the service's own URLs run in-process through the application's request
 * listener when one is given (no socket, no HTTP parser: a socket proves nothing for most tests), else over
 * real sockets with fetch. Every JSON response of an `/api/` URL is validated against the OpenAPI document,
 * so that a test fails when the service answers something it does not document.
 */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly auth: string | null,
    private readonly validator: ResponseValidator | null,
    /** The application, for in-process requests; null: every request goes over a socket. */
    private readonly listener: RequestListener | null = null,
  ) {}

  /** The same client with other credentials (null: anonymous). */
  as(auth: string | null): ApiClient {
    return new ApiClient(this.baseUrl, auth, this.validator, this.listener);
  }

  /** The same client over real sockets. */
  overSockets(): ApiClient {
    return new ApiClient(this.baseUrl, this.auth, this.validator, null);
  }

  async request(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    if (this.auth) headers.Authorization = this.auth;
    let body: string | FormData | undefined;
    if (options.raw !== undefined) body = options.raw;
    else if (hasFiles(options.body)) body = toForm(options.body);
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const url = path.startsWith('http') ? path : `${this.baseUrl}${path}`;
    const {
      status,
      headers: responseHeaders,
      text,
      finalUrl,
    } = this.listener && url.startsWith(this.baseUrl)
      ? await this.injected(method, url, headers, body, options.follow ?? false)
      : await this.fetched(method, url, headers, body, options.follow ?? false);
    let parsed: unknown;
    if (text && (responseHeaders.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
    const result: ApiResponse = { status, headers: responseHeaders, body: parsed, text };
    this.validator?.check(method, finalUrl, result);
    return result;
  }

  private async fetched(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | FormData | undefined,
    follow: boolean,
  ): Promise<{ status: number; headers: Headers; text: string; finalUrl: string }> {
    const response = await fetch(url, { method, headers, body, redirect: follow ? 'follow' : 'manual' });
    return {
      status: response.status,
      headers: response.headers,
      text: await response.text(),
      finalUrl: response.url || url,
    };
  }

  private async injected(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | FormData | undefined,
    follow: boolean,
  ): Promise<{ status: number; headers: Headers; text: string; finalUrl: string }> {
    let bytes: Buffer | undefined;
    if (body instanceof FormData) {
      // The multipart encoding (and its boundary) exactly as fetch would send it.
      const encoded = new Request(url, { method, body });
      headers['Content-Type'] = encoded.headers.get('content-type')!;
      bytes = Buffer.from(await encoded.arrayBuffer());
    } else if (body !== undefined) {
      bytes = Buffer.from(body, 'utf8');
    }
    const target = new URL(url);
    for (let redirects = 0; ; redirects += 1) {
      const response = await inject(this.listener!, {
        method,
        url: `${target.pathname}${target.search}`,
        headers: { Host: target.host, ...headers },
        body: bytes,
      });
      const location = response.headers.get('location');
      if (follow && location && response.status >= 300 && response.status < 400 && redirects < 10) {
        const next = new URL(location, target);
        target.href = next.href;
        if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
          method = 'GET';
          bytes = undefined;
        }
        continue;
      }
      return {
        status: response.status,
        headers: response.headers,
        text: response.body.toString('utf8'),
        finalUrl: target.href,
      };
    }
  }

  get(path: string, options?: RequestOptions): Promise<ApiResponse> {
    return this.request('GET', path, options);
  }
  post(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse> {
    return this.request('POST', path, { ...options, body });
  }
  put(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse> {
    return this.request('PUT', path, { ...options, body });
  }
  patch(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse> {
    return this.request('PATCH', path, { ...options, body });
  }
  delete(path: string, body?: unknown, options?: RequestOptions): Promise<ApiResponse> {
    return this.request('DELETE', path, { ...options, body });
  }
  options(path: string, options?: RequestOptions): Promise<ApiResponse> {
    return this.request('OPTIONS', path, options);
  }
}

/** A body object with a file among its values: sent as multipart/form-data. */
function hasFiles(body: unknown): body is Record<string, unknown> {
  return (
    typeof body === 'object' &&
    body !== null &&
    !Array.isArray(body) &&
    Object.values(body).some((v) => v instanceof Blob)
  );
}

/** A form as a browser would send it: files as parts, null as empty text, structured values as JSON. */
function toForm(body: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [key, value] of Object.entries(body)) {
    if (value instanceof Blob) form.append(key, value);
    else if (value === null || value === undefined) form.append(key, '');
    else form.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  return form;
}
