import type { CustomFieldDefinition, ObjectLoader } from './custom-field-definitions.js';
import type { Schema } from './schema.js';

/**
 * Renders `custom_fields` for a page: every field of the model, stored value or null; object values as nested
 * representations, loaded in one batch per related model.
 */
export async function renderCustomFields(
  schema: Schema,
  definitions: readonly CustomFieldDefinition[],
  datas: readonly Record<string, unknown>[],
  load: ObjectLoader,
): Promise<Record<string, unknown>[]> {
  const wanted = new Map<string, Set<number>>();
  for (const definition of definitions) {
    if ((definition.type !== 'object' && definition.type !== 'multiobject') || !definition.relatedObjectType) continue;
    const ids = wanted.get(definition.relatedObjectType) ?? new Set<number>();
    for (const data of datas) {
      const value = data[definition.name];
      for (const id of Array.isArray(value) ? value : [value]) if (Number.isSafeInteger(id)) ids.add(id as number);
    }
    wanted.set(definition.relatedObjectType, ids);
  }
  const objects = new Map<string, Map<number, unknown>>();
  for (const [label, ids] of wanted) {
    const loaded = ids.size > 0 && schema.models.has(label) ? await load(label, [...ids]) : [];
    objects.set(label, new Map(loaded.map((o) => [o.id as number, o])));
  }
  return datas.map((data) => {
    const out: Record<string, unknown> = {};
    for (const definition of definitions) {
      const value = data[definition.name] ?? null;
      const byId = objects.get(definition.relatedObjectType ?? '');
      if (value === null) out[definition.name] = null;
      else if (definition.type === 'object') out[definition.name] = byId?.get(value as number) ?? null;
      else if (definition.type === 'multiobject') {
        out[definition.name] = Array.isArray(value)
          ? value.flatMap((id) => (byId?.has(id as number) ? [byId.get(id as number)] : []))
          : [];
      } else out[definition.name] = value;
    }
    return out;
  });
}
