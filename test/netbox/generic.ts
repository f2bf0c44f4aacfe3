import { expect } from 'vitest';
import { expectInstanceEqual, WRITE_ONLY, type PortedClass } from './harness.js';

/**
 * NetBox's generic API test cases (utilities/testing/api.py, APIViewTestCases.APIViewTestCase without its
 * GraphQL part), ported to this service's HTTP API. They run in this order on one database per class:
 * reads, then creates (whose objects are removed again) and updates (whose changes are undone), as NetBox's
 * rollback after each test would, and deletes last.
 */

type Json = Record<string, any>;

/** What a ported test case class declares (its attributes and `setUpTestData`). */
export interface NetBoxTestCase {
  /** NetBox's class, e.g. `dcim/tests/test_api.py::SiteTestCase`. */
  source: string;
  model: string;
  briefFields: string[];
  userPermissions?: string[];
  /** `setUpTestData`: makes the class's objects; returns `create_data` and the other data it computes. */
  setUp(t: PortedClass): Promise<SetUpData>;
  bulkUpdateData?: Json;
  validationExcludedFields?: string[];
  /** The class's own tests, by NetBox's method name. */
  tests?: Record<string, (t: PortedClass, data: SetUpData) => Promise<void>>;
  /** Tests (generic or own) that are not ported, with the reason. */
  leftOut?: Record<string, string>;
  /** The generic test cases the class mixes in, when not all of APIViewTestCase (by name: get, list, …). */
  mixins?: readonly ('get' | 'list' | 'create' | 'update' | 'delete')[];
}

export interface SetUpData {
  createData: Json[];
  updateData?: Json;
  /** `bulk_update_data` that names objects made by `setUp` (else the case's `bulkUpdateData`). */
  bulkUpdateData?: Json;
  /** Anything else the class's own tests need (ids of its objects). */
  [key: string]: unknown;
}

export interface GenericTest {
  name: string;
  /** NetBox's generic test case class: GetObjectViewTestCase is `get`, and so on. */
  mixin: 'get' | 'list' | 'create' | 'update' | 'delete';
  run(t: PortedClass, c: NetBoxTestCase, data: SetUpData): Promise<void>;
}

const random = (): string => Math.random().toString(36).slice(2, 12);
/** NetBox's EXEMPT_EXCLUDE_MODELS: never readable anonymously. */
const NEVER_EXEMPT = new Set(['users.user', 'users.group', 'users.objectpermission', 'users.token']);

async function first(t: PortedClass): Promise<Json> {
  const [object] = await t.queryset();
  expect(object, 'the class has objects').toBeDefined();
  return object!;
}

const detail = (t: PortedClass, object: Json): string => `${t.path()}${object.id}/`;
const changeLogged = (t: PortedClass): boolean => t.app.context.schema.model(t.model).hasTimestamps;

/** An object's rendered values as a write body would give them (ids for objects, values for choices). */
function writable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(writable);
  if (value && typeof value === 'object') {
    const object = value as Json;
    if ('value' in object && 'label' in object && Object.keys(object).length === 2) return object.value;
    if ('id' in object) return object.id;
  }
  return value;
}

/**
 * Runs an update test and then puts the objects back as they were, as the rollback after each NetBox test
 * does, so that the next test starts from the class's data.
 */
async function restoring(
  t: PortedClass,
  ids: readonly number[],
  keys: readonly string[],
  body: () => Promise<void>,
): Promise<void> {
  const before = await Promise.all(ids.map((id) => t.get(id)));
  try {
    await body();
  } finally {
    const items = before.map((object) => ({
      id: object!.id,
      ...Object.fromEntries(
        keys.filter((k) => k in object! && !WRITE_ONLY.has(k)).map((k) => [k, writable(object![k])]),
      ),
    }));
    const response = await t.admin.patch(t.path(), items);
    expect(response.status, `restoring after the test: ${response.text}`).toBe(200);
  }
}

/** Removes what a create test made, as the rollback after each NetBox test does. */
async function undo(t: PortedClass, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const response = await t.admin.delete(
    t.path(),
    ids.map((id) => ({ id })),
  );
  expect(response.status, response.text).toBe(204);
}

