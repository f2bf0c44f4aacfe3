import type { Knex } from 'knex';
import type { Dialect } from '../db/connect.js';
import { chunks, IDS_PER_STATEMENT, rowsPerInsert } from '../db/sql.js';
import type { Schema } from '../rest/schema.js';
import { databaseGraph, nodeKey, parseKey } from './cable-graph.js';
import { CABLE, CIRCUIT_TERMINATION, tracePath, type PathNode, type TracedPath } from './cable-paths.js';
import type { DomainEntry, WrittenFunction } from './types.js';

/**
 * Stored cable paths (NetBox's CablePath): each path from the endpoints on one cable end is kept with its flags,
 * and its nodes in an index (NetBox's `_nodes`) that answers which paths cross an object and which path starts
 * at an endpoint (segment 0: NetBox's `_path`). A change to a cable, a termination, a port mapping or a circuit
 * termination retraces only the stored paths that cross what changed, plus the paths from the endpoints it
 * joined to a cable, as NetBox's signal handlers do; reads never trace.
 */

type Row = Record<string, unknown>;

const PATHS = 'dcim.cablepath';
const NODES = 'dcim.cablepathnode';
const TERMINATIONS = 'dcim.cabletermination';

/** NetBox's PathEndpoint models: the origins of stored paths. */
export const PATH_ENDPOINTS: ReadonlySet<string> = new Set([
  'dcim.consoleport',
  'dcim.consoleserverport',
  'dcim.interface',
  'dcim.powerfeed',
  'dcim.poweroutlet',
  'dcim.powerport',
]);

/** A stored path and its id. */
export interface StoredPath extends TracedPath {
  id: number;
}

const flag = (dialect: Dialect, value: boolean): boolean | number => (dialect === 'sqlite' ? Number(value) : value);

function decodePath(raw: unknown): PathNode[][] {
  const segments = (typeof raw === 'string' ? JSON.parse(raw) : raw) as string[][];
  return segments.map((segment) => segment.map(parseKey));
}

function storedPath(row: Row): StoredPath {
  return {
    id: Number(row.id),
    path: decodePath(row.path),
    isActive: Boolean(row.is_active),
    isComplete: Boolean(row.is_complete),
    isSplit: Boolean(row.is_split),
    isLoop: false,
  };
}

function byType(nodes: Iterable<PathNode>): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (const node of nodes) {
    const list = groups.get(node.type) ?? [];
    list.push(node.id);
    groups.set(node.type, list);
  }
  return groups;
}

/** The stored path of each endpoint of one model (the path whose origins hold it), in one query per chunk. */
export async function pathsOfEndpoints(
  q: Knex,
  schema: Schema,
  label: string,
  ids: readonly number[],
): Promise<Map<number, StoredPath>> {
  const result = new Map<number, StoredPath>();
  for (const chunk of chunks([...new Set(ids)], IDS_PER_STATEMENT)) {
    const rows = (await q({ n: schema.model(NODES).table })
      .join({ p: schema.model(PATHS).table }, 'p.id', 'n.cable_path_id')
      .where('n.node_type', label)
      .whereIn('n.node_id', chunk)
      .where('n.segment', 0)
      .select('n.node_id', 'p.id', 'p.path', 'p.is_active', 'p.is_complete', 'p.is_split')) as Row[];
    for (const row of rows) result.set(Number(row.node_id), storedPath(row));
  }
  return result;
}

/** The stored paths that cross an object (NetBox's `CablePath.objects.filter(_nodes__contains=obj)`), by id. */
export async function storedPathsThrough(q: Knex, schema: Schema, node: PathNode): Promise<StoredPath[]> {
  const rows = (await q(schema.model(PATHS).table)
    .whereIn('id', (sub) =>
      sub
        .select('cable_path_id')
        .from(schema.model(NODES).table)
        .where('node_type', node.type)
        .where('node_id', node.id),
    )
    .orderBy('id')
    .select('id', 'path', 'is_active', 'is_complete', 'is_split')) as Row[];
  return rows.map(storedPath);
}

/** The endpoints of a model whose stored path is complete and active (a sub-query of their ids). */
export function connectedEndpointIds(
  schema: Schema,
  dialect: Dialect,
  label: string,
): (sub: Knex.QueryBuilder) => void {
  return (sub) =>
    void sub
      .select('n.node_id')
      .from({ n: schema.model(NODES).table })
      .join({ p: schema.model(PATHS).table }, 'p.id', 'n.cable_path_id')
      .where('n.node_type', label)
      .where('n.segment', 0)
      .where('p.is_complete', flag(dialect, true))
      .where('p.is_active', flag(dialect, true));
}

