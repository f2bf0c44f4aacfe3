import { CustomFields } from '../rest/custom-fields.js';
import { safeRegExp } from '../rest/custom-field-validation.js';
import { type CustomFieldDefinition, type CustomFieldType } from '../rest/custom-field-definitions.js';
import type { ModelInfo } from '../rest/schema.js';
import { decodeJson } from '../rest/values.js';
import { whereJsonNestedListHasAny } from '../db/sql.js';
import type { BatchContext, DomainEntry, FilterFunction, WriteItemContext } from './types.js';

/**
 * Custom field definitions and choice sets: their display, derived values and the rules that keep a
 * definition coherent (NetBox's CustomField.clean).
 */

type Row = Record<string, unknown>;

const TYPE_LABELS: Record<CustomFieldType, string> = {
  text: 'Text',
  longtext: 'Text (long)',
  integer: 'Integer',
  decimal: 'Decimal',
  boolean: 'Boolean (true/false)',
  date: 'Date',
  datetime: 'Date & time',
  url: 'URL',
  json: 'JSON',
  select: 'Selection',
  multiselect: 'Multiple selection',
  object: 'Object',
  multiobject: 'Multiple objects',
};

const DATA_TYPES: Record<CustomFieldType, string> = {
  text: 'string',
  longtext: 'string',
  integer: 'integer',
  decimal: 'decimal',
  boolean: 'boolean',
  date: 'string',
  datetime: 'string',
  url: 'string',
  json: 'object',
  select: 'string',
  multiselect: 'array',
  object: 'object',
  multiobject: 'array',
};

const NUMERIC = new Set<string>(['integer', 'decimal']);
const TEXTUAL = new Set<string>(['text', 'longtext', 'url']);
const SELECTION = new Set<string>(['select', 'multiselect']);
const OBJECTS = new Set<string>(['object', 'multiobject']);

/** The label, else the name with underscores as spaces and a capital first letter. */
function displayCustomField(values: Record<string, unknown>): string {
  const label = typeof values.label === 'string' ? values.label : '';
  if (label) return label;
  const name = String(values.name ?? '').replace(/_/g, ' ');
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** The JSON type of a field's values, from its type. */
async function customFieldDataType(
  ctx: BatchContext,
  model: ModelInfo,
  ids: readonly number[],
): Promise<Map<number, unknown>> {
  const rows = (await ctx.q(model.table).whereIn('id', ids).select('id', 'type')) as Row[];
  return new Map(rows.map((r) => [Number(r.id), DATA_TYPES[r.type as CustomFieldType] ?? 'string']));
}

/**
 * `choice=<value>`: choice sets whose choices (base and extra, as extras.storeChoices keeps them) hold the
 * value, as a value or a label (NetBox's overlap).
 */
const choiceSetsWithChoice: FilterFunction = async (ctx, model, values) => {
  const column = `t0.${model.fields.get('_choices')!.column!}`;
  return (query) => void query.where((w) => whereJsonNestedListHasAny(w, ctx.dialect, column, values));
};

/** NetBox's rules for a coherent definition; the default must itself be a valid value. */
async function validateCustomField(item: WriteItemContext): Promise<void> {
  const { values, errors } = item;
  const type = values.type as CustomFieldType;
  const name = String(values.name ?? '');
  if (name && !/^[a-z0-9_]+$/i.test(name))
    errors.add('name', 'Only alphanumeric characters and underscores are allowed.');
  else if (name.includes('__')) errors.add('name', 'Double underscores are not permitted in custom field names.');
  if (item.existing && item.existing.type !== type) {
    errors.add('type', 'Changing the type of custom fields is not supported.');
    return;
  }
  if (values.unique === true && type === 'boolean')
    errors.add('unique', 'Uniqueness cannot be enforced for boolean fields');
  if (!NUMERIC.has(type)) {
    if (values.validation_minimum !== null && values.validation_minimum !== undefined) {
      errors.add('validation_minimum', 'A minimum value may be set only for numeric fields');
    }
    if (values.validation_maximum !== null && values.validation_maximum !== undefined) {
      errors.add('validation_maximum', 'A maximum value may be set only for numeric fields');
    }
  }
  const regex = String(values.validation_regex ?? '');
  if (regex && !TEXTUAL.has(type)) {
    errors.add('validation_regex', 'Regular expression validation is supported only for text and URL fields');
  } else if (regex && !safeRegExp(regex)) errors.add('validation_regex', `Invalid regular expression: ${regex}`);
  if (values.validation_schema !== null && values.validation_schema !== undefined && type !== 'json') {
    errors.add('validation_schema', 'JSON schema validation is supported only for JSON fields');
  }
  const choiceSet = values.choice_set ?? null;
  if (SELECTION.has(type) && choiceSet === null)
    errors.add('choice_set', 'Selection fields must specify a set of choices.');
  if (!SELECTION.has(type) && choiceSet !== null)
    errors.add('choice_set', 'Choices may be set only on selection fields.');
  const related = values.related_object_type ?? null;
  if (OBJECTS.has(type) && related === null)
    errors.add('related_object_type', 'Object fields must define an object type.');
  if (!OBJECTS.has(type) && related !== null) {
    errors.add('related_object_type', `${TYPE_LABELS[type] ?? type} fields may not define an object type.`);
  }
  if (values.related_object_filter !== null && values.related_object_filter !== undefined && !OBJECTS.has(type)) {
    errors.add('related_object_filter', 'A related object filter can be defined only for object fields.');
  }
  if (errors.has() || values.default === null || values.default === undefined) return;

  const definition: CustomFieldDefinition = {
    id: item.id ?? 0,
    name,
    type,
    objectTypes: [],
    relatedObjectType: (related as string | null) ?? null,
    required: false,
    unique: false,
    default: null,
    filterLogic: 'loose',
    validationMinimum:
      values.validation_minimum === null || values.validation_minimum === undefined
        ? null
        : Number(values.validation_minimum),
    validationMaximum:
      values.validation_maximum === null || values.validation_maximum === undefined
        ? null
        : Number(values.validation_maximum),
    validationRegex: regex,
    choices: choiceSet === null ? [] : await choicesOf(item, Number(choiceSet)),
    label: '',
    choiceLabels: [],
  };
  const checked = await new CustomFields(item.schema, item.dialect, 0).check(item.q, definition, values.default);
  if (!checked.ok) errors.add('default', `Invalid default value "${JSON.stringify(values.default)}": ${checked.error}`);
}

async function choicesOf(item: WriteItemContext, id: number): Promise<string[]> {
  const field = item.model.fields.get('choice_set');
  if (field?.kind !== 'fk') return [];
  const row = (await item
    .q(item.schema.model(field.target).table)
    .where('id', id)
    .first('_choices', 'extra_choices')) as Row | undefined;
  const pairs = decodeJson(row?._choices) ?? decodeJson(row?.extra_choices) ?? [];
  return (pairs as unknown[][]).map((pair) => String(pair[0]));
}

export const customFieldFunctions = {
  'extras.displayCustomField': { kind: 'display', fn: displayCustomField },
  'extras.customFieldDataType': { kind: 'compute', fn: customFieldDataType },
  'extras.choiceSetsWithChoice': { kind: 'filter', fn: choiceSetsWithChoice },
  'extras.validateCustomField': { kind: 'validator', fn: validateCustomField, batch: true },
} satisfies Record<string, DomainEntry>;
