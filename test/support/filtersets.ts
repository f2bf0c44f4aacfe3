import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Dialect } from '../../runtime/db/connect.js';
import type { Settings } from '../../runtime/config.js';
import type { ApiClient } from './client.js';
import { syncObjectTypes } from '../../runtime/rest/object-types.js';
import { startTestApp, type TestApp } from './app.js';

/**
 * Helpers for the filter set tests ported from NetBox (`<app>/tests/test_filtersets.py`): each
 * `filterset(params).qs.count()` there is a list request and its `count` here.
 */

type Scalar = string | number | boolean | null;
export type Params = Record<string, Scalar | readonly Scalar[]>;
export type Row = Record<string, any>;

/** The query string of NetBox-style parameters: a list repeats the parameter, `null` is NetBox's null value. */
export function query(params: Params): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const item of [value].flat()) search.append(name, item === null ? 'null' : String(item));
  }
  return search.toString();
}

/** The `count` of a list filtered by the parameters (any other answer than 200 fails, naming the request). */
export async function countOf(api: ApiClient, list: string, params: Params): Promise<number> {
  const response = await api.get(`${list}?${query(params)}`);
  expect(response.status, `${list}?${query(params)}: ${response.text}`).toBe(200);
  return response.body.count as number;
}

/** Creates objects in one bulk request and returns them in order. */
export async function createAll(api: ApiClient, list: string, bodies: readonly Row[]): Promise<Row[]> {
  if (bodies.length === 0) return [];
  const response = await api.post(list, bodies);
  expect(response.status, `POST ${list}: ${response.text}`).toBe(201);
  return response.body as Row[];
}

/** Creates objects one at a time, in order (trees, and objects whose rules look at the ones before). */
export async function createEach(api: ApiClient, list: string, bodies: readonly Row[]): Promise<Row[]> {
  const created: Row[] = [];
  for (const body of bodies) {
    const response = await api.post(list, body);
    expect(response.status, `POST ${list}: ${response.text}`).toBe(201);
    created.push(response.body as Row);
  }
  return created;
}

/**
 * Sets a column of some objects directly, for what the API computes or refuses (NetBox's tests do
 * `queryset.update(created=…)` or save models without validation).
 */
export async function setValue(app: TestApp, label: string, ids: readonly number[], field: string, value: unknown) {
  const model = app.context.schema.model(label);
  await app.db
    .knex(model.table)
    .whereIn('id', ids)
    .update({ [model.fields.get(field)?.column ?? field]: value });
}

/** Sets a timestamp column (stored form `YYYY-MM-DDTHH:MM:SS.ffffffZ`). */
export const setTimestamp = (app: TestApp, label: string, ids: readonly number[], field: string, iso: string) =>
  setValue(app, label, ids, field, iso);

/**
 * A service on a fresh database for one test file (started before its tests, closed after). Unknown filters are
 * refused (STRICT_FILTERING), so that a filter this service lacks fails its test instead of counting every object.
 */
export function useApp(dialect: Dialect, settings: Partial<Settings> = {}): { readonly app: TestApp } {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await startTestApp(dialect, { settings: { CACHE_SECONDS: 0, STRICT_FILTERING: true, ...settings } });
  });
  afterAll(async () => app?.close());
  return {
    get app() {
      return app!;
    },
  };
}

/**
 * Deletes every object but the superuser `admin` and its token, children before parents, so that the next
 * test case class starts from an empty database as NetBox's do.
 */
export async function resetDatabase(app: TestApp): Promise<void> {
  const { schema } = app.context;
  const knex = app.db.knex;
  const models = [...schema.models.values()];
  const byTable = new Map(models.map((m) => [m.table, m]));
  const done = new Set<string>();
  const order: string[] = [];
  const visit = (table: string, seen: Set<string>): void => {
    if (done.has(table) || seen.has(table)) return;
    seen.add(table);
    // Tables whose rows point at this one go first.
    for (const other of models) {
      if (other.table === table) continue;
      // Nullable FKs are cleared before deleting when they point at a table deleted earlier (see below).
      const points = other.spec.fields.some(
        (f) => f.kind === 'fk' && !f.nullable && schema.model(f.target).table === table,
      );
      if (points) visit(other.table, seen);
    }
    done.add(table);
    order.push(table);
  };
  for (const model of models) visit(model.table, new Set());
  const admin = (await knex(schema.withRole('user')!.table).where('username', 'admin').first('id')) as Row;
  for (const model of models) {
    for (const field of model.spec.fields)
      if (field.kind === 'm2m' && !field.reverseOf) await knex(field.through).del();
  }
  // Tables are ordered by their required FKs only, since those in a cycle between tables (a module's bay, a
  // bay's module) cannot be ordered: nullable FKs to a table deleted earlier are cleared first.
  const position = new Map(order.map((table, i) => [table, i]));
  for (const model of models) {
    for (const field of model.spec.fields) {
      if (field.kind !== 'fk' || !field.nullable || !field.column) continue;
      const target = schema.model(field.target).table;
      if (target !== model.table && position.get(target)! < position.get(model.table)!)
        await knex(model.table)
          .whereNotNull(field.column)
          .update({ [field.column]: null });
    }
  }
  for (const table of order) {
    const model = byTable.get(table)!;
    const query = knex(table);
    if (model.spec.roles.includes('user')) query.whereNot('id', admin.id);
    if (model.spec.roles.includes('token')) query.whereNot('user_id', admin.id);
    await query.del();
  }
  // The object types are the registry's, not a test's data: written again as a start writes them.
  await syncObjectTypes(app.db, schema, app.context.settings.BASE_PATH);
}

