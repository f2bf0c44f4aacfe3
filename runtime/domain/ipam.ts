import type { Knex } from 'knex';
import { parseIp } from '../rest/ip.js';
import type { ModelInfo } from '../rest/schema.js';
import type { BatchContext, DomainEntry, FilterFunction, WriteItemContext } from './types.js';

/**
 * IPAM behaviour that YAML cannot declare: prefix hierarchy within a VRF, uniqueness of prefixes and
 * addresses per VRF, the cached scope of prefixes and clusters, VLAN ID ranges.
 */

type Row = Record<string, unknown>;

/** `AS65000`. */
export function displayAsn(values: Record<string, unknown>): string {
  return `AS${String(values.asn ?? '')}`;
}

/** The hidden `_region`/`_site_group`/`_site`/`_location` FKs follow the scope, for filters and counts. */
export async function cacheScope(item: WriteItemContext): Promise<void> {
  const { values, q, schema } = item;
  const type = values.scope_type as string | null;
  const id = values.scope_id as number | null;
  const cache: Record<string, number | null> = { _region: null, _site_group: null, _site: null, _location: null };
  if (type && id !== null && id !== undefined) {
    let siteId: number | null = null;
    if (type === 'dcim.region') cache._region = id;
    else if (type === 'dcim.sitegroup') cache._site_group = id;
    else if (type === 'dcim.site') siteId = id;
    else if (type === 'dcim.location') {
      const location = (await q(schema.model('dcim.location').table).where('id', id).first('site_id')) as
        Row | undefined;
      cache._location = id;
      siteId = location ? Number(location.site_id) : null;
    }
    if (siteId !== null) {
      const site = (await q(schema.model('dcim.site').table).where('id', siteId).first('region_id', 'group_id')) as
        Row | undefined;
      cache._site = siteId;
      cache._region = (site?.region_id as number | null) ?? null;
      cache._site_group = (site?.group_id as number | null) ?? null;
    }
  }
  Object.assign(values, cache);
}

/** Columns of an IP field: its text and the hidden family/range/length columns. */
function ipColumns(
  model: ModelInfo,
  field: string,
): { text: string; family: string; start: string; end: string; len: string } {
  const column = model.fields.get(field)!.column!;
  return {
    text: column,
    family: `${column}_family`,
    start: `${column}_start`,
    end: `${column}_end`,
    len: `${column}_len`,
  };
}

/** `c.vrf` is the same VRF as `p.vrf` (both null for the global table). */
function sameVrf(c: string, p: string): string {
  return `(${c}.vrf_id = ${p}.vrf_id OR (${c}.vrf_id IS NULL AND ${p}.vrf_id IS NULL))`;
}

async function prefixRelatives(
  ctx: BatchContext,
  model: ModelInfo,
  ids: readonly number[],
  relation: 'children' | 'parents',
): Promise<Map<number, unknown>> {
  const ip = ipColumns(model, 'prefix');
  const inside =
    relation === 'children'
      ? `c.${ip.start} >= p.${ip.start} AND c.${ip.end} <= p.${ip.end} AND c.${ip.len} > p.${ip.len}`
      : `c.${ip.start} <= p.${ip.start} AND c.${ip.end} >= p.${ip.end} AND c.${ip.len} < p.${ip.len}`;
  const sql = `SELECT p.id AS id, (SELECT count(DISTINCT c.${ip.text}) FROM ${model.table} c WHERE c.${ip.family} = p.${ip.family} AND ${sameVrf('c', 'p')} AND ${inside}) AS n FROM ${model.table} p WHERE p.id IN (${ids.map(() => '?').join(', ')})`;
  const result: unknown = await ctx.q.raw(sql, [...ids]);
  const rows = (ctx.dialect === 'postgres' ? (result as { rows: Row[] }).rows : result) as Row[];
  return new Map(rows.map((r) => [Number(r.id), Number(r.n)]));
}

