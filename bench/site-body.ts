/**
 * Request bodies of the benchmark's sites, shared by the seed (main thread) and the load workers (worker
 * thread), so that every created site looks alike: a region, a tenant, two tags and most fields filled.
 */

/** Ids of the related objects that sites point at. */
export interface SeedRefs {
  regionIds: number[];
  tenantIds: number[];
  tagIds: number[];
}

const STATUSES = ['active', 'planned', 'staging', 'decommissioning', 'retired'] as const;
const TIME_ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo', 'UTC'] as const;

/** The POST body of site number `seq` named `<prefix>-<seq>`; deterministic so that runs are comparable. */
export function siteBody(prefix: string, seq: number, refs: SeedRefs): Record<string, unknown> {
  const name = `${prefix}-${String(seq).padStart(6, '0')}`;
  const tagCount = refs.tagIds.length;
  const firstTag = seq % tagCount;
  // An offset in 1..tagCount-1 keeps the two tags distinct.
  const secondTag = (firstTag + 1 + ((seq * 3) % Math.max(1, tagCount - 1))) % tagCount;
  return {
    name,
    slug: name.toLowerCase(),
    status: STATUSES[seq % STATUSES.length],
    region: pick(refs.regionIds, seq),
    tenant: pick(refs.tenantIds, seq * 7),
    facility: `F-${seq % 997}`,
    time_zone: TIME_ZONES[seq % TIME_ZONES.length],
    description: `Benchmark site ${seq}`,
    physical_address: `${seq} Example Street, Springfield`,
    latitude: ((seq % 1800) - 900) / 10,
    longitude: (((seq * 7) % 3600) - 1800) / 10,
    tags: tagCount > 1 ? [pick(refs.tagIds, firstTag), pick(refs.tagIds, secondTag)] : [...refs.tagIds],
  };
}

function pick(ids: readonly number[], index: number): number {
  const id = ids[index % ids.length];
  if (id === undefined) throw new Error('siteBody needs at least one region, tenant and tag');
  return id;
}

/** Ids of what the benchmark's written devices point at. */
export interface DeviceRefs {
  siteIds: number[];
  typeIds: number[];
  roleIds: number[];
  tenantIds: number[];
  tagIds: number[];
}

/** The POST body of written device number `seq`: a site, type, role, tenant and two tags (no rack). */
export function deviceBody(prefix: string, seq: number, refs: DeviceRefs): Record<string, unknown> {
  const tagCount = refs.tagIds.length;
  return {
    name: `${prefix}-${String(seq).padStart(6, '0')}`,
    device_type: pick(refs.typeIds, seq),
    role: pick(refs.roleIds, seq),
    site: pick(refs.siteIds, seq * 7),
    tenant: pick(refs.tenantIds, seq * 3),
    tags: tagCount > 1 ? [pick(refs.tagIds, seq), pick(refs.tagIds, seq + 1)] : [...refs.tagIds],
  };
}
