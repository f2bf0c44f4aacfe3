import type { FieldSpec, ModelSpec } from '../../runtime/spec.js';
import { toPascalCase } from '../names.js';
import { quote } from '../literal.js';
import { kindOf } from '../../runtime/kinds/index.js';
import type { TypeContext } from '../../runtime/kinds/kind.js';

/** Type and value names that the emitted module of a model uses. */
export function modelNames(model: ModelSpec): {
  type: string;
  row: string;
  write: string;
  brief: string;
  spec: string;
  mount: string;
  file: string;
} {
  const type = model.className;
  const camel = type[0]!.toLowerCase() + type.slice(1);
  return {
    type,
    row: `${type}Row`,
    write: `${type}Write`,
    brief: `${type}Brief`,
    spec: `${camel}Spec`,
    mount: `mount${type}Routes`,
    file: model.plugin ? `plugins/${model.app}/${model.name}` : `${model.app}/${model.name}`,
  };
}

/** Name of the string-literal union of a choice field's values. */
export function choiceTypeName(model: ModelSpec, field: FieldSpec): string {
  return `${model.className}${toPascalCase(field.name)}`;
}

export function choiceUnion(field: FieldSpec & { kind: 'choice' }): string {
  return field.choices.map(([v]) => (typeof v === 'number' ? String(v) : quote(v))).join(' | ');
}

function nullable(type: string, isNullable: boolean): string {
  return isNullable ? `${type} | null` : type;
}

/** What the kind modules need to name TypeScript types. */
function typeContext(model: ModelSpec, models: ReadonlyMap<string, ModelSpec>): TypeContext {
  return { model, models, choiceTypeName: (field) => choiceTypeName(model, field as FieldSpec) };
}

/** TypeScript type of a field's database column. */
export function rowType(model: ModelSpec, field: FieldSpec): string {
  return nullable(kindOf(field).valueType(field, typeContext(model, new Map())), field.nullable);
}

/** TypeScript type of a field as written by a client. */
export function writeType(model: ModelSpec, field: FieldSpec): string {
  const kind = kindOf(field);
  const ctx = typeContext(model, new Map());
  return kind.writeType ? kind.writeType(field, ctx) : nullable(kind.valueType(field, ctx), field.nullable);
}

/** TypeScript type of a field in the API representation. */
export function readType(model: ModelSpec, field: FieldSpec, models: Map<string, ModelSpec>): string {
  const kind = kindOf(field);
  const ctx = typeContext(model, models);
  return kind.readType
    ? kind.readType(field, ctx)
    : nullable(kind.valueType(field, ctx), field.nullable || !field.column);
}
