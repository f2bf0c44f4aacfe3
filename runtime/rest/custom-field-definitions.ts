import type { Knex } from 'knex';
import type { ModelInfo, Schema } from './schema.js';
import { decodeJson } from './values.js';

/**
 * Custom field definitions: objects of the model with role `custom_field`, each naming the object types it
 * applies to; values live in each object's `custom_field_data` JSON column. The types every custom field
 * module shares, and the reading of definitions from the database.
 */

export type CustomFieldType =
  | 'text'
  | 'longtext'
  | 'integer'
  | 'decimal'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'url'
  | 'json'
  | 'select'
  | 'multiselect'
  | 'object'
  | 'multiobject';

export interface CustomFieldDefinition {
  id: number;
  name: string;
  label: string;
  type: CustomFieldType;
  objectTypes: string[];
  relatedObjectType: string | null;
  required: boolean;
  unique: boolean;
  default: unknown;
  filterLogic: 'disabled' | 'loose' | 'exact';
  validationMinimum: number | null;
  validationMaximum: number | null;
  validationRegex: string;
  /** Choice values of select fields. */
  choices: string[];
  /** Their labels, in the same order. */
  choiceLabels: string[];
}

type Row = Record<string, unknown>;

/** Restricts a query on alias `r0` of a model to the objects the requesting user may view. */
export type RestrictView = (model: ModelInfo, query: Knex.QueryBuilder) => Promise<void>;

/** Loads nested representations of objects of one model (set by the read path). */
export type ObjectLoader = (label: string, ids: readonly number[]) => Promise<Record<string, unknown>[]>;

/** A checked value: what to store, or why it is invalid. */
export type CheckedValue = { ok: true; value: unknown } | { ok: false; error: string };

/** What a change to a definition looked like (for keeping stored data in step). */
export interface DefinitionChange {
  action: 'create' | 'update' | 'delete';
  before: Row | null;
  after: Row | null;
}

const num = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));
const flag = (v: unknown): boolean => v === true || v === 1 || v === '1';
/** Custom field names are `[a-z0-9_]+`; anything else never reaches SQL text. */
export const safeName = (name: string): string => name.replace(/[^A-Za-z0-9_]/g, '');
export const objectTypesOf = (row: Row | null): string[] =>
  row ? ((decodeJson(row.object_types) ?? []) as string[]) : [];

/** Reads every definition (with the choices of its choice set), in the definitions' order. */
export async function loadDefinitions(
  q: Knex,
  schema: Schema,
  definitions: ModelInfo,
): Promise<CustomFieldDefinition[]> {
  const column = (name: string): string => definitions.fields.get(name)?.column ?? name;
  const rows = (await q(definitions.table).orderBy('weight').orderBy('name').select('*')) as Row[];
  const choiceSet = definitions.fields.get('choice_set');
  const setIds = rows.map((r) => num(r.choice_set_id)).filter((v): v is number => v !== null);
  const sets = new Map<number, string[]>();
  const labels = new Map<number, string[]>();
  if (choiceSet?.kind === 'fk' && setIds.length > 0) {
    const setModel = schema.model(choiceSet.target);
    // The set's resolved choices (base and extra), kept on its row when it is written; rows written before
    // that column existed have their extra choices only.
    const rows = (await q(setModel.table).whereIn('id', setIds).select('id', '_choices', 'extra_choices')) as Row[];
    for (const row of rows) {
      const pairs = (decodeJson(row._choices) ?? decodeJson(row.extra_choices) ?? []) as unknown[][];
      sets.set(
        Number(row.id),
        pairs.map((pair) => String(pair[0])),
      );
      labels.set(
        Number(row.id),
        pairs.map((pair) => String(pair[1] ?? pair[0])),
      );
    }
  }
  const all = rows.map((row): CustomFieldDefinition => ({
    id: Number(row.id),
    name: String(row.name),
    label: String(row.label ?? ''),
    type: String(row.type) as CustomFieldType,
    objectTypes: objectTypesOf(row),
    relatedObjectType: (row.related_object_type as string | null) ?? null,
    required: flag(row[column('required')]),
    unique: flag(row[column('unique')]),
    default: decodeJson(row[column('default')]),
    filterLogic: String(row.filter_logic ?? 'loose') as CustomFieldDefinition['filterLogic'],
    validationMinimum: num(row.validation_minimum),
    validationMaximum: num(row.validation_maximum),
    validationRegex: String(row.validation_regex ?? ''),
    choices: sets.get(num(row.choice_set_id) ?? -1) ?? [],
    choiceLabels: labels.get(num(row.choice_set_id) ?? -1) ?? [],
  }));
  return all;
}
