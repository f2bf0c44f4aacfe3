import fs from 'node:fs/promises';
import path from 'node:path';
import type { Settings } from '../config.js';
import { checkTarget, systemLookup, type HostLookup } from '../events/targets.js';

/**
 * Where webhooks may reach. A webhook's URL and CA file are chosen by whoever may edit webhooks, and the
 * server acts on them with its own network position and file access: without limits, a webhook can read
 * a cloud metadata service (169.254.169.254) or make the server open any file as a CA bundle. Two settings
 * bound that: WEBHOOK_DENIED_NETWORKS (addresses never connected to, checked against every address a name
 * resolves to, when a webhook is saved and when each request is sent: events/targets.ts) and
 * WEBHOOK_CA_FILE_DIRS (the only folders a CA file may come from).
 */

type TargetSettings = Pick<Settings, 'WEBHOOK_DENIED_NETWORKS' | 'WEBHOOK_CA_FILE_DIRS'>;

/**
 * How long saving a webhook waits for its host name to resolve. The check runs inside the write's
 * transaction; a name that takes longer is accepted like one that does not resolve (delivery checks again).
 */
export const SAVE_LOOKUP_TIMEOUT_MS = 2_000;

/**
 * Save-time check of a payload URL: its host, when the URL fixes it (a template may follow the host, as in
 * `https://hooks.example.com/{{ data.slug }}`), must not be, or resolve to, an address in a denied network.
 * A name that does not resolve is accepted, as NetBox accepts it: delivery resolves it again, and records
 * why it failed.
 */
export async function payloadUrlProblem(
  url: string,
  settings: TargetSettings,
  lookup: HostLookup = systemLookup,
): Promise<string | null> {
  const host = fixedHost(url);
  if (host === null) return null;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<null>((resolve) => (timer = setTimeout(resolve, SAVE_LOOKUP_TIMEOUT_MS, null)));
  try {
    const check = await Promise.race([checkTarget(host, settings.WEBHOOK_DENIED_NETWORKS, lookup), expired]);
    return check?.kind === 'refused' ? check.reason : null;
  } finally {
    clearTimeout(timer);
  }
}

/** The host of a payload URL that is known before rendering (the URL has no tag before its path), or null. */
function fixedHost(url: string): string | null {
  const value = url.trim();
  const tag = value.indexOf('{{');
  const literal = tag < 0 ? value : /^[a-z][a-z0-9+.-]*:\/\/[^/?#\\]*[/?#\\]/i.exec(value.slice(0, tag))?.[0];
  if (literal === undefined) return null;
  try {
    return new URL(literal).hostname || null;
  } catch {
    return null;
  }
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

function insideAny(file: string, dirs: readonly string[]): boolean {
  return dirs.some((dir) => {
    const relative = path.relative(path.resolve(dir), file);
    return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
  });
}
