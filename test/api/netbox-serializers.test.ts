import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../generated/index.js';
import { enablePlugins } from '../../runtime/plugins.js';
import { Schema } from '../../runtime/rest/schema.js';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import { Fixtures } from '../support/fixtures.js';
import type { Representation } from '../fixtures/netbox-serializer-differences.js';
import { compareKeys, servedModels } from '../support/netbox-serializers.js';

/**
 * The first object of every served endpoint, complete and with `?brief=1`, has exactly the keys of NetBox
 * 4.6.8's serializer in NetBox's order (test/fixtures/netbox-serializers.json), on every database, except for
 * the differences listed in test/fixtures/netbox-serializer-differences.ts. A default server: no plugins.
 */
const served = enablePlugins(registry, []);
const schema = new Schema(served);
const { compared } = servedModels(registry);

describe.each(DIALECTS)("NetBox's representations on %s", (dialect) => {
  let app: TestApp;
  let sources: string;
  beforeAll(async () => {
    // A local data source's folder: its sync makes the data files and the job (both read-only).
    sources = fs.mkdtempSync(path.join(os.tmpdir(), 'netbox-sources-'));
    fs.mkdirSync(path.join(sources, 'configs'));
    fs.writeFileSync(path.join(sources, 'configs', 'edge.txt'), 'hostname {{device.name}}');
    app = await startTestApp(dialect, { settings: { PLUGINS: [], DATA_SOURCES_ROOT: sources } });
    const fixtures = new Fixtures(app.api, schema);
    // A webhook (to a port where nothing listens) for every site created: the sites below make background tasks.
    const webhook = await fixtures.create('extras.webhook', { payload_url: 'http://127.0.0.1:9/hook' });
    await fixtures.create('extras.eventrule', {
      action_object_type: 'extras.webhook',
      action_object_id: webhook.id,
    });
    // One object of every model (creating one often creates others), and their change records.
    for (const { label } of compared) {
      const model = schema.model(label);
      if (model.spec.readOnly) continue;
      const list = await app.api.get(`/api${model.listPath}?limit=1&brief=1`);
      if (list.body.count === 0) await fixtures.create(label);
    }
    const source = await app.api.post('/api/core/data-sources/', {
      name: 'Configs',
      type: 'local',
      source_url: 'configs',
    });
    expect((await app.api.post(`/api/core/data-sources/${source.body.id}/sync/`, {})).status).toBe(200);
    // A tagged site: the tagged items are read-only.
    const tag = await fixtures.create('extras.tag');
    const [site] = (await app.api.get('/api/dcim/sites/?limit=1')).body.results as { id: number }[];
    expect((await app.api.patch(`/api/dcim/sites/${site!.id}/`, { tags: [tag.id] })).status).toBe(200);
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(sources, { recursive: true, force: true });
  });

  it.each(compared)('$label', async ({ label, netbox }) => {
    const list = `/api${schema.model(label).listPath}?limit=1`;
    // Query, representation compared (listed differences apply), NetBox's keys.
    const requests: [string, Representation, readonly string[]][] = [
      ['', 'complete', netbox.complete],
      ['&brief=1', 'brief', netbox.brief],
    ];
    if (netbox.exclude_config_context)
      requests.push(['&exclude=config_context', 'complete', netbox.exclude_config_context]);
    for (const [query, representation, theirs] of requests) {
      const response = await app.api.get(`${list}${query}`);
      expect(response.status, response.text).toBe(200);
      expect(response.body.results.length, `no ${label} to look at`).toBe(1);
      const mine = Object.keys(response.body.results[0] as object);
      const comparison = compareKeys(label, representation, theirs, mine);
      const context = `${representation} (limit=1${query})\n  NetBox: ${theirs.join(', ')}\n  here:   ${mine.join(', ')}\n`;
      expect(comparison.unlisted, `${context}not listed in netbox-serializer-differences.ts`).toEqual([]);
      expect(comparison.fixed, `${context}fixed: delete from netbox-serializer-differences.ts`).toEqual([]);
    }
  });
});
