import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { registry } from '../../generated/index.js';
import { filterLookups, type ModelSpec } from '../../runtime/spec.js';

/**
 * Every filter and lookup of NetBox 4.6.8's filter sets for the models we serve, as derived from NetBox's
 * source by test/fixtures/derive-netbox-filters.py, is a filter here, unless the list says why it is left
 * out; and no model has a filter NetBox lacks (STRICT_FILTERING=false must behave as NetBox does).
 */
interface Expected {
  filters: string[];
  left_out: Record<string, string>;
}

const fixture = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, '../fixtures/netbox-filters.json'), 'utf8'),
) as { models: Record<string, Expected> };

/** Every query parameter a model's filter set accepts (`name`, `name__ic`, …). */
function accepted(model: ModelSpec): Set<string> {
  const names = new Set<string>();
  for (const filter of model.filters) {
    for (const lookup of filterLookups(filter)) names.add(lookup ? `${filter.name}__${lookup}` : filter.name);
  }
  return names;
}

describe("NetBox's filter sets", () => {
  // Models with an endpoint here (the tagged-item table has none: NetBox's tagged-objects list is not served).
  const served = Object.entries(fixture.models).filter(([label]) => registry.models[label]?.path);

  it('covers the models this service serves', () => {
    // Models listed but not in the registry (yet) are skipped; a served model must be listed. Background
    // tasks are this service's own (NetBox's are RQ jobs, listed without a filter set). Plugins' models
    // follow their plugin's filter sets, not NetBox's.
    const netboxModels = Object.values(registry.models).filter(
      (m) => m.path && !m.plugin && m.label !== 'core.backgroundtask',
    );
    expect(netboxModels.map((m) => m.label).filter((label) => !(label in fixture.models))).toEqual([]);
    expect(served.length).toBeGreaterThan(40);
  });

  it.each(served)('%s: every NetBox filter and lookup, and no other', (label, expected) => {
    const names = accepted(registry.models[label]!);
    const leftOut = new Set(Object.keys(expected.left_out));
    expect(
      expected.filters.filter((name) => !names.has(name) && !leftOut.has(name)),
      'missing',
    ).toEqual([]);
    expect(
      [...leftOut].filter((name) => names.has(name)),
      'served now: remove from LEFT_OUT in derive-netbox-filters.py',
    ).toEqual([]);
    const netbox = new Set(expected.filters);
    expect(
      [...names].filter((name) => !netbox.has(name)),
      'not in NetBox',
    ).toEqual([]);
  });

  it('gives a reason for every filter it leaves out', () => {
    for (const [, expected] of served) {
      for (const [name, reason] of Object.entries(expected.left_out)) {
        expect(expected.filters, name).toContain(name);
        expect(reason.length, name).toBeGreaterThan(10);
      }
    }
  });
});
