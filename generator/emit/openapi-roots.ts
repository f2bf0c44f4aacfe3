import { TOKEN_PROVISION_KEYS, type ModelSpec, type PluginSpec } from '../../runtime/spec.js';
import { apiSegment } from '../names.js';
import { errorResponses, jsonContent } from './openapi-components.js';
import { closedObject, schemaRef, sortKeys, type Json } from './openapi-json.js';
import { ensureSchema, representation, schemaNames, type SchemaContext } from './openapi-read.js';
import { requestSchema } from './openapi-write.js';

/**
 * Paths that are not a model's list or detail: the API root and app roots, status, plugins and the schema
 * (runtime/http/roots.ts), and token provisioning (runtime/http/provision.ts).
 */

const uriMap = (keys: readonly string[], description: string): Json =>
  closedObject(Object.fromEntries(keys.map((k) => [k, { type: 'string', format: 'uri' }])), keys, description);

/** Every root path, by path. */
export function rootPaths(
  ctx: SchemaContext,
  endpoints: readonly ModelSpec[],
  plugins: readonly PluginSpec[] = [],
): Record<string, Json> {
  const get = (operationId: string, summary: string, tag: string, schema: Json, extra: Json = {}): Json => ({
    get: {
      operationId,
      summary,
      tags: [tag],
      ...extra,
      responses: { '200': { description: summary, content: jsonContent(schema) }, ...errorResponses() },
    },
  });
  const byApp = new Map<string, string[]>();
  for (const model of endpoints) {
    byApp.set(apiSegment(model), [...(byApp.get(apiSegment(model)) ?? []), model.path!]);
    for (const alias of model.aliases) {
      const [app, path] = alias.split('/') as [string, string];
      byApp.set(app, [...(byApp.get(app) ?? []), path]);
    }
    // A locate action is an endpoint of the app's root (dcim/connected-device/).
    for (const action of model.actions)
      if (action.kind === 'locate') byApp.set(apiSegment(model), [...byApp.get(apiSegment(model))!, action.name]);
  }
  const user = endpoints.find((m) => m.roles.includes('user'));
  // The user model's app also lists the current user's preferences (runtime/http/account.ts).
  const preferences = user?.fields.some((f) => f.name === 'config') ? user : undefined;
  if (preferences) byApp.set(preferences.app, [...byApp.get(preferences.app)!, 'config']);

  const paths: Record<string, Json> = {};
  const rootKeys = [...new Set([...byApp.keys(), 'plugins', 'status'])].filter((k) => !k.includes('/')).sort();
  paths['/api/'] = get(
    'root_retrieve',
    'The API root: the URL of every app root',
    'status',
    uriMap(rootKeys, 'App name → URL of its root.'),
  );
  for (const [app, endpointPaths] of byApp) {
    const plugin = app.startsWith('plugins/');
    paths[`/api/${app}/`] = get(
      `${app.replace('/', '_')}_root_retrieve`,
      `The ${plugin ? `${app.slice('plugins/'.length)} plugin's` : app} root: the URL of every endpoint`,
      plugin ? 'plugins' : app,
      uriMap([...endpointPaths].sort(), 'Endpoint → list URL.'),
    );
  }
  paths['/api/status/'] = get('status_retrieve', 'Service status and versions', 'status', statusSchema());
  // Only enabled plugins are listed (the runtime leaves disabled plugins' paths out of this document).
  const pluginRoots = Object.fromEntries(plugins.map((p) => [p.baseUrl, { type: 'string', format: 'uri' }]));
  paths['/api/plugins/'] = get(
    'plugins_retrieve',
    "The enabled plugins' API roots, by base URL",
    'plugins',
    closedObject(
      { 'installed-plugins': { type: 'string', format: 'uri' }, ...pluginRoots },
      ['installed-plugins'],
      'installed-plugins, then base URL → URL of the plugin API root.',
    ),
  );
  paths['/api/plugins/installed-plugins/'] = get(
    'plugins_installed_plugins_retrieve',
    'The enabled plugins (superusers only)',
    'plugins',
    {
      type: 'array',
      items: closedObject(
        {
          name: { type: 'string' },
          package: { type: 'string' },
          author: { type: ['string', 'null'] },
          author_email: { type: 'null' },
          description: { type: 'string' },
          version: { type: 'string' },
          release_track: { type: 'string' },
        },
        ['name', 'package', 'author', 'author_email', 'description', 'version', 'release_track'],
        'An enabled plugin.',
      ),
    },
  );
  paths['/api/schema/'] = {
    get: {
      operationId: 'schema_retrieve',
      summary: 'This OpenAPI document',
      description:
        'YAML by default; JSON with `format=json` or `Accept: application/json`. OpenAPI 3.1, or 3.0.3 with ' +
        '`oas=3.0` (what NetBox serves, and what Swagger UI reads).',
      tags: ['schema'],
      security: [],
      parameters: [
        { name: 'format', in: 'query', required: false, schema: { type: 'string', enum: ['json', 'yaml'] } },
        {
          name: 'oas',
          in: 'query',
          required: false,
          description: 'The OpenAPI version of the document: `3.0` for OpenAPI 3.0.3; 3.1 without it.',
          schema: { type: 'string', enum: ['3.0'] },
        },
      ],
      responses: {
        '200': {
          description: 'The OpenAPI document.',
          content: {
            'application/json': { schema: { type: 'object', additionalProperties: true } },
            'application/vnd.oai.openapi': { schema: { type: 'string' } },
          },
        },
        ...errorResponses(),
      },
    },
  };
  const provision = provisionPath(ctx);
  if (provision) Object.assign(paths, provision);
  const tasks = endpoints.find((m) => m.roles.includes('background_task'));
  if (tasks) Object.assign(paths, requeuePaths(ctx, tasks));
  if (user) {
    paths['/api/authentication-check/'] = get(
      'authentication_check_retrieve',
      `The authenticated ${user.verboseName}`,
      user.app,
      schemaRef(schemaNames(ctx, user).full),
    );
  }
  if (preferences) {
    const config: Json = {
      type: 'object',
      additionalProperties: true,
      description: `The authenticated ${preferences.verboseName}'s preferences (a JSON object).`,
    };
    const { app, verboseName } = preferences;
    paths[`/api/${app}/config/`] = {
      ...get(`${app}_config_retrieve`, `The authenticated ${verboseName}'s preferences`, app, config),
      patch: {
        operationId: `${app}_config_partial_update`,
        summary: 'Merge keys into the preferences',
        tags: [app],
        requestBody: { required: true, content: jsonContent(config) },
        responses: {
          '200': { description: 'The preferences after the merge.', content: jsonContent(config) },
          ...errorResponses(),
        },
      },
    };
  }
  return sortKeys(paths);
}

