import { describe, expect, it } from 'vitest';
import { registry } from '../../generated/index.js';
import { Schema } from '../../runtime/rest/schema.js';
import { GENERIC_TESTS } from './generic.js';
import { NETBOX_CASES, NOT_PORTED } from './cases/index.js';

/** The ported NetBox API tests cover every served model, and say why they leave a test out. */
const schema = new Schema(registry);

describe('the ported NetBox API tests', () => {
  it('cover every model with an endpoint', () => {
    const covered = new Set(NETBOX_CASES.map((c) => c.model));
    // A plugin's models are not NetBox's: test/api/plugins.test.ts and the generic suites cover them.
    const missing = schema
      .endpoints()
      .filter((m) => !m.spec.plugin)
      .map((m) => m.label)
      .filter((label) => !covered.has(label) && !(label in NOT_PORTED));
    expect(missing).toEqual([]);
  });

  it('leave tests out only with a reason', () => {
    for (const c of NETBOX_CASES) {
      for (const [name, reason] of Object.entries(c.leftOut ?? {}))
        expect(reason.length, `${c.source}.${name}`).toBeGreaterThan(10);
    }
    const generic = new Set(GENERIC_TESTS.map((g) => g.name));
    expect(generic.size).toBe(19);
  });
});