/** The ids of the stored paths that hold any of the nodes (as an origin only, when `originsOnly`): one query. */
async function pathIdsHolding(
  q: Knex,
  schema: Schema,
  nodes: readonly PathNode[],
  originsOnly: boolean,
): Promise<Set<number>> {
  const found = new Set<number>();
  for (const chunk of chunks(nodes, IDS_PER_STATEMENT)) {
    const query = q(schema.model(NODES).table).where((w) => {
      for (const [type, ids] of byType(chunk))
        w.orWhere((b) => void b.where('node_type', type).whereIn('node_id', [...new Set(ids)]));
    });
    if (originsOnly) query.where('segment', 0);
    for (const row of (await query.distinct('cable_path_id')) as Row[]) found.add(Number(row.cable_path_id));
  }
  return found;
}

/** Stores traced paths with their node index, in multi-row statements. */
async function storePaths(q: Knex, schema: Schema, dialect: Dialect, traced: readonly TracedPath[]): Promise<void> {
  const pathTable = schema.model(PATHS).table;
  const nodeRows: Row[] = [];
  for (const chunk of chunks(traced, rowsPerInsert(dialect, 4))) {
    const rows = chunk.map((t) => ({
      path: JSON.stringify(t.path.map((segment) => segment.map(nodeKey))),
      is_active: flag(dialect, t.isActive),
      is_complete: flag(dialect, t.isComplete),
      is_split: flag(dialect, t.isSplit),
    }));
    const inserted = (await q(pathTable).insert(rows).returning('id')) as ({ id: number } | number)[];
    chunk.forEach((t, i) => {
      const id = inserted[i]!;
      const pathId = Number(typeof id === 'object' ? id.id : id);
      t.path.forEach((segment, index) => {
        for (const node of segment)
          nodeRows.push({ cable_path_id: pathId, segment: index, node_type: node.type, node_id: node.id });
      });
    });
  }
  const nodeTable = schema.model(NODES).table;
  for (const chunk of chunks(nodeRows, rowsPerInsert(dialect, 4))) await q(nodeTable).insert(chunk);
}

async function deletePaths(q: Knex, schema: Schema, ids: ReadonlySet<number>): Promise<void> {
  for (const chunk of chunks([...ids], IDS_PER_STATEMENT)) {
    await q(schema.model(NODES).table).whereIn('cable_path_id', chunk).delete();
    await q(schema.model(PATHS).table).whereIn('id', chunk).delete();
  }
}

/**
 * Traces and stores the paths from the endpoints on the given cable ends (each end's endpoints are one origin,
 * as NetBox's create_cablepaths takes them), replacing the paths those endpoints had.
 */
async function storeFromEnds(
  q: Knex,
  schema: Schema,
  dialect: Dialect,
  ends: readonly { cable: number; end: 'A' | 'B' }[],
  replaced: Set<number>,
): Promise<void> {
  const graph = databaseGraph(q, schema);
  const origins = (await Promise.all(ends.map((e) => graph.ends(e.cable, e.end)))).filter(
    (list) => list.length > 0 && PATH_ENDPOINTS.has(list[0]!.type),
  );
  for (const id of await pathIdsHolding(q, schema, origins.flat(), true)) replaced.add(id);
  await deletePaths(q, schema, replaced);
  const traced = await Promise.all(origins.map((list) => tracePath(list, graph)));
  await storePaths(
    q,
    schema,
    dialect,
    traced.filter((t) => t !== null),
  );
}

/**
 * NetBox's rebuild_paths and create_cablepaths after a change: the stored paths that cross any of the touched
 * objects are traced again from their origins (those still on a cable), and the touched endpoints get their
 * paths; a path whose origins left every cable is gone.
 */
export async function retracePaths(
  q: Knex,
  schema: Schema,
  dialect: Dialect,
  touched: readonly PathNode[],
): Promise<void> {
  const affected = await pathIdsHolding(q, schema, touched, false);
  const candidates = new Map<string, PathNode>();
  for (const chunk of chunks([...affected], IDS_PER_STATEMENT)) {
    const rows = (await q(schema.model(NODES).table)
      .whereIn('cable_path_id', chunk)
      .where('segment', 0)
      .select('node_type', 'node_id')) as Row[];
    for (const row of rows) {
      const node = { type: String(row.node_type), id: Number(row.node_id) };
      candidates.set(nodeKey(node), node);
    }
  }
  for (const node of touched) if (PATH_ENDPOINTS.has(node.type)) candidates.set(nodeKey(node), node);
  const graph = databaseGraph(q, schema);
  const links = await Promise.all([...candidates.values()].map((node) => graph.link(node)));
  const ends = new Map<string, { cable: number; end: 'A' | 'B' }>();
  for (const link of links) if (link) ends.set(`${link.cable}:${link.end}`, { cable: link.cable, end: link.end });
  await storeFromEnds(q, schema, dialect, [...ends.values()], affected);
}

