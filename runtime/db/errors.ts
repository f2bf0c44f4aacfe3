import type { UniqueSpec } from '../spec.js';
import { ApiError, ConflictError, ServiceUnavailableError, ValidationError } from '../errors.js';

/** What the translation needs of the models (the runtime's schema fits): their tables and unique rules. */
export interface UniqueModels {
  models: ReadonlyMap<
    string,
    { table: string; spec: { uniques: readonly UniqueSpec[] }; fields: ReadonlyMap<string, { column?: string }> }
  >;
}

/**
 * Translates a database error caused by client input (a unique or foreign-key violation that slipped past
 * validation, e.g. in a race) into the API's error; returns null for anything else.
 */
export function translateDatabaseError(error: unknown, schema: UniqueModels): ApiError | null {
  const e = error as { code?: string; constraint?: string; message?: string; table?: string };
  if (isUniqueViolation(error) || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    const unique = findUnique(schema, e);
    if (unique) return new ValidationError({ [unique.errorKey]: [unique.message] });
    return new ValidationError({ __all__: ['An object with these values already exists.'] });
  }
  if (e.code === '23503' || e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
    return new ConflictError('Unable to complete the request: other objects still refer to this object.');
  }
  if (e.code === '2201B') return new ValidationError({ detail: 'Invalid regular expression.' });
  if (e.code === '22003') return new ValidationError({ detail: 'A number is out of range.' });
  if (isConnectionError(error)) return new ServiceUnavailableError(DATABASE_UNAVAILABLE);
  return null;
}

/**
 * What a constraint the database enforces says about a refused row, in one line for an operator's report,
 * without the statement or the driver's message: `<column>: This field may not be null.` for a NOT NULL, the
 * constraint's name for a CHECK; null when the error is not a constraint violation.
 */
export function describeConstraintViolation(error: unknown): string | null {
  const e = error as { code?: unknown; column?: unknown; constraint?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return null;
  const message = typeof e.message === 'string' ? e.message : '';
  // SQLite names the column or constraint after "failed: " (`NOT NULL constraint failed: dcim_site.name`).
  const sqliteSubject = /constraint failed: ([\w.]+)/.exec(message)?.[1];
  if (e.code === '23502' || e.code === 'SQLITE_CONSTRAINT_NOTNULL') {
    const column = typeof e.column === 'string' ? e.column : sqliteSubject?.split('.').pop();
    return `${column ?? 'a field'}: This field may not be null.`;
  }
  if (e.code === '23514' || e.code === 'SQLITE_CONSTRAINT_CHECK') {
    const name = typeof e.constraint === 'string' ? e.constraint : sqliteSubject;
    return `The row breaks the database's rule ${name ?? 'on its values'}.`;
  }
  if (isUniqueViolation(error) || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
    return 'An object with these values already exists.';
  if (e.code === '23503' || e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY')
    return 'It refers to an object that does not exist.';
  if (typeof e.code === 'string' && (e.code.startsWith('23') || e.code.startsWith('SQLITE_CONSTRAINT')))
    return 'The database refused the row (a constraint on its values).';
  return null;
}

/** Whether the database refused a write for a duplicate value of a unique index. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** The API's answer while the database cannot be reached (never the driver's message). */
export const DATABASE_UNAVAILABLE = 'The database is unavailable; try again shortly.';

/** A DATABASE_URL that cannot be used as given (e.g. a SQLite file in a folder that does not exist). */
export class DatabaseUrlError extends Error {}

/** Node's network error codes that mean the server could not be reached or the connection broke. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);

/**
 * Whether an error means the database cannot be reached or the connection broke (as opposed to a query
 * it refused): network errors, PostgreSQL's connection and shutdown classes (08…, 57P0x, too many
 * connections), and the pool's time-out or a connection that ended while in use.
 */
export function isConnectionError(error: unknown): boolean {
  const e = error as { code?: unknown; name?: unknown; message?: unknown; errors?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  const code = typeof e.code === 'string' ? e.code : '';
  if (NETWORK_CODES.has(code) || code.startsWith('08') || /^57P0[1-3]$/.test(code) || code === '53300') return true;
  if (e.name === 'KnexTimeoutError') return true;
  if (Array.isArray(e.errors) && e.errors.some(isConnectionError)) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  return /^Connection terminated|Client has encountered a connection error|timeout exceeded when trying to connect|Client was closed and is not queryable/.test(
    message,
  );
}

/**
 * One line for an operator when the database of DATABASE_URL cannot be used at start-up (missing,
 * unreachable, refusing the credentials, a SQLite folder that does not exist), naming the setting and the
 * place without its password; null for other errors.
 */
export function describeDatabaseFailure(error: unknown, url: string): string | null {
  const e = error as { code?: string; message?: string } | null;
  const where = redactUrl(url);
  if (error instanceof DatabaseUrlError) return `DATABASE_URL (${where}): ${error.message}.`;
  const reason =
    e?.code === '3D000'
      ? 'the database does not exist'
      : e?.code === '28P01' || e?.code === '28000'
        ? 'the server refused the credentials'
        : isConnectionError(error)
          ? 'the server cannot be reached'
          : null;
  if (!reason) return null;
  return `DATABASE_URL (${where}): ${reason} (${firstLine(e?.message)}).`;
}

function firstLine(text: string | undefined): string {
  return (text ?? '').split('\n')[0]!.slice(0, 200) || 'no details';
}

/** A database URL with its password replaced, for messages. */
export function redactUrl(url: string): string {
  if (url.startsWith('sqlite:')) return url;
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return '<invalid URL>';
  }
}

function findUnique(schema: UniqueModels, e: { constraint?: string; message?: string }): UniqueSpec | undefined {
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
