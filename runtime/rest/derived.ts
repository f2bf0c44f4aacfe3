import type { Knex } from 'knex';
import { expressionPaths, parseExpression, sameValue } from '../expression.js';
import { chunks } from '../db/sql.js';
import type { ModelInfo, Schema } from './schema.js';
import type { PreparedItem } from './write-types.js';

/**
 * Stored values derived from related objects follow them: a `set` rule whose expression reads through a
 * foreign key (`to: rack_type.u_height`, `when: rack.location`) is applied again to every object that refers
 * to an object the write changed, as NetBox's `RackType.save()` updates its racks. The write module saves those
 * objects as a PATCH without a body would, in the same transaction (change records and events as for any
 * update; an object whose values do not change records nothing).
 */

/** A model whose `set` rules read the fields `reads` of the object its foreign key `field` points at. */
interface Dependent {
  model: ModelInfo;
  field: string;
  reads: ReadonlySet<string>;
}

const dependentsBySchema = new WeakMap<Schema, Map<string, Dependent[]>>();

/** Every dependent of every model of the schema, by the label of the model it depends on (computed once). */
function dependentsOf(schema: Schema, label: string): readonly Dependent[] {
  let all = dependentsBySchema.get(schema);
  if (!all) {
    all = new Map();
    for (const model of schema.models.values()) {
      const found = new Map<string, Set<string>>();
      for (const rule of model.spec.rules) {
        if (rule.kind !== 'set') continue;
        for (const text of [rule.to, rule.when ?? 'null']) {
          for (const [step, read] of expressionPaths(parseExpression(text))) {
            const field = model.fields.get(step!);
            if (read === undefined || field?.kind !== 'fk') continue;
            const key = `${field.target} ${step!}`;
            // A generic relation read on the way changes with its type and id.
            const relation = schema.models.get(field.target)?.fields.get(read);
            const names = relation?.kind === 'generic_fk' ? [relation.typeField, relation.idField] : [read];
            found.set(key, new Set([...(found.get(key) ?? []), ...names]));
          }
        }
      }
      for (const [key, reads] of found) {
        const [target, field] = key.split(' ') as [string, string];
        all.set(target, [...(all.get(target) ?? []), { model, field, reads }]);
      }
    }
    dependentsBySchema.set(schema, all);
  }
  return all.get(label) ?? [];
}

/**
 * The objects whose derived values an update of `items` may change: per dependent model, the ids of its objects
 * that refer to an updated object one of whose read fields changed. One query per such dependent.
 */
export async function derivedFollowers(
  q: Knex,
  schema: Schema,
  model: ModelInfo,
  items: readonly PreparedItem[],
): Promise<{ model: ModelInfo; ids: number[] }[]> {
  const followers: { model: ModelInfo; ids: number[] }[] = [];
  for (const dependent of dependentsOf(schema, model.label)) {
    const changed = items
      .filter((item) => [...dependent.reads].some((name) => !sameValue(item.values[name], item.existing?.[name])))
      .map((item) => item.id!);
    if (changed.length === 0) continue;
    const column = dependent.model.fields.get(dependent.field)!.column!;
    const ids: number[] = [];
    for (const chunk of chunks(changed, 500)) {
      const rows = (await q(dependent.model.table).whereIn(column, chunk).orderBy('id').select('id')) as {
        id: number;
      }[];
      ids.push(...rows.map((row) => Number(row.id)));
    }
    if (ids.length > 0) followers.push({ model: dependent.model, ids });
  }
  return followers;
}
