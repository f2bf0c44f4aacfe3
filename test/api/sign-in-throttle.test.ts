import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

const LIMIT = 5;

/**
 * The sign-in throttle lives in the database: an attempt is counted before its password is checked, so that
 * parallel guesses cannot all slip past the count, and every server of the database shares the count.
 */
describe.each(DIALECTS)('the sign-in throttle on %s', (dialect) => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    const settings = { LOGIN_FAILURE_LIMIT: LIMIT, LOGIN_FAILURE_WINDOW: 300 };
    a = await startTestApp(dialect, { settings });
    // On PostgreSQL a second server on the same database; on SQLite the same server (one process writes).
    b = dialect === 'postgres' ? await startTestApp(dialect, { settings, databaseUrl: a.databaseUrl }) : a;
    const user = await a.api.post('/api/users/users/', { username: 'dave', password: 'Dave-Password-1' });
    expect(user.status, user.text).toBe(201);
  });
  afterAll(async () => {
    if (b !== a) await b?.close({ keepDatabase: true });
    await a?.close();
  });

  const provision = (app: TestApp, username: string, password: string) =>
    app.anonymous.post('/api/users/tokens/provision/', { username, password });

  it('checks at most the limit of 30 wrong passwords sent at once, across servers', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => provision(i % 2 ? b : a, 'dave', `wrong-${i}`)),
    );
    const statuses = answers.map((r) => r.status);
    // 403: the password was checked and was wrong; 429: refused before any check.
    expect(statuses.filter((s) => s === 403)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30 - LIMIT);
    expect(statuses.filter((s) => s !== 403 && s !== 429)).toEqual([]);
    // The right password is refused too while the window lasts, by either server.
    for (const app of [a, b]) expect((await provision(app, 'dave', 'Dave-Password-1')).status).toBe(429);
  });
});
