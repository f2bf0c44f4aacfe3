import type { ModelInfo } from '../rest/schema.js';
import { freeAddresses } from './allocation.js';
import type { ActionContext, ActionParent, Allocator, BatchContext, DomainEntry } from './types.js';

/**
 * ASN ranges (NetBox's ASNRange): how many ASNs fall in each range (`asn_count`, by number, whatever their
 * RIR, as NetBox counts them), and the free numbers of a range (`available-asns`).
 */

type Row = Record<string, unknown>;

/** The ASN count of each range of a page: one query, joining ASNs on the range's bounds. */
export async function asnRangeAsnCount(
  ctx: BatchContext,
  model: ModelInfo,
  ids: readonly number[],
): Promise<Map<number, unknown>> {
  const asns = ctx.schema.model('ipam.asn');
  const rows = (await ctx
    .q({ r: model.table })
    .join({ a: asns.table }, function bounds() {
      this.on('a.asn', '>=', 'r.start').andOn('a.asn', '<=', 'r.end');
    })
    .whereIn('r.id', [...ids])
    .groupBy('r.id')
    .select('r.id')
    .count({ n: 'a.id' })) as Row[];
  const counts = new Map<number, unknown>(ids.map((id) => [id, 0]));
  for (const row of rows) counts.set(Number(row.id), Number(row.n));
  return counts;
}

/** Up to `limit` numbers from `low` to `high` that are not in `used`, lowest first (never walks the range). */
export function freeNumbers(low: number, high: number, used: readonly number[], limit: number): number[] {
  return freeAddresses(
    { first: BigInt(low), last: BigInt(high) },
    used.map((n) => BigInt(n)),
    limit,
  ).map(Number);
}

async function freeAsns(ctx: ActionContext, parent: ActionParent, limit: number): Promise<number[]> {
  const low = Number(parent.values.start);
  const high = Number(parent.values.end);
  const rows = (await ctx
    .q(ctx.schema.model('ipam.asn').table)
    .whereBetween('asn', [low, high])
    .select('asn')) as Row[];
  return freeNumbers(
    low,
    high,
    rows.map((r) => Number(r.asn)),
    limit,
  );
}

/** A range's `available-asns`: its free numbers with the range's RIR; POST creates ASNs with the next ones. */
export const availableAsns: Allocator = {
  async list(ctx, parent, limit) {
    const rir = ctx.schema.model('ipam.rir');
    const [nested] = await ctx.load(rir.label, rir.spec.nested, [Number(parent.values.rir)]);
    return (await freeAsns(ctx, parent, limit)).map((asn) => ({ rir: nested ?? null, asn }));
  },
  check: () => ({}),
  async allocate(ctx, parent, requests) {
    const asns = await freeAsns(ctx, parent, requests.length);
    if (asns.length < requests.length) return null;
    return requests.map((request, i) => ({ ...request, asn: asns[i]!, rir: parent.values.rir }));
  },
};

/** The ASN range functions, by the names YAML uses. */
export const asnRangeFunctions = {
  'ipam.asnRangeAsnCount': { kind: 'compute', fn: asnRangeAsnCount },
  'ipam.availableAsns': { kind: 'allocator', fn: availableAsns },
} satisfies Record<string, DomainEntry>;
