import type { DisplaySpec } from '../spec.js';
import type { DomainFunctions } from '../domain/types.js';
import { decodeColumn } from './values.js';
import type { ModelInfo } from './schema.js';

/**
 * Display texts (NetBox's `str(obj)`): a field, a `{field}` template, the first of several templates whose
 * fields are set, or a domain function. Templates are parsed once and filled in per object.
 */

/** A display template's parts, parsed once: text, a field, or an optional group of both. */
type TemplatePart = { text: string } | { field: string } | { optional: TemplatePart[]; fields: string[] };

/** `{field}`, or `{fk.field}` following FKs. */
const PLACEHOLDER = /\{([a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*)\}/g;

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

/** A template parsed once: the fields outside its `[optional parts]`, and how to fill it in. */
interface CompiledTemplate {
  required: string[];
  fill: (value: (name: string) => unknown) => string;
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

function allSet(names: readonly string[], value: (name: string) => unknown): boolean {
  for (const name of names) if (textOf(value, name) === '') return false;
  return true;
}

/**
 * `{field}` placeholders; a `[bracketed part]` is left out when any field in it is empty, so that
 * `{name}[ ({label})]` renders `eth0 (uplink)` or just `eth0`.
 */
function compileTemplate(template: string): CompiledTemplate {
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
    required: parts.flatMap((p) => ('field' in p ? [p.field] : [])),
    fill: (value) => filled(parts, value),
  };
}

/** The fields a `first` display template needs set (outside its optional parts), per template. */
export function requiredFields(template: string): string[] {
  return compileTemplate(template).required;
}

type DisplayRenderer = (value: (name: string) => unknown) => string;
const displayRenderers = new WeakMap<DisplaySpec, DisplayRenderer>();

/** A declarative display (a template, or the first of several whose fields are set) compiled once. */
export function compileDisplay(display: DisplaySpec & { kind: 'template' | 'first' }): DisplayRenderer {
  let render = displayRenderers.get(display);
  if (render) return render;
  const templates = (display.kind === 'first' ? display.templates : [display.template]).map(compileTemplate);
  const last = templates.length - 1;
  render = (value) => {
    let index = 0;
    while (index < last && !allSet(templates[index]!.required, value)) index += 1;
    return templates[index]!.fill(value);
  };
  displayRenderers.set(display, render);
  return render;
}

/** A model's display text from its field values (a field, a `{field}` template or a domain function). */
export function computeDisplay(
  domain: DomainFunctions,
  display: DisplaySpec,
  value: (name: string) => unknown,
): string {
  switch (display.kind) {
    case 'field':
      return String(value(display.field) ?? '');
    case 'template':
    case 'first':
      return compileDisplay(display)(value);
    case 'function':
      return domain.display(display.function, Object.fromEntries(display.uses.map((name) => [name, value(name)])));
  }
}

/** The display text of a stored row (for messages). */
export function displayOf(domain: DomainFunctions, model: ModelInfo, row: Record<string, unknown>): string {
  return computeDisplay(domain, model.spec.display, (name) => {
    const field = model.fields.get(name);
    return field?.column ? decodeColumn(field, row[field.column]) : row[name];
  });
}
