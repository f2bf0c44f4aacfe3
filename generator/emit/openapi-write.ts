import type { FieldSpec, ModelSpec, StringFormat } from '../../runtime/spec.js';
import { described, schemaRef, withNull, type Json } from './openapi-json.js';
import { ensureSchema, enumSchema, fieldDescription, schemaNames, type SchemaContext } from './openapi-read.js';

/**
 * Request bodies, following runtime/rest/write.ts: the writable fields (not read-only, not hidden), tags,
 * custom fields and a change-log message. They describe the canonical form of each value; the runtime is
 * more lenient in places (numeric strings for ids and numbers, "true"/"false", surrounding whitespace), and
 * it ignores keys it does not know, so request schemas leave additional properties open: a client may send
 * back an object it read, `id`, `url` and all.
 */
export type RequestMode = 'create' | 'update' | 'partial';

const SLUG_PATTERNS: Partial<Record<StringFormat, string>> = {
  slug: '^[-a-zA-Z0-9_]+$',
  'unicode-slug': '^[-\\p{L}\\p{N}_]+$',
  color: '^[0-9a-f]{6}$',
};

/** Registers the request schemas of a writable model: create (POST), update (PUT, if it differs) and PATCH. */
export function addRequestSchemas(ctx: SchemaContext, model: ModelSpec): void {
  const names = schemaNames(ctx, model);
  ensureSchema(ctx, names.request, () => requestSchema(ctx, model, 'create'));
  ensureSchema(ctx, names.patched, () => requestSchema(ctx, model, 'partial'));
  // A separate PUT schema only when create-only fields make the required keys differ.
  const update = requestSchema(ctx, model, 'update');
  const create = ctx.schemas.get(names.request)!;
  if (JSON.stringify(update.required) !== JSON.stringify(create.required))
    ensureSchema(ctx, names.updateRequest, () => update);
}

/** The schema PUT bodies use: the create schema unless create-only fields make them differ. */
export function updateRequestName(ctx: SchemaContext, model: ModelSpec): string {
  const names = schemaNames(ctx, model);
  return ctx.schemas.has(names.updateRequest) ? names.updateRequest : names.request;
}

/** The body of a create (`create`), full update (`update`) or partial update (`partial`). */
export function requestSchema(ctx: SchemaContext, model: ModelSpec, mode: RequestMode): Json {
  const properties: Json = {};
  const required: string[] = [];
  for (const field of model.fields) {
    if (field.readOnly || field.hidden) continue;
    properties[field.name] = writeProperty(ctx, field);
    // PUT skips create-only fields (write.ts parseFields), so it cannot require them.
    const needed = mode === 'create' ? field.required : mode === 'update' ? field.required && !field.createOnly : false;
    if (needed) required.push(field.name);
  }
  if (model.features.includes('tags')) {
    const tagList = (description: string): Json => ({
      type: 'array',
      items: schemaRef(tagReferenceName(ctx)),
      description,
    });
    properties.tags = tagList('Replaces every tag of the object; `[]` clears them.');
    properties.add_tags = tagList('Tags to add, keeping the others. Not together with `tags`.');
    properties.remove_tags = tagList('Tags to remove (updates only). Not together with `tags`.');
  }
  if (model.features.includes('custom_fields')) {
    properties.custom_fields = {
      type: 'object',
      additionalProperties: true,
      description: 'Custom field values by name; on update the given names are merged into the stored ones.',
    };
  }
  properties.changelog_message = {
    type: 'string',
    maxLength: 200,
    description: 'Message stored with the change record.',
  };
  const verb = mode === 'create' ? 'creates' : mode === 'update' ? 'replaces' : 'changes';
  return {
    type: 'object',
    description: `A body that ${verb} a ${model.verboseName}.`,
    properties,
    ...(required.length > 0 ? { required } : {}),
  };
}

/** A tag in a write body: its id, or `{name}`, `{slug}` or `{id}` (runtime/rest/tags.ts). */
function tagReferenceName(ctx: SchemaContext): string {
  return ensureSchema(ctx, 'TagReference', () => ({
    description: 'A tag, by id or by name, slug or id attributes.',
    oneOf: [
      { type: 'integer', minimum: 0 },
      {
        type: 'object',
        properties: { id: { type: 'integer', minimum: 0 }, name: { type: 'string' }, slug: { type: 'string' } },
        minProperties: 1,
        additionalProperties: false,
      },
    ],
  }));
}

