import { describe, expect, it } from 'vitest';
import {
  destinations,
  tracePath,
  type CircuitPeer,
  type PathNode,
  type PortMappingRow,
  type TraceGraph,
} from '../../../runtime/domain/cable-paths.js';

/** Cable path tracing over small in-memory topologies (NetBox's test_cablepaths.py cases, by shape). */

const iface = (id: number): PathNode => ({ type: 'dcim.interface', id });
const front = (id: number): PathNode => ({ type: 'dcim.frontport', id });
const rear = (id: number): PathNode => ({ type: 'dcim.rearport', id });
const circuitEnd = (id: number): PathNode => ({ type: 'circuits.circuittermination', id });
const cable = (id: number): PathNode => ({ type: 'dcim.cable', id });
const key = (n: PathNode): string => `${n.type}:${n.id}`;

/** A topology: cables (A and B ends, status), port positions, port mappings, circuits. */
class Topology implements TraceGraph {
  private cables = new Map<number, { a: PathNode[]; b: PathNode[]; status: string }>();
  private portPositions = new Map<string, number>();
  private maps: PortMappingRow[] = [];
  private circuits: { a: PathNode; z: PathNode; zTermination?: PathNode; aTermination?: PathNode }[] = [];

  connect(id: number, a: PathNode[], b: PathNode[], status = 'connected'): this {
    this.cables.set(id, { a, b, status });
    return this;
  }
  port(node: PathNode, positions: number): this {
    this.portPositions.set(key(node), positions);
    return this;
  }
  map(frontId: number, frontPosition: number, rearId: number, rearPosition: number): this {
    this.maps.push({ front: frontId, frontPosition, rear: rearId, rearPosition });
    return this;
  }
  circuit(a: PathNode, z: PathNode, zTermination?: PathNode): this {
    this.circuits.push({ a, z, ...(zTermination ? { zTermination } : {}) });
    return this;
  }

  async link(node: PathNode) {
    for (const [id, c] of this.cables) {
      if (c.a.some((n) => key(n) === key(node))) return { cable: id, end: 'A' as const, status: c.status };
      if (c.b.some((n) => key(n) === key(node))) return { cable: id, end: 'B' as const, status: c.status };
    }
    return undefined;
  }
  async ends(id: number, end: 'A' | 'B') {
    const c = this.cables.get(id)!;
    return end === 'A' ? c.a : c.b;
  }
  async positions(port: PathNode) {
    return this.portPositions.get(key(port)) ?? 1;
  }
  async mappings(port: PathNode) {
    return this.maps.filter((m) => (port.type === 'dcim.frontport' ? m.front === port.id : m.rear === port.id));
  }
  async circuitPeers(termination: PathNode): Promise<CircuitPeer[]> {
    const peers: CircuitPeer[] = [];
    for (const c of this.circuits) {
      const other = key(c.a) === key(termination) ? c.z : key(c.z) === key(termination) ? c.a : undefined;
      if (!other) continue;
      const cabled = (await this.link(other))?.cable ?? null;
      const far = other === c.z ? c.zTermination : c.aTermination;
      peers.push({ node: other, cable: cabled, termination: far ?? null });
    }
    return peers;
  }
}