export const GENERIC_TESTS: GenericTest[] = [
  {
    name: 'test_get_object_anonymous',
    mixin: 'get',
    run: async (t) => {
      const client = await t.exempt(await t.user());
      const response = await client.get(detail(t, await first(t)));
      expect(response.status).toBe(NEVER_EXEMPT.has(t.model) ? 403 : 200);
    },
  },
  {
    name: 'test_get_object_without_permission',
    mixin: 'get',
    run: async (t) => {
      const user = await t.user();
      expect((await user.client.get(detail(t, await first(t)))).status).toBe(403);
    },
  },
  {
    name: 'test_get_object',
    mixin: 'get',
    run: async (t, c) => {
      const objects = await t.queryset();
      expect(objects.length, 'at least two objects').toBeGreaterThanOrEqual(2);
      const [one, two] = objects as [Json, Json];
      const user = await t.user(c.userPermissions);
      await user.grant(['view'], { id: one.id });
      const response = await user.client.get(detail(t, one));
      expect(response.status).toBe(200);
      if (changeLogged(t)) expect(response.headers.get('etag')).toBeTruthy();
      expect((await user.client.get(detail(t, two))).status).toBe(404);
    },
  },
  {
    name: 'test_options_object',
    mixin: 'get',
    run: async (t) => {
      const client = await t.exempt(await t.user());
      expect((await client.options(detail(t, await first(t)))).status).toBe(200);
    },
  },
  {
    name: 'test_list_objects_anonymous',
    mixin: 'list',
    run: async (t) => {
      const client = await t.exempt(await t.user());
      const response = await client.get(t.path());
      if (NEVER_EXEMPT.has(t.model)) return expect(response.status).toBe(403);
      expect(response.status).toBe(200);
      expect(response.body.results.length).toBe((await t.all()).length);
    },
  },
  {
    name: 'test_list_objects_brief',
    mixin: 'list',
    run: async (t, c) => {
      const user = await t.user(c.userPermissions);
      await user.addPermissions(`${t.model.replace('.', '.view_')}`);
      const response = await user.client.get(`${t.path()}?brief=1`);
      expect(response.status).toBe(200);
      expect(response.body.results.length).toBe((await t.all()).length);
      expect(Object.keys(response.body.results[0]).sort()).toEqual([...c.briefFields].sort());
    },
  },
  {
    name: 'test_list_objects_without_permission',
    mixin: 'list',
    run: async (t) => {
      const user = await t.user();
      expect((await user.client.get(t.path())).status).toBe(403);
    },
  },
  {
    name: 'test_list_objects',
    mixin: 'list',
    run: async (t, c) => {
      const objects = await t.queryset();
      expect(objects.length, 'at least three objects').toBeGreaterThanOrEqual(3);
      const user = await t.user(c.userPermissions);
      await user.grant(['view'], { id__in: [objects[0]!.id, objects[1]!.id] });
      const response = await user.client.get(t.path());
      expect(response.status).toBe(200);
      expect(response.body.results.length).toBe(2);
    },
  },
  {
    name: 'test_options_objects',
    mixin: 'list',
    run: async (t) => {
      const client = await t.exempt(await t.user());
      expect((await client.options(t.path())).status).toBe(200);
    },
  },
  {
    name: 'test_create_object_without_permission',
    mixin: 'create',
    run: async (t, _c, data) => {
      const user = await t.user();
      expect((await user.client.post(t.path(), data.createData[0])).status).toBe(403);
    },
  },
  {
    name: 'test_create_object',
    mixin: 'create',
    run: async (t, c, data) => {
      const user = await t.user(c.userPermissions);
      await user.grant(['add']);
      const body: Json = structuredClone(data.createData[0]!);
      if (changeLogged(t)) body.changelog_message = random();
      const before = await t.count();
      const response = await user.client.post(t.path(), body);
      expect(response.status, response.text).toBe(201);
      try {
        expect(await t.count()).toBe(before + 1);
        expectInstanceEqual((await t.get(response.body.id))!, data.createData[0]!, c.validationExcludedFields);
        if (changeLogged(t)) {
          const [change] = await t.changes(response.body.id, 'create');
          expect(change?.message).toBe(body.changelog_message);
        }
      } finally {
        await undo(t, [response.body.id]);
      }
    },
  },
  {
    name: 'test_bulk_create_objects',
    mixin: 'create',
    run: async (t, c, data) => {
      const user = await t.user(c.userPermissions);
      await user.grant(['add']);
      const message = random();
      const bodies = data.createData.map((d) => ({
        ...structuredClone(d),
        ...(changeLogged(t) ? { changelog_message: message } : {}),
      }));
      const before = await t.count();
      const response = await user.client.post(t.path(), bodies);
      expect(response.status, response.text).toBe(201);
      const ids = (response.body as Json[]).map((o) => o.id as number);
      try {
        expect(ids.length).toBe(bodies.length);
        expect(await t.count()).toBe(before + bodies.length);
        (response.body as Json[]).forEach((object, i) => {
          for (const field of Object.keys(data.createData[i]!)) {
            if (WRITE_ONLY.has(field) || c.validationExcludedFields?.includes(field)) continue;
            expect(object, `bulk create field '${field}' missing from object ${i}`).toHaveProperty(field);
          }
        });
        for (const [i, id] of ids.entries())
          expectInstanceEqual((await t.get(id))!, data.createData[i]!, c.validationExcludedFields);
        if (changeLogged(t)) {
          for (const id of ids) expect((await t.changes(id, 'create'))[0]?.message).toBe(message);
        }
      } finally {
        await undo(t, ids);
      }
    },
  },
  {
    name: 'test_update_object_without_permission',
    mixin: 'update',
    run: async (t, _c, data) => {
      const user = await t.user();
      const response = await user.client.patch(detail(t, await first(t)), data.updateData ?? data.createData[0]);
      expect(response.status).toBe(403);
    },
  },
  {
    name: 'test_update_object',
    mixin: 'update',
    run: async (t, c, data) => {
      const instance = await first(t);
      const user = await t.user(c.userPermissions);
      await user.grant(['change']);
      const body: Json = structuredClone(data.updateData ?? data.createData[0]!);
      if (changeLogged(t)) body.changelog_message = random();
      await restoring(t, [instance.id], Object.keys(body), async () => {
        const response = await user.client.patch(detail(t, instance), body);
        expect(response.status, response.text).toBe(200);
        expectInstanceEqual((await t.get(instance.id))!, body, c.validationExcludedFields);
        if (changeLogged(t)) {
          const [change] = await t.changes(instance.id, 'update');
          expect(change?.message).toBe(body.changelog_message);
        }
      });
    },
  },
  {
    name: 'test_update_object_with_etag',
    mixin: 'update',
    run: async (t, c, data) => {
      if (!changeLogged(t)) return; // NetBox skips it: the model has no ETags.
      const user = await t.user(c.userPermissions);
      await user.addPermissions(t.model.replace('.', '.view_'), t.model.replace('.', '.change_'));
      const instance = await first(t);
      const url = detail(t, instance);
      const update = (data.updateData ?? data.createData[0])!;
      await restoring(t, [instance.id], Object.keys(update), async () => {
        const got = await user.client.get(url);
        expect(got.status).toBe(200);
        const etag = got.headers.get('etag');
        expect(etag).toBeTruthy();
        const changed = await user.client.patch(url, update, { headers: { 'If-Match': etag! } });
        expect(changed.status, changed.text).toBe(200);
        expect(changed.headers.get('etag')).toBeTruthy();
        expect(changed.headers.get('etag')).not.toBe(etag);
        expect((await user.client.patch(url, update, { headers: { 'If-Match': etag! } })).status).toBe(412);
      });
    },
  },
  {
    name: 'test_bulk_update_objects',
    mixin: 'update',
    run: async (t, c, data) => {
      const bulkUpdateData = data.bulkUpdateData ?? c.bulkUpdateData;
      if (!bulkUpdateData) return; // NetBox skips it: "Bulk update data not set".
      const user = await t.user(c.userPermissions);
      await user.grant(['change']);
      const ids = (await t.queryset()).slice(0, 3).map((o) => o.id as number);
      expect(ids.length).toBe(3);
      const message = random();
      const body = ids.map((id) => ({
        id,
        ...structuredClone(bulkUpdateData),
        ...(changeLogged(t) ? { changelog_message: message } : {}),
      }));
      await restoring(t, ids, Object.keys(bulkUpdateData), async () => {
        const response = await user.client.patch(t.path(), body);
        expect(response.status, response.text).toBe(200);
        (response.body as Json[]).forEach((object, i) => {
          for (const field of Object.keys(bulkUpdateData)) {
            if (WRITE_ONLY.has(field)) continue;
            expect(object, `bulk update field '${field}' missing from object ${i}`).toHaveProperty(field);
          }
        });
        for (const id of ids) expectInstanceEqual((await t.get(id))!, bulkUpdateData);
        if (changeLogged(t)) {
          for (const id of ids) expect((await t.changes(id, 'update'))[0]?.message).toBe(message);
        }
      });
    },
  },
  {
    name: 'test_delete_object_without_permission',
    mixin: 'delete',
    run: async (t) => {
      const user = await t.user();
      expect((await user.client.delete(detail(t, await first(t)))).status).toBe(403);
    },
  },
  {
    name: 'test_bulk_delete_objects',
    mixin: 'delete',
    run: async (t, c, data) => {
      const user = await t.user(c.userPermissions);
      await user.grant(['delete']);
      // NetBox deletes the three most recently created of the class's objects; here they are made from
      // create_data first, so that the single delete after this test still finds the class's own objects.
      for (const body of data.createData) await t.make(t.model, body);
      const ids = (await t.queryset())
        .map((o) => o.id as number)
        .sort((a, b) => b - a)
        .slice(0, 3);
      expect(ids.length).toBe(3);
      const message = random();
      const before = await t.count();
      const body = ids.map((id) => ({ id, ...(changeLogged(t) ? { changelog_message: message } : {}) }));
      const response = await user.client.delete(t.path(), body);
      expect(response.status, response.text).toBe(204);
      expect(await t.count()).toBe(before - 3);
      if (changeLogged(t)) {
        for (const id of ids) expect((await t.changes(id, 'delete'))[0]?.message).toBe(message);
      }
    },
  },
  {
    name: 'test_delete_object',
    mixin: 'delete',
    run: async (t, c) => {
      const instance = await first(t);
      const user = await t.user(c.userPermissions);
      await user.grant(['delete']);
      const body = changeLogged(t) ? { changelog_message: random() } : {};
      const response = await user.client.delete(detail(t, instance), body);
      expect(response.status, response.text).toBe(204);
      expect(await t.get(instance.id)).toBeNull();
      if (changeLogged(t)) expect((await t.changes(instance.id, 'delete'))[0]?.message).toBe(body.changelog_message);
    },
  },
];
