/**
 * NetBox's PowerPort.get_power_draw(): what a power port draws, from the ports its outlets feed. A port with an
 * allocated or maximum draw of its own reports those; a port with neither adds up the draw of every power port
 * cabled to one of its outlets, recursively (a PDU's internal fuses are auto-mode ports between its intake and
 * its outlets), each port counted once; a port cabled to a three-phase feed also reports each leg.
 *
 * Pure: the caller loads the graph (ports, outlets and which ports each outlet's cable reaches).
 */

export type FeedLeg = 'A' | 'B' | 'C';
const LEGS: readonly FeedLeg[] = ['A', 'B', 'C'];

export interface PowerPortNode {
  id: number;
  allocated_draw: number | null;
  maximum_draw: number | null;
  /** The port's one link peer is a three-phase power feed. */
  threePhaseFeed?: boolean;
}

export interface PowerOutletNode {
  id: number;
  /** The power port that feeds the outlet (its device's intake). */
  power_port: number | null;
  feed_leg: FeedLeg | null;
  /** The power ports at the far end of the outlet's cable (none when it has no cable). */
  downstream: readonly number[];
}

export interface PowerGraph {
  ports: ReadonlyMap<number, PowerPortNode>;
  outlets: readonly PowerOutletNode[];
}

export interface LegDraw {
  name: FeedLeg;
  allocated: number;
  maximum: number;
  outlet_count: number;
}

export interface PowerDraw {
  allocated: number;
  maximum: number;
  outlet_count: number;
  legs: LegDraw[];
}

/** The power ports cabled to the port's outlets (of one leg, if given): NetBox's get_downstream_powerports. */
function downstreamPorts(graph: PowerGraph, portId: number, leg?: FeedLeg): number[] {
  const ids = new Set<number>();
  for (const outlet of graph.outlets) {
    if (outlet.power_port !== portId || (leg && outlet.feed_leg !== leg)) continue;
    for (const id of outlet.downstream) ids.add(id);
  }
  return [...ids].sort((a, b) => a - b);
}

/** The allocated and maximum draw (watts), outlet count and per-leg figures of one power port. */
export function powerDraw(graph: PowerGraph, portId: number, seen?: ReadonlySet<number>): PowerDraw {
  const port = graph.ports.get(portId);
  if (!port) throw new Error(`unknown power port ${portId}`);
  const outlets = graph.outlets.filter((o) => o.power_port === portId);
  if (port.allocated_draw !== null || port.maximum_draw !== null) {
    return {
      allocated: port.allocated_draw ?? 0,
      maximum: port.maximum_draw ?? 0,
      outlet_count: outlets.length,
      legs: [],
    };
  }
  // Each aggregation starts from its own copy of the ports visited above, so that the per-leg passes do not
  // skip the ports the full pass visited.
  const base = new Set(seen ?? []);
  base.add(portId);
  const aggregate = (ids: readonly number[], visited: Set<number>): [number, number] => {
    let allocated = 0;
    let maximum = 0;
    for (const id of ids) {
      if (visited.has(id)) continue;
      visited.add(id);
      const draw = powerDraw(graph, id, visited);
      allocated += draw.allocated;
      maximum += draw.maximum;
    }
    return [allocated, maximum];
  };
  const [allocated, maximum] = aggregate(downstreamPorts(graph, portId), new Set(base));
  const legs = port.threePhaseFeed
    ? LEGS.map((name) => {
        const [legAllocated, legMaximum] = aggregate(downstreamPorts(graph, portId, name), new Set(base));
        const count = outlets.filter((o) => o.feed_leg === name).length;
        return { name, allocated: legAllocated, maximum: legMaximum, outlet_count: count };
      })
    : [];
  return { allocated, maximum, outlet_count: outlets.length, legs };
}
