import { expect } from 'vitest';
import { randomBytes } from 'node:crypto';
import type { Dialect } from '../../runtime/db/connect.js';
import { MIGRATIONS_TABLE } from '../../runtime/db/migrate.js';
import { startTestApp, type TestApp } from '../support/app.js';
import type { ApiClient } from '../support/client.js';

/**
 * What the ported NetBox API tests (utilities/testing/api.py and the apps' tests/test_api.py) need from this
 * service, in NetBox's terms: a database per test case class holding its `setUpTestData` (one per file, reset
 * between classes), a fresh `testuser`
 * with a token per test, `add_permissions()` and object permissions, the model's queryset, and
 * `assertInstanceEqual` over the API's representation.
 */

type Json = Record<string, any>;

/** NetBox's netbox/configuration_testing.py: no permissions by default (users do not own their tokens). */
const NETBOX_TEST_SETTINGS = { DEFAULT_PERMISSIONS: {} };

/** A request's `testuser`: its client and NetBox's permission helpers. */
export interface TestUser {
  id: number;
  client: ApiClient;
  /** `add_permissions('dcim.view_site', …)`: one object permission per model and action. */
  addPermissions(...names: string[]): Promise<void>;
  /** An object permission of the model with these actions (and constraints), as the generic tests make. */
  grant(actions: string[], constraints?: unknown): Promise<void>;
}

/**
 * The database of a test file on one dialect, shared by its test case classes in turn: one copy of the run's
 * migrated template and two servers (the second with NetBox's exempt-view settings), set up once. Before each
 * class (and each of a class's own tests) it is put back as it was after setup, as NetBox's rollback would:
 * every row added since is deleted, and the servers forget what they cached. A class costs its own data, not
 * a database and two servers.
 */
export class SharedDatabase {
  private static readonly open = new Map<Dialect, Promise<SharedDatabase>>();
  /** The largest id of each table after setup (0 when empty): rows above it are a class's. */
  private baseline = new Map<string, number>();
  /** Databases made and resets done by this process (the suite's cost, for the report). */
  static readonly stats = { databases: 0, resets: 0 };

  private constructor(
    readonly app: TestApp,
    readonly exemptApp: TestApp,
  ) {}

  /** This process's shared database of the dialect. */
  static of(dialect: Dialect): Promise<SharedDatabase> {
    let shared = SharedDatabase.open.get(dialect);
    if (!shared) {
      shared = (async () => {
        const app = await startTestApp(dialect, { settings: NETBOX_TEST_SETTINGS });
        // NetBox's `@override_settings(EXEMPT_VIEW_PERMISSIONS=['*'], LOGIN_REQUIRED=False)`: a second server on
        // the same database (its superuser is the harness's, not a class's).
        const exemptApp = await startTestApp(dialect, {
          databaseUrl: app.databaseUrl,
          settings: { ...NETBOX_TEST_SETTINGS, EXEMPT_VIEW_PERMISSIONS: ['*'], LOGIN_REQUIRED: false },
        });
        const database = new SharedDatabase(app, exemptApp);
        database.baseline = await database.maxIds();
        SharedDatabase.stats.databases += 1;
        return database;
      })();
      SharedDatabase.open.set(dialect, shared);
    }
    return shared;
  }

  /** Closes the dialect's shared database (after the file's tests on it). */
  static async close(dialect: Dialect): Promise<void> {
    const shared = SharedDatabase.open.get(dialect);
    SharedDatabase.open.delete(dialect);
    const database = await shared?.catch(() => null);
    if (!database) return;
    await database.exemptApp.close({ keepDatabase: true });
    await database.app.close();
  }

  /** Every table of the service's schema (pg-boss keeps its own schema, cleared apart). */
  private async tables(): Promise<string[]> {
    const { knex } = this.app.db;
    const rows = (
      this.app.dialect === 'sqlite'
        ? await knex.raw("select name from sqlite_master where type = 'table' and name not like 'sqlite_%'")
        : (await knex.raw('select tablename as name from pg_tables where schemaname = current_schema()')).rows
    ) as { name: string }[];
    return rows.map((r) => r.name).filter((name) => name !== MIGRATIONS_TABLE);
  }

  /** The largest id of every table, in one query. */
  private async maxIds(): Promise<Map<string, number>> {
    const tables = await this.tables();
    const { knex } = this.app.db;
    const union = tables.map((table, i) => `select ${i} as t, max(id) as m from ${quoted(table)}`).join(' union all ');
    const result = await knex.raw(union);
    const rows = (this.app.dialect === 'sqlite' ? result : result.rows) as { t: number | string; m: unknown }[];
    return new Map(rows.map((row) => [tables[Number(row.t)]!, Number(row.m ?? 0)]));
  }

