import type { BatchContext, DomainEntry, WriteItemContext } from './types.js';
import type { ModelInfo } from '../rest/schema.js';

/** Virtualization behaviour that YAML cannot declare: allocations, where a VM may run. */

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

/** A VM without a site takes its cluster's site (the cached scope site of the cluster). */
export async function prepareVirtualMachine(item: WriteItemContext): Promise<void> {
  const { values } = item;
  if ((values.site === null || values.site === undefined) && values.cluster !== null && values.cluster !== undefined) {
    const cluster = (await item
      .q(item.schema.model('virtualization.cluster').table)
      .where('id', values.cluster as number)
      .first('_site_id')) as Row | undefined;
    if (cluster?._site_id !== null && cluster?._site_id !== undefined) values.site = Number(cluster._site_id);
  }
}

/** A VM runs somewhere: its cluster and host device agree with its site. */
export async function validateVirtualMachine(item: WriteItemContext): Promise<void> {
  const { values, errors, q, schema } = item;
  const { site, cluster, device } = values;
  const none = (v: unknown): boolean => v === null || v === undefined;
  if (none(site) && none(cluster) && none(device)) {
    errors.add('__all__', 'A virtual machine must be assigned to a site, cluster, or device.');
    return;
  }
  const nameOf = async (label: string, id: unknown): Promise<string> => {
    const row = (await q(schema.model(label).table)
      .where('id', id as number)
      .first('name')) as Row | undefined;
    return String(row?.name ?? id);
  };
  if (!none(cluster) && !none(site)) {
    const row = (await q(schema.model('virtualization.cluster').table)
      .where('id', cluster as number)
      .first('_site_id')) as Row | undefined;
    if (row && row._site_id !== null && Number(row._site_id) !== Number(site)) {
      errors.add(
        'cluster',
        `The selected cluster (${await nameOf('virtualization.cluster', cluster)}) is not assigned to this site (${await nameOf('dcim.site', site)}).`,
      );
    }
  }
  if (!none(device)) {
    const row = (await q(schema.model('dcim.device').table)
      .where('id', device as number)
      .first('site_id', 'cluster_id')) as Row | undefined;
    if (row && !none(site) && Number(row.site_id) !== Number(site)) {
      errors.add(
        'site',
        `The selected device (${await nameOf('dcim.device', device)}) is not assigned to this site (${await nameOf('dcim.site', site)}).`,
      );
    }
    if (row && !none(cluster) && row.cluster_id !== null && Number(row.cluster_id) !== Number(cluster)) {
      errors.add(
        'device',
        `The selected device (${await nameOf('dcim.device', device)}) is not assigned to this cluster (${await nameOf('virtualization.cluster', cluster)}).`,
      );
    }
  }
}

/** A VM interface's tagged VLANs need a tagged mode; parent and bridge belong to the same VM. */
export async function validateVmInterface(item: WriteItemContext): Promise<void> {
  const { values, errors } = item;
  const mode = values.mode as string | null;
  if (mode !== 'q-in-q' && values.qinq_svlan !== null && values.qinq_svlan !== undefined) {
    errors.add('qinq_svlan', 'Only Q-in-Q interfaces may specify a service VLAN.');
  }
  for (const field of ['parent', 'bridge'] as const) {
    const other = values[field];
    if (other === null || other === undefined) continue;
    if (item.existing && Number(other) === item.id) {
      errors.add(field, `An interface cannot be its own ${field}.`);
      continue;
    }
    const row = (await item
      .q(item.model.table)
      .where('id', other as number)
      .first('virtual_machine_id')) as Row | undefined;
    if (row && Number(row.virtual_machine_id) !== Number(values.virtual_machine)) {
      errors.add(field, `The selected ${field} interface (${String(other)}) belongs to a different virtual machine.`);
    }
  }
  if (item.existing && Number(item.existing.virtual_machine) !== Number(values.virtual_machine)) {
    errors.add('virtual_machine', 'Components cannot be moved to a different virtual machine.');
  }
}

/** The virtualization app's domain functions, by the names YAML uses. */
export const virtualizationFunctions = {
  'virtualization.allocatedVcpus': { kind: 'compute', fn: allocated('vcpus') },
  'virtualization.allocatedMemory': { kind: 'compute', fn: allocated('memory') },
  'virtualization.allocatedDisk': { kind: 'compute', fn: allocated('disk') },
  'virtualization.prepareVirtualMachine': { kind: 'prepare', fn: prepareVirtualMachine },
  'virtualization.validateVirtualMachine': { kind: 'validator', fn: validateVirtualMachine },
  'virtualization.validateVmInterface': { kind: 'validator', fn: validateVmInterface },
} satisfies Record<string, DomainEntry>;
