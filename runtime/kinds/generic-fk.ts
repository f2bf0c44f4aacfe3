import type { ContentTypeField, GenericRelationField } from '../spec.js';
import { defineKind } from './kind.js';

/**
 * A generic relation: the object named by a content-type field and an id field of the same model, read as
 * the target's nested representation.
 */
export const genericFkKind = defineKind<GenericRelationField>({
  kinds: ['generic_fk'],
  types: ['generic_fk'],
  properties: [
    'types',
    'feature',
    'type_field',
    'id_field',
    'on_delete',
    'visible_only',
    'query_names',
    'related_name',
  ],
  derived: true,
  readOnly: true,
  resolve(def, ctx) {
    const onDelete = def.on_delete ?? 'cascade';
    const targets = ctx.targets('types');
    for (const type of Object.keys(def.query_names ?? {}))
      if (!targets.includes(type)) ctx.error(`query_names.${type}`, `'${type}' is not one of the types`);
    return {
      ...ctx.base,
      kind: 'generic_fk',
      required: false,
      typeField: def.type_field ?? `${ctx.name}_type`,
      idField: def.id_field ?? `${ctx.name}_id`,
      targets,
      onDelete,
      ...(def.visible_only ? { visibleOnly: true as const } : {}),
      ...(def.query_names ? { queryNames: def.query_names } : {}),
      ...(def.related_name ? { relatedName: def.related_name } : {}),
    };
  },
  checkReferences(field, byName, error) {
    const type = byName.get(field.typeField);
    const id = byName.get(field.idField);
    if (type?.kind !== 'content_type') error('type_field', `'${field.typeField}' is not a content_type field`);
    else {
      const targets = (type as ContentTypeField).targets;
      if (targets.some((t) => !field.targets.includes(t)) || field.targets.some((t) => !targets.includes(t)))
        error('types', `the types must equal those of '${field.typeField}'`);
    }
    if (id?.kind !== 'integer') error('id_field', `'${field.idField}' is not an integer field`);
  },
  column: () => null,
  valueType: () => 'unknown',
  readType: () => 'Record<string, unknown> | null',
  readSchema: () => ({}),
  writeSchema: () => ({}),
  options(_field, meta) {
    meta.type = 'field';
  },
  constraintValue: () => 'text',
});
