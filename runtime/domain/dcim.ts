import type { ForeignKeyField } from '../spec.js';
import { lockKey } from '../db/transaction.js';
import { validateLocalContextData } from './extras.js';
import {
  channelAttribute,
  checkModeAllowsVlans,
  checkTaggedVlanSites,
  checkUntaggedVlanSite,
  interfaceFunctions,
  interfaceText,
  rowOf,
  VIRTUAL_TYPES,
  WIRELESS_TYPES,
} from './interfaces.js';
import type { DomainEntry, FilterFunction, WriteItemContext } from './types.js';

/** DCIM behaviour that YAML cannot declare: placement rules of racks and devices, interface rules. */

type Row = Record<string, unknown>;

const none = (v: unknown): boolean => v === null || v === undefined || v === '';
/** A decimal as Python prints a `Decimal` with one place (`10.0`). */
const oneDecimal = (v: unknown): string => Number(v).toFixed(1);

/** A location's parent must belong to the same site. */
export async function locationParentInSameSite(item: WriteItemContext): Promise<void> {
  const { parent, site } = item.values;
  if (parent === null || parent === undefined || site === null || site === undefined) return;
  const row = (await item
    .q(item.model.table)
    .where('id', parent as number)
    .first('site_id', 'name')) as { site_id: number; name: string } | undefined;
  if (!row || Number(row.site_id) === Number(site)) return;
  const siteModel = item.schema.model((item.model.fields.get('site') as ForeignKeyField).target);
  const siteRow = (await item
    .q(siteModel.table)
    .where('id', site as number)
    .first('name')) as { name: string } | undefined;
  item.errors.add(
    '__all__',
    `Parent location (${row.name}) must belong to the same site (${siteRow?.name ?? String(site)}).`,
  );
}

async function nameOf(item: WriteItemContext, label: string, id: unknown): Promise<string> {
  return String((await rowOf(item.q, item.schema, label, id, ['name']))?.name ?? id);
}

/** `R1 (F-01)`: a rack as NetBox prints it. */
function rackText(row: Row): string {
  return row.facility_id ? `${String(row.name)} (${String(row.facility_id)})` : String(row.name);
}

/** A device as NetBox prints it (see `displayDevice`). */
export async function deviceText(item: WriteItemContext, id: unknown): Promise<string> {
  const row = (await item
    .q({ d: item.schema.model('dcim.device').table })
    .join({ t: item.schema.model('dcim.devicetype').table }, 't.id', 'd.device_type_id')
    .join({ m: item.schema.model('dcim.manufacturer').table }, 'm.id', 't.manufacturer_id')
    .where('d.id', id as number)
    .first('d.id', 'd.name', 'd.asset_tag', { model: 't.model', manufacturer: 'm.name' })) as Row | undefined;
  if (!row) return String(id);
  return displayDevice({
    ...row,
    'device_type.model': row.model,
    'device_type.manufacturer.name': row.manufacturer,
  });
}

/**
 * Devices mounted in a rack (with a position), with their heights and faces: those stored, and those that
 * earlier objects of the same request (a bulk create or update) are about to place there.
 */
async function mountedDevices(item: WriteItemContext, rack: unknown, exclude: number | null): Promise<Row[]> {
  const types = item.schema.model('dcim.devicetype').table;
  const columns = ['t.u_height', 't.is_full_depth', 't.exclude_from_utilization'];
  // Earlier objects of the request are devices only when devices are being written.
  const earlier = item.model.label === 'dcim.device' ? item.earlier : [];
  const pending = earlier.filter((other) => Number(other.values.rack) === Number(rack) && !none(other.values.position));
  const query = item
    .q({ d: item.schema.model('dcim.device').table })
    .join({ t: types }, 't.id', 'd.device_type_id')
    .where('d.rack_id', rack as number)
    .whereNotNull('d.position')
    .select('d.position', 'd.face', ...columns);
  const replaced = [exclude, ...earlier.map((other) => other.id)].filter((id): id is number => id !== null);
  if (replaced.length > 0) query.whereNotIn('d.id', replaced);
  const stored = (await query) as Row[];
  if (pending.length === 0) return stored;
  const typeRows = (await item
    .q({ t: types })
    .whereIn(
      't.id',
      pending.map((other) => Number(other.values.device_type)),
    )
    .select('t.id', ...columns)) as Row[];
  const placed = pending.flatMap((other) => {
    const type = typeRows.find((t) => Number(t.id) === Number(other.values.device_type));
    return type ? [{ ...type, position: other.values.position, face: other.values.face ?? null }] : [];
  });
  return [...stored, ...placed];
}