function statusSchema(): Json {
  const properties: Json = {
    'django-version': { type: 'null', description: 'Always null (kept for NetBox clients).' },
    hostname: { type: 'string' },
    installed_apps: { type: 'object', additionalProperties: { type: 'string' }, description: 'Package → version.' },
    'netbox-version': { type: 'string' },
    'netbox-full-version': { type: 'string' },
    'node-version': { type: 'string' },
    plugins: { type: 'object', additionalProperties: { type: 'string' } },
    'python-version': { type: 'null', description: 'Always null (kept for NetBox clients).' },
    'rq-workers-running': { type: 'integer', minimum: 0 },
    database: { type: 'string', enum: ['sqlite', 'postgres'] },
    workers: {
      type: 'array',
      description: 'Workers that reported in the last 30 seconds.',
      items: closedObject(
        {
          name: { type: 'string' },
          pid: { type: 'integer' },
          host: { type: 'string' },
          started: { type: 'string' },
        },
        ['name', 'pid', 'host', 'started'],
        'A running worker.',
      ),
    },
    'background-queues': {
      type: 'object',
      description: 'Queue name → number of background tasks per state.',
      additionalProperties: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } },
    },
    warnings: {
      type: 'array',
      description: 'Problems an operator should act on, e.g. no worker delivering webhooks.',
      items: { type: 'string' },
    },
  };
  return closedObject(properties, Object.keys(properties), 'Versions and environment of the running service.');
}

