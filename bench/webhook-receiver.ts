import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort } from 'node:worker_threads';

/**
 * The worker-thread entry of the webhook scenario's receiver: a node:http server on 127.0.0.1 that answers
 * every request 200 as soon as its body has arrived and notes when that was. It runs in its own thread so
 * that receiving neither waits for nor slows the service's event loop, where the worker delivering runs.
 */

/** One request received; `atMs` is process.hrtime in milliseconds, the same clock in every thread. */
export interface Receipt {
  atMs: number;
  method: string;
  path: string;
  /** The body's `event`, `object_type` and `data.id` (null when the body is not such JSON). */
  event: string | null;
  objectType: string | null;
  id: number | null;
}

/** What the main thread asks: a `reached` message once `count` requests arrived, or every receipt. */
export type ReceiverCommand = { kind: 'notify'; count: number } | { kind: 'collect' };

/** What the receiver reports. */
export type ReceiverMessage =
  { kind: 'listening'; port: number } | { kind: 'reached'; count: number } | { kind: 'receipts'; receipts: Receipt[] };

const port = parentPort!;
const receipts: Receipt[] = [];
let notifyAt: number | null = null;

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const atMs = Number(process.hrtime.bigint()) / 1e6;
    res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    receipts.push({ atMs, method: req.method ?? '', path: req.url ?? '', ...summarizeBody(Buffer.concat(chunks)) });
    if (notifyAt !== null && receipts.length >= notifyAt) notify();
  });
});

function summarizeBody(body: Buffer): Pick<Receipt, 'event' | 'objectType' | 'id'> {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as {
      event?: unknown;
      object_type?: unknown;
      data?: { id?: unknown };
    };
    return {
      event: typeof parsed.event === 'string' ? parsed.event : null,
      objectType: typeof parsed.object_type === 'string' ? parsed.object_type : null,
      id: typeof parsed.data?.id === 'number' ? parsed.data.id : null,
    };
  } catch {
    return { event: null, objectType: null, id: null };
  }
}

function post(message: ReceiverMessage): void {
  port.postMessage(message);
}

function notify(): void {
  notifyAt = null;
  post({ kind: 'reached', count: receipts.length });
}

port.on('message', (command: ReceiverCommand) => {
  switch (command.kind) {
    case 'notify':
      notifyAt = command.count;
      if (receipts.length >= command.count) notify();
      break;
    case 'collect':
      post({ kind: 'receipts', receipts });
      break;
  }
});

server.listen(0, '127.0.0.1', () => post({ kind: 'listening', port: (server.address() as AddressInfo).port }));