/** NetBox's rack rules: units with weights and dimensions, the location at the site, room for its devices. */
export async function validateRack(item: WriteItemContext): Promise<void> {
  const { values, errors } = item;
  const truthy = (v: unknown): boolean => !none(v) && Number(v) !== 0;
  if (truthy(values.weight) && none(values.weight_unit)) {
    errors.add('__all__', 'Must specify a unit when setting a weight');
    return;
  }
  const location = await rowOf(item.q, item.schema, 'dcim.location', values.location, ['site_id']);
  if (location && Number(location.site_id) !== Number(values.site)) {
    errors.add(
      '__all__',
      `Assigned location must belong to parent site (${await nameOf(item, 'dcim.site', values.site)}).`,
    );
    return;
  }
  if (['outer_width', 'outer_height', 'outer_depth'].some((f) => truthy(values[f])) && none(values.outer_unit)) {
    errors.add('__all__', 'Must specify a unit when setting an outer dimension');
    return;
  }
  if (truthy(values.max_weight) && none(values.weight_unit)) {
    errors.add('__all__', 'Must specify a unit when setting a maximum weight');
    return;
  }
  if (!item.existing) return;
  const mounted = await mountedDevices(item, item.id, null);
  if (mounted.length === 0) return;
  const start = Number(values.starting_unit);
  const top = Math.max(...mounted.map((d) => Number(d.position) + Number(d.u_height)));
  if (Number(values.u_height) < top - start) {
    errors.add(
      'u_height',
      `Rack must be at least ${oneDecimal(top - start)}U tall to house currently installed devices.`,
    );
    return;
  }
  const lowest = Math.min(...mounted.map((d) => Number(d.position)));
  if (start > lowest) {
    errors.add(
      'starting_unit',
      `Rack unit numbering must begin at ${oneDecimal(lowest)} or less to house currently installed devices.`,
    );
  }
}

/** A rack without outer dimensions has no outer unit. */
export function prepareRack(item: WriteItemContext): void {
  const { values } = item;
  if (['outer_width', 'outer_height', 'outer_depth'].every((f) => none(values[f]) || Number(values[f]) === 0))
    values.outer_unit = null;
}

/** Heights come in half units; child devices are 0U; a weight needs its unit. */
export function validateDeviceType(item: WriteItemContext): void {
  const { values } = item;
  if (!none(values.weight) && Number(values.weight) !== 0 && none(values.weight_unit)) {
    item.errors.add('__all__', 'Must specify a unit when setting a weight');
    return;
  }
  const height = Number(values.u_height ?? 0);
  if (Math.round(height * 2) !== height * 2)
    item.errors.add('u_height', 'U height must be in increments of 0.5 rack units.');
  else if (values.subdevice_role === 'child' && height !== 0)
    item.errors.add('u_height', 'Child device types must be 0U.');
}

/**
 * NetBox's `str(device)`: the name (with the asset tag if any); an unnamed device shows its manufacturer and
 * model with its asset tag or id.
 */
