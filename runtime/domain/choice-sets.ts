import { whereJsonObjectHasAnyValue } from '../db/sql.js';
import type { DomainEntry, FilterFunction, ListFunction, WriteItemContext } from './types.js';
// Imported rather than read from disk, so that the compiled service (dist/) carries them too.
import iata from './data/iata.json' with { type: 'json' };
import iso3166 from './data/iso-3166.json' with { type: 'json' };

/**
 * Custom field choice sets (NetBox's `CustomFieldChoiceSet`): a predefined base set (IATA airport codes,
 * ISO 3166 country codes) and/or extra `[value, label]` pairs, optionally in alphabetical order, with
 * colours for some values. The resolved list is kept on the row (`_choices`) for custom field validation.
 */

type Pair = [string, string];

/** The base sets (NetBox's `extras/data`). */
const BASE_SETS: Record<string, Pair[]> = {
  IATA: iata as Pair[],
  ISO_3166: iso3166 as Pair[],
};

/** The pairs of a base set, or null when this service does not have its data. */
export function baseChoices(name: string): Pair[] | null {
  return BASE_SETS[name] ?? null;
}

/** NetBox's named colours of choices. */
export const CHOICE_COLORS: readonly string[] = [
  'blue',
  'indigo',
  'purple',
  'pink',
  'red',
  'orange',
  'yellow',
  'green',
  'teal',
  'cyan',
  'gray',
  'black',
  'white',
];

/** Base choices then extra ones, sorted by value when the set says so (NetBox's `choices`). */
export function resolveChoices(base: string | null, extra: readonly Pair[] | null, alphabetical: boolean): Pair[] {
  const pairs = [...((base && baseChoices(base)) || []), ...(extra ?? [])];
  return alphabetical ? pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : pairs;
}

function isPairList(value: unknown): value is Pair[] {
  return (
    Array.isArray(value) &&
    value.every(
      (pair) =>
        Array.isArray(pair) && pair.length === 2 && pair.every((part) => typeof part === 'string' && part !== ''),
    )
  );
}

/** NetBox's rules: some choices, pairs without duplicate values, colours by name for existing values. */
export function validateChoiceSet(item: WriteItemContext): void {
  const { values, errors } = item;
  const base = (values.base_choices as string | null | undefined) ?? null;
  if (base !== null && baseChoices(base) === null) {
    errors.add('base_choices', `The ${base} base choices are not available in this service; give extra_choices.`);
    return;
  }
  const extra = values.extra_choices;
  if (extra !== null && extra !== undefined && !isPairList(extra)) {
    errors.add('extra_choices', 'Enter a list of [value, label] pairs, e.g. [["gold", "Gold"]].');
    return;
  }
  if (base === null && (!extra || extra.length === 0)) {
    errors.add('non_field_errors', 'Must define base or extra choices.');
    return;
  }
  const seen = new Set<string>();
  for (const [value] of extra ?? []) {
    if (seen.has(value)) return errors.add('extra_choices', `Duplicate value '${value}' found in extra choices.`);
    seen.add(value);
  }
  checkColors(item, new Set([...seen, ...(base ? baseChoices(base)!.map(([v]) => v) : [])]));
}

function checkColors(item: WriteItemContext, values: ReadonlySet<string>): void {
  const colors = item.values.choice_colors ?? {};
  if (typeof colors !== 'object' || Array.isArray(colors)) {
    item.errors.add('choice_colors', 'Color mappings must be defined as a JSON object.');
    return;
  }
  const entries = Object.entries(colors as Record<string, unknown>);
  const badColors = entries.filter(([, color]) => typeof color !== 'string' || !CHOICE_COLORS.includes(color));
  if (badColors.length > 0) {
    item.errors.set(
      'choice_colors',
      Object.fromEntries(badColors.map(([value, color]) => [value, [`"${String(color)}" is not a valid choice.`]])),
    );
    return;
  }
  const unknown = entries.map(([value]) => value).filter((value) => !values.has(value));
  if (unknown.length > 0) {
    item.errors.add(
      'choice_colors',
      `Color mappings must reference an existing choice value. Invalid value(s): ${unknown.sort().join(', ')}.`,
    );
  }
}

/** The resolved choices and their count are kept on the row (nested sets show the count without a batch). */
export function storeChoices(item: WriteItemContext): void {
  const { values } = item;
  if (values.choice_colors === null || values.choice_colors === undefined) values.choice_colors = {};
  const choices = resolveChoices(
    (values.base_choices as string | null) ?? null,
    (values.extra_choices as Pair[] | null) ?? null,
    values.order_alphabetically === true,
  );
  values._choices = choices;
  values.choices_count = choices.length;
}

/** `…/custom-field-choice-sets/{id}/choices/`: the set's choices as `{id, display}`, `?q=` in value or label. */
export const choiceSetChoices: ListFunction = async (_ctx, parent, params) => {
  const values = parent.values;
  let choices = resolveChoices(
    (values.base_choices as string | null) ?? null,
    (values.extra_choices as Pair[] | null) ?? null,
    values.order_alphabetically === true,
  );
  const q = typeof params.q === 'string' ? params.q.toLowerCase() : '';
  if (q) choices = choices.filter(([v, l]) => v.toLowerCase().includes(q) || l.toLowerCase().includes(q));
  return { items: choices.map(([id, display]) => ({ id, display })) };
};

/** `choice_colors=red`: choice sets that colour some choice with one of the given colours. */
export const choiceSetsWithColor: FilterFunction = async (ctx, model, values) => {
  const unknown = values.find((v) => !CHOICE_COLORS.includes(v));
  if (unknown !== undefined) return `Select a valid choice. ${unknown} is not one of the available choices.`;
  const column = `t0.${model.fields.get('choice_colors')!.column!}`;
  return (query) => void query.where((w) => whereJsonObjectHasAnyValue(w, ctx.dialect, column, values));
};

export const choiceSetFunctions = {
  'extras.validateChoiceSet': { kind: 'validator', fn: validateChoiceSet, batch: true },
  'extras.storeChoices': { kind: 'prepare', fn: storeChoices },
  'extras.choiceSetChoices': { kind: 'list', fn: choiceSetChoices },
  'extras.choiceSetsWithColor': { kind: 'filter', fn: choiceSetsWithColor },
} satisfies Record<string, DomainEntry>;
