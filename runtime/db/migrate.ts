import type { Knex } from 'knex';
import type { ColumnSpec, IndexSpec, Migration, MigrationOp, MovedColumnSpec } from '../spec.js';
import type { Database } from './connect.js';
import { now } from './clock.js';

export const MIGRATIONS_TABLE = 'svc_migrations';
/** Arbitrary key of the advisory lock that serialises migrating servers on PostgreSQL. */
const PG_LOCK_KEY = 4_600_001;

/**
 * Applies the migrations that the database has not seen, all in one transaction, and returns their names.
 * On PostgreSQL the transaction holds an advisory lock first: servers and workers starting together
 * migrate once, one after the other, and the later ones find nothing left to do. `fill` then gives the tables
 * this run created the values they hold for the rows already there (stored cable paths of existing cables), in
 * the same transaction.
 */
export async function migrate(
  db: Database,
  migrations: readonly Migration[],
  fill?: (trx: Knex.Transaction, created: ReadonlySet<string>) => Promise<void>,
): Promise<string[]> {
  return db.knex.transaction(async (trx) => {
    if (db.dialect === 'postgres') await trx.raw('select pg_advisory_xact_lock(?)', [PG_LOCK_KEY]);
    if (!(await trx.schema.hasTable(MIGRATIONS_TABLE))) {
      await trx.schema.createTable(MIGRATIONS_TABLE, (t) => {
        t.string('name', 200).primary();
        t.string('applied', 40).notNullable();
      });
    }
    const rows = (await trx(MIGRATIONS_TABLE).select('name')) as { name: string }[];
    const seen = new Set(rows.map((r) => r.name));
    const applied: string[] = [];
    const created = new Set<string>();
    for (const migration of migrations) {
      if (seen.has(migration.name)) continue;
      for (const op of migration.ops) if (op.op === 'createTable') created.add(op.table);
      // PostgreSQL checks a foreign key's table at once: a reference to a table this migration creates later
      // (two new tables that refer to each other) becomes a constraint added once every table exists.
      const later = new Set(migration.ops.filter((op) => op.op === 'createTable').map((op) => op.table));
      const deferred: { table: string; column: string; references: string }[] = [];
      for (const op of migration.ops) {
        later.delete(op.table);
        await applyOp(trx, db.dialect, op, (table, column, references) => {
          if (db.dialect !== 'postgres' || !later.has(references.split('.')[0]!)) return false;
          deferred.push({ table, column, references });
          return true;
        });
      }
      for (const { table, column, references } of deferred) {
        const [target, targetColumn] = references.split('.') as [string, string];
        await trx.schema.alterTable(table, (t) => void t.foreign(column).references(targetColumn).inTable(target));
      }
      await trx(MIGRATIONS_TABLE).insert({ name: migration.name, applied: now() });
      applied.push(migration.name);
    }
    if (fill && created.size > 0) await fill(trx, created);
    return applied;
  });
}

/** Names of the migrations not applied yet. */
export async function pendingMigrations(db: Database, migrations: readonly Migration[]): Promise<string[]> {
  if (!(await db.knex.schema.hasTable(MIGRATIONS_TABLE))) return migrations.map((m) => m.name);
  const rows = (await db.knex(MIGRATIONS_TABLE).select('name')) as { name: string }[];
  const seen = new Set(rows.map((r) => r.name));
  return migrations.filter((m) => !seen.has(m.name)).map((m) => m.name);
}

/** Whether a new table's column's foreign key is added later instead of with the table. */
type Defer = (table: string, column: string, references: string) => boolean;

async function applyOp(
  trx: Knex.Transaction,
  dialect: Database['dialect'],
  op: MigrationOp,
  defer: Defer,
): Promise<void> {
  switch (op.op) {
    case 'createTable':
      await trx.schema.createTable(op.table, (t) => {
        if (dialect === 'postgres') t.bigIncrements('id').primary();
        else t.increments('id').primary();
        for (const column of op.columns ?? []) {
          const later = column.references !== undefined && defer(op.table, column.name, column.references);
          addColumn(t, dialect, later ? { ...column, references: undefined } : column);
        }
      });
      return;
    case 'dropTable':
      await trx.schema.dropTable(op.table);
      return;
    case 'addColumn':
      await trx.schema.alterTable(op.table, (t) => addColumn(t, dialect, op.column!));
      return;
    case 'alterColumn':
      await trx.schema.alterTable(op.table, (t) => addColumn(t, dialect, op.column!, true));
      return;
    case 'dropColumn':
      await trx.schema.alterTable(op.table, (t) => t.dropColumn(op.columnName!));
      return;
    case 'createIndex':
      await trx.raw(createIndexSql(op.table, op.index!));
      return;
    case 'dropIndex':
      await trx.raw(`DROP INDEX ${quote(op.indexName!)}`);
      return;
    case 'moveToRows':
      await moveToRows(trx, op.move!);
      return;
    default:
      throw new Error(`unknown migration operation ${(op as { op: string }).op}`);
  }
}