/** Prefixes strictly inside each prefix, in the same VRF (one query per page). */
export function prefixChildren(
  ctx: BatchContext,
  model: ModelInfo,
  ids: readonly number[],
): Promise<Map<number, unknown>> {
  return prefixRelatives(ctx, model, ids, 'children');
}

/** Distinct prefixes strictly containing each prefix, in the same VRF (one query per page). */
export function prefixDepth(
  ctx: BatchContext,
  model: ModelInfo,
  ids: readonly number[],
): Promise<Map<number, unknown>> {
  return prefixRelatives(ctx, model, ids, 'parents');
}

/** Whether a VRF (or the global table) requires unique prefixes and addresses. */
async function enforcesUniqueness(
  item: WriteItemContext,
  vrfId: unknown,
): Promise<{ enforce: boolean; name: string | null }> {
  if (vrfId === null || vrfId === undefined) return { enforce: item.settings.ENFORCE_GLOBAL_UNIQUE, name: null };
  const vrf = (await item
    .q(item.schema.model('ipam.vrf').table)
    .where('id', vrfId as number)
    .first('name', 'rd', 'enforce_unique')) as Row | undefined;
  const display = vrf ? (vrf.rd ? `${String(vrf.name)} (${String(vrf.rd)})` : String(vrf.name)) : String(vrfId);
  return { enforce: Boolean(vrf?.enforce_unique), name: display };
}

/** A prefix may not be /0, and is unique in its VRF when the VRF (or ENFORCE_GLOBAL_UNIQUE) says so. */
export async function validatePrefix(item: WriteItemContext): Promise<void> {
  const prefix = item.values.prefix as string;
  const ip = parseIp(prefix);
  if (!ip) return;
  if (ip.len === 0) {
    item.errors.add('prefix', 'Cannot create prefix with /0 mask.');
    return;
  }
  const { enforce, name } = await enforcesUniqueness(item, item.values.vrf);
  if (!enforce) return;
  const query = item.q(item.model.table).where('prefix', prefix);
  if (item.values.vrf === null || item.values.vrf === undefined) query.whereNull('vrf_id');
  else query.where('vrf_id', item.values.vrf as number);
  if (item.existing) query.whereNot('id', item.id!);
  if (await query.first('id')) {
    item.errors.add(
      'prefix',
      name ? `Duplicate prefix found in VRF ${name}: ${prefix}` : `Duplicate prefix found in global table: ${prefix}`,
    );
  }
}

/** Aggregates may not be /0 and may not overlap. */
export async function validateAggregate(item: WriteItemContext): Promise<void> {
  const prefix = item.values.prefix as string;
  const ip = parseIp(prefix);
  if (!ip) return;
  if (ip.len === 0) {
    item.errors.add('prefix', 'Cannot create aggregate with /0 mask.');
    return;
  }
  const columns = ipColumns(item.model, 'prefix');
  const base = (): Knex.QueryBuilder => {
    const query = item.q(item.model.table).where(columns.family, ip.family);
    if (item.existing) query.whereNot('id', item.id!);
    return query;
  };
  const covering = (await base()
    .where(columns.start, '<=', ip.start)
    .where(columns.end, '>=', ip.end)
    .first('prefix')) as Row | undefined;
  if (covering) {
    item.errors.add(
      'prefix',
      `Aggregates cannot overlap. ${prefix} is already covered by an existing aggregate (${String(covering.prefix)}).`,
    );
    return;
  }
  const covered = (await base()
    .where(columns.start, '>=', ip.start)
    .where(columns.end, '<=', ip.end)
    .first('prefix')) as Row | undefined;
  if (covered)
    item.errors.add(
      'prefix',
      `Prefixes cannot overlap aggregates. ${prefix} covers an existing aggregate (${String(covered.prefix)}).`,
    );
}

const NON_UNIQUE_ROLES = new Set(['anycast', 'vip', 'vrrp', 'hsrp', 'glbp', 'carp']);

