import { parseDateInput, parseDateTimeInput, renderTimestamp } from '../db/clock.js';
import type { DateField } from '../spec.js';
import { defineKind, fail, ok } from './kind.js';

/** A calendar date (`date`) or a point in time (`datetime`, rendered in DRF's format); `default: now`. */
export const dateKind = defineKind<DateField>({
  kinds: ['date', 'datetime'],
  types: ['date', 'datetime'],
  properties: [],
  resolve(def, ctx) {
    if (def.default !== undefined && def.default !== 'now') ctx.error('default', "only 'now' is supported");
    return { ...ctx.base, kind: def.type as DateField['kind'], required: ctx.required };
  },
  column: (field) => ({ type: field.kind }),
  valueType: () => 'string',
  readSchema: (field) => ({ type: 'string', format: field.kind === 'date' ? 'date' : 'date-time' }),
  writeSchema: (field) => ({ type: 'string', format: field.kind === 'date' ? 'date' : 'date-time' }),
  valueFilter: (field) => ({ valueKind: field.kind, lookups: 'number' }),
  parse(field, value) {
    if (field.kind === 'date') {
      const parsed = typeof value === 'string' ? parseDateInput(value) : null;
      return parsed ? ok(parsed) : fail('Date has wrong format. Use one of these formats instead: YYYY-MM-DD.');
    }
    const parsed = typeof value === 'string' ? parseDateTimeInput(value) : null;
    return parsed
      ? ok(parsed)
      : fail(
          'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
        );
  },
  present: (field, value) => (field.kind === 'datetime' ? renderTimestamp(value as string | null) : value),
  options(field, meta) {
    meta.type = field.kind;
  },
  constraintValue: () => 'datetime',
});