export function displayDevice(values: Record<string, unknown>): string {
  const name = values.name as string | null;
  const assetTag = values.asset_tag as string | null;
  if (name) return assetTag ? `${name} (${assetTag})` : name;
  const model =
    `${String(values['device_type.manufacturer.name'] ?? '')} ${String(values['device_type.model'] ?? '')}`.trim();
  return assetTag ? `${model} (${assetTag})` : `${model} (${String(values.id ?? '')})`.replace(' ()', '');
}

/** `primary_ip` is the primary IPv6 address if there is one, else the IPv4 one. */
export function presentDevice(object: Record<string, unknown>): void {
  if ('primary_ip' in object) object.primary_ip = object.primary_ip6 ?? object.primary_ip4 ?? null;
}

/** Rack units `[start, start + height)` in half units, as numbers. */
function halfUnits(start: number, height: number): number[] {
  const units: number[] = [];
  for (let u = start; u < start + height - 1e-9; u += 0.5) units.push(u);
  return units;
}

/** Whether a device of the type fits at `position` of the rack (NetBox's `get_available_units`). */
async function fitsInRack(item: WriteItemContext, rack: Row, type: Row, position: number): Promise<boolean> {
  const rackFace = type.is_full_depth === true || type.is_full_depth === 1 ? null : item.values.face;
  const free = new Set(halfUnits(Number(rack.starting_unit), Number(rack.u_height)));
  for (const other of await mountedDevices(item, item.values.rack, item.id)) {
    if (other.exclude_from_utilization === true || other.exclude_from_utilization === 1) continue;
    const fullDepth = other.is_full_depth === true || other.is_full_depth === 1;
    if (rackFace !== null && other.face !== rackFace && !fullDepth) continue;
    for (const u of halfUnits(Number(other.position), Number(other.u_height))) free.delete(u);
  }
  return halfUnits(position, Math.max(Number(type.u_height), 0.5)).every((u) => free.has(u));
}

/** Primary addresses must be IPv4/IPv6 as named, assigned to the object's interfaces (directly or by NAT). */
export async function checkPrimaryIps(
  item: WriteItemContext,
  interfaceLabel: string,
  ownerColumn: string,
  family: (version: number, address: string) => string,
  notAssigned: (address: string) => string,
): Promise<void> {
  const ips = item.schema.model('ipam.ipaddress');
  for (const version of [4, 6]) {
    const field = `primary_ip${version}`;
    const ip = await rowOf(item.q, item.schema, 'ipam.ipaddress', item.values[field], [
      'address',
      'address_family',
      'assigned_object_type',
      'assigned_object_id',
      'nat_inside_id',
    ]);
    if (!ip) continue;
    if (Number(ip.address_family) !== version) {
      item.errors.add(field, family(version, String(ip.address)));
      return;
    }
    const candidates = [ip];
    if (ip.nat_inside_id !== null) {
      const inside = (await item
        .q(ips.table)
        .where('id', ip.nat_inside_id as number)
        .first('assigned_object_type', 'assigned_object_id')) as Row | undefined;
      if (inside) candidates.push(inside);
    }
    let assigned = false;
    for (const candidate of candidates) {
      if (candidate.assigned_object_type !== interfaceLabel || candidate.assigned_object_id === null) continue;
      const owner = await rowOf(item.q, item.schema, interfaceLabel, candidate.assigned_object_id, [ownerColumn]);
      // NetBox compares with the object's interfaces, which, while the object is created, are all interfaces.
      if (owner && (item.id === null || Number(owner[ownerColumn]) === item.id)) assigned = true;
    }
    if (!assigned) {
      item.errors.add(field, notAssigned(String(ip.address)));
      return;
    }
  }
}

