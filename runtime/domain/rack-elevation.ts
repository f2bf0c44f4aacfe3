import type { ActionContext, ActionParent, DomainEntry, ListFunction } from './types.js';
import { renderRackSvg, type MountedDevice } from './rack-svg.js';

/**
 * A rack's elevation (NetBox's `Rack.get_rack_units`): one entry per half unit, top to bottom, with the
 * device that occupies it on the chosen face (full-depth devices occupy both). Devices the user may not
 * view still occupy their units but are not named.
 */

type Row = Record<string, unknown>;

/** One half unit of the elevation. */
interface RackUnit {
  id: number;
  name: string;
  device: MountedDevice | null;
  occupied: boolean;
  /** Only without expansion: the height of the device that starts here. */
  height?: number;
}

/** The rack's half units, top to bottom (bottom to top when numbered descending), as NetBox's `Rack.units`. */
export function rackUnits(height: number, start: number, descending: boolean): number[] {
  const units: number[] = [];
  if (descending) for (let u = start; u < height + start; u += 0.5) units.push(u);
  else for (let u = height + start - 0.5; u > start - 0.5 + 1e-9; u -= 0.5) units.push(u);
  return units;
}

/** `U42`, `U41.5`. */
export function unitName(unit: number): string {
  return Number.isInteger(unit) ? `U${unit}` : `U${unit.toFixed(1)}`;
}

/**
 * The units with their devices; `expand` repeats a device on every unit it covers, else names its lowest.
 * Devices the user may not view occupy their units unnamed, unless `all` (drawings show them as blocked).
 */
export function placeDevices(
  units: readonly number[],
  devices: readonly MountedDevice[],
  expand: boolean,
  all = false,
): RackUnit[] {
  const byId = new Map<number, RackUnit>(
    units.map((u) => [u, { id: u, name: unitName(u), device: null, occupied: false }]),
  );
  for (const device of devices) {
    const covered = expand ? halfUnits(device.position, device.height) : [device.position];
    for (const u of covered) {
      const unit = byId.get(u);
      if (!unit) continue;
      if (device.visible || all) unit.device = device;
      unit.occupied = true;
      if (!expand) unit.height = device.height;
    }
  }
  return units.map((u) => byId.get(u)!);
}

function halfUnits(position: number, height: number): number[] {
  const units: number[] = [];
  for (let u = position; u < position + height - 1e-9; u += 0.5) units.push(u);
  return units;
}

/** Devices in the rack on the face (or full depth), with a position and a height, except `exclude`. */
async function mountedDevices(
  ctx: ActionContext,
  rack: number,
  face: string,
  exclude: number | null,
): Promise<MountedDevice[]> {
  const devices = ctx.schema.model('dcim.device');
  const query = ctx
    .q({ t0: devices.table })
    .join({ t: ctx.schema.model('dcim.devicetype').table }, 't.id', 't0.device_type_id')
    .join({ r: ctx.schema.model('dcim.devicerole').table }, 'r.id', 't0.role_id')
    .where('t0.rack_id', rack)
    .where('t0.position', '>', 0)
    .where('t.u_height', '>', 0)
    .where((w) => w.where('t0.face', face).orWhere('t.is_full_depth', true))
    .select('t0.id', 't0.position', 't0.face', 't.u_height', 't.front_image', 't.rear_image', { color: 'r.color' });
  if (exclude !== null) query.whereNot('t0.id', exclude);
  const visible = ctx.q({ t0: devices.table }).where('t0.rack_id', rack).select('t0.id');
  const visibleIds = ctx.restrictView(devices.label, visible)
    ? new Set(((await visible) as Row[]).map((r) => Number(r.id)))
    : new Set<number>();
  return ((await query) as Row[]).map((r) => ({
    id: Number(r.id),
    position: Number(r.position),
    height: Number(r.u_height),
    face: (r.face as string | null) ?? null,
    visible: visibleIds.has(Number(r.id)),
    color: String(r.color ?? '9e9e9e'),
    frontImage: (r.front_image as string | null) ?? null,
    rearImage: (r.rear_image as string | null) ?? null,
  }));
}

const FACES: Record<string, string> = { front: 'Front', rear: 'Rear' };

/** `dcim/racks/{id}/elevation/`: the units as JSON (`?q=` matches ids and names), or the drawing (`render=svg`). */
export const rackElevation: ListFunction = async (ctx, parent: ActionParent, params) => {
  const rack = parent.values;
  const face = String(params.face);
  const units = rackUnits(Number(rack.u_height), Number(rack.starting_unit), rack.desc_units === true);
  const exclude = typeof params.exclude === 'number' ? params.exclude : null;
  const devices = await mountedDevices(ctx, parent.id, face, exclude);
  if (params.render === 'svg') {
    const shown = await ctx.load(
      'dcim.device',
      ['id', 'display', 'face'],
      devices.filter((d) => d.visible).map((d) => d.id),
    );
    return {
      contentType: 'image/svg+xml',
      body: renderRackSvg({
        rack: {
          name: String(rack.name),
          height: Number(rack.u_height),
          start: Number(rack.starting_unit),
          descending: rack.desc_units === true,
        },
        face,
        units: placeDevices(units, devices, false, true),
        names: new Map(shown.map((d) => [d.id as number, String(d.display)])),
        siteRoot: ctx.siteRoot,
        unitWidth: Number(params.unit_width),
        unitHeight: Number(params.unit_height),
        legendWidth: Number(params.legend_width),
        marginWidth: Number(params.margin_width),
        includeImages: params.include_images === true,
      }),
    };
  }
  let placed = placeDevices(units, devices, params.expand_devices !== false);
  const q = typeof params.q === 'string' ? params.q.toLowerCase() : '';
  // Python prints the unit numbers as decimals (`3.0`), so `?q=3` matches U3 and U13.5 alike.
  if (q) placed = placed.filter((u) => u.id.toFixed(1).includes(q) || u.name.toLowerCase().includes(q));
  const device = ctx.schema.model('dcim.device');
  const nested = await ctx.load(device.label, device.spec.nested, [
    ...new Set(placed.flatMap((u) => (u.device ? [u.device.id] : []))),
  ]);
  const byId = new Map(nested.map((d) => [d.id as number, d]));
  return {
    items: placed.map((u) => {
      const shown = u.device ? (byId.get(u.device.id) ?? null) : null;
      return {
        id: u.id,
        name: u.name,
        face: { value: face, label: FACES[face] ?? face },
        device: shown,
        occupied: u.occupied,
        display: u.name,
        description: shown ? String(shown.display) : null,
      };
    }),
  };
};

/** The rack elevation, by the name YAML uses. */
export const rackElevationFunctions = {
  'dcim.rackElevation': { kind: 'list', fn: rackElevation },
} satisfies Record<string, DomainEntry>;
