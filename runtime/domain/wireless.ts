import type { Knex } from 'knex';
import { relatedRow } from '../db/row-memo.js';
import { invalidChoice } from '../rest/filter-values.js';
import type { ModelInfo } from '../rest/schema.js';
import { parseBoolean } from '../rest/values.js';
import { cableFunctions } from './cables.js';
import { cableLookupFunctions } from './cable-lookups.js';
import { cableTraceFunctions } from './cable-trace.js';
import { WIRELESS_TYPES } from './interfaces.js';
import type {
  BatchContext,
  ComputeFunction,
  DomainEntry,
  FilterFunction,
  ListFunction,
  LocateFunction,
  WriteItemContext,
  WrittenFunction,
} from './types.js';

/**
 * Wireless links (NetBox's WirelessLink): a link joins two wireless interfaces, each of which points back at it
 * (`wireless_link`, kept here as NetBox's signals keep it). For an interface a link is what a cable is for a
 * wired one: its peer is the other interface (`link_peers`), it is occupied, and its path is the one segment
 * (interface, link, interface), complete, and active while the link is connected. An interface never has both
 * (cables refuse wireless interfaces, links refuse the others), so the interface's path fields take the cable's
 * values and those of a linked interface are replaced by the link's.
 */

type Row = Record<string, unknown>;

const INTERFACE = 'dcim.interface';
const LINK = 'wireless.wirelesslink';
const TERMINATION = 'dcim.cabletermination';
const DEVICE = 'dcim.device';

/** An interface's link: the link's id and status, and the interface at its other end. */
interface LinkEnd {
  link: number;
  status: string;
  peer: number;
}

/** NetBox's WirelessLink.clean: both ends are wireless interfaces (the type named by its label). */
async function validateLinkInterfaces(item: WriteItemContext): Promise<void> {
  const model = item.schema.model(INTERFACE);
  const typeField = model.fields.get('type');
  for (const key of ['interface_a', 'interface_b']) {
    const id = item.values[key];
    if (id === null || id === undefined) continue;
    const row = await relatedRow(item.q, model.table, Number(id));
    const type = String(row?.type ?? '');
    if (!row || WIRELESS_TYPES.has(type)) continue;
    const label = typeField?.kind === 'choice' ? typeField.choices.find(([v]) => v === type)?.[1] : undefined;
    item.errors.add(key, `${label ?? type} is not a wireless interface.`);
    return;
  }
}

/**
 * NetBox's update_connected_interfaces and nullify_connected_interfaces signals: after links are written or
 * deleted, each link's two interfaces point at it, and no other interface does.
 */
const linkInterfaces: WrittenFunction = async (ctx, _model, written) => {
  const ids = written.map((w) => w.id);
  const interfaces = ctx.schema.model(INTERFACE).table;
  const links = (await ctx
    .q(ctx.schema.model(LINK).table)
    .whereIn('id', ids)
    .select('id', 'interface_a_id', 'interface_b_id')) as Row[];
  await ctx.q(interfaces).whereIn('wireless_link_id', ids).update({ wireless_link_id: null });
  for (const link of links)
    await ctx
      .q(interfaces)
      .whereIn('id', [Number(link.interface_a_id), Number(link.interface_b_id)])
      .update({ wireless_link_id: Number(link.id) });
};

/**
 * The links of a page's interfaces, read once per page: the renderer hands each computed field of a page the same
 * id list, so the read is kept by that list (and dropped with it).
 */
const pageLinks = new WeakMap<readonly number[], Promise<Map<number, LinkEnd>>>();

function linksOf(ctx: BatchContext, ids: readonly number[]): Promise<Map<number, LinkEnd>> {
  let found = pageLinks.get(ids);
  if (!found) {
    found = readLinks(ctx, ids);
    pageLinks.set(ids, found);
  }
  return found;
}

