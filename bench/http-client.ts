import http from 'node:http';

/** The Host header of every benchmark request, so that the service and the baseline render the same URLs. */
export const BENCH_HOST = 'netbox.bench';

/** A response read to the end. */
export interface TextResponse {
  status: number;
  text: string;
}

/** One request over `agent` to 127.0.0.1:`port`; a body is sent as JSON. */
export function request(
  agent: http.Agent,
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<TextResponse> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          host: BENCH_HOST,
          accept: 'application/json',
          ...headers,
          ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Like `request`, but fails unless the status is `expected`, and parses the JSON body. */
export async function requestJson<T>(
  agent: http.Agent,
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  expected: number,
  body?: unknown,
): Promise<T> {
  const res = await request(agent, port, method, path, headers, body);
  if (res.status !== expected) {
    throw new Error(`${method} ${path} answered ${res.status} (expected ${expected}): ${res.text.slice(0, 500)}`);
  }
  return JSON.parse(res.text) as T;
}
