import dns from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { addressAllowed } from '../auth/networks.js';

/**
 * Where a webhook request may connect. Whoever may edit webhooks chooses its URL, and the server connects
 * with its own network position: WEBHOOK_DENIED_NETWORKS lists what it must never reach (cloud metadata
 * services by default). A host name is resolved and every address it resolves to is checked, when the
 * webhook is saved and again for each request sent (the name may point elsewhere by then, and templates
 * build URLs only at delivery); the request then connects to the addresses that were checked (pinnedLookup),
 * so that a name answering differently a moment later (DNS rebinding) reaches nothing unchecked.
 */

/** Resolves a host name to all its addresses, as node:dns `lookup` with `all: true` does. */
export type HostLookup = (hostname: string) => Promise<readonly dns.LookupAddress[]>;

/** The system resolver (getaddrinfo: /etc/hosts, then DNS), in the resolver's order. */
export const systemLookup: HostLookup = (hostname) => dns.promises.lookup(hostname, { all: true, order: 'verbatim' });

/** A host checked against the denied networks. */
export type TargetCheck =
  /** May be reached at these addresses (a literal host: itself). */
  | { kind: 'allowed'; addresses: readonly dns.LookupAddress[] }
  /** Lies in a denied network: a request would be refused whenever it is made. */
  | { kind: 'refused'; reason: string }
  /** The name does not resolve (now): it may later. */
  | { kind: 'unresolved'; reason: string };

/** Why a literal address may not be a webhook target, or null (also for a host that is no address). */
export function deniedAddressProblem(address: string, deniedNetworks: readonly string[]): string | null {
  const plain = address.replace(/^\[|\]$/g, '');
  if (isIP(plain) === 0 || !addressAllowed(plain, deniedNetworks)) return null;
  return `Webhooks may not target ${plain}: the address is in WEBHOOK_DENIED_NETWORKS.`;
}

/**
 * Checks a URL's host (`URL.hostname`: an address, IPv6 in brackets, or a name): a literal address itself,
 * a name by every address `lookup` gives for it; one denied address refuses the name.
 */
export async function checkTarget(
  hostname: string,
  deniedNetworks: readonly string[],
  lookup: HostLookup,
): Promise<TargetCheck> {
  const plain = hostname.replace(/^\[|\]$/g, '');
  const family = isIP(plain);
  if (family !== 0) {
    const problem = deniedAddressProblem(plain, deniedNetworks);
    return problem
      ? { kind: 'refused', reason: problem }
      : { kind: 'allowed', addresses: [{ address: plain, family }] };
  }
  let addresses: readonly dns.LookupAddress[];
  try {
    addresses = await lookup(plain);
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    return { kind: 'unresolved', reason: `Host not found (${message || code || plain})` };
  }
  if (addresses.length === 0) return { kind: 'unresolved', reason: `Host not found (no address for ${plain})` };
  const denied = addresses.find((a) => deniedAddressProblem(a.address, deniedNetworks) !== null);
  if (denied) {
    return {
      kind: 'refused',
      reason: `Webhooks may not target ${plain}: it resolves to ${denied.address}, which is in WEBHOOK_DENIED_NETWORKS.`,
    };
  }
  return { kind: 'allowed', addresses };
}

/**
 * A `lookup` for node:http(s) that answers with the addresses already checked instead of asking the resolver
 * again: the connection goes to a checked address (all of them with `all`, for Happy Eyeballs). A kept-alive
 * socket that the agent reuses for the same host and port was connected the same way, to an address checked
 * for an earlier request (a process's settings do not change while it runs).
 */
export function pinnedLookup(addresses: readonly dns.LookupAddress[]): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
    const candidates = family === 0 ? addresses : addresses.filter((a) => a.family === family);
    const first = candidates[0];
    if (!first) {
      const error = Object.assign(new Error(`No IPv${family} address checked for ${hostname}`), {
        code: 'ENOTFOUND',
      });
      callback(error, '', 0);
    } else if (options.all) {
      callback(null, [...candidates]);
    } else {
      callback(null, first.address, first.family);
    }
  };
}
