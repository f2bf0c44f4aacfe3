import { IncomingMessage, ServerResponse, type RequestListener } from 'node:http';
import { Duplex } from 'node:stream';

/** A request handed to the application without a socket. */
export interface InjectedRequest {
  method: string;
  /** Path and query string. */
  url: string;
  /** Header names in any case; `host` should be set (the service builds absolute URLs from it). */
  headers: Record<string, string>;
  body?: Buffer;
}

export interface InjectedResponse {
  status: number;
  headers: Headers;
  body: Buffer;
}

/**
 * The peer of an injected request: collects what the response writes, reads nothing. It looks like a
 * loopback TCP connection to the application (`remoteAddress`, no TLS).
 */
class CaptureSocket extends Duplex {
  readonly written: Buffer[] = [];
  readonly remoteAddress = '127.0.0.1';
  readonly remoteFamily = 'IPv4';
  readonly remotePort = 0;
  readonly encrypted = false;

  constructor() {
    // Never push back: nothing drains this socket as a server would (streamed files are piped into it).
    super({ writableHighWaterMark: 2 ** 30 });
  }

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.written.push(chunk);
    callback();
  }

  setTimeout(): this {
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
}

/**
 * Runs one request through a Node request listener (the Express app) in this process: Node's own
 * IncomingMessage and ServerResponse over a socket that only collects bytes, so the application runs exactly
 * as it does behind `http.createServer`, minus the HTTP parser and the kernel. Status and headers are read
 * from the response object; the body is what followed the header block (the response is told not to use
 * chunked framing).
 */
export function inject(listener: RequestListener, request: InjectedRequest): Promise<InjectedResponse> {
  return new Promise((resolve, reject) => {
    const socket = new CaptureSocket();
    const req = new IncomingMessage(socket as never);
    req.method = request.method.toUpperCase();
    req.url = request.url;
    req.httpVersionMajor = 1;
    req.httpVersionMinor = 1;
    req.httpVersion = '1.1';
    const headers: Record<string, string> = {};
    const rawHeaders: string[] = [];
    for (const [name, value] of Object.entries(request.headers)) {
      headers[name.toLowerCase()] = value;
      rawHeaders.push(name, value);
    }
    if (request.body && request.body.length > 0) {
      headers['content-length'] = String(request.body.length);
      rawHeaders.push('Content-Length', headers['content-length']);
    }
    req.headers = headers;
    req.rawHeaders = rawHeaders;
    if (request.body && request.body.length > 0) req.push(request.body);
    req.push(null);
    req.complete = true;

    const res = new ServerResponse(req);
    res.useChunkedEncodingByDefault = false;
    res.shouldKeepAlive = false;
    res.assignSocket(socket as never);
    res.on('error', reject);
    res.on('finish', () => {
      const raw = Buffer.concat(socket.written);
      const end = raw.indexOf('\r\n\r\n');
      const body = end === -1 ? Buffer.alloc(0) : raw.subarray(end + 4);
      const out = new Headers();
      for (const [name, value] of Object.entries(res.getHeaders())) {
        if (value === undefined) continue;
        for (const item of Array.isArray(value) ? value : [value]) out.append(name, String(item));
      }
      resolve({ status: res.statusCode, headers: out, body: req.method === 'HEAD' ? Buffer.alloc(0) : body });
    });
    try {
      listener(req, res);
    } catch (error) {
      reject(error as Error);
    }
  });
}