/** NetBox's device rules, in its order; the first failing rule is reported. */
export async function validateDevice(item: WriteItemContext): Promise<void> {
  validateLocalContextData(item);
  if (item.errors.has()) return;
  const { values, errors } = item;
  const { site, location, position, face } = values;
  const rack = await rowOf(item.q, item.schema, 'dcim.rack', values.rack, [
    'name',
    'facility_id',
    'site_id',
    'location_id',
    'u_height',
    'starting_unit',
  ]);
  const locationRow = await rowOf(item.q, item.schema, 'dcim.location', location, ['name', 'site_id']);
  const siteName = async (): Promise<string> => nameOf(item, 'dcim.site', site);
  if (rack && Number(rack.site_id) !== Number(site))
    return errors.add('rack', `Rack ${rackText(rack)} does not belong to site ${await siteName()}.`);
  if (locationRow && Number(locationRow.site_id) !== Number(site))
    return errors.add('location', `Location ${String(locationRow.name)} does not belong to site ${await siteName()}.`);
  if (rack && locationRow && Number(rack.location_id ?? -1) !== Number(location))
    return errors.add('rack', `Rack ${rackText(rack)} does not belong to location ${String(locationRow.name)}.`);
  if (!rack) {
    if (!none(face)) return errors.add('face', 'Cannot select a rack face without assigning a rack.');
    if (!none(position)) return errors.add('position', 'Cannot select a rack position without assigning a rack.');
  }
  const hasPosition = !none(position) && Number(position) !== 0;
  if (hasPosition && Math.round(Number(position) * 2) !== Number(position) * 2)
    return errors.add('position', 'Position must be in increments of 0.5 rack units.');
  if (hasPosition && none(face)) return errors.add('face', 'Must specify rack face when defining rack position.');
  const type = (await rowOf(item.q, item.schema, 'dcim.devicetype', values.device_type, [
    'model',
    'manufacturer_id',
    'u_height',
    'is_full_depth',
    'subdevice_role',
  ]))!;
  if (hasPosition && Number(type.u_height) === 0)
    return errors.add('position', `A 0U device type (${String(type.model)}) cannot be assigned to a rack position.`);
  if (rack) {
    const child = 'Child device types cannot be assigned to a rack';
    if (type.subdevice_role === 'child' && !none(face))
      return errors.add('face', `${child} face. This is an attribute of the parent device.`);
    if (type.subdevice_role === 'child' && hasPosition)
      return errors.add('position', `${child} position. This is an attribute of the parent device.`);
    // One device placed in a rack at a time: two requests cannot both take the same units.
    if (hasPosition) await lockKey(item.q, item.dialect, `dcim.rack units ${String(values.rack)}`);
    if (hasPosition && !(await fitsInRack(item, rack, type, Number(position)))) {
      return errors.add(
        'position',
        `U${oneDecimal(position)} is already occupied or does not have sufficient space to accommodate this device type: ${String(type.model)} (${oneDecimal(type.u_height)}U)`,
      );
    }
  }
  await checkPrimaryIps(
    item,
    'dcim.interface',
    'device_id',
    (version, address) => `${address} is not an IPv${version} address.`,
    (address) => `The specified IP address (${address}) is not assigned to this device.`,
  );
  if (errors.has()) return;
  const platform = await rowOf(item.q, item.schema, 'dcim.platform', values.platform, ['manufacturer_id']);
  if (
    platform &&
    platform.manufacturer_id !== null &&
    Number(platform.manufacturer_id) !== Number(type.manufacturer_id)
  ) {
    return errors.add(
      'platform',
      `The assigned platform is limited to ${await nameOf(item, 'dcim.manufacturer', platform.manufacturer_id)} device types, but this device's type belongs to ${await nameOf(item, 'dcim.manufacturer', type.manufacturer_id)}.`,
    );
  }
  const cluster = await rowOf(item.q, item.schema, 'virtualization.cluster', values.cluster, [
    '_site_id',
    '_location_id',
  ]);
  if (cluster && cluster._site_id !== null && Number(cluster._site_id) !== Number(site)) {
    return errors.add(
      'cluster',
      `The assigned cluster belongs to a different site (${await nameOf(item, 'dcim.site', cluster._site_id)})`,
    );
  }
  if (cluster && cluster._location_id !== null && Number(cluster._location_id) !== Number(location ?? -1)) {
    errors.add(
      'cluster',
      `The assigned cluster belongs to a different location (${await nameOf(item, 'dcim.location', cluster._location_id)})`,
    );
  }
}

