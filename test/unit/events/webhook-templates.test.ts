import { describe, expect, it } from 'vitest';
import { formatEventTimestamp } from '../../../runtime/events/context.js';
import {
  isHttpToken,
  sanitizeHeaderValue,
  sanitizeTemplateData,
  setHeader,
  toWireHeaderValue,
} from '../../../runtime/events/headers.js';
import { dumpJsonLikePython } from '../../../runtime/events/python-json.js';
import { signWebhookBody, verifyWebhookSignature } from '../../../runtime/events/signature.js';
import { buildWebhookRequest, checkPayloadUrl, renderTemplate } from '../../../runtime/events/templates.js';

/**
 * Webhook building blocks where test/runtime/webhook-templates.test.ts leaves gaps: the bytes of Python's
 * json.dumps, header hygiene, signatures, payload URLs and a few template corners.
 */

describe('dumpJsonLikePython (json.dumps with default arguments)', () => {
  it.each([
    [{ a: 'x' }, '{"a": "x"}'],
    [[1, [2, []], {}], '[1, [2, []], {}]'],
    ['DEL \u007f', '"DEL \\u007f"'],
    ['tab\tnew\nline', '"tab\\tnew\\nline"'],
    ['\u001f', '"\\u001f"'],
    ['é', '"\\u00e9"'],
    ['😀', '"\\ud83d\\ude00"'],
    [{ ключ: 1 }, '{"\\u043a\\u043b\\u044e\\u0447": 1}'],
    [{ a: undefined, b: 1 }, '{"b": 1}'],
    [[undefined, () => 1], '[null, null]'],
    [{ at: new Date('2026-01-02T03:04:05.000Z') }, '{"at": "2026-01-02T03:04:05.000Z"}'],
    [10n, '10'],
    [undefined, 'null'],
    [-0.5, '-0.5'],
  ])('value %# → %s', (value, text) => {
    expect(dumpJsonLikePython(value)).toBe(text);
  });

  it('parses back to what JSON.stringify gives', () => {
    const value = { name: 'Zürich "HQ"', list: [1, 2.5, true, null], nested: { '': '\u2028' } };
    expect(JSON.parse(dumpJsonLikePython(value))).toEqual(JSON.parse(JSON.stringify(value)));
  });
});

describe('headers', () => {
  it('recognises header names (RFC 9110 tokens)', () => {
    for (const name of ['X-Hook', 'x_custom.1', "a!#$%&'*+-.^_`|~z"]) expect(isHttpToken(name), name).toBe(true);
    for (const name of ['', 'X Hook', 'X:Hook', 'Héader', 'X\r\nY', '(x)']) expect(isHttpToken(name), name).toBe(false);
  });

  it('replaces a header of the same name in another case, keeping the later spelling', () => {
    const headers: Record<string, string> = { 'Content-Type': 'a', 'X-A': '1' };
    setHeader(headers, 'content-TYPE', 'b');
    expect(headers).toEqual({ 'X-A': '1', 'content-TYPE': 'b' });
  });

  it('trims values and strips control characters, C1 and line separators included', () => {
    expect(sanitizeHeaderValue('  a\u0085b\u2028c\u2029d\u007f  ')).toBe('abcd');
  });

  it('sends characters beyond Latin-1 as their UTF-8 bytes', () => {
    expect(toWireHeaderValue('plain')).toBe('plain');
    expect(toWireHeaderValue('café')).toBe('café');
    expect(Buffer.from(toWireHeaderValue('✓ ok'), 'latin1').toString('utf8')).toBe('✓ ok');
  });

  it('copies template data without control characters, keys included, and leaves other values alone', () => {
    const source = JSON.parse('{"a\\nb": ["x\\ry", 1, null, true], "__proto__": {"k": "v\\u0000"}}') as Record<
      string,
      unknown
    >;
    const copy = sanitizeTemplateData(source) as Record<string, unknown>;
    expect(Object.keys(copy)).toEqual(['ab', '__proto__']);
    expect(copy.ab).toEqual(['xy', 1, null, true]);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(copy, '__proto__')?.value).toEqual({ k: 'v' });
  });
});

