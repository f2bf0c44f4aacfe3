import type { ResponseValidator } from './openapi.js';

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
 * A small HTTP client over real sockets (fetch). Every JSON response of an `/api/` URL is validated against
 * the OpenAPI document, so that a test fails when the service answers something it does not document.
 */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly auth: string | null,
    private readonly validator: ResponseValidator | null,
  ) {}

  /** The same client with other credentials (null: anonymous). */
  as(auth: string | null): ApiClient {
    return new ApiClient(this.baseUrl, auth, this.validator);
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
    const response = await fetch(url, { method, headers, body, redirect: options.follow ? 'follow' : 'manual' });
    const text = await response.text();
    let parsed: unknown;
    if (text && (response.headers.get('content-type') ?? '').includes('json')) parsed = JSON.parse(text);
    const result: ApiResponse = { status: response.status, headers: response.headers, body: parsed, text };
    this.validator?.check(method, new URL(response.url || url).pathname, result);
    return result;
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
