import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import { Schema } from '../../runtime/rest/schema.js';
import { registry } from '../../generated/index.js';
import { filterLookups, type FieldSpec, type FilterSpec } from '../../runtime/spec.js';

/**
 * Never a 500 for any client input: every filter name of every model, with awkward values. Filters of the
 * same kind share their parsing and SQL, so each kind of filter (its spec without the names of its model's
 * fields) gets every awkward value with every lookup once, on the first filter of that kind; every other
 * filter gets one of the values in turn, bare and with one of its lookups in turn. Each model, filter name,
 * kind of filter and lookup of each kind is covered, and a new model costs two requests per filter.
 */
const schema = new Schema(registry);
const VALUES = ['null', '-1', '99999999999999999999', 'abc', '%_\\', '\'"([ñ€', '2026-13-45', '1.5e309'];
/** Lookups share their filter's parsing: a sample of the values finds what the SQL of each makes of them. */
const LOOKUP_VALUES = ['null', '99999999999999999999', '%_\\', '1.5e309'];

const WRITE_VALUES: unknown[] = [null, '', 'x'.repeat(300), -1, 1.5, 1e20, true, [], {}, [1], { slug: 'nope' }, '1'];

/** What makes two filters behave alike: their spec without names of fields, models and the filter. */
function filterKind(filter: FilterSpec): string {
  const { name: _name, ...rest } = filter as FilterSpec & Record<string, unknown>;
  const shape: Record<string, unknown> = { ...rest };
  for (const key of ['field', 'target']) if (key in shape) shape[key] = typeof shape[key];
  if (Array.isArray(shape.path)) shape.path = (shape.path as unknown[]).length;
  return JSON.stringify(shape, Object.keys(shape).sort());
}

/** The query strings sent to each model's list: `[parameter, value]` pairs, planned over the whole registry. */
function planFilterQueries(): Map<string, [string, string][]> {
  const seenKinds = new Set<string>();
  const plan = new Map<string, [string, string][]>();
  let turn = 0;
  for (const model of schema.endpoints()) {
    const queries: [string, string][] = [];
    for (const filter of model.spec.filters) {
      const kind = filterKind(filter);
      const lookups = filterLookups(filter);
      if (!seenKinds.has(kind))
        for (const lookup of lookups)
          for (const value of lookup ? LOOKUP_VALUES : VALUES)
            queries.push([lookup ? `${filter.name}__${lookup}` : filter.name, value]);
      else {
        queries.push([filter.name, VALUES[turn % VALUES.length]!]);
        const lookup = lookups.filter(Boolean)[turn % lookups.length];
        if (lookup) queries.push([`${filter.name}__${lookup}`, LOOKUP_VALUES[turn % LOOKUP_VALUES.length]!]);
        turn += 1;
      }
      seenKinds.add(kind);
    }
    plan.set(model.label, queries);
  }
  return plan;
}
const FILTER_QUERIES = planFilterQueries();

/** What makes two writable fields validate alike: their spec without names, labels and targets. */
function fieldKind(field: FieldSpec): string {
  const { name: _n, column: _c, label: _l, description: _d, helpText: _h, ...rest } = field;
  const shape: Record<string, unknown> = { ...rest };
  for (const key of ['target', 'through', 'reverseOf', 'of', 'typeField', 'idField'])
    if (key in shape) shape[key] = typeof shape[key];
  return JSON.stringify(shape, Object.keys(shape).sort());
}

/** Values sent to each field of a model that has no rules of its own beyond the first field of each kind. */
const SAMPLED_WRITE_VALUES = 3;

/**
 * `[field, value]` pairs POSTed to each model. Models whose own domain rules (validators, hooks) read their
 * fields get every awkward value in every field (`ownRulesInFull`; on SQLite: those rules are the same code on
 * both databases); elsewhere fields are validated by their kind alone, so the first field of each kind gets
 * every value and the others a few in turn.
 */
function planWrites(ownRulesInFull: boolean): Map<string, [string, unknown][]> {
  const seenKinds = new Set<string>();
  const plan = new Map<string, [string, unknown][]>();
  let turn = 0;
  for (const model of schema.endpoints().filter((m) => !m.spec.readOnly)) {
    const ownRules = ownRulesInFull && (model.spec.validators.length > 0 || Object.keys(model.spec.hooks).length > 0);
    const writes: [string, unknown][] = [];
    for (const field of model.writable) {
      const kind = fieldKind(field);
      if (ownRules || !seenKinds.has(kind)) for (const value of WRITE_VALUES) writes.push([field.name, value]);
      else
        for (let i = 0; i < SAMPLED_WRITE_VALUES; i += 1)
          writes.push([field.name, WRITE_VALUES[turn++ % WRITE_VALUES.length]]);
      seenKinds.add(kind);
    }
    plan.set(model.label, writes);
  }
  return plan;
}
const WRITES = planWrites(true);
const WRITES_BY_KIND = planWrites(false);

