import { expect } from 'vitest';
import { setSuperuser } from '../../support/app.js';
import { TINY_PNG } from '../../support/fixtures.js';
import type { NetBoxTestCase } from '../generic.js';
import type { PortedClass } from '../harness.js';
import type { ApiClient } from '../../support/client.js';
import { dataFile, insertRows } from './core-data.js';
import { renderTemplateTests } from './render-config.js';

/** Ported from NetBox 4.6.8 extras/tests/test_api.py, for the served models. */

const description = { description: 'New description' };
const GRAPHQL = 'GraphQL is not served (by design).';

/**
 * test_update_data_source_and_data_file (config contexts and profiles): a PATCH assigns a data source and one of
 * its files (a YAML file: the object takes its data from it).
 */
function updateDataSourceAndDataFile(text: string) {
  return async (t: PortedClass): Promise<void> => {
    const model = t.model.split('.')[1]!;
    const user = await t.user([
      'core.view_datafile',
      'core.view_datasource',
      `extras.view_${model}`,
      `extras.change_${model}`,
    ]);
    const [object] = await t.queryset();
    const source = await t.make('core.datasource', {
      name: 'Data Source 1',
      type: 'local',
      source_url: 'file:///tmp/netbox-datasource/',
    });
    const [file] = await insertRows(t, 'core.datafile', [dataFile(source.id as number, 'dir1/file1.yml', text)]);
    const response = await user.client.patch(`${t.path()}${object!.id}/`, { data_source: source.id, data_file: file });
    expect(response.status, response.text).toBe(200);
    const stored = await t.get(object!.id as number);
    expect(stored!.data_source.id).toBe(source.id);
    expect(stored!.data_file.id).toBe(file);
    expect(response.body.data_source.id).toBe(source.id);
    expect(response.body.data_file.id).toBe(file);
  };
}

