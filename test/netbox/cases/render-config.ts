import { expect } from 'vitest';
import type { PortedClass, TestUser } from '../harness.js';

/**
 * The render tests NetBox 4.6.8 has for each model with a config template (dcim DeviceTestCase and
 * virtualization VirtualMachineTestCase: test_render_config*) and for config templates (ConfigTemplateTestCase:
 * test_render*). The object is `<Model>.objects.first()` of the class's data, its name `{{ device.name }}`
 * (`{{ virtualmachine.name }}`) in the template, as NetBox's Jinja2 `{{ device.name }}` translates.
 */

type Json = Record<string, any>;
type Test = (t: PortedClass) => Promise<void>;

/** The class's first object, given a config template whose code names the object (`Config for device …`). */
async function withTemplate(t: PortedClass, code: (name: string) => string): Promise<{ object: Json; url: string }> {
  const variable = t.model.split('.')[1]!;
  const template = await t.make('extras.configtemplate', { name: 'Config Template 1', template_code: code(variable) });
  const [first] = await t.queryset();
  const patched = await t.admin.patch(`${t.path()}${first!.id}/`, { config_template: template.id });
  expect(patched.status, patched.text).toBe(200);
  return { object: patched.body as Json, url: `${t.path()}${first!.id}/render-config/` };
}

/** `self.add_permissions('<app>.render_config_<model>', '<app>.view_<model>')`. */
async function renderer(t: PortedClass, ...more: string[]): Promise<TestUser> {
  const user = await t.user(more);
  await user.grant(['render_config', 'view']);
  return user;
}

/** `Token.objects.create(user=self.user, write_enabled=…)`: a client with that token, and a way to enable it. */
async function tokenClient(t: PortedClass, user: TestUser) {
  const token = await t.make('users.token', { user: user.id, write_enabled: false });
  return {
    client: t.admin.as(`Bearer svc_${token.key}.${token.token}`),
    enable: async () =>
      expect((await t.admin.patch(`${t.path('users.token')}${token.id}/`, { write_enabled: true })).status).toBe(200),
  };
}

/** The four render-config tests of a device or virtual machine class. */
export function renderConfigTests(): Record<string, Test> {
  return {
    test_render_config: async (t) => {
      const { object, url } = await withTemplate(t, (v) => `Config for ${v} {{ ${v}.name }}`);
      const user = await renderer(t);
      const response = await user.client.post(url, {});
      expect(response.status, response.text).toBe(200);
      expect(response.body.content).toBe(`Config for ${t.model.split('.')[1]} ${object.name}`);
    },
    test_render_config_without_permission: async (t) => {
      const { url } = await withTemplate(t, (v) => `Config for {{ ${v}.name }}`);
      const user = await t.user();
      expect((await user.client.post(url, {})).status).toBe(404);
    },
    test_render_config_token_write_enabled: async (t) => {
      const { url } = await withTemplate(t, (v) => `Config for {{ ${v}.name }}`);
      const user = await renderer(t);
      // Without token authentication (NetBox's TokenWritePermission).
      expect((await t.admin.as(null).post(url, {})).status).toBe(403);
      const token = await tokenClient(t, user);
      expect((await token.client.post(url, {})).status).toBe(403);
      await token.enable();
      expect((await token.client.post(url, {})).status).toBe(200);
    },
    test_render_config_with_config_template_id: async (t) => {
      const variable = t.model.split('.')[1]!;
      const { object, url } = await withTemplate(t, (v) => `Default config for {{ ${v}.name }}`);
      const override = await t.make('extras.configtemplate', {
        name: 'Override Template',
        template_code: `Override config for {{ ${variable}.name }}`,
      });
      let user = await renderer(t, 'extras.view_configtemplate');
      const ok = await user.client.post(url, { config_template_id: override.id });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body.content).toBe(`Override config for ${object.name}`);
      expect((await user.client.post(url, { config_template_id: 999999 })).status).toBe(400);
      expect((await user.client.post(url, { config_template_id: 'abc' })).status).toBe(400);
      user = await renderer(t);
      expect((await user.client.post(url, { config_template_id: override.id })).status).toBe(400);
    },
  };
}

/** ConfigTemplateTestCase's own tests: render/ with the request body as the context. */
export function renderTemplateTests(): Record<string, Test> {
  const first = async (t: PortedClass): Promise<string> => {
    const [template] = await t.queryset();
    return `${t.path()}${template!.id}/render/`;
  };
  return {
    test_render: async (t) => {
      const url = await first(t);
      const user = await t.user(['extras.render_configtemplate', 'extras.view_configtemplate']);
      const response = await user.client.post(url, { foo: 'bar' });
      expect(response.status, response.text).toBe(200);
      expect(response.body.content).toBe('Foo: bar');
    },
    test_render_without_permission: async (t) => {
      const url = await first(t);
      const user = await t.user();
      expect((await user.client.post(url, { foo: 'bar' })).status).toBe(404);
    },
    test_render_token_write_enabled: async (t) => {
      const url = await first(t);
      const user = await t.user(['extras.render_configtemplate', 'extras.view_configtemplate']);
      expect((await t.admin.as(null).post(url, { foo: 'bar' })).status).toBe(403);
      const token = await tokenClient(t, user);
      expect((await token.client.post(url, { foo: 'bar' })).status).toBe(403);
      await token.enable();
      expect((await token.client.post(url, { foo: 'bar' })).status).toBe(200);
    },
  };
}