function writeProperty(ctx: SchemaContext, field: FieldSpec): Json {
  let schema = writeValue(ctx, field);
  // A wrapped choice turns null into '' (write.ts parseInput), which a blank choice accepts.
  const acceptsNull = field.nullable || (field.kind === 'choice' && !field.raw && field.blank);
  if (acceptsNull) schema = withNull(schema);
  if (field.writeOnly) schema = { ...schema, writeOnly: true };
  const notes = [fieldDescription(field), field.createOnly ? 'Set on create; ignored on update.' : undefined];
  return described(schema, notes.filter(Boolean).join(' ') || undefined);
}

function writeValue(ctx: SchemaContext, field: FieldSpec): Json {
  switch (field.kind) {
    case 'string': {
      const schema: Json = { type: 'string' };
      if (!field.blank) schema.minLength = 1;
      if (field.maxLength !== undefined) schema.maxLength = field.maxLength;
      const pattern = SLUG_PATTERNS[field.format];
      if (pattern) schema.pattern = pattern;
      if (field.format === 'email') schema.format = 'email';
      if (field.format === 'url') schema.format = 'uri';
      if (field.format === 'timezone') schema.description = 'An IANA time zone name, e.g. `Europe/Berlin`.';
      return schema;
    }
    case 'password':
      return { type: 'string', format: 'password', minLength: 1, maxLength: field.maxLength };
    case 'integer':
      return {
        type: 'integer',
        ...(field.big ? { format: 'int64' } : {}),
        ...(field.min !== undefined ? { minimum: field.min } : {}),
        ...(field.max !== undefined ? { maximum: field.max } : {}),
      };
    case 'decimal':
      return {
        type: 'number',
        ...(field.min !== undefined ? { minimum: field.min } : {}),
        ...(field.max !== undefined ? { maximum: field.max } : {}),
        description: `At most ${field.maxDigits} digits, ${field.decimalPlaces} after the decimal point.`,
      };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'json':
      return {};
    case 'choice':
      return enumSchema(field.blank ? [...field.choices.map(([v]) => v), ''] : field.choices.map(([v]) => v));
    case 'list':
      return {
        type: 'array',
        items:
          field.items === 'integer'
            ? {
                type: 'integer',
                ...(field.min !== undefined ? { minimum: field.min } : {}),
                ...(field.max !== undefined ? { maximum: field.max } : {}),
              }
            : { type: 'string' },
        ...(field.maxItems !== undefined ? { maxItems: field.maxItems } : {}),
        ...(field.allowEmpty === false ? { minItems: 1 } : {}),
        ...(field.items === 'ip_network'
          ? { description: 'IPv4/IPv6 networks or addresses, e.g. `192.0.2.0/24`.' }
          : {}),
      };
    case 'object_types': {
      const labels = [...ctx.models.values()]
        .filter((m) => !field.feature || m.features.includes(field.feature))
        .map((m) => m.label)
        .sort();
      return {
        type: 'array',
        items: { type: 'string', enum: labels },
        ...(field.allowEmpty === false ? { minItems: 1 } : {}),
      };
    }
    case 'fk': {
      const target = ctx.models.get(field.target)!;
      return {
        oneOf: [
          { type: 'integer', minimum: 0, description: `The ${target.verboseName}'s id.` },
          {
            type: 'object',
            additionalProperties: true,
            description: `Attributes that identify exactly one ${target.verboseName}, e.g. \`{"slug": "…"}\`.`,
          },
        ],
      };
    }
    case 'm2m': {
      const target = ctx.models.get(field.target)!;
      return field.by
        ? {
            type: 'array',
            items: { type: 'string' },
            description: `The ${target.verboseNamePlural}' ${field.by} values.`,
          }
        : { type: 'array', items: { type: 'integer', minimum: 0 }, description: `Ids of ${target.verboseNamePlural}.` };
    }
    case 'content_type':
      return enumSchema(field.targets);
    case 'ip_network':
      return { type: 'string', description: 'A network in CIDR notation, e.g. `192.0.2.0/24` or `2001:db8::/32`.' };
    case 'ip_interface':
      return { type: 'string', description: 'An address with its mask, e.g. `192.0.2.1/24`.' };
    case 'image':
      return {
        type: 'string',
        format: 'binary',
        description: 'A PNG, JPEG, GIF or WebP file, sent as multipart/form-data.',
      };
    case 'generic_fk':
    case 'ip_family':
    case 'constant':
    case 'computed':
    case 'alias':
      return {};
  }
}
