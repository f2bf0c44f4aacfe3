import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createWebhookContext,
  formatEventTimestamp,
  webhookEventName,
  type WebhookContext,
} from '../../runtime/events/context.js';
import { sendWebhook } from '../../runtime/events/deliver.js';
import { dumpJsonLikePython } from '../../runtime/events/python-json.js';
import { verifyWebhookSignature } from '../../runtime/events/signature.js';
import {
  buildWebhookRequest,
  checkPayloadUrl,
  checkTemplate,
  renderTemplate,
  TemplateError,
  WebhookBuildError,
  WebhookHeaderError,
  WebhookUrlError,
  type WebhookDefinition,
} from '../../runtime/events/templates.js';

const context: WebhookContext = createWebhookContext({
  eventType: 'object_created',
  time: new Date('2026-03-06T15:11:23.503Z'),
  objectType: 'app.thing',
  username: 'admin',
  data: { id: 4, url: '/api/app/things/4/', name: 'Thing "1" é', tags: [{ slug: 'a' }, { slug: 'b' }] },
  request: { id: '17af32f0-0000-4000-8000-000000000000', method: 'POST', path: '/api/app/things/', user: 'admin' },
  snapshots: { prechange: null, postchange: { name: 'Thing "1" é' } },
});

const webhook: WebhookDefinition = {
  payload_url: 'http://example.com/hooks/{{data.id}}',
  http_method: 'POST',
  http_content_type: 'application/json',
  additional_headers: '',
  body_template: '',
  secret: '',
};

describe('the webhook context', () => {
  it('maps event types, formats timestamps like Python and keeps NetBox’s key order', () => {
    expect(
      ['object_created', 'object_updated', 'object_deleted', 'job_started', 'job_failed', 'custom'].map(
        webhookEventName,
      ),
    ).toEqual(['created', 'updated', 'deleted', 'job_started', 'job_ended', 'custom']);
    expect(formatEventTimestamp(new Date('2026-03-06T15:11:23.503Z'))).toBe('2026-03-06T15:11:23.503000+00:00');
    expect(formatEventTimestamp(new Date('2026-03-06T15:11:23.000Z'))).toBe('2026-03-06T15:11:23+00:00');
    expect(Object.keys(context)).toEqual([
      'event',
      'timestamp',
      'object_type',
      'username',
      'request_id',
      'data',
      'request',
      'snapshots',
    ]);
    expect(context.request_id).toBe(context.request?.id);
    const bare = createWebhookContext({
      eventType: 'object_deleted',
      time: new Date(),
      objectType: 'a.b',
      username: null,
      data: {},
    });
    expect(Object.keys(bare)).toEqual(['event', 'timestamp', 'object_type', 'username', 'request_id', 'data']);
  });
});

describe('checkTemplate', () => {
  it.each([
    '',
    'plain',
    '{{data.name}}',
    '{{#each data.tags}}{{slug}},{{/each}}',
    '{{json data}}',
    '{{header_safe data.name}}',
    '{{#if data}}x{{else}}y{{/if}}',
  ])('accepts %j', (text) => expect(checkTemplate(text)).toBeNull());

  it('reports syntax errors and unknown helpers', () => {
    expect(checkTemplate('{{#if data}}')).toMatch(/^Parse error on line 1/);
    expect(checkTemplate('{{data.name')).toMatch(/^Parse error/);
    expect(checkTemplate('{{upper data.name}}')).toBe(
      "Unknown helper 'upper' (line 1, column 0); available helpers: header_safe, json, if, unless, each, with, lookup.",
    );
    expect(checkTemplate('{{log "hello"}}')).toMatch(/^Unknown helper 'log'/);
  });
});

describe('checkPayloadUrl', () => {
  const invalid = 'Enter a valid URL, beginning with http:// or https://.';
  it.each([
    ['http://example.com/hook', null],
    [' https://example.com:8443/a?b=c ', null],
    ['https://{{data.host}}/hook', null],
    ['{{data.url}}', null],
    ['ftp://example.com/', invalid],
    ['example.com/hook', invalid],
    ['http://', invalid],
    ['', invalid],
    ['file://{{data.path}}', invalid],
  ])('%j → %j', (url, expected) => expect(checkPayloadUrl(url)).toBe(expected));

  it('reports template errors', () => {
    expect(checkPayloadUrl('http://{{data.host}')).toMatch(/^Parse error/);
  });
});

