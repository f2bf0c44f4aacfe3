import { marks, type Reader } from './baseline-sources.js';
import { groupBy, timestamp, type Page, type Roots } from './baseline-common.js';

/**
 * The baseline's sites: a page of the list (complete or brief) and a site's detail, each with the least SQL
 * that honestly produces the service's JSON.
 */

type Row = Record<string, any>;

const STATUS_LABELS: Record<string, string> = {
  planned: 'Planned',
  staging: 'Staging',
  active: 'Active',
  decommissioning: 'Decommissioning',
  retired: 'Retired',
};

const SITE_SQL = `
SELECT s.id, s.name, s.slug, s.status, s.facility, s.time_zone, s.description, s.physical_address,
       s.shipping_address, s.latitude, s.longitude, s.comments, s.created, s.last_updated,
       s.region_id, r.name AS r_name, r.slug AS r_slug, r.description AS r_description, r._depth AS r_depth,
       s.group_id, g.name AS g_name, g.slug AS g_slug, g.description AS g_description, g._depth AS g_depth,
       s.tenant_id, t.name AS t_name, t.slug AS t_slug, t.description AS t_description
FROM dcim_site s
LEFT JOIN dcim_region r ON r.id = s.region_id
LEFT JOIN dcim_sitegroup g ON g.id = s.group_id
LEFT JOIN tenancy_tenant t ON t.id = s.tenant_id`;

const TAGS_SQL = `
SELECT ti.object_id, tg.id, tg.name, tg.slug, tg.color
FROM extras_taggeditem ti JOIN extras_tag tg ON tg.id = ti.tag_id
WHERE ti.object_type = ? AND ti.object_id IN `;
const TAGS_ORDER = ' ORDER BY tg.weight, tg.name, tg.id';

/** Tags of objects of one type, rendered, by object id. */
export async function loadTags(
  source: Reader,
  roots: Roots,
  type: string,
  ids: readonly number[],
): Promise<Map<number, unknown[]>> {
  const rows = await source.all(`${TAGS_SQL}${marks(ids.length)}${TAGS_ORDER}`, [type, ...ids]);
  return groupBy(rows, 'object_id', (tag) => ({
    id: tag.id,
    url: `${roots.api}/extras/tags/${tag.id}/`,
    display_url: `${roots.site}/extras/tags/${tag.id}/`,
    display: tag.name,
    name: tag.name,
    slug: tag.slug,
    color: tag.color,
  }));
}

/** One correlated count per related table, for the page's sites only. */
const COUNTS_SQL = `
SELECT s.id,
  (SELECT count(*) FROM circuits_circuittermination x WHERE x._site_id = s.id) AS circuit_count,
  (SELECT count(*) FROM dcim_device x WHERE x.site_id = s.id) AS device_count,
  (SELECT count(*) FROM ipam_prefix x WHERE x._site_id = s.id) AS prefix_count,
  (SELECT count(*) FROM dcim_rack x WHERE x.site_id = s.id) AS rack_count,
  (SELECT count(*) FROM virtualization_virtualmachine x WHERE x.site_id = s.id) AS virtualmachine_count,
  (SELECT count(*) FROM ipam_vlan x WHERE x.site_id = s.id) AS vlan_count
FROM dcim_site s WHERE s.id IN `;

/** Sites of each region or site group of the page, descendants' included (NetBox's cumulative count). */
function treeCountSql(kind: 'sqlite' | 'postgres', table: string, column: string, n: number): string {
  const chr = kind === 'sqlite' ? 'char' : 'chr';
  return `
SELECT a.id, count(c.id) AS n FROM ${table} a
JOIN ${table} d ON (d.id = a.id OR (d._path > (a._path || ${chr}(2)) AND d._path < (a._path || ${chr}(3))))
JOIN dcim_site c ON c.${column} = d.id
WHERE a.id IN ${marks(n)} GROUP BY a.id`;
}

