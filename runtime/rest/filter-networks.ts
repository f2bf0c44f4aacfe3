import type { Knex } from 'knex';
import type { FilterSpec } from '../spec.js';
import { parseIp } from './ip.js';
import { walkSteps, type Condition, type FilterContext } from './filter-paths.js';
import type { ModelInfo } from './schema.js';

/**
 * IP filters on the hidden range columns: `within` (strictly inside), `within_include`, `contains`,
 * `parent` (addresses inside), `exact` networks, `address` (with a mask exactly, without it the host), and
 * `mask_length`. Values that are not IPs match nothing, as in NetBox. The field may be a related object's,
 * reached through the filter's path: the object matches when a related object does.
 */
export function networkCondition(
  ctx: FilterContext,
  model: ModelInfo,
  filter: Extract<FilterSpec, { kind: 'network' }>,
  lookup: string,
  values: string[],
): Condition | string {
  const { target, alias, wrap } = walkSteps(ctx.schema, model, filter.path ?? []);
  const condition = ipCondition(`${alias}.${target.fields.get(filter.field)!.column!}`, filter.op, lookup, values);
  return typeof condition === 'string' ? condition : wrap(condition);
}

/** The condition of an IP filter on one column (with its hidden range columns beside it). */
function ipCondition(
  column: string,
  op: Extract<FilterSpec, { kind: 'network' }>['op'],
  lookup: string,
  values: string[],
): Condition | string {
  const [family, start, end, len] = ['family', 'start', 'end', 'len'].map((suffix) => `${column}_${suffix}`) as [
    string,
    string,
    string,
    string,
  ];
  if (op === 'mask_length') {
    const lengths: number[] = [];
    for (const value of values) {
      if (!/^\d+$/.test(value.trim())) return 'Enter a whole number.';
      lengths.push(Number(value));
    }
    const comparisons: Record<string, string> = { lt: '<', lte: '<=', gt: '>', gte: '>=' };
    if (lookup in comparisons)
      return (qb) => qb.where((w) => lengths.forEach((n) => w.orWhere(len, comparisons[lookup]!, n)));
    if (lookup === 'n') return (qb) => qb.whereNotIn(len, lengths);
    return (qb) => qb.whereIn(len, lengths);
  }
  const parsed = values.map((v) => ({ text: v, ip: parseIp(v) }));
  return (qb) =>
    qb.where((w) => {
      w.whereRaw('1 = 0');
      for (const { text, ip } of parsed) {
        if (!ip) continue;
        const sameFamily = (x: Knex.QueryBuilder): Knex.QueryBuilder => x.where(family, ip.family);
        switch (op) {
          case 'exact':
            w.orWhere(column, `${ip.network}/${ip.len}`);
            break;
          case 'address':
            if (text.includes('/')) w.orWhere(column, `${ip.address}/${ip.len}`);
            else w.orWhere((x) => sameFamily(x).where(start, ip.host));
            break;
          case 'within':
          case 'within_include':
            w.orWhere((x) =>
              sameFamily(x)
                .where(start, '>=', ip.start)
                .where(end, '<=', ip.end)
                .where(len, op === 'within' ? '>' : '>=', ip.len),
            );
            break;
          case 'contains':
            w.orWhere((x) =>
              sameFamily(x).where(start, '<=', ip.start).where(end, '>=', ip.end).where(len, '<=', ip.len),
            );
            break;
          case 'parent':
            w.orWhere((x) => sameFamily(x).where(start, '>=', ip.start).where(start, '<=', ip.end));
            break;
        }
      }
    });
}
