import { escapeLike, ilike } from '../db/sql.js';
import { parseIp } from '../rest/ip.js';
import { ipColumns } from './ipam.js';
import type { ComputeFunction, DomainEntry, FilterFunction } from './types.js';

/** FHRP groups: their display, their addresses (IP addresses assigned to a group), search and related_ip. */

type Row = Record<string, unknown>;
const ADDRESS_MODEL = 'ipam.ipaddress';
const GROUP_MODEL = 'ipam.fhrpgroup';

const PROTOCOLS: Readonly<Record<string, string>> = {
  vrrp2: 'VRRPv2',
  vrrp3: 'VRRPv3',
  carp: 'CARP',
  clusterxl: 'ClusterXL',
  hsrp: 'HSRP',
  glbp: 'GLBP',
  other: 'Other',
};

/** NetBox's FHRPGroup.__str__ without its first address: `[name ]<protocol>: <group id>`. */
export function displayFhrpGroup(values: Record<string, unknown>): string {
  const name = typeof values.name === 'string' && values.name ? `${values.name} ` : '';
  const protocol = PROTOCOLS[String(values.protocol)] ?? String(values.protocol ?? '');
  return `${name}${protocol}: ${String(values.group_id ?? '')}`;
}

/** NetBox's FHRPGroupAssignment.__str__ without its interface: `<group> (<priority>)`. */
export function displayFhrpGroupAssignment(values: Record<string, unknown>): string {
  const group = displayFhrpGroup({
    name: values['group.name'],
    protocol: values['group.protocol'],
    group_id: values['group.group_id'],
  });
  return `${group} (${String(values.priority ?? '')})`;
}

/** The IP addresses assigned to each group of a page, nested, in address order. */
const fhrpGroupAddresses: ComputeFunction = async (ctx, model, ids) => {
  const addresses = ctx.schema.model(ADDRESS_MODEL);
  const ip = ipColumns(addresses, 'address');
  const rows = (await ctx
    .q(addresses.table)
    .where('assigned_object_type', model.label)
    .whereIn('assigned_object_id', [...ids])
    .orderBy([ip.family, ip.start, ip.len, 'id'])
    .select('id', 'assigned_object_id')) as Row[];
  const nested = await ctx.load!(
    ADDRESS_MODEL,
    addresses.spec.nested,
    rows.map((r) => Number(r.id)),
  );
  const byId = new Map(nested.map((object) => [Number(object.id), object]));
  const result = new Map<number, unknown>(ids.map((id) => [id, [] as unknown[]]));
  for (const row of rows) {
    const object = byId.get(Number(row.id));
    if (object) (result.get(Number(row.assigned_object_id)) as unknown[] | undefined)?.push(object);
  }
  return result;
};

/** `q` on FHRP groups: the name or description contains the text, or the group id's digits do. */
const searchFhrpGroups: FilterFunction = async (ctx, _model, values) => {
  const term = values[0]!.trim();
  const like = `%${escapeLike(term)}%`;
  return (query) => {
    if (!term) return;
    query.where((w) =>
      w
        .whereRaw(ilike(ctx.dialect, '??'), ['t0.name', like])
        .orWhereRaw(ilike(ctx.dialect, '??'), ['t0.description', like])
        .orWhereRaw(`CAST(?? AS TEXT) LIKE ?`, ['t0.group_id', like]),
    );
  };
};

/**
 * NetBox's related_ip: groups with an address in the network of one of the given addresses (by id), in the same
 * VRF (`ip_addresses__address__net_contained_or_equal`).
 */
const fhrpGroupsWithRelatedIp: FilterFunction = async (ctx, _model, values) => {
  const ids = values.map(Number);
  if (ids.some((id) => !Number.isInteger(id))) return 'Enter a whole number.';
  const addresses = ctx.schema.model(ADDRESS_MODEL);
  const ip = ipColumns(addresses, 'address');
  // An address's own columns hold its host: its network's bounds come from its text.
  const given = (await ctx.q(addresses.table).whereIn('id', ids).select(ip.text, 'vrf_id')) as Row[];
  const networks = given.flatMap((row) => {
    const parsed = parseIp(String(row[ip.text]));
    return parsed ? [{ parsed, vrf: (row.vrf_id as number | null) ?? null }] : [];
  });
  return (query) =>
    query.whereIn(
      't0.id',
      ctx
        .q(addresses.table)
        .where('assigned_object_type', GROUP_MODEL)
        .where((w) => {
          if (networks.length === 0) w.whereRaw('1 = 0');
          for (const { parsed, vrf } of networks)
            w.orWhere((one) => {
              one
                .where(ip.family, parsed.family)
                .where(ip.start, '>=', parsed.start)
                .where(ip.end, '<=', parsed.end)
                .where(ip.len, '>=', parsed.len);
              if (vrf === null) one.whereNull('vrf_id');
              else one.where('vrf_id', vrf);
            });
        })
        .select('assigned_object_id'),
    );
};

/** FHRP groups' domain functions, by the names YAML uses. */
export const fhrpFunctions = {
  'ipam.displayFhrpGroup': { kind: 'display', fn: displayFhrpGroup },
  'ipam.displayFhrpGroupAssignment': { kind: 'display', fn: displayFhrpGroupAssignment },
  'ipam.fhrpGroupAddresses': { kind: 'compute', fn: fhrpGroupAddresses },
  'ipam.searchFhrpGroups': { kind: 'filter', fn: searchFhrpGroups },
  'ipam.fhrpGroupsWithRelatedIp': { kind: 'filter', fn: fhrpGroupsWithRelatedIp },
} satisfies Record<string, DomainEntry>;
