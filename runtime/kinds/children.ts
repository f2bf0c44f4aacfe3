import type { ChildListField, ModelSpec } from '../spec.js';
import type { FieldDef } from './definition.js';
import { defineKind, type Json } from './kind.js';

/**
 * A writable list of child rows stored in another model's table, e.g. a front port's `rear_ports`
 * (`[{position, rear_port, rear_port_position}]`) over its port mappings:
 *
 * ```yaml
 * rear_ports:
 *   type: children
 *   model: dcim.portmapping          # the child model
 *   parent: front_port               # its FK to this model
 *   keys: { position: front_port_position, rear_port: rear_port, rear_port_position: rear_port_position }
 *   identity: position               # default: the first key
 *   fixed: { cable_end: A }          # optional: child field → value of every child of this list
 *   count_within: positions          # optional: no more children than this field's value
 *   count_message: The number of positions cannot be less than the number of mapped rear ports ({count})
 *   object: termination              # optional: a generic relation of the child, shown nested as `object`
 * ```
 *
 * Read: one batched query per page over the child table (FKs as ids). Written: each item is checked as the
 * child's fields would be (an FK names an existing object), then the children are reconciled through the
 * child model's write path: unchanged children keep their row, changed or removed ones are deleted before
 * new ones are created (so that a swap of positions never trips a uniqueness rule), each change-logged.
 */
export const childrenKind = defineKind<ChildListField>({
  kinds: ['children'],
  types: ['children'],
  properties: ['model', 'parent', 'keys', 'identity', 'fixed', 'count_within', 'count_message', 'object'],
  derived: true,
  optional: true,
  resolve(def, ctx) {
    const model = def.model ?? '';
    const parent = def.parent ?? '';
    const keys = Object.entries(def.keys ?? {}).map(([key, field]) => ({ key, field }));
    if (!def.model) ctx.error('model', "missing property 'model'");
    else if (!ctx.hasModel(model)) ctx.error('model', `unknown model '${model}'`);
    else {
      const parentDef = def.parent ? ctx.fieldDef(model, parent) : undefined;
      if (!def.parent) ctx.error('parent', "missing property 'parent'");
      else if (parentDef?.type !== 'fk' || parentDef.to !== ctx.label)
        ctx.error('parent', `'${parent}' is not a foreign key of '${model}' to '${ctx.label}'`);
      if (keys.length === 0) ctx.error('keys', "missing property 'keys' (item key: child field)");
      for (const { key, field } of keys) {
        const child = ctx.fieldDef(model, field);
        if (!child) ctx.error(`keys.${key}`, `'${model}' has no field '${field}'`);
        else if (!isItemField(child) || field === parent)
          ctx.error(`keys.${key}`, `'${field}' of '${model}' cannot be an item key (a stored value or foreign key)`);
      }
    }
    for (const name of Object.keys(def.fixed ?? {})) {
      const child = def.model && ctx.hasModel(model) ? ctx.fieldDef(model, name) : undefined;
      if (def.model && ctx.hasModel(model) && (!child || !isItemField(child)))
        ctx.error(`fixed.${name}`, `'${name}' is not a stored field of '${model}'`);
      else if (keys.some((k) => k.field === name)) ctx.error(`fixed.${name}`, `'${name}' is also an item key`);
    }
    const identity = def.identity ?? keys[0]?.key ?? '';
    if (def.identity !== undefined && !keys.some((k) => k.key === def.identity))
      ctx.error('identity', `'${def.identity}' is not one of the keys`);
    if ((def.count_within === undefined) !== (def.count_message === undefined))
      ctx.error(
        def.count_within === undefined ? 'count_message' : 'count_within',
        "'count_within' and 'count_message' go together",
      );
    let object: { typeKey: string; idKey: string } | undefined;
    if (def.object !== undefined) {
      const relation = def.model && ctx.hasModel(model) ? ctx.fieldDef(model, def.object) : undefined;
      const keyOf = (name: string | undefined) => keys.find((k) => k.field === name)?.key;
      const typeKey = keyOf(relation?.type_field);
      const idKey = keyOf(relation?.id_field);
      if (relation?.type !== 'generic_fk')
        ctx.error('object', `'${def.object}' is not a generic relation of '${model}'`);
      else if (!typeKey || !idKey) ctx.error('object', `the type and id fields of '${def.object}' must be item keys`);
      else object = { typeKey, idKey };
    }
    return {
      ...ctx.base,
      kind: 'children',
      required: ctx.required,
      model,
      parent,
      keys,
      identity,
      ...(def.fixed ? { fixed: def.fixed } : {}),
      ...(def.count_within !== undefined && def.count_message !== undefined
        ? { countWithin: { field: def.count_within, message: def.count_message } }
        : {}),
      ...(object ? { object } : {}),
    };
  },
  checkReferences(field, byName, error) {
    if (!field.countWithin) return;
    const bound = byName.get(field.countWithin.field);
    if (bound?.kind !== 'integer')
      error('count_within', `'${field.countWithin.field}' is not an integer field of the model`);
  },
  column: () => null,
  valueType(field, ctx) {
    const child = ctx.models.get(field.model);
    const entries = field.keys.map(({ key, field: name }) => {
      const kind = child?.fields.find((f) => f.name === name)?.kind;
      return `${key}: ${kind === 'fk' || kind === 'integer' ? 'number' : 'unknown'}`;
    });
    return `{ ${entries.join('; ')} }[]`;
  },
  readSchema: (field, ctx) => itemsSchema(field, ctx.models, false),
  writeSchema: (field, ctx) => itemsSchema(field, ctx.models, true),
  filters: () => [],
  options(_field, meta) {
    meta.type = 'field';
  },
  constraintValue: () => 'json',
});

/** Child fields an item may show: stored values and FKs (as ids). */
function isItemField(def: FieldDef): boolean {
  return !['m2m', 'children', 'constant', 'computed', 'alias', 'derived', 'generic_fk', 'image', 'password'].includes(
    def.type,
  );
}

function itemsSchema(field: ChildListField, models: ReadonlyMap<string, ModelSpec>, write: boolean): Json {
  const child = models.get(field.model);
  const properties: Record<string, Json> = {};
  const required: string[] = [];
  for (const { key, field: name } of field.keys) {
    const spec = child?.fields.find((f) => f.name === name);
    if (spec?.kind === 'fk') properties[key] = { type: 'integer', description: `Id of the ${name}.` };
    else if (spec?.kind === 'integer')
      properties[key] = {
        type: 'integer',
        ...(spec.min !== undefined ? { minimum: spec.min } : {}),
        ...(spec.max !== undefined ? { maximum: spec.max } : {}),
      };
    else properties[key] = {};
    if (!write || key === field.identity || spec?.default === undefined) required.push(key);
  }
  if (field.object && !write) {
    properties.object = { type: ['object', 'null'], description: 'The object the item names, nested.' };
    required.push('object');
  }
  return {
    type: 'array',
    items: { type: 'object', properties, required, ...(write ? {} : { additionalProperties: false }) },
  };
}
