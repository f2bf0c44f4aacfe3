import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Date.now() when the body had arrived. */
  at: number;
  /** The status it was answered with. */
  status: number;
}

/**
 * A real HTTP receiver for webhooks: records every request and answers `status` after `delayMs`, or what
 * `respond` decides for a request (its status).
 */
export class Receiver {
  readonly received: Received[] = [];
  status = 200;
  delayMs = 0;
  respond: ((request: Received) => number) | null = null;
  url = '';
  private server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const request: Received = {
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(parts).toString('utf8'),
        at: Date.now(),
        status: this.status,
      };
      request.status = this.respond?.(request) ?? this.status;
      this.received.push(request);
      setTimeout(() => res.writeHead(request.status).end(request.status === 200 ? 'ok' : 'boom'), this.delayMs);
    });
  });

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Parsed JSON bodies of requests to `path`. */
  bodies(path: string): any[] {
    return this.received.filter((r) => r.url === path).map((r) => JSON.parse(r.body));
  }
}

/** Waits until `check` holds, polling every 25 ms; throws after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}
