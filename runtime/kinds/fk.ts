import type { FilterSpec, ForeignKeyField, ManyToManyField } from '../spec.js';
import { decodeNumber, defineKind, relatedName, type FilterContext } from './kind.js';

/** A foreign key: stored as the target's id, read as its nested object, written as an id or attributes. */
export const fkKind = defineKind<ForeignKeyField>({
  kinds: ['fk'],
  types: ['fk'],
  properties: ['to', 'on_delete', 'nested', 'filter_by', 'tree', 'related_name'],
  columnName: (name, def, stored) => (stored ? (def.column ?? `${name}_id`) : undefined),
  resolve(def, ctx) {
    const target = def.to ?? '';
    if (!def.to) ctx.error('to', "missing property 'to'");
    else if (!ctx.hasModel(target)) ctx.error('to', `unknown model '${target}'`);
    const onDelete = def.on_delete ?? (ctx.nullable ? 'set_null' : 'cascade');
    if (onDelete === 'set_null' && !ctx.nullable) ctx.error('on_delete', 'set_null needs a nullable field');
    if (onDelete === 'do_nothing') ctx.error('on_delete', 'do_nothing is for generic relations only');
    if (def.default !== undefined && def.default !== 'current_user') {
      ctx.error('default', "only 'current_user' is supported (the requesting user, on an FK to users)");
    }
    return {
      ...ctx.base,
      kind: 'fk',
      required: ctx.required,
      target,
      onDelete,
      nested: def.nested ?? null,
      ...(def.related_name
        ? { relatedName: relatedName(def.related_name, (at, message) => ctx.error(at, message)) }
        : {}),
    };
  },
  column: () => ({ type: 'bigint' }),
  valueType: () => 'number',
  writeType: (field) => (field.nullable ? 'RelatedInput | null' : 'RelatedInput'),
  readType(field, ctx) {
    const target = ctx.models.get(field.target);
    const name = target ? `${target.className}Nested` : 'Record<string, unknown>';
    return field.nullable ? `${name} | null` : name;
  },
  readSchema: () => ({ type: 'null' }),
  writeSchema(field, ctx) {
    const target = ctx.models.get(field.target)!;
    return {
      oneOf: [
        { type: 'integer', minimum: 0, description: `The ${target.verboseName}'s id.` },
        {
          type: 'object',
          additionalProperties: true,
          description: `Attributes that identify exactly one ${target.verboseName}, e.g. \`{"slug": "…"}\`.`,
        },
      ],
    };
  },
  filters: relationFilters,
  decode: (_field, raw) => decodeNumber(raw),
  options(field, meta, _readOnly, ctx) {
    meta.type = 'nested object';
    meta.children = ctx.nestedChildren(field.target, field.nested);
  },
  constraintValue: () => 'integer',
});

/** `<name>_id` and `<name>` (by slug, or `filter_by`) relation filters of an fk or many-to-many field. */
export function relationFilters(field: ForeignKeyField | ManyToManyField, ctx: FilterContext): FilterSpec[] {
  const target = ctx.models.get(field.target);
  if (!target) return [];
  // `asns` filters as `asn_id` and `asn`, like NetBox's related-object filters.
  const base = field.kind === 'm2m' && field.name.endsWith('s') ? field.name.slice(0, -1) : field.name;
  const tree = target.tree && !(ctx.model.tree && field.name === 'parent' && field.kind === 'fk');
  const path = [{ kind: field.kind, field: field.name, target: target.label }];
  const filters: FilterSpec[] = [{ kind: 'relation', name: `${base}_id`, path, target: target.label, by: 'id', tree }];
  const by =
    ctx.def?.filter_by !== undefined ? ctx.def.filter_by : target.fields.some((f) => f.name === 'slug') ? 'slug' : null;
  if (by) filters.push({ kind: 'relation', name: base, path, target: target.label, by, tree });
  return filters;
}
