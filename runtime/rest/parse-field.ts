import type { FieldSpec } from '../spec.js';
import { kindOf } from '../kinds/index.js';
import type { Parsed } from '../kinds/kind.js';

export type { Parsed } from '../kinds/kind.js';
export { pythonType } from '../kinds/kind.js';
export { normalizeNetwork } from '../kinds/list.js';

/**
 * Parses a scalar field's written value with DRF's rules and messages (each kind's `parse`). FKs are
 * resolved elsewhere; `null` has been handled by the caller.
 */
export function parseFieldValue(field: FieldSpec, value: unknown): Parsed {
  const kind = kindOf(field);
  if (!kind.parse) throw new Error(`${field.kind} values are not parsed here`);
  return kind.parse(field, value);
}
