import type { DerivedField } from '../spec.js';
import { defineKind } from './kind.js';

/**
 * A value derived from the object's own fields by a domain function when it is rendered (a background
 * task's RQ status from its state): `uses` names stored fields or FK paths (`event_rule.name`), selected
 * with the row, so no query is added. `schema` describes the value in the OpenAPI document.
 */
export const derivedKind = defineKind<DerivedField>({
  kinds: ['derived'],
  types: ['derived'],
  properties: ['function', 'uses', 'schema'],
  derived: true,
  readOnly: true,
  resolve(def, ctx) {
    if (!def.function) ctx.error('function', "missing property 'function'");
    if (!def.uses) ctx.error('uses', "missing property 'uses'");
    return {
      ...ctx.base,
      kind: 'derived',
      required: false,
      function: def.function ?? '',
      uses: def.uses ?? [],
      schema: def.schema ?? {},
    };
  },
  // Paths beyond the first FK are checked against the target models once every model is resolved.
  checkReferences(field, byName, error) {
    for (const used of field.uses) {
      const first = used.split('.')[0]!;
      const found = byName.get(first);
      if (!found) error('uses', `unknown field '${first}'`);
      else if (!found.column) error('uses', `field '${first}' is not stored`);
    }
  },
  column: () => null,
  valueType: () => 'unknown',
  readType: () => 'unknown',
  readSchema: (field) => field.schema,
  writeSchema: () => ({}),
  options(_field, meta) {
    meta.type = 'field';
  },
  constraintValue: () => 'text',
});
