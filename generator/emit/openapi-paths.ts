import type { ModelSpec } from '../../runtime/spec.js';
import { apiSegment, apiTag } from '../names.js';
import { errorResponses, jsonContent } from './openapi-components.js';
import { schemaRef, type Json } from './openapi-json.js';
import { listParameters, SELECTION_PARAMETERS, sharedParameters } from './openapi-parameters.js';
import { schemaNames, type SchemaContext } from './openapi-read.js';
import { updateRequestName } from './openapi-write.js';

/**
 * The list and detail paths of one model (runtime/http/handlers.ts and the generated route mounting):
 * list GET/POST/PUT/PATCH/DELETE and detail GET/PUT/PATCH/DELETE, only GET for read-only models, and
 * OPTIONS on both. Object responses reference the complete representation, whose keys are all required, as
 * NetBox's document does; `fields`, `omit` and `brief` narrow it (to the `Selected…` form) when given.
 */
export function modelPaths(ctx: SchemaContext, model: ModelSpec): Record<string, Json> {
  const names = schemaNames(ctx, model);
  const id = `${apiSegment(model).replace('/', '_')}_${model.path!.replace(/-/g, '_')}`;
  const tags = [apiTag(model)];
  const plural = model.verboseNamePlural;
  const one = model.verboseName;
  const shared = sharedParameters();
  const selection = SELECTION_PARAMETERS.map((name) => shared[name]!);
  const selected = schemaRef(names.full);
  const operation = (operationId: string, summary: string, rest: Json, precondition = false): Json => ({
    operationId,
    summary,
    tags,
    ...rest,
    responses: { ...(rest.responses as Json), ...errorResponses(precondition) },
  });
  const body = (schema: Json, required = true): Json => ({ requestBody: { required, content: jsonContent(schema) } });
  // Models with image fields also take single objects as multipart forms (the only way to send a file).
  const uploads = model.fields.some((f) => f.kind === 'image');
  const objectBody = (schema: Json, json: Json = schema): Json =>
    uploads
      ? { requestBody: { required: true, content: { ...jsonContent(json), 'multipart/form-data': { schema } } } }
      : body(json);
  const ok = (description: string, schema: Json, headers?: Json): Json => ({
    description,
    ...(headers ? { headers } : {}),
    content: jsonContent(schema),
  });
  const etag = {
    ETag: {
      description: 'Weak ETag of the object (`W/"<last_updated>"`), for `If-Match`.',
      schema: { type: 'string' },
    },
  };
  const noContent = { '204': { description: 'Deleted.' } };
  const bulkItem = (request: string): Json => ({
    allOf: [
      schemaRef(request),
      { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 0 } } },
    ],
  });
  const options = (operationId: string, detail: boolean): Json => ({
    operationId,
    summary: `Describe the ${detail ? `${one} detail` : `${plural} list`} endpoint`,
    tags,
    // OPTIONS needs no login; credentials only decide whether `actions` is present.
    security: [{}, { tokenAuth: [] }],
    responses: { '200': ok('Endpoint metadata.', schemaRef('EndpointMetadata')), ...errorResponses() },
  });

  const list: Json = {
    get: operation(`${id}_list`, `List ${plural}`, {
      parameters: listParameters(model, ctx.models),
      responses: { '200': ok(`A page of ${plural}.`, schemaRef(names.paginated)) },
    }),
  };
  const detail: Json = {
    parameters: [
      {
        name: 'id',
        in: 'path',
        required: true,
        description: `The ${one}'s id.`,
        // A string id (NetBox's RQ tasks) is still a number.
        schema: model.stringId ? { type: 'string', pattern: '^[0-9]+$' } : { type: 'integer', minimum: 0 },
      },
    ],
    get: operation(`${id}_retrieve`, `Get a ${one}`, {
      parameters: selection,
      responses: { '200': ok(`The ${one}.`, selected, etag) },
    }),
  };
  if (!model.readOnly) {
    const update = updateRequestName(ctx, model);
    const array = (schema: Json): Json => ({ type: 'array', items: schema });
    list.post = operation(`${id}_create`, `Create one ${one} or several`, {
      description:
        'A JSON object creates one object; a JSON array creates several, all or none (errors come back aligned).',
      parameters: selection,
      ...objectBody(schemaRef(names.request), {
        oneOf: [schemaRef(names.request), { ...array(schemaRef(names.request)), minItems: 1 }],
      }),
      responses: {
        '201': ok(
          `The created ${one} (object), or the created ${plural} in request order (array).`,
          { oneOf: [selected, array(selected)] },
          {
            Location: {
              description: 'URL of the created object (single create).',
              schema: { type: 'string', format: 'uri' },
            },
            ...etag,
          },
        ),
      },
    });
    list.put = operation(`${id}_bulk_update`, `Replace several ${plural}`, {
      description: 'Every item carries the `id` of an existing object; all or none are changed.',
      parameters: selection,
      ...body(array(bulkItem(update))),
      responses: { '200': ok(`The updated ${plural}.`, array(selected)) },
    });
    list.patch = operation(`${id}_bulk_partial_update`, `Change several ${plural}`, {
      description: 'Every item carries the `id` of an existing object; all or none are changed.',
      parameters: selection,
      ...body(array(bulkItem(names.patched))),
      responses: { '200': ok(`The updated ${plural}.`, array(selected)) },
    });
    list.delete = operation(`${id}_bulk_destroy`, `Delete several ${plural}`, {
      description: 'All or none are deleted.',
      ...body(array(schemaRef('BulkDeleteItem'))),
      responses: noContent,
    });
    detail.put = operation(
      `${id}_update`,
      `Replace a ${one}`,
      {
        parameters: selection,
        ...objectBody(schemaRef(update)),
        responses: { '200': ok(`The updated ${one}.`, selected, etag) },
      },
      true,
    );
    detail.patch = operation(
      `${id}_partial_update`,
      `Change a ${one}`,
      {
        parameters: selection,
        ...objectBody(schemaRef(names.patched)),
        responses: { '200': ok(`The updated ${one}.`, selected, etag) },
      },
      true,
    );
    detail.delete = operation(
      `${id}_destroy`,
      `Delete a ${one}`,
      { ...body(schemaRef('DeleteRequest'), false), responses: noContent },
      true,
    );
  }
  list.options = options(`${id}_list_options`, false);
  detail.options = options(`${id}_options`, true);
  const base = `/api/${apiSegment(model)}/${model.path}/`;
  return { [base]: list, [`${base}{id}/`]: detail };
}
