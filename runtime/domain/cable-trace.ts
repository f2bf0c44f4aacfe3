import { CABLE, destinations, type PathNode, type TracedPath } from './cable-paths.js';
import { nodeKey } from './cable-graph.js';
import { pathsOfEndpoints } from './cable-store.js';
import type { BatchContext, ComputeFunction, DomainEntry, ListFunction } from './types.js';

/**
 * What a path endpoint shows of its stored cable path (cable-store.ts): `connected_endpoints`, their type,
 * whether they are reachable, and its `trace/`. A page reads its objects' paths in one query, shared by its
 * three path fields.
 */

type Row = Record<string, unknown>;

/** The stored paths of a page's objects of one model. */
export async function tracePaths(
  ctx: BatchContext,
  label: string,
  ids: readonly number[],
): Promise<Map<number, TracedPath | null>> {
  const stored = await pathsOfEndpoints(ctx.q, ctx.schema, label, ids);
  return new Map(ids.map((id) => [id, stored.get(id) ?? null]));
}

/** Renders path nodes as the nested objects of their models, in order (one load per model). */
export async function renderNodes(ctx: BatchContext, lists: readonly PathNode[][]): Promise<Row[][]> {
  const wanted = new Map<string, Set<number>>();
  for (const list of lists)
    for (const node of list) {
      const set = wanted.get(node.type) ?? new Set<number>();
      set.add(node.id);
      wanted.set(node.type, set);
    }
  const objects = new Map<string, Row>();
  for (const [type, set] of wanted) {
    const loaded = ctx.load ? await ctx.load(type, ctx.schema.model(type).spec.nested, [...set]) : [];
    for (const object of loaded) objects.set(`${type}:${String(object.id)}`, object);
  }
  return lists.map((list) => list.map((n) => objects.get(nodeKey(n))).filter((o) => o !== undefined));
}

/**
 * The paths of a page, read once for its three path fields: the renderer hands each computed field of a page
 * the same id list, so the traces are kept by that list (and dropped with it).
 */
const pageTraces = new WeakMap<readonly number[], Map<string, Promise<Map<number, TracedPath | null>>>>();

function tracePage(ctx: BatchContext, label: string, ids: readonly number[]): Promise<Map<number, TracedPath | null>> {
  const byModel = pageTraces.get(ids) ?? new Map<string, Promise<Map<number, TracedPath | null>>>();
  pageTraces.set(ids, byModel);
  let traced = byModel.get(label);
  if (!traced) {
    traced = tracePaths(ctx, label, ids);
    byModel.set(label, traced);
  }
  return traced;
}

/** `connected_endpoints`: the far endpoints of a complete path, nested; null without them. */
const connectedEndpoints: ComputeFunction = async (ctx, model, ids) => {
  const paths = await tracePage(ctx, model.label, ids);
  const lists = ids.map((id) => destinations(paths.get(id) ?? null));
  const rendered = await renderNodes(ctx, lists);
  return new Map(ids.map((id, i) => [id, rendered[i]!.length ? rendered[i] : null]));
};

/** `connected_endpoints_type`: their object type, null without them. */
const connectedEndpointsType: ComputeFunction = async (ctx, model, ids) => {
  const paths = await tracePage(ctx, model.label, ids);
  return new Map(ids.map((id) => [id, destinations(paths.get(id) ?? null)[0]?.type ?? null]));
};

/** `connected_endpoints_reachable`: the path is complete and active. */
const connectedEndpointsReachable: ComputeFunction = async (ctx, model, ids) => {
  const paths = await tracePage(ctx, model.label, ids);
  return new Map(
    ids.map((id) => {
      const path = paths.get(id);
      return [id, Boolean(path && path.isComplete && path.isActive)];
    }),
  );
};

/** The fields of a cable in a trace (NetBox's TracedCableSerializer). */
const TRACED_CABLE = [
  'id',
  'url',
  'display_url',
  'type',
  'status',
  'label',
  'color',
  'length',
  'length_unit',
  'description',
];

/**
 * NetBox's PathEndpoint.trace() as its `trace/` action renders it: the path in (near ends, cable, far ends)
 * triples, a path that stops at an unconnected pass-through port padded with an empty cable and far end, and
 * one that ends at a site (a circuit's far side) with an empty cable before it.
 */
export function traceSegments(path: readonly PathNode[][]): [PathNode[], PathNode[], PathNode[]][] {
  const segments = [...path];
  if (segments.length % 3 === 1) segments.push([], []);
  else if (segments.length % 3 === 2) segments.splice(segments.length - 1, 0, []);
  const triples: [PathNode[], PathNode[], PathNode[]][] = [];
  for (let i = 0; i + 2 < segments.length; i += 3) triples.push([segments[i]!, segments[i + 1]!, segments[i + 2]!]);
  return triples;
}

/** `trace/` of one path endpoint model: its path as NetBox's list of triples (a JSON document). */
function traceOf(label: string): ListFunction {
  return async (ctx, parent) => {
    const traced = (await pathsOfEndpoints(ctx.q, ctx.schema, label, [parent.id])).get(parent.id);
    const triples = traced ? traceSegments(traced.path) : [];
    const ends = await renderNodes(
      ctx,
      triples.flatMap(([near, , far]) => [near, far]),
    );
    const cableIds = triples.flatMap(([, cable]) => cable.map((c) => c.id));
    const cables = cableIds.length ? await ctx.load(CABLE, TRACED_CABLE, cableIds) : [];
    const cableById = new Map(cables.map((c) => [Number(c.id), c]));
    const body: unknown[] = [];
    for (const [i, [near, cable]] of triples.entries()) {
      if (near.length === 0) break;
      const first = cable[0];
      body.push([ends[2 * i], first ? (cableById.get(first.id) ?? null) : [], ends[2 * i + 1]]);
    }
    return { body: JSON.stringify(body), contentType: 'application/json' };
  };
}

/** The cable trace domain functions, by the names YAML uses. */
export const cableTraceFunctions = {
  'dcim.connectedEndpoints': { kind: 'compute', fn: connectedEndpoints },
  'dcim.connectedEndpointsType': { kind: 'compute', fn: connectedEndpointsType },
  'dcim.connectedEndpointsReachable': { kind: 'compute', fn: connectedEndpointsReachable },
  'dcim.traceInterface': { kind: 'list', fn: traceOf('dcim.interface') },
  'dcim.traceConsolePort': { kind: 'list', fn: traceOf('dcim.consoleport') },
  'dcim.traceConsoleServerPort': { kind: 'list', fn: traceOf('dcim.consoleserverport') },
  'dcim.tracePowerPort': { kind: 'list', fn: traceOf('dcim.powerport') },
  'dcim.tracePowerOutlet': { kind: 'list', fn: traceOf('dcim.poweroutlet') },
  'dcim.tracePowerFeed': { kind: 'list', fn: traceOf('dcim.powerfeed') },
} satisfies Record<string, DomainEntry>;