describe.each(DIALECTS)('awkward input on %s', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect);
  });
  afterAll(async () => app?.close());

  it.each(schema.endpoints().map((m) => [m.label, m] as const))(
    '%s: filters answer 200 or 400',
    async (_label, model) => {
      // `fields=id`: the filters' SQL without the joins that render objects (the conformance suite renders).
      for (const [name, value] of FILTER_QUERIES.get(model.label)!) {
        const response = await app.api.get(`/api${model.listPath}?fields=id&${name}=${encodeURIComponent(value)}`);
        expect([200, 400], `${name}=${value}: ${response.text}`).toContain(response.status);
      }
      for (const query of [
        'limit=abc',
        'offset=-5',
        'limit=99999999999999999999',
        'ordering=,,-',
        'fields=,',
        'omit=id',
        'brief=yes',
        'start=abc',
        'q=%25',
      ]) {
        const response = await app.api.get(`/api${model.listPath}?${query}`);
        expect([200, 400], `${query}: ${response.text}`).toContain(response.status);
      }
      const huge = await app.api.get(`/api${model.listPath}99999999999999999999/`);
      expect(huge.status).toBe(404);
    },
  );

  it.each(
    schema
      .endpoints()
      .filter((m) => !m.spec.readOnly)
      .map((m) => [m.label, m] as const),
  )('%s: writes answer 201 or 400', async (_label, model) => {
    for (const [field, value] of (dialect === 'sqlite' ? WRITES : WRITES_BY_KIND).get(model.label)!) {
      const response = await app.api.post(`/api${model.listPath}`, { [field]: value });
      expect([201, 400], `${field}=${JSON.stringify(value)}: ${response.text}`).toContain(response.status);
    }
    for (const body of [
      [],
      [null],
      [[]],
      'x',
      1,
      { tags: 'x' },
      { tags: [{}] },
      { custom_fields: [] },
      { custom_fields: { a: 1 } },
    ]) {
      const response = await app.api.post(`/api${model.listPath}`, body);
      expect([400], `${JSON.stringify(body)}: ${response.text}`).toContain(response.status);
    }
    for (const body of [{}, [], [{ id: 'x' }], [{ id: 1e20 }], [{ id: -1 }], null]) {
      const response = await app.api.patch(`/api${model.listPath}`, body);
      expect([200, 400], `PATCH ${JSON.stringify(body)}: ${response.text}`).toContain(response.status);
    }
  });
});

describe('the filter plan', () => {
  it('sends every filter name of every model, and every value and lookup to each kind of filter', () => {
    const kinds = new Map<string, Set<string>>();
    const lookupsSent = new Map<string, Set<string>>();
    for (const model of schema.endpoints()) {
      const sent = FILTER_QUERIES.get(model.label)!;
      for (const filter of model.spec.filters) {
        expect(
          sent.map(([name]) => name),
          `${model.label} ${filter.name}`,
        ).toContain(filter.name);
        const kind = filterKind(filter);
        const values = kinds.get(kind) ?? new Set<string>();
        const lookups = lookupsSent.get(kind) ?? new Set<string>();
        for (const [name, value] of sent) {
          if (name === filter.name) values.add(value);
          if (name.startsWith(`${filter.name}__`)) lookups.add(name.slice(filter.name.length + 2));
        }
        kinds.set(kind, values);
        lookupsSent.set(kind, lookups);
        for (const lookup of filterLookups(filter).filter(Boolean))
          expect(lookupsSent.get(kind), `${model.label} ${filter.name}__${lookup}`).toContain(lookup);
      }
    }
    for (const [kind, values] of kinds) for (const value of VALUES) expect(values, kind).toContain(value);
  });

  it('writes every writable field of every model, and every value to each kind of field', () => {
    const kinds = new Map<string, Set<unknown>>();
    for (const model of schema.endpoints().filter((m) => !m.spec.readOnly)) {
      const writes = WRITES.get(model.label)!;
      for (const field of model.writable) {
        const values = writes.filter(([name]) => name === field.name).map(([, value]) => value);
        expect(values.length, `${model.label}.${field.name}`).toBeGreaterThan(0);
        const seen = kinds.get(fieldKind(field)) ?? new Set<unknown>();
        for (const value of values) seen.add(value);
        kinds.set(fieldKind(field), seen);
      }
    }
    for (const [kind, values] of kinds) expect(values.size, kind).toBe(WRITE_VALUES.length);
  });
});
