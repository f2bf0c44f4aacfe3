import type { ForeignKeyField } from '../spec.js';
import type { WriteItemContext } from './types.js';

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
