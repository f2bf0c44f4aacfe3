/**
 * What NetBox's demo data lacks, added to a restored dump with SQL in NetBox's own schema, then imported and
 * compared through the API: tokens (v1 from NetBox 4.2; v2 in 4.5's token schema), object permissions with
 * constraints, users and groups, a webhook and an event rule, a change record, a journal entry (no home yet),
 * a config context, an image attachment (its file copied from NetBox's media folder), and VPN objects (a tunnel
 * with its termination and crypto profile, an L2VPN with route targets and a VLAN termination).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, TEST_PEPPER, type TestApp } from '../support/app.js';
import type { ImportReport } from '../../runtime/import/report.js';
import type { NetboxSource } from '../../runtime/import/netbox-database.js';
import { compareWithSource } from './compare.js';
import { canRestore, importInto, restoreNetboxDump, runSql } from './support.js';

const V1_SECRET = '0123456789abcdef0123456789abcdef01234567';
const V2_SECRET = 'Q9dKr2LmXp7Vt4Nw8Zb3Hc6Jf1Gs5Ye0Ua9Ri2Oo';
/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

const ct = (app: string, model: string) =>
  `(SELECT id FROM django_content_type WHERE app_label = '${app}' AND model = '${model}')`;

const EXTRAS_4_2 = `
INSERT INTO users_objectpermission (id, name, description, enabled, actions, constraints)
  VALUES (1, 'Active sites', 'View and change active sites', true, '{view,change}', '{"status": "active"}');
INSERT INTO users_objectpermission_object_types (objectpermission_id, objecttype_id) VALUES (1, ${ct('dcim', 'site')});
INSERT INTO users_group_object_permissions (group_id, objectpermission_id) VALUES (1, 1);
INSERT INTO users_user_object_permissions (user_id, objectpermission_id) VALUES (2, 1);
INSERT INTO extras_webhook (id, name, payload_url, http_method, http_content_type, additional_headers, body_template,
  secret, ssl_verification, ca_file_path, created, last_updated, custom_field_data, description)
  VALUES (1, 'Inventory', 'https://inventory.example.com/hook', 'POST', 'application/json', 'X-Source: netbox',
  '', 's3cret', true, NULL, '2024-05-01T08:00:00Z', '2024-05-02T08:00:00Z', '{}', 'Tells the inventory');
INSERT INTO extras_eventrule (id, created, last_updated, custom_field_data, name, description, enabled, conditions,
  action_type, action_object_id, action_data, comments, action_object_type_id, event_types)
  VALUES (1, '2024-05-01T08:00:00Z', '2024-05-01T08:00:00Z', '{}', 'Site changes', '', true,
  '{"attr": "status.value", "value": "active"}', 'webhook', 1, NULL, '', ${ct('extras', 'webhook')},
  '{object_created,object_updated}');
INSERT INTO extras_eventrule_object_types (eventrule_id, objecttype_id) VALUES (1, ${ct('dcim', 'site')});
INSERT INTO core_objectchange (id, time, user_name, request_id, action, changed_object_id, related_object_id,
  object_repr, prechange_data, postchange_data, changed_object_type_id, related_object_type_id, user_id)
  VALUES (1, '2024-05-01T09:00:00.123456Z', 'admin', 'a0b1c2d3-0000-4000-8000-000000000001', 'update', 1, NULL,
  'DM-Akron', '{"description": ""}', '{"description": "Akron"}', ${ct('dcim', 'site')}, NULL, 1);
INSERT INTO extras_journalentry (id, created, last_updated, assigned_object_id, kind, comments,
  assigned_object_type_id, created_by_id, custom_field_data)
  VALUES (1, now(), now(), 1, 'info', 'Moved in', ${ct('dcim', 'site')}, 1, '{}');
INSERT INTO extras_configcontext (id, created, last_updated, name, weight, description, is_active, data, data_file_id,
  data_path, data_source_id, auto_sync_enabled, data_synced)
  VALUES (1, '2024-05-01T08:00:00Z', '2024-05-01T08:00:00Z', 'NTP', 1000, '', true, '{"ntp": ["10.0.0.1"]}', NULL,
  '', NULL, false, NULL);
INSERT INTO extras_configcontext_sites (configcontext_id, site_id) VALUES (1, 1), (1, 2);
INSERT INTO extras_imageattachment (id, object_id, image, image_height, image_width, name, created, object_type_id,
  last_updated)
  VALUES (1, 1, 'image-attachments/site_1_front.png', 1, 1, 'Front', '2024-05-01T08:00:00Z', ${ct('dcim', 'site')},
  '2024-05-01T08:00:00Z');
INSERT INTO dcim_macaddress (id, created, last_updated, custom_field_data, description, comments, mac_address,
  assigned_object_id, assigned_object_type_id)
  VALUES (1, now(), now(), '{}', '', '', '00:1a:2b:3c:4d:5e', 1, ${ct('dcim', 'interface')});
UPDATE dcim_interface SET primary_mac_address_id = 1 WHERE id = 1;
INSERT INTO users_token (id, created, expires, key, write_enabled, description, user_id, allowed_ips, last_used)
  VALUES (1, '2024-06-01T10:00:00Z', NULL, '${V1_SECRET}', true, 'v1 token', 2, NULL, '2024-06-02T10:00:00Z');
INSERT INTO vpn_ikeproposal (id, created, last_updated, custom_field_data, description, comments, name,
  authentication_method, encryption_algorithm, authentication_algorithm, "group", sa_lifetime)
  VALUES (1, now(), now(), '{}', '', '', 'IKE Proposal 1', 'preshared-keys', 'aes-128-cbc', 'hmac-sha1', 14, 28800);
INSERT INTO vpn_ikepolicy (id, created, last_updated, custom_field_data, description, comments, name, version, mode,
  preshared_key) VALUES (1, now(), now(), '{}', '', '', 'IKE Policy 1', 1, 'main', 's3cret');
INSERT INTO vpn_ikepolicy_proposals (ikepolicy_id, ikeproposal_id) VALUES (1, 1);
INSERT INTO vpn_ipsecproposal (id, created, last_updated, custom_field_data, description, comments, name,
  encryption_algorithm, authentication_algorithm, sa_lifetime_seconds, sa_lifetime_data)
  VALUES (1, now(), now(), '{}', '', '', 'IPSec Proposal 1', 'aes-256-gcm', NULL, 3600, NULL);
INSERT INTO vpn_ipsecpolicy (id, created, last_updated, custom_field_data, description, comments, name, pfs_group)
  VALUES (1, now(), now(), '{}', '', '', 'IPSec Policy 1', 14);
INSERT INTO vpn_ipsecpolicy_proposals (ipsecpolicy_id, ipsecproposal_id) VALUES (1, 1);
INSERT INTO vpn_ipsecprofile (id, created, last_updated, custom_field_data, description, comments, name, mode,
  ike_policy_id, ipsec_policy_id) VALUES (1, now(), now(), '{}', '', '', 'IPSec Profile 1', 'esp', 1, 1);
INSERT INTO vpn_tunnelgroup (id, created, last_updated, custom_field_data, name, slug, description)
  VALUES (1, now(), now(), '{}', 'Mesh', 'mesh', '');
INSERT INTO vpn_tunnel (id, created, last_updated, custom_field_data, description, comments, name, status, group_id,
  encapsulation, tunnel_id, ipsec_profile_id, tenant_id)
  VALUES (1, now(), now(), '{}', '', '', 'Tunnel 1', 'active', 1, 'ipsec-tunnel', 100, 1, NULL);
INSERT INTO vpn_tunneltermination (id, created, last_updated, custom_field_data, role, termination_id,
  termination_type_id, outside_ip_id, tunnel_id)
  VALUES (1, now(), now(), '{}', 'hub', 1, ${ct('dcim', 'interface')}, NULL, 1);
INSERT INTO vpn_l2vpn (id, created, last_updated, custom_field_data, name, slug, type, identifier, description,
  tenant_id, comments) VALUES (1, now(), now(), '{}', 'L2VPN 1', 'l2vpn-1', 'vxlan', 10001, '', NULL, '');
INSERT INTO vpn_l2vpn_import_targets (l2vpn_id, routetarget_id) VALUES (1, 1);
INSERT INTO vpn_l2vpn_export_targets (l2vpn_id, routetarget_id) VALUES (1, 2);
INSERT INTO vpn_l2vpntermination (id, created, last_updated, custom_field_data, assigned_object_id,
  assigned_object_type_id, l2vpn_id) VALUES (1, now(), now(), '{}', 1, ${ct('ipam', 'vlan')}, 1);
`;

/** NetBox 4.5's token migration (users 0014) on a 4.2 database, marked as 4.5 in django_migrations. */
const TOKENS_4_5 = `
ALTER TABLE users_token RENAME COLUMN key TO plaintext;
ALTER TABLE users_token ALTER COLUMN plaintext DROP NOT NULL;
ALTER TABLE users_token ADD COLUMN version smallint NOT NULL DEFAULT 1, ADD COLUMN key varchar(12) NULL UNIQUE,
  ADD COLUMN pepper_id smallint NULL, ADD COLUMN hmac_digest varchar(64) NULL,
  ADD COLUMN enabled boolean NOT NULL DEFAULT true;
INSERT INTO django_migrations (app, name, applied) VALUES ('dcim', '0225_gfk_indexes', now());
INSERT INTO users_token (id, created, version, key, pepper_id, hmac_digest, plaintext, write_enabled, enabled,
  description, user_id, allowed_ips) VALUES
  (1, '2025-06-01T10:00:00Z', 2, 'abcdefghijkl', 1, '${createHmac('sha256', TEST_PEPPER).update(V2_SECRET).digest('hex')}',
   NULL, true, true, 'v2 token', 2, NULL),
  (2, '2025-06-01T10:00:00Z', 2, 'mnopqrstuvwx', 7, '${'0'.repeat(64)}', NULL, true, true, 'other pepper', 2, NULL),
  (3, '2025-06-01T10:00:00Z', 1, NULL, NULL, NULL, '${V1_SECRET}', true, true, 'v1 token', 3, NULL);
`;

