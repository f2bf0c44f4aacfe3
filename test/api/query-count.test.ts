import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import { Fixtures } from '../support/fixtures.js';
import { sampledFor } from '../support/sampling.js';
import { Schema } from '../../runtime/rest/schema.js';
import { registry } from '../../generated/index.js';

/**
 * No N+1: a list page costs the same number of queries for 5 and for 20 objects, for every model
 * (nested FKs are joined; tags, counts and custom field objects are loaded in one batch each); on PostgreSQL
 * for the models sampled by kind (test/support/sampling.ts).
 */
const schema = new Schema(registry);
/** Large enough that a query per object (or per nested object) could not hide: 15 more than the small page. */
const LARGE = 20;
const models = schema.endpoints().filter((m) => !m.spec.readOnly);

describe.each(DIALECTS)('queries per list page on %s', (dialect) => {
  let app: TestApp;
  let fixtures: Fixtures;
  beforeAll(async () => {
    // Every request authenticates with a query, so that counts do not depend on the token cache's timing.
    app = await startTestApp(dialect, { settings: { CACHE_SECONDS: 0 } });
    fixtures = new Fixtures(app.api, schema);
    await app.api.post('/api/extras/tags/', [
      { name: 'One', slug: 'one' },
      { name: 'Two', slug: 'two' },
    ]);
    // Every object gets custom field values, one of them a related object rendered in a batch.
    const site = await app.api.post('/api/dcim/sites/', { name: 'CF target', slug: 'cf-target' });
    const objectTypes = models.filter((m) => m.hasCustomFields).map((m) => m.label);
    const cfs = await app.api.post('/api/extras/custom-fields/', [
      {
        name: 'cf_site',
        type: 'object',
        related_object_type: 'dcim.site',
        object_types: objectTypes,
        default: site.body.id,
      },
      { name: 'cf_text', type: 'text', object_types: objectTypes, default: 'x' },
    ]);
    expect(cfs.status, cfs.text).toBe(201);
  });
  afterAll(async () => app?.close());

  const queriesFor = async (path: string): Promise<number> => {
    await app.api.get(path); // warm-up: token bookkeeping happens at most once a minute
    const before = app.db.queryCount();
    const response = await app.api.get(path);
    expect(response.status, response.text).toBe(200);
    return app.db.queryCount() - before;
  };

  it.each(sampledFor(dialect, models).map((m) => [m.label, m] as const))(
    `%s: 5 and ${LARGE} objects cost the same`,
    async (_label, model) => {
      const list = `/api${model.listPath}`;
      const overrides = model.hasTags ? { tags: [{ slug: 'one' }, { slug: 'two' }] } : {};
      const existing = (await app.api.get(`${list}?limit=1`)).body.count as number;
      const bodies = await fixtures.payloads(model.label, LARGE, overrides);
      if (model.spec.fields.some((f) => f.kind === 'image')) {
        // Files travel in multipart forms, one object each.
        for (const body of bodies) expect((await app.api.post(list, body)).status).toBe(201);
      } else {
        const created = await app.api.post(list, bodies);
        expect(created.status, created.text).toBe(201);
      }
      const small = await queriesFor(`${list}?limit=5&offset=${existing}`);
      const large = await queriesFor(`${list}?limit=${LARGE}&offset=${existing}`);
      expect(large).toBe(small);
      // rows + count + auth + one batch per batched key (config contexts take a fixed handful): bounded.
      expect(small).toBeLessThanOrEqual(40);
      const brief = await queriesFor(`${list}?limit=${LARGE}&brief=1&offset=${existing}`);
      expect(brief).toBeLessThanOrEqual(large);
    },
  );
});

/**
 * The pages people load most, pinned exactly: a site list runs five queries (count, rows, tags, ASNs, every
 * count of the page and its nested regions in one statement), a site's detail four (its ETag comes from the
 * row), and a device list five (count, rows, tags, counts with the NAT references of its IPs, config context).
 */
