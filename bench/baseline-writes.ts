import { now } from '../runtime/db/clock.js';
import { naturalKey } from '../runtime/rest/natural.js';
import { marks, type PageSource, type Reader } from './baseline-sources.js';
import type { Roots } from './baseline-common.js';
import { devicesById } from './baseline-devices.js';
import { sitesById } from './baseline-sites.js';

/**
 * The baseline's writes: what the service's POST and PATCH of the benchmark's sites and devices store — the
 * rows, their tags and one change record each, in one transaction — with hand-written SQL, answered with the
 * service's JSON read back in the same transaction. Bodies are trusted (the benchmark's own, every FK valid):
 * no validation, permissions or events, so its rate is an upper bound for the service's.
 */

type Row = Record<string, any>;

const SITE_COLUMNS = [
  'name',
  'slug',
  'status',
  'region_id',
  'group_id',
  'tenant_id',
  'facility',
  'time_zone',
  'description',
  'physical_address',
  'shipping_address',
  'latitude',
  'longitude',
  'comments',
  'owner_id',
  'custom_field_data',
  'created',
  'last_updated',
] as const;

const DEVICE_COLUMNS = [
  'name',
  'name_natural',
  'device_type_id',
  'role_id',
  'tenant_id',
  'platform_id',
  'serial',
  'asset_tag',
  'site_id',
  'location_id',
  'rack_id',
  'position',
  'face',
  'status',
  'airflow',
  'primary_ip4_id',
  'primary_ip6_id',
  'oob_ip_id',
  'cluster_id',
  'virtual_chassis_id',
  'vc_position',
  'vc_priority',
  'latitude',
  'longitude',
  'description',
  'comments',
  'local_context_data',
  'owner_id',
  'custom_field_data',
  'created',
  'last_updated',
] as const;

const CHANGE_COLUMNS = [
  'time',
  'user_id',
  'user_name',
  'request_id',
  'action',
  'changed_object_type',
  'changed_object_id',
  'related_object_type',
  'related_object_id',
  'object_type_name',
  'object_repr',
  'message',
  'prechange_data',
  'postchange_data',
] as const;

/** Who the change records name: the benchmark's token's user. */
export interface Actor {
  id: number;
  username: string;
}

/** Multi-row `INSERT … RETURNING id` in chunks that stay under both databases' parameter limits. */
async function insertRows(tx: Reader, table: string, columns: readonly string[], rows: unknown[][]): Promise<number[]> {
  const ids: number[] = [];
  const perStatement = Math.min(500, Math.floor(30000 / columns.length));
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    const sql = `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${chunk.map(() => marks(columns.length)).join(', ')} RETURNING id`;
    ids.push(...(await tx.all(sql, chunk.flat())).map((r) => Number(r.id)));
  }
  return ids;
}

async function insertTags(tx: Reader, type: string, tagged: { id: number; tags: number[] }[]): Promise<void> {
  const rows = tagged.flatMap(({ id, tags }) => tags.map((tag) => [type, id, tag]));
  if (rows.length > 0) await insertRows(tx, 'extras_taggeditem', ['object_type', 'object_id', 'tag_id'], rows);
}

/** The change records of objects, snapshots from their rendering (FKs as ids, tags as names). */
async function insertChanges(
  tx: Reader,
  actor: Actor,
  requestId: string,
  type: string,
  typeName: string,
  changes: { action: 'create' | 'update'; id: number; repr: string; pre: Row | null; post: Row }[],
): Promise<void> {
  const time = now();
  await insertRows(
    tx,
    'core_objectchange',
    CHANGE_COLUMNS,
    changes.map((c) => [
      time,
      actor.id,
      actor.username,
      requestId,
      c.action,
      type,
      c.id,
      null,
      null,
      typeName,
      c.repr,
      '',
      c.pre === null ? null : JSON.stringify(c.pre),
      JSON.stringify(c.post),
    ]),
  );
}

/** A rendered object as a change record's snapshot: nested objects by id, tags by name, no counts or URLs. */
function snapshotOf(object: Row): Row {
  const snapshot: Row = {};
  for (const [key, value] of Object.entries(object)) {
    if (['id', 'url', 'display_url', 'display', 'created', 'last_updated'].includes(key) || key.endsWith('_count'))
      continue;
    if (key === 'tags') snapshot.tags = (value as Row[]).map((t) => t.name).sort();
    else if (key === 'asns') snapshot.asns = (value as Row[]).map((a) => a.id);
    else if (value && typeof value === 'object' && 'value' in value) snapshot[key] = value.value;
    else if (value && typeof value === 'object' && 'id' in value) snapshot[key] = value.id;
    else snapshot[key] = value;
  }
  return snapshot;
}

