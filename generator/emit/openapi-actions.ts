import type { ActionSpec, ActionValue, ModelSpec } from '../../runtime/spec.js';
import { apiSegment, apiTag, toPascalCase } from '../names.js';
import { errorResponses, jsonContent } from './openapi-components.js';
import { closedObject, described, schemaRef, withNull, type Json } from './openapi-json.js';
import { SELECTION_PARAMETERS, sharedParameters } from './openapi-parameters.js';
import { ensureSchema, schemaNames, type SchemaContext } from './openapi-read.js';
import { addRequestSchemas } from './openapi-write.js';

/**
 * The paths of a model's actions (runtime/http/actions.ts): `GET` (and `POST` for allocations) on
 * `/api/<app>/<path>/{id}/<action>/`. Item and request schemas are components named after the model and
 * the action (`PrefixAvailableIpsItem`, `PrefixAvailableIpsRequest`).
 */
export function actionPaths(ctx: SchemaContext, model: ModelSpec): Record<string, Json> {
  const paths: Record<string, Json> = {};
  for (const action of model.actions) {
    if (action.kind === 'locate') paths[`/api/${apiSegment(model)}/${action.name}/`] = locatePath(ctx, model, action);
    else paths[`/api/${apiSegment(model)}/${model.path!}/{id}/${action.name}/`] = actionPath(ctx, model, action);
  }
  return paths;
}

