import type { Knex } from 'knex';
import type { Schema } from '../rest/schema.js';
import {
  CABLE,
  CIRCUIT_TERMINATION,
  FRONT_PORT,
  destinations,
  tracePathOf,
  type CircuitPeer,
  type PathNode,
  type PortMappingRow,
  type TraceGraph,
  type TracedPath,
} from './cable-paths.js';
import type { BatchContext, ComputeFunction, DomainEntry, ListFunction } from './types.js';

/**
 * The database side of cable path tracing: a `TraceGraph` whose reads of all the traces that advance together
 * (a page's objects, traced at once) are gathered and made in one query per kind of read, so a page costs a
 * bounded number of queries per hop of its longest path, never a query per object. Paths are traced when read
 * (nothing is stored): a change to a cable, a termination or a mapping shows on the next read.
 */

type Row = Record<string, unknown>;

/** Gathers the keys asked for while the traces run, then loads them in one call (after the current turn). */
class Batcher<V> {
  private pending = new Map<string, { resolve: (value: V | undefined) => void; reject: (error: unknown) => void }[]>();
  private cache = new Map<string, V | undefined>();
  private scheduled = false;

  constructor(private readonly loadMany: (keys: string[]) => Promise<Map<string, V>>) {}

  get(key: string): Promise<V | undefined> {
    if (this.cache.has(key)) return Promise.resolve(this.cache.get(key));
    return new Promise((resolve, reject) => {
      const waiting = this.pending.get(key);
      if (waiting) waiting.push({ resolve, reject });
      else this.pending.set(key, [{ resolve, reject }]);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    this.scheduled = false;
    let values: Map<string, V>;
    try {
      values = await this.loadMany([...batch.keys()]);
    } catch (error) {
      for (const waiting of batch.values()) for (const { reject } of waiting) reject(error);
      return;
    }
    for (const [key, waiting] of batch) {
      this.cache.set(key, values.get(key));
      for (const { resolve } of waiting) resolve(values.get(key));
    }
  }
}

const nodeKey = (node: PathNode): string => `${node.type}:${node.id}`;
const parseKey = (key: string): PathNode => {
  const at = key.lastIndexOf(':');
  return { type: key.slice(0, at), id: Number(key.slice(at + 1)) };
};

function byType(keys: readonly string[]): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (const key of keys) {
    const node = parseKey(key);
    const list = groups.get(node.type) ?? [];
    list.push(node.id);
    groups.set(node.type, list);
  }
  return groups;
}

/** A graph over the database, its reads batched. */
export function databaseGraph(q: Knex, schema: Schema): TraceGraph {
  const terminations = schema.model('dcim.cabletermination').table;
  const cables = schema.model(CABLE).table;
  const links = new Batcher<{ cable: number; end: 'A' | 'B'; status: string }>(async (keys) => {
    const result = new Map<string, { cable: number; end: 'A' | 'B'; status: string }>();
    for (const [type, ids] of byType(keys)) {
      const rows = (await q({ ct: terminations })
        .join({ c: cables }, 'c.id', 'ct.cable_id')
        .where('ct.termination_type', type)
        .whereIn('ct.termination_id', ids)
        .select('ct.termination_id', 'ct.cable_id', 'ct.cable_end', 'c.status')) as Row[];
      for (const row of rows)
        result.set(`${type}:${Number(row.termination_id)}`, {
          cable: Number(row.cable_id),
          end: row.cable_end === 'B' ? 'B' : 'A',
          status: String(row.status),
        });
    }
    return result;
  });
  const ends = new Batcher<PathNode[]>(async (keys) => {
    const ids = [...new Set(keys.map((k) => Number(k.split(':')[0])))];
    const rows = (await q(terminations)
      .whereIn('cable_id', ids)
      .select('cable_id', 'cable_end', 'termination_type', 'termination_id')
      .orderBy('id')) as Row[];
    const result = new Map<string, PathNode[]>(keys.map((k) => [k, []]));
    for (const row of rows)
      result
        .get(`${Number(row.cable_id)}:${String(row.cable_end)}`)
        ?.push({ type: String(row.termination_type), id: Number(row.termination_id) });
    return result;
  });
  const positions = new Batcher<number>(async (keys) => {
    const result = new Map<string, number>();
    for (const [type, ids] of byType(keys)) {
      const rows = (await q(schema.model(type).table).whereIn('id', ids).select('id', 'positions')) as Row[];
      for (const row of rows) result.set(`${type}:${Number(row.id)}`, Number(row.positions));
    }
    return result;
  });
  const mappings = new Batcher<PortMappingRow[]>(async (keys) => {
    const result = new Map<string, PortMappingRow[]>(keys.map((k) => [k, []]));
    const table = schema.model('dcim.portmapping').table;
    for (const [type, ids] of byType(keys)) {
      const column = type === FRONT_PORT ? 'front_port_id' : 'rear_port_id';
      const rows = (await q(table)
        .whereIn(column, ids)
        .select('front_port_id', 'front_port_position', 'rear_port_id', 'rear_port_position')
        .orderBy(['front_port_id', 'front_port_position', 'id'])) as Row[];
      for (const row of rows)
        result.get(`${type}:${Number(row[column])}`)?.push({
          front: Number(row.front_port_id),
          frontPosition: Number(row.front_port_position),
          rear: Number(row.rear_port_id),
          rearPosition: Number(row.rear_port_position),
        });
    }
    return result;
  });
  const circuitPeers = new Batcher<CircuitPeer[]>(async (keys) => {
    const table = schema.model(CIRCUIT_TERMINATION).table;
    const ids = keys.map((k) => parseKey(k).id);
    const own = (await q(table).whereIn('id', ids).select('id', 'circuit_id', 'term_side')) as Row[];
    const circuits = [...new Set(own.map((r) => Number(r.circuit_id)))];
    const all = circuits.length
      ? ((await q({ t: table })
          .leftJoin({ ct: terminations }, (j) =>
            j.on('ct.termination_id', '=', 't.id').andOn('ct.termination_type', q.raw('?', [CIRCUIT_TERMINATION])),
          )
          .whereIn('t.circuit_id', circuits)
          .select('t.id', 't.circuit_id', 't.term_side', 't.termination_type', 't.termination_id', 'ct.cable_id')
          .orderBy('t.id')) as Row[])
      : [];
    const result = new Map<string, CircuitPeer[]>();
    for (const row of own) {
      const peers = all
        .filter((r) => Number(r.circuit_id) === Number(row.circuit_id) && r.term_side !== row.term_side)
        .map((r) => ({
          node: { type: CIRCUIT_TERMINATION, id: Number(r.id) },
          cable: r.cable_id === null || r.cable_id === undefined ? null : Number(r.cable_id),
          termination:
            r.termination_type && r.termination_id !== null
              ? { type: String(r.termination_type), id: Number(r.termination_id) }
              : null,
        }));
      result.set(`${CIRCUIT_TERMINATION}:${Number(row.id)}`, peers);
    }
    return result;
  });
  return {
    link: (node) => links.get(nodeKey(node)),
    ends: async (cable, end) => (await ends.get(`${cable}:${end}`)) ?? [],
    positions: async (port) => (await positions.get(nodeKey(port))) ?? 1,
    mappings: async (port) => (await mappings.get(nodeKey(port))) ?? [],
    circuitPeers: async (termination) => (await circuitPeers.get(nodeKey(termination))) ?? [],
  };
}

/** The paths of a page's objects of one model, traced together. */
export async function tracePaths(
  ctx: BatchContext,
  label: string,
  ids: readonly number[],
): Promise<Map<number, TracedPath | null>> {
  const graph = databaseGraph(ctx.q, ctx.schema);
  const traced = await Promise.all(ids.map((id) => tracePathOf({ type: label, id }, graph)));
  return new Map(ids.map((id, i) => [id, traced[i] ?? null]));
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
 * The paths of a page, traced once for its three path fields: the renderer hands each computed field of a page
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
    const traced = await tracePathOf({ type: label, id: parent.id }, databaseGraph(ctx.q, ctx.schema));
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
