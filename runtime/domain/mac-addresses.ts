import type { Knex } from 'knex';
import { escapeLike, ilike, regexMatch } from '../db/sql.js';
import type { ModelInfo } from '../rest/schema.js';
import { vcInterfacesWhere } from './chassis.js';
import { wholeNumbers } from './ipam-filters.js';
import { canonicalMac, rowOf } from './interfaces.js';
import type {
  BatchContext,
  ComputeFunction,
  DeriveFunction,
  DomainEntry,
  FilterFunction,
  PrepareFunction,
  ValidatorFunction,
} from './types.js';

/**
 * MAC addresses (NetBox 4.2+): objects assigned to device or VM interfaces; an interface's primary MAC address
 * is one of them, and its `mac_address` is the primary's. Filters by MAC address on the addresses, the
 * interfaces that have them, and the devices and virtual machines of those interfaces.
 */

type Row = Record<string, unknown>;

const MAC_MODEL = 'dcim.macaddress';

/** The address in NetBox's form (`AA:BB:CC:DD:EE:FF`), whatever spelling was written. */
const prepareMacAddress: PrepareFunction = (item) => {
  const value = item.values.mac_address;
  if (typeof value === 'string') item.values.mac_address = canonicalMac(value) ?? value;
};

/**
 * NetBox's MACAddress.clean(): while the address is the primary MAC address of the object it was assigned
 * to, it can be neither unassigned nor assigned elsewhere.
 */
const checkPrimaryMacReassignment: ValidatorFunction = async (item) => {
  const { existing, values } = item;
  if (!existing || item.id === null) return;
  const type = existing.assigned_object_type as string | null;
  const id = existing.assigned_object_id as number | null;
  if (!type || id === null) return;
  const original = await rowOf(item.q, item.schema, type, id, ['primary_mac_address_id']);
  if (!original || Number(original.primary_mac_address_id) !== item.id) return;
  if (values.assigned_object_type === null || values.assigned_object_id === null) {
    item.errors.add(
      'non_field_errors',
      'Cannot unassign MAC Address while it is designated as the primary MAC for an object',
    );
  } else if (values.assigned_object_type !== type || Number(values.assigned_object_id) !== Number(id)) {
    item.errors.add(
      'non_field_errors',
      'Cannot reassign MAC Address while it is designated as the primary MAC for an object',
    );
  }
};

/** An interface's `mac_address`: its primary MAC address's address (null without one). */
const primaryMacAddressValue: DeriveFunction = (values) => values['primary_mac_address.mac_address'] ?? null;

/** The MAC addresses assigned to each interface of a page (of either interface model), nested, in order. */
const assignedMacAddresses: ComputeFunction = async (ctx, model, ids) => {
  const macs = ctx.schema.model(MAC_MODEL);
  const rows = (await ctx
    .q(macs.table)
    .where('assigned_object_type', model.label)
    .whereIn('assigned_object_id', [...ids])
    .orderBy([{ column: 'mac_address' }, { column: 'id' }])
    .select('id', 'assigned_object_id')) as Row[];
  const nested = await ctx.load!(
    MAC_MODEL,
    macs.spec.nested,
    rows.map((r) => Number(r.id)),
  );
  const byId = new Map(nested.map((object) => [Number(object.id), object]));
  const result = new Map<number, unknown>(ids.map((id) => [id, [] as unknown[]]));
  for (const row of rows) {
    const object = byId.get(Number(row.id));
    if (object) (result.get(Number(row.assigned_object_id)) as unknown[] | undefined)?.push(object);
  }
  return result;
};

/** How a `mac_address` filter matches a column, or an error message. */
function macMatcher(
  ctx: BatchContext,
  values: readonly string[],
  base: string,
): ((column: string) => (query: Knex.QueryBuilder) => void) | string {
  if (base === '') {
    const macs = values.map((v) => canonicalMac(v.trim()));
    if (macs.some((m) => m === null)) return 'Enter a valid MAC address.';
    return (column) => (query) => void query.whereIn(column, macs as string[]);
  }
  if (base === 'regex' || base === 'iregex') {
    for (const value of values) {
      try {
        new RegExp(value);
      } catch {
        return `Invalid regular expression: ${value}`;
      }
    }
    // PostgreSQL shows a `macaddr` in lower case: NetBox's regex lookups see that text.
    const sql = regexMatch(ctx.dialect, 'lower(??)', base === 'iregex');
    return (column) => (query) => void query.where((w) => values.forEach((v) => w.orWhereRaw(sql, [column, v])));
  }
  const pattern = (v: string): string =>
    base === 'ic'
      ? `%${escapeLike(v)}%`
      : base === 'isw'
        ? `${escapeLike(v)}%`
        : base === 'iew'
          ? `%${escapeLike(v)}`
          : escapeLike(v);
  return (column) => (query) =>
    void query.where((w) => values.forEach((v) => w.orWhereRaw(ilike(ctx.dialect, '??'), [column, pattern(v)])));
}

/** Ids of the objects of `interfaces` (an interface model) that have a MAC address matching. */
function interfacesHaving(
  ctx: BatchContext,
  interfaces: string,
  matches: (column: string) => (query: Knex.QueryBuilder) => void,
): (sub: Knex.QueryBuilder) => void {
  const macs = ctx.schema.model(MAC_MODEL);
  return (sub) =>
    void sub
      .select('m.assigned_object_id')
      .from({ m: macs.table })
      .where('m.assigned_object_type', interfaces)
      .whereNotNull('m.assigned_object_id')
      .where(matches('m.mac_address'));
}

