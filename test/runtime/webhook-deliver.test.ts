import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { isIP, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../runtime/config.js';
import { RESPONSE_BODY_LIMIT, sendWebhook, type DeliveryOptions } from '../../runtime/events/deliver.js';
import type { HostLookup } from '../../runtime/events/targets.js';
import type { WebhookRequest } from '../../runtime/events/templates.js';

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const received: Received[] = [];
const routes: Record<string, (res: http.ServerResponse) => void> = {
  '/ok': (res) => res.writeHead(201).end('created'),
  '/fail': (res) => res.writeHead(500, 'Internal Server Error').end('boom'),
  '/slow': (res) => setTimeout(() => res.end('late'), 2000).unref(),
  '/big': (res) => res.end('x'.repeat(100_000)),
  '/redirect': (res) => res.writeHead(302, { Location: '/ok' }).end(),
  '/redirect-307': (res) => res.writeHead(307, { Location: '/ok' }).end(),
  '/redirect-loop': (res) => res.writeHead(301, { Location: '/redirect-loop' }).end(),
  '/not-modified': (res) => res.writeHead(304).end(),
  '/redirect-metadata': (res) => res.writeHead(302, { Location: 'http://metadata.test/latest/' }).end(),
  '/redirect-literal': (res) => res.writeHead(307, { Location: 'http://[::ffff:169.254.169.254]/' }).end(),
  '/redirect-named': (res) => res.writeHead(302, { Location: `http://receiver.test:${port}/ok` }).end(),
};

function handler(req: http.IncomingMessage, res: http.ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    received.push({
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    });
    (routes[req.url ?? ''] ?? ((r: http.ServerResponse) => r.writeHead(404).end()))(res);
  });
}

const server = http.createServer(handler);
let base = '';
let port = 0;
const DENIED = loadSettings({}, {}).WEBHOOK_DENIED_NETWORKS;
const options: DeliveryOptions = {
  timeoutMs: 5000,
  sslVerification: true,
  caFilePath: null,
  followRedirects: false,
  deniedNetworks: DENIED,
};

/**
 * A resolver for tests: each name has a list of answers, given in turn (the last one again and again), so
 * that a name can point elsewhere between two deliveries; `asked` lists every name looked up.
 */
function fakeDns(table: Record<string, string[][]>): { lookup: HostLookup; asked: string[] } {
  const asked: string[] = [];
  const lookup: HostLookup = async (name) => {
    asked.push(name);
    const answers = table[name];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
    return answer.map((address) => ({ address, family: isIP(address) }));
  };
  return { lookup, asked };
}

function request(pathname: string, extra: Partial<WebhookRequest> = {}): WebhookRequest {
  return {
    url: `${base}${pathname}`,
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{"event": "created"}',
    ...extra,
  };
}

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('sendWebhook over http', () => {
  it('succeeds on a 2xx, sending the method, headers and body', async () => {
    const result = await sendWebhook(
      request('/ok', { headers: { 'Content-Type': 'application/json', 'X-Name': 'Zürich ✓', 'Content-Length': '1' } }),
      options,
    );
    expect(result).toEqual({ status: 201, ok: true, error: null, refused: false, responseBody: 'created' });
    const last = received.at(-1)!;
    expect(last).toMatchObject({ method: 'POST', url: '/ok', body: '{"event": "created"}' });
    expect(last.headers['content-length']).toBe('20');
    // A value beyond Latin-1 travels as its UTF-8 bytes.
    expect(Buffer.from(last.headers['x-name'] as string, 'latin1').toString('utf8')).toBe('Zürich ✓');
  });

  it('fails on a 500, keeping the status and the response body', async () => {
    expect(await sendWebhook(request('/fail'), options)).toEqual({
      status: 500,
      ok: false,
      error: 'HTTP 500 Internal Server Error',
      refused: false,
      responseBody: 'boom',
    });
    expect(await sendWebhook(request('/not-modified'), options)).toMatchObject({ status: 304, ok: false });
  });

  it('fails on a time-out', async () => {
    const started = Date.now();
    const result = await sendWebhook(request('/slow'), { ...options, timeoutMs: 200 });
    expect(result).toEqual({
      status: null,
      ok: false,
      error: 'Timed out after 200 ms',
      refused: false,
      responseBody: '',
    });
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('fails when the connection is refused', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const result = await sendWebhook({ ...request('/'), url: `http://127.0.0.1:${port}/` }, options);
    expect(result.ok).toBe(false);
    expect(result.status).toBeNull();
    expect(result.error).toMatch(/^Connection refused \(connect ECONNREFUSED 127\.0\.0\.1:\d+\)$/);
  });

  it('does not follow a redirect unless allowed', async () => {
    expect(await sendWebhook(request('/redirect'), options)).toEqual({
      status: 302,
      ok: false,
      error: `Redirect not followed: 302 to ${base}/ok`,
      refused: false,
      responseBody: '',
    });
    expect(received.at(-1)!.url).toBe('/redirect');
  });

  it('follows redirects like python-requests when allowed', async () => {
    const follow = { ...options, followRedirects: true };
    expect(await sendWebhook(request('/redirect'), follow)).toMatchObject({ status: 201, ok: true });
    expect(received.at(-1)).toMatchObject({ method: 'GET', url: '/ok', body: '' });
    expect(received.at(-1)!.headers['content-type']).toBeUndefined();
    expect(await sendWebhook(request('/redirect-307'), follow)).toMatchObject({ status: 201, ok: true });
    expect(received.at(-1)).toMatchObject({ method: 'POST', url: '/ok', body: '{"event": "created"}' });
    expect(await sendWebhook(request('/redirect-loop'), { ...follow, maxRedirects: 2 })).toMatchObject({
      status: 301,
      ok: false,
      error: 'Too many redirects (more than 2)',
    });
  });

  it('keeps only the start of a large response body', async () => {
    const result = await sendWebhook(request('/big'), options);
    expect(result.ok).toBe(true);
    expect(result.responseBody).toBe('x'.repeat(RESPONSE_BODY_LIMIT));
  });

  it('never throws for bad input', async () => {
    expect(await sendWebhook({ ...request('/'), url: 'not a url' }, options)).toMatchObject({
      ok: false,
      error: 'Invalid URL: not a url',
    });
    expect(await sendWebhook({ ...request('/'), url: 'ftp://127.0.0.1/' }, options)).toMatchObject({ ok: false });
    expect(await sendWebhook({ ...request('/ok'), headers: { 'Bad Name': 'x' } }, options)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Invalid request: /),
    });
    expect(await sendWebhook(request('/ok'), { ...options, caFilePath: '/nonexistent/ca.pem' })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Cannot read the CA file \/nonexistent\/ca\.pem: /),
    });
  });
});

