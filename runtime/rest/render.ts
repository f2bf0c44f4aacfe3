import type { Settings } from '../config.js';
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
  /** For derived fields (a background task's time-out is WEBHOOK_TIMEOUT). */
  settings: Settings;
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
 * One function per plan, built once: list pages render thousands of keys, so no per-key dispatch. It returns
 * an object literal with the plan's keys in order, compiled for the plan: every object of a plan has one
 * shape from the start, and each key's value comes from its own function (plain columns are read inline),
 * where one generic loop writing keys by name would go through megamorphic stores, or turn a wide object
 * into a slow dictionary, and slow its serialisation.
 */
function compileRenderer(plan: Plan): Renderer {
  const values = plan.keys.map((key) => keyValue(plan, key));
  const parts = plan.keys.map((key, i) => {
    const value = values[i]!;
    const expression =
      typeof value === 'function' ? `v[${i}](row, id, ctx)` : `(row[${JSON.stringify(value.column)}] ?? null)`;
    return `${JSON.stringify(key.key)}: ${expression}`;
  });
  const source = `return (row, ctx) => {
  const id = Number(row[${JSON.stringify(plan.idColumn)}]);
  return { ${parts.join(', ')} };
};`;
  // Keys and columns enter the source as JSON string literals only. The one use of `new Function` in the
  // service, as Ajv compiles its validators.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const build = new Function('v', source) as (v: readonly unknown[]) => Renderer;
  return build(values);
}

/** How a key's value is computed: a function, or (plain stored values) the column read as it is. */
type KeyValue = ((row: Row, id: number, ctx: RenderContext) => unknown) | { column: string };

function keyValue(plan: Plan, key: KeyPlan): KeyValue {
  const batched = batchKey(plan, key.key);
  const listPath = plan.model.listPath;
  switch (key.kind) {
    case 'id':
      return plan.model.spec.stringId ? (_row, id) => String(id) : (_row, id) => id;
    case 'url':
      return (_row, id, ctx) => (listPath ? `${ctx.apiRoot}${listPath}${id}/` : null);
    case 'display_url':
      return (_row, id, ctx) => (listPath ? `${ctx.siteRoot}${listPath}${id}/` : null);
    case 'display': {
      const display = plan.model.spec.display;
      const columns = key.columns;
      const fields = plan.model.fields;
      if (display.kind === 'field') {
        const column = columns[display.field]!;
        const decode = columnDecoder(fields.get(display.field));
        return (row) => String(decode(row[column]) ?? '');
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
        return (row) => render((field) => valueOf(row, field));
      }
      return (row, _id, ctx) => computeDisplay(ctx.domain, display, (field) => valueOf(row, field));
    }
    case 'derived': {
      const uses = Object.entries(key.uses).map(([path, used]) => ({
        path,
        column: used.column,
        decode: columnDecoder(used.field),
      }));
      const name = key.field.function;
      return (row, _id, ctx) => {
        const values: Record<string, unknown> = {};
        for (const used of uses) values[used.path] = used.decode(row[used.column]);
        return ctx.domain.derive(name)(values, ctx.settings) ?? null;
      };
    }
    case 'value': {
      const column = key.column;
      // Stored as a path below MEDIA_ROOT, served under <site>/media/.
      if (key.field.kind === 'image')
        return (row, _id, ctx) => (row[column] ? `${ctx.siteRoot}/media/${String(row[column])}` : null);
      if (key.field.kind === 'string' || key.field.kind === 'date') return { column };
      const convert = valueConverter(key.field);
      return (row) => convert(row[column]);
    }
    case 'timestamp': {
      const column = key.column;
      return (row) => renderTimestamp((row[column] as string | null) ?? null);
    }
    case 'depth': {
      const column = key.column;
      return (row) => Number(row[column] ?? 0);
    }
    case 'fk': {
      const column = key.column;
      const nested = compileRenderer(key.nested);
      return (row, _id, ctx) => (row[column] === null || row[column] === undefined ? null : nested(row, ctx));
    }
    case 'constant': {
      const value = key.value;
      return () => value;
    }
    case 'tags':
    case 'm2m':
    case 'children':
      return (_row, id, ctx) => ctx.batched?.get(batched)?.get(id) ?? [];
    case 'computed':
      return (_row, id, ctx) => ctx.batched?.get(batched)?.get(id) ?? null;
    case 'generic': {
      const { typeColumn, idColumn } = key;
      return (row, _id, ctx) => {
        const type = row[typeColumn];
        const target = row[idColumn];
        return type === null || type === undefined || target === null || target === undefined
          ? null
          : (ctx.generic?.get(batched)?.get(`${String(type)}:${Number(target)}`) ?? null);
      };
    }
    case 'custom_fields':
      return (_row, id, ctx) => ctx.batched?.get(batched)?.get(id) ?? {};
    case 'count':
      return (_row, id, ctx) => ctx.batched?.get(batched)?.get(id) ?? 0;
  }
}

/** Stored value → API value for one field (strings and dates are read inline, see `keyValue`). */
function valueConverter(field: FieldSpec): (raw: unknown) => unknown {
  switch (field.kind) {
    case 'integer':
    case 'decimal':
      return (raw) => (raw === null || raw === undefined ? null : typeof raw === 'number' ? raw : Number(raw));
    default:
      return columnPresenter(field);
  }
}
