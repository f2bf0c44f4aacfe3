import type { Knex } from 'knex';
import type { FieldSpec, UniqueSpec } from '../spec.js';
import type { ModelInfo } from './schema.js';
import type { PreparedItem } from './write-types.js';
import { decodeColumn } from './values.js';
import { chunks } from '../db/sql.js';
import { sameValue } from '../expression.js';
import { kindOf } from '../kinds/index.js';

/** A field stored as text (what a case-insensitive constraint compares in lower case). */
function isText(field: FieldSpec): boolean {
  const type = kindOf(field).column(field)?.type;
  return type === 'string' || type === 'text';
}

/**
 * Checks unique and unique-together constraints for a batch of prepared objects with one query per
 * constraint, against stored rows and within the batch. Violations become errors under the constraint's
 * key (the field for single-field constraints, `__all__` otherwise).
 */
export async function checkUniques(q: Knex, model: ModelInfo, items: readonly PreparedItem[]): Promise<void> {
  for (const unique of model.spec.uniques) {
    const candidates = items.filter((item) => applies(unique, item));
    if (candidates.length === 0) continue;
    const fields = unique.fields.map((name) => model.fields.get(name)!);
    const lowered = fields.map((f) => unique.caseInsensitive && isText(f));
    const keyOf = (values: readonly unknown[]): string =>
      JSON.stringify(
        values.map((v, i) => (v === null || v === undefined ? null : lowered[i] ? String(v).toLowerCase() : String(v))),
      );
    const conditions = [
      ...Object.entries(unique.condition ?? {}).map(([name, value]) => ({ name, value, holds: true })),
      ...Object.entries(unique.exclude ?? {}).map(([name, value]) => ({ name, value, holds: false })),
    ].map((c) => ({ ...c, field: model.fields.get(c.name)! }));
    const taken = new Map<string, number>();
    const firstValues = [...new Set(candidates.map((item) => item.values[unique.fields[0]!]))];
    const firstColumn = fields[0]!.column!;
    for (const chunk of chunks(firstValues, 500)) {
      const columns = [...fields, ...conditions.map((c) => c.field)].map((f) => f.column!);
      const query = q(model.table).select(['id', ...new Set(columns)]);
      if (lowered[0]) {
        query.where((w) => chunk.forEach((v) => w.orWhereRaw('lower(??) = lower(?)', [firstColumn, v as string])));
      } else {
        query.whereIn(firstColumn, chunk as Knex.Value[]);
      }
      for (const name of unique.whereNull) query.whereNull(model.fields.get(name)!.column!);
      for (const row of (await query) as Record<string, unknown>[]) {
        // The condition's values are compared decoded, the same way on both databases (booleans are 0/1 on SQLite).
        const decoded = (c: (typeof conditions)[number]): unknown => decodeColumn(c.field, row[c.field.column!]);
        if (!conditions.every((c) => sameValue(decoded(c), c.value) === c.holds)) continue;
        taken.set(keyOf(fields.map((f) => decodeColumn(f, row[f.column!]))), Number(row.id));
      }
    }
    const seen = new Map<string, PreparedItem>();
    // Objects are written in request order: a stored row that an earlier object of the batch moves away
    // from no longer holds its values when a later object takes them.
    const position = new Map(items.flatMap((item, i) => (item.id === null ? [] : [[item.id, i] as const])));
    const movedAway = (owner: number, before: number, key: string): boolean => {
      const index = position.get(owner);
      return index !== undefined && index < before && keyOf(unique.fields.map((n) => items[index]!.values[n])) !== key;
    };
    for (const [index, item] of items.entries()) {
      if (!candidates.includes(item)) continue;
      const key = keyOf(unique.fields.map((name) => item.values[name]));
      const owner = taken.get(key);
      const duplicateInBatch = seen.has(key);
      if ((owner !== undefined && owner !== item.id && !movedAway(owner, index, key)) || duplicateInBatch)
        item.errors.add(unique.errorKey, unique.message);
      seen.set(key, item);
    }
  }
}

/** A constraint applies when its fields are set (NULLs never collide) and its null-condition, condition and exclusion hold. */
function applies(unique: UniqueSpec, item: PreparedItem): boolean {
  if (unique.errorKey === '__all__' ? item.errors.has() : item.errors.has(unique.errorKey)) return false;
  if (unique.fields.some((name) => item.values[name] === null || item.values[name] === undefined)) return false;
  if (unique.whereNull.some((name) => item.values[name] !== null && item.values[name] !== undefined)) return false;
  const condition = Object.entries(unique.condition ?? {});
  if (!condition.every(([name, value]) => sameValue(item.values[name], value))) return false;
  const exclude = Object.entries(unique.exclude ?? {});
  if (exclude.some(([name, value]) => sameValue(item.values[name], value))) return false;
  if (item.existing) {
    const names = [...unique.fields, ...unique.whereNull, ...[...condition, ...exclude].map(([name]) => name)];
    const touched = names.some((name) => item.values[name] !== item.existing![name]);
    if (!touched) return false;
  }
  return true;
}
