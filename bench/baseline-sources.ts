import Sqlite from 'better-sqlite3';
import pg from 'pg';

/**
 * The baseline's data access: hand-written SQL on the drivers themselves (no query builder), one statement
 * per question. Column aliases are flat so that rendering is a plain property walk.
 */

/** A site joined with its region, site group and tenant (the columns their nested forms render). */
export interface SiteRow {
  id: number;
  name: string;
  slug: string;
  status: string;
  facility: string;
  time_zone: string | null;
  description: string;
  physical_address: string;
  shipping_address: string;
  latitude: number | null;
  longitude: number | null;
  comments: string;
  created: string | null;
  last_updated: string | null;
  region_id: number | null;
  r_name: string;
  r_slug: string;
  r_description: string;
  r_depth: number;
  group_id: number | null;
  g_name: string;
  g_slug: string;
  g_description: string;
  g_depth: number;
  tenant_id: number | null;
  t_name: string;
  t_slug: string;
  t_description: string;
}

/** A tag of one site. */
export interface TagRow {
  object_id: number;
  id: number;
  name: string;
  slug: string;
  color: string;
}

/** An ASN of one site. */
export interface AsnRow {
  site_id: number;
  id: number;
  asn: number;
  description: string;
}

/** The related-object counts of one site. */
export interface CountRow {
  id: number;
  circuit_count: number;
  device_count: number;
  prefix_count: number;
  rack_count: number;
  virtualmachine_count: number;
  vlan_count: number;
}

/** The five queries of a list page. Timestamps come back in the stored form `…SS.ffffffZ`. */
export interface PageSource {
  count(): Promise<number>;
  page(limit: number, offset: number): Promise<SiteRow[]>;
  /** Tags of these sites in the tag model's order (weight, name, id). */
  tags(siteIds: readonly number[]): Promise<TagRow[]>;
  /** ASNs of these sites in the ASN model's order (asn, id). */
  asns(siteIds: readonly number[]): Promise<AsnRow[]>;
  /** Circuit terminations, devices, prefixes, racks, virtual machines and VLANs at these sites. */
  counts(siteIds: readonly number[]): Promise<CountRow[]>;
  close(): Promise<void>;
}

const PAGE_SQL = `
SELECT s.id, s.name, s.slug, s.status, s.facility, s.time_zone, s.description, s.physical_address,
       s.shipping_address, s.latitude, s.longitude, s.comments, s.created, s.last_updated,
       s.region_id, r.name AS r_name, r.slug AS r_slug, r.description AS r_description, r._depth AS r_depth,
       s.group_id, g.name AS g_name, g.slug AS g_slug, g.description AS g_description, g._depth AS g_depth,
       s.tenant_id, t.name AS t_name, t.slug AS t_slug, t.description AS t_description
FROM dcim_site s
LEFT JOIN dcim_region r ON r.id = s.region_id
LEFT JOIN dcim_sitegroup g ON g.id = s.group_id
LEFT JOIN tenancy_tenant t ON t.id = s.tenant_id
ORDER BY s.name, s.id`;

const TAGS_SQL = `
SELECT ti.object_id, tg.id, tg.name, tg.slug, tg.color
FROM extras_taggeditem ti JOIN extras_tag tg ON tg.id = ti.tag_id
WHERE ti.object_type = 'dcim.site' AND ti.object_id IN `;
const TAGS_ORDER = ' ORDER BY tg.weight, tg.name, tg.id';

const ASNS_SQL = `
SELECT sa.from_id AS site_id, a.id, a.asn, a.description
FROM dcim_site_asns sa JOIN ipam_asn a ON a.id = sa.to_id
WHERE sa.from_id IN `;
const ASNS_ORDER = ' ORDER BY a.asn, a.id';

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

