import { kindOf } from '../kinds/index.js';
import type { FieldSpec } from '../spec.js';
import type { ModelInfo, Schema } from './schema.js';
import type { CustomFieldDefinition } from './custom-field-definitions.js';

type Meta = Record<string, unknown>;

/** DRF's OPTIONS metadata for a list (`actions.POST`) or detail (`actions.PUT`) endpoint. */
export function describeEndpoint(
  schema: Schema,
  model: ModelInfo,
  detail: boolean,
  writable: boolean,
  customFields: readonly CustomFieldDefinition[] = [],
): Meta {
  const title = model.spec.verboseName
    .split(' ')
    .map((w) => (w ? w[0]!.toUpperCase() + w.slice(1) : w))
    .join(' ');
  const body: Meta = {
    name: `${title} ${detail ? 'Instance' : 'List'}`,
    description: model.spec.description ?? '',
    renders: ['application/json', 'text/html'],
    parses: ['application/json', 'multipart/form-data'],
  };
  if (writable) {
    const fields = describeFields(schema, model);
    if (fields.custom_fields)
      fields.custom_fields = { ...fields.custom_fields, children: describeCustomFields(customFields) };
    body.actions = { [detail ? 'PUT' : 'POST']: fields };
  }
  return body;
}

/** Every field of the representation plus the write-only ones, in output order. */
export function describeFields(schema: Schema, model: ModelInfo): Record<string, Meta> {
  const fields: Record<string, Meta> = {};
  for (const key of model.spec.output) fields[key] = describeKey(schema, model, key);
  for (const field of model.spec.fields) {
    if (field.writeOnly && !field.hidden) fields[field.name] = describeField(schema, field);
  }
  if (model.hasTags) {
    fields.add_tags = { ...describeKey(schema, model, 'tags'), label: 'Add tags' };
    fields.remove_tags = { ...describeKey(schema, model, 'tags'), label: 'Remove tags' };
  }
  fields.changelog_message = {
    type: 'string',
    required: false,
    read_only: false,
    label: 'Changelog message',
    max_length: 200,
  };
  return fields;
}

const CUSTOM_FIELD_TYPES: Record<CustomFieldDefinition['type'], string> = {
  text: 'string',
  longtext: 'string',
  integer: 'integer',
  decimal: 'decimal',
  boolean: 'boolean',
  date: 'date',
  datetime: 'datetime',
  url: 'url',
  json: 'json',
  select: 'choice',
  multiselect: 'multiple choice',
  object: 'field',
  multiobject: 'list',
};

/** One entry per custom field of the model: its type, whether it is required, its label and choices. */
function describeCustomFields(definitions: readonly CustomFieldDefinition[]): Record<string, Meta> {
  const children: Record<string, Meta> = {};
  for (const definition of definitions) {
    const meta: Meta = {
      type: CUSTOM_FIELD_TYPES[definition.type],
      required: definition.required,
      read_only: false,
      label: definition.label || definition.name,
    };
    if (definition.type === 'select' || definition.type === 'multiselect') {
      meta.choices = definition.choices.map((value, i) => ({
        value,
        display_name: definition.choiceLabels[i] ?? value,
      }));
    }
    children[definition.name] = meta;
  }
  return children;
}

function describeKey(schema: Schema, model: ModelInfo, key: string): Meta {
  const field = model.fields.get(key);
  if (field) return describeField(schema, field);
  const readOnly = (type: string, label: string): Meta => ({ type, required: false, read_only: true, label });
  switch (key) {
    case 'id':
      return readOnly('integer', 'ID');
    case 'url':
      return readOnly('field', 'Url');
    case 'display_url':
      return readOnly('field', 'Display url');
    case 'display':
      return readOnly('string', 'Display');
    case 'created':
      return readOnly('datetime', 'Created');
    case 'last_updated':
      return readOnly('datetime', 'Last updated');
    case '_depth':
      return readOnly('integer', 'Depth');
    case 'custom_fields':
      return { type: 'field', required: false, read_only: false, label: 'Custom fields' };
    case 'tags': {
      const tagModel = schema.withRole('tag');
      return {
        type: 'list',
        required: false,
        read_only: false,
        label: 'Tags',
        child: {
          type: 'nested object',
          required: true,
          read_only: false,
          children: tagModel ? nestedChildren(schema, tagModel, tagModel.spec.nested) : {},
        },
      };
    }
    default:
      return readOnly(
        'integer',
        key.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()),
      );
  }
}

function describeField(schema: Schema, field: FieldSpec): Meta {
  const readOnly = field.readOnly || field.hidden;
  const meta: Meta = { type: 'field', required: field.required && !readOnly, read_only: readOnly, label: field.label };
  if (field.helpText) meta.help_text = field.helpText;
  kindOf(field).options(field, meta, readOnly, {
    verboseName: (label) => schema.model(label).spec.verboseName,
    nestedChildren: (label, keys) => {
      const target = schema.model(label);
      return nestedChildren(schema, target, keys ?? target.spec.nested);
    },
  });
  return meta;
}

function nestedChildren(schema: Schema, model: ModelInfo, keys: readonly string[]): Record<string, Meta> {
  const children: Record<string, Meta> = {};
  for (const key of keys) {
    const field = model.fields.get(key);
    children[key] =
      field?.kind === 'fk'
        ? { type: 'nested object', required: false, read_only: true, label: field.label }
        : { ...describeKey(schema, model, key), read_only: true };
  }
  return children;
}
