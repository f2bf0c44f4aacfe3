import type { ForeignKeyField } from '../spec.js';
import type { DomainEntry, FilterFunction, WriteItemContext } from './types.js';

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

type Row = Record<string, unknown>;

/** A rack's location must be at the rack's site. */
export async function validateRack(item: WriteItemContext): Promise<void> {
  const { location, site } = item.values;
  if (location === null || location === undefined) return;
  const row = (await item
    .q(item.schema.model('dcim.location').table)
    .where('id', location as number)
    .first('site_id')) as Row | undefined;
  if (row && Number(row.site_id) !== Number(site)) {
    const siteRow = (await item
      .q(item.schema.model('dcim.site').table)
      .where('id', site as number)
      .first('name')) as Row | undefined;
    item.errors.add('__all__', `Assigned location must belong to parent site (${String(siteRow?.name ?? site)}).`);
  }
  for (const [field, unit, message] of [
    ['outer_width', 'outer_unit', 'Must specify a unit when setting an outer dimension'],
    ['max_weight', 'weight_unit', 'Must specify a unit when setting a maximum weight'],
    ['weight', 'weight_unit', 'Must specify a unit when setting a weight'],
  ] as const) {
    const value = item.values[field];
    const hasUnit = item.values[unit] !== null && item.values[unit] !== undefined && item.values[unit] !== '';
    if (value !== null && value !== undefined && !hasUnit) item.errors.add('__all__', message);
  }
}

/** Heights come in half units; child devices are 0U. */
export function validateDeviceType(item: WriteItemContext): void {
  const height = Number(item.values.u_height ?? 0);
  if (Math.round(height * 2) !== height * 2)
    item.errors.add('u_height', 'U height must be in increments of 0.5 rack units.');
  else if (item.values.subdevice_role === 'child' && height !== 0)
    item.errors.add('u_height', 'Child device types must be 0U.');
}

