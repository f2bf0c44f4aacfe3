/**
 * Display templates, part of the model language (the generator checks their fields, the runtime fills them
 * in): `{field}` or `{fk.field}` placeholders, and `[bracketed parts]` left out when a field in them is empty,
 * so that `{name}[ ({label})]` renders `eth0 (uplink)` or just `eth0`.
 */

/** A template's parts: text, a field, or an optional group of both. */
type TemplatePart = { text: string } | { field: string } | { optional: TemplatePart[]; fields: string[] };

/** `{field}`, or `{fk.field}` following FKs. */
const PLACEHOLDER = /\{([a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*)\}/g;

/** A template parsed once. */
export interface CompiledTemplate {
  /** Every field it shows, in order. */
  fields: string[];
  /** The fields outside its optional parts. */
  required: string[];
  /** The template filled in with the values of the fields (null shows as empty). */
  fill: (value: (name: string) => unknown) => string;
}

export function compileTemplate(template: string): CompiledTemplate {
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
  for (const match of text.matchAll(PLACEHOLDER)) {
    if (match.index > last) parts.push({ text: text.slice(last, match.index) });
    parts.push({ field: match[1]! });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

/** A field's text in a display: empty for null. */
function textOf(value: (name: string) => unknown, name: string): string {
  return String(value(name) ?? '');
}

function filled(list: readonly TemplatePart[], value: (name: string) => unknown): string {
  let out = '';
  for (const part of list) {
    if ('text' in part) out += part.text;
    else if ('field' in part) out += textOf(value, part.field);
    else if (allSet(part.fields, value)) out += filled(part.optional, value);
  }
  return out;
}