/** On create a device takes its type's default platform and airflow; in a rack, the rack's location. */
export async function prepareDevice(item: WriteItemContext): Promise<void> {
  const { values } = item;
  if (!item.existing && (none(values.platform) || none(values.airflow))) {
    const type = await rowOf(item.q, item.schema, 'dcim.devicetype', values.device_type, [
      'default_platform_id',
      'airflow',
    ]);
    if (none(values.platform) && type?.default_platform_id != null) values.platform = Number(type.default_platform_id);
    if (none(values.airflow) && !none(type?.airflow)) values.airflow = type!.airflow;
  }
  const rack = await rowOf(item.q, item.schema, 'dcim.rack', values.rack, ['location_id']);
  if (rack && rack.location_id !== null) values.location = Number(rack.location_id);
}

/** `has_primary_ip=true|false`. */
const hasPrimaryIp: FilterFunction = async (_ctx, _model, values) => {
  const flag = values[0]!.trim().toLowerCase();
  if (!['true', 'false', '1', '0'].includes(flag))
    return `Select a valid choice. ${values[0]} is not one of the available choices.`;
  const wanted = flag === 'true' || flag === '1';
  return (query) => {
    if (wanted) query.where((w) => w.whereNotNull('t0.primary_ip4_id').orWhereNotNull('t0.primary_ip6_id'));
    else query.whereNull('t0.primary_ip4_id').whereNull('t0.primary_ip6_id');
  };
};

/** `available_for_device_type=<id>`: platforms of no manufacturer or of the device type's manufacturer. */
const platformsForDeviceType: FilterFunction = async (ctx, _model, values) => {
  const value = values[0]!;
  const types = ctx.schema.model('dcim.devicetype');
  const type = /^\d+$/.test(value.trim())
    ? ((await ctx.q(types.table).where('id', Number(value)).first('manufacturer_id')) as Row | undefined)
    : undefined;
  if (!type) return `Select a valid choice. That choice is not one of the available choices.`;
  return (query) =>
    void query.where((w) =>
      w.whereNull('t0.manufacturer_id').orWhere('t0.manufacturer_id', type.manufacturer_id as number),
    );
};