describe('signatures', () => {
  it('accept the hex digest in any case and with surrounding white space', () => {
    const signature = signWebhookBody('{"a": 1}', 'secret');
    expect(signature).toMatch(/^[0-9a-f]{128}$/);
    expect(verifyWebhookSignature('{"a": 1}', 'secret', ` ${signature.toUpperCase()}\n`)).toBe(true);
    expect(verifyWebhookSignature(Buffer.from('{"a": 1}'), 'secret', signature)).toBe(true);
  });

  it('refuse another body, another secret, a truncated or an empty signature', () => {
    const signature = signWebhookBody('{"a": 1}', 'secret');
    expect(verifyWebhookSignature('{"a": 2}', 'secret', signature)).toBe(false);
    expect(verifyWebhookSignature('{"a": 1}', 'Secret', signature)).toBe(false);
    expect(verifyWebhookSignature('{"a": 1}', 'secret', signature.slice(0, 64))).toBe(false);
    expect(verifyWebhookSignature('{"a": 1}', 'secret', '')).toBe(false);
  });
});

describe('payload URLs', () => {
  const invalid = 'Enter a valid URL, beginning with http:// or https://.';
  it.each([
    ['HTTPS://EXAMPLE.com/hook', null],
    ['http://[2001:db8::1]:8080/hook', null],
    ['http://user:secret@example.com/', null],
    ['http://localhost:9000/', null],
    ['{{data.scheme}}://example.com/', null],
    ['http:{{data.rest}}', null],
    ['mailto:{{data.address}}', invalid],
    ['javascript:{{data.x}}', invalid],
    ['//example.com/hook', invalid],
  ])('%j → %j', (url, problem) => {
    expect(checkPayloadUrl(url)).toBe(problem);
  });

  // NetBox splits a literal URL with urllib.parse.urlsplit() and wants a host (netloc); WHATWG's URL parser,
  // used here, repairs `https:/example.com` and `http:example.com` into URLs with a host.
  it.fails.each(['https:/example.com/hook', 'http:example.com'])(
    'refuses %j, which has no host before its path (bug: accepted)',
    (url) => {
      expect(checkPayloadUrl(url)).toBe(invalid);
    },
  );

  it('are rendered from data without control characters', () => {
    const request = buildWebhookRequest(
      { payload_url: 'https://example.com/{{data.path}}', http_method: 'post' },
      { data: { path: 'a\r\nb' } },
    );
    expect(request.url).toBe('https://example.com/ab');
    expect(request.method).toBe('POST');
    expect(request.headers).toEqual({});
  });
});

describe('template corners', () => {
  it('iterate objects and arrays with @key, @index, @first and @last', () => {
    const context = { data: { tags: ['a', 'b', 'c'], cf: { x: 1, y: 2 } } };
    expect(
      renderTemplate(
        'body_template',
        '{{#each data.tags}}{{@index}}{{this}}{{#if @last}}.{{else}},{{/if}}{{/each}}',
        context,
      ),
    ).toBe('0a,1b,2c.');
    expect(renderTemplate('body_template', '{{#each data.cf}}{{@key}}={{this}};{{/each}}', context)).toBe('x=1;y=2;');
  });

  it('render missing values as nothing and look up keys with odd characters', () => {
    const context = { data: { 'odd key': 'v', list: [10, 20] } };
    expect(renderTemplate('body_template', '[{{data.missing.deeper}}]', context)).toBe('[]');
    expect(renderTemplate('body_template', '{{lookup data "odd key"}} {{data.list.[1]}}', context)).toBe('v 20');
  });

  it('format event timestamps as Python’s isoformat of an aware UTC datetime', () => {
    expect(formatEventTimestamp(new Date('2026-03-06T15:11:23.050Z'))).toBe('2026-03-06T15:11:23.050000+00:00');
    expect(formatEventTimestamp(new Date('1999-12-31T23:59:59.999Z'))).toBe('1999-12-31T23:59:59.999000+00:00');
  });
});
