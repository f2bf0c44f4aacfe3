import { isPlainObject } from './python-values.js';

/**
 * HTTP header hygiene for outgoing webhooks. Header names and values are rendered from user templates and
 * object data, so a value must never carry a line break (which would start a new header or end the head).
 */

/** C0 controls (CR, LF and TAB included), DEL, C1 controls and the Unicode line/paragraph separators. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
/** RFC 9110 `token`: the characters a header name may have. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Removes control characters (what the `header_safe` template helper does). */
export function stripControlCharacters(text: string): string {
  return text.replace(CONTROL_CHARACTERS, '');
}

/** A header value without control characters or surrounding white space. */
export function sanitizeHeaderValue(value: string): string {
  return stripControlCharacters(value).trim();
}

/** Whether `name` may be used as a header name (or an HTTP method). */
export function isHttpToken(name: string): boolean {
  return TOKEN.test(name);
}

/**
 * A deep copy of template data whose strings (object keys included) have no control characters, used to
 * render the URL and the headers: data can then never add a line, so each header is one line of the
 * template's own text.
 */
export function sanitizeTemplateData(value: unknown): unknown {
  if (typeof value === 'string') return stripControlCharacters(value);
  if (Array.isArray(value)) return value.map(sanitizeTemplateData);
  if (isPlainObject(value)) {
    // fromEntries defines own properties, so a `__proto__` key stays data instead of becoming a prototype.
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [stripControlCharacters(key), sanitizeTemplateData(item)]),
    );
  }
  return value;
}

/**
 * Sets a header, replacing any earlier one whose name differs only in case (HTTP names are
 * case-insensitive, and a later value wins, as with NetBox's header dictionary).
 */
export function setHeader(headers: Record<string, string>, name: string, value: string): void {
  const lower = name.toLowerCase();
  for (const existing of Object.keys(headers)) if (existing.toLowerCase() === lower) delete headers[existing];
  headers[name] = value;
}

/**
 * A header value as Node writes it: Node sends each character of a header string as one byte (Latin-1),
 * so a value with characters beyond U+00FF is passed as its UTF-8 bytes instead of being refused.
 */
export function toWireHeaderValue(value: string): string {
  return /[\u0100-\uffff]/.test(value) ? Buffer.from(value, 'utf8').toString('latin1') : value;
}
