import type { Knex } from 'knex';
import type { ModelInfo, Schema } from '../rest/schema.js';
import { checkPrimaryIps } from './dcim.js';
import { checkTaggedVlanSites, rowOf } from './interfaces.js';
import type { BatchContext, DomainEntry, WriteItemContext, WrittenFunction } from './types.js';

/**
 * Virtualization behaviour that YAML cannot declare: allocations, primary addresses, tagged VLANs of VM interfaces,
 * a virtual machine's disk as the total of its virtual disks.
 */

type Row = Record<string, unknown>;

/** The sum of a column over each cluster's virtual machines (null when none set it). */
function allocated(column: string) {
  return async (ctx: BatchContext, _model: ModelInfo, ids: readonly number[]): Promise<Map<number, unknown>> => {
    const vms = ctx.schema.model('virtualization.virtualmachine');
    const rows = (await ctx
      .q(vms.table)
      .whereIn('cluster_id', [...ids])
      .groupBy('cluster_id')
      .select('cluster_id')
      .sum({ total: column })) as Row[];
    return new Map(rows.map((r) => [Number(r.cluster_id), r.total === null ? null : Number(r.total)]));
  };
}

/** A VM's primary addresses are IPv4/IPv6 as named and on its own interfaces (the declared rules come first). */
export async function checkVirtualMachinePrimaryIps(item: WriteItemContext): Promise<void> {
  await checkPrimaryIps(
    item,
    'virtualization.vminterface',
    'virtual_machine_id',
    (version, address) => `Must be an IPv${version} address. (${address} is an IPv${10 - version} address.)`,
    (address) => `The specified IP address (${address}) is not assigned to this VM.`,
  );
}

/**
 * NetBox's VM interface serializer check (no 802.1Q mode checks there, unlike device interfaces): the written
 * tagged VLANs are global or at the VM's site. The model's declared rules follow.
 */
export async function checkVmInterfaceVlans(item: WriteItemContext): Promise<void> {
  const vm = await rowOf(item.q, item.schema, 'virtualization.virtualmachine', item.values.virtual_machine, [
    'site_id',
  ]);
  await checkTaggedVlanSites(item, vm?.site_id, 'virtual machine');
}

/** The total size of each virtual machine's virtual disks (machines without disks are left out). */
async function diskTotals(q: Knex, schema: Schema, vmIds: readonly number[]): Promise<Map<number, number>> {
  const disks = schema.model('virtualization.virtualdisk');
  const rows = (await q(disks.table)
    .whereIn('virtual_machine_id', [...vmIds])
    .groupBy('virtual_machine_id')
    .select('virtual_machine_id')
    .sum({ total: 'size' })) as Row[];
  return new Map(rows.map((r) => [Number(r.virtual_machine_id), Number(r.total)]));
}

/**
 * NetBox's VirtualMachine.clean() on an existing machine with virtual disks: a machine without a disk size takes
 * their total; another size than their total is refused.
 */
export async function checkVirtualMachineDisk(item: WriteItemContext): Promise<void> {
  if (item.id === null) return;
  const total = (await diskTotals(item.q, item.schema, [item.id])).get(item.id);
  if (!total) return;
  const disk = item.values.disk;
  if (disk === null || disk === undefined) item.values.disk = total;
  else if (Number(disk) !== total)
    item.errors.add(
      'disk',
      `The specified disk size (${String(disk)}) must match the aggregate size of assigned virtual disks (${total}).`,
    );
}

/**
 * NetBox's update_virtualmachine_disk signal: after virtual disks are written or deleted, each of their machines'
 * disk is the total of its disks (null when it has none left), stored without a change record.
 */
export const sumVirtualDisks: WrittenFunction = async (ctx, _model, written) => {
  const vmIds = [...new Set(written.map((w) => Number(w.values.virtual_machine)))].sort((a, b) => a - b);
  const totals = await diskTotals(ctx.q, ctx.schema, vmIds);
  const vms = ctx.schema.model('virtualization.virtualmachine');
  for (const id of vmIds)
    await ctx
      .q(vms.table)
      .where('id', id)
      .update({ disk: totals.get(id) ?? null });
};

/** The virtualization app's domain functions, by the names YAML uses. */
export const virtualizationFunctions = {
  'virtualization.allocatedVcpus': { kind: 'compute', fn: allocated('vcpus') },
  'virtualization.allocatedMemory': { kind: 'compute', fn: allocated('memory') },
  'virtualization.allocatedDisk': { kind: 'compute', fn: allocated('disk') },
  'virtualization.checkVirtualMachinePrimaryIps': { kind: 'validator', fn: checkVirtualMachinePrimaryIps, batch: true },
  'virtualization.checkVmInterfaceVlans': { kind: 'validator', fn: checkVmInterfaceVlans, batch: true },
  'virtualization.checkVirtualMachineDisk': { kind: 'validator', fn: checkVirtualMachineDisk, batch: true },
  'virtualization.sumVirtualDisks': { kind: 'written', fn: sumVirtualDisks },
} satisfies Record<string, DomainEntry>;