describe('tracePath', () => {
  it('returns null for an object without a cable', async () => {
    expect(await tracePath([iface(1)], new Topology())).toBeNull();
  });

  it('traces a straight cable between two interfaces', async () => {
    const graph = new Topology().connect(1, [iface(1)], [iface(2)]);
    const traced = await tracePath([iface(1)], graph);
    expect(traced).toEqual({
      path: [[iface(1)], [cable(1)], [iface(2)]],
      isActive: true,
      isComplete: true,
      isSplit: false,
      isLoop: false,
    });
    expect(destinations(traced)).toEqual([iface(2)]);
    expect((await tracePath([iface(2)], graph))!.path.at(-1)).toEqual([iface(1)]);
  });

  it('marks a path through a planned cable inactive', async () => {
    const traced = await tracePath([iface(1)], new Topology().connect(1, [iface(1)], [iface(2)], 'planned'));
    expect(traced).toMatchObject({ isActive: false, isComplete: true });
  });

  it('stops at a cable with nothing at its far end (incomplete)', async () => {
    const graph = new Topology().connect(1, [iface(1)], [front(1)]).map(1, 1, 1, 1);
    const traced = await tracePath([iface(1)], graph);
    expect(traced).toMatchObject({ isComplete: false, isSplit: false });
    expect(traced!.path).toEqual([[iface(1)], [cable(1)], [front(1)], [rear(1)]]);
    expect(destinations(traced)).toEqual([]);
  });

  /** Two patch panels with 4 front ports each mapped to the positions of one 4-position rear port. */
  const panels = (): Topology => {
    const graph = new Topology()
      .port(rear(1), 4)
      .port(rear(2), 4)
      .connect(100, [rear(1)], [rear(2)]);
    for (let i = 1; i <= 4; i++) {
      graph.map(i, 1, 1, i).map(10 + i, 1, 2, i);
      graph.connect(i, [iface(i)], [front(i)]);
      graph.connect(10 + i, [front(10 + i)], [iface(10 + i)]);
    }
    return graph;
  };

  it('carries each position through two patch panels', async () => {
    const graph = panels();
    for (let i = 1; i <= 4; i++) {
      const traced = await tracePath([iface(i)], graph);
      expect(traced!.path).toEqual([
        [iface(i)],
        [cable(i)],
        [front(i)],
        [rear(1)],
        [cable(100)],
        [rear(2)],
        [front(10 + i)],
        [cable(10 + i)],
        [iface(10 + i)],
      ]);
      expect(traced).toMatchObject({ isComplete: true, isActive: true, isSplit: false });
      expect(destinations(await tracePath([iface(10 + i)], graph))).toEqual([iface(i)]);
    }
  });

  it('splits at a multi-position rear port reached without a position', async () => {
    const graph = panels()
      .connect(200, [iface(50)], [rear(3)])
      .port(rear(3), 4)
      .map(21, 1, 3, 1)
      .map(22, 1, 3, 2);
    const traced = await tracePath([iface(50)], graph);
    expect(traced).toMatchObject({ isSplit: true, isComplete: false });
    expect(traced!.path).toEqual([[iface(50)], [cable(200)], [rear(3)]]);
  });

  it('traces across a circuit to the interface cabled to its other side', async () => {
    const graph = new Topology()
      .connect(1, [iface(1)], [circuitEnd(1)])
      .circuit(circuitEnd(1), circuitEnd(2))
      .connect(2, [circuitEnd(2)], [iface(2)]);
    const traced = await tracePath([iface(1)], graph);
    expect(traced!.path).toEqual([[iface(1)], [cable(1)], [circuitEnd(1)], [circuitEnd(2)], [cable(2)], [iface(2)]]);
    expect(traced).toMatchObject({ isComplete: true });
  });

  it('ends at the site a circuit terminates to, incomplete', async () => {
    const site: PathNode = { type: 'dcim.site', id: 9 };
    const graph = new Topology().connect(1, [iface(1)], [circuitEnd(1)]).circuit(circuitEnd(1), circuitEnd(2), site);
    const traced = await tracePath([iface(1)], graph);
    expect(traced!.path).toEqual([[iface(1)], [cable(1)], [circuitEnd(1)], [circuitEnd(2)], [site]]);
    expect(traced).toMatchObject({ isComplete: false, isSplit: false });
  });

  it('stops where the path comes back to a port it passed (a loop)', async () => {
    // Panel 1's rear port carries front ports 1 and 3; panel 2 sends position 1 back into front port 3.
    const graph = new Topology()
      .port(rear(1), 2)
      .map(1, 1, 1, 1)
      .map(3, 1, 1, 2)
      .map(2, 1, 2, 1)
      .connect(1, [iface(1)], [front(1)])
      .connect(2, [rear(1)], [rear(2)])
      .connect(3, [front(2)], [front(3)]);
    const traced = await tracePath([iface(1)], graph);
    expect(traced).toMatchObject({ isLoop: true, isComplete: false });
    expect(destinations(traced)).toEqual([]);
  });

  it('follows several terminations on one cable end together', async () => {
    const graph = new Topology().connect(1, [iface(1), iface(2)], [iface(3), iface(4)]);
    const traced = await tracePath([iface(1), iface(2)], graph);
    expect(traced!.path).toEqual([[iface(1), iface(2)], [cable(1)], [iface(3), iface(4)]]);
    expect(traced!.isComplete).toBe(true);
  });
});

describe('circuits to provider networks', () => {
  it('completes a path at the provider network its circuit ends at (NetBox test_214)', async () => {
    const network: PathNode = { type: 'circuits.providernetwork', id: 1 };
    const graph = new Topology().connect(1, [iface(1)], [circuitEnd(1)]).circuit(circuitEnd(1), circuitEnd(2), network);
    const traced = await tracePath([iface(1)], graph);
    expect(traced).toMatchObject({ isComplete: true, isActive: true, isSplit: false });
    expect(traced!.path).toEqual([[iface(1)], [cable(1)], [circuitEnd(1)], [circuitEnd(2)], [network]]);
    expect(destinations(traced)).toEqual([network]);
  });
});