/** Address rules: no /0, SLAAC only for IPv6, no network ID or broadcast on interfaces, unique per VRF. */
export async function validateIpAddress(item: WriteItemContext): Promise<void> {
  const address = item.values.address as string;
  const ip = parseIp(address);
  if (!ip) return;
  if (ip.len === 0) {
    item.errors.add('address', 'Cannot create IP address with /0 mask.');
    return;
  }
  if (item.values.status === 'slaac' && ip.family !== 6)
    item.errors.add('status', 'Only IPv6 addresses can be assigned SLAAC status');
  const assigned = item.values.assigned_object_type !== null && item.values.assigned_object_type !== undefined;
  const pointToPoint = ip.family === 4 ? ip.len >= 31 : ip.len >= 127;
  if (assigned && !pointToPoint) {
    if (ip.address === ip.network)
      item.errors.add('__all__', `${ip.address} is a network ID, which may not be assigned to an interface.`);
    else if (ip.family === 4 && ip.host === ip.end)
      item.errors.add('__all__', `${ip.address} is a broadcast address, which may not be assigned to an interface.`);
  }
  if (item.errors.has()) return;
  const { enforce, name } = await enforcesUniqueness(item, item.values.vrf);
  if (!enforce || NON_UNIQUE_ROLES.has(String(item.values.role))) return;
  const columns = ipColumns(item.model, 'address');
  const query = item.q(item.model.table).where(columns.family, ip.family).where(columns.start, ip.host);
  if (item.values.vrf === null || item.values.vrf === undefined) query.whereNull('vrf_id');
  else query.where('vrf_id', item.values.vrf as number);
  if (item.existing) query.whereNot('id', item.id!);
  const duplicates = (await query.select('role')) as Row[];
  if (duplicates.some((d) => !NON_UNIQUE_ROLES.has(String(d.role)))) {
    item.errors.add(
      'address',
      name
        ? `Duplicate IP address found in VRF ${name}: ${address}`
        : `Duplicate IP address found in global table: ${address}`,
    );
  }
}

/** Addresses that point at each address as their NAT inside address. */
export async function natOutside(
  ctx: BatchContext,
  model: ModelInfo,
  ids: readonly number[],
): Promise<Map<number, unknown>> {
  const rows = (await ctx
    .q(model.table)
    .whereIn('nat_inside_id', [...ids])
    .select('id', 'nat_inside_id')) as Row[];
  const objects = ctx.load
    ? await ctx.load(
        model.label,
        ['id', 'url', 'display_url', 'display', 'family', 'address'],
        rows.map((r) => Number(r.id)),
      )
    : [];
  const byId = new Map(objects.map((o) => [o.id as number, o]));
  const result = new Map<number, unknown>();
  for (const row of rows) {
    const list = (result.get(Number(row.nat_inside_id)) ?? []) as unknown[];
    const object = byId.get(Number(row.id));
    if (object) list.push(object);
    result.set(Number(row.nat_inside_id), list);
  }
  for (const id of ids) if (!result.has(id)) result.set(id, []);
  return result;
}

const integers = (values: readonly string[]): number[] | string => {
  const bad = values.find((v) => !/^\d+$/.test(v.trim()));
  return bad === undefined ? values.map(Number) : `Select a valid choice. ${bad} is not one of the available choices.`;
};

/** Prefixes or addresses in a VRF, plus those in VRFs exporting a route target the VRF imports. */
export const presentInVrfId: FilterFunction = async (ctx, _model, values) => {
  const ids = integers(values);
  if (typeof ids === 'string') return ids;
  const vrf = ctx.schema.model('ipam.vrf');
  const imports = vrf.fields.get('import_targets') as { through: string };
  const exports = vrf.fields.get('export_targets') as { through: string };
  const exporting = (await ctx
    .q({ e: exports.through })
    .join({ i: imports.through }, 'i.to_id', 'e.to_id')
    .whereIn('i.from_id', ids)
    .distinct('e.from_id')) as Row[];
  const vrfs = [...new Set([...ids, ...exporting.map((r) => Number(r.from_id))])];
  return (query) => {
    query.whereIn('t0.vrf_id', vrfs);
  };
};

