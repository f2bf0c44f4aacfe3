type Json = Record<string, unknown>;

/**
 * Keywords whose values are instances, not schemas: copied as they are (a default or an example may hold an
 * object with a `type` key).
 */
const DATA_KEYWORDS = new Set(['default', 'enum', 'example', 'examples']);

/**
 * A schema that accepts `null` only. OpenAPI 3.0 has no null type, and `nullable` widens only a `type` beside
 * it (so OpenAPI 3.0.3 reads it, and ajv refuses `nullable` without `type`): a nullable reference cannot be
 * written `{ oneOf: [{ $ref }], nullable: true }`, so its null alternative stays an alternative.
 */
const nullOnly = (): Json => ({ enum: [null] });

/**
 * The OpenAPI 3.1 document rendered as OpenAPI 3.0.3, for clients that read 3.0 only or faster (Swagger UI).
 * A deep copy: the input is left as it is. The 3.1 constructs the generated document uses become:
 * - a list of types: `["string", "null"]` → `type: string, nullable: true`; several types → `anyOf` of each;
 * - `type: "null"`, alone or as a `oneOf`/`anyOf` alternative → `enum: [null]` (its other keywords kept);
 * - `const: v` → `enum: [v]`;
 * - `type: array` without `items`, which 3.0 requires → `items: {}`;
 * - a tuple's `prefixItems: [a, b]` → `items: { anyOf: [a, b] }`.
 */
export function convertToOpenApi30(document: Json): Json {
  return { ...convertObject(document), openapi: '3.0.3' };
}

function convertNode(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(convertNode);
  return isObject(node) ? convertObject(node) : node;
}

/** Converts a schema (or any other object of the document) and what it holds, keeping the order of its keys. */
function convertObject(node: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type' && (Array.isArray(value) || value === 'null')) {
      const replacement = convertType([value].flat());
      if ('anyOf' in replacement && 'anyOf' in node) {
        throw new Error(`No OpenAPI 3.0 form for a list of types beside anyOf: ${JSON.stringify(node)}`);
      }
      Object.assign(out, replacement);
    } else if (key === 'const') {
      out.enum = [structuredClone(value)];
    } else if (key === 'prefixItems' && Array.isArray(value)) {
      // 3.0 has no tuples: each item is any of the positions' schemas (minItems/maxItems keep the length).
      out.items = { anyOf: value.map(convertNode) };
    } else if (key === 'properties' && isObject(value)) {
      // A map of property names to schemas: `type`, `default` or `const` there name properties.
      out[key] = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, convertNode(schema)]));
    } else {
      out[key] = DATA_KEYWORDS.has(key) ? structuredClone(value) : convertNode(value);
    }
  }
  if (out.type === 'array' && !('items' in out)) out.items = {};
  return out;
}

/** The 3.0 keywords for a 3.1 list of types (`type: "null"` is the list `["null"]`). */
function convertType(listed: unknown[]): Json {
  const types = listed.filter((t) => t !== 'null');
  const nullable = types.length < listed.length;
  if (types.length === 0) return nullOnly();
  if (types.length === 1) return nullable ? { type: types[0], nullable: true } : { type: types[0] };
  return { anyOf: [...types.map((type) => ({ type })), ...(nullable ? [nullOnly()] : [])] };
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
