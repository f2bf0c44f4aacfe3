/**
 * NetBox releases this importer reads, each known by the last `dcim` migration of its first release (NetBox's
 * own migrations: `netbox/dcim/migrations/` at each tag). A database's version is the newest release whose
 * marker it has applied.
 */
import { ImportError } from './import-error.js';

const RELEASES: readonly [version: string, dcimMigration: number][] = [
  ['4.0', 187],
  ['4.1', 190],
  ['4.2', 200],
  ['4.3', 207],
  ['4.4', 215],
  ['4.5', 225],
  ['4.6', 233],
];
/** The last dcim migration of NetBox 4.6.8: anything later is a NetBox this importer does not know. */
const LAST_KNOWN = 241;

/** The `major.minor` NetBox release of a database, from its applied migrations. */
export function netboxVersionOf(migrations: readonly { app: string; name: string }[]): string {
  const numbers = migrations
    .filter((m) => m.app === 'dcim')
    .map((m) => Number(/^(\d{4})_/.exec(m.name)?.[1] ?? NaN))
    .filter((n) => !Number.isNaN(n));
  const latest = Math.max(-1, ...numbers);
  if (latest > LAST_KNOWN) {
    throw new ImportError(
      `The NetBox database is newer than NetBox 4.6 (dcim migration ${latest}): this importer reads NetBox 4.0 to 4.6.`,
    );
  }
  const release = [...RELEASES].reverse().find(([, marker]) => latest >= marker);
  if (!release) {
    throw new ImportError(
      `The NetBox database is older than NetBox 4.0 (dcim migration ${latest}): upgrade it to NetBox 4.0 or later first.`,
    );
  }
  return release[0];
}

/** The first and last releases this importer reads, `major.minor`. */
export const OLDEST_RELEASE = RELEASES[0]![0];
export const NEWEST_RELEASE = RELEASES[RELEASES.length - 1]![0];

/** Whether `major.minor` is a release this importer reads. */
export function isKnownRelease(version: string): boolean {
  return RELEASES.some(([release]) => release === version);
}

/** Whether the source's release is `version` or later. */
export function atLeast(sourceVersion: string, version: string): boolean {
  const [a = 0, b = 0] = sourceVersion.split('.').map(Number);
  const [c = 0, d = 0] = version.split('.').map(Number);
  return a !== c ? a > c : b >= d;
}