/** Addresses assigned to interfaces of the given parents (devices, VMs) or to the given interfaces. */
function assignedTo(type: string, parentField: string | null): FilterFunction {
  return async (ctx, _model, values) => {
    const ids = integers(values);
    if (typeof ids === 'string') return ids;
    const interfaces = ctx.schema.model(type);
    return (query) => {
      query.where('t0.assigned_object_type', type).whereIn('t0.assigned_object_id', function assigned() {
        if (parentField)
          this.select('i.id')
            .from({ i: interfaces.table })
            .whereIn(`i.${interfaces.fields.get(parentField)!.column}`, ids);
        else this.select('i.id').from({ i: interfaces.table }).whereIn('i.id', ids);
      });
    };
  };
}

/** `assigned=true|false`: the address is (not) assigned to an interface. */
export const ipAddressAssigned: FilterFunction = async (_ctx, _model, values) => {
  const flag = values[0]!.trim().toLowerCase();
  if (!['true', 'false', '1', '0'].includes(flag))
    return `Select a valid choice. ${values[0]} is not one of the available choices.`;
  const assigned = flag === 'true' || flag === '1';
  return (query) => {
    if (assigned) query.whereNotNull('t0.assigned_object_id');
    else query.whereNull('t0.assigned_object_id');
  };
};

