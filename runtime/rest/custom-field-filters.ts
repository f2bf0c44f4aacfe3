import type { Knex } from 'knex';
import type { Dialect } from '../db/connect.js';
import { jsonKeyNumber, jsonKeyScalar, jsonKeyValue, orWhereJsonKeyListHas } from '../db/json-keys.js';
import { escapeLike, ilike } from '../db/sql.js';
import { safeName, type CustomFieldDefinition, type CustomFieldType } from './custom-field-definitions.js';
import { parseBoolean } from './values.js';

/** The `cf_<name>[__<lookup>]` filters: conditions on a key of the objects' `custom_field_data`. */

type Condition = (query: Knex.QueryBuilder) => void;

const DATA = 't0.custom_field_data';

/** Whether `cf_<name>[__<lookup>]` is a filter of the field (filtering enabled, a lookup of its type). */
export function acceptsLookup(definition: CustomFieldDefinition | undefined, lookup: string): boolean {
  if (!definition || definition.filterLogic === 'disabled') return false;
  return lookup === '' || LOOKUPS[definition.type].includes(lookup);
}

/**
 * The condition of a `cf_<name>[__lookup]` parameter: null when the name is no (filterable) custom field
 * of the model (the parameter is then ignored like any unknown one), a message for invalid values.
 */
export function customFieldCondition(
  dialect: Dialect,
  definition: CustomFieldDefinition | undefined,
  lookup: string,
  values: readonly string[],
): Condition | string | null {
  if (!definition || !acceptsLookup(definition, lookup)) return null;
  const key = safeName(definition.name);
  const sql = jsonKeyValue(dialect, DATA, key);
  const isNull: Condition = (w) => {
    w.whereRaw(`${sql} IS NULL`);
  };
  if (lookup === 'empty') {
    const wanted = parseBoolean(values[0] ?? '');
    if (wanted === null) return invalidChoice(values[0] ?? '');
    return (query) => (wanted ? query.where(isNull) : query.whereNot(isNull));
  }
  const wantsNull = values.includes('null');
  const given = values.filter((v) => v !== 'null');
  const orNull = (x: Knex.QueryBuilder): void => {
    if (wantsNull) x.orWhere(isNull);
  };
  const negate =
    (any: Condition): Condition =>
    (query) =>
      query.where((w) => w.whereNot(any).orWhere(isNull));

  switch (definition.type) {
    case 'integer':
    case 'decimal': {
      const numbers = given.map(Number);
      if (given.some((v) => v.trim() === '') || numbers.some((n) => !Number.isFinite(n))) return 'Enter a number.';
      const op = ({ lt: '<', lte: '<=', gt: '>', gte: '>=' } as Record<string, string>)[lookup] ?? '=';
      const value = jsonKeyNumber(dialect, DATA, key);
      const any: Condition = (w) =>
        w.where((x) => {
          for (const n of numbers) x.orWhereRaw(`${value} ${op} ?`, [n]);
          orNull(x);
        });
      return lookup === 'n' ? negate(any) : any;
    }
    case 'boolean': {
      const flags = given.map(parseBoolean);
      const bad = given.find((_, i) => flags[i] === null);
      if (bad !== undefined) return invalidChoice(bad);
      return (w) =>
        w.where((x) => {
          for (const f of flags) x.orWhereRaw(`${sql} = ?`, [jsonKeyScalar(dialect, f!)]);
          orNull(x);
        });
    }
    case 'multiselect':
    case 'multiobject': {
      const elements: (string | number)[] = [];
      for (const value of given) {
        if (definition.type === 'multiobject' && !/^\d+$/.test(value)) return 'Enter a whole number.';
        elements.push(definition.type === 'multiobject' ? Number(value) : value);
      }
      const any: Condition = (w) =>
        w.where((x) => {
          for (const element of elements) {
            orWhereJsonKeyListHas(x, dialect, DATA, key, element);
          }
          orNull(x);
        });
      return lookup === 'n' ? negate(any) : any;
    }
    case 'object': {
      if (given.some((v) => !/^\d+$/.test(v))) return 'Enter a whole number.';
      const any: Condition = (w) =>
        w.where((x) => {
          for (const value of given) x.orWhereRaw(`${sql} = ?`, [jsonKeyScalar(dialect, Number(value))]);
          orNull(x);
        });
      return lookup === 'n' ? negate(any) : any;
    }
    default:
      return textCondition(dialect, definition, sql, lookup, given, orNull, negate);
  }
}

/** Text-like values (text, long text, URL, select, date, date-time, JSON): the string lookups. */
function textCondition(
  dialect: Dialect,
  definition: CustomFieldDefinition,
  sql: string,
  lookup: string,
  given: readonly string[],
  orNull: (x: Knex.QueryBuilder) => void,
  negate: (any: Condition) => Condition,
): Condition {
  const textual = definition.type === 'text' || definition.type === 'longtext' || definition.type === 'url';
  // Loose text filters match substrings, case-insensitively.
  const base = lookup === '' && textual && definition.filterLogic === 'loose' ? 'ic' : lookup;
  const negated = ['n', 'nic', 'nisw', 'niew', 'nie'].includes(base);
  const positive = base === 'n' ? '' : negated ? base.slice(1) : base;
  const comparisons: Record<string, string> = { lt: '<', lte: '<=', gt: '>', gte: '>=' };
  const any: Condition = (w) =>
    w.where((x) => {
      for (const value of given) {
        if (positive === '') x.orWhereRaw(`${sql} = ?`, [value]);
        else if (positive === 'ie') x.orWhereRaw(`lower(${sql}) = lower(?)`, [value]);
        else if (comparisons[positive]) x.orWhereRaw(`${sql} ${comparisons[positive]} ?`, [value]);
        else {
          const escaped = escapeLike(value);
          const pattern = positive === 'isw' ? `${escaped}%` : positive === 'iew' ? `%${escaped}` : `%${escaped}%`;
          x.orWhereRaw(ilike(dialect, sql), [pattern]);
        }
      }
      orNull(x);
    });
  return negated ? negate(any) : any;
}

const TEXT_LOOKUPS = ['n', 'ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie', 'empty'];
const RANGE_LOOKUPS = ['n', 'lt', 'lte', 'gt', 'gte', 'empty'];
/** The lookups (`cf_<name>__<lookup>`) of each type; others are ignored like unknown parameters. */
const LOOKUPS: Record<CustomFieldType, string[]> = {
  text: TEXT_LOOKUPS,
  longtext: TEXT_LOOKUPS,
  url: TEXT_LOOKUPS,
  select: TEXT_LOOKUPS,
  json: ['empty'],
  integer: RANGE_LOOKUPS,
  decimal: RANGE_LOOKUPS,
  date: RANGE_LOOKUPS,
  datetime: RANGE_LOOKUPS,
  boolean: ['empty'],
  multiselect: ['n', 'empty'],
  object: ['n', 'empty'],
  multiobject: ['n', 'empty'],
};

const invalidChoice = (value: string): string => `Select a valid choice. ${value} is not one of the available choices.`;