/** `POST <tokens>/provision/`, when there are token and user models and tokens have an endpoint. */
function provisionPath(ctx: SchemaContext): Record<string, Json> | null {
  const models = [...ctx.models.values()];
  const token = models.find((m) => m.roles.includes('token'));
  const user = models.find((m) => m.roles.includes('user'));
  if (!token?.path || !user) return null;
  const base = ctx.baseNames.get(token.label)!;
  const requestName = ensureSchema(ctx, `${base}ProvisionRequest`, () => {
    // The runtime sets `user` itself (the authenticated user) and reads no change-log message.
    const tokenFields = requestSchema(ctx, token, 'create');
    const { user: _user, changelog_message: _message, ...fields } = tokenFields.properties as Json;
    return {
      type: 'object',
      description: `A username and password, and optionally the new ${token.verboseName}'s fields.`,
      properties: {
        username: { type: 'string', minLength: 1 },
        password: { type: 'string', format: 'password', minLength: 1, writeOnly: true },
        ...fields,
      },
      required: [
        'username',
        'password',
        ...((tokenFields.required as string[] | undefined) ?? []).filter((k) => k !== 'user'),
      ],
    };
  });
  const responseName = ensureSchema(ctx, `Provisioned${base}`, () =>
    representation(
      ctx,
      token,
      TOKEN_PROVISION_KEYS.filter((k) => token.output.includes(k)),
      'top',
      true,
      `The new ${token.verboseName}; \`token\` holds its plaintext, shown only in this response.`,
    ),
  );
  return {
    [`/api/${token.app}/${token.path}/provision/`]: {
      post: {
        operationId: `${token.app}_${token.path.replace(/-/g, '_')}_provision_create`,
        summary: `Exchange a username and password for a new ${token.verboseName}`,
        tags: [token.app],
        security: [],
        requestBody: { required: true, content: jsonContent(schemaRef(requestName)) },
        responses: {
          '201': { description: `The new ${token.verboseName}.`, content: jsonContent(schemaRef(responseName)) },
          ...errorResponses(),
        },
      },
    },
  };
}

/** `POST <tasks>/{id}/requeue/` and `POST <tasks>/requeue/` (runtime/http/task-actions.ts). */
function requeuePaths(ctx: SchemaContext, model: ModelSpec): Record<string, Json> {
  const base = `/api/${model.app}/${model.path!}/`;
  const id = `${model.app}_${model.path!.replace(/-/g, '_')}`;
  const task = schemaRef(schemaNames(ctx, model).full);
  // NetBox's task actions answer 200 without a body (HttpResponse).
  const detailAction = (action: string, summary: string, done: string): Json => ({
    post: {
      operationId: `${id}_${action}_create`,
      summary,
      tags: [model.app],
      parameters: [
        {
          name: 'id',
          in: 'path',
          required: true,
          schema: model.stringId ? { type: 'string', pattern: '^[0-9]+$' } : { type: 'integer', minimum: 0 },
        },
      ],
      requestBody: { required: false, content: jsonContent({ type: 'object' }) },
      responses: { '200': { description: `${done} (no body, as NetBox answers).` }, ...errorResponses() },
    },
  });
  return {
    [`${base}{id}/requeue/`]: detailAction(
      'requeue',
      `Queue a failed ${model.verboseName} again`,
      `The ${model.verboseName} is queued again as a new delivery`,
    ),
    [`${base}{id}/delete/`]: detailAction(
      'delete',
      `Delete a ${model.verboseName}`,
      `The ${model.verboseName} is deleted (a delivery that has not run is not made)`,
    ),
    [`${base}requeue/`]: {
      post: {
        operationId: `${id}_requeue_bulk_create`,
        summary: `Queue failed ${model.verboseNamePlural} again`,
        tags: [model.app],
        requestBody: {
          required: true,
          content: jsonContent(
            closedObject(
              { ids: { type: 'array', items: { type: 'integer' }, minItems: 1 } },
              ['ids'],
              'Tasks to requeue.',
            ),
          ),
        },
        responses: {
          '200': {
            description: `The ${model.verboseNamePlural} queued again (failed ones among those given).`,
            content: jsonContent({ type: 'array', items: task }),
          },
          ...errorResponses(),
        },
      },
    },
  };
}
