import type { Knex } from 'knex';
import { relatedRow } from '../db/row-memo.js';
import type { Schema } from '../rest/schema.js';
import type { DomainEntry, FilterFunction, WriteItemContext } from './types.js';

/**
 * Interface behaviour shared by device interfaces (dcim) and virtual machine interfaces (virtualization):
 * NetBox's 802.1Q mode rules, VLAN placement, parent/bridge/LAG relations, MAC address form, and the
 * VLAN and kind filters.
 */

type Row = Record<string, unknown>;

const none = (v: unknown): boolean => v === null || v === undefined || v === '';

export const VIRTUAL_TYPES = new Set(['virtual', 'lag', 'bridge']);
export const WIRELESS_TYPES = new Set([
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

/** Reads one row by id (undefined when it does not exist). */
export async function rowOf(
  q: Knex,
  schema: Schema,
  label: string,
  id: unknown,
  columns: string[],
): Promise<Row | undefined> {
  if (none(id)) return undefined;
  const row = await relatedRow(q, schema.model(label).table, Number(id));
  return row && Object.fromEntries(columns.map((column) => [column, row[column]]));
}

/** `users (10)`: a VLAN as NetBox prints it. */
export function vlanText(row: Row): string {
  return `${String(row.name)} (${String(row.vid)})`;
}

/** `AA:BB:CC:DD:EE:FF` for any of the usual spellings of a 48-bit MAC address (null when it is not one). */
export function canonicalMac(value: string): string | null {
  const hex = value.replace(/[-:.\s]/g, '');
  if (!/^[0-9a-fA-F]{12}$/.test(hex)) return null;
  return hex.toUpperCase().match(/../g)!.join(':');
}

/** Ids of the VLANs an interface carries tagged (as written, or as stored when the write leaves them). */
async function taggedVlanIds(item: WriteItemContext): Promise<number[]> {
  if (Object.hasOwn(item.input, 'tagged_vlans')) return (item.values.tagged_vlans as number[] | undefined) ?? [];
  if (!item.existing) return [];
  const field = item.model.fields.get('tagged_vlans') as { through: string };
  const rows = (await item.q(field.through).where('from_id', item.id!).select('to_id')) as Row[];
  return rows.map((r) => Number(r.to_id));
}

/**
 * NetBox's interface serializer: the mode (as written, else as stored) must allow the untagged, tagged and
 * service VLANs (as written, else as stored). All three are reported together.
 */
export async function checkModeAllowsVlans(item: WriteItemContext): Promise<void> {
  const { values, errors } = item;
  const mode = values.mode as string | null;
  const tagged = await taggedVlanIds(item);
  if (mode !== 'q-in-q' && !none(values.qinq_svlan))
    errors.add('qinq_svlan', 'Interface mode does not support q-in-q service vlan');
  if (!mode) {
    if (!none(values.untagged_vlan)) errors.add('untagged_vlan', 'Interface mode does not support untagged vlan');
    if (tagged.length > 0) errors.add('tagged_vlans', 'Interface mode does not support tagged vlans');
  } else if ((mode === 'tagged-all' || mode === 'access') && tagged.length > 0) {
    errors.add('tagged_vlans', 'Interface mode does not support tagged vlans');
  }
}

/** The written tagged VLANs must be global or at the parent's site (`parent`: "device" or "virtual machine"). */
export async function checkTaggedVlanSites(item: WriteItemContext, site: unknown, parent: string): Promise<void> {
  if (!Object.hasOwn(item.input, 'tagged_vlans')) return;
  const ids = (item.values.tagged_vlans as number[] | undefined) ?? [];
  if (ids.length === 0) return;
  const rows = (await item
    .q(item.schema.model('ipam.vlan').table)
    .whereIn('id', ids)
    .select('id', 'name', 'vid', 'site_id')) as Row[];
  for (const id of ids) {
    const vlan = rows.find((r) => Number(r.id) === id);
    if (vlan && vlan.site_id !== null && Number(vlan.site_id) !== Number(site)) {
      item.errors.add(
        'tagged_vlans',
        `VLAN ${vlanText(vlan)} must belong to the same site as the interface's parent ${parent}, or it must be global.`,
      );
      return;
    }
  }
}

/**
 * Save-time rules of both interface kinds: no mode, no untagged VLAN; only
 * tagged interfaces keep tagged VLANs on update (unless the write names them, as DRF sets them after saving).
 */
/** The frequency or width (MHz) of a wireless channel value, `<band>-<channel>-<frequency>-<width>`. */
export function channelAttribute(channel: string, attribute: 'frequency' | 'width'): number {
  const parts = channel.split('-');
  return Number(parts[attribute === 'frequency' ? 2 : 3]);
}

export function prepareInterface(item: WriteItemContext): void {
  const { values } = item;
  // A channel sets the frequency and width that are not given (NetBox's Interface.save).
  const channel = typeof values.rf_channel === 'string' && values.rf_channel ? values.rf_channel : null;
  if (channel && (values.rf_channel_frequency === null || values.rf_channel_frequency === undefined))
    values.rf_channel_frequency = channelAttribute(channel, 'frequency');
  if (channel && (values.rf_channel_width === null || values.rf_channel_width === undefined))
    values.rf_channel_width = channelAttribute(channel, 'width');
  const mode = values.mode as string | null;
  if (!mode) values.untagged_vlan = null;
  if (mode !== 'tagged' && item.existing && !Object.hasOwn(item.input, 'tagged_vlans')) {
    values.tagged_vlans = [];
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
    const ids = vlanIds.length ? vlanIds : [-1];
    const tagged = model.fields.get('tagged_vlans') as { through: string };
    return (query) => {
      query.where((w) => {
        w.whereIn('t0.untagged_vlan_id', ids)
          .orWhereIn('t0.qinq_svlan_id', ids)
          .orWhereIn('t0.id', function taggedWith() {
            this.select('m.from_id').from({ m: tagged.through }).whereIn('m.to_id', ids);
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

/** Interface functions shared by dcim and virtualization, registered under the dcim names YAML uses. */
export const interfaceFunctions = {
  'dcim.prepareInterface': { kind: 'prepare', fn: prepareInterface },
  'dcim.interfacesWithVlanId': { kind: 'filter', fn: interfacesWithVlan('id') },
  'dcim.interfacesWithVid': { kind: 'filter', fn: interfacesWithVlan('vid') },
  'dcim.interfaceKind': { kind: 'filter', fn: interfaceKind },
} satisfies Record<string, DomainEntry>;
