/**
 * Cable path tracing (NetBox's CablePath.from_origin, without cable profiles): from origin terminations across
 * cables, through front/rear port mappings (a stack of positions carries a position through a patch panel and
 * back out of the panel at the far end) and across circuits (a termination to its circuit's other side), to
 * the far endpoints. Pure: the graph is read through `TraceGraph`, whose runtime implementation batches the
 * reads of many traces that advance together (one query per kind of read per hop, not per object).
 */

/** An object on a path: `app.model` and id (a cable is `dcim.cable`). */
export interface PathNode {
  type: string;
  id: number;
}

/** A port mapping: a front port's position joined to a rear port's position. */
export interface PortMappingRow {
  front: number;
  frontPosition: number;
  rear: number;
  rearPosition: number;
}

/** The other side of a circuit: its termination, whether a cable attaches to it, and where it terminates. */
export interface CircuitPeer {
  node: PathNode;
  cable: number | null;
  /** The site, region, location or provider network the termination attaches to. */
  termination: PathNode | null;
}

/** What tracing reads. */
export interface TraceGraph {
  /** The cable attached to an object, the object's end of it and the cable's status. */
  link(node: PathNode): Promise<{ cable: number; end: 'A' | 'B'; status: string } | undefined>;
  /** The objects on one end of a cable, in termination order. */
  ends(cable: number, end: 'A' | 'B'): Promise<PathNode[]>;
  /** The positions of a front or rear port. */
  positions(port: PathNode): Promise<number>;
  /** The mappings of a front port (by `front`) or a rear port (by `rear`). */
  mappings(port: PathNode): Promise<PortMappingRow[]>;
  /** The terminations on the other side of a circuit termination's circuit. */
  circuitPeers(termination: PathNode): Promise<CircuitPeer[]>;
}

export interface TracedPath {
  /** Segments: near-end objects, cables, far-end objects, … (NetBox's `path`). */
  path: PathNode[][];
  isActive: boolean;
  isComplete: boolean;
  isSplit: boolean;
  /** The trace came back to an object it had passed (the path stops there). */
  isLoop: boolean;
}

export const FRONT_PORT = 'dcim.frontport';
export const REAR_PORT = 'dcim.rearport';
export const CIRCUIT_TERMINATION = 'circuits.circuittermination';
export const PROVIDER_NETWORK = 'circuits.providernetwork';
export const CABLE = 'dcim.cable';

const keyOf = (node: PathNode): string => `${node.type}:${node.id}`;

function unique<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}

/** The path from origin terminations (all on one cable end), or null when the origins have no cable. */
export async function tracePath(origins: readonly PathNode[], graph: TraceGraph): Promise<TracedPath | null> {
  const result: TracedPath = { path: [], isActive: true, isComplete: false, isSplit: false, isLoop: false };
  const stack: number[][] = [];
  const visited = new Set<string>();
  let terminations: PathNode[] = [...origins];
  while (terminations.length > 0) {
    if (terminations.some((t) => visited.has(keyOf(t)))) {
      result.isLoop = true;
      break;
    }
    for (const t of terminations) visited.add(keyOf(t));
    const attached = await Promise.all(terminations.map((t) => graph.link(t)));
    const links = unique(
      attached.filter((l) => l !== undefined),
      (l) => `${l.cable}:${l.end}`,
    );
    const top = stack.at(-1);
    if (new Set(links.map((l) => l.cable)).size > 1 && top && terminations.length !== top.length) {
      result.isSplit = true;
      break;
    }
    result.path.push(terminations);
    if (links.length === 0) {
      if (result.path.length === 1) return null;
      break;
    }
    if (attached.some((l) => l === undefined)) result.isSplit = true;
    result.path.push(unique(links, (l) => String(l.cable)).map((l) => ({ type: CABLE, id: l.cable })));
    if (links.some((l) => l.status !== 'connected')) result.isActive = false;
    const remote = unique(
      (await Promise.all(links.map((l) => graph.ends(l.cable, l.end === 'A' ? 'B' : 'A')))).flat(),
      keyOf,
    );
    if (remote.some((t) => t.type !== remote[0]!.type)) {
      result.isSplit = true;
      break;
    }
    result.path.push(remote);
    if (remote.length === 0) break;
    const type = remote[0]!.type;
    if (type === FRONT_PORT || type === REAR_PORT) {
      const front = type === FRONT_PORT;
      const next = await passThrough(remote, front, stack, graph);
      if (next === 'split') {
        result.isSplit = true;
        break;
      }
      terminations = next;
    } else if (type === CIRCUIT_TERMINATION) {
      const peers = unique((await Promise.all(remote.map((t) => graph.circuitPeers(t)))).flat(), (p) => keyOf(p.node));
      if (peers.length === 0) break;
      // A circuit that ends at a provider network completes the path there (NetBox's step for _provider_network).
      if (peers.every((p) => p.termination?.type === PROVIDER_NETWORK)) {
        result.path.push(
          peers.map((p) => p.node),
          peers.map((p) => p.termination!),
        );
        result.isComplete = true;
        break;
      }
      if (peers.every((p) => p.termination && p.cable === null)) {
        result.path.push(
          peers.map((p) => p.node),
          peers.map((p) => p.termination!),
        );
        break;
      }
      if (peers.some((p) => p.cable !== null && links.some((l) => l.cable === p.cable))) {
        result.isSplit = true;
        break;
      }
      terminations = peers.map((p) => p.node);
    } else {
      result.isComplete = true;
      break;
    }
  }
  return result;
}

/** Through front ports to their rear ports or back (NetBox's step 8), or 'split' when no position says where. */
async function passThrough(
  ports: readonly PathNode[],
  front: boolean,
  stack: number[][],
  graph: TraceGraph,
): Promise<PathNode[] | 'split'> {
  const positions = await graph.positions(ports[0]!);
  let mappings = (await Promise.all(ports.map((p) => graph.mappings(p)))).flat();
  if (positions > 1) {
    const wanted = stack.pop();
    if (!wanted) return 'split';
    mappings = mappings.filter((m) => wanted.includes(front ? m.frontPosition : m.rearPosition));
  }
  if (mappings.length === 0) return [];
  const next = unique(
    mappings.map((m) => ({ type: front ? REAR_PORT : FRONT_PORT, id: front ? m.rear : m.front })),
    keyOf,
  );
  const counts = await Promise.all(next.map((p) => graph.positions(p)));
  if (counts.some((n) => n > 1)) stack.push(mappings.map((m) => (front ? m.rearPosition : m.frontPosition)));
  return next;
}

/** The far endpoints of a complete path (NetBox's CablePath.destinations): its last segment. */
export function destinations(traced: TracedPath | null): PathNode[] {
  if (!traced || !traced.isComplete) return [];
  return traced.path.at(-1) ?? [];
}
