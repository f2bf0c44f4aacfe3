import fs from 'node:fs';
import { expect } from 'vitest';
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { registry } from '../../generated/index.js';
import { connectDatabase, type Dialect } from '../../runtime/db/connect.js';
import { migrate } from '../../runtime/db/migrate.js';
import { createTestDatabase, startTestApp, type TestApp } from '../support/app.js';
import type { ApiClient } from '../support/client.js';

/**
 * What the ported NetBox API tests (utilities/testing/api.py and the apps' tests/test_api.py) need from this
 * service, in NetBox's terms: a database per test case class holding its `setUpTestData`, a fresh `testuser`
 * with a token per test, `add_permissions()` and object permissions, the model's queryset, and
 * `assertInstanceEqual` over the API's representation.
 */

type Json = Record<string, any>;

/** A migrated empty database to copy for each test case class (much faster than migrating each). */
const templates = new Map<Dialect, Promise<string>>();

async function templateOf(dialect: Dialect): Promise<string> {
  let template = templates.get(dialect);
  if (!template) {
    template = (async () => {
      const { url } = await createTestDatabase(dialect);
      const db = connectDatabase(url);
      await migrate(db, registry.migrations);
      await db.close();
      return url;
    })();
    templates.set(dialect, template);
  }
  return template;
}

/** A new database with the schema in place; `drop` removes it. */
export async function freshDatabase(dialect: Dialect): Promise<{ url: string; drop: () => Promise<void> }> {
  const template = await templateOf(dialect);
  if (dialect === 'sqlite') {
    const source = template.slice('sqlite:'.length);
    const target = source.replace(/db\.sqlite3$/, `copy-${randomBytes(4).toString('hex')}.sqlite3`);
    fs.copyFileSync(source, target);
    return { url: `sqlite:${target}`, drop: async () => fs.rmSync(target, { force: true }) };
  }
  const server = inject('pgUrl');
  const name = `svc_nb_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${new URL(template).pathname.slice(1)}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    drop: async () => {
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

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

/** One NetBox test case class on its own database. */
export class PortedClass {
  /** Objects of each model that the class did not make (the admins and their tokens). */
  private readonly baseline = new Map<string, Set<number>>();
  private exemptApp: TestApp | null = null;
  private testUser: { id: number; client: ApiClient } | null = null;
  /** Object permissions granted to the test user since its last reset. */
  private granted: number[] = [];

  private constructor(
    readonly app: TestApp,
    readonly model: string,
    private readonly database: { url: string; drop: () => Promise<void> },
  ) {}

  static async start(dialect: Dialect, model: string): Promise<PortedClass> {
    const database = await freshDatabase(dialect);
    const app = await startTestApp(dialect, { databaseUrl: database.url, settings: NETBOX_TEST_SETTINGS });
    const ported = new PortedClass(app, model, database);
    for (const label of ['users.user', 'users.token', ...new Set([model])]) await ported.remember(label);
    return ported;
  }

  async close(): Promise<void> {
    await this.exemptApp?.close();
    await this.app.close();
    await this.database.drop();
  }

  /**
   * A client of the same user on a second server of the class's database whose settings make every model
   * readable anonymously (NetBox's `@override_settings(EXEMPT_VIEW_PERMISSIONS=['*'], LOGIN_REQUIRED=False)`).
   */
  async exempt(user: TestUser): Promise<ApiClient> {
    if (!this.exemptApp) {
      const before = new Map<string, number[]>();
      for (const label of ['users.user', 'users.token'])
        before.set(
          label,
          (await this.all(label)).map((o) => o.id as number),
        );
      this.exemptApp = await startTestApp(this.app.dialect, {
        databaseUrl: this.database.url,
        settings: { ...NETBOX_TEST_SETTINGS, EXEMPT_VIEW_PERMISSIONS: ['*'], LOGIN_REQUIRED: false },
      });
      // The second server's superuser is the harness's, not the class's.
      for (const [label, ids] of before) {
        const fresh = (await this.all(label)).map((o) => o.id as number).filter((id) => !ids.includes(id));
        this.exclude(label, fresh);
      }
    }
    return this.exemptApp.api.as(user.client.auth);
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
