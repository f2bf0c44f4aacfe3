import {
  linkedIds,
  type CreatedContext,
  type DomainEntry,
  type ManyToManyField,
  type ModelInfo,
} from '../../../runtime/plugin-api.js';

/**
 * The `netbox_dns` example plugin's own functions (its `models.yaml` names them): NetBox DNS's managed name
 * server records. A zone has an NS record at its apex (`@`) for each of its name servers, kept by the zone's
 * write hooks (`created` and `updated`). A name server added to the zone gets its record, a removed one loses
 * it; the records are written through the write path, so each is validated, change-logged and evented like a
 * client's write.
 */

const APEX = '@';

/** One NS record at a zone's apex as stored: its id, zone and value. */
interface ApexRecord {
  id: number;
  zone: number;
  value: string;
}

/** The records a set of zones should gain and lose: bodies to create, ids to delete. */
export interface RecordChanges {
  create: { zone: number; name: string; type: 'NS'; value: string }[];
  remove: number[];
}

/**
 * What brings the zones' apex NS records in line with their name servers: a record for each name server name
 * (in the zone's order) that has none, and the removal of each record whose value names no name server of its
 * zone (or that repeats one).
 */
export function nameServerRecordChanges(
  servers: ReadonlyMap<number, readonly string[]>,
  records: readonly ApexRecord[],
): RecordChanges {
  const changes: RecordChanges = { create: [], remove: [] };
  for (const [zone, names] of servers) {
    const kept = new Set<string>();
    for (const record of records.filter((r) => r.zone === zone)) {
      if (names.includes(record.value) && !kept.has(record.value)) kept.add(record.value);
      else changes.remove.push(record.id);
    }
    for (const value of new Set(names))
      if (!kept.has(value)) changes.create.push({ zone, name: APEX, type: 'NS', value });
  }
  return changes;
}

/** Brings the apex NS records of the written zones in line with their name servers. */
async function manageNameServerRecords(
  ctx: CreatedContext,
  zoneModel: ModelInfo,
  zones: readonly { id: number }[],
): Promise<void> {
  const ids = zones.map((zone) => zone.id);
  const field = zoneModel.fields.get('nameservers') as ManyToManyField;
  const linked = await linkedIds(ctx.q, field, ids);
  const serverModel = ctx.schema.model(field.target);
  const serverIds = [...new Set([...linked.values()].flat())];
  const names = new Map<number, string>();
  if (serverIds.length > 0) {
    const rows = (await ctx.q(serverModel.table).whereIn('id', serverIds).select('id', 'name')) as {
      id: number;
      name: string;
    }[];
    for (const row of rows) names.set(Number(row.id), row.name);
  }
  const servers = new Map(ids.map((id) => [id, (linked.get(id) ?? []).map((server) => names.get(server)!)]));

  const recordModel = ctx.schema.model('netbox_dns.record');
  const column = (name: string): string => recordModel.fields.get(name)!.column!;
  const rows = (await ctx
    .q(recordModel.table)
    .whereIn(column('zone'), ids)
    .where(column('type'), 'NS')
    .where(column('name'), APEX)
    .orderBy('id')
    .select('id', `${column('zone')} as zone`, `${column('value')} as value`)) as ApexRecord[];
  const records = rows.map((row) => ({ id: Number(row.id), zone: Number(row.zone), value: row.value }));

  const changes = nameServerRecordChanges(servers, records);
  await ctx.remove(recordModel, changes.remove);
  await ctx.create(recordModel, changes.create);
}

export const functions = {
  'netbox_dns.createNameServerRecords': { kind: 'created', fn: manageNameServerRecords },
  'netbox_dns.updateNameServerRecords': { kind: 'updated', fn: manageNameServerRecords },
} satisfies Record<string, DomainEntry>;
