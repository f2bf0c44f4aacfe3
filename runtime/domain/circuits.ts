import type { Knex } from 'knex';
import type { BatchContext, DomainEntry, FilterFunction, WriteItemContext } from './types.js';
import type { ModelInfo } from '../rest/schema.js';
import { cacheScope } from './ipam.js';
import { nestedList } from './nested-lists.js';
import { escapeLike, ilike } from '../db/sql.js';

/** Circuits behaviour that YAML cannot declare: termination ends, cached sites, site filters. */

type Row = Record<string, unknown>;

/** `<cid>: Termination <A|Z>`. */
export function displayTermination(values: Record<string, unknown>): string {
  return `${String(values['circuit.cid'] ?? '')}: Termination ${String(values.term_side ?? '')}`;
}

/** A choice's label from its value, for the circuits' priority and role choices (each label is its value capitalised). */
const labelOf = (value: unknown): string => {
  const text = String(value ?? '');
  return text.charAt(0).toUpperCase() + text.slice(1);
};

/** `<group>` or `<group> (<Priority>)`, as NetBox's CircuitGroupAssignment.__str__. */
export function displayGroupAssignment(values: Record<string, unknown>): string {
  const group = String(values['group.name'] ?? '');
  return values.priority ? `${group} (${labelOf(values.priority)})` : group;
}

