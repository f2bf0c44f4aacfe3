import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import { Schema } from '../../runtime/rest/schema.js';
import { registry } from '../../generated/index.js';
import { filterLookups } from '../../runtime/spec.js';

/** Never a 500 for any client input: every filter and lookup of every model, with awkward values. */
const schema = new Schema(registry);
const VALUES = ['null', '-1', '99999999999999999999', 'abc', '%_\\', '\'"([ñ€', '2026-13-45', '1.5e309'];
/** Lookups share their filter's parsing: a sample of the values finds what the SQL of each makes of them. */
const LOOKUP_VALUES = ['null', '99999999999999999999', '%_\\', '1.5e309'];
const WRITE_VALUES: unknown[] = [null, '', 'x'.repeat(300), -1, 1.5, 1e20, true, [], {}, [1], { slug: 'nope' }, '1'];

describe.each(DIALECTS)('awkward input on %s', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(dialect);
  });
  afterAll(async () => app?.close());

  it.each(schema.endpoints().map((m) => [m.label, m] as const))(
    '%s: filters answer 200 or 400',
    async (_label, model) => {
      for (const filter of model.spec.filters) {
        for (const lookup of filterLookups(filter)) {
          const name = lookup ? `${filter.name}__${lookup}` : filter.name;
          await Promise.all(
            (lookup ? LOOKUP_VALUES : VALUES).map(async (value) => {
              const response = await app.api.get(`/api${model.listPath}?${name}=${encodeURIComponent(value)}`);
              expect([200, 400], `${name}=${value}: ${response.text}`).toContain(response.status);
            }),
          );
        }
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
    for (const field of model.writable) {
      await Promise.all(
        WRITE_VALUES.map(async (value) => {
          const response = await app.api.post(`/api${model.listPath}`, { [field.name]: value });
          expect([201, 400], `${field.name}=${JSON.stringify(value)}: ${response.text}`).toContain(response.status);
        }),
      );
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
