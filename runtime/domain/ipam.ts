import type { Knex } from 'knex';
import { nestedList } from './nested-lists.js';
import { escapeLike, ilike, rawRows } from '../db/sql.js';
import { lockKey } from '../db/transaction.js';
import { parseIp, type ParsedIp } from '../rest/ip.js';
import type { ModelInfo } from '../rest/schema.js';
import { populatedRangeHolding } from './ip-ranges.js';
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

/**
 * When a site changes region or group, or a location changes site, the objects whose cached scope goes
 * through it (prefixes, clusters, circuit terminations) follow, as NetBox's `sync_cached_scope_fields` does. A
 * prepare hook of `dcim.site` and `dcim.location`.
 */
export async function recacheScopes(item: WriteItemContext): Promise<void> {
  const { values, existing, q, schema, model } = item;
  if (!existing) return;
  const moved = (field: string): boolean => Number(values[field] ?? 0) !== Number(existing[field] ?? 0);
  // Every model that caches a scope (prefixes, clusters, circuit terminations…) keeps these hidden links.
  const cached = [...schema.models.values()].filter((m) =>
    ['_region', '_site_group', '_site', '_location'].every((name) => m.fields.get(name)?.hidden),
  );
  if (model.label === 'dcim.site' && (moved('region') || moved('group'))) {
    const changes = { _region_id: values.region ?? null, _site_group_id: values.group ?? null };
    for (const target of cached) await q(target.table).where('_site_id', item.id!).update(changes);
  } else if (model.label === 'dcim.location' && moved('site')) {
    const site = (await q(schema.model('dcim.site').table)
      .where('id', values.site as number)
      .first('region_id', 'group_id')) as Row | undefined;
    const changes = {
      _site_id: values.site ?? null,
      _region_id: site?.region_id ?? null,
      _site_group_id: site?.group_id ?? null,
    };
    for (const target of cached) await q(target.table).where('_location_id', item.id!).update(changes);
  }
}

