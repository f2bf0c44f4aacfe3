import vm from 'node:vm';
import Handlebars from 'handlebars';
import { orderWebhookContext } from './context.js';
import {
  isHttpToken,
  sanitizeHeaderValue,
  sanitizeTemplateData,
  setHeader,
  stripControlCharacters,
} from './headers.js';
import { dumpJsonLikePython } from './python-json.js';
import { SIGNATURE_HEADER, signWebhookBody } from './signature.js';

/**
 * Webhook templates (payload URL, additional headers, body) are Handlebars, rendered in an environment of
 * their own so that nothing registered elsewhere (the generator's helpers and partials) is reachable.
 *
 * - Prototype access stays off: only own properties of the data resolve, so `{{constructor.constructor}}`
 *   or `{{__proto__}}` render nothing (the runtime options say so explicitly, which also keeps Handlebars
 *   from logging a warning per denied property).
 * - `noEscape`: bodies are JSON or plain text, never HTML; HTML-escaping would turn every `"` of a JSON
 *   body into `&quot;`. The URL is validated after rendering and headers are sanitised instead.
 * - `knownHelpersOnly`: the helpers are the built-in block helpers plus `header_safe` and `json`; `log` is
 *   removed so that a template cannot write to the server's log. An unknown helper is reported when the
 *   webhook is saved.
 */

export type WebhookTemplateField = 'payload_url' | 'additional_headers' | 'body_template';

/** Anything that prevents a webhook request from being built. Retrying will not help. */
export class WebhookBuildError extends Error {}

/** A template that does not compile or fails while rendering. */
export class TemplateError extends WebhookBuildError {
  constructor(
    readonly field: WebhookTemplateField,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
  }
}

/** The rendered payload URL is not an absolute http:// or https:// URL. */
export class WebhookUrlError extends WebhookBuildError {}

/** A rendered header name is not a valid HTTP token, or the method is not one. */
export class WebhookHeaderError extends WebhookBuildError {}

/** The webhook fields buildWebhookRequest reads (column names as in the API). */
export interface WebhookDefinition {
  payload_url: string;
  http_method: string;
  http_content_type?: string | null;
  additional_headers?: string | null;
  body_template?: string | null;
  secret?: string | null;
}

/** A request ready to send: headers in order (Content-Type, additional headers, signature). */
export interface WebhookRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
}

const environment = Handlebars.create();
environment.unregisterHelper('log');
environment.registerHelper('header_safe', (...args: unknown[]) =>
  args.length > 1 ? stripControlCharacters(displayString(args[0])) : '',
);
environment.registerHelper('json', (...args: unknown[]) =>
  args.length > 1 ? (JSON.stringify(args[0]) ?? 'null') : 'null',
);

/**
 * The size budget of the render under way (renders are synchronous, so one at a time per process): every
 * iteration of `each` (also a section over a list, `{{#items}}`, which Handlebars runs through `each`) counts what
 * it produced, so that a loop stops before it builds a huge text rather than after. Without loops a template's
 * output is bounded by its own size times the data's. Time is bounded by `renderWithin`'s watchdog.
 */
let budget: { maxLength: number; length: number } | null = null;

/** A stored template that failed while rendering: the message names the problem, nothing of the server. */
export class TemplateRenderError extends Error {}
/** A render stopped by its time or size limit. */
export class TemplateLimitError extends TemplateRenderError {}

const builtinEach = environment.helpers.each as (
  this: unknown,
  context: unknown,
  options: Handlebars.HelperOptions,
) => string;
environment.registerHelper('each', function (this: unknown, context: unknown, options: Handlebars.HelperOptions) {
  const current = budget;
  if (!current) return builtinEach.call(this, context, options);
  const fn = (item: unknown, data?: Handlebars.RuntimeOptions): string => {
    const text = options.fn(item, data);
    current.length += text.length;
    if (current.length > current.maxLength) throw tooLarge(current.maxLength);
    return text;
  };
  return builtinEach.call(this, context, { ...options, fn } as Handlebars.HelperOptions);
});

function tooLarge(maxLength: number): TemplateLimitError {
  return new TemplateLimitError(`The rendered text is longer than ${maxLength} characters.`);
}

/** The limits of one render call of a stored template. */
export interface TemplateLimits {
  /** Milliseconds one render call may take. */
  timeoutMs: number;
  /** Characters one render call may produce. */
  maxOutput: number;
}

const watchdog = new vm.Script('run()');
const sandbox = vm.createContext({ run: null as unknown });

