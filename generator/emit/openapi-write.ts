import type { FieldSpec, ModelSpec } from '../../runtime/spec.js';
import { described, schemaRef, withNull, type Json } from './openapi-json.js';
import { kindOf } from '../../runtime/kinds/index.js';
import { ensureSchema, fieldDescription, schemaNames, type SchemaContext } from './openapi-read.js';

/**
 * Request bodies, following runtime/rest/write.ts: the writable fields (not read-only, not hidden), tags,
 * custom fields and a change-log message. They describe the canonical form of each value; the runtime is
 * more lenient in places (numeric strings for ids and numbers, "true"/"false", surrounding whitespace), and
 * it ignores keys it does not know, so request schemas leave additional properties open: a client may send
 * back an object it read, `id`, `url` and all.
 */
export type RequestMode = 'create' | 'update' | 'partial';

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
  return kindOf(field).writeSchema(field, ctx);
}
