import http from 'node:http';
import { requestJson } from './http-client.js';
import type { SeedRefs } from './site-body.js';

/** How many devices and config contexts the device seed creates. */
export interface DeviceSeedSize {
  devices: number;
  contexts: number;
  /** Devices per bulk POST. */
  chunk: number;
}

/** What the device seed created and how long it took. */
export interface DeviceSeedResult {
  deviceIds: number[];
  totalMs: number;
}

/**
 * Seeds devices the way an inventory looks: two manufacturers, five device types, a role tree, a platform
 * tree, devices spread over the seeded sites, each in a rack of its own with a tenant, two tags, two
 * interfaces and a primary IPv4 address on the first, then config contexts whose criteria
 * (every role, every platform, every top-level region, every tenant, every tag, or none) match every device,
 * so that each device's config context merges all of them.
 */
export async function seedDevices(
  port: number,
  authorization: string,
  refs: SeedRefs,
  siteIds: readonly number[],
  size: DeviceSeedSize,
): Promise<DeviceSeedResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const post = <T>(path: string, body: unknown): Promise<T> =>
    requestJson<T>(agent, port, 'POST', path, { authorization }, 201, body);
  const ids = (objects: { id: number }[]): number[] => objects.map((o) => o.id);
  const started = performance.now();
  try {
    const manufacturers = ids(
      await post('/api/dcim/manufacturers/', [
        { name: 'Juniper', slug: 'juniper' },
        { name: 'Arista', slug: 'arista' },
      ]),
    );
    const parentPlatforms = ids(
      await post(
        '/api/dcim/platforms/',
        manufacturers.map((m, i) => ({ name: `OS ${i + 1}`, slug: `os-${i + 1}`, manufacturer: m })),
      ),
    );
    const childPlatforms = ids(
      await post(
        '/api/dcim/platforms/',
        range(3).map((i) => ({
          name: `OS 1.${i + 1}`,
          slug: `os-1-${i + 1}`,
          manufacturer: manufacturers[0],
          parent: parentPlatforms[0],
        })),
      ),
    );
    const types = ids(
      await post(
        '/api/dcim/device-types/',
        range(5).map((i) => ({
          manufacturer: manufacturers[i % 2],
          model: `Model ${i + 1}`,
          slug: `model-${i + 1}`,
          u_height: 1 + (i % 2),
        })),
      ),
    );
    const rootRole = ids(await post('/api/dcim/device-roles/', [{ name: 'Network', slug: 'network' }]));
    const childRoles = ids(
      await post(
        '/api/dcim/device-roles/',
        ['Core', 'Edge', 'Leaf', 'Spine'].map((name) => ({ name, slug: name.toLowerCase(), parent: rootRole[0] })),
      ),
    );
    const roles = [...rootRole, ...childRoles];
    const platforms = [...parentPlatforms, ...childPlatforms];

    // One rack per device, at the device's site.
    const siteOf = (i: number): number => siteIds[(i * 7) % siteIds.length]!;
    const rackIds: number[] = [];
    for (let start = 0; start < size.devices; start += size.chunk) {
      const bodies = range(Math.min(size.chunk, size.devices - start)).map((k) => ({
        name: `Rack ${start + k + 1}`,
        site: siteOf(start + k),
      }));
      rackIds.push(...ids(await post('/api/dcim/racks/', bodies)));
    }

    const deviceIds: number[] = [];
    for (let start = 0; start < size.devices; start += size.chunk) {
      const bodies = range(Math.min(size.chunk, size.devices - start)).map((k) => {
        const i = start + k;
        // A platform of the type's manufacturer: the first manufacturer's types take OS 1 or one of its children.
        const type = i % types.length;
        const platform = type % 2 === 0 ? platforms[[0, 2, 3, 4][i % 4]!] : platforms[1];
        return {
          name: `device-${String(i).padStart(5, '0')}`,
          device_type: types[type],
          role: roles[i % roles.length],
          platform,
          site: siteOf(i),
          rack: rackIds[i],
          tenant: refs.tenantIds[i % refs.tenantIds.length],
          serial: `SN${String(i).padStart(8, '0')}`,
          tags: [refs.tagIds[i % refs.tagIds.length], refs.tagIds[(i + 1) % refs.tagIds.length]],
          local_context_data: i % 10 === 0 ? { local: { seq: i } } : null,
        };
      });
      deviceIds.push(...ids(await post('/api/dcim/devices/', bodies)));
    }

    // Two interfaces per device; the first holds the device's primary IPv4 address.
    const patch = <T>(path: string, body: unknown): Promise<T> =>
      requestJson<T>(agent, port, 'PATCH', path, { authorization }, 200, body);
    for (let start = 0; start < deviceIds.length; start += size.chunk) {
      const chunk = deviceIds.slice(start, start + size.chunk);
      const interfaces = ids(
        await post(
          '/api/dcim/interfaces/',
          chunk.flatMap((device) => [
            { device, name: 'eth0', type: '1000base-t' },
            { device, name: 'eth1', type: '1000base-t' },
          ]),
        ),
      );
      const addresses = ids(
        await post(
          '/api/ipam/ip-addresses/',
          chunk.map((_, k) => {
            const n = start + k;
            return {
              address: `10.${Math.floor(n / 250) % 250}.${n % 250}.1/24`,
              assigned_object_type: 'dcim.interface',
              assigned_object_id: interfaces[2 * k],
            };
          }),
        ),
      );
      await patch(
        '/api/dcim/devices/',
        chunk.map((id, k) => ({ id, primary_ip4: addresses[k] })),
      );
    }

    const topRegions = refs.regionIds.slice(0, Math.max(1, Math.floor(refs.regionIds.length / 4)));
    const tagSlugs = refs.tagIds.map((_, i) => `tag-${i + 1}`);
    const criteria = [
      {},
      { roles },
      { platforms: parentPlatforms },
      { regions: topRegions },
      { tenants: refs.tenantIds },
      { tags: tagSlugs },
    ];
    await post(
      '/api/extras/config-contexts/',
      range(size.contexts).map((i) => ({
        name: `context-${String(i + 1).padStart(2, '0')}`,
        weight: 1000 + (i % 5) * 10,
        ...criteria[i % criteria.length],
        data: contextData(i),
      })),
    );
    return { deviceIds, totalMs: performance.now() - started };
  } finally {
    agent.destroy();
  }
}

/** A context's data: shared keys that later contexts override, nested ones that merge, and one of its own. */
function contextData(i: number): Record<string, unknown> {
  return {
    ntp: { servers: [`10.0.${i}.1`, `10.0.${i}.2`], prefer: i % 2 === 0 },
    syslog: { [`collector-${i % 4}`]: { host: `192.0.2.${i}`, port: 514, facility: 'local7' } },
    snmp: { community: `public-${i}`, location: `Rack ${i}` },
    dns: [`198.51.100.${i}`],
    [`feature_${i}`]: { enabled: true, level: i },
  };
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
