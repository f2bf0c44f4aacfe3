import type { Knex } from 'knex';
import type { ModelInfo } from '../rest/schema.js';
import { ipColumns, rangesOf, sameVrf, totalOf } from './ipam.js';
import type { DomainEntry, FilterFunction } from './types.js';

/** IPAM filters on values computed rather than stored: a prefix's depth and children, a VLAN group's size. */

type Row = Record<string, unknown>;

const SQL_OPERATORS: Record<string, string> = { '': '=', n: '=', lt: '<', lte: '<=', gt: '>', gte: '>=' };

/** Whole numbers of a numeric filter, or its 400 message. */
export function wholeNumbers(values: readonly string[]): number[] | string {
  return values.some((v) => !/^-?\d+$/.test(v.trim())) ? 'Enter a whole number.' : values.map(Number);
}

/**
 * A numeric lookup (`''`, `n`, `lt`, `lte`, `gt`, `gte`, `empty`) on a value that is never null, given as an
 * SQL expression over alias `t0`.
 */
function compareExpression(
  sql: string,
  lookup: string,
  values: readonly string[],
): ((q: Knex.QueryBuilder) => void) | string {
  if (lookup === 'empty') {
    const flag = values[0]!.trim().toLowerCase();
    if (!['true', 'false', '1', '0'].includes(flag))
      return `Select a valid choice. ${values[0]} is not one of the available choices.`;
    return flag === 'true' || flag === '1' ? (q) => void q.whereRaw('1 = 0') : () => {};
  }
  const numbers = wholeNumbers(values);
  if (typeof numbers === 'string') return numbers;
  const any = (q: Knex.QueryBuilder): void =>
    void q.where((w) => numbers.forEach((n) => w.orWhereRaw(`${sql} ${SQL_OPERATORS[lookup]} ?`, [n])));
  return lookup === 'n' ? (q) => void q.whereNot(any) : any;
}

/** `depth` (prefixes containing it) or `children` (prefixes inside it), counted as the computed fields are. */
function prefixesBy(relation: 'depth' | 'children'): FilterFunction {
  return async (_ctx, model: ModelInfo, values, lookup) => {
    const ip = ipColumns(model, 'prefix');
    const inside =
      relation === 'children'
        ? `c.${ip.start} >= t0.${ip.start} AND c.${ip.end} <= t0.${ip.end} AND c.${ip.len} > t0.${ip.len}`
        : `c.${ip.start} <= t0.${ip.start} AND c.${ip.end} >= t0.${ip.end} AND c.${ip.len} < t0.${ip.len}`;
    const counted = relation === 'children' ? '*' : `DISTINCT c.${ip.text}`;
    const sql = `(SELECT count(${counted}) FROM ${model.table} c WHERE c.${ip.family} = t0.${ip.family} AND ${sameVrf('c', 't0')} AND ${inside})`;
    return compareExpression(sql, lookup, values);
  };
}

/** `total_vlan_ids`: the number of VIDs the group's ranges hold (read from the ranges of every group). */
const vlanGroupsByTotal: FilterFunction = async (ctx, model, values, lookup) => {
  if (lookup === 'empty') return compareExpression('0', lookup, values);
  const numbers = wholeNumbers(values);
  if (typeof numbers === 'string') return numbers;
  const rows = (await ctx.q(model.table).select('id', 'vid_ranges')) as Row[];
  const test = COMPARE[lookup]!;
  const matching = rows
    .filter((row) => numbers.some((n) => test(totalOf(rangesOf(row)), n)))
    .map((row) => Number(row.id));
  return lookup === 'n' ? (q) => void q.whereNotIn('t0.id', matching) : (q) => void q.whereIn('t0.id', matching);
};

const COMPARE: Record<string, (a: number, b: number) => boolean> = {
  '': (a, b) => a === b,
  n: (a, b) => a === b,
  lt: (a, b) => a < b,
  lte: (a, b) => a <= b,
  gt: (a, b) => a > b,
  gte: (a, b) => a >= b,
};

export const ipamFilterFunctions = {
  'ipam.prefixesByDepth': { kind: 'filter', fn: prefixesBy('depth') },
  'ipam.prefixesByChildren': { kind: 'filter', fn: prefixesBy('children') },
  'ipam.vlanGroupsByTotal': { kind: 'filter', fn: vlanGroupsByTotal },
} satisfies Record<string, DomainEntry>;
