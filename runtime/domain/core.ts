import { timestampAt } from '../db/clock.js';
import type { DomainEntry, FilterFunction } from './types.js';

/** `DCIM | site Site A created by admin` (NetBox's display of a change record). */
function displayObjectChange(values: Record<string, unknown>): string {
  const action = String(values.action ?? '');
  const verb = action.endsWith('e') ? `${action}d` : `${action}ed`;
  const by = values.user_name ? ` by ${String(values.user_name)}` : '';
  return `${String(values.object_type_name ?? '')} ${String(values.object_repr ?? '')} ${verb}${by}`;
}

/**
 * NetBox's DateTimeFromToRangeFilter halves (`time_after`, `created_before`…): objects whose timestamp is at or
 * after (before) an ISO date or date-time.
 */
export function timeBoundFilter(field: string, op: '>=' | '<='): FilterFunction {
  return async (ctx, model, values) => {
    const column = model.fields.get(field)?.column ?? field;
    const bounds: string[] = [];
    for (const value of values) {
      const parsed = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
      if (Number.isNaN(parsed)) return 'Enter a valid date/time.';
      bounds.push(timestampAt(parsed));
    }
    void ctx;
    return (query) => {
      for (const bound of bounds) query.where(`t0.${column}`, op, bound);
    };
  };
}

/** `DCIM > Site`: NetBox's ObjectType.app_labeled_name (the model's verbose name with each word capitalised). */
function displayObjectType(values: Record<string, unknown>): string {
  const model = String(values.model_name ?? '').replace(
    /(^|\s)(\S)/g,
    (_m, space: string, c: string) => space + c.toUpperCase(),
  );
  return `${String(values.app_name ?? '')} > ${model}`;
}

/** `2026-05-04 13:45 (Info)`: NetBox's display of a journal entry (its creation minute and kind). */
function displayJournalEntry(values: Record<string, unknown>): string {
  const created = values.created instanceof Date ? values.created.toISOString() : String(values.created ?? '');
  const kind = String(values.kind ?? '');
  return `${created.slice(0, 10)} ${created.slice(11, 16)} (${kind.charAt(0).toUpperCase()}${kind.slice(1)})`;
}

export const coreFunctions = {
  'core.displayJournalEntry': { kind: 'display', fn: displayJournalEntry },
  'core.displayObjectType': { kind: 'display', fn: displayObjectType },
  'core.displayObjectChange': { kind: 'display', fn: displayObjectChange },
  'core.timeAfter': { kind: 'filter', fn: timeBoundFilter('time', '>=') },
  'core.timeBefore': { kind: 'filter', fn: timeBoundFilter('time', '<=') },
  'core.createdAfter': { kind: 'filter', fn: timeBoundFilter('created', '>=') },
  'core.createdBefore': { kind: 'filter', fn: timeBoundFilter('created', '<=') },
} satisfies Record<string, DomainEntry>;
