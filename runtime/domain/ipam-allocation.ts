import type { Knex } from 'knex';
import { bigIntToHex, formatIp, hexToBigInt, parseIp, type ParsedIp } from '../rest/ip.js';
import type { ActionContext, ActionParent, Allocator, DomainEntry } from './types.js';
import { freeHostsOutside, populatedSpans } from './ip-ranges.js';
import { bitsOf, freeBlocks, freeVids, takeBlock, usableSpan, type Block, type Span } from './allocation.js';

/**
 * NetBox's allocation endpoints: the free child prefixes and addresses of a prefix, and the free VLAN IDs of
 * a VLAN group (`available-prefixes`, `available-ips`, `available-vlans`). The runtime takes the lock and
 * creates the objects; these functions say what is free and what each request gets.
 */

type Row = Record<string, unknown>;

/** The parent prefix as numbers. */
function networkOf(parent: ActionParent): { ip: ParsedIp; span: Span; bits: number } {
  const ip = parseIp(String(parent.values.prefix))!;
  return { ip, span: { first: hexToBigInt(ip.start), last: hexToBigInt(ip.end) }, bits: bitsOf(ip.family) };
}

/** `vrf_id = ?` or `vrf_id IS NULL` (the global table). */
function inVrf(query: Knex.QueryBuilder, vrf: unknown): Knex.QueryBuilder {
  return vrf === null || vrf === undefined ? query.whereNull('vrf_id') : query.where('vrf_id', vrf as number);
}

/** The parent's VRF in its nested form, or null. */
async function nestedVrf(ctx: ActionContext, parent: ActionParent): Promise<Row | null> {
  const vrf = parent.values.vrf as number | null;
  if (vrf === null || vrf === undefined) return null;
  const model = ctx.schema.model('ipam.vrf');
  return (await ctx.load(model.label, model.spec.nested, [vrf]))[0] ?? null;
}

/** Prefixes strictly inside the parent, in its VRF (NetBox's `get_available_prefixes`). */
async function childSpans(ctx: ActionContext, parent: ActionParent): Promise<Span[]> {
  const { ip } = networkOf(parent);
  const query = ctx
    .q(ctx.schema.model('ipam.prefix').table)
    .where('prefix_family', ip.family)
    .where('prefix_start', '>=', ip.start)
    .where('prefix_end', '<=', ip.end)
    .where('prefix_len', '>', ip.len);
  const rows = (await inVrf(query, parent.values.vrf).select('prefix_start', 'prefix_end')) as Row[];
  return rows.map((r) => ({ first: hexToBigInt(String(r.prefix_start)), last: hexToBigInt(String(r.prefix_end)) }));
}

async function freePrefixBlocks(ctx: ActionContext, parent: ActionParent): Promise<Block[]> {
  const { span, bits } = networkOf(parent);
  return freeBlocks(span, await childSpans(ctx, parent), bits);
}

function blockText(family: 4 | 6, block: Block): string {
  return `${formatIp(family, block.start)}/${block.len}`;
}

export const availablePrefixes: Allocator = {
  // NetBox lists every free block, whatever the limit.
  async list(ctx, parent) {
    const { ip } = networkOf(parent);
    const vrf = await nestedVrf(ctx, parent);
    return (await freePrefixBlocks(ctx, parent)).map((block) => ({
      family: ip.family,
      prefix: blockText(ip.family, block),
      vrf,
    }));
  },
  check(_ctx, parent, request): Record<string, string[]> {
    const length = request.prefix_length;
    if (length === undefined || length === null) return { prefix_length: ['this field can not be missing'] };
    if (typeof length !== 'number' || !Number.isInteger(length))
      return { prefix_length: ['this field must be int type'] };
    const { ip, bits } = networkOf(parent);
    if (length > bits || length < 0)
      return { prefix_length: [`Invalid prefix length (${length}) for IPv${ip.family}`] };
    return {};
  },
  async allocate(ctx, parent, requests) {
    const { ip, bits } = networkOf(parent);
    const free = await freePrefixBlocks(ctx, parent);
    const bodies: Record<string, unknown>[] = [];
    for (const request of requests) {
      const { prefix_length: length, ...rest } = request;
      const block = takeBlock(free, length as number, bits);
      if (!block) return null;
      bodies.push({ ...rest, prefix: blockText(ip.family, block), vrf: parent.values.vrf ?? null });
    }
    return bodies;
  },
};

/**
 * Free addresses of the parent prefix, lowest first. Addresses count as used in the prefix's VRF, or in any
 * VRF when the prefix is a container of the global table (NetBox's `get_child_ips`).
 */
