import { describe, expect, it } from 'vitest';
import { registry } from '../../generated/index.js';
import { connectDatabase } from '../../runtime/db/connect.js';
import { migrate } from '../../runtime/db/migrate.js';
import { createTestDatabase, DIALECTS } from '../support/app.js';

describe.runIf(DIALECTS.includes('postgres'))('migrations on PostgreSQL', () => {
  it('run once when several servers and workers start together on an empty database', async () => {
    const database = await createTestDatabase('postgres');
    const connections = Array.from({ length: 3 }, () => connectDatabase(database.url));
    try {
      const results = await Promise.all(connections.map((db) => migrate(db, registry.migrations)));
      const names = registry.migrations.map((m) => m.name);
      expect(results.filter((applied) => applied.length > 0)).toEqual([names]);
      expect(results.filter((applied) => applied.length === 0)).toHaveLength(2);
      const rows = (await connections[0]!.knex('svc_migrations').select('name')) as { name: string }[];
      expect(rows.map((r) => r.name).sort()).toEqual([...names].sort());
    } finally {
      await Promise.all(connections.map((db) => db.close()));
      await database.drop();
    }
  });
});
