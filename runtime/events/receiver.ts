import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A listener for trying webhooks out, like NetBox's `manage.py webhook_receiver`: it answers 200 to every
 * request and prints the request line, the headers and the body (pretty-printed when it is JSON), then a
 * separator. It does nothing else.
 */

export interface WebhookReceiverOptions {
  /** TCP port; 0 picks a free one (default 9000). */
  port?: number;
  /** Address to listen on (default 127.0.0.1). */
  host?: string;
  /** Where each request's report goes, one call per request (default console.log). */
  print?: (text: string) => void;
  /** Print the headers (default true; `--no-headers` on the command line). */
  showHeaders?: boolean;
}

export interface WebhookReceiver {
  /** The port actually bound. */
  readonly port: number;
  readonly host: string;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

export const DEFAULT_RECEIVER_PORT = 9000;
const SEPARATOR = '------------';

/** Starts the receiver; resolves once it listens. */
export async function startWebhookReceiver(options: WebhookReceiverOptions = {}): Promise<WebhookReceiver> {
  const host = options.host ?? '127.0.0.1';
  const print = options.print ?? ((text: string) => console.log(text));
  const showHeaders = options.showHeaders ?? true;
  let counter = 0;

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      counter += 1;
      response.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end('Webhook received!\n');
      print(describeRequest(counter, request, Buffer.concat(chunks), showHeaders));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_RECEIVER_PORT, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    host,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** `[n] <date> <client> "<METHOD> <target> HTTP/<version>"`, headers, a blank line, the body, a separator. */
function describeRequest(number: number, request: http.IncomingMessage, body: Buffer, showHeaders: boolean): string {
  const lines = [
    `[${number}] ${new Date().toUTCString()} ${request.socket.remoteAddress ?? '-'} "${request.method ?? ''} ${request.url ?? ''} HTTP/${request.httpVersion}"`,
  ];
  if (showHeaders) {
    for (let i = 0; i + 1 < request.rawHeaders.length; i += 2) {
      lines.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`);
    }
    lines.push('');
  }
  lines.push(describeBody(body), SEPARATOR);
  return lines.join('\n');
}

function describeBody(body: Buffer): string {
  if (body.length === 0) return '(No body)';
  const text = body.toString('utf8');
  try {
    return JSON.stringify(JSON.parse(text), null, 4);
  } catch {
    return text;
  }
}
