import type { Knex } from 'knex';
import type { DisplaySpec } from '../spec.js';
import type { DomainFunctions } from '../domain/types.js';
import { decodeColumn } from './values.js';
import type { ModelInfo, Schema } from './schema.js';
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

/**
 * The display texts of stored rows, following the foreign keys of dotted uses (`device_type.manufacturer.name`)
 * with one query per related model and step for all rows, and only for the rows whose display needs them (a
 * device with a name reads nothing more; one without says "Juniper MX2 (4)", as its `display` does). Rows are
 * keyed by their `id`.
 */
export async function displaysOf(
  q: Knex,
  schema: Schema,
  domain: DomainFunctions,
  model: ModelInfo,
  rows: readonly Record<string, unknown>[],
): Promise<Map<number, string>> {
  const display = model.spec.display;
  const values = rows.map(() => new Map<string, unknown>());
  const related = new Map<string, Record<string, unknown> | undefined>(); // `app.model:id` → row
  const load = async (uses: readonly string[], indices: readonly number[]): Promise<void> => {
    for (const use of uses) {
      const todo = indices.filter((i) => !values[i]!.has(use));
      if (todo.length === 0) continue;
      const [first, ...rest] = use.split('.');
      let at = todo.map((i) => ({ model, row: rows[i] as Record<string, unknown> | undefined }));
      let step = first!;
      for (const next of rest) {
        const refs = at.map(({ model: from, row }) => {
          const field = from.fields.get(step);
          const id = field?.kind === 'fk' && field.column ? row?.[field.column] : null;
          return field?.kind === 'fk' && id !== null && id !== undefined
            ? { target: schema.model(field.target), id: Number(id) }
            : null;
        });
        const missing = new Map<ModelInfo, Set<number>>();
        for (const ref of refs)
          if (ref && !related.has(`${ref.target.label}:${ref.id}`))
            missing.set(ref.target, (missing.get(ref.target) ?? new Set()).add(ref.id));
        for (const [target, ids] of missing) {
          for (const id of ids) related.set(`${target.label}:${id}`, undefined);
          for (const row of (await q(target.table).whereIn('id', [...ids])) as Record<string, unknown>[])
            related.set(`${target.label}:${String(row.id)}`, row);
        }
        at = refs.map((ref) =>
          ref ? { model: ref.target, row: related.get(`${ref.target.label}:${ref.id}`) } : { model, row: undefined },
        );
        step = next;
      }
      at.forEach(({ model: from, row }, k) => {
        const field = from.fields.get(step);
        const value = !row ? null : field?.column ? decodeColumn(field, row[field.column]) : (row[step] ?? null);
        values[todo[k]!]!.set(use, value);
      });
    }
  };
  const all = rows.map((_, i) => i);
  if (display.kind === 'first') {
    // Each row needs the fields of the templates up to the first whose required fields are all set.
    let pending = all;
    for (const template of display.templates.map(compileTemplate)) {
      await load(template.fields, pending);
      pending = pending.filter((i) => !allSet(template.required, (name) => values[i]!.get(name)));
    }
  } else await load(display.kind === 'field' ? [display.field] : display.uses, all);
  return new Map(
    rows.map((row, i) => [Number(row.id), computeDisplay(domain, display, (name) => values[i]!.get(name) ?? null)]),
  );
}