function siteValues(body: Row, stamp: string): unknown[] {
  const values: Row = {
    name: body.name,
    slug: body.slug,
    status: body.status ?? 'active',
    region_id: body.region ?? null,
    group_id: body.group ?? null,
    tenant_id: body.tenant ?? null,
    facility: body.facility ?? '',
    time_zone: body.time_zone ?? null,
    description: body.description ?? '',
    physical_address: body.physical_address ?? '',
    shipping_address: body.shipping_address ?? '',
    latitude: body.latitude ?? null,
    longitude: body.longitude ?? null,
    comments: body.comments ?? '',
    owner_id: null,
    custom_field_data: '{}',
    created: stamp,
    last_updated: stamp,
  };
  return SITE_COLUMNS.map((c) => values[c]);
}

/** `POST /api/dcim/sites/` of one site. */
export async function createSite(
  source: PageSource,
  roots: Roots,
  actor: Actor,
  requestId: string,
  body: Row,
): Promise<Row> {
  return source.transaction(async (tx) => {
    const [id] = await insertRows(tx, 'dcim_site', SITE_COLUMNS, [siteValues(body, now())]);
    await insertTags(tx, 'dcim.site', [{ id: id!, tags: (body.tags as number[] | undefined) ?? [] }]);
    const [site] = (await sitesById(tx, roots, [id!])) as Row[];
    const change = { action: 'create' as const, id: id!, repr: site!.display, pre: null, post: snapshotOf(site!) };
    await insertChanges(tx, actor, requestId, 'dcim.site', 'DCIM | site', [change]);
    return site!;
  });
}

/** `PATCH /api/dcim/sites/<id>/` of the fields a site stores in its own row (the benchmark's `description`). */
export async function patchSite(
  source: PageSource,
  roots: Roots,
  actor: Actor,
  requestId: string,
  id: number,
  body: Row,
): Promise<Row | null> {
  const columns = Object.keys(body).filter((key) => (SITE_COLUMNS as readonly string[]).includes(key));
  return source.transaction(async (tx) => {
    const [before] = (await sitesById(tx, roots, [id])) as (Row | undefined)[];
    if (!before) return null;
    const lock = tx.kind === 'postgres' ? ' FOR UPDATE' : '';
    await tx.all(`SELECT id FROM dcim_site WHERE id = ?${lock}`, [id]);
    const sets = [...columns.map((c) => `${c} = ?`), 'last_updated = ?'].join(', ');
    await tx.all(`UPDATE dcim_site SET ${sets} WHERE id = ?`, [...columns.map((c) => body[c]), now(), id]);
    const [site] = (await sitesById(tx, roots, [id])) as Row[];
    const change = {
      action: 'update' as const,
      id,
      repr: site!.display,
      pre: snapshotOf(before),
      post: snapshotOf(site!),
    };
    await insertChanges(tx, actor, requestId, 'dcim.site', 'DCIM | site', [change]);
    return site!;
  });
}

/** `POST /api/dcim/devices/` of one device or a list; each takes its type's default platform and airflow. */
export async function createDevices(
  source: PageSource,
  roots: Roots,
  actor: Actor,
  requestId: string,
  bodies: Row[],
): Promise<Row[]> {
  return source.transaction(async (tx) => {
    const typeIds = [...new Set(bodies.map((b) => Number(b.device_type)))];
    const types = new Map(
      (
        await tx.all(
          `SELECT id, default_platform_id, airflow FROM dcim_devicetype WHERE id IN ${marks(typeIds.length)}`,
          typeIds,
        )
      ).map((t) => [Number(t.id), t] as const),
    );
    const stamp = now();
    const rows = bodies.map((body) => {
      const type = types.get(Number(body.device_type));
      const name = body.name ?? null;
      const values: Row = {
        name,
        name_natural: naturalKey(String(name ?? '')),
        device_type_id: body.device_type,
        role_id: body.role,
        tenant_id: body.tenant ?? null,
        platform_id: body.platform ?? type?.default_platform_id ?? null,
        serial: body.serial ?? '',
        asset_tag: body.asset_tag ?? null,
        site_id: body.site,
        location_id: null,
        rack_id: null,
        position: null,
        face: null,
        status: body.status ?? 'active',
        airflow: body.airflow ?? type?.airflow ?? null,
        primary_ip4_id: null,
        primary_ip6_id: null,
        oob_ip_id: null,
        cluster_id: null,
        virtual_chassis_id: null,
        vc_position: null,
        vc_priority: null,
        latitude: null,
        longitude: null,
        description: body.description ?? '',
        comments: body.comments ?? '',
        local_context_data: null,
        owner_id: null,
        custom_field_data: '{}',
        created: stamp,
        last_updated: stamp,
      };
      return DEVICE_COLUMNS.map((c) => values[c]);
    });
    const ids = await insertRows(tx, 'dcim_device', DEVICE_COLUMNS, rows);
    await insertTags(
      tx,
      'dcim.device',
      ids.map((id, i) => ({ id, tags: (bodies[i]!.tags as number[] | undefined) ?? [] })),
    );
    const devices = (await devicesById(tx, roots, ids)) as Row[];
    await insertChanges(
      tx,
      actor,
      requestId,
      'dcim.device',
      'DCIM | device',
      devices.map((d) => ({ action: 'create' as const, id: d.id, repr: d.display, pre: null, post: snapshotOf(d) })),
    );
    return devices;
  });
}
