import { BadRequestError, NotFoundError } from '../errors.js';
import { invalidChoice } from '../rest/filter-values.js';
import { parseBoolean } from '../rest/values.js';
import { CIRCUIT_TERMINATION, FRONT_PORT, REAR_PORT, destinations } from './cable-paths.js';
import { connectedEndpointIds, storedPathsThrough } from './cable-store.js';
import { renderNodes, tracePaths } from './cable-trace.js';
import type { DomainEntry, FilterFunction, ListFunction, LocateFunction } from './types.js';

/**
 * What is read from cable paths besides an endpoint's own trace: the device at the far end of an interface
 * (`dcim/connected-device/`), the `connected` filter of path endpoints and the `paths/` of pass-through
 * objects, read from the stored paths (cable-store.ts).
 */

type Row = Record<string, unknown>;

const DEVICE = 'dcim.device';
const INTERFACE = 'dcim.interface';

/**
 * NetBox's ConnectedDeviceViewSet: the device at the far end of the complete path of `peer_interface` on
 * `peer_device`, each looked up among what the user may view. Where several viewable devices share the name
 * (NetBox then fails with a server error) the one with that interface and the lowest id is taken.
 */
const connectedDevice: LocateFunction = async (ctx, params) => {
  const deviceName = params.peer_device;
  const interfaceName = params.peer_interface;
  if (typeof deviceName !== 'string' || !deviceName || typeof interfaceName !== 'string' || !interfaceName)
    throw new BadRequestError('Request must include "peer_device" and "peer_interface" filters.');
  const devices = ctx
    .q({ t0: ctx.schema.model(DEVICE).table })
    .where('t0.name', deviceName)
    .select('t0.id');
  if (!ctx.restrictView(DEVICE, devices)) throw new NotFoundError('No Device matches the given query.');
  const deviceIds = ((await devices.orderBy('t0.id')) as Row[]).map((r) => Number(r.id));
  if (deviceIds.length === 0) throw new NotFoundError('No Device matches the given query.');
  const interfaces = ctx
    .q({ t0: ctx.schema.model(INTERFACE).table })
    .whereIn('t0.device_id', deviceIds)
    .where('t0.name', interfaceName)
    .select('t0.id')
    .orderBy(['t0.device_id', 't0.id'])
    .first();
  const found = ctx.restrictView(INTERFACE, interfaces) ? ((await interfaces) as Row | undefined) : undefined;
  if (!found) throw new NotFoundError('No Interface matches the given query.');
  const paths = await tracePaths(ctx, INTERFACE, [Number(found.id)]);
  const [far] = destinations(paths.get(Number(found.id)) ?? null);
  if (!far || far.type !== INTERFACE) return null;
  const row = (await ctx.q(ctx.schema.model(INTERFACE).table).where('id', far.id).select('device_id').first()) as
    Row | undefined;
  return row ? Number(row.device_id) : null;
};

/**
 * NetBox's PathEndpointFilterSet `connected`: true keeps the objects whose stored path is complete and active,
 * false the others (a sub-query).
 */
const connectedFilter: FilterFunction = async (ctx, model, values) => {
  const flag = parseBoolean(values[0] ?? '');
  if (flag === null) return invalidChoice(values[0] ?? '');
  const connected = connectedEndpointIds(ctx.schema, ctx.dialect, model.label);
  return (query) => void (flag ? query.whereIn('t0.id', connected) : query.whereNotIn('t0.id', connected));
};

/**
 * NetBox's PassThroughPortMixin `paths/`: the paths that cross the object (CablePathSerializer: `path` as
 * nested objects per segment, `is_active`, `is_complete`, `is_split`), in the order they were stored.
 */
function pathsOf(label: string): ListFunction {
  return async (ctx, parent) => {
    const traced = await storedPathsThrough(ctx.q, ctx.schema, { type: label, id: parent.id });
    const rendered = await renderNodes(
      ctx,
      traced.flatMap((t) => t.path),
    );
    let next = 0;
    const items = traced.map((t) => {
      const segments = t.path.map(() => rendered[next++]!);
      return {
        id: t.id,
        // As NetBox, a path holding an object that is gone renders as an empty path.
        path: segments.some((s, i) => s.length !== t.path[i]!.length) ? [] : segments,
        is_active: t.isActive,
        is_complete: t.isComplete,
        is_split: t.isSplit,
      };
    });
    return { items };
  };
}

/** The cable lookup domain functions, by the names YAML uses. */
export const cableLookupFunctions = {
  'dcim.connectedDevice': { kind: 'locate', fn: connectedDevice },
  'dcim.connectedFilter': { kind: 'filter', fn: connectedFilter },
  'dcim.frontPortPaths': { kind: 'list', fn: pathsOf(FRONT_PORT) },
  'dcim.rearPortPaths': { kind: 'list', fn: pathsOf(REAR_PORT) },
  'circuits.circuitTerminationPaths': { kind: 'list', fn: pathsOf(CIRCUIT_TERMINATION) },
} satisfies Record<string, DomainEntry>;