describe('rendering', () => {
  it('does not HTML-escape, and offers json and header_safe', () => {
    expect(renderTemplate('body_template', '{"name": "{{data.name}}"} <&>', context)).toBe(
      '{"name": "Thing "1" é"} <&>',
    );
    expect(JSON.parse(renderTemplate('body_template', '{{json data}}', context))).toEqual(context.data);
    expect(renderTemplate('body_template', '{{json data.missing}}|{{json}}', context)).toBe('null|null');
    expect(renderTemplate('body_template', '[{{header_safe x}}]', { x: 'a\r\nb\tc\u0000d\u0085e' })).toBe('[abcde]');
  });

  it('blocks prototype access', () => {
    const payloads = [
      '{{constructor}}{{constructor.constructor}}{{__proto__}}{{data.__proto__}}{{data.constructor.name}}',
      '{{lookup this "constructor"}}{{lookup data "__proto__"}}{{data.toString}}{{data.name.constructor}}',
    ];
    for (const payload of payloads) expect(renderTemplate('body_template', payload, context)).toBe('');
    expect(() =>
      renderTemplate('body_template', '{{#with data}}{{constructor.constructor "return 1"}}{{/with}}', context),
    ).toThrow(TemplateError);
    // The classic Handlebars remote-code-execution payload: Array methods are not reachable.
    const rce = `{{#with "s" as |string|}}{{#with "e"}}{{#with split as |conslist|}}{{this.pop}}{{this.push (lookup string.sub "constructor")}}{{this.pop}}{{#with string.split as |codelist|}}{{this.pop}}{{this.push "globalThis.__pwned = 1"}}{{this.pop}}{{#each conslist}}{{#with (string.sub.apply 0 codelist)}}{{this}}{{/with}}{{/each}}{{/with}}{{/with}}{{/with}}{{/with}}`;
    try {
      renderTemplate('body_template', rce, context);
    } catch (error) {
      expect(error).toBeInstanceOf(TemplateError);
    }
    expect((globalThis as Record<string, unknown>).__pwned).toBeUndefined();
    // An own `__proto__` key in JSON data is plain data, not a prototype.
    const parsed = JSON.parse('{"data": {"__proto__": {"polluted": "yes"}}}');
    expect(renderTemplate('body_template', '{{data.polluted}}|{{json data}}', parsed)).toBe(
      '|{"__proto__":{"polluted":"yes"}}',
    );
  });

  it('throws TemplateError with the field and a readable reason', () => {
    expect(() => renderTemplate('body_template', '{{#each data}}', context)).toThrow(TemplateError);
    expect(() => renderTemplate('body_template', '{{> partial}}', context)).toThrow(
      'body_template: The partial partial could not be found',
    );
    try {
      buildWebhookRequest({ ...webhook, additional_headers: 'X-A: {{#if}}' }, context);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(TemplateError);
      expect(error).toBeInstanceOf(WebhookBuildError);
      expect((error as TemplateError).field).toBe('additional_headers');
    }
  });
});

