import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/**
 * PostgreSQL keeps the statements each connection has prepared; when another process migrates a table they
 * read (`select *` changes shape), PostgreSQL refuses them ("cached plan must not change result type"). The
 * server prepares them again, for reads and for writes, instead of answering 500.
 */
describe.skipIf(!DIALECTS.includes('postgres'))('statements prepared before a migration on postgres', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp('postgres');
  });
  afterAll(async () => app?.close());

  it('are prepared again after another process changed a table', async () => {
    const write = (n: number) => app.api.post('/api/dcim/sites/', { name: `Site ${n}`, slug: `site-${n}` });
    // Every pooled connection prepares the list, the detail and the write's statements.
    for (let n = 0; n < 6; n += 1) {
      expect((await write(n)).status).toBe(201);
      expect((await app.api.get('/api/dcim/sites/')).status).toBe(200);
      expect((await app.api.get('/api/dcim/sites/1/')).status).toBe(200);
    }
    await app.db.knex.raw('ALTER TABLE dcim_site ADD COLUMN added_elsewhere integer');
    for (let n = 6; n < 12; n += 1) {
      const created = await write(n);
      expect(created.status, created.text).toBe(201);
      const list = await app.api.get('/api/dcim/sites/?limit=100');
      expect(list.status, list.text).toBe(200);
      expect(list.body.count).toBe(n + 1);
      expect((await app.api.get(`/api/dcim/sites/${created.body.id}/`)).status).toBe(200);
    }
  });
});
