import type { DisplaySpec } from '../spec.js';
import type { DomainFunctions } from '../domain/types.js';
import { decodeColumn, decodeJson, presentValue } from './values.js';
import type { Plan } from './plan.js';
import { renderTimestamp } from '../db/clock.js';

/** What rendering needs besides the row: URL roots, batched results and display functions. */
export interface RenderContext {
  /** `http://host[:port][BASE_PATH]/api` */
  apiRoot: string;
  /** `http://host[:port][BASE_PATH]` */
  siteRoot: string;
  domain: DomainFunctions;
  /** Tags per object id (only for the top-level model). */
  tags?: Map<number, unknown[]>;
  /** Count name → object id → count. */
  counts?: Map<string, Map<number, number>>;
  /** Custom fields rendered from the stored data (set by the custom-field layer). */
  customFields?: (data: Record<string, unknown>) => Record<string, unknown>;
}

type Row = Record<string, unknown>;

/** Renders one object of a plan from a joined row, keys in plan order. */
export function renderObject(plan: Plan, row: Row, ctx: RenderContext): Record<string, unknown> {
  const id = Number(row[plan.idColumn]);
  const out: Record<string, unknown> = {};
  const listPath = plan.model.listPath;
  for (const key of plan.keys) {
    switch (key.kind) {
      case 'id':
        out.id = id;
        break;
      case 'url':
        out.url = listPath ? `${ctx.apiRoot}${listPath}${id}/` : null;
        break;
      case 'display_url':
        out.display_url = listPath ? `${ctx.siteRoot}${listPath}${id}/` : null;
        break;
      case 'display':
        out.display = renderDisplay(plan.model.spec.display, key.columns, row, plan, ctx);
        break;
      case 'value':
        out[key.key] = presentValue(key.field, decodeColumn(key.field, row[key.column]));
        break;
      case 'timestamp':
        out[key.key] = renderTimestamp((row[key.column] as string | null) ?? null);
        break;
      case 'depth':
        out[key.key] = Number(row[key.column] ?? 0);
        break;
      case 'fk':
        out[key.key] =
          row[key.column] === null || row[key.column] === undefined ? null : renderObject(key.nested, row, ctx);
        break;
      case 'constant':
        out[key.key] = key.value;
        break;
      case 'tags':
        out.tags = ctx.tags?.get(id) ?? [];
        break;
      case 'custom_fields': {
        const data = (decodeJson(row[key.column]) ?? {}) as Record<string, unknown>;
        out.custom_fields = ctx.customFields ? ctx.customFields(data) : {};
        break;
      }
      case 'count':
        out[key.key] = ctx.counts?.get(key.key)?.get(id) ?? 0;
        break;
    }
  }
  return out;
}

function renderDisplay(
  display: DisplaySpec,
  columns: Record<string, string>,
  row: Row,
  plan: Plan,
  ctx: RenderContext,
): string {
  return computeDisplay(ctx.domain, display, (name) => {
    const field = plan.model.fields.get(name);
    const raw = row[columns[name]!];
    return field ? decodeColumn(field, raw) : raw;
  });
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
      return display.template.replace(/\{([a-z_][a-z0-9_]*)\}/g, (_, name: string) => String(value(name) ?? ''));
    case 'function':
      return domain.display(display.function, Object.fromEntries(display.uses.map((name) => [name, value(name)])));
  }
}
