import type { Knex } from 'knex';
import type { FilterSpec } from '../spec.js';
import { parseIp } from './ip.js';
import type { Condition } from './filter-paths.js';
import type { ModelInfo } from './schema.js';

/**
 * IP filters on the hidden range columns: `within` (strictly inside), `within_include`, `contains`,
 * `parent` (addresses inside), `exact` networks, `address` (with a mask exactly, without it the host), and
 * `mask_length`. Values that are not IPs match nothing, as in NetBox.
 */
export function networkCondition(
  model: ModelInfo,
  filter: Extract<FilterSpec, { kind: 'network' }>,
  lookup: string,
  values: string[],
): Condition | string {
  const column = `t0.${model.fields.get(filter.field)!.column!}`;
  const [family, start, end, len] = ['family', 'start', 'end', 'len'].map((suffix) => `${column}_${suffix}`) as [
    string,
    string,
    string,
    string,
  ];
  if (filter.op === 'mask_length') {
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
        switch (filter.op) {
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
                .where(len, filter.op === 'within' ? '>' : '>=', ip.len),
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
          case 'mask_length':
            break;
        }
      }
    });
}
