import { marks, type Reader } from './baseline-sources.js';
import { deepMerge, isObject, timestamp, type Page, type Roots } from './baseline-common.js';
import { loadTags } from './baseline-sites.js';

/**
 * The baseline's devices: a page of the list (complete, without config context, or brief), with the least SQL
 * that honestly produces the service's JSON for the benchmark's devices (no location, cluster or NAT pairs:
 * it throws on one, so that verification fails rather than compare unlike work).
 */

type Row = Record<string, any>;

const STATUS_LABELS: Record<string, string> = {
  offline: 'Offline',
  active: 'Active',
  planned: 'Planned',
  staged: 'Staged',
  failed: 'Failed',
  inventory: 'Inventory',
  decommissioning: 'Decommissioning',
};

const IP_COLUMNS = (a: string) =>
  `${a}.address AS ${a}_address, ${a}.address_family AS ${a}_family, ${a}.description AS ${a}_description, ` +
  `${a}.dns_name AS ${a}_dns_name, ${a}.nat_inside_id AS ${a}_nat_inside`;

/** Every column a complete device renders, with the tree paths and tenant group its config context needs. */
const DEVICE_SQL = `
SELECT d.id, d.name, d.serial, d.asset_tag, d.position, d.face, d.latitude, d.longitude, d.status, d.airflow,
       d.vc_position, d.vc_priority, d.description, d.comments, d.local_context_data, d.created, d.last_updated,
       d.location_id, d.cluster_id,
       d.device_type_id, dt.model AS dt_model, dt.slug AS dt_slug, dt.description AS dt_description,
       dt.manufacturer_id, mf.name AS mf_name, mf.slug AS mf_slug, mf.description AS mf_description,
       d.role_id, ro.name AS ro_name, ro.slug AS ro_slug, ro.description AS ro_description, ro._depth AS ro_depth,
       ro._path AS ro_path,
       d.tenant_id, tn.name AS tn_name, tn.slug AS tn_slug, tn.description AS tn_description, tn.group_id AS tn_group,
       d.platform_id, pf.name AS pf_name, pf.slug AS pf_slug, pf.description AS pf_description,
       pf._depth AS pf_depth, pf._path AS pf_path,
       d.site_id, st.name AS st_name, st.slug AS st_slug, st.description AS st_description,
       rg._path AS rg_path, sg._path AS sg_path,
       d.rack_id, rk.name AS rk_name, rk.description AS rk_description,
       d.primary_ip4_id, ${IP_COLUMNS('ip4')}, d.primary_ip6_id, ${IP_COLUMNS('ip6')}, d.oob_ip_id, ${IP_COLUMNS('oob')}
FROM dcim_device d
JOIN dcim_devicetype dt ON dt.id = d.device_type_id
JOIN dcim_manufacturer mf ON mf.id = dt.manufacturer_id
JOIN dcim_devicerole ro ON ro.id = d.role_id
LEFT JOIN tenancy_tenant tn ON tn.id = d.tenant_id
LEFT JOIN dcim_platform pf ON pf.id = d.platform_id
JOIN dcim_site st ON st.id = d.site_id
LEFT JOIN dcim_region rg ON rg.id = st.region_id
LEFT JOIN dcim_sitegroup sg ON sg.id = st.group_id
LEFT JOIN dcim_rack rk ON rk.id = d.rack_id
LEFT JOIN ipam_ipaddress ip4 ON ip4.id = d.primary_ip4_id
LEFT JOIN ipam_ipaddress ip6 ON ip6.id = d.primary_ip6_id
LEFT JOIN ipam_ipaddress oob ON oob.id = d.oob_ip_id`;

/** Criterion join table suffix → what of a device it matches. */
const CRITERIA = [
  'regions',
  'site_groups',
  'sites',
  'locations',
  'device_types',
  'roles',
  'platforms',
  'cluster_types',
  'cluster_groups',
  'clusters',
  'tenant_groups',
  'tenants',
  'tags',
] as const;
const ASSIGNMENTS_SQL = CRITERIA.map((c, i) => `SELECT ${i} AS k, from_id, to_id FROM extras_configcontext_${c}`).join(
  ' UNION ALL ',
);

