import type { ContentTypeField } from '../spec.js';
import { defineKind, enumSchema, fail, ok } from './kind.js';

/** One content type, `app.model`, from a fixed list (`types`, or the models with a `feature`). */
export const contentTypeKind = defineKind<ContentTypeField>({
  kinds: ['content_type'],
  types: ['content_type'],
  properties: ['types', 'feature'],
  resolve: (_def, ctx) => ({
    ...ctx.base,
    kind: 'content_type',
    required: ctx.required,
    targets: ctx.targets('types', true),
  }),
  column: () => ({ type: 'string', maxLength: 100 }),
  valueType: () => 'string',
  readSchema: (field) => enumSchema(field.targets),
  writeSchema: (field) => enumSchema(field.targets),
  filters: (field) => [{ kind: 'object_type', name: field.name, field: field.name, by: 'label', lookups: 'relation' }],
  parse(field, value) {
    if (typeof value !== 'string' || !/^[a-z_]+\.[a-z0-9_]+$/.test(value)) {
      return fail("Invalid value. Specify a content type as '<app_label>.<model_name>'.");
    }
    return field.targets.includes(value) ? ok(value) : fail(`Invalid content type: ${value}`);
  },
  options(field, meta, readOnly, ctx) {
    meta.type = 'field';
    if (!readOnly) {
      meta.choices = field.targets
        .map((label) => ({ value: label, display_name: `${ctx.verboseName(label)}` }))
        .sort((a, b) => a.display_name.localeCompare(b.display_name));
    }
  },
  constraintValue: () => 'text',
});