describe.each(DIALECTS)('queries of the common pages on %s', (dialect) => {
  let app: TestApp;
  let siteId: number;
  beforeAll(async () => {
    // Caches on, as served: the warm-up request of each page fills them (custom field definitions, the token).
    app = await startTestApp(dialect);
    const post = async (path: string, body: unknown): Promise<{ id: number }> => {
      const response = await app.api.post(path, body);
      expect(response.status, response.text).toBe(201);
      return response.body as { id: number };
    };
    await post('/api/extras/tags/', [
      { name: 'One', slug: 'one' },
      { name: 'Two', slug: 'two' },
    ]);
    const region = await post('/api/dcim/regions/', { name: 'Europe', slug: 'europe' });
    const tenant = await post('/api/tenancy/tenants/', { name: 'Acme', slug: 'acme' });
    const site = await post('/api/dcim/sites/', {
      name: 'PAR1',
      slug: 'par1',
      region: region.id,
      tenant: tenant.id,
      tags: [{ slug: 'one' }, { slug: 'two' }],
    });
    siteId = site.id;
    const rack = await post('/api/dcim/racks/', { name: 'R1', site: site.id });
    const maker = await post('/api/dcim/manufacturers/', { name: 'Juniper', slug: 'juniper' });
    const type = await post('/api/dcim/device-types/', { manufacturer: maker.id, model: 'MX', slug: 'mx' });
    const role = await post('/api/dcim/device-roles/', { name: 'Core', slug: 'core' });
    const platform = await post('/api/dcim/platforms/', { name: 'Junos', slug: 'junos' });
    const device = await post('/api/dcim/devices/', {
      name: 'edge1',
      site: site.id,
      rack: rack.id,
      device_type: type.id,
      role: role.id,
      platform: platform.id,
      tenant: tenant.id,
      tags: [{ slug: 'one' }, { slug: 'two' }],
    });
    const eth0 = await post('/api/dcim/interfaces/', { device: device.id, name: 'eth0', type: '1000base-t' });
    const ip = await post('/api/ipam/ip-addresses/', {
      address: '192.0.2.1/24',
      assigned_object_type: 'dcim.interface',
      assigned_object_id: eth0.id,
    });
    expect((await app.api.patch(`/api/dcim/devices/${device.id}/`, { primary_ip4: ip.id })).status).toBe(200);
    await post('/api/extras/config-contexts/', { name: 'All', data: { ntp: ['192.0.2.123'] } });
  });
  afterAll(async () => app?.close());

  /**
   * Queries of a request, the fewer of two: the token's last-use bookkeeping (once a minute, not awaited by
   * the request that caused it) may land in either, never in both.
   */
  const queriesFor = async (path: string): Promise<number> => {
    const count = async (): Promise<number> => {
      const before = app.db.queryCount();
      const response = await app.api.get(path);
      expect(response.status, response.text).toBe(200);
      return app.db.queryCount() - before;
    };
    await count();
    return Math.min(await count(), await count());
  };

  it('a site list runs five queries, a detail four, a device list five', async () => {
    const counts = {
      sites: await queriesFor('/api/dcim/sites/?limit=50'),
      site: await queriesFor(`/api/dcim/sites/${siteId}/`),
      devices: await queriesFor('/api/dcim/devices/?limit=50'),
      withoutContext: await queriesFor('/api/dcim/devices/?limit=50&exclude=config_context'),
      briefSites: await queriesFor('/api/dcim/sites/?limit=1000&brief=1'),
      briefDevices: await queriesFor('/api/dcim/devices/?limit=1000&brief=1'),
    };
    // A device list: rows, count, tags, config contexts and the parent bays of its devices (parent_device).
    expect(counts).toEqual({ sites: 5, site: 4, devices: 6, withoutContext: 5, briefSites: 2, briefDevices: 2 });
  });

  it('a page of interfaces with connected endpoints through two patch panels costs the same for 5 and 40', async () => {
    const { api } = app;
    const created = async (path: string, bodies: unknown[]): Promise<{ id: number }[]> => {
      const response = await api.post(path, bodies);
      expect(response.status, response.text).toBe(201);
      return response.body as { id: number }[];
    };
    const edge = (await api.get('/api/dcim/devices/?name=edge1')).body.results[0] as Record<string, any>;
    const [peer] = await created('/api/dcim/devices/', [
      { name: 'edge2', site: siteId, device_type: edge.device_type.id, role: edge.role.id },
    ]);
    const N = 40;
    const side = async (
      device: number,
    ): Promise<{ ifaces: { id: number }[]; fronts: { id: number }[]; rear: number }> => {
      const ifaces = await created(
        '/api/dcim/interfaces/',
        Array.from({ length: N }, (_, i) => ({ device, name: `xe-${i}`, type: '10gbase-x-sfpp' })),
      );
      const [rear] = await created('/api/dcim/rear-ports/', [{ device, name: 'panel', type: 'lc', positions: N }]);
      const fronts = await created(
        '/api/dcim/front-ports/',
        Array.from({ length: N }, (_, i) => ({
          device,
          name: `panel-${i}`,
          type: 'lc',
          rear_ports: [{ position: 1, rear_port: rear!.id, rear_port_position: i + 1 }],
        })),
      );
      return { ifaces, fronts, rear: rear!.id };
    };
    const [a, b] = [await side(edge.id as number), await side(peer!.id)];
    const end = (type: string, id: number) => [{ object_type: type, object_id: id }];
    await created('/api/dcim/cables/', [
      { a_terminations: end('dcim.rearport', a.rear), b_terminations: end('dcim.rearport', b.rear) },
      ...[a, b].flatMap((s) =>
        s.ifaces.map((iface, i) => ({
          a_terminations: end('dcim.interface', iface.id),
          b_terminations: end('dcim.frontport', s.fronts[i]!.id),
        })),
      ),
    ]);
    const page = `/api/dcim/interfaces/?device_id=${edge.id}&cabled=true`;
    const far = await api.get(`${page}&limit=${N}`);
    expect(far.body.results).toHaveLength(N);
    expect(far.body.results.every((r: Record<string, any>) => r.connected_endpoints?.[0]?.device.id === peer!.id)).toBe(
      true,
    );
    const small = await queriesFor(`${page}&limit=5`);
    const large = await queriesFor(`${page}&limit=${N}`);
    expect(large).toBe(small);
    // Rows, count, tags, the L2VPN terminations, the cable and link peers, then the stored paths (one query)
    // and their far ends.
    expect(large).toMatchInlineSnapshot(`29`);
  });
});

