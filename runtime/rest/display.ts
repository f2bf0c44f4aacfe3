import type { DisplaySpec } from '../spec.js';
import type { DomainFunctions } from '../domain/types.js';
import { decodeColumn } from './values.js';
import type { ModelInfo } from './schema.js';
import { allSet, compileTemplate } from '../display-template.js';

/**
 * Display texts (NetBox's `str(obj)`): a field, a `{field}` template, the first of several templates whose
 * fields are set, or a domain function. Templates (display-template.ts) are parsed once and filled in per
 * object.
 */

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
