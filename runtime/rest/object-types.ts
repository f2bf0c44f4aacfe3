import type { Database } from '../db/connect.js';
import type { Feature } from '../spec.js';
import type { Schema } from './schema.js';
import { encodeRow } from './values.js';

/** NetBox's name of each feature the model language declares (its `event_rules` are our `events`). */
const NETBOX_FEATURE: Record<Feature, string> = {
  tags: 'tags',
  custom_fields: 'custom_fields',
  change_logging: 'change_logging',
  events: 'event_rules',
  image_attachments: 'image_attachments',
  contacts: 'contacts',
  journaling: 'journaling',
  bookmarks: 'bookmarks',
};

/**
 * Writes the object types (NetBox's `core_objecttype`) from the registry: one row per model, numbered with
 * its object type id, with NetBox's public flag and feature names; rows of models no longer served are
 * removed. Clients only read them; every start (and `svc migrate`) writes them again, so that they follow
 * the models and the enabled plugins. Does nothing when no model plays the `object_type` role.
 */
export async function syncObjectTypes(db: Database, schema: Schema, basePath: string): Promise<void> {
  const target = schema.withRole('object_type');
  if (!target) return;
  const appNames = new Map(schema.registry.apps.map((a) => [a.name, a.verboseName]));
  for (const plugin of schema.registry.plugins) appNames.set(plugin.name, plugin.verboseName);
  const rows: Record<string, unknown>[] = [];
  for (const model of schema.models.values()) {
    const id = schema.objectTypeId(model.label);
    if (id === undefined) continue;
    const { spec } = model;
    const values = {
      app_label: spec.app,
      app_name: appNames.get(spec.app) ?? spec.app,
      model: spec.name,
      model_name: spec.verboseName,
      model_name_plural: spec.verboseNamePlural,
      public: !spec.private,
      features: spec.features.map((f) => NETBOX_FEATURE[f]).sort(),
      is_plugin_model: spec.plugin !== undefined,
      rest_api_endpoint: model.listPath ? `${basePath}/api${model.listPath}` : null,
      description: spec.description ?? null,
    };
    rows.push({ id, ...encodeRow(target.fields, values, db.dialect) });
  }
  rows.sort((a, b) => (a.id as number) - (b.id as number));
  await db.knex.transaction(async (trx) => {
    await trx(target.table)
      .whereNotIn(
        'id',
        rows.map((r) => r.id as number),
      )
      .del();
    await trx(target.table).insert(rows).onConflict('id').merge();
  });
}
