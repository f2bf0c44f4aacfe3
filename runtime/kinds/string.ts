import type { StringField, StringFormat } from '../spec.js';
import type { FieldDef } from './definition.js';
import { defineKind, fail, ok, type Parsed, type ValueFilter } from './kind.js';

const SLUG = /^[-a-zA-Z0-9_]+$/;
const UNICODE_SLUG = /^[-\p{L}\p{N}_]+$/u;
const COLOR = /^[0-9a-f]{6}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URL_PATTERN = /^[a-z][a-z0-9+.-]*:\/\/[^\s]+$/i;
const TIME_ZONES = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);

const SLUG_PATTERNS: Partial<Record<StringFormat, string>> = {
  slug: '^[-a-zA-Z0-9_]+$',
  'unicode-slug': '^[-\\p{L}\\p{N}_]+$',
  color: '^[0-9a-f]{6}$',
};

const IMPLICIT_LENGTH: Partial<Record<string, number>> = { color: 6, email: 254, url: 200, timezone: 63 };

/** Text: plain strings, long text, slugs, colours, e-mail addresses, URLs and time zones (by `format`). */
export const stringKind = defineKind<StringField>({
  kinds: ['string'],
  types: ['string', 'text', 'slug', 'color', 'email', 'url', 'timezone'],
  properties: ['max_length', 'blank', 'unicode', 'natural', 'case', 'pattern', 'pattern_message'],
  resolve(def, ctx) {
    if (def.pattern !== undefined) {
      try {
        new RegExp(def.pattern, 'u');
      } catch {
        ctx.error('pattern', 'not a valid regular expression');
      }
    }
    if (def.type === 'string' && def.max_length === undefined && ctx.stored)
      ctx.error('', "a string field needs 'max_length' (or use type text)");
    const maxLength = def.max_length ?? IMPLICIT_LENGTH[def.type];
    return {
      ...ctx.base,
      kind: 'string',
      format: formatOf(def),
      ...(maxLength !== undefined ? { maxLength } : {}),
      blank: ctx.blank,
      natural: def.natural ?? false,
      ...(def.case ? { case: def.case } : {}),
      ...(def.pattern ? { pattern: def.pattern, patternMessage: def.pattern_message ?? 'Enter a valid value.' } : {}),
      required: ctx.required,
      ...(ctx.blank && def.default === undefined && !ctx.nullable ? { default: '' } : {}),
    };
  },
  column: (field) =>
    field.maxLength !== undefined ? { type: 'string', maxLength: field.maxLength } : { type: 'text' },
  valueType: () => 'string',
  readSchema: () => ({ type: 'string' }),
  writeSchema(field) {
    const schema: Record<string, unknown> = { type: 'string' };
    if (!field.blank) schema.minLength = 1;
    if (field.maxLength !== undefined) schema.maxLength = field.maxLength;
    const pattern = SLUG_PATTERNS[field.format];
    if (pattern) schema.pattern = pattern;
    if (field.format === 'email') schema.format = 'email';
    if (field.format === 'url') schema.format = 'uri';
    if (field.format === 'timezone') schema.description = 'An IANA time zone name, e.g. `Europe/Berlin`.';
    return schema;
  },
  valueFilter: stringValueFilter,
  // Long text is filtered only when the YAML asks for it.
  filters: (field, ctx) =>
    field.format === 'text' && ctx.def?.filter !== true
      ? []
      : [{ kind: 'value', name: field.name, path: [], field: field.name, ...stringValueFilter(field) }],
  parse: parseString,
  options(field, meta) {
    meta.type = {
      slug: 'slug',
      'unicode-slug': 'slug',
      email: 'email',
      url: 'url',
      plain: 'string',
      text: 'string',
      color: 'string',
      timezone: 'choice',
    }[field.format];
    if (field.maxLength !== undefined) meta.max_length = field.maxLength;
  },
  constraintValue: () => 'text',
});

function formatOf(def: FieldDef): StringFormat {
  if (def.type === 'string') return 'plain';
  if (def.type === 'slug') return def.unicode ? 'unicode-slug' : 'slug';
  return def.type as StringFormat;
}

function parseString(field: StringField, value: unknown): Parsed {
  if (typeof value === 'boolean' || (typeof value !== 'string' && typeof value !== 'number'))
    return fail('Not a valid string.');
  const text = String(value).trim();
  if (text === '') return field.blank ? ok('') : fail('This field may not be blank.');
  if (field.maxLength !== undefined && [...text].length > field.maxLength) {
    return fail(`Ensure this field has no more than ${field.maxLength} characters.`);
  }
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

// NetBox's text and time zone fields have no `empty` lookup (it exists for CharField only).
function stringValueFilter(field: StringField): ValueFilter {
  return { valueKind: 'string', lookups: field.format === 'text' || field.format === 'timezone' ? 'text' : 'string' };
}
