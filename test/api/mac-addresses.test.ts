import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registry } from '../../generated/index.js';
import { connectDatabase } from '../../runtime/db/connect.js';
import { migrate } from '../../runtime/db/migrate.js';
import { createTestDatabase, DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/**
 * MAC addresses (NetBox 4.2+): assigned to device and VM interfaces, an interface's primary MAC address one of
 * its own, its `mac_address` the primary's; NetBox's rules on reassigning a primary, deleting either side, the
 * MAC address filters of devices, VMs and interfaces, and the migration that made the interface column rows.
 */
describe.each(DIALECTS)('MAC addresses on %s', (dialect) => {
  let app: TestApp;
  const id: Record<string, number> = {};
  const macs = '/api/dcim/mac-addresses/';
  const interfaces = '/api/dcim/interfaces/';
  const vmInterfaces = '/api/virtualization/interfaces/';

  const create = async (path: string, body: unknown): Promise<any> => {
    const response = await app.api.post(path, body);
    expect(response.status, response.text).toBe(201);
    return response.body;
  };
  const get = async (path: string): Promise<any> => {
    const response = await app.api.get(path);
    expect(response.status, response.text).toBe(200);
    return response.body;
  };
  const names = async (path: string, key = 'name'): Promise<unknown[]> =>
    ((await get(path)).results as Record<string, unknown>[]).map((o) => o[key]);
  const mac = (address: string, type: string | null, object: number | null | undefined): Promise<any> =>
    create(macs, { mac_address: address, assigned_object_type: type, assigned_object_id: object ?? null });

  beforeAll(async () => {
    app = await startTestApp(dialect);
    const site = await create('/api/dcim/sites/', { name: 'Site 1', slug: 'site-1' });
    const manufacturer = await create('/api/dcim/manufacturers/', { name: 'Acme', slug: 'acme' });
    const type = await create('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'T1', slug: 't1' });
    const role = await create('/api/dcim/device-roles/', { name: 'Switch', slug: 'switch' });
    const devices = await create('/api/dcim/devices/', [
      { name: 'sw1', site: site.id, device_type: type.id, role: role.id },
      { name: 'sw2', site: site.id, device_type: type.id, role: role.id },
    ]);
    [id.sw1, id.sw2] = devices.map((d: { id: number }) => d.id);
    const ifaces = await create(interfaces, [
      { device: id.sw1, name: 'eth0', type: '1000base-t' },
      { device: id.sw1, name: 'eth1', type: '1000base-t' },
      { device: id.sw2, name: 'eth0', type: '1000base-t' },
    ]);
    [id.eth0, id.eth1, id.sw2eth0] = ifaces.map((i: { id: number }) => i.id);
    const vm = await create('/api/virtualization/virtual-machines/', { name: 'vm1', site: site.id });
    id.vm1 = vm.id;
    id.ens0 = (await create(vmInterfaces, { virtual_machine: vm.id, name: 'ens0' })).id;
    id.a = (await mac('00-00-00-00-00-0a', 'dcim.interface', id.eth0)).id;
    id.b = (await mac('00:00:00:00:00:0B', 'dcim.interface', id.eth0)).id;
    id.c = (await mac('0000.0000.000c', 'dcim.interface', id.sw2eth0)).id;
    id.v = (await mac('52:54:00:00:00:01', 'virtualization.vminterface', id.ens0)).id;
    id.free = (await mac('00:00:00:00:00:ff', null, null)).id;
  });
  afterAll(async () => app?.close());

  it('serves NetBox’s representation, the address in its canonical form', async () => {
    const a = await get(`${macs}${id.a}/`);
    expect(Object.keys(a)).toEqual([
      'id',
      'url',
      'display_url',
      'display',
      'mac_address',
      'assigned_object_type',
      'assigned_object_id',
      'assigned_object',
      'description',
      'owner',
      'comments',
      'tags',
      'custom_fields',
      'created',
      'last_updated',
    ]);
    expect(a).toMatchObject({
      display: '00:00:00:00:00:0A',
      mac_address: '00:00:00:00:00:0A',
      assigned_object_type: 'dcim.interface',
      assigned_object_id: id.eth0,
      assigned_object: { id: id.eth0, name: 'eth0', device: { id: id.sw1, name: 'sw1' } },
    });
    expect(await names(`${macs}?brief=1`, 'mac_address')).toEqual([
      '00:00:00:00:00:0A',
      '00:00:00:00:00:0B',
      '00:00:00:00:00:0C',
      '00:00:00:00:00:FF',
      '52:54:00:00:00:01',
    ]);
    expect((await app.api.post(macs, { mac_address: '00:00:00:00:00' })).body).toEqual({
      mac_address: ['Enter a valid MAC address.'],
    });
  });

  it('lists an interface’s MAC addresses and shows its primary one’s address', async () => {
    const before = await get(`${interfaces}${id.eth0}/`);
    expect(before.mac_address).toBeNull();
    expect(before.primary_mac_address).toBeNull();
    expect(before.mac_addresses).toEqual([
      {
        id: id.a,
        url: `${app.baseUrl}${macs}${id.a}/`,
        display: '00:00:00:00:00:0A',
        mac_address: '00:00:00:00:00:0A',
        description: '',
      },
      expect.objectContaining({ id: id.b }),
    ]);
    const set = await app.api.patch(`${interfaces}${id.eth0}/`, { primary_mac_address: id.b });
    expect(set.status, set.text).toBe(200);
    expect(set.body.mac_address).toBe('00:00:00:00:00:0B');
    expect(set.body.primary_mac_address).toEqual({
      id: id.b,
      url: `${app.baseUrl}${macs}${id.b}/`,
      display: '00:00:00:00:00:0B',
      mac_address: '00:00:00:00:00:0B',
      description: '',
    });
    // `mac_address` is read-only: writing it changes nothing.
    const ignored = await app.api.patch(`${interfaces}${id.eth0}/`, { mac_address: '11:11:11:11:11:11' });
    expect(ignored.body.mac_address).toBe('00:00:00:00:00:0B');
    const vm = await app.api.patch(`${vmInterfaces}${id.ens0}/`, { primary_mac_address: id.v });
    expect(vm.status, vm.text).toBe(200);
    expect(vm.body.mac_address).toBe('52:54:00:00:00:01');
    expect(vm.body.mac_addresses).toEqual([expect.objectContaining({ id: id.v, mac_address: '52:54:00:00:00:01' })]);
  });

  it('takes as primary only a MAC address of the interface itself, or an unassigned one, once', async () => {
    const other = await app.api.patch(`${interfaces}${id.eth1}/`, { primary_mac_address: id.c });
    expect(other.status).toBe(400);
    expect(other.body).toEqual({
      primary_mac_address: ['MAC address 00:00:00:00:00:0C is assigned to a different interface (eth0).'],
    });
    // A VM interface's MAC address is another interface too, even with the same id.
    const vm = await app.api.patch(`${vmInterfaces}${id.ens0}/`, { primary_mac_address: id.a });
    expect(vm.body).toEqual({
      primary_mac_address: ['MAC address 00:00:00:00:00:0A is assigned to a different interface (eth0).'],
    });
    const created = await app.api.post(interfaces, {
      device: id.sw2,
      name: 'eth9',
      type: '1000base-t',
      primary_mac_address: id.c,
    });
    expect(created.status).toBe(400);
    const free = await app.api.patch(`${interfaces}${id.eth1}/`, { primary_mac_address: id.free });
    expect(free.status, free.text).toBe(200);
    expect(free.body.mac_address).toBe('00:00:00:00:00:FF');
    const twice = await app.api.patch(`${interfaces}${id.sw2eth0}/`, { primary_mac_address: id.free });
    expect(twice.status).toBe(400);
    expect(Object.keys(twice.body)).toEqual(['primary_mac_address']);
    const cleared = await app.api.patch(`${interfaces}${id.eth1}/`, { primary_mac_address: null });
    expect(cleared.body.mac_address).toBeNull();
  });

  it('keeps a primary MAC address on its interface; others move freely', async () => {
    const moved = await app.api.patch(`${macs}${id.b}/`, { assigned_object_id: id.eth1 });
    expect(moved.status).toBe(400);
    expect(moved.body).toEqual({
      non_field_errors: ['Cannot reassign MAC Address while it is designated as the primary MAC for an object'],
    });
    const unassigned = await app.api.patch(`${macs}${id.b}/`, { assigned_object_type: null, assigned_object_id: null });
    expect(unassigned.body).toEqual({
      non_field_errors: ['Cannot unassign MAC Address while it is designated as the primary MAC for an object'],
    });
    const described = await app.api.patch(`${macs}${id.b}/`, { description: 'primary' });
    expect(described.status, described.text).toBe(200);
    const other = await app.api.patch(`${macs}${id.a}/`, { assigned_object_id: id.eth1 });
    expect(other.status, other.text).toBe(200);
    expect((await get(`${interfaces}${id.eth1}/`)).mac_addresses.map((m: { id: number }) => m.id)).toEqual([id.a]);
  });

  it('filters MAC addresses, and interfaces, devices and VMs by their MAC addresses', async () => {
    const only = (query: string) => names(`${macs}?limit=0&${query}`, 'mac_address');
    expect(await only('mac_address=00-00-00-00-00-0a&mac_address=0000.0000.000b')).toEqual([
      '00:00:00:00:00:0A',
      '00:00:00:00:00:0B',
    ]);
    expect(await only('mac_address__ic=0c')).toEqual(['00:00:00:00:00:0C']);
    expect(await only(`device_id=${id.sw2}`)).toEqual(['00:00:00:00:00:0C']);
    expect(await only('device=sw1')).toEqual(['00:00:00:00:00:0A', '00:00:00:00:00:0B']);
    expect(await only(`virtual_machine_id=${id.vm1}`)).toEqual(['52:54:00:00:00:01']);
    expect(await only('virtual_machine=vm1')).toEqual(['52:54:00:00:00:01']);
    expect(await only(`interface_id=${id.eth1}`)).toEqual(['00:00:00:00:00:0A']);
    expect(await only(`vminterface_id=${id.ens0}`)).toEqual(['52:54:00:00:00:01']);
    expect(await only('assigned=false')).toEqual(['00:00:00:00:00:FF']);
    expect(await only('primary=true')).toEqual(['00:00:00:00:00:0B', '52:54:00:00:00:01']);
    expect(await only('primary=false')).toEqual(['00:00:00:00:00:0A', '00:00:00:00:00:0C', '00:00:00:00:00:FF']);
    expect(await only('q=0b')).toEqual(['00:00:00:00:00:0B']);
    expect((await app.api.get(`${macs}?mac_address=nope`)).status).toBe(400);
    expect((await app.api.get(`${macs}?device_id=x`)).status).toBe(400);

    expect(await names(`${interfaces}?mac_address=00:00:00:00:00:0a`)).toEqual(['eth1']);
    expect(await names(`${interfaces}?device_id=${id.sw1}&mac_address__n=00:00:00:00:00:0a`)).toEqual(['eth0']);
    expect(await names(`${interfaces}?primary_mac_address_id=${id.b}`)).toEqual(['eth0']);
    expect(await names(`${interfaces}?primary_mac_address=00:00:00:00:00:0B`)).toEqual(['eth0']);
    expect(await names(`/api/dcim/devices/?mac_address=00:00:00:00:00:0c`)).toEqual(['sw2']);
    expect(await names(`/api/virtualization/virtual-machines/?mac_address=52:54:00:00:00:01`)).toEqual(['vm1']);
    expect(await names(`${vmInterfaces}?primary_mac_address_id=${id.v}`)).toEqual(['ens0']);
  });

  it('clears the primary when its MAC address goes, and takes an interface’s MAC addresses with it', async () => {
    expect((await app.api.delete(`${macs}${id.v}/`)).status).toBe(204);
    const vm = await get(`${vmInterfaces}${id.ens0}/`);
    expect(vm.primary_mac_address).toBeNull();
    expect(vm.mac_address).toBeNull();
    expect(vm.mac_addresses).toEqual([]);
    expect((await app.api.delete(`${interfaces}${id.eth0}/`)).status).toBe(204);
    expect((await app.api.get(`${macs}${id.b}/`)).status).toBe(404);
    expect((await get(`${macs}${id.a}/`)).assigned_object_id).toBe(id.eth1);
  });
});

describe.each(DIALECTS)('the migration of interface MAC addresses on %s', (dialect) => {
  it('makes each interface’s MAC address a MAC address object, assigned to it and its primary', async () => {
    const database = await createTestDatabase(dialect);
    const db = connectDatabase(database.url);
    try {
      const index = registry.migrations.findIndex((m) => m.ops.some((op) => op.op === 'moveToRows'));
      expect(index).toBeGreaterThan(0);
      await migrate(db, registry.migrations.slice(0, index));
      // The rows stand alone: their devices and machines do not matter to the migration.
      const insert = async (q: Knex): Promise<void> => {
        await q('dcim_interface').insert([
          { id: 1, device_id: 1, name: 'eth0', type: '1000base-t', mac_address: 'AA:BB:CC:00:00:01' },
          { id: 2, device_id: 1, name: 'eth1', type: '1000base-t', mac_address: null },
          { id: 3, device_id: 1, name: 'eth2', type: '1000base-t', mac_address: 'AA:BB:CC:00:00:03' },
        ]);
        await q('virtualization_vminterface').insert([
          { id: 1, virtual_machine_id: 1, name: 'ens0', mac_address: '52:54:00:00:00:01' },
        ]);
      };
      if (dialect === 'postgres') {
        await db.knex.transaction(async (trx) => {
          await trx.raw('SET LOCAL session_replication_role = replica');
          await insert(trx);
        });
      } else {
        await db.knex.raw('PRAGMA foreign_keys = OFF');
        await insert(db.knex);
      }
      await migrate(db, registry.migrations);
      const rows = (await db
        .knex('dcim_macaddress')
        .orderBy('id')
        .select('id', 'mac_address', 'assigned_object_type', 'assigned_object_id', 'created')) as Record<
        string,
        unknown
      >[];
      expect(rows.map(({ created, ...row }) => ({ ...row, id: Number(row.id), stamped: created !== null }))).toEqual([
        {
          id: 1,
          mac_address: 'AA:BB:CC:00:00:01',
          assigned_object_type: 'dcim.interface',
          assigned_object_id: 1,
          stamped: true,
        },
        {
          id: 2,
          mac_address: 'AA:BB:CC:00:00:03',
          assigned_object_type: 'dcim.interface',
          assigned_object_id: 3,
          stamped: true,
        },
        {
          id: 3,
          mac_address: '52:54:00:00:00:01',
          assigned_object_type: 'virtualization.vminterface',
          assigned_object_id: 1,
          stamped: true,
        },
      ]);
      const links = async (table: string) =>
        ((await db.knex(table).orderBy('id').select('id', 'primary_mac_address_id')) as Record<string, unknown>[]).map(
          (r) => [Number(r.id), r.primary_mac_address_id === null ? null : Number(r.primary_mac_address_id)],
        );
      expect(await links('dcim_interface')).toEqual([
        [1, 1],
        [2, null],
        [3, 2],
      ]);
      expect(await links('virtualization_vminterface')).toEqual([[1, 3]]);
    } finally {
      await db.close();
      await database.drop();
    }
  });
});
