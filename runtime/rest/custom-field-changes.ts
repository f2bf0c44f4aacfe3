import type { Knex } from 'knex';
import type { Dialect } from '../db/connect.js';
import { removeJsonKey, renameJsonKey, setMissingJsonKey } from '../db/json-keys.js';
import { objectTypesOf, safeName, type DefinitionChange } from './custom-field-definitions.js';
import type { ModelInfo, Schema } from './schema.js';
import { decodeJson } from './values.js';

/**
 * Keeps stored data in step with changed definitions (NetBox's behaviour): a new field (or a field given
 * new object types) writes its default into the existing objects' data, a renamed field moves its key, and
 * a deleted field (or removed object type) removes it.
 */
export async function applyDefinitionChange(
  q: Knex,
  schema: Schema,
  dialect: Dialect,
  definitionModel: ModelInfo | undefined,
  change: DefinitionChange,
): Promise<void> {
  const beforeTypes = objectTypesOf(change.before);
  const afterTypes = objectTypesOf(change.after);
  const beforeName = change.before ? safeName(String(change.before.name)) : null;
  const afterName = change.after ? safeName(String(change.after.name)) : null;
  const tables = (labels: string[]): string[] =>
    labels.flatMap((label) => {
      const model = schema.models.get(label);
      return model?.hasCustomFields ? [model.table] : [];
    });
  const removed = beforeName ? beforeTypes.filter((t) => !afterTypes.includes(t)) : [];
  for (const table of tables(removed)) await removeJsonKey(q, dialect, table, 'custom_field_data', beforeName!);
  if (beforeName && afterName && beforeName !== afterName) {
    for (const table of tables(afterTypes.filter((t) => beforeTypes.includes(t)))) {
      await renameJsonKey(q, dialect, table, 'custom_field_data', beforeName, afterName);
    }
  }
  const added = afterTypes.filter((t) => !beforeTypes.includes(t));
  if (afterName) {
    const initial = JSON.stringify(
      decodeJson(change.after![definitionModel?.fields.get('default')?.column ?? 'default']) ?? null,
    );
    for (const table of tables(added))
      await setMissingJsonKey(q, dialect, table, 'custom_field_data', afterName, initial);
  }
}