/** VLAN ID ranges: a list of inclusive [low, high] pairs within 1–4094 that do not overlap. */
export function checkVidRanges(value: unknown): string | null {
  if (!Array.isArray(value)) return 'Ranges must be specified in the form (lower, upper).';
  const ranges: [number, number][] = [];
  for (const range of value) {
    if (!Array.isArray(range) || range.length !== 2) return 'Ranges must be specified in the form (lower, upper).';
    const [low, high] = range as unknown[];
    if (!Number.isInteger(low) || !Number.isInteger(high)) return 'Range boundaries must be defined as integers.';
    if ((low as number) < 1) return `Starting VLAN ID in range (${String(low)}) cannot be less than 1`;
    if ((high as number) > 4094) return `Ending VLAN ID in range (${String(high)}) cannot exceed 4094`;
    if ((high as number) < (low as number)) {
      return `Ending VLAN ID in range must be greater than or equal to the starting VLAN ID (${String(low)}-${String(high)})`;
    }
    ranges.push([low as number, high as number]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < ranges.length; i += 1) if (ranges[i]![0] <= ranges[i - 1]![1]) return 'Ranges cannot overlap.';
  return null;
}

export function validateVlanGroup(item: WriteItemContext): void {
  const problem = checkVidRanges(item.values.vid_ranges);
  if (problem) item.errors.add('vid_ranges', problem);
}

function rangesOf(row: Row): [number, number][] {
  const raw = typeof row.vid_ranges === 'string' ? (JSON.parse(row.vid_ranges) as unknown) : row.vid_ranges;
  return Array.isArray(raw) ? (raw as [number, number][]) : [];
}

function totalOf(ranges: readonly [number, number][]): number {
  return ranges.reduce((sum, [low, high]) => sum + (high - low + 1), 0);
}

export async function totalVlanIds(
  ctx: BatchContext,
  model: ModelInfo,
  ids: readonly number[],
): Promise<Map<number, unknown>> {
  const rows = (await ctx
    .q(model.table)
    .whereIn('id', [...ids])
    .select('id', 'vid_ranges')) as Row[];
  return new Map(rows.map((r) => [Number(r.id), totalOf(rangesOf(r))]));
}

/** `vlan_count * 100 / total_vlan_ids`, rounded to two places, as a string (NetBox renders it so). */
export async function vlanGroupUtilization(
  ctx: BatchContext,
  model: ModelInfo,
  ids: readonly number[],
): Promise<Map<number, unknown>> {
  const rows = (await ctx
    .q(model.table)
    .whereIn('id', [...ids])
    .select('id', 'vid_ranges')) as Row[];
  const vlan = ctx.schema.model('ipam.vlan');
  const counts = (await ctx
    .q(vlan.table)
    .whereIn('group_id', [...ids])
    .groupBy('group_id')
    .select('group_id')
    .count({ n: '*' })) as Row[];
  const byGroup = new Map(counts.map((c) => [Number(c.group_id), Number(c.n)]));
  return new Map(
    rows.map((r) => {
      const total = totalOf(rangesOf(r));
      return [Number(r.id), total > 0 ? (((byGroup.get(Number(r.id)) ?? 0) * 100) / total).toFixed(2) : null];
    }),
  );
}

/** VLAN groups whose ranges contain the VID. */
export const vlanGroupContainsVid: FilterFunction = async (ctx, model, values) => {
  const vids = integers(values);
  if (typeof vids === 'string') return vids;
  const rows = (await ctx.q(model.table).select('id', 'vid_ranges')) as Row[];
  const matching = rows
    .filter((r) => rangesOf(r).some(([low, high]) => vids.some((v) => v >= low && v <= high)))
    .map((r) => Number(r.id));
  return (query) => {
    query.whereIn('t0.id', matching.length ? matching : [-1]);
  };
};

/** A VLAN in a group must use a VID inside the group's ranges. */
export async function validateVlan(item: WriteItemContext): Promise<void> {
  const group = item.values.group as number | null;
  if (group === null || group === undefined) return;
  const row = (await item
    .q(item.schema.model('ipam.vlangroup').table)
    .where('id', group)
    .first('name', 'vid_ranges')) as Row | undefined;
  if (!row) return;
  const ranges = rangesOf(row);
  const vid = Number(item.values.vid);
  if (!ranges.some(([low, high]) => vid >= low && vid <= high)) {
    const text = ranges.map(([low, high]) => (low === high ? String(low) : `${low}-${high}`)).join(', ');
    item.errors.add('vid', `VID must be in ranges ${text} for VLANs in group ${String(row.name)}`);
  }
}

/** The ipam app's domain functions, by the names YAML uses. */
export const ipamFunctions = {
  'ipam.displayAsn': { kind: 'display', fn: displayAsn },
  'ipam.cacheScope': { kind: 'prepare', fn: cacheScope },
  'ipam.prefixChildren': { kind: 'compute', fn: prefixChildren },
  'ipam.prefixDepth': { kind: 'compute', fn: prefixDepth },
  'ipam.validatePrefix': { kind: 'validator', fn: validatePrefix },
  'ipam.validateAggregate': { kind: 'validator', fn: validateAggregate },
  'ipam.validateIpAddress': { kind: 'validator', fn: validateIpAddress },
  'ipam.natOutside': { kind: 'compute', fn: natOutside },
  'ipam.presentInVrfId': { kind: 'filter', fn: presentInVrfId },
  'ipam.ipAddressesOfDevice': { kind: 'filter', fn: assignedTo('dcim.interface', 'device') },
  'ipam.ipAddressesOfVirtualMachine': {
    kind: 'filter',
    fn: assignedTo('virtualization.vminterface', 'virtual_machine'),
  },
  'ipam.ipAddressesOfInterface': { kind: 'filter', fn: assignedTo('dcim.interface', null) },
  'ipam.ipAddressesOfVmInterface': { kind: 'filter', fn: assignedTo('virtualization.vminterface', null) },
  'ipam.ipAddressAssigned': { kind: 'filter', fn: ipAddressAssigned },
  'ipam.validateVlanGroup': { kind: 'validator', fn: validateVlanGroup },
  'ipam.totalVlanIds': { kind: 'compute', fn: totalVlanIds },
  'ipam.vlanGroupUtilization': { kind: 'compute', fn: vlanGroupUtilization },
  'ipam.vlanGroupContainsVid': { kind: 'filter', fn: vlanGroupContainsVid },
  'ipam.validateVlan': { kind: 'validator', fn: validateVlan },
} satisfies Record<string, DomainEntry>;