async function readLinks(ctx: BatchContext, ids: readonly number[]): Promise<Map<number, LinkEnd>> {
  const rows = ids.length
    ? ((await ctx
        .q({ i: ctx.schema.model(INTERFACE).table })
        .join({ l: ctx.schema.model(LINK).table }, 'l.id', 'i.wireless_link_id')
        .whereIn('i.id', [...ids])
        .select('i.id', 'l.id as link', 'l.status', 'l.interface_a_id', 'l.interface_b_id')) as Row[])
    : [];
  return new Map(
    rows.map((row) => {
      const id = Number(row.id);
      const a = Number(row.interface_a_id);
      return [
        id,
        { link: Number(row.link), status: String(row.status), peer: a === id ? Number(row.interface_b_id) : a },
      ];
    }),
  );
}

/** The linked interfaces' peers, rendered as nested interfaces (one load for the page). */
async function peersOf(ctx: BatchContext, links: Map<number, LinkEnd>): Promise<Map<number, Row>> {
  const peerIds = [...new Set([...links.values()].map((l) => l.peer))];
  if (!ctx.load || peerIds.length === 0) return new Map();
  const loaded = await ctx.load(INTERFACE, ctx.schema.model(INTERFACE).spec.nested, peerIds);
  return new Map(loaded.map((o) => [Number(o.id), o]));
}

/** A cable's computed field of interfaces, with the values of linked interfaces given by `linked`. */
function withLinks(
  cabled: ComputeFunction,
  linked: (link: LinkEnd, peer: Row | undefined) => unknown,
  renders = false,
): ComputeFunction {
  return async (ctx, model, ids) => {
    const [values, links] = await Promise.all([cabled(ctx, model, ids), linksOf(ctx, ids)]);
    if (links.size === 0) return values;
    const peers = renders ? await peersOf(ctx, links) : new Map<number, Row>();
    for (const [id, link] of links) values.set(id, linked(link, peers.get(link.peer)));
    return values;
  };
}

/**
 * `_occupied` of interfaces: a cable, a wireless link or marked connected, read in one query (a termination names
 * an object once).
 */
const interfaceOccupied: ComputeFunction = async (ctx, model, ids) => {
  const rows = ids.length
    ? ((await ctx
        .q({ t: model.table })
        .leftJoin({ ct: ctx.schema.model(TERMINATION).table }, (j) =>
          j.on('ct.termination_id', '=', 't.id').andOn('ct.termination_type', ctx.q.raw('?', [model.label])),
        )
        .whereIn('t.id', [...ids])
        .select('t.id', 't.mark_connected', 't.wireless_link_id', 'ct.id as termination')) as Row[])
    : [];
  const occupied = new Set(
    rows
      .filter(
        (r) =>
          r.termination !== null || r.wireless_link_id !== null || r.mark_connected === true || r.mark_connected === 1,
      )
      .map((r) => Number(r.id)),
  );
  return new Map(ids.map((id) => [id, occupied.has(id)]));
};

const peerList = (_link: LinkEnd, peer: Row | undefined): Row[] => (peer ? [peer] : []);

/** `occupied` and `connected` of interfaces: the cable's filter, or a link (a connected one for `connected`). */
function filterWithLinks(
  cabled: FilterFunction,
  links: (ctx: BatchContext) => (sub: Knex.QueryBuilder) => void,
): FilterFunction {
  return async (ctx, model: ModelInfo, values, lookup) => {
    const flag = parseBoolean(values[0] ?? '');
    if (flag === null) return invalidChoice(values[0] ?? '');
    const byCable = await cabled(ctx, model, ['true'], lookup);
    if (typeof byCable === 'string') return byCable;
    const either = (w: Knex.QueryBuilder): void => {
      byCable(w);
      // Not null first: `NULL IN (…)` is unknown, which the negation would not turn true.
      w.orWhere((l) => void l.whereNotNull('t0.wireless_link_id').whereIn('t0.wireless_link_id', links(ctx)));
    };
    return (query) => void (flag ? query.where(either) : query.whereNot(either));
  };
}

const anyLink = (ctx: BatchContext) => (sub: Knex.QueryBuilder) =>
  void sub.select('l.id').from({ l: ctx.schema.model(LINK).table });
const connectedLink = (ctx: BatchContext) => (sub: Knex.QueryBuilder) =>
  void anyLink(ctx)(sub.where('l.status', 'connected'));

/** The fields of a link in a trace: a cable's (TracedCableSerializer) that a link has, and its SSID. */
const TRACED_LINK = ['id', 'url', 'display_url', 'display', 'ssid', 'status', 'description'];

