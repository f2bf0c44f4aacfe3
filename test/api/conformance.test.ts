import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import { Fixtures } from '../support/fixtures.js';
import { sampledFor } from '../support/sampling.js';
import { Schema, type ModelInfo } from '../../runtime/rest/schema.js';
import { registry } from '../../generated/index.js';

/**
 * The generic conformance suite (CONVENTIONS.md §15): the same REST contract checked for every model of the
 * registry that has an endpoint, on every database (on PostgreSQL sampled by kind: test/support/sampling.ts).
 * Model-specific behaviour has its own suites.
 */
const schema = new Schema(registry);
const models = schema.endpoints().filter((m) => !m.spec.readOnly);

/** A plain string field the suite can change with PATCH (not part of any uniqueness rule if possible). */
function editableString(model: ModelInfo): string | undefined {
  if (model.fields.get('description')?.kind === 'string') return 'description';
  const strings = model.writable.filter(
    (f) => f.kind === 'string' && f.format === 'plain' && !f.createOnly && !(f.kind === 'string' && f.pattern),
  );
  const free = strings.find((f) => !model.spec.uniques.some((u) => u.fields.includes(f.name)));
  return (free ?? strings[0])?.name;
}

describe('every model with an endpoint is in the conformance suite', () => {
  it('covers the registry', () => {
    const labels = schema.endpoints().map((m) => m.label);
    expect(models.map((m) => m.label).sort()).toEqual(labels.filter((l) => !schema.model(l).spec.readOnly).sort());
    expect(labels.length).toBeGreaterThan(0);
  });
});