/** `GET /api/dcim/devices/?limit&offset[&brief=1 | &exclude=config_context]`. */
export async function devicePage(
  source: Reader,
  roots: Roots,
  page: Page,
  mode: 'complete' | 'no-context' | 'brief',
): Promise<unknown> {
  const [counted] = await source.all<{ n: number }>('SELECT count(*) AS n FROM dcim_device', []);
  const count = Number(counted!.n);
  if (mode === 'brief') {
    const rows = await source.all(
      'SELECT id, name, asset_tag, description, device_type_id FROM dcim_device ORDER BY name, id LIMIT ? OFFSET ?',
      [page.limit, page.offset],
    );
    // The display falls back to the type's manufacturer and model for a device without a name.
    const unnamed = [...new Set(rows.filter((r) => !r.name).map((r) => Number(r.device_type_id)))];
    const types = new Map(
      unnamed.length === 0
        ? []
        : (
            await source.all(
              `SELECT dt.id, dt.model AS dt_model, mf.name AS mf_name FROM dcim_devicetype dt
               JOIN dcim_manufacturer mf ON mf.id = dt.manufacturer_id WHERE dt.id IN ${marks(unnamed.length)}`,
              unnamed,
            )
          ).map((t) => [Number(t.id), t] as const),
    );
    return page.envelope(
      count,
      rows.map((row) => ({
        id: Number(row.id),
        url: `${roots.api}/dcim/devices/${row.id}/`,
        display: display({ ...types.get(Number(row.device_type_id)), ...row }),
        name: row.name,
        description: row.description,
      })),
    );
  }
  const rows = await source.all(`${DEVICE_SQL} ORDER BY d.name, d.id LIMIT ? OFFSET ?`, [page.limit, page.offset]);
  return page.envelope(count, await completeDevices(source, roots, rows, mode));
}

/** The complete devices with these ids (`GET /api/dcim/devices/<id>/` each), in the order given. */
export async function devicesById(source: Reader, roots: Roots, ids: readonly number[]): Promise<unknown[]> {
  const rows: Row[] = [];
  for (let start = 0; start < ids.length; start += 500) {
    const chunk = ids.slice(start, start + 500);
    rows.push(...(await source.all(`${DEVICE_SQL} WHERE d.id IN ${marks(chunk.length)}`, chunk)));
  }
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return completeDevices(
    source,
    roots,
    ids.map((id) => byId.get(id)!),
    'complete',
  );
}

