import type { ComputeFunction } from './types.js';

type Row = Record<string, unknown>;

/**
 * A reverse relation rendered as a nested list (a provider's accounts): the objects of `label` whose FK
 * `column` points at each object of the page, in `order`, with NetBox's nested keys; one query plus one load.
 */
export function nestedList(
  label: string,
  column: string,
  order: readonly string[],
  keys: readonly string[],
  where: Record<string, string> = {},
): ComputeFunction {
  return async (ctx, _model, ids) => {
    const related = ctx.schema.model(label);
    const rows = (await ctx
      .q(related.table)
      .where(where)
      .whereIn(column, [...ids])
      .orderBy([...order, 'id'].map((c) => ({ column: c })))
      .select('id', column)) as Row[];
    const objects = ctx.load
      ? await ctx.load(
          label,
          keys,
          rows.map((r) => Number(r.id)),
        )
      : [];
    const byId = new Map(objects.map((o) => [Number(o.id), o]));
    const result = new Map<number, unknown>(ids.map((id) => [id, [] as unknown[]]));
    for (const row of rows) {
      const object = byId.get(Number(row.id));
      if (object) (result.get(Number(row[column])) as unknown[]).push(object);
    }
    return result;
  };
}
