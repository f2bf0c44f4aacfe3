import { Ajv2020 } from 'ajv/dist/2020.js';
import { decodeJsonValue } from '../kinds/kind.js';
import { rowOf } from './interfaces.js';
import type { DomainEntry, WriteItemContext } from './types.js';

/**
 * Module type profiles: a profile's `schema` is a JSON schema (NetBox's validate_schema, which checks it
 * against its meta-schema), and a module type's attributes are validated by its profile's schema.
 */

const ajv = new Ajv2020({ strict: false, allErrors: false, validateSchema: true });

/** Why a JSON schema definition is invalid, or null when it is valid (null and '' are valid: none). */
export function schemaDefinitionError(schema: unknown): string | null {
  if (schema === null || schema === undefined || schema === '') return null;
  if (typeof schema !== 'object' || Array.isArray(schema)) return 'Invalid JSON schema definition';
  try {
    if (!ajv.validateSchema(schema)) return `Invalid JSON schema definition: ${ajv.errorsText(ajv.errors)}`;
    ajv.compile(schema);
  } catch (error) {
    return `Invalid JSON schema definition: ${(error as Error).message}`;
  }
  return null;
}

/** Why a value does not satisfy a schema (NetBox's "Invalid schema: …"), or null when it does. */
export function schemaValueError(schema: Record<string, unknown>, value: unknown): string | null {
  const validate = ajv.compile(schema);
  if (validate(value)) return null;
  const [first] = validate.errors ?? [];
  const where = first?.instancePath ? `${first.instancePath.slice(1).replaceAll('/', '.')}: ` : '';
  return `Invalid schema: ${where}${first?.message ?? 'invalid'}`;
}

/** A profile's `schema` must be a valid JSON schema definition. */
function validateJsonSchema(item: WriteItemContext): void {
  const error = schemaDefinitionError(item.values.schema);
  if (error) item.errors.add('schema', error);
}

/** A module type's attributes against its profile's schema (left alone, then cleared, without one). */
async function validateModuleTypeAttributes(item: WriteItemContext): Promise<void> {
  const profile = await rowOf(item.q, item.schema, 'dcim.moduletypeprofile', item.values.profile, ['schema']);
  const schema = profile ? decodeJsonValue(profile.schema) : null;
  if (!schema || typeof schema !== 'object' || Object.keys(schema).length === 0) return;
  const error = schemaValueError(schema as Record<string, unknown>, item.values.attributes ?? null);
  if (error) item.errors.add('__all__', error);
}

export const moduleFunctions = {
  'dcim.validateJsonSchema': { kind: 'validator', fn: validateJsonSchema },
  'dcim.validateModuleTypeAttributes': { kind: 'validator', fn: validateModuleTypeAttributes },
} satisfies Record<string, DomainEntry>;
