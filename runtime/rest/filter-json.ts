import type { Dialect } from '../db/connect.js';
import type { JsonField } from '../spec.js';
import type { Condition } from './filter-paths.js';
import type { ModelInfo } from './schema.js';

/**
 * NetBox's AttributeFiltersMixin: a query parameter `<prefix><key>` of a JSON field with a `filter_prefix`
 * selects the objects whose value has `key` equal to the parameter's value, read as JSON when it parses
 * (`1`, `2.0`, `true`) and as a string otherwise; repeated values are OR-ed. `a__b` steps into nested
 * objects, as Django's JSON key transforms do.
 */
export function jsonKeyFilter(
  dialect: Dialect,
  model: ModelInfo,
  name: string,
  values: readonly string[],
): Condition | null {
  const field = model.spec.fields.find(
    (f): f is JsonField => f.kind === 'json' && !!f.filterPrefix && name.startsWith(f.filterPrefix),
  );
  if (!field) return null;
  const keys = name.slice(field.filterPrefix!.length).split('__');
  if (keys.some((k) => k === '')) return null;
  const column = `t0.${field.column!}`;
  const wanted = values.map((v) => JSON.stringify(parseJson(v)));
  return (qb) =>
    void qb.where((w) => {
      for (const value of wanted) {
        if (dialect === 'postgres') w.orWhereRaw(`??#>? = ?::jsonb`, [column, `{${keys.join(',')}}`, value]);
        else
          w.orWhereRaw(`json(??->?) = json(?)`, [column, `$.${keys.map((k) => JSON.stringify(k)).join('.')}`, value]);
      }
    });
}

function parseJson(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
