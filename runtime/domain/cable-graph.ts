import type { Knex } from 'knex';
import type { Schema } from '../rest/schema.js';
import {
  CABLE,
  CIRCUIT_TERMINATION,
  FRONT_PORT,
  type CircuitPeer,
  type PathNode,
  type PortMappingRow,
  type TraceGraph,
} from './cable-paths.js';

/**
 * The database side of cable path tracing: a `TraceGraph` whose reads of all the traces that advance together
 * (the paths a change retraces, traced at once) are gathered and made in one query per kind of read, so a
 * retrace costs a bounded number of queries per hop of its longest path, never a query per object.
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

export const nodeKey = (node: PathNode): string => `${node.type}:${node.id}`;
export const parseKey = (key: string): PathNode => {
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
