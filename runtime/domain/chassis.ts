import type { Knex } from 'knex';
import type { ModelInfo } from '../rest/schema.js';
import type {
  BatchContext,
  ComputeFunction,
  CreatedFunction,
  DomainEntry,
  FilterFunction,
  ValidatorFunction,
  WriteItemContext,
} from './types.js';

/**
 * Virtual chassis: devices that share one control plane. NetBox's rules that reach across the chassis and its
 * members: a new chassis takes its master in as member 1, a master cannot leave its chassis, and a member's
 * interface list (`vc_interfaces`) includes the other members' interfaces that are not management-only.
 */

type Row = Record<string, unknown>;

/**
 * Whether an interface is one of a device's `vc_interfaces(if_master=False)`: its own, or, when the device is in
 * a virtual chassis (`chassis`), one of another member's that is not management-only.
 */
export async function isVcInterface(
  item: Pick<WriteItemContext, 'q' | 'schema'>,
  device: unknown,
  chassis: unknown,
  interfaceId: number,
): Promise<boolean> {
  const interfaces = item.schema.model('dcim.interface').table;
  const devices = item.schema.model('dcim.device').table;
  const row = (await item
    .q({ i: interfaces })
    .join({ d: devices }, 'd.id', 'i.device_id')
    .where('i.id', interfaceId)
    .first('i.device_id', 'i.mgmt_only', 'd.virtual_chassis_id')) as Row | undefined;
  if (!row) return false;
  if (Number(row.device_id) === Number(device)) return true;
  const mgmtOnly = row.mgmt_only === true || row.mgmt_only === 1;
  return chassis !== null && chassis !== undefined && !mgmtOnly && Number(row.virtual_chassis_id) === Number(chassis);
}

/** NetBox's `assign_virtualchassis_master` signal: a chassis created with a master makes it member 1. */
const assignVirtualChassisMaster: CreatedFunction = async (ctx, _model, created) => {
  const device = ctx.schema.model('dcim.device');
  const updates = created
    .filter(({ values }) => values.master !== null && values.master !== undefined)
    .map(({ id, values }) => ({ id: Number(values.master), input: { virtual_chassis: id, vc_position: 1 } }));
  if (updates.length > 0) await ctx.update(device, updates);
};

/** Each chassis's member devices, nested, in the devices' own order. */
const virtualChassisMembers: ComputeFunction = async (ctx, _model, ids) => {
  const device = ctx.schema.model('dcim.device');
  const rows = (await ctx
    .q(device.table)
    .whereIn('virtual_chassis_id', [...ids])
    .select('id', 'virtual_chassis_id')) as Row[];
  const nested = await ctx.load!(
    'dcim.device',
    device.spec.nested,
    rows.map((r) => Number(r.id)),
  );
  const chassisOf = new Map(rows.map((r) => [Number(r.id), Number(r.virtual_chassis_id)]));
  const result = new Map<number, unknown>(ids.map((id) => [id, [] as unknown[]]));
  for (const object of nested) (result.get(chassisOf.get(Number(object.id))!) as unknown[]).push(object);
  return result;
};

/**
 * NetBox's Device.clean(): the master of a chassis cannot be removed from it. A master is a member of its chassis
 * (the chassis's own rule), so a device that stays where it was needs no look.
 */
const checkVirtualChassisMaster: ValidatorFunction = async (item) => {
  if (item.id === null || (item.existing?.virtual_chassis ?? null) === (item.values.virtual_chassis ?? null)) return;
  const chassis = item.schema.model('dcim.virtualchassis');
  const row = (await item.q(chassis.table).where('master_id', item.id).first('id', 'name')) as Row | undefined;
  if (row && Number(row.id) !== Number(item.values.virtual_chassis ?? -1)) {
    item.errors.add(
      'virtual_chassis',
      `Device cannot be removed from virtual chassis ${String(row.name)} because it is currently designated as its master.`,
    );
  }
};

/**
 * NetBox's `vc_interfaces` as an interface filter: the interfaces of the devices named (by `by`), and, for
 * a device in a virtual chassis, every interface of the chassis's members that is not management-only — for
 * any member (`masterOnly` false) or only when the device is the chassis's master.
 */
function vcInterfaces(by: 'id' | 'name', masterOnly: boolean): FilterFunction {
  return async (ctx, model, values) => {
    if (by === 'id' && values.some((v) => !/^-?\d+$/.test(v.trim()))) return 'Enter a number.';
    const keys = by === 'id' ? values.map((v) => Number(v)) : [...values];
    return vcInterfacesWhere(ctx, model, by, keys, masterOnly);
  };
}

/**
 * The condition on interfaces (alias `t0`) of `vcInterfaces`: the interfaces of the devices whose `by` is one
 * of `keys`, with their chassis members' interfaces as described there.
 */
export function vcInterfacesWhere(
  ctx: BatchContext,
  model: ModelInfo,
  by: 'id' | 'name',
  keys: readonly (string | number)[],
  masterOnly: boolean,
): (query: Knex.QueryBuilder) => void {
  const devices = ctx.schema.model('dcim.device').table;
  const chassis = ctx.schema.model('dcim.virtualchassis').table;
  const device = model.fields.get('device')!.column!;
  const named = (sub: Knex.QueryBuilder): void => void sub.select('d.id').from({ d: devices }).whereIn(`d.${by}`, keys);
  const chassisOfNamed = (sub: Knex.QueryBuilder): void => {
    sub
      .select('d.virtual_chassis_id')
      .from({ d: devices })
      .whereIn(`d.${by}`, keys)
      .whereNotNull('d.virtual_chassis_id');
    if (masterOnly)
      sub.whereExists((m) =>
        m
          .select('c.id')
          .from({ c: chassis })
          .whereRaw('?? = ??', ['c.id', 'd.virtual_chassis_id'])
          .whereRaw('?? = ??', ['c.master_id', 'd.id']),
      );
  };
  return (query) => {
    query.where((w) => {
      w.whereIn(`t0.${device}`, named).orWhere((vc) =>
        vc
          .where('t0.mgmt_only', false)
          .whereIn(`t0.${device}`, (sub) =>
            sub.select('m.id').from({ m: devices }).whereIn('m.virtual_chassis_id', chassisOfNamed),
          ),
      );
    });
  };
}

export const chassisFunctions = {
  'dcim.assignVirtualChassisMaster': { kind: 'created', fn: assignVirtualChassisMaster },
  'dcim.virtualChassisMembers': { kind: 'compute', fn: virtualChassisMembers },
  'dcim.checkVirtualChassisMaster': { kind: 'validator', fn: checkVirtualChassisMaster, batch: true },
  'dcim.vcMemberInterfaces': { kind: 'filter', fn: vcInterfaces('name', false) },
  'dcim.vcMemberInterfacesById': { kind: 'filter', fn: vcInterfaces('id', false) },
  'dcim.vcMasterInterfaces': { kind: 'filter', fn: vcInterfaces('name', true) },
  'dcim.vcMasterInterfacesById': { kind: 'filter', fn: vcInterfaces('id', true) },
} satisfies Record<string, DomainEntry>;
