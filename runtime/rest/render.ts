import type { FieldSpec } from '../spec.js';
import type { DomainFunctions } from '../domain/types.js';
import { columnDecoder, columnPresenter } from './values.js';
import type { KeyPlan, Plan } from './plan.js';
import { compileDisplay, computeDisplay } from './display.js';
import { renderTimestamp } from '../db/clock.js';

/** What rendering needs besides the row: URL roots, batched results and display functions. */
export interface RenderContext {
  /** `http://host[:port][BASE_PATH]/api` */
  apiRoot: string;
  /** `http://host[:port][BASE_PATH]` */
  siteRoot: string;
  domain: DomainFunctions;
  /**
   * Values loaded per page (tags, counts, related lists, computed values), for the page's objects and
   * those nested in them: `batchKey(plan, key)` → object id → value.
   */
  batched?: Map<string, Map<number, unknown>>;
  /** Generic relations: `batchKey(plan, key)` → `<type>:<id>` → the target's nested representation. */
  generic?: Map<string, Map<string, unknown>>;
}

type Row = Record<string, unknown>;
type Out = Record<string, unknown>;
/** Writes one key of the representation. */
type KeyWriter = (row: Row, id: number, out: Out, ctx: RenderContext) => void;
type Renderer = (row: Row, ctx: RenderContext) => Out;

const renderers = new WeakMap<Plan, Renderer>();

/** Where the batched values of a plan's key are kept: plans of nested objects have their own aliases. */
export function batchKey(plan: Plan, key: string): string {
  return `${plan.alias}:${key}`;
}

/** Renders one object of a plan from a joined row, keys in plan order. */
export function renderObject(plan: Plan, row: Row, ctx: RenderContext): Out {
  let render = renderers.get(plan);
  if (!render) renderers.set(plan, (render = compileRenderer(plan)));
  return render(row, ctx);
}

/**
 * One function per plan, built once: list pages render thousands of keys, so no per-key dispatch. Every
 * object starts as a copy of the plan's template (its keys in order): objects of one plan share one shape,
 * where keys added one by one would turn a wide object into a slow dictionary (and slow its serialisation).
 */
function compileRenderer(plan: Plan): Renderer {
  const writers = plan.keys.map((key) => keyWriter(plan, key));
  const idColumn = plan.idColumn;
  const template = JSON.parse(JSON.stringify(Object.fromEntries(plan.keys.map((key) => [key.key, null])))) as Out;
  return (row, ctx) => {
    const id = Number(row[idColumn]);
    const out: Out = { ...template };
    for (const write of writers) write(row, id, out, ctx);
    return out;
  };
}

function keyWriter(plan: Plan, key: KeyPlan): KeyWriter {
  const name = key.key;
  const batched = batchKey(plan, name);
  const listPath = plan.model.listPath;
  switch (key.kind) {
    case 'id':
      return (_row, id, out) => {
        out.id = id;
      };
    case 'url':
      return (_row, id, out, ctx) => {
        out.url = listPath ? `${ctx.apiRoot}${listPath}${id}/` : null;
      };
    case 'display_url':
      return (_row, id, out, ctx) => {
        out.display_url = listPath ? `${ctx.siteRoot}${listPath}${id}/` : null;
      };
    case 'display': {
      const display = plan.model.spec.display;
      const columns = key.columns;
      const fields = plan.model.fields;
      if (display.kind === 'field') {
        const column = columns[display.field]!;
        const decode = columnDecoder(fields.get(display.field));
        return (row, _id, out) => {
          out.display = String(decode(row[column]) ?? '');
        };
      }
      const decoders = new Map(
        Object.entries(columns).map(([field, column]) => [field, { column, decode: columnDecoder(fields.get(field)) }]),
      );
      const valueOf = (row: Row, field: string): unknown => {
        const used = decoders.get(field)!;
        return used.decode(row[used.column]);
      };
      if (display.kind === 'template' || display.kind === 'first') {
        const render = compileDisplay(display);
        return (row, _id, out) => {
          out.display = render((field) => valueOf(row, field));
        };
      }
      return (row, _id, out, ctx) => {
        out.display = computeDisplay(ctx.domain, display, (field) => valueOf(row, field));
      };
    }
    case 'value': {
      const column = key.column;
      if (key.field.kind === 'image') {
        // Stored as a path below MEDIA_ROOT, served under <site>/media/.
        return (row, _id, out, ctx) => {
          const stored = row[column];
          out[name] = stored ? `${ctx.siteRoot}/media/${String(stored)}` : null;
        };
      }
      const convert = valueConverter(key.field);
      return (row, _id, out) => {
        out[name] = convert(row[column]);
      };
    }
    case 'timestamp': {
      const column = key.column;
      return (row, _id, out) => {
        out[name] = renderTimestamp((row[column] as string | null) ?? null);
      };
    }
    case 'depth': {
      const column = key.column;
      return (row, _id, out) => {
        out[name] = Number(row[column] ?? 0);
      };
    }
    case 'fk': {
      const column = key.column;
      const nested = compileRenderer(key.nested);
      return (row, _id, out, ctx) => {
        out[name] = row[column] === null || row[column] === undefined ? null : nested(row, ctx);
      };
    }
    case 'constant': {
      const value = key.value;
      return (_row, _id, out) => {
        out[name] = value;
      };
    }
    case 'tags':
    case 'm2m':
      return (_row, id, out, ctx) => {
        out[name] = ctx.batched?.get(batched)?.get(id) ?? [];
      };
    case 'computed':
      return (_row, id, out, ctx) => {
        out[name] = ctx.batched?.get(batched)?.get(id) ?? null;
      };
    case 'generic': {
      const { typeColumn, idColumn } = key;
      return (row, _id, out, ctx) => {
        const type = row[typeColumn];
        const target = row[idColumn];
        out[name] =
          type === null || type === undefined || target === null || target === undefined
            ? null
            : (ctx.generic?.get(batched)?.get(`${String(type)}:${Number(target)}`) ?? null);
      };
    }
    case 'custom_fields':
      return (_row, id, out, ctx) => {
        out.custom_fields = ctx.batched?.get(batched)?.get(id) ?? {};
      };
    case 'count':
      return (_row, id, out, ctx) => {
        out[name] = ctx.batched?.get(batched)?.get(id) ?? 0;
      };
  }
}

/** Stored value → API value for one field, with the common cases short-circuited. */
function valueConverter(field: FieldSpec): (raw: unknown) => unknown {
  switch (field.kind) {
    case 'string':
    case 'date':
      return (raw) => raw ?? null;
    case 'integer':
    case 'decimal':
      return (raw) => (raw === null || raw === undefined ? null : typeof raw === 'number' ? raw : Number(raw));
    default:
      return columnPresenter(field);
  }
}
