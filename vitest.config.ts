import { createRequire } from 'node:module';
import os from 'node:os';
import { defineConfig } from 'vitest/config';
import DurationSequencer from './test/support/sequencer.js';

// `npx vitest` runs no npm script: a Node.js older than package.json's engines stops here with one line rather
// than crashing in better-sqlite3 (bin/check-node.cjs).
createRequire(import.meta.url)('./bin/check-node.cjs');

/**
 * Two projects: `unit` (no database, no server: generator stages and fixture snapshots, domain rules and other
 * runtime units; seconds) and `api` (the service over HTTP on SQLite and PostgreSQL, and the whole-repository
 * generator checks: drift, migrations, the OpenAPI document). `npm test` runs both; `npm run test:unit` the
 * first. Files run in parallel, two worker processes at a time, each importing the modules once; see test/README.md.
 */
const unit = [
  'test/unit/**/*.test.ts',
  'test/generator/validate.test.ts',
  'test/runtime/{conditions,ip,webhook-templates,no-model-names}.test.ts',
];

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: Math.max(2, os.availableParallelism()),
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    // Longest files first, from test/durations.json: the workers finish together (test/support/sequencer.ts).
    sequence: { sequencer: DurationSequencer },
    projects: [
      // Files share their worker's module cache (no process per file): importing the generator, the
      // runtime and the generated registry once per worker instead of once per file is a third of their CPU time.
      { extends: true, test: { name: 'unit', include: unit, isolate: false } },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['test/**/*.test.ts'],
          exclude: unit,
          // As for unit files: a process per file spent 4 minutes of a 11-minute run importing the runtime and the
          // generated registry again. Each file starts its own apps and databases; module state it touches
          // (caches, registered kinds) is per app or put back by the file.
          isolate: false,
          globalSetup: ['test/support/global-setup.ts', 'test/support/build.ts'],
        },
      },
    ],
  },
});