/**
 * `name`; an unnamed device shows its asset tag or id after its manufacturer and model.
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

/** Placement rules: rack and location at the device's site; a rack face and position need a rack. */
export async function validateDevice(item: WriteItemContext): Promise<void> {
  const { site, location, rack, position, face } = item.values;
  const name = async (label: string, id: unknown): Promise<string> => {
    const row = (await item
      .q(item.schema.model(label).table)
      .where('id', id as number)
      .first('name')) as Row | undefined;
    return String(row?.name ?? id);
  };
  if (rack !== null && rack !== undefined) {
    const row = (await item
      .q(item.schema.model('dcim.rack').table)
      .where('id', rack as number)
      .first('site_id', 'location_id')) as Row | undefined;
    if (row && Number(row.site_id) !== Number(site)) {
      item.errors.add(
        'rack',
        `Rack ${await name('dcim.rack', rack)} does not belong to site ${await name('dcim.site', site)}.`,
      );
    } else if (
      row &&
      location !== null &&
      location !== undefined &&
      row.location_id !== null &&
      Number(row.location_id) !== Number(location)
    ) {
      item.errors.add(
        'rack',
        `Rack ${await name('dcim.rack', rack)} does not belong to location ${await name('dcim.location', location)}.`,
      );
    }
  } else {
    if (face) item.errors.add('face', 'Cannot select a rack face without assigning a rack.');
    if (position !== null && position !== undefined)
      item.errors.add('position', 'Cannot select a rack position without assigning a rack.');
  }
  if (location !== null && location !== undefined) {
    const row = (await item
      .q(item.schema.model('dcim.location').table)
      .where('id', location as number)
      .first('site_id')) as Row | undefined;
    if (row && Number(row.site_id) !== Number(site)) {
      item.errors.add(
        'location',
        `Location ${await name('dcim.location', location)} does not belong to site ${await name('dcim.site', site)}.`,
      );
    }
  }
  if (position !== null && position !== undefined) {
    const value = Number(position);
    if (Math.round(value * 2) !== value * 2)
      item.errors.add('position', 'Position must be in increments of 0.5 rack units.');
    else if (!face) item.errors.add('face', 'Must specify rack face when defining rack position.');
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

const VIRTUAL_TYPES = new Set(['virtual', 'lag', 'bridge']);
const WIRELESS_TYPES = new Set([
  'ieee802.11a',
  'ieee802.11g',
  'ieee802.11n',
  'ieee802.11ac',
  'ieee802.11ad',
  'ieee802.11ax',
  'ieee802.11ay',
  'ieee802.11be',
  'ieee802.15.1',
  'ieee802.15.4',
  'other-wireless',
  'gsm',
  'cdma',
  'lte',
  '4g',
  '5g',
]);

/** 802.1Q rules of NetBox's interface serializer, and the parent/LAG/bridge rules of its model. */
export async function validateInterface(item: WriteItemContext): Promise<void> {
  const { values, errors } = item;
  const mode = values.mode as string | null;
  const tagged = (values.tagged_vlans as number[] | undefined) ?? [];
  if (mode !== 'q-in-q' && values.qinq_svlan !== null && values.qinq_svlan !== undefined) {
    errors.add('qinq_svlan', 'Interface mode does not support q-in-q service vlan');
  }
  if (
    !mode &&
    values.untagged_vlan !== null &&
    values.untagged_vlan !== undefined &&
    Object.hasOwn(item.input, 'untagged_vlan')
  ) {
    errors.add('untagged_vlan', 'Interface mode does not support untagged vlan');
  }
  if (
    (!mode || mode === 'access' || mode === 'tagged-all') &&
    tagged.length > 0 &&
    Object.hasOwn(item.input, 'tagged_vlans')
  ) {
    errors.add('tagged_vlans', 'Interface mode does not support tagged vlans');
  }
  const type = values.type as string | undefined;
  if (type !== undefined) {
    if (values.parent !== null && values.parent !== undefined && item.existing && Number(values.parent) === item.id) {
      errors.add('parent', 'An interface cannot be its own parent.');
    }
    if (values.lag !== null && values.lag !== undefined && VIRTUAL_TYPES.has(type)) {
      errors.add('lag', 'Virtual interfaces cannot have a parent LAG interface.');
    }
    if (values.rf_role && !WIRELESS_TYPES.has(type))
      errors.add('rf_role', 'Wireless role may be set only on wireless interfaces.');
    if (values.poe_type && !values.poe_mode)
      errors.add('poe_mode', 'Must specify PoE mode when designating a PoE type.');
  }
  const owner = item.model.label === 'dcim.interface' ? 'device' : 'virtual_machine';
  for (const field of ['parent', 'bridge', 'lag'] as const) {
    const other = values[field];
    if (other === null || other === undefined || !item.model.fields.has(field)) continue;
    const row = (await item
      .q(item.model.table)
      .where('id', other as number)
      .first(`${owner}_id`)) as Row | undefined;
    if (row && Number(row[`${owner}_id`]) !== Number(values[owner])) {
      errors.add(
        field,
        `The selected ${field} interface (${String(other)}) belongs to a different ${owner === 'device' ? 'device' : 'virtual machine'}.`,
      );
    }
  }
  if (item.existing && item.existing[owner] !== undefined && Number(item.existing[owner]) !== Number(values[owner])) {
    errors.add(owner, 'Components cannot be moved to a different device.');
  }
}

/** An interface without a mode has no untagged VLAN; only tagged interfaces keep tagged VLANs. */
export function prepareInterface(item: WriteItemContext): void {
  const mode = item.values.mode as string | null;
  if (!mode) item.values.untagged_vlan = null;
  if (mode !== 'tagged' && item.existing && !Object.hasOwn(item.input, 'tagged_vlans')) {
    item.values.tagged_vlans = [];
    item.input.tagged_vlans = [];
  }
}

/** Interfaces carrying a VLAN: untagged, tagged or as service VLAN (`vlan_id`), or by VID (`vlan`). */
function interfacesWithVlan(by: 'id' | 'vid'): FilterFunction {
  return async (ctx, model, values) => {
    const bad = values.find((v) => !/^\d+$/.test(v.trim()));
    if (bad !== undefined) return `Enter a whole number.`;
    const numbers = values.map(Number);
    const vlan = ctx.schema.model('ipam.vlan');
    const vlanIds =
      by === 'id'
        ? numbers
        : ((await ctx.q(vlan.table).whereIn('vid', numbers).select('id')) as Row[]).map((r) => Number(r.id));
    const tagged = model.fields.get('tagged_vlans') as { through: string };
    return (query) => {
      query.where((w) => {
        w.whereIn('t0.untagged_vlan_id', vlanIds.length ? vlanIds : [-1])
          .orWhereIn('t0.qinq_svlan_id', vlanIds.length ? vlanIds : [-1])
          .orWhereIn('t0.id', function taggedWith() {
            this.select('m.from_id')
              .from({ m: tagged.through })
              .whereIn('m.to_id', vlanIds.length ? vlanIds : [-1]);
          });
      });
    };
  };
}

/** `kind=physical|virtual|wireless`. */
const interfaceKind: FilterFunction = async (_ctx, _model, values) => {
  const kinds = values.map((v) => v.trim().toLowerCase());
  const bad = kinds.find((k) => !['physical', 'virtual', 'wireless'].includes(k));
  if (bad !== undefined) return `Select a valid choice. ${bad} is not one of the available choices.`;
  const special = [...VIRTUAL_TYPES, ...WIRELESS_TYPES];
  return (query) => {
    query.where((w) => {
      if (kinds.includes('virtual')) w.orWhereIn('t0.type', [...VIRTUAL_TYPES]);
      if (kinds.includes('wireless')) w.orWhereIn('t0.type', [...WIRELESS_TYPES]);
      if (kinds.includes('physical')) w.orWhereNotIn('t0.type', special);
    });
  };
};

/** The dcim app's domain functions, by the names YAML uses. */
export const dcimFunctions = {
  'dcim.locationParentInSameSite': { kind: 'validator', fn: locationParentInSameSite },
  'dcim.validateRack': { kind: 'validator', fn: validateRack },
  'dcim.validateDeviceType': { kind: 'validator', fn: validateDeviceType },
  'dcim.displayDevice': { kind: 'display', fn: displayDevice },
  'dcim.presentDevice': { kind: 'present', fn: presentDevice },
  'dcim.validateDevice': { kind: 'validator', fn: validateDevice },
  'dcim.hasPrimaryIp': { kind: 'filter', fn: hasPrimaryIp },
  'dcim.validateInterface': { kind: 'validator', fn: validateInterface },
  'dcim.prepareInterface': { kind: 'prepare', fn: prepareInterface },
  'dcim.interfacesWithVlanId': { kind: 'filter', fn: interfacesWithVlan('id') },
  'dcim.interfacesWithVid': { kind: 'filter', fn: interfacesWithVlan('vid') },
  'dcim.interfaceKind': { kind: 'filter', fn: interfaceKind },
} satisfies Record<string, DomainEntry>;
