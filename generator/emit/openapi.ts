import type { ModelGraph } from '../resolve.js';
import type { ModelSpec, PluginSpec } from '../../runtime/spec.js';
import { apiSegment } from '../names.js';
import { securitySchemes, sharedResponses, sharedSchemas } from './openapi-components.js';
import { sortKeys, type Json } from './openapi-json.js';
import { modelPaths } from './openapi-paths.js';
import { actionPaths } from './openapi-actions.js';
import { addReadSchemas, assignBaseNames, type SchemaContext } from './openapi-read.js';
import { addRequestSchemas } from './openapi-write.js';
import { rootPaths } from './openapi-roots.js';

const DESCRIPTION = `A NetBox-compatible REST API, generated from YAML models.

**Authentication.** Send an API token in the \`Authorization\` header: \`Bearer svc_<KEY>.<TOKEN>\` (v2) or
\`Token <TOKEN>\` (v1). The tokens endpoint's \`provision/\` action exchanges a username and password for a token.

**Representations.** For each model, \`<Model>\` is the full representation that responses declare (every key
present), \`Brief<Model>\` the one \`brief=true\` selects, \`Nested<Model>\` the one related objects use.
\`fields\`, \`omit\` and \`brief\` narrow a response to fewer keys: \`Selected<Model>\` describes such a
response (every key optional, unknown keys still not allowed). \`<Model>Request\` and
\`Patched<Model>Request\` are the write bodies.

**Lists** are paginated with \`limit\`/\`offset\` or, with \`start\`, by cursor. Filters are ANDed; repeating a
filter ORs its values (tags: AND). Lookups are appended to the filter name: \`name__ic=foo\`.`;

/**
 * The OpenAPI 3.1 document of the whole API, describing exactly what the runtime serves: the list and
 * detail endpoints of every model with a path, the API and app roots, status, plugins, the schema itself
 * and token provisioning. Pure and deterministic; maps whose order carries no meaning are sorted.
 */
export function emitOpenApi(
  graph: ModelGraph,
  version: string,
  plugins: readonly PluginSpec[] = [],
): Record<string, unknown> {
  const ctx: SchemaContext = {
    models: new Map(graph.models.map((m) => [m.label, m])),
    baseNames: assignBaseNames(graph.models),
    schemas: new Map(Object.entries(sharedSchemas())),
  };
  const endpoints = graph.models.filter((m) => m.path !== null);
  let paths: Record<string, Json> = {};
  for (const model of endpoints) {
    addReadSchemas(ctx, model);
    if (!model.readOnly) addRequestSchemas(ctx, model);
    const own = modelPaths(ctx, model);
    paths = { ...paths, ...own, ...aliasPaths(model, own), ...actionPaths(ctx, model) };
  }
  paths = { ...paths, ...rootPaths(ctx, endpoints, plugins) };

  const appsWithEndpoints = new Set(endpoints.filter((m) => !m.plugin).map((m) => m.app));
  const tags = [
    ...graph.apps
      .filter((a) => appsWithEndpoints.has(a.name))
      .map((a) => ({ name: a.name, description: a.description ?? a.verboseName })),
    { name: 'plugins', description: 'Plugins: the models of each enabled plugin, under its base URL.' },
    { name: 'schema', description: 'This OpenAPI document.' },
    { name: 'status', description: 'The API root and the service status.' },
  ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

  return {
    openapi: '3.1.0',
    info: { title: 'NetBox-compatible REST API', version, description: DESCRIPTION },
    security: [{ tokenAuth: [] }],
    tags,
    paths: sortKeys(paths),
    components: {
      schemas: sortKeys(Object.fromEntries(ctx.schemas)),
      responses: sortKeys(sharedResponses()),
      securitySchemes: securitySchemes(),
    },
  };
}

/** The model's operations again under each of its aliases (`<app>/<path>`), with their own operation ids. */
function aliasPaths(model: ModelSpec, own: Record<string, Json>): Record<string, Json> {
  const result: Record<string, Json> = {};
  const prefix = `/api/${apiSegment(model)}/${model.path!}/`;
  const idPrefix = `${apiSegment(model).replace('/', '_')}_${model.path!.replace(/-/g, '_')}_`;
  for (const alias of model.aliases) {
    const [app, path] = alias.split('/') as [string, string];
    const aliasIdPrefix = `${app}_${path.replace(/-/g, '_')}_`;
    for (const [key, item] of Object.entries(own)) {
      const text = JSON.stringify(item).replace(
        /"operationId":"([^"]*)"/g,
        (_, id: string) =>
          `"operationId":"${id.startsWith(idPrefix) ? aliasIdPrefix + id.slice(idPrefix.length) : `${aliasIdPrefix}${id}`}"`,
      );
      result[`/api/${alias}/${key.slice(prefix.length)}`] = JSON.parse(text) as Json;
    }
  }
  return result;
}
