import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { expect } from 'vitest';
import { createApp } from '../../runtime/app.js';
import type { TestApp } from '../support/app.js';
import type { ApiClient, ApiResponse } from '../support/client.js';

/**
 * Helpers of the reliability suites: a tally of what a barrage of requests got back (5xx, bodies that show
 * internals), raw HTTP over a socket (bytes no HTTP client sends), and constrained accounts.
 */

/** Text that only an internal error would put in a body: SQL, driver codes, stack frames, file paths. */
const INTERNALS =
  /\bSELECT\b|\bINSERT INTO\b|\bUPDATE\s+"|\bwhere\s+"|SQLITE_|sqlite3?\b|\bpg_|duplicate key|violates|relation "|syntax error|\bat \S+ \(|node_modules|\/work\/|\.ts:\d+|ECONN|Maximum call stack|URIError|TypeError|RangeError/i;

/** Counts the answers to bad requests: how many, how many 5xx, how many bodies leak internals. */
export class Tally {
  sent = 0;
  serverErrors: string[] = [];
  leaks: string[] = [];

  record(label: string, status: number, text: string): void {
    this.sent += 1;
    if (status >= 500) this.serverErrors.push(`${label}: ${status} ${text.slice(0, 200)}`);
    if (INTERNALS.test(text)) this.leaks.push(`${label}: ${status} ${text.slice(0, 200)}`);
  }

  /** Sends a request with the client and records its answer. */
  async send(client: ApiClient, method: string, path: string, options: Parameters<ApiClient['request']>[2] = {}) {
    const response = await client.request(method, path, options);
    this.record(`${method} ${path}`, response.status, response.text);
    return response;
  }

  expectClean(): void {
    expect(this.serverErrors, this.serverErrors.join('\n')).toEqual([]);
    expect(this.leaks, this.leaks.join('\n')).toEqual([]);
  }
}

export interface RawResponse {
  status: number;
  headers: string;
  body: string;
}

/**
 * Sends raw bytes to the app over a real socket and reads the answer until the server closes the connection
 * (the request should say `Connection: close`). For requests an HTTP client cannot make: invalid UTF-8, a
 * malformed Host header.
 */
export async function rawRequest(app: TestApp, bytes: Buffer | string): Promise<RawResponse> {
  const server: Server = await new Promise((resolve) => {
    const s = createApp(app.context).listen(0, '127.0.0.1', () => resolve(s));
  });
  try {
    const port = (server.address() as AddressInfo).port;
    const text = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.on('error', reject);
      socket.write(bytes);
    });
    const split = text.indexOf('\r\n\r\n');
    const head = text.slice(0, split);
    return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head, body: text.slice(split + 4) };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** A request's bytes: the line, Host and Connection: close, more headers, and a body with its length. */
export function rawHttp(
  method: string,
  path: string,
  options: { host?: string | null; headers?: Record<string, string>; body?: Buffer } = {},
): Buffer {
  const lines = [`${method} ${path} HTTP/1.1`];
  if (options.host !== null) lines.push(`Host: ${options.host ?? '127.0.0.1'}`);
  lines.push('Connection: close', 'Accept: application/json');
  for (const [name, value] of Object.entries(options.headers ?? {})) lines.push(`${name}: ${value}`);
  if (options.body) lines.push(`Content-Length: ${options.body.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), options.body ?? Buffer.alloc(0)]);
}

export const PASSWORD = 'Reliable-Password-1';

/** A user with a v2 token (write-enabled unless told) and the given object permissions. */
export async function account(
  app: TestApp,
  username: string,
  permissions: { object_types: string[]; actions: string[]; constraints?: unknown }[],
  token: { write_enabled?: boolean } = {},
): Promise<{ id: number; client: ApiClient }> {
  const user = await app.api.post('/api/users/users/', { username, password: PASSWORD });
  expect(user.status, user.text).toBe(201);
  for (const [index, permission] of permissions.entries()) {
    const created = await app.api.post('/api/users/permissions/', {
      name: `${username}-${index}`,
      users: [user.body.id],
      ...permission,
    });
    expect(created.status, created.text).toBe(201);
  }
  const created = await app.api.post('/api/users/tokens/', { user: user.body.id, ...token });
  expect(created.status, created.text).toBe(201);
  return { id: user.body.id, client: app.api.as(`Bearer svc_${created.body.key}.${created.body.token}`) };
}

/** Status and body text of responses, for messages of failed expectations. */
export const show = (response: ApiResponse): string => `${response.status} ${response.text.slice(0, 300)}`;
