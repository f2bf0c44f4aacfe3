import type { FieldSpec } from '../spec.js';
import { parseDateInput, parseDateTimeInput } from '../db/clock.js';
import { isIP } from 'node:net';
import { parseIp } from './ip.js';
import { isUploadedFile } from './images.js';

/** The outcome of parsing one written value: the stored value, or error messages for the field. */
export type Parsed = { ok: true; value: unknown } | { ok: false; errors: string[] };

const ok = (value: unknown): Parsed => ({ ok: true, value });
const fail = (...errors: string[]): Parsed => ({ ok: false, errors });

const SLUG = /^[-a-zA-Z0-9_]+$/;
const UNICODE_SLUG = /^[-\p{L}\p{N}_]+$/u;
const COLOR = /^[0-9a-f]{6}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URL_PATTERN = /^[a-z][a-z0-9+.-]*:\/\/[^\s]+$/i;
const TIME_ZONES = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);

/**
 * Parses a scalar field's written value with DRF's rules and messages. FKs are resolved elsewhere;
 * `null` has been handled by the caller.
 */
export function parseFieldValue(field: FieldSpec, value: unknown): Parsed {
  switch (field.kind) {
    case 'string':
    case 'password':
      return parseString(field, value);
    case 'integer':
      return parseInteger(field, value);
    case 'decimal':
      return parseDecimal(field, value);
    case 'boolean':
      return parseBooleanValue(value);
    case 'date': {
      const parsed = typeof value === 'string' ? parseDateInput(value) : null;
      return parsed ? ok(parsed) : fail('Date has wrong format. Use one of these formats instead: YYYY-MM-DD.');
    }
    case 'datetime': {
      const parsed = typeof value === 'string' ? parseDateTimeInput(value) : null;
      return parsed
        ? ok(parsed)
        : fail(
            'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
          );
    }
    case 'json':
      return ok(value);
    case 'choice':
      return parseChoice(field, value);
    case 'list':
      return parseList(field, value);
    case 'object_types':
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
        return fail(`Expected a list of items but got type "${pythonType(value)}".`);
      }
      if (value.length === 0 && field.allowEmpty === false) return fail(EMPTY_LIST);
      return ok(value);
    case 'content_type':
      if (typeof value !== 'string' || !/^[a-z_]+\.[a-z0-9_]+$/.test(value)) {
        return fail("Invalid value. Specify a content type as '<app_label>.<model_name>'.");
      }
      return field.targets.includes(value) ? ok(value) : fail(`Invalid content type: ${value}`);
    case 'ip_network': {
      const parsed = typeof value === 'string' ? parseIp(value) : null;
      if (!parsed) return fail(`Invalid IP prefix format: ${String(value)}`);
      if (parsed.address !== parsed.network) {
        return fail(`${String(value).trim()} is not a valid prefix. Did you mean ${parsed.network}/${parsed.len}?`);
      }
      return ok(`${parsed.network}/${parsed.len}`);
    }
    case 'ip_interface': {
      const parsed = typeof value === 'string' ? parseIp(value) : null;
      if (!parsed) return fail(`Invalid IP address format: ${String(value)}`);
      return ok(`${parsed.address}/${parsed.len}`);
    }
    case 'image':
      return isUploadedFile(value)
        ? ok(value)
        : fail('The submitted data was not a file. Check the encoding type on the form.');
    case 'fk':
    case 'm2m':
    case 'generic_fk':
    case 'ip_family':
    case 'constant':
    case 'computed':
    case 'alias':
      throw new Error(`${field.kind} values are not parsed here`);
  }
}

function parseString(field: FieldSpec & { kind: 'string' | 'password' }, value: unknown): Parsed {
  if (typeof value === 'boolean' || (typeof value !== 'string' && typeof value !== 'number'))
    return fail('Not a valid string.');
  const text = field.kind === 'password' ? String(value) : String(value).trim();
  const blank = field.kind === 'string' && field.blank;
  if (text === '') return blank ? ok('') : fail('This field may not be blank.');
  if (field.maxLength !== undefined && [...text].length > field.maxLength) {
    return fail(`Ensure this field has no more than ${field.maxLength} characters.`);
  }
  if (field.kind === 'password') return ok(text);
  if (field.pattern && !new RegExp(field.pattern, 'u').test(text))
    return fail(field.patternMessage ?? 'Enter a valid value.');
  const cased = field.case === 'upper' ? text.toUpperCase() : field.case === 'lower' ? text.toLowerCase() : text;
  if (cased !== text) return ok(cased);
  switch (field.format) {
    case 'slug':
      return SLUG.test(text)
        ? ok(text)
        : fail('Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.');
    case 'unicode-slug':
      return UNICODE_SLUG.test(text)
        ? ok(text)
        : fail('Enter a valid "slug" consisting of Unicode letters, numbers, underscores, or hyphens.');
    case 'color':
      return COLOR.test(text) ? ok(text) : fail('Enter a valid hexadecimal RGB color code.');
    case 'email':
      return EMAIL.test(text)
        ? ok(text.replace(/@(.*)$/, (_, domain: string) => `@${domain.toLowerCase()}`))
        : fail('Enter a valid email address.');
    case 'url':
      return URL_PATTERN.test(text) ? ok(text) : fail('Enter a valid URL.');
    case 'timezone':
      return TIME_ZONES.has(text) ? ok(text) : fail('A valid timezone is required.');
    default:
      return ok(text);
  }
}

