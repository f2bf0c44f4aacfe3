import { BlockList, isIP } from 'node:net';

/** True when `address` lies in one of `networks` (CIDR strings, IPv4 or IPv6; IPv4-mapped IPv6 counts as IPv4). */
export function addressAllowed(address: string, networks: readonly string[]): boolean {
  const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  const version = isIP(plain);
  if (version === 0) return false;
  return blockListOf(networks).check(plain, version === 4 ? 'ipv4' : 'ipv6');
}

/** Built block lists by their networks: building one costs far more than a check (every webhook delivery). */
const blockLists = new Map<string, BlockList>();
const BLOCK_LISTS_KEPT = 256;

function blockListOf(networks: readonly string[]): BlockList {
  const key = JSON.stringify(networks);
  let list = blockLists.get(key);
  if (list) return list;
  list = new BlockList();
  for (const network of networks) {
    const [base, mask] = network.split('/');
    const type = isIP(base ?? '');
    if (type === 0) continue;
    list.addSubnet(base!, Number(mask ?? (type === 4 ? 32 : 128)), type === 4 ? 'ipv4' : 'ipv6');
  }
  if (blockLists.size >= BLOCK_LISTS_KEPT) blockLists.delete(blockLists.keys().next().value!);
  blockLists.set(key, list);
  return list;
}
