import type { ModelInfo } from '../rest/schema.js';
import { checkPrimaryIps, deviceText } from './dcim.js';
import { validateLocalContextData } from './extras.js';
import { checkTaggedVlanSites, checkUntaggedVlanSite, interfaceText, rowOf } from './interfaces.js';
import type { BatchContext, DomainEntry, WriteItemContext } from './types.js';

/** Virtualization behaviour that YAML cannot declare: allocations, where a VM may run, VM interface rules. */

type Row = Record<string, unknown>;

const none = (v: unknown): boolean => v === null || v === undefined;

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

/** A VM without a site takes its cluster's site (the cluster's cached scope site), else its host's site. */
export async function prepareVirtualMachine(item: WriteItemContext): Promise<void> {
  const { values } = item;
  if (!none(values.site)) return;
  const cluster = await rowOf(item.q, item.schema, 'virtualization.cluster', values.cluster, ['_site_id']);
  if (cluster && !none(cluster._site_id)) {
    values.site = Number(cluster._site_id);
    return;
  }
  const device = await rowOf(item.q, item.schema, 'dcim.device', values.device, ['site_id']);
  if (device && !none(device.site_id)) values.site = Number(device.site_id);
}

/** NetBox's virtual machine rules, in its order: it runs somewhere, and its cluster, host and site agree. */
export async function validateVirtualMachine(item: WriteItemContext): Promise<void> {
  validateLocalContextData(item);
  if (item.errors.has()) return;
  const { values, errors } = item;
  const { site, cluster, device } = values;
  if (none(site) && none(cluster) && none(device))
    return errors.add('__all__', 'A virtual machine must be assigned to a site, cluster, or device.');
  const nameOf = async (label: string, id: unknown): Promise<string> =>
    String((await rowOf(item.q, item.schema, label, id, ['name']))?.name ?? id);
  const clusterRow = await rowOf(item.q, item.schema, 'virtualization.cluster', cluster, ['name', '_site_id']);
  if (clusterRow && !none(site) && !none(clusterRow._site_id) && Number(clusterRow._site_id) !== Number(site)) {
    return errors.add(
      'cluster',
      `The selected cluster (${String(clusterRow.name)}) is not assigned to this site (${await nameOf('dcim.site', site)}).`,
    );
  }
  const host = await rowOf(item.q, item.schema, 'dcim.device', device, ['name', 'site_id', 'cluster_id']);
  const hostName = host ? await deviceText(item, device) : '';
  if (host && !none(site) && Number(host.site_id) !== Number(site)) {
    return errors.add(
      'site',
      `The selected device (${hostName}) is not assigned to this site (${await nameOf('dcim.site', site)}).`,
    );
  }
  if (host && none(cluster) && !none(host.cluster_id)) {
    return errors.add(
      'cluster',
      `Must specify the assigned device's cluster (${await nameOf('virtualization.cluster', host.cluster_id)}) when assigning host device ${hostName}.`,
    );
  }
  if (host && clusterRow && Number(host.cluster_id ?? -1) !== Number(cluster)) {
    return errors.add(
      'device',
      `The selected device (${hostName}) is not assigned to this cluster (${String(clusterRow.name)}).`,
    );
  }
  await checkPrimaryIps(
    item,
    'virtualization.vminterface',
    'virtual_machine_id',
    (version, address) => `Must be an IPv${version} address. (${address} is an IPv${10 - version} address.)`,
    (address) => `The specified IP address (${address}) is not assigned to this VM.`,
  );
}

/**
 * NetBox's VM interface rules (no 802.1Q mode checks in its serializer, unlike device interfaces): tagged
 * VLANs at the VM's site or global, a service VLAN only in Q-in-Q mode, parent and bridge on the same VM,
 * the untagged VLAN at the VM's site or global.
 */
export async function validateVmInterface(item: WriteItemContext): Promise<void> {
  const { values, errors } = item;
  const vm = await rowOf(item.q, item.schema, 'virtualization.virtualmachine', values.virtual_machine, ['site_id']);
  await checkTaggedVlanSites(item, vm?.site_id, 'virtual machine');
  if (errors.has()) return;
  if (values.mode !== 'q-in-q' && !none(values.qinq_svlan))
    return errors.add('qinq_svlan', 'Only Q-in-Q interfaces may specify a service VLAN.');
  for (const [field, self] of [
    ['parent', 'An interface cannot be its own parent.'],
    ['bridge', 'An interface cannot be bridged to itself.'],
  ] as const) {
    if (item.id !== null && Number(values[field]) === item.id) return errors.add(field, self);
    const other = await rowOf(item.q, item.schema, item.model.label, values[field], ['name', 'virtual_machine_id']);
    if (other && Number(other.virtual_machine_id) !== Number(values.virtual_machine)) {
      const owner = await rowOf(item.q, item.schema, 'virtualization.virtualmachine', other.virtual_machine_id, [
        'name',
      ]);
      return errors.add(
        field,
        `The selected ${field} interface (${interfaceText(other)}) belongs to a different virtual machine (${String(owner?.name)}).`,
      );
    }
  }
  await checkUntaggedVlanSite(item, vm?.site_id, 'virtual machine');
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