/**
 * The non-null values of a column that is about to be dropped become rows of another table, each assigned to
 * the row it came from (a generic relation), which then points at it: two set-based statements.
 */
async function moveToRows(trx: Knex.Transaction, move: MovedColumnSpec): Promise<void> {
  const stamp = now();
  const columns = [move.value, move.typeColumn, move.idColumn, ...move.timestamps];
  await trx.raw(
    `INSERT INTO ?? (${columns.map(() => '??').join(', ')}) ` +
      `SELECT ??, ?, ??${move.timestamps.map(() => ', ?').join('')} FROM ?? WHERE ?? IS NOT NULL ORDER BY ??`,
    [
      move.into,
      ...columns,
      move.column,
      move.model,
      'id',
      ...move.timestamps.map(() => stamp),
      move.table,
      move.column,
      'id',
    ],
  );
  await trx.raw(
    `UPDATE ?? SET ?? = (SELECT MIN(m.id) FROM ?? AS m WHERE m.?? = ? AND m.?? = ??.id AND m.?? = ??.??) WHERE ?? IS NOT NULL`,
    [
      move.table,
      move.link,
      move.into,
      move.typeColumn,
      move.model,
      move.idColumn,
      move.table,
      move.value,
      move.table,
      move.column,
      move.column,
    ],
  );
}

function addColumn(t: Knex.CreateTableBuilder, dialect: Database['dialect'], spec: ColumnSpec, alter = false): void {
  const { name, column } = spec;
  const pgText = (type: string): string => `${type} COLLATE "C"`;
  let builder: Knex.ColumnBuilder;
  switch (column.type) {
    case 'string':
      builder =
        dialect === 'postgres'
          ? t.specificType(name, pgText(`varchar(${column.maxLength})`))
          : t.string(name, column.maxLength);
      break;
    case 'text':
      builder = dialect === 'postgres' ? t.specificType(name, pgText('text')) : t.text(name);
      break;
    case 'integer':
      builder = t.integer(name);
      break;
    case 'bigint':
      builder = t.bigInteger(name);
      break;
    case 'decimal':
      builder = t.decimal(name, column.precision, column.scale);
      break;
    case 'boolean':
      builder = t.boolean(name);
      break;
    case 'date':
      builder = dialect === 'postgres' ? t.date(name) : t.specificType(name, 'text');
      break;
    case 'datetime':
      builder =
        dialect === 'postgres' ? t.timestamp(name, { useTz: true, precision: 6 }) : t.specificType(name, 'text');
      break;
    case 'json':
      builder = dialect === 'postgres' ? t.jsonb(name) : t.text(name);
      break;
  }
  builder = spec.nullable ? builder.nullable() : builder.notNullable();
  if (spec.default !== undefined) {
    const value = spec.default;
    builder.defaultTo(
      column.type === 'json'
        ? JSON.stringify(value)
        : column.type === 'boolean' && dialect === 'sqlite'
          ? Number(value)
          : (value as string),
    );
  }
  if (spec.references && !alter) {
    const [table, col] = spec.references.split('.') as [string, string];
    builder.references(col).inTable(table);
  }
  if (alter) builder.alter();
}

function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/** A constant of a partial index's condition, the same on both dialects (SQLite reads TRUE and FALSE as 1 and 0). */
function sqlLiteral(value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') return String(value);
  return `'${value.replace(/'/g, "''")}'`;
}

/** Same SQL on both dialects: partial and expression indexes included. */
function createIndexSql(table: string, index: IndexSpec): string {
  const lowered = new Set(index.lower ?? (index.caseInsensitive ? index.columns.slice(0, 1) : []));
  const columns = index.columns.map((c) => (lowered.has(c) ? `lower(${quote(c)})` : quote(c)));
  const conditions = [
    ...(index.whereNull ?? []).map((c) => `${quote(c)} IS NULL`),
    ...Object.entries(index.whereEquals ?? {}).map(([c, v]) => `${quote(c)} = ${sqlLiteral(v)}`),
    ...Object.entries(index.whereNotEquals ?? {}).map(([c, v]) => `${quote(c)} <> ${sqlLiteral(v)}`),
  ];
  const where = conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '';
  return `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX ${quote(index.name)} ON ${quote(table)} (${columns.join(', ')})${where}`;
}