/**
 * Creating a device instantiates its type's templates in one batch per component model (issue 23): a type
 * with 2 templates of every kind and one with 20 cost the same statements, pinned.
 */
describe.each(DIALECTS)('queries of a device created from templates on %s', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    // Caches kept for the whole test, so that counts do not depend on timing (as for the writes below).
    app = await startTestApp(dialect, { settings: { CACHE_SECONDS: 300 } });
  });
  afterAll(async () => app?.close());

  const post = async (path: string, body: unknown): Promise<any> => {
    const response = await app.api.post(path, body);
    expect(response.status, response.text).toBe(201);
    return response.body;
  };

  /** The statements of one device POST whose type has `n` templates of every kind served. */
  const deviceQueries = async (n: number, site: number, role: number, maker: number): Promise<number> => {
    const type = await post('/api/dcim/device-types/', {
      manufacturer: maker,
      model: `T${n}`,
      slug: `t${n}`,
      subdevice_role: 'parent',
    });
    const names = (prefix: string, values: object = {}) =>
      Array.from({ length: n }, (_, i) => ({ device_type: type.id, name: `${prefix}${i}`, ...values }));
    await post('/api/dcim/console-port-templates/', names('con'));
    await post('/api/dcim/console-server-port-templates/', names('cs'));
    const psu = (await post('/api/dcim/power-port-templates/', names('psu'))) as { id: number }[];
    await post(
      '/api/dcim/power-outlet-templates/',
      names('out', { feed_leg: 'A' }).map((body, i) => ({ ...body, power_port: psu[i]!.id })),
    );
    await post('/api/dcim/interface-templates/', names('eth', { type: '1000base-t' }));
    await post('/api/dcim/module-bay-templates/', names('bay'));
    await post('/api/dcim/device-bay-templates/', names('slot'));
    await post('/api/dcim/inventory-item-templates/', names('item'));
    const rear = (await post('/api/dcim/rear-port-templates/', names('rear', { type: '8p8c', positions: 4 }))) as {
      id: number;
    }[];
    await post(
      '/api/dcim/front-port-templates/',
      names('front', { type: '8p8c' }).map((body, i) => ({
        ...body,
        rear_ports: [{ position: 1, rear_port: rear[i]!.id }],
      })),
    );
    const before = app.db.queryCount();
    await post('/api/dcim/devices/', { name: `D${n}`, device_type: type.id, site, role });
    return app.db.queryCount() - before;
  };

  it('costs the same statements for 2 and 20 templates of every kind', async () => {
    const site = (await post('/api/dcim/sites/', { name: 'S', slug: 's' })).id;
    const role = (await post('/api/dcim/device-roles/', { name: 'R', slug: 'r' })).id;
    const maker = (await post('/api/dcim/manufacturers/', { name: 'M', slug: 'm' })).id;
    const small = await deviceQueries(2, site, role, maker);
    const large = await deviceQueries(20, site, role, maker);
    // Which template models the type uses, in one probe; per component model: its templates read, its rows
    // inserted in one statement, their rules' reads for the batch (an outlet's power port, a bay's device type);
    // new inventory items get their tree paths in one
    // statement; the port mappings' unique checks and the ports their change records are named by cost
    // statements of their own; the stored cable paths through the mapped ports are looked up in one statement
    // (there are none: the ports are new); the change records are one statement, as many rows as the parameters
    // allow.
    expect({ small, large }).toEqual({ small: 66, large: 66 });
  });
});