/** `GET /api/<app>/<name>/`: the one object that the (required) query parameters lead to, or 404. */
function locatePath(ctx: SchemaContext, model: ModelSpec, action: ActionSpec): Json {
  const id = `${apiSegment(model).replace('/', '_')}_${action.name.replace(/-/g, '_')}`;
  const parameters = Object.entries(action.parameters).map(([name, schema]) => {
    const { description, ...rest } = schema;
    return {
      name,
      in: 'query',
      required: true,
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
  const tags = [apiTag(model)];
  return {
    get: {
      operationId: `${id}_list`,
      summary: `The ${model.verboseName} that the parameters lead to`,
      ...(action.description ? { description: action.description } : {}),
      tags,
      parameters,
      responses: {
        '200': {
          description: `The ${model.verboseName}.`,
          content: jsonContent(schemaRef(schemaNames(ctx, model).full)),
        },
        ...errorResponses(),
      },
    },
    options: optionsOperation(action, id, tags),
  };
}

function actionPath(ctx: SchemaContext, model: ModelSpec, action: ActionSpec): Json {
  const base = `${ctx.baseNames.get(model.label)!}${toPascalCase(action.name.replace(/-/g, ' '))}`;
  const id = `${apiSegment(model).replace('/', '_')}_${model.path!.replace(/-/g, '_')}_${action.name.replace(/-/g, '_')}`;
  if (action.kind === 'run') return runPath(ctx, model, action, base, id);
  const itemName = ensureSchema(ctx, `${base}Item`, () => itemSchema(ctx, action));
  const shared = sharedParameters();
  const tags = [apiTag(model)];
  const item: Json = {
    parameters: [
      {
        name: 'id',
        in: 'path',
        required: true,
        description: `The ${model.verboseName}'s id.`,
        schema: { type: 'integer', minimum: 0 },
      },
    ],
  };
  const array = (schema: Json): Json => ({ type: 'array', items: schema });
  if (action.kind === 'allocate') {
    const created = ctx.models.get(action.creates!)!;
    const requestName = ensureSchema(ctx, `${base}Request`, () => requestSchema(ctx, created, action));
    const selected = schemaRef(schemaNames(ctx, created).full);
    item.get = {
      operationId: `${id}_list`,
      summary: `List the ${action.name.replace(/-/g, ' ')} of a ${model.verboseName}`,
      ...(action.description ? { description: action.description } : {}),
      tags,
      parameters: [shared.limit],
      responses: {
        '200': {
          description: 'What is free, first available first.',
          content: jsonContent(array(schemaRef(itemName))),
        },
        ...errorResponses(),
      },
    };
    item.post = {
      operationId: `${id}_create`,
      summary: `Allocate ${created.verboseNamePlural} from the ${action.name.replace(/-/g, ' ')} of a ${model.verboseName}`,
      description:
        'A JSON object allocates one object; a JSON array several, all or none. 409 when there is not enough room.',
      tags,
      parameters: SELECTION_PARAMETERS.map((name) => shared[name]!),
      requestBody: {
        required: true,
        content: jsonContent({
          oneOf: [schemaRef(requestName), { ...array(schemaRef(requestName)), minItems: 1 }],
        }),
      },
      responses: {
        '201': {
          description: `The created ${created.verboseName} (object), or the created ${created.verboseNamePlural} (array).`,
          content: jsonContent({ oneOf: [selected, array(selected)] }),
        },
        ...errorResponses(),
      },
    };
  } else {
    const parameters = Object.entries(action.parameters).map(([name, schema]) => {
      const { description, ...rest } = schema;
      return { name, in: 'query', ...(typeof description === 'string' ? { description } : {}), schema: rest };
    });
    const items = array(schemaRef(itemName));
    const json = action.paginated
      ? closedObject(
          {
            count: { type: 'integer', minimum: 0 },
            next: { type: ['string', 'null'], format: 'uri' },
            previous: { type: ['string', 'null'], format: 'uri' },
            results: items,
          },
          ['count', 'next', 'previous', 'results'],
        )
      : items;
    const content: Json = { ...jsonContent(json) };
    for (const media of action.media) content[media] = { schema: { type: 'string' } };
    item.get = {
      operationId: `${id}_retrieve`,
      summary: `The ${action.name.replace(/-/g, ' ')} of a ${model.verboseName}`,
      ...(action.description ? { description: action.description } : {}),
      tags,
      parameters: [...(action.paginated ? [shared.limit, shared.offset] : []), ...parameters].sort((a, b) =>
        String((a as Json).name) < String((b as Json).name) ? -1 : 1,
      ),
      responses: { '200': { description: action.description ?? action.name, content }, ...errorResponses() },
    };
  }
  item.options = optionsOperation(action, id, tags);
  return item;
}

function optionsOperation(action: ActionSpec, id: string, tags: readonly string[]): Json {
  return {
    operationId: `${id}_options`,
    summary: `Describe the ${action.name.replace(/-/g, ' ')} endpoint`,
    tags,
    security: [{}, { tokenAuth: [] }],
    responses: {
      '200': { description: 'Endpoint metadata.', content: jsonContent(schemaRef('EndpointMetadata')) },
      ...errorResponses(),
    },
  };
}

/**
 * `POST /api/<app>/<path>/{id}/<action>/` of a run action: a JSON object in (its keys are the function's), the
 * declared item (or the object itself) out, or the action's other media types when the Accept header asks.
 */
function runPath(ctx: SchemaContext, model: ModelSpec, action: ActionSpec, base: string, id: string): Json {
  const tags = [apiTag(model)];
  const answer = Object.keys(action.item).length
    ? schemaRef(ensureSchema(ctx, `${base}Response`, () => itemSchema(ctx, action)))
    : schemaRef(schemaNames(ctx, model).full);
  const content: Json = { ...jsonContent(answer) };
  for (const media of action.media) content[media] = { schema: { type: 'string' } };
  return {
    parameters: [
      {
        name: 'id',
        in: 'path',
        required: true,
        description: `The ${model.verboseName}'s id.`,
        schema: { type: 'integer', minimum: 0 },
      },
    ],
    post: {
      operationId: `${id}_create`,
      summary: `${toPascalCase(action.name.replace(/-/g, ' ')).replace(/([a-z])([A-Z])/g, '$1 $2')} a ${model.verboseName}`,
      ...(action.description ? { description: action.description } : {}),
      tags,
      requestBody: { required: false, content: jsonContent({ type: 'object', additionalProperties: true }) },
      responses: {
        '200': { description: action.description ?? action.name, content },
        ...errorResponses(),
        // NetBox's render actions answer `{"error": …}` when there is nothing to render (no template).
        '400': {
          description: 'Invalid request, or nothing to answer it with (NetBox\'s `{"error": …}`).',
          content: {
            ...jsonContent({
              anyOf: [schemaRef('ValidationErrorBody'), closedObject({ error: { type: 'string' } }, ['error'])],
            }),
            ...Object.fromEntries(action.media.map((media) => [media, { schema: { type: 'string' } }])),
          },
        },
      },
    },
    options: optionsOperation(action, id, tags),
  };
}

/** One item of the GET response: the declared keys, all present. */
function itemSchema(ctx: SchemaContext, action: ActionSpec): Json {
  const properties: Json = {};
  for (const [key, value] of Object.entries(action.item)) properties[key] = valueSchema(ctx, value);
  if (action.tuple) {
    const items = Object.values(properties as Record<string, Json>);
    return {
      type: 'array',
      prefixItems: items,
      minItems: items.length,
      maxItems: items.length,
      description: action.description ?? '',
    };
  }
  return closedObject(properties, Object.keys(action.item), action.description);
}

function valueSchema(ctx: SchemaContext, value: ActionValue): Json {
  if (value.kind === 'schema') return value.schema;
  const target = ctx.models.get(value.model)!;
  const ref = schemaRef(schemaNames(ctx, target).nested);
  return value.nullable ? withNull(ref) : ref;
}

/**
 * A request item of an allocation: the created model's create body without the fields the allocator
 * assigns, plus the action's own parameters.
 */
function requestSchema(ctx: SchemaContext, created: ModelSpec, action: ActionSpec): Json {
  addRequestSchemas(ctx, created);
  const body = ctx.schemas.get(schemaNames(ctx, created).request)!;
  const properties = { ...(body.properties as Json) };
  for (const field of action.assigns) delete properties[field];
  for (const [name, schema] of Object.entries(action.parameters)) properties[name] = schema;
  const required = ((body.required as string[] | undefined) ?? []).filter((name) => !action.assigns.includes(name));
  return described(
    { ...closedObject(properties, required) },
    `A request to ${action.name.replace(/-/g, ' ')}: a ${created.verboseName} without ${action.assigns.join(' and ')}, which the allocation assigns.`,
  );
}
