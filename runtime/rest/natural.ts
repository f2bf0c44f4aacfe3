/**
 * A sort key that orders names naturally: every run of digits is zero-padded, so that `ge-0/0/2` sorts
 * before `ge-0/0/10` and `Ethernet9` before `Ethernet10`, with a plain string comparison.
 */
export function naturalKey(name: string): string {
  return name.replace(/\d+/g, (digits) => digits.replace(/^0+(?=\d)/, '').padStart(10, '0'));
}