/**
 * Writes, pinned exactly (the token's bookkeeping is taken out as for reads): a create is the row with what
 * the response and the change record need, its tags, the change record and one read for the response; bulk
 * writes cost statements per model, not per object.
 */
describe.each(DIALECTS)('statements of writes on %s', (dialect) => {
  let app: TestApp;
  let ids: Record<string, number>;
  beforeAll(async () => {
    // Caches kept for the whole test (signals would empty them on a change), so that counts do not depend on timing.
    app = await startTestApp(dialect, { settings: { CACHE_SECONDS: 300 } });
    const post = async (path: string, body: unknown): Promise<{ id: number }> => {
      const response = await app.api.post(path, body);
      expect(response.status, response.text).toBe(201);
      return response.body as { id: number };
    };
    await post('/api/extras/tags/', [
      { name: 'One', slug: 'one' },
      { name: 'Two', slug: 'two' },
    ]);
    const region = await post('/api/dcim/regions/', { name: 'Europe', slug: 'europe' });
    const tenant = await post('/api/tenancy/tenants/', { name: 'Acme', slug: 'acme' });
    const maker = await post('/api/dcim/manufacturers/', { name: 'Juniper', slug: 'juniper' });
    const type = await post('/api/dcim/device-types/', { manufacturer: maker.id, model: 'MX', slug: 'mx' });
    const role = await post('/api/dcim/device-roles/', { name: 'Core', slug: 'core' });
    const site = await post('/api/dcim/sites/', { name: 'Warm', slug: 'warm' });
    ids = { region: region.id, tenant: tenant.id, type: type.id, role: role.id, site: site.id };
    // Warm-up: the caches a served write uses (custom field definitions, event rules, the token).
    await post('/api/dcim/sites/', { name: 'Warm 2', slug: 'warm-2', tags: [{ slug: 'one' }] });
  });
  afterAll(async () => app?.close());

  /** Statements of one request; LOG_SQL=1 prints them. */
  const statements = async (send: () => Promise<{ status: number; text: string }>, status: number) => {
    const log: string[] = [];
    const listener = (q: { sql: string }) => log.push(q.sql);
    if (process.env.LOG_SQL) app.db.knex.on('query', listener);
    const before = app.db.queryCount();
    try {
      return await measure(send, status, before);
    } finally {
      app.db.knex.off('query', listener);
      if (process.env.LOG_SQL) console.log(log.join('\n'));
    }
  };
  const measure = async (send: () => Promise<{ status: number; text: string }>, status: number, before: number) => {
    const response = await send();
    expect(response.status, response.text).toBe(status);
    return app.db.queryCount() - before;
  };

  it('create, update and delete one object, and bulks of 100 and 1,000', async () => {
    const site = (n: string) => ({ name: `Site ${n}`, slug: `site-${n}`, region: ids.region, tenant: ids.tenant });
    const device = (n: string) => ({
      name: `Device ${n}`,
      site: ids.site,
      device_type: ids.type,
      role: ids.role,
      tenant: ids.tenant,
      tags: [{ slug: 'one' }, { slug: 'two' }],
    });
    let created = 0;
    const counts: Record<string, number> = {};
    counts.postSite = await statements(async () => {
      const r = await app.api.post('/api/dcim/sites/', { ...site('a'), tags: [{ slug: 'one' }, { slug: 'two' }] });
      created = r.body.id;
      return r;
    }, 201);
    counts.postDevice = await statements(() => app.api.post('/api/dcim/devices/', device('a')), 201);
    counts.patchSite = await statements(
      () => app.api.patch(`/api/dcim/sites/${created}/`, { description: 'changed' }),
      200,
    );
    counts.deleteSite = await statements(() => app.api.delete(`/api/dcim/sites/${created}/`), 204);
    const hundred = Array.from({ length: 100 }, (_, i) => String(i));
    const made: Record<string, number[]> = {};
    /** A bulk request's statements; the created objects' ids are kept under `name`. */
    const bulk = async (name: string, path: string, bodies: unknown[]) =>
      statements(async () => {
        const r = await app.api.post(path, bodies);
        made[name] = (r.body as { id: number }[]).map((o) => o.id);
        return r;
      }, 201);
    counts.bulkSites = await bulk('sites', '/api/dcim/sites/', hundred.map(site));
    counts.bulkDevices = await bulk('devices', '/api/dcim/devices/', hundred.map(device));
    const thousand = Array.from({ length: 1000 }, (_, i) => `k${i}`);
    counts.bulkSites1000 = await bulk('sites1000', '/api/dcim/sites/', thousand.map(site));
    counts.bulkDevices1000 = await bulk('devices1000', '/api/dcim/devices/', thousand.map(device));
    // Bulk updates: every object its own description (per-row values), then all the same status.
    const patch = (path: string, name: string, body: (id: number) => object) =>
      statements(
        () =>
          app.api.patch(
            path,
            made[name]!.map((id) => ({ id, ...body(id) })),
          ),
        200,
      );
    counts.patchSites = await patch('/api/dcim/sites/', 'sites', (id) => ({ description: `d${id}` }));
    counts.patchDevices = await patch('/api/dcim/devices/', 'devices', (id) => ({ description: `d${id}` }));
    counts.patchSites1000 = await patch('/api/dcim/sites/', 'sites1000', (id) => ({ description: `d${id}` }));
    counts.patchDevices1000 = await patch('/api/dcim/devices/', 'devices1000', (id) => ({ description: `d${id}` }));
    counts.statusDevices1000 = await patch('/api/dcim/devices/', 'devices1000', () => ({ status: 'planned' }));
    const remove = (path: string, name: string) =>
      statements(
        () =>
          app.api.delete(
            path,
            made[name]!.map((id) => ({ id })),
          ),
        204,
      );
    counts.deleteDevices = await remove('/api/dcim/devices/', 'devices');
    counts.deleteDevices1000 = await remove('/api/dcim/devices/', 'devices1000');
    counts.deleteSites = await remove('/api/dcim/sites/', 'sites');
    counts.deleteSites1000 = await remove('/api/dcim/sites/', 'sites1000');
    // BEGIN and COMMIT included. A site: its region and tenant left to the foreign keys (a missing one fails the
    // write, which runs again with the checks for NetBox's error body), its tags looked up, the row and its
    // tags inserted, the response read (the row, its region's count, tags, ASNs), the change record's
    // snapshot read and written (its ASNs are those the create wrote; an update that wrote no tags or lists takes
    // them from the snapshot before).
    // A device adds its type's row and one probe of the template models its type uses (none here). A
    // delete probes every referring table in one statement. A bulk: every statement once per model, the rows,
    // tags and change records inserted in multi-row statements (their rules see the objects before them in the
    // batch: rack space), so 1,000 objects cost a few more statements than 100 only where a statement's rows or
    // parameters run out (SQLite's INSERT takes at most 500 rows; a write's `IN` lists take 5,000 ids, the
    // response's 500). A bulk update sets its rows in one statement per set of columns changed (per-row values in
    // a CASE, 500 rows each; one UPDATE when every row takes the same values): 100 and 1,000 sites cost 114 and
    // 1,022 before. A bulk delete probes the referring tables of up to a thousand objects in one statement
    // (1,000 sites cost 55 when each referring table was read in full).
    expect(counts).toEqual({
      postSite: 12,
      postDevice: 15,
      patchSite: 12,
      deleteSite: 11,
      bulkSites: 10,
      bulkDevices: 15,
      bulkSites1000: dialect === 'sqlite' ? 16 : 14,
      bulkDevices1000: dialect === 'sqlite' ? 25 : 20,
      patchSites: 13,
      patchDevices: 14,
      patchSites1000: dialect === 'sqlite' ? 16 : 15,
      patchDevices1000: dialect === 'sqlite' ? 17 : 16,
      statusDevices1000: dialect === 'sqlite' ? 17 : 16,
      deleteDevices: 9,
      deleteDevices1000: dialect === 'sqlite' ? 10 : 9,
      deleteSites: 12,
      deleteSites1000: dialect === 'sqlite' ? 13 : 12,
    });
  });

  it('a write that an event rule wants reads its objects once for the response and the webhook body', async () => {
    const webhook = await app.api.post('/api/extras/webhooks/', {
      name: 'Counted',
      payload_url: 'http://127.0.0.1:9/',
    });
    const rule = await app.api.post('/api/extras/event-rules/', {
      name: 'Counted',
      object_types: ['dcim.site', 'dcim.device'],
      event_types: ['object_created', 'object_updated'],
      action_type: 'webhook',
      action_object_type: 'extras.webhook',
      action_object_id: webhook.body.id,
    });
    expect(rule.status, rule.text).toBe(201);
    // Warm-up: the rules are read again after the rule's own write.
    expect((await app.api.post('/api/dcim/sites/', { name: 'Ruled', slug: 'ruled' })).status).toBe(201);
    const tags = [{ slug: 'one' }, { slug: 'two' }];
    let created = 0;
    const counts = {
      postSite: await statements(async () => {
        const r = await app.api.post('/api/dcim/sites/', {
          name: 'Evented',
          slug: 'evented',
          region: ids.region,
          tags,
        });
        created = r.body.id;
        return r;
      }, 201),
      patchSite: await statements(() => app.api.patch(`/api/dcim/sites/${created}/`, { description: 'changed' }), 200),
      postDevice: await statements(
        () =>
          app.api.post('/api/dcim/devices/', {
            name: 'Evented',
            site: ids.site,
            device_type: ids.type,
            role: ids.role,
            tags,
          }),
        201,
      ),
    };
    // As without the rule, plus the tasks inserted (and on PostgreSQL scheduled with pg-boss); the objects are
    // not read again for their webhook bodies (that cost 4 more statements for a site, 5 for a device).
    expect(counts).toEqual(
      dialect === 'sqlite'
        ? { postSite: 13, patchSite: 13, postDevice: 16 }
        : { postSite: 15, patchSite: 15, postDevice: 18 },
    );
  });
});