/** NetBox's interface serializer checks (802.1Q), then its model rules in order; the first rule reports. */
export async function validateInterface(item: WriteItemContext): Promise<void> {
  const { values, errors } = item;
  await checkModeAllowsVlans(item);
  if (errors.has()) return;
  const device = await rowOf(item.q, item.schema, 'dcim.device', values.device, ['site_id']);
  await checkTaggedVlanSites(item, device?.site_id, 'device');
  if (errors.has()) return;
  if (item.existing && Number(item.existing.device) !== Number(values.device))
    return errors.add('device', 'Components cannot be moved to a different device.');
  const type = values.type as string;
  const typeLabel = (item.model.fields.get('type') as { choices: [string, string][] }).choices.find(
    ([v]) => v === type,
  )?.[1];
  if (VIRTUAL_TYPES.has(type) && values.mark_connected === true)
    return errors.add('mark_connected', `${typeLabel ?? type} interfaces cannot be marked as connected.`);
  const related = async (field: string): Promise<Row | undefined> =>
    rowOf(item.q, item.schema, 'dcim.interface', values[field], ['name', 'label', 'device_id']);
  const elsewhere = async (other: Row): Promise<string | null> =>
    Number(other.device_id) === Number(values.device) ? null : deviceText(item, other.device_id);

  if (item.id !== null && Number(values.parent) === item.id)
    return errors.add('parent', 'An interface cannot be its own parent.');
  const parent = await related('parent');
  if (parent && type !== 'virtual')
    return errors.add('parent', 'Only virtual interfaces may be assigned to a parent interface.');
  const parentDevice = parent && (await elsewhere(parent));
  if (parent && parentDevice)
    return errors.add(
      'parent',
      `The selected parent interface (${interfaceText(parent)}) belongs to a different device (${parentDevice})`,
    );
  if (item.id !== null && Number(values.bridge) === item.id)
    return errors.add('bridge', 'An interface cannot be bridged to itself.');
  const bridge = await related('bridge');
  const bridgeDevice = bridge && (await elsewhere(bridge));
  if (bridge && bridgeDevice)
    return errors.add(
      'bridge',
      `The selected bridge interface (${interfaceText(bridge)}) belongs to a different device (${bridgeDevice}).`,
    );
  const lag = await related('lag');
  if (lag && type === 'virtual') return errors.add('lag', 'Virtual interfaces cannot have a parent LAG interface.');
  if (item.id !== null && Number(values.lag) === item.id)
    return errors.add('lag', 'A LAG interface cannot be its own parent.');
  const lagDevice = lag && (await elsewhere(lag));
  if (lag && lagDevice)
    return errors.add(
      'lag',
      `The selected LAG interface (${interfaceText(lag)}) belongs to a different device (${lagDevice}).`,
    );
  if (!none(values.poe_mode) && VIRTUAL_TYPES.has(type))
    return errors.add('poe_mode', 'Virtual interfaces cannot have a PoE mode.');
  if (!none(values.poe_type) && VIRTUAL_TYPES.has(type))
    return errors.add('poe_type', 'Virtual interfaces cannot have a PoE type.');
  if (!none(values.poe_type) && none(values.poe_mode))
    return errors.add('poe_type', 'Must specify PoE mode when designating a PoE type.');
  if (!none(values.rf_role) && !WIRELESS_TYPES.has(type))
    return errors.add('rf_role', 'Wireless role may be set only on wireless interfaces.');
  const channel = none(values.rf_channel) ? null : String(values.rf_channel);
  if (channel && !WIRELESS_TYPES.has(type))
    return errors.add('rf_channel', 'Channel may be set only on wireless interfaces.');
  for (const [field, what, attr] of [
    ['rf_channel_frequency', 'frequency', 'frequency'],
    ['rf_channel_width', 'width', 'width'],
  ] as const) {
    if (none(values[field]) || Number(values[field]) === 0) continue;
    if (!WIRELESS_TYPES.has(type)) return errors.add(field, `Channel ${what} may be set only on wireless interfaces.`);
    if (channel && Number(values[field]) !== channelAttribute(channel, attr))
      return errors.add(field, `Cannot specify custom ${what} with channel selected.`);
  }
  await checkUntaggedVlanSite(item, device?.site_id, 'device');
}

/** The dcim app's domain functions, by the names YAML uses. */
export const dcimFunctions = {
  'dcim.locationParentInSameSite': { kind: 'validator', fn: locationParentInSameSite },
  'dcim.validateRack': { kind: 'validator', fn: validateRack },
  'dcim.prepareRack': { kind: 'prepare', fn: prepareRack },
  'dcim.validateDeviceType': { kind: 'validator', fn: validateDeviceType },
  'dcim.displayDevice': { kind: 'display', fn: displayDevice },
  'dcim.presentDevice': { kind: 'present', fn: presentDevice },
  'dcim.validateDevice': { kind: 'validator', fn: validateDevice },
  'dcim.prepareDevice': { kind: 'prepare', fn: prepareDevice },
  'dcim.hasPrimaryIp': { kind: 'filter', fn: hasPrimaryIp },
  'dcim.platformsForDeviceType': { kind: 'filter', fn: platformsForDeviceType },
  'dcim.validateInterface': { kind: 'validator', fn: validateInterface },
  ...interfaceFunctions,
} satisfies Record<string, DomainEntry>;
