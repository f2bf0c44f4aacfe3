import { describe, expect, it } from 'vitest';
import { registry } from '../../generated/index.js';
import { DIFFERENCES, NOT_IN_NETBOX } from '../fixtures/netbox-serializer-differences.js';
import { compareKeys, NETBOX_SERIALIZERS, servedModels, unexplainedModels } from '../support/netbox-serializers.js';

/**
 * Every served model's complete and brief representations, as the registry declares them (`output`, `brief`),
 * have NetBox 4.6.8's keys in NetBox's order (test/fixtures/netbox-serializers.json, derived from NetBox's
 * serializers by test/fixtures/derive-netbox-serializers.py), except for the differences listed in
 * test/fixtures/netbox-serializer-differences.ts. test/api/netbox-serializers.test.ts checks real responses.
 */
const { compared, skipped } = servedModels(registry);

describe("NetBox's serializers", () => {
  it('covers the models this service serves', () => {
    expect(unexplainedModels(registry), 'served but not in NetBox: list them in NOT_IN_NETBOX').toEqual([]);
    expect(compared.length).toBeGreaterThan(40);
    for (const label of Object.keys(NOT_IN_NETBOX)) expect(registry.models[label]?.path, label).toBeTruthy();
    for (const difference of DIFFERENCES) {
      expect(
        compared.map((c) => c.label),
        `${difference.model} is listed in DIFFERENCES but not compared`,
      ).toContain(difference.model);
      if (difference.kind === 'missing' || difference.kind === 'extra') expect(difference.field).toBeTruthy();
      else expect(difference.field).toBeUndefined();
    }
  });

  it.each(compared)('$label is served at NetBox path', ({ model, netbox }) => {
    expect(`${model.app}/${model.path}`).toBe(netbox.path);
  });

  it.each(compared)('$label: complete and brief keys in NetBox order', ({ label, model, netbox }) => {
    for (const [representation, theirs, mine] of [
      ['complete', netbox.complete, model.output],
      ['brief', netbox.brief, model.brief],
    ] as const) {
      const comparison = compareKeys(label, representation, theirs, mine);
      const context = `${representation}\n  NetBox: ${theirs.join(', ')}\n  here:   ${mine.join(', ')}\n`;
      expect(comparison.unlisted, `${context}not listed in netbox-serializer-differences.ts`).toEqual([]);
      expect(comparison.fixed, `${context}fixed: delete from netbox-serializer-differences.ts`).toEqual([]);
    }
  });

  it.each(compared)("$label: NetBox's write-only fields are write-only", ({ model, netbox }) => {
    const writeOnly = model.fields.filter((f) => f.writeOnly).map((f) => f.name);
    expect(writeOnly).toEqual(expect.arrayContaining(netbox.write_only));
    // Others are fields NetBox's serializer leaves out (its forms write them): written here, never shown.
    const others = writeOnly.filter((name) => !netbox.write_only.includes(name));
    expect(others.filter((name) => netbox.fields.includes(name))).toEqual([]);
  });

  it('records every model NetBox serves', () => {
    expect(Object.keys(NETBOX_SERIALIZERS).length).toBeGreaterThan(120);
    for (const shape of Object.values(NETBOX_SERIALIZERS)) {
      expect(shape.complete.length).toBeGreaterThan(0);
      if (shape.brief_fields === null) expect(shape.brief).toEqual(shape.complete);
    }
  });

  it.skip.each(skipped)('$label: $reason', () => undefined);
});