  /** Deletes every row added since setup, and the queued jobs; the servers drop their caches. */
  async reset(): Promise<void> {
    SharedDatabase.stats.resets += 1;
    const current = await this.maxIds();
    const grown = [...current].filter(([table, max]) => max > (this.baseline.get(table) ?? 0));
    const { knex } = this.app.db;
    const deletes = (trx: typeof knex): Promise<unknown>[] =>
      grown.map(([table]) =>
        trx(table)
          .where('id', '>', this.baseline.get(table) ?? 0)
          .delete(),
      );
    if (this.app.dialect === 'sqlite') {
      // Rows go in any order: foreign keys are not checked meanwhile (the pragma is a no-op inside a transaction).
      await knex.raw('PRAGMA foreign_keys = OFF');
      try {
        await knex.transaction(async (trx) => {
          for (const d of deletes(trx)) await d;
        });
      } finally {
        await knex.raw('PRAGMA foreign_keys = ON');
      }
    } else {
      await knex.transaction(async (trx) => {
        await trx.raw('SET LOCAL session_replication_role = replica');
        for (const d of deletes(trx)) await d;
        // pg-boss's jobs (its schema exists once a delivery was queued).
        if ((await trx.raw("select to_regclass('pgboss.job') as job")).rows[0].job)
          await trx.raw('DELETE FROM pgboss.job');
      });
    }
    for (const app of [this.app, this.exemptApp]) {
      app.context.authenticator.invalidate();
      app.context.grants.invalidate();
      app.context.customFields.invalidate();
    }
  }
}

const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** One NetBox test case class (or one of its own tests) on the file's shared database. */
export class PortedClass {
  /** Objects of each model that the class did not make (the admins and their tokens). */
  private readonly baseline = new Map<string, Set<number>>();
  private testUser: { id: number; client: ApiClient } | null = null;
  /** Object permissions granted to the test user since its last reset. */
  private granted: number[] = [];

  private constructor(
    private readonly shared: SharedDatabase,
    readonly model: string,
  ) {}

  get app(): TestApp {
    return this.shared.app;
  }

  /** The class's database: the file's shared one, emptied of what earlier classes made. */
  static async start(dialect: Dialect, model: string): Promise<PortedClass> {
    const shared = await SharedDatabase.of(dialect);
    await shared.reset();
    const ported = new PortedClass(shared, model);
    for (const label of ['users.user', 'users.token', ...new Set([model])]) await ported.remember(label);
    return ported;
  }

  /** Nothing to close: the next class's reset removes this one's data. */
  async close(): Promise<void> {}

  /**
   * A client of the same user on a second server of the class's database whose settings make every model
   * readable anonymously (NetBox's `@override_settings(EXEMPT_VIEW_PERMISSIONS=['*'], LOGIN_REQUIRED=False)`).
   */
  async exempt(user: TestUser): Promise<ApiClient> {
    return this.shared.exemptApp.api.as(user.client.auth);
  }

  get admin(): ApiClient {
    return this.app.api;
  }

  path(label = this.model): string {
    return `/api${this.app.context.schema.model(label).listPath!}`;
  }

  /** Objects made outside the class's data (so that its queryset leaves them out): all there are now. */
  private async remember(label: string): Promise<void> {
    this.exclude(
      label,
      (await this.all(label)).map((object) => object.id as number),
    );
  }

  /** Leaves these objects out of the class's queryset. */
  private exclude(label: string, ids: readonly number[]): void {
    const set = this.baseline.get(label) ?? new Set<number>();
    ids.forEach((id) => set.add(id));
    this.baseline.set(label, set);
  }

  /** Every object of a model (ids only), in its default order, as the superuser sees it. */
  async all(label = this.model): Promise<Json[]> {
    const response = await this.admin.get(`${this.path(label)}?limit=0&fields=id`);
    expect(response.status, response.text).toBe(200);
    return response.body.results as Json[];
  }

  /** NetBox's `_get_queryset()`: the model's objects in its default order, without the harness's own. */
  async queryset(): Promise<Json[]> {
    const own = this.baseline.get(this.model) ?? new Set<number>();
    return (await this.all()).filter((object) => !own.has(object.id as number));
  }

  async count(): Promise<number> {
    return (await this.queryset()).length;
  }

  /** The superuser's full representation of one object (null when it does not exist). */
  async get(id: number, label = this.model): Promise<Json | null> {
    const response = await this.admin.get(`${this.path(label)}${id}/`);
    return response.status === 200 ? (response.body as Json) : null;
  }

  /** Creates an object as the superuser (setUpTestData). */
  async make(label: string, body: Json): Promise<Json> {
    const response = await this.admin.post(this.path(label), body);
    expect(response.status, `creating ${label}: ${response.text}`).toBe(201);
    return response.body as Json;
  }

