import { timestampAt } from '../db/clock.js';
import type { DomainEntry, FilterFunction } from './types.js';

/** `DCIM | site Site A created by admin` (NetBox's display of a change record). */
function displayObjectChange(values: Record<string, unknown>): string {
  const action = String(values.action ?? '');
  const verb = action.endsWith('e') ? `${action}d` : `${action}ed`;
  const by = values.user_name ? ` by ${String(values.user_name)}` : '';
  return `${String(values.object_type_name ?? '')} ${String(values.object_repr ?? '')} ${verb}${by}`;
}

/** `time_after` / `time_before`: records at or after (before) an ISO date or date-time. */
function timeBound(op: '>=' | '<='): FilterFunction {
  return async (ctx, model, values) => {
    const column = model.fields.get('time')?.column ?? 'time';
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

export const coreFunctions = {
  'core.displayObjectChange': { kind: 'display', fn: displayObjectChange },
  'core.timeAfter': { kind: 'filter', fn: timeBound('>=') },
  'core.timeBefore': { kind: 'filter', fn: timeBound('<=') },
} satisfies Record<string, DomainEntry>;