/** `<cid>: <Role> termination`, as NetBox's VirtualCircuitTermination.__str__. */
export function displayVirtualTermination(values: Record<string, unknown>): string {
  return `${String(values['virtual_circuit.cid'] ?? '')}: ${labelOf(values.role)} termination`;
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

const CACHED = ['_region', '_site_group', '_site', '_location'] as const;

/**
 * The hidden `_region`/`_site_group`/`_site`/`_location`/`_provider_network` FKs follow the terminating object (as a cluster's
 * follow its scope), for the site filters, the sites' circuit counts and deletion with the site.
 */
export async function cacheTermination(item: WriteItemContext): Promise<void> {
  const scope: Record<string, unknown> = {
    scope_type: item.values.termination_type,
    scope_id: item.values.termination_id,
  };
  await cacheScope({ ...item, values: scope });
  for (const key of CACHED) item.values[key] = scope[key] ?? null;
  const atNetwork = item.values.termination_type === 'circuits.providernetwork';
  item.values._provider_network = atNetwork ? (item.values.termination_id ?? null) : null;
}

/**
 * `termination_a_id` / `termination_z_id`: circuits whose termination on that side is one of the given
 * terminations (NetBox keeps it as an FK of the circuit); `null` selects circuits without one.
 */
function circuitsWithTermination(side: 'A' | 'Z'): FilterFunction {
  return async (ctx, _model, values, lookup) => {
    const terminations = ctx.schema.model('circuits.circuittermination');
    const given = values.filter((v) => v !== 'null');
    const bad = given.find((v) => !/^\d+$/.test(v.trim()));
    if (bad !== undefined) return `Select a valid choice. ${bad} is not one of the available choices.`;
    const ids = given.map(Number);
    const found = ids.length
      ? new Set(((await ctx.q(terminations.table).whereIn('id', ids).select('id')) as Row[]).map((r) => Number(r.id)))
      : new Set<number>();
    const missing = given.find((v) => !found.has(Number(v)));
    if (missing !== undefined) return `Select a valid choice. ${missing} is not one of the available choices.`;
    const onSide = (sub: Knex.QueryBuilder): Knex.QueryBuilder =>
      sub.select('c.circuit_id').from({ c: terminations.table }).where('c.term_side', side);
    const positive = (query: Knex.QueryBuilder): void =>
      void query.where((w) => {
        if (ids.length) w.orWhereIn('t0.id', (sub) => onSide(sub).whereIn('c.id', ids));
        if (given.length < values.length) w.orWhereNotIn('t0.id', onSide);
      });
    return lookup === 'n' ? (query) => void query.whereNot(positive) : positive;
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

/**
 * `provider_id` / `provider` of circuit group assignments: assignments of the providers' circuits and of the
 * virtual circuits on their networks (NetBox's `filter_provider`); no matching provider selects none.
 */
function assignmentsByProvider(by: 'id' | 'slug'): FilterFunction {
  return async (ctx, _model, values) => {
    if (by === 'id') {
      const bad = values.find((v) => !/^-?\d+$/.test(v.trim()));
      if (bad !== undefined) return 'Enter a number.';
    }
    const table = (label: string): string => ctx.schema.model(label).table;
    const providers = (sub: Knex.QueryBuilder): Knex.QueryBuilder =>
      sub
        .select('p.id')
        .from({ p: table('circuits.provider') })
        .whereIn(`p.${by}`, by === 'id' ? values.map((v) => Number(v.trim())) : values);
    return (query) =>
      void query.where((w) => {
        w.orWhere((one) =>
          one.where('t0.member_type', 'circuits.circuit').whereIn('t0.member_id', (sub) =>
            sub
              .select('c.id')
              .from({ c: table('circuits.circuit') })
              .whereIn('c.provider_id', providers),
          ),
        );
        w.orWhere((one) =>
          one.where('t0.member_type', 'circuits.virtualcircuit').whereIn('t0.member_id', (sub) =>
            sub
              .select('v.id')
              .from({ v: table('circuits.virtualcircuit') })
              .join({ n: table('circuits.providernetwork') }, 'n.id', 'v.provider_network_id')
              .whereIn('n.provider_id', providers),
          ),
        );
      });
  };
}

/** `q` on circuit group assignments also finds those whose member's (circuit's or virtual circuit's) ID matches. */
const searchAssignmentMembers: FilterFunction = async (ctx, _model, values) => {
  const pattern = `%${escapeLike(values[0]!.trim())}%`;
  return (query) =>
    void query.where((w) => {
      for (const label of ['circuits.circuit', 'circuits.virtualcircuit'])
        w.orWhere((one) =>
          one.where('t0.member_type', label).whereIn('t0.member_id', (sub) =>
            sub
              .select('m.id')
              .from({ m: ctx.schema.model(label).table })
              .whereRaw(ilike(ctx.dialect, '??'), ['m.cid', pattern]),
          ),
        );
    });
};

/** The circuits app's domain functions, by the names YAML uses. */
export const circuitsFunctions = {
  'circuits.searchTerminations': { kind: 'filter', fn: searchTerminations },
  'circuits.searchAssignmentMembers': { kind: 'filter', fn: searchAssignmentMembers },
  'circuits.displayTermination': { kind: 'display', fn: displayTermination },
  'circuits.displayGroupAssignment': { kind: 'display', fn: displayGroupAssignment },
  'circuits.displayVirtualTermination': { kind: 'display', fn: displayVirtualTermination },
  'circuits.terminationA': { kind: 'compute', fn: terminationOf('A') },
  'circuits.terminationZ': { kind: 'compute', fn: terminationOf('Z') },
  'circuits.providerAccounts': {
    kind: 'compute',
    fn: nestedList(
      'circuits.provideraccount',
      'provider_id',
      ['account'],
      ['id', 'url', 'display_url', 'display', 'name', 'account'],
    ),
  },
  'circuits.circuitGroupAssignments': {
    kind: 'compute',
    fn: nestedList(
      'circuits.circuitgroupassignment',
      'member_id',
      ['group_id', 'priority'],
      ['id', 'url', 'display', 'group', 'priority'],
      { member_type: 'circuits.circuit' },
    ),
  },
  'circuits.assignmentsByProviderId': { kind: 'filter', fn: assignmentsByProvider('id') },
  'circuits.assignmentsByProviderSlug': { kind: 'filter', fn: assignmentsByProvider('slug') },
  'circuits.cacheTermination': { kind: 'prepare', fn: cacheTermination },
  'circuits.circuitsWithTerminationA': { kind: 'filter', fn: circuitsWithTermination('A') },
  'circuits.circuitsWithTerminationZ': { kind: 'filter', fn: circuitsWithTermination('Z') },
} satisfies Record<string, DomainEntry>;
