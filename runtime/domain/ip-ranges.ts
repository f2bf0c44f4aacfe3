import type { Knex } from 'knex';
import { escapeLike, ilike } from '../db/sql.js';
import { lockKey } from '../db/transaction.js';
import { bigIntToHex, formatIp, hexToBigInt, parseIp, type ParsedIp } from '../rest/ip.js';
import type { ModelInfo } from '../rest/schema.js';
import { freeAddresses, subtractSpans, type Span } from './allocation.js';
import type { ActionContext, ActionParent, Allocator, DomainEntry, FilterFunction, WriteItemContext } from './types.js';

/**
 * IP ranges (NetBox's IPRange): a span of addresses between a start and an end address with one mask. Their
 * size, name, overlap and boundary rules, their free addresses (`available-ips`), and what they take out of a
 * prefix's free addresses (a range marked populated is used as a whole).
 */

type Row = Record<string, unknown>;

/** The largest range NetBox accepts (its `size` is a positive 32-bit integer). */
export const MAX_RANGE_SIZE = 2n ** 32n - 1n;

/** The number of addresses from `start` to `end` (inclusive). */
export function rangeSize(start: ParsedIp, end: ParsedIp): bigint {
  return hexToBigInt(end.host) - hexToBigInt(start.host) + 1n;
}

/**
 * NetBox's `IPRange.name`: the chunks (octets or hextets, as written canonically) the two ends share, then
 * the rest of each (`192.0.2.10-20/24`); a one-address range shows both ends in full.
 */
export function rangeName(startText: string, endText: string): string {
  const start = parseIp(startText);
  const end = parseIp(endText);
  if (!start || !end) return `${startText}-${endText}`;
  const first = start.address;
  const last = end.address;
  if (first === last) return `${first}-${last}/${start.len}`;
  const separator = start.family === 6 ? ':' : '.';
  const a = first.split(separator);
  const b = last.split(separator);
  // Python's zip over both lists keeps every equal pair, wherever it is (NetBox's own quirk, kept).
  const base = a.filter((chunk, i) => chunk === b[i]);
  return `${base.join(separator)}${separator}${a.slice(base.length).join(separator)}-${b.slice(base.length).join(separator)}/${start.len}`;
}

/** Display of a range from its two addresses. */
export function displayIpRange(values: Record<string, unknown>): string {
  return rangeName(String(values.start_address ?? ''), String(values.end_address ?? ''));
}

/** `vrf_id = ?` or `vrf_id IS NULL` on an alias. */
function inVrf(query: Knex.QueryBuilder, vrf: unknown, alias = ''): Knex.QueryBuilder {
  const column = `${alias}vrf_id`;
  return vrf === null || vrf === undefined ? query.whereNull(column) : query.where(column, vrf as number);
}

/** The hidden host columns of a range's two addresses. */
function hostColumns(model: ModelInfo): {
  family: string;
  start: string;
  end: string;
  startText: string;
  endText: string;
} {
  const start = model.fields.get('start_address')!.column!;
  const end = model.fields.get('end_address')!.column!;
  return { family: `${start}_family`, start: `${start}_start`, end: `${end}_start`, startText: start, endText: end };
}

/** The range's size, kept on save as NetBox does. */
export function prepareIpRange(item: WriteItemContext): void {
  const start = parseIp(String(item.values.start_address ?? ''));
  const end = parseIp(String(item.values.end_address ?? ''));
  if (start && end && start.family === end.family) item.values.size = Number(rangeSize(start, end));
}

/**
 * NetBox's `IPRange.clean`, in its order: the same family and mask at both ends, the end not below the start,
 * no overlap with another range of the VRF, and at most MAX_RANGE_SIZE addresses.
 */
export async function validateIpRange(item: WriteItemContext): Promise<void> {
  const start = parseIp(String(item.values.start_address ?? ''));
  const end = parseIp(String(item.values.end_address ?? ''));
  if (!start || !end) return;
  if (start.family !== end.family) {
    item.errors.add('end_address', 'Starting and ending IP address versions must match');
    return;
  }
  if (start.len !== end.len) {
    item.errors.add('end_address', 'Starting and ending IP address masks must match');
    return;
  }
  if (end.host < start.host) {
    item.errors.add(
      'end_address',
      `Ending address must be greater than or equal to the starting address (${start.address}/${start.len})`,
    );
    return;
  }
  const columns = hostColumns(item.model);
  const vrf = item.values.vrf;
  await lockKey(item.q, item.dialect, `ipam.iprange overlap ${String(vrf ?? 'global')} ${start.family}`);
  // Two spans overlap when each starts no later than the other ends.
  const query = inVrf(item.q(item.model.table), vrf)
    .where(columns.family, start.family)
    .where(columns.start, '<=', end.host)
    .where(columns.end, '>=', start.host);
  if (item.existing) query.whereNot('id', item.id!);
  const overlapping = (await query.orderBy(columns.start).first(columns.startText, columns.endText)) as Row | undefined;
  if (overlapping) {
    const vrfName = await vrfDisplay(item, vrf);
    item.errors.add(
      '__all__',
      `Defined addresses overlap with range ${rangeName(String(overlapping[columns.startText]), String(overlapping[columns.endText]))} in VRF ${vrfName}`,
    );
    return;
  }
  if (rangeSize(start, end) > MAX_RANGE_SIZE)
    item.errors.add('__all__', `Defined range exceeds maximum supported size (${MAX_RANGE_SIZE})`);
}

