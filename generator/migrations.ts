import { isDeepStrictEqual } from 'node:util';
import type { ColumnSpec, IndexSpec, Migration, MigrationOp, MovedColumnSpec, TableSpec } from '../runtime/spec.js';

/** The schema that a sequence of migrations produces, table name → table. */
export function replayMigrations(migrations: readonly Migration[]): Map<string, TableSpec> {
  const tables = new Map<string, TableSpec>();
  const table = (name: string): TableSpec => {
    const found = tables.get(name);
    if (!found) throw new Error(`migration refers to unknown table '${name}'`);
    return found;
  };
  for (const migration of migrations) {
    for (const op of migration.ops) {
      switch (op.op) {
        case 'createTable':
          tables.set(op.table, { name: op.table, columns: [...(op.columns ?? [])], indexes: [] });
          break;
        case 'dropTable':
          tables.delete(op.table);
          break;
        case 'addColumn':
          table(op.table).columns.push(op.column!);
          break;
        case 'alterColumn': {
          const t = table(op.table);
          t.columns = t.columns.map((c) => (c.name === op.column!.name ? op.column! : c));
          break;
        }
        case 'dropColumn': {
          const t = table(op.table);
          t.columns = t.columns.filter((c) => c.name !== op.columnName);
          break;
        }
        case 'createIndex':
          table(op.table).indexes.push(currentIndexForm(op.index!));
          break;
        case 'dropIndex': {
          const t = table(op.table);
          t.indexes = t.indexes.filter((i) => i.name !== op.indexName);
          break;
        }
        case 'moveToRows':
          break;
      }
    }
  }
  return tables;
}

/** An index as the generator writes it today: earlier migrations' `caseInsensitive` lowered the first column. */
function currentIndexForm(index: IndexSpec): IndexSpec {
  if (!index.caseInsensitive) return index;
  const { caseInsensitive: _legacy, ...rest } = index;
  return { ...rest, lower: [index.columns[0]!] };
}

/**
 * The operations that turn `previous` into `next` (both in dependency order): new tables first, in
 * order, then column and index changes, then dropped tables in reverse order. A dropped column whose values
 * became rows of another table (`moves`) is moved just before it is dropped, once the table's new columns exist.
 */
export function diffSchemas(
  previous: Map<string, TableSpec>,
  next: readonly TableSpec[],
  moves: readonly MovedColumnSpec[] = [],
): MigrationOp[] {
  const ops: MigrationOp[] = [];
  const nextNames = new Set(next.map((t) => t.name));
  // New tables before the columns added to existing ones, which may reference them (a module bay's module).
  for (const table of next) {
    if (previous.has(table.name)) continue;
    ops.push({ op: 'createTable', table: table.name, columns: table.columns });
    for (const index of table.indexes) ops.push({ op: 'createIndex', table: table.name, index });
  }
  for (const table of next) {
    const before = previous.get(table.name);
    if (before) ops.push(...diffTable(before, table, moves));
  }
  const dropped = [...previous.keys()].filter((name) => !nextNames.has(name)).reverse();
  for (const name of dropped) ops.push({ op: 'dropTable', table: name });
  return ops;
}

function diffTable(before: TableSpec, after: TableSpec, moves: readonly MovedColumnSpec[]): MigrationOp[] {
  const ops: MigrationOp[] = [];
  const beforeIndexes = new Map(before.indexes.map((i) => [i.name, i]));
  const afterIndexes = new Map(after.indexes.map((i) => [i.name, i]));
  const changedIndex = (index: IndexSpec): boolean => !isDeepStrictEqual(afterIndexes.get(index.name), index);
  for (const index of before.indexes) {
    if (changedIndex(index)) ops.push({ op: 'dropIndex', table: after.name, indexName: index.name });
  }
  const beforeColumns = new Map(before.columns.map((c) => [c.name, c]));
  const afterColumns = new Map(after.columns.map((c) => [c.name, c]));
  for (const column of after.columns) {
    const old = beforeColumns.get(column.name);
    if (!old) ops.push({ op: 'addColumn', table: after.name, column: addable(column) });
    else if (!isDeepStrictEqual(old, column)) ops.push({ op: 'alterColumn', table: after.name, column });
  }
  for (const column of before.columns) {
    if (afterColumns.has(column.name)) continue;
    const move = moves.find((m) => m.table === after.name && m.column === column.name);
    if (move) ops.push({ op: 'moveToRows', table: after.name, columnName: column.name, move });
    ops.push({ op: 'dropColumn', table: after.name, columnName: column.name });
  }
  for (const index of after.indexes) {
    const old = beforeIndexes.get(index.name);
    if (!old || !isDeepStrictEqual(old, index)) ops.push({ op: 'createIndex', table: after.name, index });
  }
  return ops;
}

/** A column added to a table that may hold rows must be nullable or have a default. */
function addable(column: ColumnSpec): ColumnSpec {
  if (column.nullable || column.default !== undefined) return column;
  throw new Error(
    `cannot add non-null column '${column.name}' without a default; make it nullable, blank or give it a default`,
  );
}

/** A short, deterministic name for a migration from what it does. */
export function nameMigration(number: number, ops: readonly MigrationOp[]): string {
  const prefix = String(number).padStart(4, '0');
  if (number === 1) return `${prefix}_initial`;
  const first = ops[0]!;
  const verb = first.op.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  const subject = first.column?.name ?? first.columnName ?? first.index?.name ?? first.indexName ?? '';
  const base = [prefix, first.table, verb, subject].filter(Boolean).join('_');
  return (ops.length > 1 ? `${base}_and_more` : base).slice(0, 80);
}