/** Devices of rows of DEVICE_SQL, with their tags, counts, addresses and (unless left out) config context. */
async function completeDevices(
  source: Reader,
  roots: Roots,
  rows: Row[],
  mode: 'complete' | 'no-context',
): Promise<unknown[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => Number(r.id));
  const tags = await loadTags(source, roots, 'dcim.device', ids);
  const distinct = (column: string): number[] => [
    ...new Set(rows.flatMap((r) => (r[column] === null ? [] : [Number(r[column])]))),
  ];
  const ipIds = [...new Set([...distinct('primary_ip4_id'), ...distinct('primary_ip6_id'), ...distinct('oob_ip_id')])];
  // Every count of the page and of its nested objects in one statement.
  const typeIds = distinct('device_type_id');
  const roleIds = distinct('role_id');
  const platformIds = distinct('platform_id');
  const chr = source.kind === 'sqlite' ? 'char' : 'chr';
  const tree = (table: string, counted: string, column: string, key: string, n: number) =>
    `SELECT '${key}' AS k, a.id AS id, count(c.id) AS n FROM ${table} a
     JOIN ${table} x ON (x.id = a.id OR (x._path > (a._path || ${chr}(2)) AND x._path < (a._path || ${chr}(3))))
     JOIN ${counted} c ON c.${column} = x.id WHERE a.id IN ${marks(n)} GROUP BY a.id`;
  const countSql = [
    `SELECT 'interfaces' AS k, device_id AS id, count(*) AS n FROM dcim_interface WHERE device_id IN ${marks(ids.length)} GROUP BY device_id`,
    `SELECT 'types' AS k, device_type_id AS id, count(*) AS n FROM dcim_device WHERE device_type_id IN ${marks(typeIds.length)} GROUP BY device_type_id`,
    tree('dcim_devicerole', 'dcim_device', 'role_id', 'role_devices', roleIds.length),
    tree('dcim_devicerole', 'virtualization_virtualmachine', 'role_id', 'role_vms', roleIds.length),
    // Devices without a platform (the written ones) leave the platforms' counts out.
    platformIds.length
      ? tree('dcim_platform', 'dcim_device', 'platform_id', 'platform_devices', platformIds.length)
      : null,
    platformIds.length
      ? tree('dcim_platform', 'virtualization_virtualmachine', 'platform_id', 'platform_vms', platformIds.length)
      : null,
    ipIds.length
      ? `SELECT 'nat' AS k, nat_inside_id AS id, count(*) AS n FROM ipam_ipaddress WHERE nat_inside_id IN ${marks(ipIds.length)} GROUP BY nat_inside_id`
      : null,
  ]
    .filter((s) => s !== null)
    .map((s) => `SELECT * FROM (${s}) u`)
    .join(' UNION ALL ');
  const counts = new Map<string, number>();
  const countRows = await source.all(countSql, [
    ...ids,
    ...typeIds,
    ...roleIds,
    ...roleIds,
    ...platformIds,
    ...platformIds,
    ...ipIds,
  ]);
  for (const row of countRows) counts.set(`${row.k}:${row.id}`, Number(row.n));
  if (countRows.some((r) => r.k === 'nat')) throw new Error('the baseline does not render NAT outside addresses');
  const contexts = mode === 'complete' ? await configContexts(source, rows, tags) : null;
  const count0 = (key: string, id: unknown): number => counts.get(`${key}:${Number(id)}`) ?? 0;
  return rows.map((row) => {
    const id = Number(row.id);
    if (row.location_id !== null || row.cluster_id !== null)
      throw new Error('the baseline does not render locations or clusters');
    const primary4 = ip(roots, row, 'ip4', row.primary_ip4_id);
    const primary6 = ip(roots, row, 'ip6', row.primary_ip6_id);
    const device: Record<string, unknown> = {
      id,
      url: `${roots.api}/dcim/devices/${id}/`,
      display_url: `${roots.site}/dcim/devices/${id}/`,
      display: display(row),
      name: row.name,
      device_type: {
        id: Number(row.device_type_id),
        url: `${roots.api}/dcim/device-types/${row.device_type_id}/`,
        display: row.dt_model,
        manufacturer: {
          id: Number(row.manufacturer_id),
          url: `${roots.api}/dcim/manufacturers/${row.manufacturer_id}/`,
          display: row.mf_name,
          name: row.mf_name,
          slug: row.mf_slug,
          description: row.mf_description,
        },
        model: row.dt_model,
        slug: row.dt_slug,
        description: row.dt_description,
        device_count: count0('types', row.device_type_id),
      },
      role: {
        id: Number(row.role_id),
        url: `${roots.api}/dcim/device-roles/${row.role_id}/`,
        display: row.ro_name,
        name: row.ro_name,
        slug: row.ro_slug,
        description: row.ro_description,
        device_count: count0('role_devices', row.role_id),
        virtualmachine_count: count0('role_vms', row.role_id),
        _depth: Number(row.ro_depth),
      },
      tenant:
        row.tenant_id === null
          ? null
          : {
              id: Number(row.tenant_id),
              url: `${roots.api}/tenancy/tenants/${row.tenant_id}/`,
              display: row.tn_name,
              name: row.tn_name,
              slug: row.tn_slug,
              description: row.tn_description,
            },
      platform:
        row.platform_id === null
          ? null
          : {
              id: Number(row.platform_id),
              url: `${roots.api}/dcim/platforms/${row.platform_id}/`,
              display: row.pf_name,
              name: row.pf_name,
              slug: row.pf_slug,
              description: row.pf_description,
              device_count: count0('platform_devices', row.platform_id),
              virtualmachine_count: count0('platform_vms', row.platform_id),
              _depth: Number(row.pf_depth),
            },
      serial: row.serial,
      asset_tag: row.asset_tag,
      site: {
        id: Number(row.site_id),
        url: `${roots.api}/dcim/sites/${row.site_id}/`,
        display: row.st_name,
        name: row.st_name,
        slug: row.st_slug,
        description: row.st_description,
      },
      location: null,
      rack:
        row.rack_id === null
          ? null
          : {
              id: Number(row.rack_id),
              url: `${roots.api}/dcim/racks/${row.rack_id}/`,
              display: row.rk_name,
              name: row.rk_name,
              description: row.rk_description,
            },
      position: row.position === null ? null : Number(row.position),
      face: row.face ? { value: row.face, label: row.face === 'front' ? 'Front' : 'Rear' } : null,
      latitude: row.latitude === null ? null : Number(row.latitude),
      longitude: row.longitude === null ? null : Number(row.longitude),
      parent_device: null,
      status: { value: row.status, label: STATUS_LABELS[row.status] ?? '' },
      airflow: row.airflow ? { value: row.airflow, label: row.airflow } : null,
      primary_ip: primary6 ?? primary4,
      primary_ip4: primary4,
      primary_ip6: primary6,
      oob_ip: ip(roots, row, 'oob', row.oob_ip_id),
      cluster: null,
      virtual_chassis: null,
      vc_position: row.vc_position,
      vc_priority: row.vc_priority,
      description: row.description,
      // The benchmark's devices have no owner.
      owner: null,
      comments: row.comments,
      config_template: null,
    };
    if (contexts) device.config_context = contexts.get(id);
    device.local_context_data = row.local_context_data === null ? null : JSON.parse(row.local_context_data);
    device.tags = tags.get(id) ?? [];
    device.custom_fields = {};
    device.created = timestamp(row.created);
    device.last_updated = timestamp(row.last_updated);
    device.console_port_count = 0;
    device.console_server_port_count = 0;
    device.power_port_count = 0;
    device.power_outlet_count = 0;
    device.interface_count = count0('interfaces', id);
    device.front_port_count = 0;
    device.rear_port_count = 0;
    device.device_bay_count = 0;
    device.module_bay_count = 0;
    device.inventory_item_count = 0;
    return device;
  });
}

