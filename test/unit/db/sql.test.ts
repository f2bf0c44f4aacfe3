import { describe, expect, it } from 'vitest';
import { rowsPerInsert } from '../../../runtime/db/sql.js';

describe('rowsPerInsert', () => {
  it("fills PostgreSQL's 65,535 parameters", () => {
    expect(rowsPerInsert('postgres', 20)).toBe(3_276);
    expect(rowsPerInsert('postgres', 3)).toBe(21_845);
  });

  it("stops at SQLite's 32,766 parameters and 500 rows of a compound SELECT", () => {
    expect(rowsPerInsert('sqlite', 100)).toBe(327);
    expect(rowsPerInsert('sqlite', 3)).toBe(500);
  });

  it('takes one row at least, however wide', () => {
    expect(rowsPerInsert('sqlite', 100_000)).toBe(1);
    expect(rowsPerInsert('postgres', 0)).toBe(65_535);
  });
});
