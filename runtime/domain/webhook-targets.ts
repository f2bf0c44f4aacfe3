import dns from 'node:dns';
import fs from 'node:fs/promises';
import { isIP, type LookupFunction } from 'node:net';
import path from 'node:path';
import { addressAllowed } from '../auth/networks.js';
import type { Settings } from '../config.js';

/**
 * Where webhooks may reach. A webhook's URL and CA file are chosen by whoever may edit webhooks, and the
 * server acts on them with its own network position and file access: without limits, a webhook can read
 * a cloud metadata service (169.254.169.254) or make the server open any file as a CA bundle. Two settings
 * bound that: WEBHOOK_DENIED_NETWORKS (addresses never connected to, checked against every address a name
 * resolves to) and WEBHOOK_CA_FILE_DIRS (the only folders a CA file may come from).
 */

type TargetSettings = Pick<Settings, 'WEBHOOK_DENIED_NETWORKS' | 'WEBHOOK_CA_FILE_DIRS'>;

/** Why a literal address may not be a webhook target, or null. */
export function deniedAddressProblem(address: string, settings: TargetSettings): string | null {
  const plain = address.replace(/^\[|\]$/g, '');
  if (isIP(plain) === 0 || !addressAllowed(plain, settings.WEBHOOK_DENIED_NETWORKS)) return null;
  return `Webhooks may not target ${plain}: the address is in WEBHOOK_DENIED_NETWORKS.`;
}

/**
 * Save-time check of a payload URL: a literal IP host in a denied network is refused. A name (or a host
 * that is a template) is checked when the request is sent, against what it resolves to then.
 */
export function payloadUrlProblem(url: string, settings: TargetSettings): string | null {
  if (url.includes('{{')) return null;
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return null;
  }
  return deniedAddressProblem(host, settings);
}

/** Save-time check of a CA file path: absolute, normalised, inside one of WEBHOOK_CA_FILE_DIRS. */
export function caFileProblem(file: string, settings: TargetSettings): string | null {
  const dirs = settings.WEBHOOK_CA_FILE_DIRS;
  if (dirs.length === 0) return 'CA certificate files are disabled: the setting WEBHOOK_CA_FILE_DIRS names no folder.';
  if (!path.isAbsolute(file) || path.normalize(file) !== file) return 'Enter an absolute, normalised file path.';
  return insideAny(file, dirs) ? null : `The file must be inside one of WEBHOOK_CA_FILE_DIRS: ${dirs.join(', ')}.`;
}

/**
 * Delivery-time check of a CA file: its real path (symbolic links followed) must still lie in an allowed
 * folder. Returns the real path to read, or throws an Error whose message fits the task record.
 */
export async function resolveCaFile(file: string, settings: TargetSettings): Promise<string> {
  const problem = caFileProblem(file, settings);
  if (problem) throw new Error(problem);
  const real = await fs.realpath(file);
  const dirs = await Promise.all(settings.WEBHOOK_CA_FILE_DIRS.map((dir) => fs.realpath(dir).catch(() => dir)));
  if (!insideAny(real, dirs)) throw new Error(`The CA file resolves outside WEBHOOK_CA_FILE_DIRS: ${file}.`);
  return real;
}

/**
 * A `lookup` for node:http(s) requests of webhooks: resolves like the default and refuses a name any of
 * whose addresses is denied (so that a name cannot be pointed at a metadata address after it was saved).
 */
export function guardedLookup(settings: TargetSettings): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const denied = addresses.map((a) => deniedAddressProblem(a.address, settings)).find(Boolean);
      if (denied) return callback(Object.assign(new Error(denied), { code: 'EACCES' }), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`No address for ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
}

function insideAny(file: string, dirs: readonly string[]): boolean {
  return dirs.some((dir) => {
    const relative = path.relative(path.resolve(dir), file);
    return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
  });
}