export const extrasCases: NetBoxTestCase[] = [
  {
    source: 'extras/tests/test_api.py::WebhookTestCase',
    model: 'extras.webhook',
    briefFields: ['description', 'display', 'id', 'name', 'url'],
    bulkUpdateData: { description: 'New description', ssl_verification: false },
    setUp: async (t) => {
      await t.makeAll(
        'extras.webhook',
        [1, 2, 3].map((i) => ({ name: `Webhook ${i}`, payload_url: 'http://example.com/?1' })),
      );
      return { createData: [4, 5, 6].map((i) => ({ name: `Webhook ${i}`, payload_url: `http://example.com/?${i}` })) };
    },
  },
  {
    source: 'extras/tests/test_api.py::EventRuleTestCase',
    model: 'extras.eventrule',
    briefFields: ['description', 'display', 'id', 'name', 'url'],
    bulkUpdateData: { enabled: false, description: 'New description' },
    // NetBox makes its rules without object types through the ORM; the API needs one, so they watch sites.
    setUp: async (t) => {
      const webhooks = await t.makeAll(
        'extras.webhook',
        [1, 2, 3, 4, 5, 6].map((i) => ({ name: `Webhook ${i}`, payload_url: 'http://example.com/?1' })),
      );
      const rule = (name: string, webhook: number, objectTypes: string[]) => ({
        name,
        object_types: objectTypes,
        event_types: ['object_created'],
        action_type: 'webhook',
        action_object_type: 'extras.webhook',
        action_object_id: webhook,
      });
      await t.makeAll(
        'extras.eventrule',
        [0, 1, 2].map((i) => rule(`EventRule ${i + 1}`, webhooks[i]!.id, ['dcim.site'])),
      );
      return {
        createData: [3, 4, 5].map((i) =>
          rule(`EventRule ${i + 1}`, webhooks[i]!.id, ['dcim.device', 'dcim.devicetype']),
        ),
        updateData: { name: 'Event Rule X', enabled: false, description: 'New description' },
      };
    },
  },
  {
    source: 'extras/tests/test_api.py::CustomFieldTestCase',
    model: 'extras.customfield',
    briefFields: ['description', 'display', 'id', 'name', 'url'],
    bulkUpdateData: description,
    setUp: async (t) => {
      await t.makeAll(
        'extras.customfield',
        [
          ['cf1', 'text'],
          ['cf2', 'integer'],
          ['cf3', 'boolean'],
        ].map(([name, type]) => ({ name, type, object_types: ['dcim.site'] })),
      );
      return {
        createData: [
          { object_types: ['dcim.site'], name: 'cf4', type: 'date' },
          { object_types: ['dcim.site'], name: 'cf5', type: 'url' },
          { object_types: ['dcim.site'], name: 'cf6', type: 'text' },
        ],
        updateData: { object_types: ['dcim.device'], name: 'New_Name', description: 'New description' },
      };
    },
  },
  {
    source: 'extras/tests/test_api.py::CustomFieldChoiceSetTestCase',
    model: 'extras.customfieldchoiceset',
    briefFields: ['choices_count', 'description', 'display', 'id', 'name', 'url'],
    bulkUpdateData: description,
    setUp: async (t) => {
      await t.makeAll(
        'extras.customfieldchoiceset',
        [1, 2, 3].map((i) => ({
          name: `Choice Set ${i}`,
          extra_choices: ['A', 'B', 'C', 'D', 'E'].map((c) => [`${i}${c}`, `${i}${c}`]),
        })),
      );
      const choices = (i: string) => [
        [`${i}A`, 'Choice 1'],
        [`${i}B`, 'Choice 2'],
        [`${i}C`, 'Choice 3'],
      ];
      return {
        createData: [
          { name: 'Choice Set 4', extra_choices: choices('4'), choice_colors: { '4A': 'red', '4B': 'green' } },
          { name: 'Choice Set 5', extra_choices: choices('5'), choice_colors: { '5C': 'blue' } },
          { name: 'Choice Set 6', extra_choices: choices('6') },
        ],
        updateData: {
          name: 'Choice Set X',
          extra_choices: [
            ['X1', 'Choice 1'],
            ['X2', 'Choice 2'],
            ['X3', 'Choice 3'],
          ],
          choice_colors: { X1: 'red', X3: 'green' },
          description: 'New description',
        },
      };
    },
    tests: {
      test_invalid_choice_items: async (t) => {
        const user = await t.user();
        await user.addPermissions('extras.add_customfieldchoiceset');
        const body = { name: 'test', extra_choices: [['choice1'], ['choice2'], ['choice3']] };
        expect((await user.client.post(t.path(), body)).status).toBe(400);
      },
      test_null_base_choices: async (t) => {
        const user = await t.user();
        await user.addPermissions('extras.add_customfieldchoiceset', 'extras.change_customfieldchoiceset');
        const created = await user.client.post(t.path(), {
          name: 'test',
          base_choices: null,
          extra_choices: [['choice1', 'Choice 1']],
        });
        expect(created.status, created.text).toBe(201);
        expect(created.body.base_choices).toBeNull();
        expect((await t.get(created.body.id))!.base_choices).toBeNull();
        expect((await t.admin.patch(`${t.path()}${created.body.id}/`, { base_choices: 'IATA' })).status).toBe(200);
        const reverted = await user.client.patch(`${t.path()}${created.body.id}/`, { base_choices: null });
        expect(reverted.status).toBe(200);
        expect((await t.get(created.body.id))!.base_choices).toBeNull();
      },
      test_invalid_choice_color: async (t) => {
        const user = await t.user();
        await user.addPermissions('extras.add_customfieldchoiceset');
        const body = {
          name: 'test',
          extra_choices: [
            ['choice1', 'Choice 1'],
            ['choice2', 'Choice 2'],
          ],
          choice_colors: { choice1: 'magenta' },
        };
        expect((await user.client.post(t.path(), body)).status).toBe(400);
      },
      test_invalid_choice_color_reference: async (t) => {
        const user = await t.user();
        await user.addPermissions('extras.add_customfieldchoiceset');
        const body = {
          name: 'test',
          extra_choices: [
            ['choice1', 'Choice 1'],
            ['choice2', 'Choice 2'],
          ],
          choice_colors: { choice3: 'red' },
        };
        expect((await user.client.post(t.path(), body)).status).toBe(400);
      },
    },
    leftOut: {
      test_graphql_filter_extra_choices: GRAPHQL,
      test_graphql_filter_extra_choices_rejects_array_operands: GRAPHQL,
    },
  },
  {
    source: 'extras/tests/test_api.py::TagTestCase',
    model: 'extras.tag',
    briefFields: ['color', 'description', 'display', 'id', 'name', 'slug', 'url'],
    bulkUpdateData: description,
    setUp: async (t) => {
      await t.makeAll('extras.tag', [
        { name: 'Tag 1', slug: 'tag-1' },
        { name: 'Tag 2', slug: 'tag-2' },
        { name: 'Tag 3', slug: 'tag-3', weight: 26 },
      ]);
      return {
        createData: [
          { name: 'Tag 4', slug: 'tag-4', weight: 1000 },
          { name: 'Tag 5', slug: 'tag-5' },
          { name: 'Tag 6', slug: 'tag-6' },
        ],
      };
    },
  },
  {
    source: 'extras/tests/test_api.py::TaggedItemTestCase',
    model: 'extras.taggeditem',
    briefFields: ['display', 'id', 'object', 'object_id', 'object_type', 'tag', 'url'],
    mixins: ['get', 'list'],
    // NetBox sets the sites' tags through the ORM; here each site is created with its tags.
    setUp: async (t) => {
      const tags = await t.makeAll(
        'extras.tag',
        [1, 2, 3].map((i) => ({ name: `Tag ${i}`, slug: `tag-${i}` })),
      );
      const pairs = [
        [0, 1],
        [1, 2],
        [2, 0],
      ];
      await t.makeAll(
        'dcim.site',
        pairs.map(([a, b], i) => ({
          name: `Site ${i + 1}`,
          slug: `site-${i + 1}`,
          tags: [tags[a!]!.id, tags[b!]!.id],
        })),
      );
      return { createData: [] };
    },
  },
  {
    source: 'extras/tests/test_api.py::JournalEntryTestCase',
    model: 'extras.journalentry',
    briefFields: ['created', 'display', 'id', 'url'],
    bulkUpdateData: { comments: 'Overwritten' },
    // NetBox makes the entries through the ORM with created_by set; here a superuser User_1 writes them (a username has no spaces) (the
    // API sets created_by to the writer, as NetBox's CurrentUserDefault does).
    setUp: async (t) => {
      const users = await t.makeAll('users.user', [
        { username: 'User_1', password: 'Password-User-1' },
        { username: 'User_2', password: 'Password-User-2' },
      ]);
      await setSuperuser(t.app, users[0]!.id, true);
      const token = await t.make('users.token', { user: users[0]!.id });
      const author = t.admin.as(`Bearer svc_${token.key}.${token.token}`);
      const site = await t.make('dcim.site', { name: 'Site 1', slug: 'site-1' });
      const entry = (comments: string) => ({
        assigned_object_type: 'dcim.site',
        assigned_object_id: site.id,
        comments,
      });
      const made = await author.post(t.path(), ['Fourth entry', 'Fifth entry', 'Sixth entry'].map(entry));
      expect(made.status, made.text).toBe(201);
      return { createData: ['First entry', 'Second entry', 'Third entry'].map(entry), users };
    },
    tests: {
      test_immutable_created_by: async (t, data) => {
        const [first] = await t.queryset();
        const before = (await t.get(first!.id))!.created_by as number;
        const other = (data.users as { id: number }[]).find((u) => u.id !== before)!;
        const user = await t.user();
        await user.addPermissions('extras.change_journalentry');
        const response = await user.client.patch(`${t.path()}${first!.id}/`, { created_by: other.id });
        expect(response.status, response.text).toBe(200);
        expect((await t.get(first!.id))!.created_by).toBe(before);
      },
    },
  },
  {
    source: 'extras/tests/test_api.py::BookmarkTestCase',
    model: 'extras.bookmark',
    briefFields: ['display', 'id', 'object_id', 'object_type', 'url'],
    mixins: ['get', 'list', 'create', 'delete'],
    // NetBox bookmarks three sites for the test user before each test; here once for the class.
    setUp: async (t) => {
      const sites = await t.makeAll(
        'dcim.site',
        [1, 2, 3, 4, 5, 6].map((i) => ({ name: `Site ${i}`, slug: `site-${i}` })),
      );
      const user = await t.user();
      const bookmark = (i: number) => ({ object_type: 'dcim.site', object_id: sites[i]!.id, user: user.id });
      await t.makeAll('extras.bookmark', [0, 1, 2].map(bookmark));
      return { createData: [3, 4, 5].map(bookmark) };
    },
  },
  {
    source: 'extras/tests/test_api.py::ImageAttachmentTestCase',
    model: 'extras.imageattachment',
    briefFields: ['description', 'display', 'id', 'image', 'name', 'url'],
    mixins: ['get', 'list', 'delete'],
    // NetBox stores image URLs through the ORM; here the images are uploaded (multipart), as clients must.
    setUp: async (t) => {
      const site = await t.make('dcim.site', { name: 'Site 1', slug: 'site-1' });
      for (const i of [1, 2, 3]) {
        await t.make('extras.imageattachment', {
          object_type: 'dcim.site',
          object_id: site.id,
          name: `Image Attachment ${i}`,
          image: new File([TINY_PNG], `image${i}.png`, { type: 'image/png' }),
        });
      }
      // The delete tests make their three most recent objects the same way.
      const image = (i: number) => ({
        object_type: 'dcim.site',
        object_id: site.id,
        name: `Image Attachment ${i}`,
        image: new File([TINY_PNG], `image${i}.png`, { type: 'image/png' }),
      });
      return { createData: [image(4), image(5), image(6)] };
    },
  },
  {
    source: 'extras/tests/test_api.py::ConfigContextTestCase',
    model: 'extras.configcontext',
    briefFields: ['description', 'display', 'id', 'name', 'url'],
    bulkUpdateData: description,
    setUp: async (t) => {
      await t.makeAll('extras.configcontext', [
        { name: 'Config Context 1', weight: 100, data: { foo: 123 } },
        { name: 'Config Context 2', weight: 200, data: { bar: 456 } },
        { name: 'Config Context 3', weight: 300, data: { baz: 789 } },
      ]);
      return {
        createData: [
          { name: 'Config Context 4', data: { more_foo: true } },
          { name: 'Config Context 5', data: { more_bar: false } },
          { name: 'Config Context 6', data: { more_baz: null } },
        ],
      };
    },
    tests: {
      // NetBox reads device.get_config_context(); the API renders the same value as the device's config_context.
      test_render_configcontext_for_object: async (t) => {
        const manufacturer = await t.make('dcim.manufacturer', { name: 'Manufacturer 1', slug: 'manufacturer-1' });
        const type = await t.make('dcim.devicetype', {
          manufacturer: manufacturer.id,
          model: 'Device Type 1',
          slug: 'device-type-1',
        });
        const role = await t.make('dcim.devicerole', { name: 'Device Role 1', slug: 'device-role-1' });
        const site = await t.make('dcim.site', { name: 'Site-1', slug: 'site-1' });
        const device = await t.make('dcim.device', {
          name: 'Device 1',
          device_type: type.id,
          role: role.id,
          site: site.id,
        });
        const rendered = async (): Promise<Record<string, unknown>> =>
          (await t.get(device.id, 'dcim.device'))!.config_context as Record<string, unknown>;
        expect(await rendered()).toMatchObject({ foo: 123, bar: 456, baz: 789 });
        await t.make('extras.configcontext', {
          name: 'Config Context 4',
          data: { site_data: 'ABC' },
          sites: [site.id],
        });
        expect((await rendered()).site_data).toBe('ABC');
        await t.make('extras.configcontext', {
          name: 'Config Context 5',
          weight: 2000,
          data: { foo: 999 },
          sites: [site.id],
        });
        expect((await rendered()).foo).toBe(999);
        const site2 = await t.make('dcim.site', { name: 'Site 2', slug: 'site-2' });
        await t.make('extras.configcontext', {
          name: 'Config Context 6',
          weight: 2000,
          data: { bar: 999 },
          sites: [site2.id],
        });
        expect((await rendered()).bar).toBe(456);
      },
      test_update_data_source_and_data_file: updateDataSourceAndDataFile('context: config\n'),
    },
  },
  {
    source: 'extras/tests/test_api.py::ConfigContextProfileTestCase',
    model: 'extras.configcontextprofile',
    briefFields: ['description', 'display', 'id', 'name', 'url'],
    bulkUpdateData: description,
    setUp: async (t) => {
      await t.makeAll(
        'extras.configcontextprofile',
        ['foo', 'bar', 'baz'].map((key, i) => ({
          name: `Config Context Profile ${i + 1}`,
          schema: { properties: { [key]: { type: 'string' } }, required: [key] },
        })),
      );
      return { createData: [4, 5, 6].map((i) => ({ name: `Config Context Profile ${i}` })) };
    },
    tests: { test_update_data_source_and_data_file: updateDataSourceAndDataFile('profile: configcontext\n') },
  },
  {
    source: 'extras/tests/test_api.py::ConfigTemplateTestCase',
    model: 'extras.configtemplate',
    briefFields: ['description', 'display', 'id', 'name', 'url'],
    bulkUpdateData: description,
    // NetBox's `{{ foo }}` is Handlebars' too.
    setUp: async (t) => {
      await t.makeAll('extras.configtemplate', [
        { name: 'Config Template 1', template_code: 'Foo: {{ foo }}' },
        { name: 'Config Template 2', template_code: 'Bar: {{ bar }}' },
        { name: 'Config Template 3', template_code: 'Baz: {{ baz }}' },
      ]);
      return {
        createData: [
          {
            name: 'Config Template 4',
            template_code: 'Foo: {{ foo }}',
            mime_type: 'text/plain',
            file_name: 'output4',
            file_extension: 'txt',
            as_attachment: true,
          },
          { name: 'Config Template 5', template_code: 'Bar: {{ bar }}' },
          { name: 'Config Template 6', template_code: 'Baz: {{ baz }}' },
        ],
      };
    },
    tests: renderTemplateTests(),
  },
  {
    source: 'extras/tests/test_api.py::CustomLinkTestCase',
    model: 'extras.customlink',
    briefFields: ['display', 'id', 'name', 'url'],
    bulkUpdateData: { new_window: true, enabled: false },
    setUp: async (t) => {
      const link = (i: number, enabled: boolean) => ({
        object_types: ['dcim.site'],
        name: `Custom Link ${i}`,
        enabled,
        link_text: `Link ${i}`,
        link_url: `http://example.com/?${i}`,
      });
      await t.makeAll('extras.customlink', [link(1, true), link(2, true), link(3, false)]);
      return { createData: [link(4, true), link(5, true), link(6, false)] };
    },
  },
  {
    source: 'extras/tests/test_api.py::SavedFilterTestCase',
    model: 'extras.savedfilter',
    briefFields: ['description', 'display', 'id', 'name', 'slug', 'url'],
    bulkUpdateData: { weight: 1000, enabled: false, shared: false },
    setUp: async (t) => {
      const statuses = ['active', 'planned', 'retired'];
      const filter = (i: number) => ({
        object_types: ['dcim.site'],
        name: `Saved Filter ${i}`,
        slug: `saved-filter-${i}`,
        weight: ((i - 1) % 3) * 100 + 100,
        enabled: true,
        shared: true,
        parameters: { status: [statuses[(i - 1) % 3]] },
      });
      await t.makeAll('extras.savedfilter', [1, 2, 3].map(filter));
      return { createData: [4, 5, 6].map(filter) };
    },
    tests: {
      // NetBox makes the owner's filter through the ORM; here the owner saves it (the API makes the saver its user).
      test_private_filter_not_visible_to_other_users: async (t) => {
        const owner = await sharedObjectOwner(t, 'filter-owner', 'extras.savedfilter');
        const made = await owner.post(t.path(), {
          object_types: ['dcim.site'],
          name: 'Private Filter',
          slug: 'private-filter',
          shared: false,
          parameters: { status: ['active'] },
        });
        expect(made.status, made.text).toBe(201);
        await expectPrivate(t, 'extras.view_savedfilter', owner, made.body.id as number);
      },
    },
  },
  {
    source: 'extras/tests/test_api.py::TableConfigTestCase',
    model: 'extras.tableconfig',
    briefFields: ['description', 'display', 'id', 'name', 'object_type', 'table', 'url'],
    bulkUpdateData: { description: 'New description', weight: 999, enabled: false, shared: false },
    // NetBox gives each config its own user through the ORM; the API makes the admin who saves them their user.
    setUp: async (t) => {
      const config = (i: number, columns: string[], ordering?: string[]) => ({
        object_type: 'dcim.site',
        table: 'SiteTable',
        name: `Table Config ${i}`,
        columns,
        ...(ordering ? { ordering } : {}),
      });
      await t.makeAll('extras.tableconfig', [
        config(1, ['name', 'status']),
        config(2, ['name', 'region']),
        config(3, ['name', 'tenant']),
      ]);
      return {
        createData: [
          config(4, ['name', 'status'], ['name']),
          config(5, ['name', 'region'], ['-name']),
          config(6, ['name', 'tenant']),
        ],
      };
    },
    tests: {
      test_private_table_config_not_visible_to_other_users: async (t) => {
        const owner = await sharedObjectOwner(t, 'tableconfig-owner', 'extras.tableconfig');
        const made = await owner.post(t.path(), {
          name: 'Private Table Config',
          object_type: 'dcim.site',
          table: 'SiteTable',
          shared: false,
          columns: ['name', 'status'],
        });
        expect(made.status, made.text).toBe(201);
        await expectPrivate(t, 'extras.view_tableconfig', owner, made.body.id as number);
      },
    },
  },
  {
    source: 'extras/tests/test_api.py::ExportTemplateTestCase',
    model: 'extras.exporttemplate',
    briefFields: ['description', 'display', 'id', 'name', 'url'],
    bulkUpdateData: description,
    // NetBox's Jinja2 text is also a valid Handlebars template (`{% … %}` is literal text there).
    setUp: async (t) => {
      const code = '{% for obj in queryset %}{{ obj.name }}\n{% endfor %}';
      await t.makeAll('extras.exporttemplate', [
        { object_types: ['dcim.device'], name: 'Export Template 1', template_code: code },
        {
          object_types: ['dcim.device'],
          name: 'Export Template 2',
          template_code: code,
          file_name: 'export_template_2',
          file_extension: 'test',
        },
        { object_types: ['dcim.device'], name: 'Export Template 3', template_code: code },
      ]);
      return {
        createData: [
          { object_types: ['dcim.device'], name: 'Test Export Template 4', template_code: code },
          { object_types: ['dcim.device'], name: 'Test Export Template 5', template_code: code },
          {
            object_types: ['dcim.device'],
            name: 'Test Export Template 6',
            template_code: code,
            file_name: 'test_export_template_6',
          },
        ],
      };
    },
  },
];