/**
 * `trace/` of an interface: a linked interface's path is one segment, (the interface, its link, the peer); the
 * others are traced along their cables. NetBox renders the link with its cable serializer; here it keeps its own
 * keys.
 */
const traceInterface: ListFunction = async (ctx, parent, params) => {
  const link = (await readLinks(ctx, [parent.id])).get(parent.id);
  if (!link) return cableTraceFunctions['dcim.traceInterface'].fn(ctx, parent, params);
  const nested = ctx.schema.model(INTERFACE).spec.nested;
  const [near, rendered, far] = await Promise.all([
    ctx.load(INTERFACE, nested, [parent.id]),
    ctx.load(LINK, TRACED_LINK, [link.link]),
    ctx.load(INTERFACE, nested, [link.peer]),
  ]);
  return { body: JSON.stringify([[near, rendered[0] ?? null, far]]), contentType: 'application/json' };
};

/**
 * `dcim/connected-device/`: the device across the peer interface's cable path, or else across its wireless link
 * (looked up again as the cable locator does, among what the user may view).
 */
const connectedDevice: LocateFunction = async (ctx, params) => {
  const byCable = await cableLookupFunctions['dcim.connectedDevice'].fn(ctx, params);
  if (byCable !== null) return byCable;
  const devices = ctx
    .q({ t0: ctx.schema.model(DEVICE).table })
    .where('t0.name', String(params.peer_device))
    .select('t0.id');
  const interfaces = ctx
    .q({ t0: ctx.schema.model(INTERFACE).table })
    .whereIn('t0.device_id', ctx.restrictView(DEVICE, devices) ? devices : [])
    .where('t0.name', String(params.peer_interface))
    .select('t0.id')
    .orderBy(['t0.device_id', 't0.id'])
    .first();
  const found = ctx.restrictView(INTERFACE, interfaces) ? ((await interfaces) as Row | undefined) : undefined;
  const link = found ? (await readLinks(ctx, [Number(found.id)])).get(Number(found.id)) : undefined;
  if (!link) return null;
  const peer = await relatedRow(ctx.q, ctx.schema.model(INTERFACE).table, link.peer);
  return peer ? Number(peer.device_id) : null;
};

/** The wireless domain functions, by the names YAML uses. */
export const wirelessFunctions = {
  'wireless.validateLinkInterfaces': { kind: 'validator', fn: validateLinkInterfaces },
  'wireless.linkInterfaces': { kind: 'written', fn: linkInterfaces },
  'wireless.interfaceLinkPeers': {
    kind: 'compute',
    fn: withLinks(cableFunctions['dcim.linkPeersOf'].fn, peerList, true),
  },
  'wireless.interfaceLinkPeersType': {
    kind: 'compute',
    fn: withLinks(cableFunctions['dcim.linkPeersTypeOf'].fn, () => INTERFACE),
  },
  'wireless.interfaceOccupied': { kind: 'compute', fn: interfaceOccupied },
  'wireless.interfaceConnectedEndpoints': {
    kind: 'compute',
    fn: withLinks(cableTraceFunctions['dcim.connectedEndpoints'].fn, peerList, true),
  },
  'wireless.interfaceConnectedEndpointsType': {
    kind: 'compute',
    fn: withLinks(cableTraceFunctions['dcim.connectedEndpointsType'].fn, () => INTERFACE),
  },
  'wireless.interfaceConnectedEndpointsReachable': {
    kind: 'compute',
    fn: withLinks(cableTraceFunctions['dcim.connectedEndpointsReachable'].fn, (link) => link.status === 'connected'),
  },
  'wireless.traceInterface': { kind: 'list', fn: traceInterface },
  'wireless.connectedDevice': { kind: 'locate', fn: connectedDevice },
  'wireless.interfaceOccupiedFilter': {
    kind: 'filter',
    fn: filterWithLinks(cableFunctions['dcim.occupiedFilter'].fn, anyLink),
  },
  'wireless.interfaceConnectedFilter': {
    kind: 'filter',
    fn: filterWithLinks(cableLookupFunctions['dcim.connectedFilter'].fn, connectedLink),
  },
} satisfies Record<string, DomainEntry>;