/**
 * `mac_address` filters (exact: any spelling of the address; text lookups on its stored form; `n…` negates):
 * on the address itself (`scope` 'own'), on interfaces that have a matching MAC address ('assigned'), or on
 * the objects whose interfaces have one (`owner`: the interface model and its FK to the object).
 */
function macAddressFilter(scope: 'own' | 'assigned' | { interfaces: string; field: string }): FilterFunction {
  return async (ctx, model, values, lookup) => {
    const negated = lookup.startsWith('n');
    const matches = macMatcher(ctx, values, negated ? lookup.slice(1) : lookup);
    if (typeof matches === 'string') return matches;
    let positive: (query: Knex.QueryBuilder) => void;
    if (scope === 'own') positive = matches('t0.mac_address');
    else if (scope === 'assigned')
      positive = (query) => void query.whereIn('t0.id', interfacesHaving(ctx, model.label, matches));
    else {
      const interfaces = ctx.schema.model(scope.interfaces);
      const column = interfaces.fields.get(scope.field)!.column!;
      positive = (query) =>
        void query.whereIn('t0.id', (sub) =>
          sub
            .select(`i.${column}`)
            .from({ i: interfaces.table })
            .whereIn('i.id', interfacesHaving(ctx, scope.interfaces, matches)),
        );
    }
    return negated ? (query) => void query.whereNot(positive) : positive;
  };
}

/** MAC addresses of devices' interfaces (by id or name), a chassis master's members' included (NetBox's vc_interfaces). */
function ofDevices(by: 'id' | 'name'): FilterFunction {
  return async (ctx, _model, values) => {
    const keys = by === 'id' ? wholeNumbers(values) : [...values];
    if (typeof keys === 'string') return keys;
    const interfaces = ctx.schema.model('dcim.interface');
    const where = vcInterfacesWhere(ctx, interfaces, by, keys, true);
    return (query) =>
      void query
        .where('t0.assigned_object_type', interfaces.label)
        .whereIn('t0.assigned_object_id', (sub) => void where(sub.select('t0.id').from({ t0: interfaces.table })));
  };
}

/** MAC addresses of virtual machines' interfaces (by id or name). */
function ofVirtualMachines(by: 'id' | 'name'): FilterFunction {
  return async (ctx, _model, values) => {
    const keys = by === 'id' ? wholeNumbers(values) : [...values];
    if (typeof keys === 'string') return keys;
    const interfaces = ctx.schema.model('virtualization.vminterface');
    const vms = ctx.schema.model('virtualization.virtualmachine');
    const column = interfaces.fields.get('virtual_machine')!.column!;
    return (query) =>
      void query.where('t0.assigned_object_type', interfaces.label).whereIn('t0.assigned_object_id', (sub) =>
        sub
          .select('i.id')
          .from({ i: interfaces.table })
          .whereIn(`i.${column}`, (v) => v.select('v.id').from({ v: vms.table }).whereIn(`v.${by}`, keys)),
      );
  };
}

/** `primary=true|false`: the address is (not) some interface's primary MAC address. */
const primaryMacAddresses: FilterFunction = async (_ctx, model, values) => {
  const flag = values[0]!.trim().toLowerCase();
  if (!['true', 'false', '1', '0'].includes(flag))
    return `Select a valid choice. ${values[0]} is not one of the available choices.`;
  const linking = primaryLinks(model);
  const primary = (query: Knex.QueryBuilder): void =>
    void query.where((w) => {
      for (const link of linking)
        w.orWhereIn('t0.id', (sub) => sub.select(link.column).from(link.table).whereNotNull(link.column));
    });
  return flag === 'true' || flag === '1' ? primary : (query) => void query.whereNot(primary);
};

/** The FKs that make an address some object's primary one (the links of the model's moved columns). */
function primaryLinks(model: ModelInfo): { table: string; column: string }[] {
  return (model.spec.movedFrom ?? []).map((moved) => ({ table: moved.table, column: moved.link }));
}

export const macAddressFunctions = {
  'dcim.prepareMacAddress': { kind: 'prepare', fn: prepareMacAddress },
  'dcim.checkPrimaryMacReassignment': { kind: 'validator', fn: checkPrimaryMacReassignment, batch: true },
  'dcim.primaryMacAddressValue': { kind: 'derive', fn: primaryMacAddressValue },
  'dcim.assignedMacAddresses': { kind: 'compute', fn: assignedMacAddresses },
  'dcim.macAddressesWithMac': { kind: 'filter', fn: macAddressFilter('own') },
  'dcim.interfacesWithMac': { kind: 'filter', fn: macAddressFilter('assigned') },
  'dcim.devicesWithMac': { kind: 'filter', fn: macAddressFilter({ interfaces: 'dcim.interface', field: 'device' }) },
  'virtualization.virtualMachinesWithMac': {
    kind: 'filter',
    fn: macAddressFilter({ interfaces: 'virtualization.vminterface', field: 'virtual_machine' }),
  },
  'dcim.macAddressesOfDevice': { kind: 'filter', fn: ofDevices('id') },
  'dcim.macAddressesOfDeviceName': { kind: 'filter', fn: ofDevices('name') },
  'dcim.macAddressesOfVirtualMachine': { kind: 'filter', fn: ofVirtualMachines('id') },
  'dcim.macAddressesOfVirtualMachineName': { kind: 'filter', fn: ofVirtualMachines('name') },
  'dcim.primaryMacAddresses': { kind: 'filter', fn: primaryMacAddresses },
} satisfies Record<string, DomainEntry>;