/**
 * Runs one synchronous render of a stored template (config, export, custom link) within its limits: node:vm's
 * watchdog stops any JavaScript the call runs after `timeoutMs` (Handlebars' loops included), and `each` counts
 * the output as it grows. Limits throw TemplateLimitError, other failures TemplateRenderError.
 */
export function renderWithin(limits: TemplateLimits, render: () => string): string {
  const previous = budget;
  budget = { maxLength: limits.maxOutput, length: 0 };
  sandbox.run = render;
  let output: string;
  try {
    output = watchdog.runInContext(sandbox, { timeout: limits.timeoutMs }) as string;
  } catch (error) {
    if (error instanceof TemplateRenderError) throw error;
    if ((error as { code?: string }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
      throw new TemplateLimitError(`Rendering took longer than ${limits.timeoutMs / 1000} seconds.`);
    throw new TemplateRenderError(describeError(error));
  } finally {
    sandbox.run = null;
    budget = previous;
  }
  if (output.length > limits.maxOutput) throw tooLarge(limits.maxOutput);
  return output;
}

type CompileOptions = NonNullable<Parameters<typeof Handlebars.compile>[1]>;
const COMPILE_OPTIONS: CompileOptions = {
  noEscape: true,
  strict: false,
  knownHelpersOnly: true,
  knownHelpers: { header_safe: true, json: true, log: false },
};
const RUNTIME_OPTIONS: Handlebars.RuntimeOptions = {
  allowProtoPropertiesByDefault: false,
  allowProtoMethodsByDefault: false,
};

/** The one Handlebars environment of every stored template (webhooks, export templates, custom links). */
export const templateEnvironment = environment;
/** How every stored template is compiled (export templates and custom links too). */
export const TEMPLATE_COMPILE_OPTIONS: Readonly<CompileOptions> = COMPILE_OPTIONS;
/** How every stored template runs: no prototype access. */
export const TEMPLATE_RUNTIME_OPTIONS: Readonly<Handlebars.RuntimeOptions> = RUNTIME_OPTIONS;

/** Compiled templates by text; webhooks render the same few templates again and again. */
const cache = new Map<string, HandlebarsTemplateDelegate>();
const CACHE_SIZE = 256;

/** Handlebars prints null and undefined as nothing and anything else with String(). */
function displayString(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

/** A Handlebars error as a short message (the line and column where Handlebars gives them). */
export function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const unknownHelper = /^You specified knownHelpersOnly, but used the unknown helper (\S+) - (\d+):(\d+)/.exec(
    message,
  );
  if (unknownHelper) {
    return `Unknown helper '${unknownHelper[1]}' (line ${unknownHelper[2]}, column ${unknownHelper[3]}); available helpers: header_safe, json, if, unless, each, with, lookup.`;
  }
  return message.trim();
}

/** Checks a template's syntax (and helper names) without rendering it. Null when fine, else a message. */
export function checkTemplate(text: string): string | null {
  try {
    environment.precompile(text, COMPILE_OPTIONS);
    return null;
  } catch (error) {
    return describeError(error);
  }
}

const INVALID_PAYLOAD_URL = 'Enter a valid URL, beginning with http:// or https://.';

/**
 * Checks a payload_url when a webhook is saved (reference §11.E): a literal URL must be an absolute
 * http(s) URL with a host; a template must compile, and a literal scheme before its first tag must be http
 * or https (the rest is only known after rendering). Null when fine, else NetBox's message or the
 * template's error.
 */
export function checkPayloadUrl(text: string): string | null {
  const value = text.trim();
  const tag = value.indexOf('{{');
  if (tag >= 0) {
    const problem = checkTemplate(value);
    if (problem) return problem;
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(value.slice(0, tag))?.[1];
    return scheme !== undefined && !/^https?$/i.test(scheme) ? INVALID_PAYLOAD_URL : null;
  }
  return isHttpUrl(value) ? null : INVALID_PAYLOAD_URL;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Renders one template against the context; throws TemplateError with a readable message. */
export function renderTemplate(field: WebhookTemplateField, text: string, context: unknown): string {
  let template = cache.get(text);
  if (!template) {
    template = environment.compile(text, COMPILE_OPTIONS);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    cache.set(text, template);
  }
  try {
    return template(context, RUNTIME_OPTIONS);
  } catch (error) {
    throw new TemplateError(field, describeError(error));
  }
}

/** How a stored template (config, export, link) renders: its limits and strictness. */
export interface StoredTemplateOptions extends TemplateLimits {
  /** A missing value is an error (Jinja's StrictUndefined) instead of nothing. */
  strict?: boolean;
}

/** Compiled stored templates by strictness and text. */
const storedCache = new Map<string, HandlebarsTemplateDelegate>();

/**
 * Renders a stored template (a config template) in the webhooks' environment, within its limits. A template
 * that does not compile or fails while rendering throws TemplateRenderError, one over its limits
 * TemplateLimitError; the message names the problem (and the line, when Handlebars knows it) and nothing of the
 * server.
 */
export function renderStoredTemplate(text: string, context: unknown, options: StoredTemplateOptions): string {
  const key = `${options.strict ? 's' : 'l'}${text}`;
  let template = storedCache.get(key);
  if (!template) {
    try {
      template = environment.compile(text, { ...COMPILE_OPTIONS, strict: options.strict === true });
      // Compilation is lazy: the first call compiles, so syntax errors surface here, not at render.
      environment.precompile(text, { ...COMPILE_OPTIONS, strict: options.strict === true });
    } catch (error) {
      throw new TemplateRenderError(describeError(error));
    }
    if (storedCache.size >= CACHE_SIZE) storedCache.delete(storedCache.keys().next().value as string);
    storedCache.set(key, template);
  }
  return renderWithin(options, () => template(context, RUNTIME_OPTIONS));
}

/**
 * Builds the request NetBox would send for a webhook and an event context:
 * - URL: `payload_url` rendered; it must still be an absolute http(s) URL (WebhookUrlError otherwise).
 * - Headers: `Content-Type` (http_content_type), then each rendered `Name: Value` line of
 *   additional_headers (lines without `:` are ignored; a later header replaces an earlier one of the same
 *   name; a name that is not a token throws WebhookHeaderError). Values lose control characters, and the
 *   headers are rendered from a copy of the data without control characters, so data cannot add lines.
 * - Body: body_template rendered, or when empty the context as NetBox's JSON (its key order, Python's
 *   separators and ASCII escapes).
 * - `X-Hook-Signature`: hex HMAC-SHA512 of the body's UTF-8 bytes, only when the secret is not empty.
 */
export function buildWebhookRequest(
  webhook: WebhookDefinition,
  context: Readonly<Record<string, unknown>>,
): WebhookRequest {
  const safeContext = sanitizeTemplateData(context);
  const url = renderUrl(webhook.payload_url, safeContext);
  const method = webhook.http_method.trim().toUpperCase();
  if (!isHttpToken(method)) throw new WebhookHeaderError(`Invalid HTTP method: ${JSON.stringify(method)}`);

  const headers: Record<string, string> = {};
  const contentType = sanitizeHeaderValue(webhook.http_content_type ?? '');
  if (contentType) headers['Content-Type'] = contentType;
  for (const [name, value] of renderHeaders(webhook.additional_headers ?? '', safeContext)) {
    setHeader(headers, name, value);
  }

  const bodyTemplate = webhook.body_template ?? '';
  const body = bodyTemplate
    ? renderTemplate('body_template', bodyTemplate, context)
    : dumpJsonLikePython(orderWebhookContext(context));
  const secret = webhook.secret ?? '';
  if (secret !== '') setHeader(headers, SIGNATURE_HEADER, signWebhookBody(body, secret));
  return { url, method, headers, body };
}

function renderUrl(template: string, context: unknown): string {
  const rendered = renderTemplate('payload_url', template, context).trim();
  if (!isHttpUrl(rendered)) {
    throw new WebhookUrlError(
      `The rendered payload URL is not a valid URL beginning with http:// or https://: ${JSON.stringify(rendered)}`,
    );
  }
  // The parsed form: percent-encoded, and without the tabs and newlines the URL parser drops.
  return new URL(rendered).href;
}

/** The rendered `Name: Value` lines of additional_headers, in order. */
function renderHeaders(template: string, context: unknown): [string, string][] {
  if (!template) return [];
  const headers: [string, string][] = [];
  for (const line of renderTemplate('additional_headers', template, context).split(/\r\n|\r|\n/)) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim();
    if (!isHttpToken(name)) {
      throw new WebhookHeaderError(`Invalid header name in additional_headers: ${JSON.stringify(name)}`);
    }
    headers.push([name, sanitizeHeaderValue(line.slice(colon + 1))]);
  }
  return headers;
}