describe('sendWebhook and WEBHOOK_DENIED_NETWORKS', () => {
  const deliveries = (): number => received.length;

  it('connects a name to the address it checked, resolving it once per delivery', async () => {
    // The name answers an allowed address, then a metadata address: a connection that resolved the name
    // again after the check (DNS rebinding) would not reach the receiver.
    const dns = fakeDns({ 'receiver.test': [['127.0.0.1'], ['169.254.169.254']] });
    const url = `http://receiver.test:${port}/ok`;
    const sent = await sendWebhook({ ...request('/'), url }, { ...options, lookup: dns.lookup });
    expect(sent).toEqual({ status: 201, ok: true, error: null, refused: false, responseBody: 'created' });
    expect(received.at(-1)!.headers.host).toBe(`receiver.test:${port}`);
    expect(dns.asked).toEqual(['receiver.test']);

    // The next delivery finds the name changed: refused before anything is sent.
    const before = deliveries();
    expect(await sendWebhook({ ...request('/'), url }, { ...options, lookup: dns.lookup })).toEqual({
      status: null,
      ok: false,
      error:
        'Webhooks may not target receiver.test: it resolves to 169.254.169.254, which is in WEBHOOK_DENIED_NETWORKS.',
      refused: true,
      responseBody: '',
    });
    expect(deliveries()).toBe(before);
  });

  it('refuses a name when any of its addresses is denied', async () => {
    const dns = fakeDns({ 'mixed.test': [['127.0.0.1', 'fd00:ec2::254']] });
    const before = deliveries();
    const result = await sendWebhook(
      { ...request('/'), url: `http://mixed.test:${port}/ok` },
      { ...options, lookup: dns.lookup },
    );
    expect(result).toMatchObject({ ok: false, refused: true, status: null });
    expect(result.error).toBe(
      'Webhooks may not target mixed.test: it resolves to fd00:ec2::254, which is in WEBHOOK_DENIED_NETWORKS.',
    );
    expect(deliveries()).toBe(before);
  });

  it('refuses a name the system resolves into a denied network, and literal addresses', async () => {
    const before = deliveries();
    const loopback = { ...options, deniedNetworks: [...DENIED, '127.0.0.0/8', '::1/128'] };
    const named = await sendWebhook({ ...request('/'), url: `http://localhost:${port}/ok` }, loopback);
    expect(named).toMatchObject({ ok: false, refused: true });
    expect(named.error).toMatch(/^Webhooks may not target localhost: it resolves to (127\.0\.0\.1|::1), which is in/);
    for (const [url, address] of [
      [`http://127.0.0.1:${port}/ok`, '127.0.0.1'],
      ['http://169.254.169.254/latest/', '169.254.169.254'],
      ['http://0xA9FEA9FE/', '169.254.169.254'],
      ['http://[::ffff:169.254.169.254]/', '::ffff:a9fe:a9fe'],
    ]) {
      expect(await sendWebhook({ ...request('/'), url: url! }, loopback)).toMatchObject({
        ok: false,
        refused: true,
        error: `Webhooks may not target ${address}: the address is in WEBHOOK_DENIED_NETWORKS.`,
      });
    }
    expect(deliveries()).toBe(before);
  });

  it('checks every redirect as it checks the first request', async () => {
    const dns = fakeDns({ 'metadata.test': [['169.254.169.254']], 'receiver.test': [['127.0.0.1']] });
    const follow = { ...options, followRedirects: true, lookup: dns.lookup };
    expect(await sendWebhook(request('/redirect-metadata'), follow)).toEqual({
      status: 302,
      ok: false,
      error:
        'Redirect to http://metadata.test/latest/ not followed: Webhooks may not target metadata.test: it resolves ' +
        'to 169.254.169.254, which is in WEBHOOK_DENIED_NETWORKS.',
      refused: true,
      responseBody: '',
    });
    expect(await sendWebhook(request('/redirect-literal'), follow)).toMatchObject({
      status: 307,
      refused: true,
      error: expect.stringMatching(/not followed: Webhooks may not target ::ffff:a9fe:a9fe: /),
    });
    expect(received.at(-1)!.url).toBe('/redirect-literal');
    expect(await sendWebhook(request('/redirect-named'), follow)).toMatchObject({ status: 201, ok: true });
    expect(received.at(-1)!.headers.host).toBe(`receiver.test:${port}`);
    expect(dns.asked).toEqual(['metadata.test', 'receiver.test']);
  });

  it('fails without refusing when a name does not resolve (it may later)', async () => {
    const dns = fakeDns({});
    expect(
      await sendWebhook({ ...request('/'), url: 'http://nowhere.test/' }, { ...options, lookup: dns.lookup }),
    ).toEqual({
      status: null,
      ok: false,
      error: 'Host not found (getaddrinfo ENOTFOUND nowhere.test)',
      refused: false,
      responseBody: '',
    });
    const silent: HostLookup = () => new Promise(() => undefined);
    expect(
      await sendWebhook(
        { ...request('/'), url: 'http://silent.test/' },
        { ...options, timeoutMs: 100, lookup: silent },
      ),
    ).toMatchObject({ ok: false, refused: false, error: 'Timed out after 100 ms (resolving silent.test)' });
  });
});

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