describe('buildWebhookRequest', () => {
  it('sends the context as NetBox’s JSON when there is no body template', () => {
    const request = buildWebhookRequest(webhook, context);
    expect(request).toMatchObject({ url: 'http://example.com/hooks/4', method: 'POST' });
    expect(request.headers).toEqual({ 'Content-Type': 'application/json' });
    expect(JSON.parse(request.body)).toEqual(context);
    expect(
      request.body.startsWith(
        '{"event": "created", "timestamp": "2026-03-06T15:11:23.503000+00:00", "object_type": "app.thing", "username": "admin", "request_id": "17af32f0',
      ),
    ).toBe(true);
    expect(request.body).toContain('"name": "Thing \\"1\\" \\u00e9"');
    expect(dumpJsonLikePython({ a: [1, true, null], b: {} })).toBe('{"a": [1, true, null], "b": {}}');
  });

  it('orders a context given in another order like NetBox', () => {
    const shuffled = {
      data: { id: 1 },
      event: 'updated',
      extra: 1,
      timestamp: 't',
      snapshots: null,
      object_type: 'a.b',
    };
    expect(Object.keys(JSON.parse(buildWebhookRequest(webhook, shuffled).body))).toEqual([
      'event',
      'timestamp',
      'object_type',
      'data',
      'snapshots',
      'extra',
    ]);
  });

  it('renders the body template, the method and the headers in order', () => {
    const request = buildWebhookRequest(
      {
        ...webhook,
        http_method: 'patch',
        http_content_type: 'text/plain',
        additional_headers:
          'X-Event: {{event}}\nnot a header line\n\nX-Tags: {{#each data.tags}}{{slug}} {{/each}}\r\ncontent-type: application/x-custom\nX-Empty:',
        body_template: '{{event}} {{data.name}}',
      },
      context,
    );
    expect(request.method).toBe('PATCH');
    expect(request.body).toBe('created Thing "1" é');
    expect(Object.entries(request.headers)).toEqual([
      ['X-Event', 'created'],
      ['X-Tags', 'a b'],
      ['content-type', 'application/x-custom'],
      ['X-Empty', ''],
    ]);
  });

  it('neutralises header injection from data and from the content type', () => {
    const evil = {
      ...context,
      data: { name: 'x\r\nX-Injected: 1\r\n\r\nbody', ['k\nX-Key-Injected: 1']: 'v' },
    };
    const request = buildWebhookRequest(
      {
        ...webhook,
        http_content_type: 'application/json\r\nX-Type-Injected: 1',
        additional_headers:
          'X-Name: {{data.name}}\nX-Safe: {{header_safe data.name}}\n{{#each data}}X-Each: {{@key}}\n{{/each}}',
      },
      evil,
    );
    expect(request.headers).toEqual({
      'Content-Type': 'application/jsonX-Type-Injected: 1',
      'X-Name': 'xX-Injected: 1body',
      'X-Safe': 'xX-Injected: 1body',
      'X-Each': 'kX-Key-Injected: 1',
    });
    for (const value of Object.values(request.headers)) expect(value).not.toMatch(/[\r\n]/);
    expect(() => buildWebhookRequest({ ...webhook, additional_headers: 'Bad Name: 1' }, context)).toThrow(
      WebhookHeaderError,
    );
    expect(() => buildWebhookRequest({ ...webhook, http_method: 'PO ST' }, context)).toThrow(WebhookHeaderError);
  });

  it('requires an http(s) URL after rendering', () => {
    for (const payload_url of [
      '{{data.scheme}}://example.com/',
      'javascript:alert(1)',
      '{{data.missing}}',
      'http://',
    ]) {
      expect(() => buildWebhookRequest({ ...webhook, payload_url }, { data: { scheme: 'file' } })).toThrow(
        WebhookUrlError,
      );
    }
    const request = buildWebhookRequest(
      { ...webhook, payload_url: ' https://example.com/{{data.name}}?q={{data.id}} ' },
      { data: { id: 1, name: 'a b\nc' } },
    );
    expect(request.url).toBe('https://example.com/a%20bc?q=1');
  });

  it('signs the body only when there is a secret', () => {
    expect(buildWebhookRequest(webhook, context).headers).not.toHaveProperty('X-Hook-Signature');
    const { headers, body } = buildWebhookRequest(
      { ...webhook, secret: 'sécret', additional_headers: 'X-Hook-Signature: forged' },
      context,
    );
    const expected = createHmac('sha512', Buffer.from('sécret', 'utf8'))
      .update(Buffer.from(body, 'utf8'))
      .digest('hex');
    expect(headers['X-Hook-Signature']).toBe(expected);
    expect(Object.keys(headers)).toEqual(['Content-Type', 'X-Hook-Signature']);
  });
});

describe('the signature as a receiver sees it', () => {
  const received: { headers: http.IncomingHttpHeaders; body: Buffer }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.end('ok');
    });
  });
  let base = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it.each([
    ['the default body', ''],
    ['a templated body with non-ASCII text', '{"name": "{{data.name}}", "emoji": "✓"}'],
  ])('equals an HMAC-SHA512 of the received bytes for %s', async (_name, body_template) => {
    const secret = 'top-secret-ключ';
    const request = buildWebhookRequest(
      { ...webhook, payload_url: `${base}/hook/{{data.id}}`, body_template, secret },
      context,
    );
    const result = await sendWebhook(request, {
      timeoutMs: 5000,
      sslVerification: true,
      caFilePath: null,
      followRedirects: false,
      deniedNetworks: [],
    });
    expect(result).toMatchObject({ ok: true, status: 200, error: null, responseBody: 'ok' });
    const last = received.at(-1)!;
    const hmac = createHmac('sha512', Buffer.from(secret, 'utf8')).update(last.body).digest('hex');
    expect(last.headers['x-hook-signature']).toBe(hmac);
    expect(last.headers['content-type']).toBe('application/json');
    expect(verifyWebhookSignature(last.body, secret, hmac)).toBe(true);
    expect(verifyWebhookSignature(last.body, 'other', hmac)).toBe(false);
    expect(last.body.toString('utf8')).toBe(request.body);
  });
});
