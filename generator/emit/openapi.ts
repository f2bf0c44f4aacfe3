import type { ModelGraph } from '../resolve.js';

/** The OpenAPI 3.1 document of the whole API. */
export function emitOpenApi(graph: ModelGraph, version: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: 'NetBox-compatible REST API', version },
    paths: Object.fromEntries(
      graph.models.filter((m) => m.path).map((m) => [`/api/${m.app}/${m.path}/`, {}]),
    ),
  };
}
