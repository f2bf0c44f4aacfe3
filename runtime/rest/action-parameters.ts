import { ValidationError } from '../errors.js';

const TRUE = new Set(['true', '1', 'yes', 'on', 't', 'y']);
const FALSE = new Set(['false', '0', 'no', 'off', 'f', 'n']);

/**
 * The query parameters an action declares (JSON Schemas of type integer, boolean or string, with `enum`,
 * `minimum`, `maximum` and `default`), parsed as DRF's serializer fields parse them. An absent parameter
 * takes its default (or null); every invalid one is reported in one 400.
 */
export function parseQueryParameters(
  declared: Record<string, Record<string, unknown>>,
  params: URLSearchParams,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const errors: Record<string, string[]> = {};
  for (const [name, schema] of Object.entries(declared)) {
    const raw = params.get(name);
    if (raw === null || raw === '') {
      values[name] = schema.default ?? null;
      continue;
    }
    const parsed = parseValue(schema, raw.trim());
    if (parsed instanceof ParameterError) errors[name] = [parsed.message];
    else values[name] = parsed;
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return values;
}

class ParameterError {
  constructor(readonly message: string) {}
}

function parseValue(schema: Record<string, unknown>, raw: string): unknown {
  const types = ([] as unknown[]).concat(schema.type);
  if (types.includes('integer')) {
    if (!/^-?\d+$/.test(raw)) return new ParameterError('A valid integer is required.');
    const value = Number(raw);
    if (typeof schema.minimum === 'number' && value < schema.minimum)
      return new ParameterError(`Ensure this value is greater than or equal to ${schema.minimum}.`);
    if (typeof schema.maximum === 'number' && value > schema.maximum)
      return new ParameterError(`Ensure this value is less than or equal to ${schema.maximum}.`);
    return value;
  }
  if (types.includes('boolean')) {
    const lower = raw.toLowerCase();
    if (TRUE.has(lower)) return true;
    if (FALSE.has(lower)) return false;
    return new ParameterError('Must be a valid boolean.');
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(raw))
    return new ParameterError(`"${raw}" is not a valid choice.`);
  return raw;
}
