import { closedObject, responseRef, schemaRef, type Json } from './openapi-json.js';

/**
 * Components every operation shares: the security scheme, the error responses (bodies as
 * runtime/errors.ts and runtime/http/error-handler.ts produce them) and the OPTIONS metadata (runtime/rest/options.ts).
 */

/** `components.securitySchemes`. */
export function securitySchemes(): Record<string, Json> {
  return {
    tokenAuth: {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description:
        'An API token in the `Authorization` header: `Bearer svc_<KEY>.<TOKEN>` for a v2 token or `Token <TOKEN>` for a ' +
        "v1 token (the version is read from the value, not the keyword). The tokens endpoint's `provision/` action " +
        'exchanges a username and password for a token. Bad or missing credentials are answered with 403.',
    },
  };
}

/** Error and metadata schemas (`components.schemas`). */
export function sharedSchemas(): Record<string, Json> {
  const stringList = { type: 'array', items: { type: 'string' } };
  return {
    ErrorDetail: closedObject({ detail: { type: 'string' } }, ['detail'], 'An error with a single message.'),
    FieldErrors: {
      type: 'object',
      description:
        'Validation errors by field name (`__all__` and `non_field_errors` for errors of the whole object): a list of ' +
        'messages, messages by name for structured fields such as `custom_fields`, or per-item errors of a child ' +
        "list such as a front port's `rear_ports` (`{}` for valid items).",
      additionalProperties: {
        anyOf: [
          stringList,
          { type: 'object', additionalProperties: { anyOf: [{ type: 'string' }, stringList] } },
          { type: 'array', items: { type: 'object', additionalProperties: stringList } },
        ],
      },
    },
    ValidationErrorBody: {
      description:
        'A 400 body: field errors of one object; a list aligned with a bulk create (`{}` for valid items); a bare ' +
        'list of messages (pagination misuse); or `{detail}` for a request that cannot be processed at all.',
      anyOf: [
        schemaRef('ErrorDetail'),
        schemaRef('FieldErrors'),
        { type: 'array', items: { type: 'string' } },
        { type: 'array', items: schemaRef('FieldErrors') },
      ],
    },
    ServerError: closedObject(
      {
        error: { type: 'string' },
        exception: { type: 'string' },
        netbox_version: { type: 'string' },
        node_version: { type: 'string' },
      },
      ['error', 'exception', 'netbox_version', 'node_version'],
      'An unexpected error (500).',
    ),
    BulkDeleteItem: closedObject(
      {
        id: { type: 'integer', minimum: 0 },
        changelog_message: { type: 'string', maxLength: 200, description: 'Message stored with the change record.' },
      },
      ['id'],
      'One object of a bulk delete.',
    ),
    DeleteRequest: closedObject(
      { changelog_message: { type: 'string', maxLength: 200, description: 'Message stored with the change record.' } },
      [],
      'The optional body of a DELETE.',
    ),
    EndpointMetadata: closedObject(
      {
        name: { type: 'string' },
        description: { type: 'string' },
        renders: stringList,
        parses: stringList,
        actions: closedObject(
          {
            POST: { type: 'object', additionalProperties: schemaRef('FieldMetadata') },
            PUT: { type: 'object', additionalProperties: schemaRef('FieldMetadata') },
          },
          [],
          'Present when the user may create (list, `POST`) or change (detail, `PUT`) objects.',
        ),
      },
      ['name', 'description', 'renders', 'parses'],
      "DRF's OPTIONS metadata of an endpoint.",
    ),
    FieldMetadata: closedObject(
      {
        type: { type: 'string' },
        required: { type: 'boolean' },
        read_only: { type: 'boolean' },
        label: { type: 'string' },
        help_text: { type: 'string' },
        max_length: { type: 'integer' },
        min_value: { type: 'number' },
        max_value: { type: 'number' },
        max_digits: { type: 'integer' },
        decimal_places: { type: 'integer' },
        choices: {
          type: 'array',
          items: closedObject({ value: { type: ['string', 'number', 'boolean'] }, display_name: { type: 'string' } }, [
            'value',
            'display_name',
          ]),
        },
        child: schemaRef('FieldMetadata'),
        children: { type: 'object', additionalProperties: schemaRef('FieldMetadata') },
      },
      ['type', 'required', 'read_only'],
      'How one field is written and read.',
    ),
  };
}

const json = (schema: Json): Json => ({ 'application/json': { schema } });

/** `components.responses`: the error responses, referenced by name from operations. */
export function sharedResponses(): Record<string, Json> {
  const detail = (description: string): Json => ({ description, content: json(schemaRef('ErrorDetail')) });
  return {
    ValidationError: { description: 'Invalid request.', content: json(schemaRef('ValidationErrorBody')) },
    Forbidden: detail('Not authenticated, bad credentials, or not permitted.'),
    NotFound: detail('No such object, or not visible to the user.'),
    MethodNotAllowed: detail('The method is not allowed on this endpoint.'),
    Conflict: detail('Blocked by other objects (e.g. protected dependents on delete).'),
    PreconditionFailed: {
      description: '`If-Match` does not match the current ETag.',
      headers: { ETag: { description: 'The current ETag.', schema: { type: 'string' } } },
      content: json(schemaRef('ErrorDetail')),
    },
    UnsupportedMediaType: detail('The request body is not JSON.'),
    Error: {
      description: 'Any other error (406 bad Accept version, 413 body too large, 500, …).',
      content: json({ anyOf: [schemaRef('ErrorDetail'), schemaRef('ServerError')] }),
    },
  };
}

/** The error responses of an operation; `precondition` for detail writes that honour `If-Match`. */
export function errorResponses(precondition = false): Record<string, Json> {
  return {
    '400': responseRef('ValidationError'),
    '403': responseRef('Forbidden'),
    '404': responseRef('NotFound'),
    '405': responseRef('MethodNotAllowed'),
    '409': responseRef('Conflict'),
    ...(precondition ? { '412': responseRef('PreconditionFailed') } : {}),
    '415': responseRef('UnsupportedMediaType'),
    default: responseRef('Error'),
  };
}

/** The JSON content of a response or body. */
export function jsonContent(schema: Json): Json {
  return json(schema);
}
