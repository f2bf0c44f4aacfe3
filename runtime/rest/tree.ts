import type { Knex } from 'knex';
import type { Dialect } from '../db/connect.js';
import { PATH_AFTER_SEPARATOR, PATH_SEPARATOR, pathSegment, updateById } from '../db/sql.js';
import type { ModelInfo } from './schema.js';

/**
 * Tree models keep a materialised path (`_path`) and depth (`_depth`) per node: the path sorts depth-first
 * with siblings by name, and a node's descendants are the paths between `<path>\x02` and `<path>\x03`.
 */

interface Node {
  id: number;
  _path: string;
  _depth: number;
}

/** True when `candidate` is `node` itself or one of its descendants. */
export async function isSelfOrDescendant(
  q: Knex,
  model: ModelInfo,
  nodeId: number,
  candidateId: number,
): Promise<boolean> {
  if (nodeId === candidateId) return true;
  const rows = (await q(model.table).whereIn('id', [nodeId, candidateId]).select('id', '_path')) as Node[];
  const node = rows.find((r) => Number(r.id) === nodeId);
  const candidate = rows.find((r) => Number(r.id) === candidateId);
  if (!node || !candidate) return false;
  return candidate._path.startsWith(node._path + PATH_SEPARATOR);
}

/** Sets path and depth of freshly inserted nodes (their parents already have theirs), in one statement per chunk. */
export async function placeNewNodes(
  q: Knex,
  dialect: Dialect,
  model: ModelInfo,
  nodes: readonly { id: number; parent: number | null; name: string }[],
): Promise<void> {
  const parents = await loadNodes(
    q,
    model,
    nodes.map((n) => n.parent).filter((p): p is number => p !== null),
  );
  const placed = nodes.map((node) => {
    const parent = node.parent === null ? undefined : parents.get(node.parent);
    const path = parent
      ? `${parent._path}${PATH_SEPARATOR}${pathSegment(node.name, node.id)}`
      : pathSegment(node.name, node.id);
    return { id: node.id, values: { _path: path, _depth: parent ? Number(parent._depth) + 1 : 0 } };
  });
  await updateById(q, dialect, model.table, placed);
}

/** Re-homes a node after its parent or name changed, carrying its whole subtree along. */
export async function moveNode(
  q: Knex,
  model: ModelInfo,
  id: number,
  parentId: number | null,
  name: string,
): Promise<void> {
  const nodes = await loadNodes(q, model, parentId === null ? [id] : [id, parentId]);
  const node = nodes.get(id);
  if (!node) return;
  const parent = parentId === null ? undefined : nodes.get(parentId);
  const newPath = parent ? `${parent._path}${PATH_SEPARATOR}${pathSegment(name, id)}` : pathSegment(name, id);
  const newDepth = parent ? Number(parent._depth) + 1 : 0;
  if (newPath === node._path && newDepth === Number(node._depth)) return;
  const depthDelta = newDepth - Number(node._depth);
  const descendants = (await q(model.table)
    .where('_path', '>', node._path + PATH_SEPARATOR)
    .andWhere('_path', '<', node._path + PATH_AFTER_SEPARATOR)
    .select('id', '_path', '_depth')) as Node[];
  await q(model.table).where('id', id).update({ _path: newPath, _depth: newDepth });
  for (const child of descendants) {
    await q(model.table)
      .where('id', child.id)
      .update({ _path: newPath + child._path.slice(node._path.length), _depth: Number(child._depth) + depthDelta });
  }
}

async function loadNodes(q: Knex, model: ModelInfo, ids: readonly number[]): Promise<Map<number, Node>> {
  if (ids.length === 0) return new Map();
  const rows = (await q(model.table)
    .whereIn('id', [...new Set(ids)])
    .select('id', '_path', '_depth')) as Node[];
  return new Map(rows.map((r) => [Number(r.id), r]));
}