/** Traces every path again (after an import, whose rows carry no paths): one origin per cable end of endpoints. */
export async function rebuildAllPaths(q: Knex, schema: Schema, dialect: Dialect): Promise<void> {
  await q(schema.model(NODES).table).delete();
  await q(schema.model(PATHS).table).delete();
  const rows = (await q(schema.model(TERMINATIONS).table)
    .whereIn('termination_type', [...PATH_ENDPOINTS])
    .distinct('cable_id', 'cable_end')
    .orderBy(['cable_id', 'cable_end'])) as Row[];
  const ends = rows.map((r) => ({
    cable: Number(r.cable_id),
    end: r.cable_end === 'B' ? ('B' as const) : ('A' as const),
  }));
  // Slices keep a trace's batched reads and the memory of a large import bounded.
  for (const slice of chunks(ends, 500)) await storeFromEnds(q, schema, dialect, slice, new Set());
}

/** A cable written (created, updated or deleted): the paths through it and from its ends. */
const retraceCable: WrittenFunction = async (ctx, _model, written) => {
  const cables = written.map((w) => w.id);
  const touched: PathNode[] = cables.map((id) => ({ type: CABLE, id }));
  for (const chunk of chunks(cables, IDS_PER_STATEMENT)) {
    const rows = (await ctx
      .q(ctx.schema.model(TERMINATIONS).table)
      .whereIn('cable_id', chunk)
      .select('termination_type', 'termination_id')) as Row[];
    for (const row of rows) touched.push({ type: String(row.termination_type), id: Number(row.termination_id) });
  }
  await retracePaths(ctx.q, ctx.schema, ctx.dialect, touched);
};

/**
 * Terminations removed (from a cable's ends, or with their object): the paths through their cable and object.
 * New terminations are traced by their cable's hook once both of its ends are written.
 */
const retraceRemovedTerminations: WrittenFunction = async (ctx, model, written) => {
  const ids = written.map((w) => w.id);
  const remaining = new Set<number>();
  for (const chunk of chunks(ids, IDS_PER_STATEMENT))
    for (const row of (await ctx.q(model.table).whereIn('id', chunk).select('id')) as Row[])
      remaining.add(Number(row.id));
  const touched: PathNode[] = [];
  for (const { id, values } of written) {
    if (remaining.has(id)) continue;
    touched.push({ type: CABLE, id: Number(values.cable) });
    touched.push({ type: String(values.termination_type), id: Number(values.termination_id) });
  }
  if (touched.length) await retracePaths(ctx.q, ctx.schema, ctx.dialect, touched);
};

/** A port mapping created or deleted: the paths through its front and rear ports (NetBox's signal). */
const retracePortMapping: WrittenFunction = async (ctx, _model, written) => {
  const touched = written.flatMap(({ values }) => [
    { type: 'dcim.frontport', id: Number(values.front_port) },
    { type: 'dcim.rearport', id: Number(values.rear_port) },
  ]);
  await retracePaths(ctx.q, ctx.schema, ctx.dialect, touched);
};

/** A circuit termination written: the paths through its circuit's terminations (NetBox rebuilds the peer's). */
const retraceCircuitTermination: WrittenFunction = async (ctx, model, written) => {
  const circuits = [...new Set(written.map((w) => Number(w.values.circuit)))];
  const touched: PathNode[] = written.map((w) => ({ type: CIRCUIT_TERMINATION, id: w.id }));
  for (const chunk of chunks(circuits, IDS_PER_STATEMENT))
    for (const row of (await ctx.q(model.table).whereIn('circuit_id', chunk).select('id')) as Row[])
      touched.push({ type: CIRCUIT_TERMINATION, id: Number(row.id) });
  await retracePaths(ctx.q, ctx.schema, ctx.dialect, touched);
};

/** The stored cable path hooks, by the names YAML uses. */
export const cableStoreFunctions = {
  'dcim.retraceCable': { kind: 'written', fn: retraceCable },
  'dcim.retraceRemovedTerminations': { kind: 'written', fn: retraceRemovedTerminations },
  'dcim.retracePortMapping': { kind: 'written', fn: retracePortMapping },
  'circuits.retraceCircuitTermination': { kind: 'written', fn: retraceCircuitTermination },
} satisfies Record<string, DomainEntry>;

/**
 * After migrations: when this run created the stored paths' table, the cables already in the database get
 * their paths (a database from before stored paths), as an import's do.
 */
export function fillNewTables(
  schema: Schema,
  dialect: Dialect,
): (q: Knex.Transaction, created: ReadonlySet<string>) => Promise<void> {
  return async (q, created) => {
    if (created.has(schema.model(PATHS).table)) await rebuildAllPaths(q, schema, dialect);
  };
}