describe.skipIf(!hasOpenssl)('sendWebhook over https', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhook-tls-'));
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  let tlsServer: https.Server;
  let url = '';

  beforeAll(async () => {
    const made = spawnSync('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ]);
    expect(made.status, made.stderr.toString()).toBe(0);
    tlsServer = https.createServer({ key: fs.readFileSync(keyFile), cert: fs.readFileSync(certFile) }, handler);
    await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(tlsServer.address() as AddressInfo).port}/ok`;
  });
  afterAll(async () => {
    tlsServer.closeAllConnections();
    await new Promise((resolve) => tlsServer.close(resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses an untrusted certificate, unless verification is off or the CA file trusts it', async () => {
    const refused = await sendWebhook({ ...request('/'), url }, options);
    expect(refused).toMatchObject({ ok: false, status: null });
    expect(refused.error).toMatch(/^TLS error \(self[- ]signed certificate/);
    expect(await sendWebhook({ ...request('/'), url }, { ...options, sslVerification: false })).toMatchObject({
      ok: true,
      status: 201,
    });
    expect(await sendWebhook({ ...request('/'), url }, { ...options, caFilePath: certFile })).toMatchObject({
      ok: true,
      status: 201,
    });
  });

  it('verifies the certificate against the name, not the address it connects to', async () => {
    const dns = fakeDns({ localhost: [['127.0.0.1']], 'other.test': [['127.0.0.1']] });
    const named = { ...options, caFilePath: certFile, lookup: dns.lookup };
    const { port: tlsPort } = new URL(url);
    expect(await sendWebhook({ ...request('/'), url: `https://localhost:${tlsPort}/ok` }, named)).toMatchObject({
      ok: true,
      status: 201,
    });
    const other = await sendWebhook({ ...request('/'), url: `https://other.test:${tlsPort}/ok` }, named);
    expect(other).toMatchObject({ ok: false, refused: false });
    expect(other.error).toMatch(/^TLS error \(Hostname\/IP does not match certificate's altnames/);
  });
});
