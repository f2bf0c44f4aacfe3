/**
 * Display templates, part of the model language (the generator checks their fields, the runtime fills them
 * in): `{field}` or `{fk.field}` placeholders, and `[bracketed parts]` left out when a field in them is empty,
 * so that `{name}[ ({label})]` renders `eth0 (uplink)` or just `eth0`. `[[` and `]]` are literal brackets, and
 * `{field|truncate:N}` shows at most N characters, the last one `…` when cut (Django's `truncatechars`):
 * `{name} [[{type}]] {value|truncate:20}` renders `www [A] 192.0.2.1`.
 */

/** A template's parts: text, a field, or an optional group of both. */
type TemplatePart =
  { text: string } | { field: string; truncate?: number } | { optional: TemplatePart[]; fields: string[] };

/** `{field}`, or `{fk.field}` following FKs, optionally `|truncate:N`. */
const PLACEHOLDER = /\{([a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*)(?:\|truncate:([1-9][0-9]*))?\}/g;

/** Stand-ins for the literal brackets `[[` and `]]` while the optional groups are found. */
const OPEN = '\uE000';
const CLOSE = '\uE001';

/** A template parsed once. */
export interface CompiledTemplate {
  /** Every field it shows, in order. */
  fields: string[];
  /** The fields outside its optional parts. */
  required: string[];
  /** The template filled in with the values of the fields (null shows as empty). */
  fill: (value: (name: string) => unknown) => string;
}

export function compileTemplate(source: string): CompiledTemplate {
  const template = source.replaceAll('[[', OPEN).replaceAll(']]', CLOSE);
  const parts: TemplatePart[] = [];
  let last = 0;
  for (const match of template.matchAll(/\[([^\]]*)\]/g)) {
    parts.push(...parseParts(template.slice(last, match.index)));
    const optional = parseParts(match[1]!);
    parts.push({ optional, fields: optional.flatMap((p) => ('field' in p ? [p.field] : [])) });
    last = match.index + match[0].length;
  }
  parts.push(...parseParts(template.slice(last)));
  return {
    fields: parts.flatMap((p) => ('field' in p ? [p.field] : 'fields' in p ? p.fields : [])),
    required: parts.flatMap((p) => ('field' in p ? [p.field] : [])),
    fill: (value) => filled(parts, value),
  };
}

/** Whether every one of the fields has a non-empty value. */
export function allSet(names: readonly string[], value: (name: string) => unknown): boolean {
  for (const name of names) if (textOf(value, name) === '') return false;
  return true;
}

function parseParts(text: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let last = 0;
  const literal = (from: number, to?: number): TemplatePart => ({
    text: text.slice(from, to).replaceAll(OPEN, '[').replaceAll(CLOSE, ']'),
  });
  for (const match of text.matchAll(PLACEHOLDER)) {
    if (match.index > last) parts.push(literal(last, match.index));
    parts.push(match[2] ? { field: match[1]!, truncate: Number(match[2]) } : { field: match[1]! });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(literal(last));
  return parts;
}

/** Django's `truncatechars`: at most `length` characters, the last one an ellipsis when the text was cut. */
function truncate(text: string, length: number | undefined): string {
  const chars = [...text];
  return length === undefined || chars.length <= length ? text : `${chars.slice(0, length - 1).join('')}…`;
}

/** A field's text in a display: empty for null. */
function textOf(value: (name: string) => unknown, name: string): string {
  return String(value(name) ?? '');
}

function filled(list: readonly TemplatePart[], value: (name: string) => unknown): string {
  let out = '';
  for (const part of list) {
    if ('text' in part) out += part.text;
    else if ('field' in part) out += truncate(textOf(value, part.field), part.truncate);
    else if (allSet(part.fields, value)) out += filled(part.optional, value);
  }
  return out;
}
