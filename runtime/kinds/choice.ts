import type { ChoiceField } from '../spec.js';
import { defineKind, enumSchema, fail, ok, type Parsed } from './kind.js';

/** One value of a choice set; rendered as `{value, label}` unless `raw`. */
export const choiceKind = defineKind<ChoiceField>({
  kinds: ['choice'],
  types: ['choice'],
  properties: ['choices', 'raw', 'blank'],
  resolve(def, ctx) {
    const setName = def.choices ?? '';
    const qualified = setName.includes('.') ? setName : `${ctx.app}.${setName}`;
    const choices = ctx.choiceSet(qualified);
    if (!choices) ctx.error('choices', `unknown choice set '${setName}'`);
    const field: ChoiceField = {
      ...ctx.base,
      kind: 'choice',
      required: ctx.required,
      choices: choices ?? [],
      raw: def.raw ?? false,
      blank: ctx.blank,
      ...(ctx.blank && def.default === undefined && !ctx.nullable ? { default: '' } : {}),
    };
    if (def.default !== undefined && choices && !choices.some(([v]) => v === def.default)) {
      ctx.error('default', `'${String(def.default)}' is not in choice set '${setName}'`);
    }
    return field;
  },
  column(field) {
    if (field.choices.every(([v]) => typeof v === 'number')) return { type: 'integer' };
    const longest = Math.max(...field.choices.map(([v]) => String(v).length));
    return { type: 'string', maxLength: Math.max(50, longest) };
  },
  valueType: (field, ctx) => ctx.choiceTypeName(field),
  readType: (field, ctx) =>
    field.raw
      ? `${ctx.choiceTypeName(field)}${field.nullable ? ' | null' : ''}`
      : `{ value: ${ctx.choiceTypeName(field)}; label: string } | null`,
  readSchema(field) {
    const values = field.choices.map(([v]) => v);
    if (field.raw) return enumSchema(field.blank ? [...values, ''] : values);
    // Wrapped choices render `{value, label}`, and null for an empty value (so even when not nullable).
    return {
      oneOf: [
        {
          type: 'object',
          properties: { value: enumSchema(values), label: { type: 'string' } },
          required: ['value', 'label'],
          additionalProperties: false,
        },
        { type: 'null' },
      ],
    };
  },
  writeSchema: (field) =>
    enumSchema(field.blank ? [...field.choices.map(([v]) => v), ''] : field.choices.map(([v]) => v)),
  // Choices filter as text (django-filter's ChoiceFilter), integer-valued ones without `empty`.
  valueFilter: (field) => ({
    valueKind: 'choice',
    lookups: field.choices.every(([v]) => typeof v === 'number') ? 'text' : 'string',
  }),
  parse: parseChoice,
  present(field, value) {
    if (field.raw) return value;
    if (value === null || value === '') return null;
    const label = field.choices.find(([v]) => v === value)?.[1] ?? '';
    return { value, label };
  },
  options(field, meta, readOnly) {
    meta.type = field.raw ? 'choice' : 'field';
    if (!readOnly) meta.choices = field.choices.map(([value, label]) => ({ value, display_name: label }));
  },
  constraintValue: (field) => (field.choices.every(([value]) => typeof value === 'number') ? 'integer' : 'text'),
});

function parseChoice(field: ChoiceField, value: unknown): Parsed {
  if (typeof value === 'object' && value !== null) {
    return fail('Value must be passed directly (e.g. "foo": 123); do not use a dictionary or list.');
  }
  if (value === '') return field.blank ? ok('') : fail('This field may not be blank.');
  let candidate: unknown = value;
  if (value === 'true') candidate = true;
  else if (value === 'false') candidate = false;
  else if (typeof value === 'string' && /^-?\d+$/.test(value)) candidate = Number(value);
  const found = field.choices.find(([v]) => v === value || v === candidate || String(v) === String(value));
  if (found) return ok(found[0]);
  return fail(field.raw ? `"${String(value)}" is not a valid choice.` : `${String(value)} is not a valid choice.`);
}
