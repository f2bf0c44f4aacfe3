import { lockKey } from '../db/transaction.js';
import { isVcInterface } from './chassis.js';
import {
  channelAttribute,
  checkModeAllowsVlans,
  checkTaggedVlanSites,
  interfaceFunctions,
  rowOf,
  VIRTUAL_TYPES,
  WIRELESS_TYPES,
} from './interfaces.js';
import type { DomainEntry, FilterFunction, ValidatorFunction, WriteItemContext } from './types.js';

/** DCIM behaviour that YAML cannot declare: placement rules of racks and devices, interface rules. */

type Row = Record<string, unknown>;

const none = (v: unknown): boolean => v === null || v === undefined || v === '';
/** A decimal as Python prints a `Decimal` with one place (`10.0`). */
const oneDecimal = (v: unknown): string => Number(v).toFixed(1);

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

/** A rack stays tall enough for its mounted devices, and its numbering starts at or below the lowest. */
export async function validateRackSpace(item: WriteItemContext): Promise<void> {
  const { values, errors } = item;
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
  accepts?: (interfaceId: number) => Promise<boolean>,
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
      if (accepts) {
        if (await accepts(Number(candidate.assigned_object_id))) assigned = true;
        continue;
      }
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

/**
 * NetBox's device rules that are algorithms (the model's declared rules come before and after): room in the
 * rack at the position, and primary addresses on the device's own interfaces.
 */
export async function validateDevicePlacement(item: WriteItemContext): Promise<void> {
  const { values, errors } = item;
  const { position } = values;
  const rack = await rowOf(item.q, item.schema, 'dcim.rack', values.rack, ['u_height', 'starting_unit']);
  const hasPosition = !none(position) && Number(position) !== 0;
  if (rack && hasPosition) {
    const type = (await rowOf(item.q, item.schema, 'dcim.devicetype', values.device_type, [
      'model',
      'u_height',
      'is_full_depth',
    ]))!;
    // One device placed in a rack at a time: two requests cannot both take the same units.
    await lockKey(item.q, item.dialect, `dcim.rack units ${String(values.rack)}`);
    if (!(await fitsInRack(item, rack, type, Number(position)))) {
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
    // NetBox compares with the device's interfaces (all interfaces while it is created) and, in a virtual
    // chassis, the other members' interfaces that are not management-only.
    async (interfaceId) =>
      item.id === null || (await isVcInterface(item, item.id, values.virtual_chassis ?? null, interfaceId)),
  );
}

/** NetBox's VirtualDeviceContext.clean(): primary addresses of the right family, on the device's interfaces. */
const checkVirtualDeviceContextPrimaryIps: ValidatorFunction = async (item) => {
  const device = (await item
    .q(item.schema.model('dcim.device').table)
    .where('id', Number(item.values.device ?? -1))
    .first('virtual_chassis_id')) as Row | undefined;
  await checkPrimaryIps(
    item,
    'dcim.interface',
    'device_id',
    (version, address) => `${address} is not an IPv${version} address.`,
    () => 'Primary IP address must belong to an interface on the assigned device.',
    async (interfaceId) => isVcInterface(item, item.values.device, device?.virtual_chassis_id ?? null, interfaceId),
  );
};

/** On create a device takes its type's default platform and airflow. */
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

/**
 * NetBox's interface serializer checks (802.1Q mode and tagged VLAN sites), then the first of its model rules:
 * a component stays on its device, and virtual kinds are never marked connected.
 */
export async function checkInterfaceVlansAndDevice(item: WriteItemContext): Promise<void> {
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
    errors.add('mark_connected', `${typeLabel ?? type} interfaces cannot be marked as connected.`);
}

/** NetBox's wireless interface rules: role and channel only on wireless kinds; a channel fixes its frequency and width. */
export function checkInterfaceWireless(item: WriteItemContext): void {
  const { values, errors } = item;
  const type = values.type as string;
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
}

/** The dcim app's domain functions, by the names YAML uses. */
export const dcimFunctions = {
  'dcim.validateRackSpace': { kind: 'validator', fn: validateRackSpace, batch: true },
  'dcim.presentDevice': { kind: 'present', fn: presentDevice },
  'dcim.validateDevicePlacement': { kind: 'validator', fn: validateDevicePlacement, batch: true },
  'dcim.checkVirtualDeviceContextPrimaryIps': {
    kind: 'validator',
    fn: checkVirtualDeviceContextPrimaryIps,
    batch: true,
  },
  'dcim.prepareDevice': { kind: 'prepare', fn: prepareDevice },
  'dcim.hasPrimaryIp': { kind: 'filter', fn: hasPrimaryIp },
  'dcim.platformsForDeviceType': { kind: 'filter', fn: platformsForDeviceType },
  'dcim.checkInterfaceVlansAndDevice': { kind: 'validator', fn: checkInterfaceVlansAndDevice, batch: true },
  'dcim.checkInterfaceWireless': { kind: 'validator', fn: checkInterfaceWireless, batch: true },
  ...interfaceFunctions,
} satisfies Record<string, DomainEntry>;