describe.runIf(canRestore())('what the demo data lacks', () => {
  // One restored source with the additions, read by the import into each database.
  let dump: { url: string; drop: () => Promise<void> };
  beforeAll(async () => {
    dump = await restoreNetboxDump('4.2');
    await runSql(dump.url, EXTRAS_4_2);
  });
  afterAll(async () => {
    await dump?.drop();
  });

  describe.each(DIALECTS)('NetBox 4.2 into %s', (dialect) => {
    let app: TestApp;
    let report: ImportReport;
    let source: NetboxSource;
    const media = fs.mkdtempSync(path.join(os.tmpdir(), 'netbox-media-'));
    const mediaRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-media-'));
    beforeAll(async () => {
      fs.mkdirSync(path.join(media, 'image-attachments'));
      fs.writeFileSync(path.join(media, 'image-attachments/site_1_front.png'), PNG);
      const settings = { ALLOW_TOKEN_V1: true, MEDIA_ROOT: mediaRoot };
      const imported = await importInto(dialect, dump.url, { settings, media });
      ({ report, source } = imported);
      app = await startTestApp(dialect, { databaseUrl: imported.url, settings });
    });
    afterAll(async () => {
      await app?.close();
      fs.rmSync(media, { recursive: true, force: true });
      fs.rmSync(mediaRoot, { recursive: true, force: true });
    });

    it('serves what was added as NetBox holds it', async () => {
      for (const model of [
        'users.objectpermission',
        'extras.webhook',
        'extras.eventrule',
        'core.objectchange',
        'extras.journalentry',
        'vpn.ikepolicy',
        'vpn.ipsecprofile',
        'vpn.tunnel',
        'vpn.tunneltermination',
        'vpn.l2vpn',
        'vpn.l2vpntermination',
      ]) {
        expect(
          report.models.find((m) => m.model === model),
          model,
        ).toMatchObject({ read: 1, imported: 1 });
      }
      expect(await compareWithSource(app, report, source, dump.url)).toEqual([]);
      expect(report.withoutHome).not.toContainEqual(expect.objectContaining({ table: 'extras_journalentry' }));
      // Since 4.2 an interface's MAC address is its primary MAC address object's.
      const iface = await app.api.get('/api/dcim/interfaces/1/');
      expect((iface.body as { mac_address: string }).mac_address).toBe('00:1A:2B:3C:4D:5E');
      // The VLAN's L2VPN termination, with its route targets and proposals, came along.
      const vlan = await app.api.get('/api/ipam/vlans/1/');
      expect(vlan.body).toMatchObject({ l2vpn_termination: { id: 1, l2vpn: { id: 1, identifier: 10001 } } });
      const l2vpn = await app.api.get('/api/vpn/l2vpns/1/');
      expect(l2vpn.body).toMatchObject({ import_targets: [{ id: 1 }], export_targets: [{ id: 2 }] });
      const policy = await app.api.get('/api/vpn/ike-policies/1/');
      expect(policy.body).toMatchObject({ proposals: [{ id: 1 }], mode: { value: 'main' } });
    }, 300_000);

    it('keeps v1 tokens and object permissions working: the user sees what the constraint allows', async () => {
      expect(report.tokens).toEqual({
        unchanged: [{ id: 1, how: expect.stringMatching(/^v1: /) as unknown }],
        reissue: [],
      });
      const alice = app.api.as(`Token ${V1_SECRET}`);
      const sites = await alice.get('/api/dcim/sites/?limit=100');
      expect(sites.status).toBe(200);
      const all = await app.api.get('/api/dcim/sites/?status=active&limit=1');
      expect((sites.body as { count: number }).count).toBe((all.body as { count: number }).count);
      expect(
        (sites.body as { results: { status: { value: string } }[] }).results.every((s) => s.status.value === 'active'),
      ).toBe(true);
    });

    it('copies image files from NetBox’s media folder, and fires no webhook for what it imported', async () => {
      expect(fs.readFileSync(path.join(mediaRoot, 'image-attachments/site_1_front.png'))).toEqual(PNG);
      expect(report.models.find((m) => m.model === 'extras.imageattachment')?.files).toEqual([
        { id: 1, file: 'image-attachments/site_1_front.png', copied: true },
      ]);
      const tasks = await app.api.get('/api/core/background-tasks/?limit=1');
      expect((tasks.body as { count: number }).count).toBe(0);
    });
  });

  it('keeps v2 tokens whose pepper is configured, and says which must be issued again', async () => {
    const dump = await restoreNetboxDump('4.2');
    try {
      await runSql(dump.url, TOKENS_4_5);
      const imported = await importInto('sqlite', dump.url);
      expect(imported.report.netboxVersion).toBe('4.5');
      expect(imported.report.tokens.unchanged).toEqual([
        { id: 1, how: expect.stringMatching(/^v2: .*svc_/) as unknown },
      ]);
      expect(imported.report.tokens.reissue).toEqual([
        { id: 2, reason: expect.stringMatching(/no pepper 7/) as unknown },
        { id: 3, reason: expect.stringMatching(/ALLOW_TOKEN_V1/) as unknown },
      ]);
      const app = await startTestApp('sqlite', { databaseUrl: imported.url });
      try {
        const response = await app.api.as(`Bearer svc_abcdefghijkl.${V2_SECRET}`).get('/api/users/tokens/');
        expect(response.status).toBe(200);
        const refused = await app.api.as(`Bearer svc_abcdefghijkl.${V2_SECRET.slice(1)}x`).get('/api/users/tokens/');
        expect(refused.status).toBe(403);
      } finally {
        await app.close();
      }
    } finally {
      await dump.drop();
    }
  }, 300_000);
});
