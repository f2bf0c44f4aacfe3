import knex, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runShaped } from '../../../runtime/rest/shaped.js';

/** Statements compiled once per shape give each call its own ids' rows. */
describe('runShaped', () => {
  let q: Knex;
  beforeAll(async () => {
    q = knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true });
    await q.schema.createTable('item', (t) => {
      t.integer('id').primary();
      t.string('kind');
    });
    await q('item').insert([1, 2, 3, 4, 5].map((id) => ({ id, kind: id % 2 ? 'odd' : 'even' })));
  });
  afterAll(async () => q.destroy());

  const byIds = (kind: string) => (ids: readonly number[]) =>
    q('item')
      .where('kind', kind)
      .whereIn('id', [...ids])
      .orderBy('id')
      .select('id');

  it('binds the ids of each call into the statement compiled for the first', async () => {
    const ids = async (rows: Promise<{ id: number }[]>) => (await rows).map((r) => r.id);
    expect(await ids(runShaped(q, 'sqlite', 'odd', [1, 2, 3], byIds('odd')))).toEqual([1, 3]);
    expect(await ids(runShaped(q, 'sqlite', 'odd', [3, 4, 5], byIds('odd')))).toEqual([3, 5]);
    // Another number of ids is another shape.
    expect(await ids(runShaped(q, 'sqlite', 'odd', [5], byIds('odd')))).toEqual([5]);
    // A constant of the shape stays the one it was compiled with: the shape must name it.
    expect(await ids(runShaped(q, 'sqlite', 'even', [1, 2, 3], byIds('even')))).toEqual([2]);
  });

  it('compiles on every call a query that binds values computed from its ids', async () => {
    const twice = (ids: readonly number[]) =>
      q('item')
        .whereIn('id', [...ids])
        .orWhereIn(
          'id',
          [...ids].map((id) => id + 1),
        )
        .orderBy('id')
        .select('id');
    const ids = async (list: number[]) =>
      (await runShaped<{ id: number }>(q, 'sqlite', 'twice', list, twice)).map((r) => r.id);
    expect(await ids([1])).toEqual([1, 2]);
    expect(await ids([3])).toEqual([3, 4]);
  });
});