/** A VRF as Python prints it (`None` for the global table). */
async function vrfDisplay(item: WriteItemContext, vrf: unknown): Promise<string> {
  if (vrf === null || vrf === undefined) return 'None';
  const row = (await item
    .q(item.schema.model('ipam.vrf').table)
    .where('id', vrf as number)
    .first('name', 'rd')) as Row | undefined;
  if (!row) return String(vrf);
  return row.rd ? `${String(row.name)} (${String(row.rd)})` : String(row.name);
}

/**
 * The range marked populated of the VRF that holds an address, if any: NetBox refuses to create an address
 * there (`Cannot create IP address … inside range …`).
 */
export async function populatedRangeHolding(
  q: Knex,
  model: ModelInfo,
  vrf: unknown,
  ip: ParsedIp,
): Promise<string | null> {
  const columns = hostColumns(model);
  const row = (await inVrf(q(model.table), vrf)
    .where('mark_populated', true)
    .where(columns.family, ip.family)
    .where(columns.start, '<=', ip.host)
    .where(columns.end, '>=', ip.host)
    .orderBy(columns.start)
    .first(columns.startText, columns.endText)) as Row | undefined;
  return row ? rangeName(String(row[columns.startText]), String(row[columns.endText])) : null;
}

/**
 * The spans of the ranges of a VRF marked populated that lie inside `within` (NetBox's `get_child_ranges`:
 * both ends inside), clipped to `clip`; a prefix's free addresses leave them out.
 */
export async function populatedSpans(
  q: Knex,
  model: ModelInfo,
  vrf: unknown,
  family: 4 | 6,
  within: Span,
  clip: Span,
): Promise<Span[]> {
  const columns = hostColumns(model);
  const rows = (await inVrf(q(model.table), vrf)
    .where('mark_populated', true)
    .where(columns.family, family)
    .whereBetween(columns.start, [bigIntToHex(within.first), bigIntToHex(within.last)])
    .whereBetween(columns.end, [bigIntToHex(within.first), bigIntToHex(within.last)])
    .select(columns.start, columns.end)) as Row[];
  return rows
    .map((r) => ({
      first: hexToBigInt(String(r[columns.start])),
      last: hexToBigInt(String(r[columns.end])),
    }))
    .map((s) => ({ first: s.first > clip.first ? s.first : clip.first, last: s.last < clip.last ? s.last : clip.last }))
    .filter((s) => s.first <= s.last);
}

/** Up to `limit` addresses of `span` that are neither in `used` nor in `excluded` spans, lowest first. */
export function freeHostsOutside(
  span: Span,
  excluded: readonly Span[],
  used: readonly bigint[],
  limit: number,
): bigint[] {
  const free: bigint[] = [];
  for (const part of subtractSpans(span, excluded)) {
    if (free.length >= limit) break;
    free.push(...freeAddresses(part, used, limit - free.length));
  }
  return free;
}

/** The range as numbers, from the action's parent. */
function spanOf(parent: ActionParent): { start: ParsedIp; span: Span } {
  const start = parseIp(String(parent.values.start_address))!;
  const end = parseIp(String(parent.values.end_address))!;
  return { start, span: { first: hexToBigInt(start.host), last: hexToBigInt(end.host) } };
}

/** Free addresses of a range: none when it is marked populated, else those no address of its VRF holds. */
async function freeRangeHosts(ctx: ActionContext, parent: ActionParent, limit: number): Promise<bigint[]> {
  if (parent.values.mark_populated === true) return [];
  const { start, span } = spanOf(parent);
  const addresses = ctx.schema.model('ipam.ipaddress');
  const column = addresses.fields.get('address')!.column!;
  const rows = (await inVrf(ctx.q(addresses.table), parent.values.vrf)
    .where(`${column}_family`, start.family)
    .whereBetween(`${column}_start`, [bigIntToHex(span.first), bigIntToHex(span.last)])
    .distinct(`${column}_start`)) as Row[];
  return freeAddresses(
    span,
    rows.map((r) => hexToBigInt(String(r[`${column}_start`]))),
    limit,
  );
}

/** The range's VRF in its nested form, or null. */
async function nestedVrf(ctx: ActionContext, parent: ActionParent): Promise<Row | null> {
  const vrf = parent.values.vrf as number | null;
  if (vrf === null || vrf === undefined) return null;
  const model = ctx.schema.model('ipam.vrf');
  return (await ctx.load(model.label, model.spec.nested, [vrf]))[0] ?? null;
}