function parseInteger(field: FieldSpec & { kind: 'integer' }, value: unknown): Parsed {
  let number: number;
  if (typeof value === 'number') number = value;
  else if (typeof value === 'string' && /^\s*-?\d+(\.0*)?\s*$/.test(value)) number = Number(value);
  else return fail('A valid integer is required.');
  if (!Number.isInteger(number) || !Number.isSafeInteger(number)) return fail('A valid integer is required.');
  if (field.max !== undefined && number > field.max)
    return fail(`Ensure this value is less than or equal to ${field.max}.`);
  if (field.min !== undefined && number < field.min)
    return fail(`Ensure this value is greater than or equal to ${field.min}.`);
  return ok(number);
}

function parseDecimal(field: FieldSpec & { kind: 'decimal' }, value: unknown): Parsed {
  let text: string;
  if (typeof value === 'number' && Number.isFinite(value)) text = String(value);
  else if (typeof value === 'string' && /^\s*[-+]?(\d+(\.\d*)?|\.\d+)\s*$/.test(value)) text = value.trim();
  else return fail('A valid number is required.');
  const number = Number(text);
  const [whole = '', fraction = ''] = text.replace(/^[-+]/, '').replace(/e.*$/i, '').split('.');
  const wholeDigits = whole.replace(/^0+/, '').length;
  const fractionDigits = fraction.replace(/0+$/, '').length;
  if (wholeDigits + fractionDigits > field.maxDigits) {
    return fail(`Ensure that there are no more than ${field.maxDigits} digits in total.`);
  }
  if (fractionDigits > field.decimalPlaces) {
    return fail(`Ensure that there are no more than ${field.decimalPlaces} decimal places.`);
  }
  if (wholeDigits > field.maxDigits - field.decimalPlaces) {
    return fail(
      `Ensure that there are no more than ${field.maxDigits - field.decimalPlaces} digits before the decimal point.`,
    );
  }
  if (field.max !== undefined && number > field.max)
    return fail(`Ensure this value is less than or equal to ${field.max}.`);
  if (field.min !== undefined && number < field.min)
    return fail(`Ensure this value is greater than or equal to ${field.min}.`);
  return ok(number);
}

function parseBooleanValue(value: unknown): Parsed {
  if (value === true || value === false) return ok(value);
  if (value === 1 || value === 0) return ok(value === 1);
  if (typeof value === 'string') {
    const lowered = value.trim().toLowerCase();
    if (['true', '1', 'yes', 'on', 't', 'y'].includes(lowered)) return ok(true);
    if (['false', '0', 'no', 'off', 'f', 'n'].includes(lowered)) return ok(false);
  }
  return fail('Must be a valid boolean.');
}

function parseChoice(field: FieldSpec & { kind: 'choice' }, value: unknown): Parsed {
  if (typeof value === 'object' && value !== null) {
    return fail('Value must be passed directly (e.g. "foo": 123); do not use a dictionary or list.');
  }
  if (value === '') return field.blank ? ok('') : fail('This field may not be blank.');
  let candidate: unknown = value;
  if (value === 'true') candidate = true;
  else if (value === 'false') candidate = false;
  else if (typeof value === 'string' && /^-?\d+$/.test(value)) candidate = Number(value);
  const found = field.choices.find(([v]) => v === value || v === candidate || String(v) === String(value));
  if (found) return ok(found[0]);
  return fail(field.raw ? `"${String(value)}" is not a valid choice.` : `${String(value)} is not a valid choice.`);
}

/** DRF's message for an empty list where one is required. */
const EMPTY_LIST = 'This list may not be empty.';

function parseList(field: FieldSpec & { kind: 'list' }, value: unknown): Parsed {
  if (!Array.isArray(value)) return fail(`Expected a list of items but got type "${pythonType(value)}".`);
  if (field.maxItems !== undefined && value.length > field.maxItems) {
    return fail(`Ensure this field has no more than ${field.maxItems} elements.`);
  }
  if (value.length === 0 && field.allowEmpty === false) return fail(EMPTY_LIST);
  const items: unknown[] = [];
  for (const item of value) {
    if (field.items === 'integer') {
      if (!Number.isInteger(item)) return fail('A valid integer is required.');
      if (field.min !== undefined && (item as number) < field.min)
        return fail(`Ensure this value is greater than or equal to ${field.min}.`);
      if (field.max !== undefined && (item as number) > field.max)
        return fail(`Ensure this value is less than or equal to ${field.max}.`);
      items.push(item);
    } else if (field.items === 'ip_network') {
      const network = typeof item === 'string' ? normalizeNetwork(item) : null;
      if (!network) return fail(`Enter a valid IPv4 or IPv6 address or network: ${String(item)}`);
      items.push(network);
    } else {
      if (typeof item !== 'string') return fail('Not a valid string.');
      items.push(item);
    }
  }
  return ok(items);
}

/** `192.0.2.0/24`, `2001:db8::/32` or a single address (host mask added); null when invalid. */
export function normalizeNetwork(text: string): string | null {
  const [address, mask, extra] = text.trim().split('/');
  if (extra !== undefined || !address) return null;
  const version = isIP(address);
  if (version === 0) return null;
  const max = version === 4 ? 32 : 128;
  if (mask === undefined) return `${address}/${max}`;
  if (!/^\d+$/.test(mask) || Number(mask) > max) return null;
  return `${address}/${Number(mask)}`;
}

/** Python's name for a JSON value's type, as DRF prints it. */
export function pythonType(value: unknown): string {
  if (value === null) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'object') return 'dict';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return typeof value;
}
