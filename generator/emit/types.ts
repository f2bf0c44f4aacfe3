import type { FieldSpec, ModelSpec } from '../../runtime/spec.js';
import { toPascalCase } from '../names.js';
import { quote } from '../literal.js';

/** Type and value names that the emitted module of a model uses. */
export function modelNames(model: ModelSpec): {
  type: string;
  row: string;
  write: string;
  brief: string;
  spec: string;
  table: string;
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
    table: `${camel}Table`,
    mount: `mount${type}Routes`,
    file: `${model.app}/${model.name}`,
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

/** TypeScript type of a field's database column. */
export function rowType(model: ModelSpec, field: FieldSpec): string {
  return nullable(valueType(model, field), field.nullable);
}

/** TypeScript type of a field as written by a client. */
export function writeType(model: ModelSpec, field: FieldSpec): string {
  if (field.kind === 'fk') return nullable('RelatedInput', field.nullable);
  return nullable(valueType(model, field), field.nullable);
}

/** TypeScript type of a field in the API representation. */
export function readType(model: ModelSpec, field: FieldSpec, models: Map<string, ModelSpec>): string {
  switch (field.kind) {
    case 'choice':
      return field.raw
        ? nullable(choiceTypeName(model, field), field.nullable)
        : `{ value: ${choiceTypeName(model, field)}; label: string } | null`;
    case 'fk': {
      const target = models.get(field.target);
      const name = target ? `${target.className}Nested` : 'Record<string, unknown>';
      return nullable(name, field.nullable);
    }
    case 'm2m': {
      if (field.by) return 'string[]';
      const target = models.get(field.target);
      return target ? `${target.className}Nested[]` : 'Record<string, unknown>[]';
    }
    case 'generic_fk':
      return 'Record<string, unknown> | null';
    case 'ip_family':
      return '{ value: 4 | 6; label: string }';
    case 'constant':
    case 'computed':
      return 'unknown';
    default:
      return nullable(valueType(model, field), field.nullable || !field.column);
  }
}

function valueType(model: ModelSpec, field: FieldSpec): string {
  switch (field.kind) {
    case 'string':
    case 'password':
    case 'date':
    case 'datetime':
      return 'string';
    case 'integer':
    case 'decimal':
    case 'fk':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'json':
      return 'unknown';
    case 'choice':
      return choiceTypeName(model, field);
    case 'list':
      return field.items === 'integer' ? 'number[]' : 'string[]';
    case 'object_types':
      return 'string[]';
    case 'm2m':
      return field.by ? 'string[]' : 'number[]';
    case 'content_type':
    case 'ip_network':
    case 'ip_interface':
    case 'image':
      return 'string';
    case 'ip_family':
      return 'number';
    case 'generic_fk':
    case 'constant':
    case 'computed':
    case 'alias':
      return 'unknown';
  }
}
