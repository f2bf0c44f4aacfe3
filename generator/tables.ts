import { kindOf, ownsColumn } from '../runtime/kinds/index.js';
import type { ColumnSpec, ColumnType, FieldSpec, IndexSpec, ModelSpec, TableSpec } from '../runtime/spec.js';
import { limitIdentifier } from './names.js';

/**
 * The database tables of the model graph, in dependency order (referenced tables first): of every model,
 * or of the `owned` ones only (a plugin's), still referencing tables of the others.
 */
export function buildTables(models: readonly ModelSpec[], owned: readonly ModelSpec[] = models): TableSpec[] {
  const byLabel = new Map(models.map((m) => [m.label, m]));
  const tables = owned.flatMap((model) => [buildTable(model, byLabel), ...buildThroughTables(model, byLabel)]);
  return orderByDependency(tables);
}

function buildTable(model: ModelSpec, models: Map<string, ModelSpec>): TableSpec {
  const columns: ColumnSpec[] = [];
  const indexes: IndexSpec[] = [];
  for (const field of model.fields) {
    if (!field.column || !ownsColumn(field)) continue;
    const column: ColumnSpec = { name: field.column, column: columnType(field), nullable: field.nullable };
    const dbDefault = columnDefault(field);
    if (dbDefault !== undefined) column.default = dbDefault;
    if (field.kind === 'fk') {
      const target = models.get(field.target);
      if (target) column.references = `${target.table}.id`;
      if (!field.unique) {
        indexes.push({
          name: limitIdentifier(`${model.table}_${field.column}_idx`),
          columns: [field.column],
          unique: false,
        });
      }
    }
    columns.push(column);
    if (field.kind === 'ip_network' || field.kind === 'ip_interface') {
      const nullable = field.nullable;
      columns.push(
        { name: `${field.column}_family`, column: { type: 'integer' }, nullable },
        { name: `${field.column}_start`, column: { type: 'string', maxLength: 32 }, nullable },
        { name: `${field.column}_end`, column: { type: 'string', maxLength: 32 }, nullable },
        { name: `${field.column}_len`, column: { type: 'integer' }, nullable },
      );
      indexes.push({
        name: limitIdentifier(`${model.table}_${field.column}_range_idx`),
        columns: [`${field.column}_family`, `${field.column}_start`, `${field.column}_end`],
        unique: false,
      });
    }
    if (field.kind === 'string' && field.natural) {
      columns.push({
        name: `${field.column}_natural`,
        column: { type: 'text' },
        nullable: field.nullable,
        default: '',
      });
    }
  }
  if (model.tree) {
    columns.push(
      { name: '_depth', column: { type: 'integer' }, nullable: false, default: 0 },
      { name: '_path', column: { type: 'text' }, nullable: false, default: '' },
    );
    indexes.push({ name: limitIdentifier(`${model.table}__path_idx`), columns: ['_path'], unique: false });
  }
  if (model.features.includes('custom_fields')) {
    columns.push({ name: 'custom_field_data', column: { type: 'json' }, nullable: false, default: {} });
  }
  if (model.features.includes('change_logging')) {
    columns.push(
      { name: 'created', column: { type: 'datetime' }, nullable: true },
      { name: 'last_updated', column: { type: 'datetime' }, nullable: true },
    );
  }
  const columnOf = (name: string): string => model.fields.find((f) => f.name === name)?.column ?? name;
  for (const unique of model.uniques) {
    indexes.push({
      name: unique.name,
      columns: unique.fields.map(columnOf),
      unique: true,
      ...(unique.whereNull.length ? { whereNull: unique.whereNull.map(columnOf) } : {}),
      ...(unique.caseInsensitive ? { lower: textColumns(model, unique.fields) } : {}),
      ...(unique.condition
        ? { whereEquals: Object.fromEntries(Object.entries(unique.condition).map(([n, v]) => [columnOf(n), v])) }
        : {}),
      ...(unique.exclude
        ? { whereNotEquals: Object.fromEntries(Object.entries(unique.exclude).map(([n, v]) => [columnOf(n), v])) }
        : {}),
    });
  }
  for (const fields of model.indexes) {
    const columns = fields.map(columnOf);
    indexes.push({ name: limitIdentifier(`${model.table}_${columns.join('_')}_idx`), columns, unique: false });
  }
  indexes.sort((a, b) => a.name.localeCompare(b.name));
  return { name: model.table, columns, indexes };
}

/** The columns of the text fields among `fields` (what a case-insensitive constraint lowers). */
function textColumns(model: ModelSpec, fields: readonly string[]): string[] {
  return fields.flatMap((name) => {
    const field = model.fields.find((f) => f.name === name);
    const type = field?.column ? kindOf(field).column(field)?.type : undefined;
    return type === 'string' || type === 'text' ? [field!.column!] : [];
  });
}

function columnType(field: FieldSpec): ColumnType {
  const column = kindOf(field).column(field);
  if (!column) throw new Error(`${field.kind} fields have no column`);
  return column;
}

/** Join tables of many-to-many fields: `from_id` → the model, `to_id` → the target, each pair once. */
function buildThroughTables(model: ModelSpec, models: Map<string, ModelSpec>): TableSpec[] {
  return model.fields.flatMap((field) => {
    if (field.kind !== 'm2m' || field.reverseOf) return [];
    const target = models.get(field.target);
    return [
      {
        name: field.through,
        columns: [
          { name: 'from_id', column: { type: 'bigint' }, nullable: false, references: `${model.table}.id` },
          { name: 'to_id', column: { type: 'bigint' }, nullable: false, references: `${target?.table ?? ''}.id` },
        ],
        indexes: [
          { name: limitIdentifier(`${field.through}_pair_uniq`), columns: ['from_id', 'to_id'], unique: true },
          { name: limitIdentifier(`${field.through}_to_idx`), columns: ['to_id'], unique: false },
        ],
      } satisfies TableSpec,
    ];
  });
}

/** A database default for non-null columns, so that adding the column to a filled table works. */
function columnDefault(field: FieldSpec): ColumnSpec['default'] {
  if (field.nullable) return undefined;
  if (field.default !== undefined && field.default !== 'now') return field.default as ColumnSpec['default'];
  if (field.kind === 'string' && field.blank) return '';
  return undefined;
}

function orderByDependency(tables: TableSpec[]): TableSpec[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const done = new Set<string>();
  const result: TableSpec[] = [];
  const visit = (table: TableSpec, stack: Set<string>): void => {
    if (done.has(table.name) || stack.has(table.name)) return;
    stack.add(table.name);
    for (const column of table.columns) {
      const referenced = column.references?.split('.')[0];
      const target = referenced ? byName.get(referenced) : undefined;
      if (target && target !== table) visit(target, stack);
    }
    done.add(table.name);
    result.push(table);
  };
  for (const table of [...tables].sort((a, b) => a.name.localeCompare(b.name))) visit(table, new Set());
  return result;
}