/** A request's `prefix_length` as DRF's IntegerField reads it (integers, or their text). */
function integerOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) return Number(value);
  return null;
}

/** A range's `available-ips`: its free addresses with the range's mask (or the request's `prefix_length`). */
export const availableRangeIps: Allocator = {
  async list(ctx, parent, limit) {
    const { start } = spanOf(parent);
    const vrf = await nestedVrf(ctx, parent);
    return (await freeRangeHosts(ctx, parent, limit)).map((host) => ({
      family: start.family,
      address: `${formatIp(start.family, host)}/${start.len}`,
      vrf,
    }));
  },
  check(_ctx, parent, request): Record<string, string[]> {
    const raw = request.prefix_length;
    if (raw === undefined || raw === null) return {};
    const length = integerOf(raw);
    if (length === null) return { prefix_length: ['A valid integer is required.'] };
    const { start } = spanOf(parent);
    const bits = start.family === 4 ? 32 : 128;
    if (length < start.len)
      return {
        prefix_length: [`Prefix length must be greater than or equal to the parent mask length (${start.len})`],
      };
    if (length > bits) return { prefix_length: [`Invalid prefix length (${length}) for IPv${start.family}`] };
    return {};
  },
  async allocate(ctx, parent, requests) {
    const { start } = spanOf(parent);
    const hosts = await freeRangeHosts(ctx, parent, requests.length);
    if (hosts.length < requests.length) return null;
    return requests.map(({ prefix_length: length, ...rest }, i) => ({
      ...rest,
      address: `${formatIp(start.family, hosts[i]!)}/${integerOf(length) || start.len}`,
      vrf: parent.values.vrf ?? null,
    }));
  },
};

/** `q`: the description contains the text, either address starts with it, or equals it as an address. */
export const searchIpRanges: FilterFunction = async (ctx, model, values) => {
  const term = values[0]!.trim();
  const columns = hostColumns(model);
  const ip = term ? parseIp(term) : null;
  const pattern = `%${escapeLike(term)}%`;
  return (query) => {
    if (!term) return;
    query.where((w) => {
      w.whereRaw(ilike(ctx.dialect, '??'), ['t0.description', pattern])
        .orWhereRaw(ilike(ctx.dialect, '??'), [`t0.${columns.startText}`, pattern])
        .orWhereRaw(ilike(ctx.dialect, '??'), [`t0.${columns.endText}`, pattern]);
      if (ip) {
        const text = `${ip.address}/${ip.len}`;
        w.orWhere(`t0.${columns.startText}`, text).orWhere(`t0.${columns.endText}`, text);
      }
    });
  };
};

/** `contains`: ranges that hold the address given (its mask ignored); text that is no IP matches none. */
export const ipRangesContaining: FilterFunction = async (_ctx, model, values) => {
  const term = values[0]!.trim();
  const columns = hostColumns(model);
  const ip = term ? parseIp(term) : null;
  return (query) => {
    if (!term) return;
    if (!ip) return void query.whereRaw('1 = 0');
    // NetBox compares inet values; between addresses of one mask that is the hosts' order.
    query
      .where(`t0.${columns.family}`, ip.family)
      .where(`t0.${columns.start}`, '<=', ip.host)
      .where(`t0.${columns.end}`, '>=', ip.host);
  };
};

/** `parent`: ranges whose two ends lie inside one of the networks given; text that is no IP matches none. */
export const ipRangesInParent: FilterFunction = async (_ctx, model, values) => {
  const columns = hostColumns(model);
  const networks = values.map((v) => parseIp(v.trim()));
  return (query) => {
    if (networks.some((n) => !n)) return void query.whereRaw('1 = 0');
    query.where((w) => {
      for (const net of networks as ParsedIp[]) {
        w.orWhere((x) =>
          x
            .where(`t0.${columns.family}`, net.family)
            .whereBetween(`t0.${columns.start}`, [net.start, net.end])
            .whereBetween(`t0.${columns.end}`, [net.start, net.end]),
        );
      }
    });
  };
};

/** The IP range functions, by the names YAML uses. */
export const ipRangeFunctions = {
  'ipam.displayIpRange': { kind: 'display', fn: displayIpRange },
  'ipam.prepareIpRange': { kind: 'prepare', fn: prepareIpRange },
  'ipam.validateIpRange': { kind: 'validator', fn: validateIpRange },
  'ipam.availableRangeIps': { kind: 'allocator', fn: availableRangeIps },
  'ipam.searchIpRanges': { kind: 'filter', fn: searchIpRanges },
  'ipam.ipRangesContaining': { kind: 'filter', fn: ipRangesContaining },
  'ipam.ipRangesInParent': { kind: 'filter', fn: ipRangesInParent },
} satisfies Record<string, DomainEntry>;