async function freeHosts(ctx: ActionContext, parent: ActionParent, limit: number): Promise<bigint[]> {
  const { ip, span } = networkOf(parent);
  const usable = usableSpan(ip.family, span, ip.len, parent.values.is_pool === true);
  if (usable.first > usable.last) return [];
  const query = ctx
    .q(ctx.schema.model('ipam.ipaddress').table)
    .where('address_family', ip.family)
    .where('address_start', '>=', bigIntToHex(usable.first))
    .where('address_start', '<=', bigIntToHex(usable.last));
  const anyVrf =
    (parent.values.vrf === null || parent.values.vrf === undefined) && parent.values.status === 'container';
  if (!anyVrf) inVrf(query, parent.values.vrf);
  const rows = (await query.distinct('address_start')) as Row[];
  // Ranges of the prefix's VRF marked populated are used as a whole (NetBox 4.6's `_available_intervals`).
  const populated = await populatedSpans(
    ctx.q,
    ctx.schema.model('ipam.iprange'),
    parent.values.vrf,
    ip.family,
    span,
    usable,
  );
  return freeHostsOutside(
    usable,
    populated,
    rows.map((r) => hexToBigInt(String(r.address_start))),
    limit,
  );
}

/** A request's `prefix_length` as DRF's IntegerField reads it (integers, or their text). */
function integerOf(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) return Number(value);
  return null;
}

export const availableIps: Allocator = {
  async list(ctx, parent, limit) {
    const { ip } = networkOf(parent);
    const vrf = await nestedVrf(ctx, parent);
    return (await freeHosts(ctx, parent, limit)).map((host) => ({
      family: ip.family,
      address: `${formatIp(ip.family, host)}/${ip.len}`,
      vrf,
    }));
  },
  check(_ctx, parent, request): Record<string, string[]> {
    const raw = request.prefix_length;
    if (raw === undefined || raw === null) return {};
    const length = integerOf(raw);
    if (length === null) return { prefix_length: ['A valid integer is required.'] };
    const { ip, bits } = networkOf(parent);
    if (length < ip.len)
      return {
        prefix_length: [`Prefix length must be greater than or equal to the parent mask length (${ip.len})`],
      };
    if (length > bits) return { prefix_length: [`Invalid prefix length (${length}) for IPv${ip.family}`] };
    return {};
  },
  async allocate(ctx, parent, requests) {
    const { ip } = networkOf(parent);
    const hosts = await freeHosts(ctx, parent, requests.length);
    if (hosts.length < requests.length) return null;
    return requests.map(({ prefix_length: length, ...rest }, i) => ({
      ...rest,
      address: `${formatIp(ip.family, hosts[i]!)}/${integerOf(length) ?? ip.len}`,
      vrf: parent.values.vrf ?? null,
    }));
  },
};

/** Free VLAN IDs of the group's ranges, lowest first. */
async function freeGroupVids(ctx: ActionContext, parent: ActionParent, limit: number): Promise<number[]> {
  const rows = (await ctx.q(ctx.schema.model('ipam.vlan').table).where('group_id', parent.id).select('vid')) as Row[];
  const ranges = (Array.isArray(parent.values.vid_ranges) ? parent.values.vid_ranges : []) as [number, number][];
  return freeVids(
    ranges,
    rows.map((r) => Number(r.vid)),
    limit,
  );
}

export const availableVlans: Allocator = {
  async list(ctx, parent, limit) {
    const group = ctx.schema.model('ipam.vlangroup');
    const [nested] = await ctx.load(group.label, group.spec.nested, [parent.id]);
    return (await freeGroupVids(ctx, parent, limit)).map((vid) => ({ vid, group: nested ?? null }));
  },
  // The VLAN's own rules are checked when it is created; only its name is needed up front, as in NetBox.
  check(_ctx, _parent, request): Record<string, string[]> {
    if (request.name === undefined) return { name: ['This field is required.'] };
    return {};
  },
  async allocate(ctx, parent, requests) {
    const vids = await freeGroupVids(ctx, parent, requests.length);
    if (vids.length < requests.length) return null;
    return requests.map((request, i) => ({ ...request, vid: vids[i]!, group: parent.id }));
  },
};

/** The allocation functions, by the names YAML uses. */
export const ipamAllocationFunctions = {
  'ipam.availablePrefixes': { kind: 'allocator', fn: availablePrefixes },
  'ipam.availableIps': { kind: 'allocator', fn: availableIps },
  'ipam.availableVlans': { kind: 'allocator', fn: availableVlans },
} satisfies Record<string, DomainEntry>;
