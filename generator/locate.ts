import { isAlias, isMap, isScalar, isSeq, LineCounter, type Document, type Node } from 'yaml';

/** A position in a YAML file, 1-based. */
export interface Position {
  line: number;
  col: number;
}

/**
 * Finds the node at a dotted path (`models.site.fields.name.max_length`) of a parsed YAML document and
 * returns its position. Aliases and merge keys (`<<: *common`) are followed to the node they stand for, so
 * a mistake inside an anchored template is reported once, at the template. A path that ends below what the
 * file has (a missing key) gives the position of the deepest node that exists; a last segment that names a
 * map key gives the key's position.
 */
export function locatePath(doc: Document, lines: LineCounter, path: readonly string[]): Position | undefined {
  let node: unknown = doc.contents;
  let at: { range?: [number, number, number] | null } | undefined = doc.contents ?? undefined;
  for (let i = 0; i < path.length; i++) {
    node = resolveAlias(doc, node);
    // A key may itself hold dots (a model label such as `dcim.device`): a segment that is no key is tried
    // joined with the next ones.
    let segment = path[i]!;
    let step = stepInto(doc, node, segment);
    for (let j = i + 1; !step && j < path.length; j++) {
      segment = `${segment}.${path[j]!}`;
      step = stepInto(doc, node, segment);
      if (step) i = j;
    }
    if (!step) break;
    node = step.value;
    at = step.key ?? (resolveAlias(doc, step.value) as Node | undefined) ?? at;
  }
  const offset = at?.range?.[0];
  if (offset === undefined) return undefined;
  const { line, col } = lines.linePos(offset);
  return { line, col };
}

function resolveAlias(doc: Document, node: unknown): unknown {
  return isAlias(node) ? node.resolve(doc) : node;
}

/** One step down: a map key (through merge keys) or a sequence index. */
function stepInto(doc: Document, node: unknown, segment: string): { key?: Node; value: unknown } | undefined {
  if (isSeq(node)) {
    const index = Number(segment);
    return Number.isInteger(index) && index < node.items.length ? { value: node.items[index] } : undefined;
  }
  if (!isMap(node)) return undefined;
  for (const pair of node.items) {
    if (isScalar(pair.key) && String(pair.key.value) === segment) return { key: pair.key, value: pair.value };
  }
  for (const pair of node.items) {
    if (!isScalar(pair.key) || pair.key.value !== '<<') continue;
    const sources = isSeq(pair.value) ? pair.value.items : [pair.value];
    for (const source of sources) {
      const found = stepInto(doc, resolveAlias(doc, source), segment);
      if (found) return found;
    }
  }
  return undefined;
}
