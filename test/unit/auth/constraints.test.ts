import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../support/models.js';
import { applyConstraints, constraintProblem } from '../../../runtime/auth/constraints.js';
import { type Constraint } from '../../../runtime/auth/principal.js';
import { connectDatabase, type Database } from '../../../runtime/db/connect.js';
import { migrate } from '../../../runtime/db/migrate.js';
import { validatePermission } from '../../../runtime/domain/users.js';
import { errorsAfter, schema, writeItem } from '../domain/write-item.js';

/**
 * Permission constraints (Django queryset filter semantics: a dict is AND, a list of dicts is OR) on an
 * in-memory SQLite database migrated with the repository's models: which objects each constraint lets
 * through, and which constraints are refused when a permission is saved.
 */

let db: Database;

beforeAll(async () => {
  db = connectDatabase('sqlite::memory:');
  await migrate(db, migrations);
  const q = db.knex;
  await q('tenancy_tenant').insert([
    { id: 1, name: 'Acme', slug: 'acme' },
    { id: 2, name: 'Beta', slug: 'beta' },
  ]);
  await q('dcim_site').insert([
    { id: 1, name: 'Lab One', slug: 'lab-one', status: 'active', tenant_id: 1, created: '2024-01-10T00:00:00.000000Z' },
    {
      id: 2,
      name: 'lab two',
      slug: 'lab-two',
      status: 'planned',
      tenant_id: null,
      created: '2024-05-10T00:00:00.000000Z',
    },
    { id: 3, name: 'Prod 100%', slug: 'prod', status: 'active', tenant_id: 2, created: '2024-07-10T00:00:00.000000Z' },
    { id: 4, name: 'Edge_1', slug: 'edge-1', status: 'retired', tenant_id: 1, created: null },
  ]);
  await q('extras_tag').insert([
    { id: 1, name: 'Gold', slug: 'gold' },
    { id: 2, name: 'Silver', slug: 'silver' },
  ]);
  await q('extras_taggeditem').insert([
    { tag_id: 1, object_type: 'dcim.site', object_id: 1 },
    { tag_id: 1, object_type: 'dcim.site', object_id: 3 },
    { tag_id: 2, object_type: 'dcim.site', object_id: 3 },
    // Another model's object with the id of site 2: never a tag of site 2.
    { tag_id: 2, object_type: 'dcim.device', object_id: 2 },
  ]);
  await q('ipam_rir').insert({ id: 1, name: 'RFC 6996', slug: 'rfc-6996' });
  await q('ipam_asn').insert({ id: 10, asn: 65000, rir_id: 1 });
  await q('dcim_site_asns').insert({ from_id: 3, to_id: 10 });
  const joined = '2024-01-01T00:00:00.000000Z';
  await q('users_user').insert([
    { id: 1, username: 'alice', password: '', date_joined: joined },
    { id: 2, username: 'bob', password: '', date_joined: joined },
  ]);
  await q('users_token').insert([
    { id: 1, user_id: 1, created: joined },
    { id: 2, user_id: 2, created: joined },
    { id: 3, user_id: 1, created: joined },
  ]);
});

afterAll(async () => {
  await db.close();
});

/** Ids of the objects of `label` that the constraints let through, for the user with id `userId`. */
async function allowed(label: string, constraints: Constraint[], userId: number | null = null): Promise<number[]> {
  const model = schema.model(label);
  const query = db.knex({ t0: model.table }).select('t0.id').orderBy('t0.id');
  applyConstraints(query, schema, 'sqlite', model, constraints, userId);
  return ((await query) as { id: number }[]).map((r) => Number(r.id));
}

describe('what constraints let through', () => {
  it.each<[string, Constraint[], number[]]>([
    ['an empty constraint: everything', [{}], [1, 2, 3, 4]],
    ['an empty list: nothing', [], []],
    ['exact', [{ status: 'active' }], [1, 3]],
    ['a dict: every key (AND)', [{ status: 'active', tenant__slug: 'acme' }], [1]],
    ['a list: any dict (OR)', [{ status: 'retired' }, { tenant: 2 }], [3, 4]],
    ['in', [{ status__in: ['planned', 'retired'] }], [2, 4]],
    ['isnull true', [{ tenant__isnull: true }], [2]],
    ['isnull false', [{ tenant__isnull: false }], [1, 3, 4]],
    ['exact null', [{ tenant: null }], [2]],
    ['a foreign key by its column name', [{ tenant_id: 1 }], [1, 4]],
    ['a field of a related object', [{ tenant__name: 'Beta' }], [3]],
    ['iexact across a relation', [{ tenant__name__iexact: 'ACME' }], [1, 4]],
    ['icontains', [{ name__icontains: 'LAB' }], [1, 2]],
    ['istartswith', [{ name__istartswith: 'lab t' }], [2]],
    ['a literal % in a pattern', [{ name__iendswith: '%' }], [3]],
    ['a literal _ in a pattern', [{ name__icontains: '_' }], [4]],
    ['gt on the id', [{ id__gt: 2 }], [3, 4]],
    ['pk', [{ pk: 2 }], [2]],
    ['a number written as text', [{ id__lte: '2' }], [1, 2]],
    ['a tag', [{ tags__slug: 'gold' }], [1, 3]],
    ['a tag of this model only', [{ tags__slug: 'silver' }], [3]],
    ['no tags', [{ tags__isnull: true }], [2, 4]],
    ['some tags', [{ tags__isnull: false }], [1, 3]],
    ['a many-to-many field', [{ asns__asn: 65000 }], [3]],
    ['a many-to-many id', [{ asns: 10 }], [3]],
    ['a change-logging timestamp', [{ created__gte: '2024-05-01' }], [2, 3]],
    ['a timestamp that is null', [{ created__isnull: true }], [4]],
  ])('%s', async (_name, constraints, ids) => {
    expect(await allowed('dcim.site', constraints)).toEqual(ids);
  });

  it('put the requesting user’s id for "$user", also inside lists', async () => {
    expect(await allowed('users.token', [{ user: '$user' }], 1)).toEqual([1, 3]);
    expect(await allowed('users.token', [{ user: '$user' }], 2)).toEqual([2]);
    expect(await allowed('users.token', [{ user__in: ['$user', 2] }], 1)).toEqual([1, 2, 3]);
    expect(await allowed('users.token', [{ user__username: 'bob' }], 1)).toEqual([2]);
    // An anonymous request has no id: "$user" matches nothing.
    expect(await allowed('users.token', [{ user: '$user' }], null)).toEqual([]);
  });

  // Django on PostgreSQL (NetBox's only database) compares contains/startswith/endswith case-sensitively, and
  // so does this service on both databases.
  it('contains compares case-sensitively, as on PostgreSQL', async () => {
    expect(await allowed('dcim.site', [{ name__contains: 'lab' }])).toEqual([2]);
  });

  it('compare exact values case-sensitively', async () => {
    expect(await allowed('dcim.site', [{ name: 'lab one' }])).toEqual([]);
    expect(await allowed('dcim.site', [{ name: 'Lab One' }])).toEqual([1]);
  });
});

