import type { Knex } from 'knex';
import { lineage } from './extras.js';
import type { BatchContext, DomainEntry, FilterFunction } from './types.js';

/**
 * Which VLANs a site, site group, device or virtual machine may use (NetBox's VLANQuerySet.get_for_*), and
 * which VLANs an interface carries.
 */

type Row = Record<string, unknown>;
/** VLAN groups scoped to one of these objects of a type. */
type Scope = [type: string, ids: number[]];

const NO_CHOICE = 'Select a valid choice. That choice is not one of the available choices.';

/** The object a model choice filter names (its last value), or undefined when there is none. */
async function chosen(ctx: BatchContext, label: string, values: readonly string[], columns: string[]) {
  const value = values[values.length - 1]!.trim();
  if (!/^\d+$/.test(value)) return undefined;
  return (await ctx
    .q(ctx.schema.model(label).table)
    .where('id', Number(value))
    .first('id', ...columns)) as Row | undefined;
}

/** A node of a tree model and its ancestors. */
async function withAncestors(ctx: BatchContext, label: string, id: unknown): Promise<number[]> {
  if (id === null || id === undefined) return [];
  const row = (await ctx.q(ctx.schema.model(label).table).where('id', Number(id)).first('_path')) as Row | undefined;
  return lineage(row?._path);
}

async function siteScopes(ctx: BatchContext, siteId: unknown): Promise<{ scopes: Scope[]; site: number | null }> {
  if (siteId === null || siteId === undefined) return { scopes: [], site: null };
  const site = (await ctx
    .q(ctx.schema.model('dcim.site').table)
    .where('id', Number(siteId))
    .first('region_id', 'group_id')) as Row;
  return {
    site: Number(siteId),
    scopes: [
      ['dcim.site', [Number(siteId)]],
      ['dcim.region', await withAncestors(ctx, 'dcim.region', site.region_id)],
      ['dcim.sitegroup', await withAncestors(ctx, 'dcim.sitegroup', site.group_id)],
    ],
  };
}

/** VLANs of the groups scoped to one of the scopes, of the site, or global ones. */
function availableIn(
  ctx: BatchContext,
  scopes: readonly Scope[],
  site: number | null,
): (query: Knex.QueryBuilder) => void {
  const groups = ctx.schema.model('ipam.vlangroup').table;
  const scoped = (sub: Knex.QueryBuilder): void => {
    sub
      .select('g.id')
      .from({ g: groups })
      .where((w) => {
        w.whereRaw('1 = 0');
        for (const [type, ids] of scopes)
          if (ids.length) w.orWhere((x) => x.where('g.scope_type', type).whereIn('g.scope_id', ids));
      });
  };
  return (query) =>
    void query.where((w) => {
      w.whereIn('t0.group_id', scoped);
      if (site !== null) w.orWhere('t0.site_id', site);
      w.orWhere((x) =>
        x
          .whereNull('t0.site_id')
          .where((y) =>
            y
              .whereNull('t0.group_id')
              .orWhereIn('t0.group_id', (sub) => sub.select('g.id').from({ g: groups }).whereNull('g.scope_id')),
          ),
      );
    });
}

const availableAtSite: FilterFunction = async (ctx, _model, values) => {
  const site = await chosen(ctx, 'dcim.site', values, []);
  if (!site) return NO_CHOICE;
  const { scopes } = await siteScopes(ctx, site.id);
  return availableIn(ctx, scopes, Number(site.id));
};

const availableAtSiteGroup: FilterFunction = async (ctx, _model, values) => {
  const group = await chosen(ctx, 'dcim.sitegroup', values, ['_path']);
  if (!group) return NO_CHOICE;
  return availableIn(ctx, [['dcim.sitegroup', lineage(group._path)]], null);
};

