/** Small JSON-Schema/OpenAPI building blocks shared by the OpenAPI emitter's modules. */

export type Json = Record<string, unknown>;

/** `{$ref}` to a component schema. */
export function schemaRef(name: string): Json {
  return { $ref: `#/components/schemas/${name}` };
}

/** `{$ref}` to a shared response. */
export function responseRef(name: string): Json {
  return { $ref: `#/components/responses/${name}` };
}

/**
 * The same schema that also accepts `null`. Type unions stay flat (`type: [string, null]`) where they can so
 * that Swagger UI shows a plain type; references and unions get a `oneOf` with a null branch.
 */
export function withNull(schema: Json): Json {
  const keys = Object.keys(schema).filter((k) => k !== 'description');
  if (keys.length === 0) return schema; // accepts anything already
  if (schema.type === 'null') return schema;
  if (Array.isArray(schema.oneOf)) {
    const branches = schema.oneOf as Json[];
    return branches.some((b) => b.type === 'null') ? schema : { ...schema, oneOf: [...branches, { type: 'null' }] };
  }
  if ('$ref' in schema || 'anyOf' in schema || 'allOf' in schema || 'const' in schema) {
    const { description, ...rest } = schema;
    return { ...(description !== undefined ? { description } : {}), oneOf: [rest, { type: 'null' }] };
  }
  const out: Json = { ...schema };
  if (typeof schema.type === 'string') out.type = [schema.type, 'null'];
  else if (Array.isArray(schema.type) && !schema.type.includes('null'))
    out.type = [...(schema.type as string[]), 'null'];
  if (Array.isArray(schema.enum) && !schema.enum.includes(null)) out.enum = [...(schema.enum as unknown[]), null];
  return out;
}

/** Adds a description when there is one, before any the schema has (kept first so that the JSON reads well). */
export function described(schema: Json, description: string | undefined): Json {
  if (!description) return schema;
  const own = typeof schema.description === 'string' ? ` ${schema.description}` : '';
  const { description: _own, ...rest } = schema;
  return { description: `${description}${own}`, ...rest };
}

/** A copy of a record with its keys sorted (for maps whose order carries no meaning). */
export function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** `{type: object}` with exactly these properties; `required` only when non-empty. */
export function closedObject(properties: Json, required: readonly string[], description?: string): Json {
  return described(
    {
      type: 'object',
      properties,
      ...(required.length > 0 ? { required: [...required] } : {}),
      additionalProperties: false,
    },
    description,
  );
}