/** The complete sites of a page: one query for the rows, then tags, ASNs, counts and tree counts. */
export async function completeSites(source: Reader, roots: Roots, rows: Row[]): Promise<unknown[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => Number(r.id));
  const tags = await loadTags(source, roots, 'dcim.site', ids);
  const asns = groupBy(
    await source.all(
      `SELECT sa.from_id AS site_id, a.id, a.asn, a.description FROM dcim_site_asns sa JOIN ipam_asn a ON a.id = sa.to_id
       WHERE sa.from_id IN ${marks(ids.length)} ORDER BY a.asn, a.id`,
      ids,
    ),
    'site_id',
    (asn) => ({
      id: asn.id,
      url: `${roots.api}/ipam/asns/${asn.id}/`,
      display: `AS${Number(asn.asn)}`,
      asn: Number(asn.asn),
      description: asn.description,
    }),
  );
  const counts = new Map(
    (await source.all(`${COUNTS_SQL}${marks(ids.length)}`, ids)).map((c) => [Number(c.id), c] as const),
  );
  // Both trees' counts in one statement.
  const regionIds = [...new Set(rows.flatMap((r) => (r.region_id === null ? [] : [Number(r.region_id)])))];
  const groupIds = [...new Set(rows.flatMap((r) => (r.group_id === null ? [] : [Number(r.group_id)])))];
  const treeCounts = { region: new Map<number, number>(), group: new Map<number, number>() };
  const parts: string[] = [];
  if (regionIds.length)
    parts.push(
      `SELECT 'region' AS k, x.* FROM (${treeCountSql(source.kind, 'dcim_region', 'region_id', regionIds.length)}) x`,
    );
  if (groupIds.length)
    parts.push(
      `SELECT 'group' AS k, x.* FROM (${treeCountSql(source.kind, 'dcim_sitegroup', 'group_id', groupIds.length)}) x`,
    );
  if (parts.length) {
    for (const row of await source.all(parts.join(' UNION ALL '), [...regionIds, ...groupIds]))
      treeCounts[row.k as 'region' | 'group'].set(Number(row.id), Number(row.n));
  }
  return rows.map((row) => {
    const id = Number(row.id);
    const count = counts.get(id);
    return {
      id,
      url: `${roots.api}/dcim/sites/${id}/`,
      display_url: `${roots.site}/dcim/sites/${id}/`,
      display: row.name,
      name: row.name,
      slug: row.slug,
      status: { value: row.status, label: STATUS_LABELS[row.status] ?? '' },
      region:
        row.region_id === null
          ? null
          : treeNested(
              roots,
              'dcim/regions',
              row.region_id,
              row.r_name,
              row.r_slug,
              row.r_description,
              row.r_depth,
              treeCounts.region,
            ),
      group:
        row.group_id === null
          ? null
          : treeNested(
              roots,
              'dcim/site-groups',
              row.group_id,
              row.g_name,
              row.g_slug,
              row.g_description,
              row.g_depth,
              treeCounts.group,
            ),
      tenant:
        row.tenant_id === null
          ? null
          : {
              id: Number(row.tenant_id),
              url: `${roots.api}/tenancy/tenants/${row.tenant_id}/`,
              display: row.t_name,
              name: row.t_name,
              slug: row.t_slug,
              description: row.t_description,
            },
      facility: row.facility,
      time_zone: row.time_zone,
      description: row.description,
      physical_address: row.physical_address,
      shipping_address: row.shipping_address,
      latitude: row.latitude === null ? null : Number(row.latitude),
      longitude: row.longitude === null ? null : Number(row.longitude),
      // The benchmark's sites have no owner.
      owner: null,
      comments: row.comments,
      asns: asns.get(id) ?? [],
      tags: tags.get(id) ?? [],
      custom_fields: {},
      created: timestamp(row.created),
      last_updated: timestamp(row.last_updated),
      circuit_count: Number(count?.circuit_count ?? 0),
      device_count: Number(count?.device_count ?? 0),
      prefix_count: Number(count?.prefix_count ?? 0),
      rack_count: Number(count?.rack_count ?? 0),
      virtualmachine_count: Number(count?.virtualmachine_count ?? 0),
      vlan_count: Number(count?.vlan_count ?? 0),
    };
  });
}

function treeNested(
  roots: Roots,
  path: string,
  rawId: number,
  name: string,
  slug: string,
  description: string,
  depth: number,
  counts: Map<number, number>,
): Record<string, unknown> {
  const id = Number(rawId);
  return {
    id,
    url: `${roots.api}/${path}/${id}/`,
    display: name,
    name,
    slug,
    description,
    site_count: counts.get(id) ?? 0,
    _depth: Number(depth),
  };
}

/** `GET /api/dcim/sites/?limit&offset[&brief=1]`. */
export async function sitePage(source: Reader, roots: Roots, page: Page, brief: boolean): Promise<unknown> {
  const [counted] = await source.all<{ n: number }>('SELECT count(*) AS n FROM dcim_site', []);
  const count = Number(counted!.n);
  if (brief) {
    const rows = await source.all(
      'SELECT id, name, description, slug FROM dcim_site ORDER BY name, id LIMIT ? OFFSET ?',
      [page.limit, page.offset],
    );
    const results = rows.map((row) => ({
      id: Number(row.id),
      url: `${roots.api}/dcim/sites/${row.id}/`,
      display: row.name,
      name: row.name,
      description: row.description,
      slug: row.slug,
    }));
    return page.envelope(count, results);
  }
  const rows = await source.all(`${SITE_SQL} ORDER BY s.name, s.id LIMIT ? OFFSET ?`, [page.limit, page.offset]);
  return page.envelope(count, await completeSites(source, roots, rows));
}

/** `GET /api/dcim/sites/<id>/`: the object, and its ETag from the same row; null when there is none. */
export async function siteDetail(
  source: Reader,
  roots: Roots,
  id: number,
): Promise<{ body: unknown; etag: string } | null> {
  const rows = await source.all(`${SITE_SQL} WHERE s.id = ?`, [id]);
  if (rows.length === 0) return null;
  const [body] = await completeSites(source, roots, rows);
  const stamp = timestamp(rows[0]!.last_updated ?? rows[0]!.created) ?? '';
  return { body, etag: `W/"${stamp.replace(/Z$/, '+00:00')}"` };
}

/** The complete sites with these ids, in the order given. */
export async function sitesById(source: Reader, roots: Roots, ids: readonly number[]): Promise<unknown[]> {
  const rows = await source.all(`${SITE_SQL} WHERE s.id IN ${marks(ids.length)}`, ids);
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return completeSites(
    source,
    roots,
    ids.map((id) => byId.get(id)!),
  );
}