/** Columns of an IP field: its text and the hidden family/range/length columns. */
export function ipColumns(
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
export function sameVrf(c: string, p: string): string {
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
  // As NetBox counts them: every prefix inside is a child (duplicates too), but a parent counts once.
  const counted = relation === 'children' ? '*' : `DISTINCT c.${ip.text}`;
  const sql = `SELECT p.id AS id, (SELECT count(${counted}) FROM ${model.table} c WHERE c.${ip.family} = p.${ip.family} AND ${sameVrf('c', 'p')} AND ${inside}) AS n FROM ${model.table} p WHERE p.id IN (${ids.map(() => '?').join(', ')})`;
  const result: unknown = await ctx.q.raw(sql, [...ids]);
  const rows = rawRows<Row>(ctx.dialect, result);
  return new Map(rows.map((r) => [Number(r.id), Number(r.n)]));
}

/** Prefixes strictly inside each prefix, in the same VRF, duplicates included (one query per page). */
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
  await lockKey(item.q, item.dialect, `ipam.prefix unique ${String(item.values.vrf ?? 'global')} ${prefix}`);
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
  await lockKey(item.q, item.dialect, `ipam.aggregate overlap ${ip.family}`);
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

/**
 * Address rules, in NetBox's order (the first broken one is reported): no /0; no network ID or IPv4
 * broadcast on an interface (point-to-point masks excepted); unique per VRF; a primary or OOB address stays
 * on its device or VM; SLAAC only for IPv6.
 */
export async function validateIpAddress(item: WriteItemContext): Promise<void> {
  const ip = parseIp(String(item.values.address ?? ''));
  if (!ip) return;
  if (ip.len === 0) {
    item.errors.add('address', 'Cannot create IP address with /0 mask.');
    return;
  }
  const assigned = item.values.assigned_object_type !== null && item.values.assigned_object_type !== undefined;
  const pointToPoint = ip.family === 4 ? ip.len >= 31 : ip.len >= 127;
  if (assigned && !pointToPoint) {
    if (ip.address === ip.network)
      item.errors.add('__all__', `${ip.address} is a network ID, which may not be assigned to an interface.`);
    else if (ip.family === 4 && ip.host === ip.end)
      item.errors.add('__all__', `${ip.address} is a broadcast address, which may not be assigned to an interface.`);
    if (item.errors.has()) return;
  }
  const duplicate = await firstDuplicateAddress(item, ip);
  if (duplicate) {
    item.errors.add('address', duplicate);
    return;
  }
  if (!item.existing) {
    const range = await populatedRangeHolding(item.q, item.schema.model('ipam.iprange'), item.values.vrf, ip);
    if (range) {
      item.errors.add('address', `Cannot create IP address ${ip.address}/${ip.len} inside range ${range}.`);
      return;
    }
  }
  await checkPrimaryReassignment(item, ip.family);
  if (item.errors.has()) return;
  if (item.values.status === 'slaac' && ip.family !== 6)
    item.errors.add('status', 'Only IPv6 addresses can be assigned SLAAC status');
}

/**
 * The duplicate message when the address's host is already in its VRF (or the global table) and that space
 * is unique; shared addresses (anycast, VIPs, FHRP) may repeat, but only when every copy has such a role.
 */
async function firstDuplicateAddress(item: WriteItemContext, ip: ParsedIp): Promise<string | null> {
  const { enforce, name } = await enforcesUniqueness(item, item.values.vrf);
  if (!enforce) return null;
  await lockKey(
    item.q,
    item.dialect,
    `ipam.ipaddress unique ${String(item.values.vrf ?? 'global')} ${ip.family}:${ip.host}`,
  );
  const columns = ipColumns(item.model, 'address');
  const query = item.q(item.model.table).where(columns.family, ip.family).where(columns.start, ip.host);
  if (item.values.vrf === null || item.values.vrf === undefined) query.whereNull('vrf_id');
  else query.where('vrf_id', item.values.vrf as number);
  if (item.existing) query.whereNot('id', item.id!);
  // In address order (the shorter mask first for one host): NetBox names the first duplicate.
  const duplicates = (await query.orderBy(columns.len).orderBy('id').select(columns.text, 'role')) as Row[];
  if (duplicates.length === 0) return null;
  const shared = (role: unknown): boolean => NON_UNIQUE_ROLES.has(String(role));
  if (shared(item.values.role) && duplicates.every((d) => shared(d.role))) return null;
  const first = String(duplicates[0]![columns.text]);
  return `Duplicate IP address found in ${name ? `VRF ${name}` : 'global table'}: ${first}`;
}

/** The device or virtual machine of an interface (a generic relation's target), if any. */
async function parentOf(
  item: WriteItemContext,
  type: unknown,
  id: unknown,
): Promise<{ label: string; row: Row } | null> {
  if (type === null || type === undefined || id === null || id === undefined) return null;
  const parentField = { 'dcim.interface': 'device', 'virtualization.vminterface': 'virtual_machine' }[String(type)];
  if (!parentField) return null;
  const interfaces = item.schema.model(String(type));
  const field = interfaces.fields.get(parentField) as { column: string; target: string };
  const parent = item.schema.model(field.target);
  const columns = ['primary_ip4', 'primary_ip6', 'oob_ip'].flatMap((name) => {
    const column = parent.fields.get(name)?.column;
    return column ? [`p.${column} as ${name}`] : [];
  });
  const row = (await item
    .q({ i: interfaces.table })
    .join({ p: parent.table }, 'p.id', `i.${field.column}`)
    .where('i.id', id as number)
    .first('p.id as id', ...columns)) as Row | undefined;
  return row ? { label: parent.label, row } : null;
}

/** An address that is its device's (or VM's) primary or OOB address stays on that device or VM. */
async function checkPrimaryReassignment(item: WriteItemContext, family: 4 | 6): Promise<void> {
  const { existing, values } = item;
  if (!existing) return;
  const original = await parentOf(item, existing.assigned_object_type, existing.assigned_object_id);
  if (!original) return;
  const current = await parentOf(item, values.assigned_object_type, values.assigned_object_id);
  const moved = current?.label !== original.label || Number(current.row.id) !== Number(original.row.id);
  if (!moved) return;
  const primary = family === 4 ? original.row.primary_ip4 : original.row.primary_ip6;
  if (Number(primary) === item.id) {
    item.errors.add(
      '__all__',
      'Cannot reassign IP address while it is designated as the primary IP for the parent object',
    );
  } else if (Number(original.row.oob_ip) === item.id) {
    item.errors.add('__all__', 'Cannot reassign IP address while it is designated as the OOB IP for the parent object');
  }
}

/** Hidden `_network` of an address (its network with the mask), so that lists order like PostgreSQL `inet`. */
export function prepareIpAddress(item: WriteItemContext): void {
  const ip = parseIp(String(item.values.address ?? ''));
  if (ip) item.values._network = `${ip.network}/${ip.len}`;
}

/** Addresses that point at each address as their NAT inside address, in address order. */
export async function natOutside(
  ctx: BatchContext,
  model: ModelInfo,
  ids: readonly number[],
): Promise<Map<number, unknown>> {
  const address = ipColumns(model, 'address');
  const rows = (await ctx
    .q(model.table)
    .whereIn('nat_inside_id', [...ids])
    .orderBy([address.family, address.start, address.len, 'id'])
    .select('id', 'nat_inside_id')) as Row[];
  const objects = ctx.load
    ? await ctx.load(
        model.label,
        ['id', 'url', 'display_url', 'display', 'family', 'address'],
        rows.map((r) => Number(r.id)),
      )
    : [];
  // NetBox's legacy nested IP has a plain integer family.
  const plain: Record<string, unknown>[] = objects.map((o) => ({
    ...o,
    family: (o.family as { value?: unknown } | null)?.value ?? o.family,
  }));
  const byId = new Map(plain.map((o) => [o.id as number, o]));
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

/** `present_in_vrf`: the same, naming the VRF by its route distinguisher. */
export const presentInVrf: FilterFunction = async (ctx, model, values, lookup) => {
  const vrf = ctx.schema.model('ipam.vrf');
  const rows = (await ctx
    .q(vrf.table)
    .whereIn('rd', [...values])
    .select('id', 'rd')) as Row[];
  const missing = values.find((v) => !rows.some((r) => r.rd === v));
  if (missing !== undefined) return `Select a valid choice. ${missing} is not one of the available choices.`;
  return presentInVrfId(
    ctx,
    model,
    rows.map((r) => String(r.id)),
    lookup,
  );
};

/**
 * `q` on prefixes and aggregates: the description, the prefix's text, and — when the text is an address or
 * a network — the prefixes that contain or equal it.
 */
export const searchNetworks: FilterFunction = async (ctx, model, values) => {
  const term = values[0]!.trim();
  const ip = term ? parseIp(term) : null;
  const columns = ipColumns(model, 'prefix');
  const pattern = `%${escapeLike(term)}%`;
  return (query) => {
    if (!term) return;
    query.where((w) => {
      w.whereRaw(ilike(ctx.dialect, '??'), ['t0.description', pattern]).orWhereRaw(ilike(ctx.dialect, '??'), [
        `t0.${columns.text}`,
        pattern,
      ]);
      if (ip) {
        w.orWhere((x) =>
          x
            .where(`t0.${columns.family}`, ip.family)
            .where(`t0.${columns.start}`, '<=', ip.start)
            .where(`t0.${columns.end}`, '>=', ip.end)
            .where(`t0.${columns.len}`, '<=', ip.len),
        );
      }
    });
  };
};

/** `q` on addresses: the DNS name and description contain the text, or the address starts with it. */
export const searchIpAddresses: FilterFunction = async (ctx, model, values) => {
  const term = values[0]!.trim();
  const column = ipColumns(model, 'address').text;
  return (query) => {
    if (!term) return;
    query.where((w) =>
      w
        .whereRaw(ilike(ctx.dialect, '??'), ['t0.dns_name', `%${escapeLike(term)}%`])
        .orWhereRaw(ilike(ctx.dialect, '??'), ['t0.description', `%${escapeLike(term)}%`])
        .orWhereRaw(ilike(ctx.dialect, '??'), [`t0.${column}`, `${escapeLike(term)}%`]),
    );
  };
};

/**
 * `q` on devices and VMs also finds the object whose primary IPv4 or IPv6 address has the searched host
 * (`192.0.2.1` or `192.0.2.1/24`); other texts add nothing.
 */
export const searchPrimaryIp: FilterFunction = async (ctx, model, values) => {
  const ip = parseIp(values[0]!.trim());
  if (!ip) return 'not an IP address';
  const references = ['primary_ip4', 'primary_ip6'].flatMap((name) => {
    const field = model.fields.get(name);
    return field?.kind === 'fk' ? [{ column: field.column!, target: ctx.schema.model(field.target) }] : [];
  });
  return (query) =>
    query.where((w) => {
      for (const { column, target } of references) {
        const columns = ipColumns(target, 'address');
        w.orWhereIn(`t0.${column}`, function primary() {
          this.select('a.id')
            .from({ a: target.table })
            .where(`a.${columns.family}`, ip.family)
            .where(`a.${columns.start}`, ip.host);
        });
      }
    });
};

/** `q` on VLANs also matches the VID when the text is a number. */
export const searchVid: FilterFunction = async (_ctx, _model, values) => {
  const text = values[0]!.trim();
  if (!/^\d{1,4}$/.test(text)) return 'not a VID';
  return (query) => query.where('t0.vid', Number(text));
};

/** `q` on VLAN translation rules also finds the rules whose local or remote VID is the search text. */
export const searchTranslationVids: FilterFunction = async (_ctx, _model, values) => {
  const text = values[0]!.trim();
  if (!/^\d{1,9}$/.test(text)) return 'not a VID';
  return (query) => query.where((w) => w.where('t0.local_vid', Number(text)).orWhere('t0.remote_vid', Number(text)));
};

/**
 * Addresses assigned to interfaces of the given parents (devices, VMs), by id or by name. Unknown parents
 * match nothing, as NetBox's method filters do.
 */
function assignedTo(type: string, parentField: string, by: 'id' | 'name'): FilterFunction {
  return async (ctx, _model, values) => {
    const keys = by === 'id' ? integers(values) : values;
    if (typeof keys === 'string') return keys;
    const interfaces = ctx.schema.model(type);
    const parentColumn = interfaces.fields.get(parentField)!.column!;
    const parents = ctx.schema.model((interfaces.fields.get(parentField) as { target: string }).target);
    return (query) => {
      query.where('t0.assigned_object_type', type).whereIn('t0.assigned_object_id', function assigned() {
        this.select('i.id')
          .from({ i: interfaces.table })
          .whereIn(`i.${parentColumn}`, (sub) =>
            sub.select('p.id').from({ p: parents.table }).whereIn(`p.${by}`, keys),
          );
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

export function rangesOf(row: Row): [number, number][] {
  const raw = typeof row.vid_ranges === 'string' ? (JSON.parse(row.vid_ranges) as unknown) : row.vid_ranges;
  return Array.isArray(raw) ? (raw as [number, number][]) : [];
}

export function totalOf(ranges: readonly [number, number][]): number {
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

/**
 * A VLAN's group agrees with its site (a site-scoped group takes no other site, a site-group-scoped one only
 * its member sites) and its VID lies inside the group's ranges. Like NetBox's clean(), the first broken rule
 * is reported; the model's declared Q-in-Q rules follow.
 */
export async function validateVlan(item: WriteItemContext): Promise<void> {
  const { values, q, schema, errors } = item;
  const none = (v: unknown): boolean => v === null || v === undefined;
  const nameOf = async (label: string, id: unknown): Promise<Row | undefined> =>
    (await q(schema.model(label).table)
      .where('id', id as number)
      .first('name', ...(label === 'dcim.site' ? ['group_id'] : []))) as Row | undefined;
  if (!none(values.group)) {
    const group = (await q(schema.model('ipam.vlangroup').table)
      .where('id', values.group as number)
      .first('name', 'vid_ranges', 'scope_type', 'scope_id')) as Row | undefined;
    if (!group) return;
    const scopeType = group.scope_type as string | null;
    if (!none(values.site) && (scopeType === 'dcim.site' || scopeType === 'dcim.sitegroup')) {
      const site = await nameOf('dcim.site', values.site);
      const scope = await nameOf(scopeType, group.scope_id);
      const where = `group ${String(group.name)} (scope: ${String(scope?.name ?? group.scope_id)})`;
      if (scopeType === 'dcim.site' && Number(group.scope_id) !== Number(values.site)) {
        errors.add('__all__', `VLAN is assigned to ${where}; cannot also assign to site ${String(site?.name)}.`);
        return;
      }
      if (scopeType === 'dcim.sitegroup' && Number(site?.group_id ?? 0) !== Number(group.scope_id)) {
        errors.add('__all__', `The assigned site ${String(site?.name)} is not a member of the assigned ${where}.`);
        return;
      }
    }
    const ranges = rangesOf(group);
    const vid = Number(values.vid);
    if (!ranges.some(([low, high]) => vid >= low && vid <= high)) {
      const text = ranges.map(([low, high]) => (low === high ? String(low) : `${low}-${high}`)).join(',');
      errors.add('vid', `VID must be in ranges ${text} for VLANs in group ${String(group.name)}`);
      return;
    }
  }
}

/** The ipam app's domain functions, by the names YAML uses. */
export const ipamFunctions = {
  'ipam.displayAsn': { kind: 'display', fn: displayAsn },
  'ipam.cacheScope': { kind: 'prepare', fn: cacheScope },
  'ipam.recacheScopes': { kind: 'prepare', fn: recacheScopes },
  'ipam.prefixChildren': { kind: 'compute', fn: prefixChildren },
  'ipam.prefixDepth': { kind: 'compute', fn: prefixDepth },
  'ipam.validatePrefix': { kind: 'validator', fn: validatePrefix },
  'ipam.validateAggregate': { kind: 'validator', fn: validateAggregate },
  'ipam.validateIpAddress': { kind: 'validator', fn: validateIpAddress },
  'ipam.natOutside': { kind: 'compute', fn: natOutside },
  'ipam.presentInVrfId': { kind: 'filter', fn: presentInVrfId },
  'ipam.presentInVrf': { kind: 'filter', fn: presentInVrf },
  'ipam.searchNetworks': { kind: 'filter', fn: searchNetworks },
  'ipam.searchIpAddresses': { kind: 'filter', fn: searchIpAddresses },
  'ipam.searchPrimaryIp': { kind: 'filter', fn: searchPrimaryIp },
  'ipam.searchVid': { kind: 'filter', fn: searchVid },
  'ipam.searchTranslationVids': { kind: 'filter', fn: searchTranslationVids },
  'ipam.vlanTranslationRules': {
    kind: 'compute',
    fn: nestedList(
      'ipam.vlantranslationrule',
      'policy_id',
      ['local_vid'],
      ['id', 'url', 'display', 'policy', 'local_vid', 'remote_vid', 'description'],
    ),
  },
  'ipam.prepareIpAddress': { kind: 'prepare', fn: prepareIpAddress },
  'ipam.ipAddressesOfDevice': { kind: 'filter', fn: assignedTo('dcim.interface', 'device', 'id') },
  'ipam.ipAddressesOfDeviceName': { kind: 'filter', fn: assignedTo('dcim.interface', 'device', 'name') },
  'ipam.ipAddressesOfVirtualMachine': {
    kind: 'filter',
    fn: assignedTo('virtualization.vminterface', 'virtual_machine', 'id'),
  },
  'ipam.ipAddressesOfVirtualMachineName': {
    kind: 'filter',
    fn: assignedTo('virtualization.vminterface', 'virtual_machine', 'name'),
  },
  'ipam.ipAddressAssigned': { kind: 'filter', fn: ipAddressAssigned },
  'ipam.validateVlanGroup': { kind: 'validator', fn: validateVlanGroup },
  'ipam.totalVlanIds': { kind: 'compute', fn: totalVlanIds },
  'ipam.vlanGroupUtilization': { kind: 'compute', fn: vlanGroupUtilization },
  'ipam.vlanGroupContainsVid': { kind: 'filter', fn: vlanGroupContainsVid },
  'ipam.validateVlan': { kind: 'validator', fn: validateVlan },
} satisfies Record<string, DomainEntry>;