describe('constraints that cannot filter a model', () => {
  it.each<[string, Constraint, string]>([
    ['an unknown field', { nope: 1 }, "dcim.site has no field 'nope'"],
    ['an unknown field across a relation', { tenant__nope: 1 }, "tenancy.tenant has no field 'nope'"],
    ['a lookup through a field that is no relation', { name__slug: 'x' }, "'name' on dcim.site is not a relation"],
    ['a Django lookup this service lacks (regex)', { name__regex: '^L' }, "'name' on dcim.site is not a relation"],
    ['isnull with text', { tenant__isnull: 'yes' }, "'tenant__isnull' expects true or false"],
    ['text for an id', { id: 'abc' }, `'id' expects a whole number but got "abc"`],
    ['a fraction for a foreign key', { tenant: 1.5 }, "'tenant' expects a whole number but got 1.5"],
    ['text for a decimal', { latitude__gt: 'north' }, `'latitude__gt' expects a number but got "north"`],
    [
      'a bad date',
      { created__gte: 'yesterday' },
      `'created__gte' expects a date or a date and time but got "yesterday"`,
    ],
    ['an object for text', { name: { a: 1 } }, `'name' expects a string or a number but got {"a":1}`],
    ['a list for exact', { status: ['active'] }, `'status' expects a string or a number but got ["active"]`],
  ])('%s', (_name, constraint, problem) => {
    const found = constraintProblem(db.knex, schema, 'sqlite', schema.model('dcim.site'), [constraint]);
    expect(found).toBe(problem);
  });

  it('refuse comparing a JSON field except by isnull', () => {
    const device = schema.model('dcim.device');
    expect(constraintProblem(db.knex, schema, 'sqlite', device, [{ local_context_data: { a: 1 } }])).toBe(
      "'local_context_data': this field accepts nothing but an isnull lookup",
    );
    expect(constraintProblem(db.knex, schema, 'sqlite', device, [{ local_context_data__isnull: true }])).toBeNull();
  });
});

describe('validatePermission (saving an object permission)', () => {
  const permission = (values: Record<string, unknown>) =>
    writeItem(
      'users.objectpermission',
      { actions: ['view'], object_types: ['dcim.site'], constraints: null, ...values },
      { q: db.knex },
    );

  it.each([
    ['no constraints', {}, {}],
    ['a constraint object', { constraints: { status: 'active' } }, {}],
    ['a list of constraint objects', { constraints: [{ status: 'active' }, { tenant__isnull: true }] }, {}],
    ['a custom action', { actions: ['view', 'napalm_read'] }, {}],
    ['no actions', { actions: [] }, { actions: ['This list may not be empty.'] }],
    ['an action with capitals', { actions: ['View'] }, { actions: ['Invalid action: "View"'] }],
    ['an action that is no string', { actions: [3] }, { actions: ['Invalid action: 3'] }],
    ['no object types', { object_types: [] }, { object_types: ['This list may not be empty.'] }],
    [
      'an empty list of constraints',
      { constraints: [] },
      { constraints: ['Constraints must be a JSON object or a list of JSON objects.'] },
    ],
    [
      'a list holding a number',
      { constraints: [{ status: 'active' }, 5] },
      { constraints: ['Constraints must be a JSON object or a list of JSON objects.'] },
    ],
    [
      'a string',
      { constraints: 'status=active' },
      { constraints: ['Constraints must be a JSON object or a list of JSON objects.'] },
    ],
    [
      'an unknown field',
      { constraints: { nope: 1 } },
      { constraints: ["Invalid filter for dcim.site: dcim.site has no field 'nope'"] },
    ],
  ])('%s', (_name, values, errors) => {
    const item = permission(values);
    validatePermission(item);
    expect(errorsAfter(item)).toEqual(errors);
  });

  it('checks the constraints against every object type', () => {
    const item = permission({ object_types: ['dcim.site', 'tenancy.tenant'], constraints: { status: 'active' } });
    validatePermission(item);
    expect(errorsAfter(item)).toEqual({
      constraints: ["Invalid filter for tenancy.tenant: tenancy.tenant has no field 'status'"],
    });
  });
});