/** The cluster and its group. */
async function clusterScopes(ctx: BatchContext, clusterId: unknown): Promise<{ scopes: Scope[]; cluster: Row | null }> {
  if (clusterId === null || clusterId === undefined) return { scopes: [], cluster: null };
  const cluster = (await ctx
    .q(ctx.schema.model('virtualization.cluster').table)
    .where('id', Number(clusterId))
    .first('id', 'group_id', 'scope_type', 'scope_id')) as Row;
  const scopes: Scope[] = [['virtualization.cluster', [Number(clusterId)]]];
  if (cluster.group_id !== null) scopes.push(['virtualization.clustergroup', [Number(cluster.group_id)]]);
  return { scopes, cluster };
}

const availableOnDevice: FilterFunction = async (ctx, _model, values) => {
  const device = await chosen(ctx, 'dcim.device', values, ['site_id', 'location_id', 'rack_id', 'cluster_id']);
  if (!device) return NO_CHOICE;
  const { scopes } = await clusterScopes(ctx, device.cluster_id);
  const site = await siteScopes(ctx, device.site_id);
  scopes.push(...site.scopes, ['dcim.location', await withAncestors(ctx, 'dcim.location', device.location_id)]);
  if (device.rack_id !== null) scopes.push(['dcim.rack', [Number(device.rack_id)]]);
  return availableIn(ctx, scopes, site.site);
};

const availableOnVirtualMachine: FilterFunction = async (ctx, _model, values) => {
  const vm = await chosen(ctx, 'virtualization.virtualmachine', values, ['site_id', 'cluster_id']);
  if (!vm) return NO_CHOICE;
  const { scopes, cluster } = await clusterScopes(ctx, vm.cluster_id);
  let siteId = vm.site_id as number | null;
  const scopeId = cluster?.scope_id;
  // The cluster's own scope counts too, and gives the VM its site when it has none.
  switch (cluster?.scope_type) {
    case 'dcim.location': {
      const location = (await ctx
        .q(ctx.schema.model('dcim.location').table)
        .where('id', Number(scopeId))
        .first('site_id')) as Row;
      siteId ??= Number(location.site_id);
      scopes.push(['dcim.location', await withAncestors(ctx, 'dcim.location', scopeId)]);
      break;
    }
    case 'dcim.site':
      siteId ??= Number(scopeId);
      scopes.push(['dcim.site', [Number(scopeId)]]);
      break;
    case 'dcim.sitegroup':
      scopes.push(['dcim.sitegroup', await withAncestors(ctx, 'dcim.sitegroup', scopeId)]);
      break;
    case 'dcim.region':
      scopes.push(['dcim.region', await withAncestors(ctx, 'dcim.region', scopeId)]);
      break;
  }
  const site = await siteScopes(ctx, siteId);
  return availableIn(ctx, [...scopes, ...site.scopes], site.site);
};

/** VLANs an interface carries untagged or tagged (`interface_id`, `vminterface_id`). */
function vlansOf(label: string): FilterFunction {
  return async (ctx, _model, values) => {
    const found = await chosen(ctx, label, values, ['untagged_vlan_id']);
    if (!found) return NO_CHOICE;
    const interfaces = ctx.schema.model(label);
    const tagged = interfaces.fields.get('tagged_vlans') as { through: string; fromColumn: string; toColumn: string };
    return (query) =>
      void query.where((w) =>
        w
          .where('t0.id', (found.untagged_vlan_id as number | null) ?? -1)
          .orWhereIn('t0.id', (sub) =>
            sub
              .select(`m.${tagged.toColumn}`)
              .from({ m: tagged.through })
              .where(`m.${tagged.fromColumn}`, Number(found.id)),
          ),
      );
  };
}

export const vlanFunctions = {
  'ipam.vlansAvailableAtSite': { kind: 'filter', fn: availableAtSite },
  'ipam.vlansAvailableAtSiteGroup': { kind: 'filter', fn: availableAtSiteGroup },
  'ipam.vlansAvailableOnDevice': { kind: 'filter', fn: availableOnDevice },
  'ipam.vlansAvailableOnVirtualMachine': { kind: 'filter', fn: availableOnVirtualMachine },
  'ipam.vlansOfInterface': { kind: 'filter', fn: vlansOf('dcim.interface') },
  'ipam.vlansOfVmInterface': { kind: 'filter', fn: vlansOf('virtualization.vminterface') },
} satisfies Record<string, DomainEntry>;