  /** Creates several objects in one request as the superuser (`bulk_create`). */
  async makeAll(label: string, bodies: Json[]): Promise<Json[]> {
    const response = await this.admin.post(this.path(label), bodies);
    expect(response.status, `creating ${label}: ${response.text}`).toBe(201);
    return response.body as Json[];
  }

  /**
   * The `testuser` of a test, with a v2 token and the class's `user_permissions` only. NetBox makes a user per
   * test; here one user per class has its object permissions removed at the start of each test instead
   * (hashing a password per test would cost more than the tests).
   */
  async user(permissions: readonly string[] = []): Promise<TestUser> {
    if (!this.testUser) {
      const created = await this.make('users.user', { username: 'testuser', password: 'Test-Password-1' });
      const token = await this.make('users.token', { user: created.id });
      this.exclude('users.user', [created.id as number]);
      this.exclude('users.token', [token.id as number]);
      this.testUser = { id: created.id as number, client: this.admin.as(`Bearer svc_${token.key}.${token.token}`) };
    }
    if (this.granted.length > 0) {
      const revoked = await this.admin.delete(
        this.path('users.objectpermission'),
        this.granted.map((id) => ({ id })),
      );
      expect(revoked.status, revoked.text).toBe(204);
      this.granted = [];
    }
    const { id, client } = this.testUser;
    const grant = async (objectTypes: string[], actions: string[], constraints?: unknown): Promise<void> => {
      const permission = await this.make('users.objectpermission', {
        name: `Test permission ${randomBytes(4).toString('hex')}`,
        object_types: objectTypes,
        actions,
        users: [id],
        ...(constraints === undefined ? {} : { constraints }),
      });
      this.granted.push(permission.id as number);
    };
    const user: TestUser = {
      id,
      client,
      addPermissions: async (...names) => {
        for (const name of names) {
          const [app, codename] = name.split('.') as [string, string];
          const [action, ...rest] = codename.split('_');
          await grant([`${app}.${rest.join('_')}`], [action!]);
        }
      },
      grant: (actions, constraints) => grant([this.model], actions, constraints),
    };
    await user.addPermissions(...permissions);
    return user;
  }

  /** The change records of an object (latest first), optionally of one action. */
  async changes(id: number, action?: string): Promise<Json[]> {
    const query = new URLSearchParams({ changed_object_type: this.model, changed_object_id: String(id), limit: '0' });
    if (action) query.set('action', action);
    const response = await this.admin.get(`/api/core/object-changes/?${query.toString()}`);
    expect(response.status, response.text).toBe(200);
    return (response.body.results as Json[]).sort((a, b) => (b.id as number) - (a.id as number));
  }
}

/**
 * NetBox's `assertInstanceEqual(instance, data, api=True)` over the API's representation: every key of the
 * data (that the object has, and that is not excluded) matches, FKs by id, choices by value, many-to-many
 * lists by their ids in any order.
 */
export function expectInstanceEqual(object: Json, data: Json, exclude: readonly string[] = []): void {
  for (const [key, wanted] of Object.entries(data)) {
    if (exclude.includes(key) || WRITE_ONLY.has(key) || !(key in object)) continue;
    // A blank choice is stored as written and rendered as null (NetBox's ChoiceField).
    if (wanted === '' && object[key] === null) continue;
    expect(shaped(object[key], wanted), key).toEqual(plain(wanted));
  }
}

/** Keys of write bodies that no representation has. */
export const WRITE_ONLY = new Set(['changelog_message', 'add_tags', 'remove_tags']);

/** Numbers written as text compare as numbers; lists of ids in any order. */
function plain(value: unknown): unknown {
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (Array.isArray(value)) {
    const items = value.map(plain);
    return items.every((i) => typeof i === 'number') ? [...items].sort((a, b) => (a as number) - (b as number)) : items;
  }
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, plain(v)]));
  return value ?? null;
}

/** A rendered value in the shape of the written one: ids for objects, values for choices. */
function shaped(value: unknown, like: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value))
    return plain(value.map((item, i) => shaped(item, Array.isArray(like) ? (like[i] ?? like[0]) : undefined)));
  if (typeof value === 'object') {
    const object = value as Json;
    if ('value' in object && 'label' in object && Object.keys(object).length === 2) return plain(object.value);
    if (like && typeof like === 'object' && !Array.isArray(like)) {
      // Identified by attributes (or a JSON value): compare those keys.
      return Object.fromEntries(Object.keys(like as Json).map((k) => [k, shaped(object[k], (like as Json)[k])]));
    }
    if ('id' in object && typeof like !== 'object') return object.id;
    return plain(object);
  }
  return plain(value);
}
