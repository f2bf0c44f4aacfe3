import { BadRequestError, ValidationError } from '../errors.js';

/**
 * Request JSON that the service can store and render again on both databases. Text must be well-formed
 * UTF-8; strings may hold neither NUL (PostgreSQL cannot store it) nor lone surrogates (no UTF-8 encoding
 * exists for them); nesting is bounded, so that no later recursive walk (rendering, webhook payloads,
 * condition evaluation) runs out of stack; and no key is `__proto__`, which plain objects cannot hold as data.
 */

/** The deepest nesting of arrays and objects accepted in a request body. */
export const MAX_JSON_DEPTH = 100;

/** DRF's messages for NUL and surrogate characters in text fields. */
export const NULL_CHARACTERS = 'Null characters are not allowed.';
const surrogateMessage = (code: number): string =>
  `Surrogate characters are not allowed: U+${code.toString(16).toUpperCase()}.`;
const PROTO_KEY = 'Keys named "__proto__" are not allowed.';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Parses a JSON request body (bytes); a 400 for invalid UTF-8, invalid JSON or a value described above. */
export function parseJsonBody(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new BadRequestError('JSON parse error - the body is not valid UTF-8.');
  }
  return parseJsonText(text);
}

/** Parses JSON text (a body, or a structured form value) and checks it; undefined for blank text. */
export function parseJsonText(text: string): unknown {
  if (text.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    throw new BadRequestError(`JSON parse error - ${(error as Error).message}`);
  }
  checkJsonValue(value);
  return value;
}

/**
 * Throws a 400 for a value that breaks the rules above. Errors are shaped like the API's field errors: under
 * the top-level key that holds the offending text, in a list aligned with a bulk body.
 */
export function checkJsonValue(value: unknown): void {
  const problem = firstProblem(value);
  if (!problem) return;
  if (problem.kind === 'depth')
    throw new BadRequestError(`JSON parse error - nesting deeper than ${MAX_JSON_DEPTH} levels.`);
  const errorOf = (key: string | null): Record<string, string[]> => ({
    [key ?? 'non_field_errors']: [problem.message],
  });
  if (Array.isArray(value)) {
    throw new ValidationError(value.map((_item, index) => (index === problem.index ? errorOf(problem.key) : {})));
  }
  throw new ValidationError(errorOf(problem.key));
}

type Problem = { kind: 'depth' } | { kind: 'text'; message: string; index: number | null; key: string | null };

/** The first problem of a parsed value, walking it without recursion. */
function firstProblem(root: unknown): Problem | null {
  // Each entry: a value, its depth, and where it sits (bulk index, top-level key).
  const stack: [unknown, number, number | null, string | null][] = [[root, 0, null, null]];
  while (stack.length > 0) {
    const [value, depth, index, key] = stack.pop()!;
    if (typeof value === 'string') {
      const message = textProblem(value);
      if (message) return { kind: 'text', message, index, key };
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_JSON_DEPTH) return { kind: 'depth' };
    const topLevel = depth === 0 || (depth === 1 && Array.isArray(root));
    if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push([item, depth + 1, depth === 0 ? i : index, key]));
      continue;
    }
    for (const [name, item] of Object.entries(value)) {
      const message = name === '__proto__' ? PROTO_KEY : textProblem(name);
      if (message) return { kind: 'text', message, index, key: topLevel ? null : key };
      stack.push([item, depth + 1, index, topLevel ? name : key]);
    }
  }
  return null;
}

/** Why a string cannot be stored (NUL, a lone surrogate), or null. */
export function textProblem(text: string): string | null {
  if (text.includes('\0')) return NULL_CHARACTERS;
  if (!/[\uD800-\uDFFF]/.test(text)) return null;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0xd800 || code > 0xdfff) continue;
    const pair = code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    if (!pair) return surrogateMessage(code);
    i += 1;
  }
  return null;
}
