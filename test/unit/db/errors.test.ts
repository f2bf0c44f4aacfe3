import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { describeConstraintViolation } from '../../../runtime/db/errors.js';

/** The error better-sqlite3 throws for a statement (a real driver error, with its code and message). */
function sqliteError(sql: string): unknown {
  const db = new Database(':memory:');
  db.exec(
    'CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, n INTEGER CONSTRAINT n_positive CHECK (n > 0))',
  );
  db.exec("INSERT INTO t (id, name, n) VALUES (1, 'a', 1)");
  try {
    db.exec(sql);
  } catch (error) {
    return error;
  } finally {
    db.close();
  }
  throw new Error('no error');
}

describe('describeConstraintViolation', () => {
  it("names the column of a NOT NULL, without the statement or the driver's words", () => {
    const text = describeConstraintViolation(sqliteError('INSERT INTO t (id, n) VALUES (2, 1)'));
    expect(text).toBe('name: This field may not be null.');
    const pg = { code: '23502', column: 'slug', message: 'insert into "dcim_site" … - null value in column "slug"' };
    expect(describeConstraintViolation(pg)).toBe('slug: This field may not be null.');
  });

  it('names the rule of a CHECK, and says what a duplicate or a missing reference is', () => {
    expect(describeConstraintViolation(sqliteError("INSERT INTO t (id, name, n) VALUES (2, 'b', 0)"))).toBe(
      "The row breaks the database's rule n_positive.",
    );
    expect(describeConstraintViolation(sqliteError("INSERT INTO t (id, name, n) VALUES (2, 'a', 1)"))).toBe(
      'An object with these values already exists.',
    );
    expect(describeConstraintViolation({ code: '23503', message: 'insert or update on table …' })).toBe(
      'It refers to an object that does not exist.',
    );
    expect(describeConstraintViolation({ code: '42P01', message: 'relation "x" does not exist' })).toBeNull();
    expect(describeConstraintViolation({ code: '23001' })).toBe(
      'The database refused the row (a constraint on its values).',
    );
  });

  it('is null for anything else', () => {
    expect(describeConstraintViolation(new Error('boom'))).toBeNull();
    expect(describeConstraintViolation(sqliteError('SELECT * FROM missing'))).toBeNull();
    expect(describeConstraintViolation(null)).toBeNull();
  });
});
