/**
 * The error types of the API. Handlers throw them; one Express error handler (error-handler.ts) turns
 * each into its status code and NetBox's error body.
 */

export type ErrorBody = Record<string, unknown> | unknown[];

/** Base class: a status and the exact JSON body the client receives. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(
      typeof (body as { detail?: unknown }).detail === 'string'
        ? (body as { detail: string }).detail
        : JSON.stringify(body),
    );
  }
}

/**
 * Thrown by a write that skipped the questions the database answers itself (unique values) and found
 * invalid input: the write is run again with them, for the complete error body. Never reaches a client.
 */
export class CheckAgain extends Error {}

/** Field errors: `{field: [messages]}`, a bare list, or a list aligned with a bulk request. */
export class ValidationError extends ApiError {
  constructor(body: ErrorBody) {
    super(400, body);
  }
}

/** A request that cannot be processed at all: `{detail}` with status 400. */
export class BadRequestError extends ApiError {
  constructor(detail: string) {
    super(400, { detail });
  }
}

export class AuthenticationError extends ApiError {
  constructor(detail = 'Authentication credentials were not provided.') {
    super(403, { detail });
  }
}

export class PermissionDeniedError extends ApiError {
  constructor(detail = 'You do not have permission to perform this action.') {
    super(403, { detail });
  }
}

export class NotFoundError extends ApiError {
  constructor(detail = 'Not found.') {
    super(404, { detail });
  }
}

export class MethodNotAllowedError extends ApiError {
  constructor(method: string) {
    super(405, { detail: `Method "${method}" not allowed.` });
  }
}

/** Deletion blocked by protected dependents, and similar conflicts. */
export class ConflictError extends ApiError {
  constructor(detail: string) {
    super(409, { detail });
  }
}

export class PreconditionFailedError extends ApiError {
  constructor(etag: string | null) {
    super(412, { detail: 'Precondition failed.' }, etag ? { ETag: etag } : {});
  }
}

export class PayloadTooLargeError extends ApiError {
  constructor(limit: number, what = 'Request body') {
    super(413, { detail: `${what} exceeds the limit of ${limit} bytes.` });
  }
}

export class UnsupportedMediaTypeError extends ApiError {
  constructor(mediaType: string) {
    super(415, { detail: `Unsupported media type "${mediaType}" in request.` });
  }
}

export class NotAcceptableError extends ApiError {
  constructor(detail: string) {
    super(406, { detail });
  }
}

export class ServiceUnavailableError extends ApiError {
  constructor(detail: string) {
    super(503, { detail });
  }
}

/** Collects `{field: [messages]}` while validating; empty means valid. */
export class FieldErrors {
  readonly errors: Record<string, unknown> = {};

  add(field: string, message: string): void {
    const list = (this.errors[field] ??= []) as string[];
    list.push(message);
  }

  /** Sets a structured error (e.g. a nested object of errors). */
  set(field: string, value: unknown): void {
    this.errors[field] = value;
  }

  has(field?: string): boolean {
    return field === undefined ? Object.keys(this.errors).length > 0 : field in this.errors;
  }
}
