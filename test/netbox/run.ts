import { afterAll, beforeAll, describe, it } from 'vitest';
import { DIALECTS } from '../support/app.js';
import type { Dialect } from '../../runtime/db/connect.js';
import { GENERIC_TESTS, type NetBoxTestCase, type SetUpData } from './generic.js';
import { PortedClass, SharedDatabase } from './harness.js';

/**
 * Runs ported NetBox 4.6.8 API test case classes: the data of each (`setUpTestData`, `create_data`, …) is
 * declared in test/netbox/cases/, and the generic tests of utilities/testing/api.py (generic.ts) and the
 * class's own tests run against it, on SQLite and PostgreSQL. The classes of a file take turns on one
 * database, put back as it was before each class and each own test (harness.ts). Tests left out say why (in
 * the case, or in cases/index.ts). One test file per NetBox app lets them run in parallel.
 */
/** Declares the ported tests of some test case classes, on every database. */
export function definePortedSuite(cases: readonly NetBoxTestCase[]): void {
  describe.each(DIALECTS)('NetBox API tests on %s', (dialect) => {
    afterAll(() => SharedDatabase.close(dialect));
    for (const c of cases) {
      describe(c.source, () => {
        // Each of the class's own tests starts from the class's data alone, as NetBox rolls back after every
        // test.
        for (const [name, test] of Object.entries(c.tests ?? {})) {
          it(name, async () => {
            const t = await PortedClass.start(dialect, c.model);
            try {
              await test(t, await c.setUp(t));
            } finally {
              await t.close();
            }
          });
        }
        const generic = GENERIC_TESTS.filter((g) => !c.mixins || c.mixins.includes(g.mixin));
        if (generic.length > 0)
          describe('generic tests', () => {
            const state = classState(dialect, c);
            for (const test of generic) {
              const reason = c.leftOut?.[test.name];
              if (reason) it.skip(`${test.name} (left out: ${reason})`, () => undefined);
              else it(test.name, () => test.run(state().t, c, state().data));
            }
          });
      });
    }
  });
}

/** A database with the class's `setUpTestData`, for the tests of the enclosing describe block. */
function classState(dialect: Dialect, c: NetBoxTestCase): () => { t: PortedClass; data: SetUpData } {
  let t: PortedClass;
  let data: SetUpData;
  beforeAll(async () => {
    t = await PortedClass.start(dialect, c.model);
    data = await c.setUp(t);
  });
  afterAll(async () => t?.close());
  return () => ({ t, data });
}