/**
 * NetBox's SharedObjectAPITestMixin._grant_view_permission_and_authenticate, for a new user who also may add
 * objects of the model (here the owner saves its private object through the API).
 */
async function sharedObjectOwner(t: PortedClass, username: string, model: string): Promise<ApiClient> {
  const owner = await t.make('users.user', { username, password: 'Owner-Password-1' });
  await t.make('users.objectpermission', {
    name: `${model} view`,
    object_types: [model],
    actions: ['view', 'add'],
    users: [owner.id],
  });
  const token = await t.make('users.token', { user: owner.id });
  return t.admin.as(`Bearer svc_${token.key}.${token.token}`);
}

/** The private object is neither listed nor retrievable for the test user with a view permission; its owner's it is. */
async function expectPrivate(t: PortedClass, permission: string, owner: ApiClient, id: number): Promise<void> {
  const user = await t.user();
  await user.addPermissions(permission);
  const list = await user.client.get(`${t.path()}?limit=0`);
  expect(list.status, list.text).toBe(200);
  expect((list.body.results as { id: number }[]).map((o) => o.id)).not.toContain(id);
  expect((await user.client.get(`${t.path()}${id}/`)).status).toBe(404);
  const own = await owner.get(`${t.path()}${id}/`);
  expect(own.status, own.text).toBe(200);
}
