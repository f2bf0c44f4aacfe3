import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/** `dcim/racks/{id}/elevation/`: the units of a rack with their devices, as JSON pages or as an SVG drawing. */
describe.each(DIALECTS)('rack elevation on %s', (dialect) => {
  let app: TestApp;
  const id: Record<string, number> = {};
  const create = async (path: string, body: unknown): Promise<Record<string, any>> => {
    const response = await app.api.post(path, body);
    expect(response.status, response.text).toBe(201);
    return response.body;
  };

  beforeAll(async () => {
    app = await startTestApp(dialect);
    id.site = (await create('/api/dcim/sites/', { name: 'Elevation site', slug: 'elevation-site' })).id;
    id.rack = (await create('/api/dcim/racks/', { name: 'Rack E', site: id.site })).id;
    const manufacturer = await create('/api/dcim/manufacturers/', { name: 'Elev maker', slug: 'elev-maker' });
    id.type2u = (
      await create('/api/dcim/device-types/', {
        manufacturer: manufacturer.id,
        model: '2U box',
        slug: '2u',
        u_height: 2,
      })
    ).id;
    id.half = (
      await create('/api/dcim/device-types/', {
        manufacturer: manufacturer.id,
        model: 'Half depth',
        slug: 'half',
        u_height: 1,
        is_full_depth: false,
      })
    ).id;
    id.role = (await create('/api/dcim/device-roles/', { name: 'Elev role', slug: 'elev-role', color: 'ff0000' })).id;
    const device = (body: Record<string, unknown>) =>
      create('/api/dcim/devices/', { role: id.role, site: id.site, rack: id.rack, ...body });
    id.big = (await device({ name: 'Device A', device_type: id.type2u, position: 40, face: 'front' })).id;
    id.rear = (await device({ name: 'Rear only', device_type: id.half, position: 10, face: 'rear' })).id;
  });
  afterAll(async () => app?.close());

  const url = () => `/api/dcim/racks/${id.rack}/elevation/`;

  it('lists every half unit top to bottom and finds units by number or name (NetBox test_get_rack_elevation)', async () => {
    const all = await app.api.get(url());
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(84);
    expect(all.body.results).toHaveLength(50);
    expect(all.body.next).toContain('offset=50');
    expect(all.body.results.slice(0, 2).map((u: any) => [u.id, u.name])).toEqual([
      [42.5, 'U42.5'],
      [42, 'U42'],
    ]);
    expect((await app.api.get(`${url()}?q=3`)).body.count).toBe(26);
    expect((await app.api.get(`${url()}?q=U3`)).body.count).toBe(22);
    expect((await app.api.get(`${url()}?q=U10`)).body.count).toBe(2);
    const last = await app.api.get(`${url()}?limit=10&offset=80`);
    expect(last.body.results.map((u: any) => u.name)).toEqual(['U2.5', 'U2', 'U1.5', 'U1']);
  });

  it('names the device on every unit it occupies, on its face (full-depth devices on both)', async () => {
    const front = (await app.api.get(`${url()}?limit=0`)).body.results as any[];
    const unit = (name: string) => front.find((u) => u.name === name);
    expect(unit('U40')).toMatchObject({
      device: { id: id.big, name: 'Device A' },
      occupied: true,
      description: 'Device A',
      face: { value: 'front', label: 'Front' },
      display: 'U40',
    });
    expect(unit('U41.5').device.id).toBe(id.big);
    expect(unit('U39')).toMatchObject({ device: null, occupied: false, description: null });
    expect(unit('U10')).toMatchObject({ device: null, occupied: false });
    const rear = (await app.api.get(`${url()}?face=rear&limit=0`)).body.results as any[];
    expect(rear.find((u) => u.name === 'U10').device.id).toBe(id.rear);
    expect(rear.find((u) => u.name === 'U40').device.id).toBe(id.big);
    const compact = (await app.api.get(`${url()}?expand_devices=false&limit=0`)).body.results as any[];
    expect(compact.filter((u) => u.device).map((u) => u.name)).toEqual(['U40']);
    const excluded = (await app.api.get(`${url()}?exclude=${id.big}&limit=0`)).body.results as any[];
    expect(excluded.some((u) => u.occupied)).toBe(false);
  });

  it('refuses invalid parameters with 400 and unknown racks with 404', async () => {
    const bad = await app.api.get(`${url()}?face=top&unit_width=wide&expand_devices=maybe`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({
      face: ['"top" is not a valid choice.'],
      unit_width: ['A valid integer is required.'],
      expand_devices: ['Must be a valid boolean.'],
    });
    expect((await app.api.get('/api/dcim/racks/999999/elevation/')).status).toBe(404);
    expect((await app.api.post(url(), {})).status).toBe(405);
  });

  it('draws the elevation as SVG (NetBox test_get_rack_elevation_svg)', async () => {
    const svg = await app.api.get(`${url()}?render=svg`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.text).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="269" height="928"/);
    expect(svg.text).toContain(`href="${app.baseUrl}/dcim/devices/${id.big}/"`);
    expect(svg.text).toContain('style="fill: #ff0000"');
    expect(svg.text).toContain('>Device A</text>');
    expect(svg.text).not.toContain('Rear only');
    const rear = await app.api.get(`${url()}?render=svg&face=rear&unit_height=10`);
    expect(rear.text).toContain('>Rear only</text>');
    expect(rear.text).toContain('height="424"');
  });

  it('shows devices the user may not view as occupied but unnamed', async () => {
    const user = await create('/api/users/users/', { username: 'rack-viewer', password: 'Rack-Password-1' });
    const token = await create('/api/users/tokens/', { user: user.id });
    await create('/api/users/permissions/', {
      name: 'racks only',
      object_types: ['dcim.rack'],
      actions: ['view'],
      users: [user.id],
    });
    const client = app.api.as(`Bearer svc_${token.key}.${token.token}`);
    const units = (await client.get(`${url()}?limit=0`)).body.results as any[];
    expect(units.find((u) => u.name === 'U40')).toMatchObject({ device: null, occupied: true, description: null });
    const svg = await client.get(`${url()}?render=svg`);
    expect(svg.text).toContain('class="blocked"');
    expect(svg.text).not.toContain('Device A');
  });
});