export interface Suite<T> {
  readonly app: TestApp;
  /** What the set-up returned. */
  readonly data: T;
  /** The model's list path, e.g. `/api/dcim/sites/`. */
  readonly list: string;
  readonly label: string;
  /** The count of the model's list filtered by the parameters. */
  count(params: Params): Promise<number>;
}

/**
 * One NetBox test case class on the file's service: the database emptied (NetBox isolates each class), the
 * class's data created once through the API, then one list request per assertion.
 */
export function filterSetSuite<T>(
  shared: { readonly app: TestApp },
  label: string,
  setUp: (api: ApiClient, app: TestApp) => Promise<T>,
): Suite<T> {
  let data: T | undefined;
  const list = (): string => `/api${shared.app.context.schema.model(label).listPath!}`;
  beforeAll(async () => {
    await resetDatabase(shared.app);
    data = await setUp(shared.app.api, shared.app);
  });
  return {
    get app() {
      return shared.app;
    },
    get data() {
      return data!;
    },
    get list() {
      return list();
    },
    label,
    count: (params) => countOf(shared.app.api, list(), params),
  };
}

/**
 * NetBox's BaseFilterSetTests.test_id and ChangeLoggedFilterSetTests.test_created/test_last_updated for a
 * list (test_missing_filters is test/generator/netbox-filters.test.ts).
 */
export function changeLoggedTests(
  suite: Suite<unknown>,
  { changeLogged = true }: { changeLogged?: boolean } = {},
): void {
  it('test_id', async () => {
    const { app, list } = suite;
    const all = await app.api.get(`${list}?ordering=id&limit=0`);
    expect(all.body.count).toBeGreaterThan(2);
    const ids = (all.body.results as Row[]).slice(0, 2).map((o) => o.id as number);
    expect(await countOf(app.api, list, { id: ids })).toBe(2);
  });
  if (!changeLogged) return;
  for (const [field, day] of [
    ['created', '2021-01-01'],
    ['last_updated', '2021-01-02'],
  ] as const) {
    it(`test_${field}`, async () => {
      const { app, list, label } = suite;
      const all = await app.api.get(`${list}?ordering=id&limit=0`);
      const ids = (all.body.results as Row[]).slice(0, 2).map((o) => o.id as number);
      await setTimestamp(app, label, ids, field, `${day}T00:00:00.000000Z`);
      expect(await countOf(app.api, list, { [field]: [`${day}T00:00:00`] })).toBe(2);
    });
  }
}

/** A NetBox test this port leaves out, listed (skipped) with the reason. */
export function leftOut(name: string, reason: string): void {
  it.skip(`${name} — left out: ${reason}`, () => {});
}

/** The object of a list with this slug (or other attributes), created with them when there is none. */
export async function getOrCreate(api: ApiClient, list: string, attributes: Row): Promise<Row> {
  const lookup = Object.fromEntries(Object.entries(attributes).filter(([key]) => key === 'slug' || key === 'model'));
  const found = await api.get(`${list}?${query(lookup as Params)}`);
  if (found.body?.count > 0) return found.body.results[0] as Row;
  return (await createAll(api, list, [attributes]))[0]!;
}

/** NetBox's utilities.testing.create_test_device: a device with a default site, type and role. */
export async function createTestDevice(api: ApiClient, name: string, attributes: Row = {}): Promise<Row> {
  const site = attributes.site ?? (await getOrCreate(api, '/api/dcim/sites/', { name: 'Site 1', slug: 'site-1' })).id;
  const manufacturer = await getOrCreate(api, '/api/dcim/manufacturers/', {
    name: 'Manufacturer 1',
    slug: 'manufacturer-1',
  });
  const type = await getOrCreate(api, '/api/dcim/device-types/', {
    model: 'Device Type 1',
    slug: 'device-type-1',
    manufacturer: manufacturer.id,
  });
  const role = await getOrCreate(api, '/api/dcim/device-roles/', { name: 'Device Role 1', slug: 'device-role-1' });
  return (
    await createAll(api, '/api/dcim/devices/', [{ name, site, device_type: type.id, role: role.id, ...attributes }])
  )[0]!;
}

/** Updates objects in one bulk PATCH (each body names its `id`). */
export async function patchAll(api: ApiClient, list: string, bodies: readonly Row[]): Promise<Row[]> {
  const response = await api.patch(list, bodies);
  expect(response.status, `PATCH ${list}: ${response.text}`).toBe(200);
  return response.body as Row[];
}

/**
 * Creates objects for one test and deletes them after it (NetBox runs each test in a transaction that it
 * rolls back, so objects a test creates are gone for the next one).
 */
export async function withObjects<T>(
  api: ApiClient,
  list: string,
  bodies: readonly Row[],
  test: (objects: Row[]) => Promise<T>,
): Promise<T> {
  const objects = await createAll(api, list, bodies);
  try {
    return await test(objects);
  } finally {
    const response = await api.delete(
      list,
      objects.map((o) => ({ id: o.id })),
    );
    expect(response.status, `DELETE ${list}: ${response.text}`).toBe(204);
  }
}
