import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ApiResponse, ResponseValidator } from './client.js';

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }>; $ref?: string }>;
}

const DOCUMENT_ID = 'https://netbox-svc.local/openapi.json';

/** Validates responses against the OpenAPI 3.1 document (JSON Schema 2020-12) with ajv. */
export function responseValidator(document: Record<string, unknown>): ResponseValidator {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats.default(ajv);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  const paths = (document.paths ?? {}) as Record<string, Record<string, Operation>>;
  const templates = Object.keys(paths).map((template) => ({
    template,
    regex: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));
  const compiled = new Map<string, ValidateFunction>();
  const covered = new Set<string>();
  const resolveResponse = (entry: { $ref?: string; content?: Record<string, { schema?: unknown }> } | undefined) => {
    if (!entry?.$ref) return entry;
    const name = entry.$ref.split('/').pop()!;
    return ((document.components as Record<string, Record<string, unknown>>).responses ?? {})[name] as typeof entry;
  };
  const errorDetail = ajv.compile({
    $id: `${DOCUMENT_ID}/error`,
    $ref: `${DOCUMENT_ID}#/components/schemas/ErrorDetail`,
  });
  const checkError = (method: string, path: string, response: ApiResponse): void => {
    if (!errorDetail(response.body)) {
      throw new Error(`${method} ${path} → ${response.status}: not an error body: ${response.text.slice(0, 500)}`);
    }
  };
  return {
    covered,
    check(method, url, response) {
      const parsed = new URL(url);
      const path = parsed.pathname;
      const narrowed = NARROWING.some((name) => parsed.searchParams.has(name));
      if (!path.startsWith('/api/') || path.startsWith('/api/schema/')) return;
      if (response.body === undefined || (response.status >= 300 && response.status < 400)) return;
      const match = templates.find((t) => t.regex.test(path));
      const operation = match ? paths[match.template]![method.toLowerCase()] : undefined;
      if (!match || !operation) {
        // A request for something the API does not have: only the generic error body is acceptable.
        if (response.status >= 400) return checkError(method, path, response);
        throw new Error(`${method} ${path}: ${match ? 'operation' : 'path'} not in the OpenAPI document`);
      }
      const statusEntry = resolveResponse(
        operation.responses?.[String(response.status)] ?? operation.responses?.default,
      );
      if (!statusEntry) throw new Error(`${method} ${match.template}: status ${response.status} not documented`);
      const pointer = `${match.template}|${method.toLowerCase()}|${response.status}|${narrowed}`;
      let validate = compiled.get(pointer);
      if (!validate) {
        const schema = statusEntry.content?.['application/json']?.schema;
        if (!schema) throw new Error(`${method} ${match.template}: status ${response.status} has no JSON schema`);
        const target = narrowed ? narrow(schema, document) : schema;
        validate = ajv.compile({ $id: `response:${pointer}`, ...(rewriteRefs(target) as object) });
        compiled.set(pointer, validate);
      }
      covered.add(`${method.toUpperCase()} ${match.template}`);
      if (!validate(response.body)) {
        const errors = ajv.errorsText(validate.errors, { separator: '\n  ' });
        throw new Error(
          `${method} ${path} → ${response.status} does not match the OpenAPI document:\n  ${errors}\nbody: ${response.text.slice(0, 2000)}`,
        );
      }
    },
  };
}

/** Query parameters that render fewer keys than the documented (complete) representation. */
const NARROWING = ['fields', 'omit', 'brief'];

/**
 * A response schema as narrowed by `fields`/`omit`/`brief`: references to a model's complete representation
 * become its `Selected…` form, and a page of them a page of those.
 */
function narrow(value: unknown, document: Record<string, unknown>): unknown {
  const schemas = ((document.components as Record<string, unknown>).schemas ?? {}) as Record<string, unknown>;
  if (Array.isArray(value)) return value.map((v) => narrow(v, document));
  if (!value || typeof value !== 'object') return value;
  const ref = (value as { $ref?: unknown }).$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    const name = ref.slice('#/components/schemas/'.length);
    if (`Selected${name}` in schemas) return { $ref: `#/components/schemas/Selected${name}` };
    const page = /^Paginated(.+)List$/.exec(name);
    if (page && `Selected${page[1]}` in schemas) return narrow(schemas[name], document);
    return value;
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, narrow(v, document)]));
}

/** `#/components/…` inside an operation's schema points into the registered document. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${DOCUMENT_ID}${v}` : rewriteRefs(v),
      ]),
    );
  }
  return value;
}