describe.each(DIALECTS)('conformance on %s', (dialect) => {
  let app: TestApp;
  let fixtures: Fixtures;
  beforeAll(async () => {
    app = await startTestApp(dialect);
    fixtures = new Fixtures(app.api, schema);
  });
  afterAll(async () => app?.close());

  describe.each(sampledFor(dialect, models).map((m) => [m.label, m] as const))('%s', (_label, model) => {
    const list = `/api${model.listPath}`;

    it('creates, reads, lists and selects fields', async () => {
      const body = await fixtures.payload(model.label);
      const created = await app.api.post(list, body);
      expect(created.status, created.text).toBe(201);
      expect(Object.keys(created.body)).toEqual(model.spec.output);
      expect(created.headers.get('location')).toBe(created.body.url);
      if (model.hasTimestamps) expect(created.headers.get('etag')).toMatch(/^W\/"\d{4}-\d{2}-\d{2}T.*\+00:00"$/);
      expect(created.body.url).toBe(`${app.baseUrl}/api${model.listPath}${created.body.id}/`);
      if (model.spec.output.includes('display_url'))
        expect(created.body.display_url).toBe(`${app.baseUrl}${model.listPath}${created.body.id}/`);
      expect(typeof created.body.display).toBe('string');

      const detail = await app.api.get(`${list}${created.body.id}/`);
      expect(detail.status).toBe(200);
      expect(Object.keys(detail.body)).toEqual(model.spec.output);
      for (const key of model.spec.output) {
        if (key !== 'token') expect(detail.body[key], key).toEqual(created.body[key]);
      }

      const listed = await app.api.get(`${list}?id=${created.body.id}`);
      expect(listed.status).toBe(200);
      expect(listed.body.count).toBe(1);
      expect(listed.headers.get('allow')).toContain('GET');
      expect(listed.headers.get('content-type')).toContain('application/json');
      expect(listed.body.results[0].id).toBe(created.body.id);

      const brief = await app.api.get(`${list}${created.body.id}/?brief=true`);
      expect(Object.keys(brief.body)).toEqual(model.spec.brief);
      const briefList = await app.api.get(`${list}?brief=1&id=${created.body.id}`);
      expect(Object.keys(briefList.body.results[0])).toEqual(model.spec.brief);

      const fields = await app.api.get(`${list}?fields=display,id&id=${created.body.id}`);
      expect(Object.keys(fields.body.results[0])).toEqual(['id', 'display']);
      const omitted = await app.api.get(`${list}${created.body.id}/?omit=display,url`);
      expect(Object.keys(omitted.body)).toEqual(model.spec.output.filter((k) => k !== 'display' && k !== 'url'));
      const both = await app.api.get(`${list}${created.body.id}/?fields=id&omit=id`);
      expect(Object.keys(both.body)).toEqual(['id']);
    });

    it('answers OPTIONS with DRF metadata', async () => {
      const response = await app.api.options(list);
      expect(response.status).toBe(200);
      expect(response.body.name).toMatch(/ List$/);
      expect(response.body.renders).toEqual(['application/json', 'text/html']);
      const post = response.body.actions.POST;
      for (const key of model.spec.output) expect(post[key], key).toBeDefined();
      for (const field of model.writable) {
        expect(post[field.name].required, field.name).toBe(field.required);
        if (field.kind === 'choice') expect(post[field.name].choices.length).toBe(field.choices.length);
      }
      const object = await fixtures.create(model.label);
      const detail = await app.api.options(`${list}${object.id}/`);
      expect(detail.body.name).toMatch(/ Instance$/);
      expect(detail.body.actions.PUT).toBeDefined();
      const anonymous = await app.anonymous.options(list);
      expect(anonymous.body.actions).toBeUndefined();
    });

    it('bulk-creates, bulk-updates and bulk-deletes all or none', async () => {
      let ids: number[];
      if (uploads(model)) {
        // Files travel only in multipart forms, one object each; bulk updates and deletes are JSON.
        ids = [(await fixtures.create(model.label)).id, (await fixtures.create(model.label)).id];
      } else {
        const bodies = [await fixtures.payload(model.label), await fixtures.payload(model.label)];
        const created = await app.api.post(list, bodies);
        expect(created.status, created.text).toBe(201);
        expect(created.body).toHaveLength(2);
        ids = created.body.map((o: { id: number }) => o.id);

        const before = await app.api.get(`${list}?limit=0`);
        const invalid = await app.api.post(list, [await fixtures.payload(model.label), { id: 'x' }]);
        expect(invalid.status).toBe(400);
        expect(invalid.body).toHaveLength(2);
        expect(invalid.body[0]).toEqual({});
        const after = await app.api.get(`${list}?limit=0`);
        expect(after.body.count).toBe(before.body.count);
      }
      expect(ids[1]).toBeGreaterThan(ids[0]!);

      const field = editableString(model);
      if (field) {
        const patch = ids.map((id: number, i: number) => ({ id, [field]: `bulk ${i} ${id}` }));
        const updated = await app.api.patch(list, patch);
        expect(updated.status, updated.text).toBe(200);
        expect(updated.body.map((o: Record<string, unknown>) => o[field]).sort()).toEqual(
          patch.map((p: Record<string, unknown>) => p[field]).sort(),
        );
      }
      const missingId = await app.api.patch(list, [{ description: 'x' }]);
      expect(missingId.status).toBe(400);
      expect(missingId.body).toEqual([{ id: ['This field is required.'] }]);

      const deleted = await app.api.delete(
        list,
        ids.map((id: number) => ({ id })),
      );
      expect(deleted.status, deleted.text).toBe(204);
      for (const id of ids) expect((await app.api.get(`${list}${id}/`)).status).toBe(404);
    });

    it('updates with PATCH and PUT, and honours If-Match', async () => {
      const object = await fixtures.create(model.label);
      const url = `${list}${object.id}/`;
      const field = editableString(model);
      if (field) {
        const patched = await app.api.patch(url, { [field]: `patched ${object.id}` });
        expect(patched.status, patched.text).toBe(200);
        expect(patched.body[field]).toBe(`patched ${object.id}`);
      }
      // PUT keeps the object's relations (components cannot move to another parent) and replaces the rest.
      const keep = Object.fromEntries(
        model.writable
          .filter((f) => f.kind === 'fk' && f.required && object[f.name])
          .map((f) => [f.name, object[f.name].id as number]),
      );
      const put = await app.api.put(url, await fixtures.payload(model.label, keep));
      expect(put.status, put.text).toBe(200);
      const incomplete = model.writable.find((f) => f.required && !f.createOnly);
      if (incomplete) {
        const response = await app.api.put(url, {});
        expect(response.status).toBe(400);
        expect(response.body[incomplete.name]).toEqual(['This field is required.']);
      }
      if (model.hasTimestamps) {
        const current = await app.api.get(url);
        const etag = current.headers.get('etag')!;
        const stale = await app.api.patch(url, {}, { headers: { 'If-Match': 'W/"2000-01-01T00:00:00+00:00"' } });
        expect(stale.status).toBe(412);
        expect(stale.body).toEqual({ detail: 'Precondition failed.' });
        expect(stale.headers.get('etag')).toBe(etag);
        expect((await app.api.patch(url, {}, { headers: { 'If-Match': etag } })).status).toBe(200);
        expect((await app.api.patch(url, {}, { headers: { 'If-Match': '*' } })).status).toBe(200);
      }
    });

    it('filters, orders and paginates', async () => {
      const objects = [
        await fixtures.create(model.label),
        await fixtures.create(model.label),
        await fixtures.create(model.label),
      ];
      const ids = objects.map((o) => o.id as number);
      const inIds = ids.map((id) => `id=${id}`).join('&');
      expect((await app.api.get(`${list}?${inIds}`)).body.count).toBe(3);
      expect((await app.api.get(`${list}?${inIds}&id__n=${ids[0]}`)).body.count).toBe(2);
      expect((await app.api.get(`${list}?${inIds}&id__gte=${ids[1]}`)).body.count).toBe(2);
      expect((await app.api.get(`${list}?id=abc`)).status).toBe(400);
      // Unknown parameters are ignored, as NetBox ignores them (STRICT_FILTERING is off by default).
      const unknown = await app.api.get(`${list}?${inIds}&unknown_parameter=1&id__foo=1&format=json`);
      expect(unknown.status).toBe(200);
      expect(unknown.body.count).toBe(3);

      for (const filter of model.spec.filters) {
        if (filter.kind !== 'value' || filter.path.length > 0 || filter.lookups !== 'string') continue;
        const value = objects[0]![filter.field];
        if (typeof value !== 'string' || value === '') continue;
        const exact = await app.api.get(`${list}?${filter.name}=${encodeURIComponent(value)}&${inIds}`);
        expect(
          exact.body.results.map((o: { id: number }) => o.id),
          filter.name,
        ).toContain(ids[0]);
        const ic = await app.api.get(
          `${list}?${filter.name}__ic=${encodeURIComponent(value.slice(1, -1).toUpperCase())}&${inIds}`,
        );
        expect(
          ic.body.results.map((o: { id: number }) => o.id),
          `${filter.name}__ic`,
        ).toContain(ids[0]);
        const negated = await app.api.get(`${list}?${filter.name}__n=${encodeURIComponent(value)}&${inIds}`);
        expect(
          negated.body.results.map((o: { id: number }) => o.id),
          `${filter.name}__n`,
        ).not.toContain(ids[0]);
      }

      const page = await app.api.get(`${list}?${inIds}&limit=2&ordering=-id`);
      expect(page.body.results.map((o: { id: number }) => o.id)).toEqual([ids[2], ids[1]]);
      expect(page.body.next).toMatch(/offset=2/);
      const next = await app.api.get(page.body.next);
      expect(next.body.results.map((o: { id: number }) => o.id)).toEqual([ids[0]]);
      expect(next.body.previous).toBeTruthy();
      for (const param of ['limit=2', 'ordering=-id']) expect(page.body.next.split(param).length - 1).toBe(1);

      const cursor = await app.api.get(`${list}?${inIds}&start=${ids[1]}&limit=1`);
      expect(cursor.body.count).toBeNull();
      expect(cursor.body.results.map((o: { id: number }) => o.id)).toEqual([ids[1]]);
      expect(cursor.body.next).toContain(`start=${ids[1]! + 1}`);

      // Every orderable field, ascending and descending in turn (the direction is one generic step).
      const orderable = model.spec.fields.filter(
        (f) => f.column && !f.hidden && !f.writeOnly && !['json', 'list', 'object_types'].includes(f.kind),
      );
      for (const [i, field] of orderable.entries()) {
        const direction = i % 2 === 0 ? '' : '-';
        const ordered = await app.api.get(`${list}?${inIds}&ordering=${direction}${field.name}`);
        expect(ordered.status, `ordering=${direction}${field.name}`).toBe(200);
        expect(ordered.body.count).toBe(3);
      }
    });

    it('deletes, then answers 404', async () => {
      const object = await fixtures.create(model.label);
      const url = `${list}${object.id}/`;
      const withBody = await app.api.delete(url, { unexpected: 1 });
      expect(withBody.status).toBe(400);
      const deleted = await app.api.delete(url, { changelog_message: 'removed by the suite' });
      expect(deleted.status, deleted.text).toBe(204);
      expect(deleted.text).toBe('');
      const missing = await app.api.get(url);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ detail: `No ${model.spec.className} matches the given query.` });
      expect((await app.api.get(`${list}abc/`)).body).toEqual({ detail: 'Not found.' });
    });
  });
});

/** Models whose create needs a file (sent as a multipart form, never in a JSON array). */
function uploads(model: ModelInfo): boolean {
  return model.spec.fields.some((f) => f.kind === 'image' && f.required);
}
