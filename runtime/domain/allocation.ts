/**
 * The arithmetic of allocation, without a database: free addresses in a span, free blocks of a network
 * (netaddr's `IPSet(parent) - IPSet(children)`, as CIDRs in address order), first-fit prefixes and free
 * VLAN IDs. Addresses are bigints so that IPv4 and IPv6 share the code.
 */

/** An inclusive span of addresses. */
export interface Span {
  first: bigint;
  last: bigint;
}

/** A network: its first address and mask length. */
export interface Block {
  start: bigint;
  len: number;
}

/** The width in bits of a family's addresses. */
export function bitsOf(family: 4 | 6): number {
  return family === 4 ? 32 : 128;
}

/**
 * The addresses of a network that NetBox hands out: all of them in a pool or a point-to-point network
 * (IPv4 /31–/32, IPv6 /127–/128); otherwise IPv4 leaves out the network and broadcast addresses and IPv6
 * the subnet-router anycast address (the first).
 */
export function usableSpan(family: 4 | 6, network: Span, len: number, isPool: boolean): Span {
  const bits = bitsOf(family);
  if (isPool || len >= bits - 1) return network;
  return { first: network.first + 1n, last: family === 4 ? network.last - 1n : network.last };
}

/** Up to `limit` addresses of the span that are not in `used`, lowest first (lazy: never walks the span). */
export function freeAddresses(span: Span, used: readonly bigint[], limit: number): bigint[] {
  const taken = [...new Set(used)].filter((u) => u >= span.first && u <= span.last).sort(compare);
  const free: bigint[] = [];
  let next = span.first;
  let index = 0;
  while (free.length < limit && next <= span.last) {
    while (index < taken.length && taken[index]! < next) index += 1;
    if (index < taken.length && taken[index] === next) {
      next += 1n;
      continue;
    }
    // Everything up to the next taken address is free.
    const stop = index < taken.length ? taken[index]! - 1n : span.last;
    while (free.length < limit && next <= stop) {
      free.push(next);
      next += 1n;
    }
  }
  return free;
}

/** The spans of `whole` that none of `taken` covers, in address order. */
export function subtractSpans(whole: Span, taken: readonly Span[]): Span[] {
  const sorted = taken
    .filter((t) => t.last >= whole.first && t.first <= whole.last)
    .sort((a, b) => compare(a.first, b.first));
  const gaps: Span[] = [];
  let next = whole.first;
  for (const span of sorted) {
    if (span.first > next) gaps.push({ first: next, last: span.first - 1n });
    if (span.last + 1n > next) next = span.last + 1n;
    if (next > whole.last) return gaps;
  }
  if (next <= whole.last) gaps.push({ first: next, last: whole.last });
  return gaps;
}

/** The largest aligned networks that exactly cover a span, in address order (netaddr's `iprange_to_cidrs`). */
export function spanToBlocks(span: Span, bits: number): Block[] {
  const blocks: Block[] = [];
  let start = span.first;
  while (start <= span.last) {
    let size = 0;
    // Grow while the block stays aligned at `start` and inside the span.
    while (size < bits) {
      const bigger = 1n << BigInt(size + 1);
      if (start % bigger !== 0n || start + bigger - 1n > span.last) break;
      size += 1;
    }
    blocks.push({ start, len: bits - size });
    start += 1n << BigInt(size);
  }
  return blocks;
}

/** The free blocks of a network once its children are taken out, in address order. */
export function freeBlocks(network: Span, children: readonly Span[], bits: number): Block[] {
  return subtractSpans(network, children).flatMap((gap) => spanToBlocks(gap, bits));
}

/** The span a block covers. */
export function blockSpan(block: Block, bits: number): Span {
  return { first: block.start, last: block.start + (1n << BigInt(bits - block.len)) - 1n };
}

/**
 * Takes a network of mask length `len` from the free blocks, first fit in address order (NetBox's
 * `get_next_available_prefix`): the start of the first free block at least that large. The taken span is
 * removed from `free`. Null when no block is large enough.
 */
export function takeBlock(free: Block[], len: number, bits: number): Block | null {
  const index = free.findIndex((block) => len >= block.len && len <= bits);
  if (index < 0) return null;
  const block = free[index]!;
  const taken: Block = { start: block.start, len };
  const rest = subtractSpans(blockSpan(block, bits), [blockSpan(taken, bits)]).flatMap((s) => spanToBlocks(s, bits));
  free.splice(index, 1, ...rest);
  return taken;
}

/** VLAN IDs of inclusive ranges that are not used, lowest first, at most `limit`. */
export function freeVids(
  ranges: readonly (readonly [number, number])[],
  used: readonly number[],
  limit: number,
): number[] {
  const taken = new Set(used);
  const ids = new Set<number>();
  for (const [low, high] of ranges) for (let vid = low; vid <= high; vid += 1) if (!taken.has(vid)) ids.add(vid);
  return [...ids].sort((a, b) => a - b).slice(0, limit);
}

function compare(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