function display(row: Row): string {
  if (row.name) return row.asset_tag ? `${row.name} (${row.asset_tag})` : row.name;
  const model = `${row.mf_name ?? ''} ${row.dt_model ?? ''}`.trim();
  return row.asset_tag ? `${model} (${row.asset_tag})` : `${model} (${row.id})`;
}

function ip(roots: Roots, row: Row, prefix: string, id: unknown): Record<string, unknown> | null {
  if (id === null) return null;
  if (row[`${prefix}_nat_inside`] !== null) throw new Error('the baseline does not render NAT inside addresses');
  const family = Number(row[`${prefix}_family`]);
  return {
    id: Number(id),
    url: `${roots.api}/ipam/ip-addresses/${Number(id)}/`,
    display: row[`${prefix}_address`],
    family: { value: family, label: family === 4 ? 'IPv4' : 'IPv6' },
    address: row[`${prefix}_address`],
    description: row[`${prefix}_description`],
    dns_name: row[`${prefix}_dns_name`],
    nat_inside: null,
    nat_outside: [],
  };
}

/** Ids of a tree node and its ancestors from its path (segments end in a 10-digit id). */
function lineage(path: string | null): number[] {
  return path ? path.split('\u0002').map((segment) => Number(segment.slice(-10))) : [];
}

/**
 * NetBox's config context of each device: the active contexts whose every criterion (when it has any)
 * matches the device, merged in weight and name order, then the device's local data. Two queries (the
 * contexts, their assignments); the facts come from the page's row and tags.
 */
async function configContexts(
  source: Reader,
  rows: readonly Row[],
  tags: Map<number, unknown[]>,
): Promise<Map<number, unknown>> {
  const contexts = (
    await source.all(`SELECT id, data FROM extras_configcontext WHERE is_active = ? ORDER BY weight, name, id`, [
      source.kind === 'sqlite' ? 1 : true,
    ])
  ).map((c) => ({ id: Number(c.id), data: JSON.parse(c.data) as unknown }));
  const assigned = CRITERIA.map(() => new Map<number, Set<number>>());
  for (const row of await source.all(ASSIGNMENTS_SQL, [])) {
    const byContext = assigned[Number(row.k)]!;
    let set = byContext.get(Number(row.from_id));
    if (!set) byContext.set(Number(row.from_id), (set = new Set()));
    set.add(Number(row.to_id));
  }
  const one = (v: unknown): number[] => (v === null || v === undefined ? [] : [Number(v)]);
  const merges = new Map<string, Record<string, unknown>>();
  const result = new Map<number, unknown>();
  for (const row of rows) {
    const id = Number(row.id);
    const facts = [
      lineage(row.rg_path),
      lineage(row.sg_path),
      one(row.site_id),
      [],
      one(row.device_type_id),
      lineage(row.ro_path),
      lineage(row.pf_path),
      [],
      [],
      [],
      one(row.tn_group),
      one(row.tenant_id),
      ((tags.get(id) ?? []) as { id: number }[]).map((t) => Number(t.id)),
    ];
    const matched = contexts.filter((c) =>
      assigned.every((byContext, i) => {
        const set = byContext.get(c.id);
        return !set || facts[i]!.some((v) => set.has(v));
      }),
    );
    const key = matched.map((c) => c.id).join(',');
    let merged = merges.get(key);
    if (!merged) {
      merged = {};
      for (const c of matched) if (isObject(c.data)) merged = deepMerge(merged, c.data);
      merges.set(key, merged);
    }
    const local: unknown = row.local_context_data === null ? null : JSON.parse(row.local_context_data);
    result.set(id, isObject(local) ? deepMerge(merged, local) : merged);
  }
  return result;
}
