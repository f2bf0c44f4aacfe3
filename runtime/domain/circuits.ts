import type { BatchContext, DomainEntry, FilterFunction, WriteItemContext } from './types.js';
import type { ModelInfo } from '../rest/schema.js';

/** Circuits behaviour that YAML cannot declare: termination ends, site filters through terminations. */

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

/** A distance needs its unit. */
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

/** Circuit terminations at a site: directly, or at one of its locations. */
async function terminationsAtSites(ctx: BatchContext, values: readonly string[]): Promise<number[] | string> {
  const bad = values.find((v) => !/^\d+$/.test(v.trim()));
  if (bad !== undefined) return `Select a valid choice. ${bad} is not one of the available choices.`;
  const sites = values.map(Number);
  const locations = (
    (await ctx.q(ctx.schema.model('dcim.location').table).whereIn('site_id', sites).select('id')) as Row[]
  ).map((r) => Number(r.id));
  const terminations = ctx.schema.model('circuits.circuittermination');
  const rows = (await ctx
    .q(terminations.table)
    .where((w) => {
      w.where((x) => x.where('termination_type', 'dcim.site').whereIn('termination_id', sites));
      if (locations.length)
        w.orWhere((x) => x.where('termination_type', 'dcim.location').whereIn('termination_id', locations));
    })
    .select('circuit_id')) as Row[];
  return rows.map((r) => Number(r.circuit_id));
}

/** Circuits terminating at the given sites. */
const circuitsAtSite: FilterFunction = async (ctx, _model, values) => {
  const circuits = await terminationsAtSites(ctx, values);
  if (typeof circuits === 'string') return circuits;
  return (query) => {
    query.whereIn('t0.id', circuits.length ? circuits : [-1]);
  };
};

/** Providers with circuits terminating at the given sites. */
const providersAtSite: FilterFunction = async (ctx, _model, values) => {
  const circuits = await terminationsAtSites(ctx, values);
  if (typeof circuits === 'string') return circuits;
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

/** The circuits app's domain functions, by the names YAML uses. */
export const circuitsFunctions = {
  'circuits.displayTermination': { kind: 'display', fn: displayTermination },
  'circuits.terminationA': { kind: 'compute', fn: terminationOf('A') },
  'circuits.terminationZ': { kind: 'compute', fn: terminationOf('Z') },
  'circuits.validateCircuit': { kind: 'validator', fn: validateCircuit },
  'circuits.validateTermination': { kind: 'validator', fn: validateTermination },
  'circuits.circuitsAtSite': { kind: 'filter', fn: circuitsAtSite },
  'circuits.providersAtSite': { kind: 'filter', fn: providersAtSite },
} satisfies Record<string, DomainEntry>;
