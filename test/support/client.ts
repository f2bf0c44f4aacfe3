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
    let body: string | undefined;
    if (options.raw !== undefined) body = options.raw;
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
