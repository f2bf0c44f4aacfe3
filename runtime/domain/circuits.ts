import type { BatchContext, DomainEntry, FilterFunction, WriteItemContext } from './types.js';
import type { ModelInfo } from '../rest/schema.js';
import { cacheScope } from './ipam.js';
import { escapeLike, ilike } from '../db/sql.js';

/** Circuits behaviour that YAML cannot declare: termination ends, cached sites, site filters. */

type Row = Record<string, unknown>;

/** `<cid>: Termination <A|Z>`. */
export function displayTermination(values: Record<string, unknown>): string {
  return `${String(values['circuit.cid'] ?? '')}: Termination ${String(values.term_side ?? '')}`;
}

const TERMINATION_KEYS = [
  'id',
  'url',
  'display_url',
  'display',
  'termination_type',
  'termination_id',
  'termination',
  'port_speed',
  'upstream_speed',
  'xconnect_id',
  'description',
];

/** The A or Z termination of each circuit, as NetBox nests it in the circuit. */
function terminationOf(side: 'A' | 'Z') {
  return async (ctx: BatchContext, _model: ModelInfo, ids: readonly number[]): Promise<Map<number, unknown>> => {
    const terminations = ctx.schema.model('circuits.circuittermination');
    const rows = (await ctx
      .q(terminations.table)
      .whereIn('circuit_id', [...ids])
      .where('term_side', side)
      .select('id', 'circuit_id')) as Row[];
    const objects = ctx.load
      ? await ctx.load(
          terminations.label,
          TERMINATION_KEYS,
          rows.map((r) => Number(r.id)),
        )
      : [];
    const byId = new Map(objects.map((o) => [o.id as number, o]));
    return new Map(rows.map((r) => [Number(r.circuit_id), byId.get(Number(r.id)) ?? null]));
  };
}

/** A distance needs its unit; without a distance there is no unit. */
export function validateCircuit(item: WriteItemContext): void {
  const { distance, distance_unit: unit } = item.values;
  if (distance !== null && distance !== undefined && !unit)
    item.errors.add('__all__', 'Must specify a unit when setting a distance');
  if ((distance === null || distance === undefined) && unit) item.values.distance_unit = null;
}

/** A termination attaches to something. */
export function validateTermination(item: WriteItemContext): void {
  if (item.values.termination_type === null || item.values.termination_type === undefined) {
    item.errors.add('__all__', 'A circuit termination must attach to a terminating object.');
  }
}

const CACHED = ['_region', '_site_group', '_site', '_location'] as const;

/**
 * The hidden `_region`/`_site_group`/`_site`/`_location` FKs follow the terminating object (as a cluster's
 * follow its scope), for the site filters, the sites' circuit counts and deletion with the site.
 */
export async function cacheTermination(item: WriteItemContext): Promise<void> {
  const scope: Record<string, unknown> = {
    scope_type: item.values.termination_type,
    scope_id: item.values.termination_id,
  };
  await cacheScope({ ...item, values: scope });
  for (const key of CACHED) item.values[key] = scope[key] ?? null;
}

/** Circuits with a termination at one of the sites (directly, or at one of their locations). */
async function circuitsAt(ctx: BatchContext, column: string, values: readonly unknown[]): Promise<number[]> {
  const terminations = ctx.schema.model('circuits.circuittermination');
  const rows = (await ctx
    .q({ t: terminations.table })
    .join({ s: ctx.schema.model('dcim.site').table }, 's.id', 't._site_id')
    .whereIn(`s.${column}`, values as (string | number)[])
    .distinct('t.circuit_id')) as Row[];
  return rows.map((r) => Number(r.circuit_id));
}

/** Site ids or slugs of a filter, or the 400 message naming a value that is no site. */
async function siteValues(
  ctx: BatchContext,
  by: 'id' | 'slug',
  values: readonly string[],
): Promise<readonly unknown[] | string> {
  const invalid = (v: string): string => `Select a valid choice. ${v} is not one of the available choices.`;
  const bad = by === 'id' ? values.find((v) => !/^\d+$/.test(v.trim())) : undefined;
  if (bad !== undefined) return invalid(bad);
  const wanted = values.map((v) => (by === 'id' ? Number(v) : v.trim()));
  const rows = (await ctx.q(ctx.schema.model('dcim.site').table).whereIn(by, wanted).select(by)) as Row[];
  const found = new Set(rows.map((r) => String(r[by])));
  const missing = values.find((v, i) => !found.has(String(wanted[i])));
  return missing === undefined ? wanted : invalid(missing);
}

/** Circuits terminating at the given sites (`site_id`, `site`). */
function circuitsAtSite(by: 'id' | 'slug'): FilterFunction {
  return async (ctx, _model, values) => {
    const sites = await siteValues(ctx, by, values);
    if (typeof sites === 'string') return sites;
    const circuits = await circuitsAt(ctx, by, sites);
    return (query) => {
      query.whereIn('t0.id', circuits.length ? circuits : [-1]);
    };
  };
}

/** Providers with circuits terminating at the given sites (`site_id`, `site`). */
function providersAtSite(by: 'id' | 'slug'): FilterFunction {
  return async (ctx, _model, values) => {
    const sites = await siteValues(ctx, by, values);
    if (typeof sites === 'string') return sites;
    const circuits = await circuitsAt(ctx, by, sites);
    const rows = circuits.length
      ? ((await ctx
          .q(ctx.schema.model('circuits.circuit').table)
          .whereIn('id', circuits)
          .distinct('provider_id')) as Row[])
      : [];
    const providers = rows.map((r) => Number(r.provider_id));
    return (query) => {
      query.whereIn('t0.id', providers.length ? providers : [-1]);
    };
  };
}

/** `q` on circuits also finds circuits whose terminations' cross-connect, patch panel or description match. */
const searchTerminations: FilterFunction = async (ctx, _model, values) => {
  const pattern = `%${escapeLike(values[0]!.trim())}%`;
  const terminations = ctx.schema.model('circuits.circuittermination');
  return (query) => {
    query.whereIn('t0.id', function matching() {
      this.select('c.circuit_id')
        .from({ c: terminations.table })
        .where((w) => {
          for (const column of ['xconnect_id', 'pp_info', 'description'])
            w.orWhereRaw(ilike(ctx.dialect, '??'), [`c.${column}`, pattern]);
        });
    });
  };
};

/** The circuits app's domain functions, by the names YAML uses. */
export const circuitsFunctions = {
  'circuits.searchTerminations': { kind: 'filter', fn: searchTerminations },
  'circuits.displayTermination': { kind: 'display', fn: displayTermination },
  'circuits.terminationA': { kind: 'compute', fn: terminationOf('A') },
  'circuits.terminationZ': { kind: 'compute', fn: terminationOf('Z') },
  'circuits.validateCircuit': { kind: 'validator', fn: validateCircuit },
  'circuits.validateTermination': { kind: 'validator', fn: validateTermination },
  'circuits.cacheTermination': { kind: 'prepare', fn: cacheTermination },
  'circuits.circuitsAtSite': { kind: 'filter', fn: circuitsAtSite('id') },
  'circuits.circuitsAtSiteSlug': { kind: 'filter', fn: circuitsAtSite('slug') },
  'circuits.providersAtSite': { kind: 'filter', fn: providersAtSite('id') },
  'circuits.providersAtSiteSlug': { kind: 'filter', fn: providersAtSite('slug') },
} satisfies Record<string, DomainEntry>;
