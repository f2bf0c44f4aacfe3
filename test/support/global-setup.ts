import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PostgreSQL server URL for the suites, or '' to run on SQLite only. */
    pgUrl: string;
  }
}

/**
 * Decides once per run which databases the suites use: SQLite always; PostgreSQL when TEST_DATABASE_URL is
 * set (then it must answer) or when a local server answers on 127.0.0.1:5432.
 */
export default async function setup(project: TestProject): Promise<void> {
  const explicit = process.env.TEST_DATABASE_URL;
  const url = explicit || 'postgres://postgres@127.0.0.1:5432/test';
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    project.provide('pgUrl', url);
  } catch (error) {
    if (explicit)
      throw new Error(`TEST_DATABASE_URL is set but PostgreSQL does not answer: ${(error as Error).message}`);
    console.warn('PostgreSQL is not reachable on 127.0.0.1:5432: running the suites on SQLite only.');
    project.provide('pgUrl', '');
  } finally {
    await client.end().catch(() => undefined);
  }
}
