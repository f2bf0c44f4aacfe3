import type { ModelInfo } from '../rest/schema.js';
import { checkPrimaryIps } from './dcim.js';
import { checkTaggedVlanSites, rowOf } from './interfaces.js';
import type { BatchContext, DomainEntry, WriteItemContext } from './types.js';

/** Virtualization behaviour that YAML cannot declare: allocations, primary addresses, tagged VLANs of VM interfaces. */

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

/** The virtualization app's domain functions, by the names YAML uses. */
export const virtualizationFunctions = {
  'virtualization.allocatedVcpus': { kind: 'compute', fn: allocated('vcpus') },
  'virtualization.allocatedMemory': { kind: 'compute', fn: allocated('memory') },
  'virtualization.allocatedDisk': { kind: 'compute', fn: allocated('disk') },
  'virtualization.checkVirtualMachinePrimaryIps': { kind: 'validator', fn: checkVirtualMachinePrimaryIps, batch: true },
  'virtualization.checkVmInterfaceVlans': { kind: 'validator', fn: checkVmInterfaceVlans, batch: true },
} satisfies Record<string, DomainEntry>;