/** better-sqlite3 on the service's SQLite file (a second connection; WAL lets both read). */
export function openSqliteSource(file: string): PageSource {
  const conn = new Sqlite(file, { fileMustExist: true });
  conn.pragma('busy_timeout = 10000');
  const count = conn.prepare<[], { n: number }>('SELECT count(*) AS n FROM dcim_site');
  const page = conn.prepare<[number, number], SiteRow>(`${PAGE_SQL} LIMIT ? OFFSET ?`);
  // One prepared statement per IN-list length; a page size rarely varies.
  const tagStatements = new Map<number, Sqlite.Statement<number[], TagRow>>();
  const asnStatements = new Map<number, Sqlite.Statement<number[], AsnRow>>();
  const countStatements = new Map<number, Sqlite.Statement<number[], CountRow>>();
  const byLength = <T>(cache: Map<number, Sqlite.Statement<number[], T>>, sql: (list: string) => string) => {
    return async (ids: readonly number[]): Promise<T[]> => {
      if (ids.length === 0) return [];
      let statement = cache.get(ids.length);
      if (!statement) {
        statement = conn.prepare<number[], T>(sql(`(${ids.map(() => '?').join(',')})`));
        cache.set(ids.length, statement);
      }
      return statement.all(...ids);
    };
  };
  return {
    count: async () => count.get()!.n,
    page: async (limit, offset) => page.all(limit, offset),
    tags: async (ids) => {
      if (ids.length === 0) return [];
      let statement = tagStatements.get(ids.length);
      if (!statement) {
        statement = conn.prepare<number[], TagRow>(`${TAGS_SQL}(${ids.map(() => '?').join(',')})${TAGS_ORDER}`);
        tagStatements.set(ids.length, statement);
      }
      return statement.all(...ids);
    },
    asns: byLength(asnStatements, (list) => `${ASNS_SQL}${list}${ASNS_ORDER}`),
    counts: byLength(countStatements, (list) => `${COUNTS_SQL}${list}`),
    close: async () => {
      conn.close();
    },
  };
}

/** PostgreSQL type OIDs of the columns that need parsing (int8 ids and counts, numeric, timestamptz). */
const PG_INT8 = 20;
const PG_NUMERIC = 1700;
const PG_TIMESTAMPTZ = 1184;

/** A `pg` Pool (10 connections, like the service's Knex pool) with its own type parsers. */
export function openPostgresSource(url: string): PageSource {
  // Own parsers rather than pg's global ones, which the service's connect module replaces at start-up.
  const own = new Map<number, (value: string) => unknown>([
    [PG_INT8, Number],
    [PG_NUMERIC, Number],
    [PG_TIMESTAMPTZ, storedTimestamp],
  ]);
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      own.get(oid) ??
      (format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text')),
  } as pg.CustomTypesConfig;
  const pool = new pg.Pool({ connectionString: url, max: 10, options: '-c timezone=UTC', types });
  return {
    count: async () =>
      (await pool.query<{ n: number }>({ name: 'bench_count', text: 'SELECT count(*) AS n FROM dcim_site' })).rows[0]!
        .n,
    page: async (limit, offset) =>
      (
        await pool.query<SiteRow>({
          name: 'bench_page',
          text: `${PAGE_SQL} LIMIT $1 OFFSET $2`,
          values: [limit, offset],
        })
      ).rows,
    tags: async (ids) => {
      if (ids.length === 0) return [];
      const text = `${TAGS_SQL}(SELECT unnest($1::bigint[]))${TAGS_ORDER}`;
      return (await pool.query<TagRow>({ name: 'bench_tags', text, values: [ids] })).rows;
    },
    asns: async (ids) => {
      if (ids.length === 0) return [];
      const text = `${ASNS_SQL}(SELECT unnest($1::bigint[]))${ASNS_ORDER}`;
      return (await pool.query<AsnRow>({ name: 'bench_asns', text, values: [ids] })).rows;
    },
    counts: async (ids) => {
      if (ids.length === 0) return [];
      const text = `${COUNTS_SQL}(SELECT unnest($1::bigint[]))`;
      return (await pool.query<CountRow>({ name: 'bench_counts', text, values: [ids] })).rows;
    },
    close: () => pool.end(),
  };
}

/** `2026-11-22 17:10:19.1234+00` (session time zone UTC) → `2026-11-22T17:10:19.123400Z`. */
function storedTimestamp(text: string): string {
  const space = text.indexOf(' ');
  const plus = text.lastIndexOf('+');
  const time = text.slice(space + 1, plus);
  const dot = time.indexOf('.');
  const whole = dot < 0 ? time : time.slice(0, dot);
  const fraction = dot < 0 ? '' : time.slice(dot + 1);
  return `${text.slice(0, space)}T${whole}.${fraction.padEnd(6, '0')}Z`;
}
