import type { UniqueSpec } from '../spec.js';
import type { Schema } from '../rest/schema.js';
import { ApiError, ConflictError, ValidationError } from '../http/errors.js';

/**
 * Translates a database error caused by client input (a unique or foreign-key violation that slipped past
 * validation, e.g. in a race) into the API's error; returns null for anything else.
 */
export function translateDatabaseError(error: unknown, schema: Schema): ApiError | null {
  const e = error as { code?: string; constraint?: string; message?: string; table?: string };
  if (e.code === '23505' || e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    const unique = findUnique(schema, e);
    if (unique) return new ValidationError({ [unique.errorKey]: [unique.message] });
    return new ValidationError({ __all__: ['An object with these values already exists.'] });
  }
  if (e.code === '23503' || e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
    return new ConflictError('Unable to complete the request: other objects still refer to this object.');
  }
  if (e.code === '2201B') return new ValidationError({ detail: 'Invalid regular expression.' });
  if (e.code === '22003') return new ValidationError({ detail: 'A number is out of range.' });
  return null;
}

function findUnique(schema: Schema, e: { constraint?: string; message?: string }): UniqueSpec | undefined {
  for (const model of schema.models.values()) {
    for (const unique of model.spec.uniques) {
      if (e.constraint && e.constraint === unique.name) return unique;
      // SQLite: "UNIQUE constraint failed: dcim_site.name" (or "index 'name'")
      if (e.message?.includes(`index '${unique.name}'`)) return unique;
      const columns = unique.fields.map((f) => `${model.table}.${model.fields.get(f)?.column ?? f}`).join(', ');
      if (e.message?.endsWith(`UNIQUE constraint failed: ${columns}`)) return unique;
    }
  }
  return undefined;
}
