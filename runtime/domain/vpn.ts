import type { ComputeFunction, DomainEntry, FilterFunction, WriteItemContext } from './types.js';

/**
 * VPN behaviour that YAML cannot declare: an L2VPN termination's display and its point-to-point limit, and the
 * termination rendered on the interface or VLAN it attaches.
 */

type Row = Record<string, unknown>;

const L2VPN_MODEL = 'vpn.l2vpn';
const TERMINATION_MODEL = 'vpn.l2vpntermination';
/** NetBox's L2VPNTypeChoices.P2P: the types that join exactly two ends. */
const POINT_TO_POINT = new Set(['vpws', 'epl', 'ep-lan', 'ep-tree']);

/** NetBox's L2VPN.__str__: the name, with the identifier in parentheses when it has one. */
function displayL2vpn(name: unknown, identifier: unknown): string {
  const text = String(name ?? '');
  return identifier ? `${text} (${String(identifier)})` : text;
}

/**
 * NetBox's L2VPNTermination.__str__ (`<assigned object> <> <l2vpn>`), with the assigned object named by its
 * type and id: a display reads no other object than those its FKs reach.
 */
export function displayL2vpnTermination(values: Record<string, unknown>): string {
  const type = String(values.assigned_object_type ?? '').split('.')[1] ?? '';
  const l2vpn = displayL2vpn(values['l2vpn.name'], values['l2vpn.identifier']);
  return `${type} ${String(values.assigned_object_id ?? '')} <> ${l2vpn}`;
}

/**
 * NetBox's L2VPNTermination.clean: a point-to-point L2VPN has at most two terminations (the ones stored and
 * those of the same request before this one).
 */
export async function checkL2vpnTerminationCount(item: WriteItemContext): Promise<void> {
  const l2vpnId = item.values.l2vpn;
  if (l2vpnId === null || l2vpnId === undefined) return;
  const l2vpns = item.schema.model(L2VPN_MODEL);
  const l2vpn = (await item.q(l2vpns.table).where('id', l2vpnId).first('type')) as Row | undefined;
  const type = String(l2vpn?.type ?? '');
  if (!POINT_TO_POINT.has(type)) return;
  const terminations = item.schema.model(TERMINATION_MODEL);
  const stored = (await item
    .q(terminations.table)
    .where('l2vpn_id', l2vpnId)
    .whereNot('id', item.id ?? 0)
    .select('id')) as Row[];
  const storedIds = new Set(stored.map((r) => Number(r.id)));
  let count = stored.length;
  for (const earlier of item.earlier) {
    const isNew = earlier.id === null || (earlier.id !== item.id && !storedIds.has(earlier.id));
    if (isNew && Number(earlier.values.l2vpn) === Number(l2vpnId)) count += 1;
  }
  if (count < 2) return;
  const field = l2vpns.fields.get('type');
  const choices = field?.kind === 'choice' ? field.choices : [];
  const label = choices.find(([value]) => value === type)?.[1] ?? type;
  item.errors.add('__all__', `${label} L2VPNs cannot have more than two terminations; found ${count} already defined.`);
}

/** The L2VPN termination of each interface or VLAN of a page (NetBox's `l2vpn_termination`), nested, or null. */
const l2vpnTerminationOf: ComputeFunction = async (ctx, model, ids) => {
  const terminations = ctx.schema.model(TERMINATION_MODEL);
  const rows = (await ctx
    .q(terminations.table)
    .where('assigned_object_type', model.label)
    .whereIn('assigned_object_id', [...ids])
    .select('id', 'assigned_object_id')) as Row[];
  const nested = ctx.load
    ? await ctx.load(
        TERMINATION_MODEL,
        terminations.spec.nested,
        rows.map((r) => Number(r.id)),
      )
    : [];
  const byId = new Map(nested.map((object) => [Number(object.id), object]));
  const result = new Map<number, unknown>(ids.map((id) => [id, null]));
  for (const row of rows) result.set(Number(row.assigned_object_id), byId.get(Number(row.id)) ?? null);
  return result;
};

/** NetBox's L2VPNFilterSet.search also matches the identifier when the text is a whole number (Python's int()). */
const searchIdentifier: FilterFunction = (_ctx, _model, values) => {
  const text = (values[0] ?? '').trim();
  const number = /^[+-]?\d+$/.test(text) ? Number(text) : NaN;
  return Promise.resolve((query) =>
    Number.isSafeInteger(number) ? void query.where('t0.identifier', number) : void query.whereRaw('1 = 0'),
  );
};

/** NetBox's TunnelTerminationFilterSet has `q` without a search of its own: every object matches. */
const searchNothing: FilterFunction = () => Promise.resolve(() => undefined);

export const vpnFunctions = {
  'vpn.displayL2vpnTermination': { kind: 'display', fn: displayL2vpnTermination },
  'vpn.checkL2vpnTerminationCount': { kind: 'validator', fn: checkL2vpnTerminationCount },
  'vpn.l2vpnTerminationOf': { kind: 'compute', fn: l2vpnTerminationOf },
  'vpn.searchNothing': { kind: 'filter', fn: searchNothing },
  'vpn.searchIdentifier': { kind: 'filter', fn: searchIdentifier },
} satisfies Record<string, DomainEntry>;
