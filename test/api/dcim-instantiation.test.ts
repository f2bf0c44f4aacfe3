import { beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/app.js';
import { createAll, useApp, type Row } from '../support/filtersets.js';

/**
 * NetBox 4.6.8 dcim/tests/test_models.py DeviceTestCase.test_device_creation, for the components served here:
 * a new device gets a component of every template of its type, with the template's values, a custom field's
 * default, and the relations between them (an outlet's power port, a front port's rear port) pointing at the
 * device's own components. Also the rules that tie a component to others of its device.
 */
describe.each(DIALECTS)('device components from templates on %s', (dialect) => {
  const shared = useApp(dialect);

  let objects: { site: Row; type: Row; role: Row };
  beforeAll(async () => {
    objects = await world();
  });
  const world = async () => {
    const { api } = shared.app;
    const [site] = await createAll(api, '/api/dcim/sites/', [{ name: 'Test Site 1', slug: 'test-site-1' }]);
    const [manufacturer] = await createAll(api, '/api/dcim/manufacturers/', [
      { name: 'Test Manufacturer 1', slug: 'test-manufacturer-1' },
    ]);
    const [type] = await createAll(api, '/api/dcim/device-types/', [
      { manufacturer: manufacturer!.id, model: 'Test Device Type 1', slug: 'test-device-type-1' },
    ]);
    const [role] = await createAll(api, '/api/dcim/device-roles/', [{ name: 'Test Role 1', slug: 'test-role-1' }]);
    return { site: site!, type: type!, role: role! };
  };

  it('test_device_creation', async () => {
    const { api } = shared.app;
    const { site, type, role } = objects;
    const models = [
      'consoleport',
      'consoleserverport',
      'powerport',
      'poweroutlet',
      'interface',
      'frontport',
      'rearport',
    ];
    await createAll(api, '/api/extras/custom-fields/', [
      { name: 'cf1', type: 'text', default: 'foo', object_types: models.map((m) => `dcim.${m}`) },
    ]);
    const device_type = type.id;
    await createAll(api, '/api/dcim/console-port-templates/', [{ device_type, name: 'Console Port 1' }]);
    await createAll(api, '/api/dcim/console-server-port-templates/', [{ device_type, name: 'Console Server Port 1' }]);
    const [powerPort] = await createAll(api, '/api/dcim/power-port-templates/', [
      { device_type, name: 'Power Port 1', maximum_draw: 1000, allocated_draw: 500 },
    ]);
    await createAll(api, '/api/dcim/power-outlet-templates/', [
      { device_type, name: 'Power Outlet 1', power_port: powerPort!.id, feed_leg: 'A' },
    ]);
    await createAll(api, '/api/dcim/interface-templates/', [
      { device_type, name: 'Interface 1', type: '1000base-t', mgmt_only: true },
    ]);
    const [rearPort] = await createAll(api, '/api/dcim/rear-port-templates/', [
      { device_type, name: 'Rear Port 1', type: '8p8c', positions: 8 },
    ]);
    await createAll(api, '/api/dcim/front-port-templates/', [
      {
        device_type,
        name: 'Front Port 1',
        type: '8p8c',
        rear_ports: [{ position: 1, rear_port: rearPort!.id, rear_port_position: 2 }],
      },
    ]);

    const [device] = await createAll(api, '/api/dcim/devices/', [
      { site: site.id, device_type, role: role.id, name: 'Test Device 1' },
    ]);
    const only = async (list: string, params: string): Promise<Row> => {
      const response = await api.get(`/api/dcim/${list}/?device_id=${device!.id}&${params}`);
      expect(response.status, response.text).toBe(200);
      expect(response.body.count, `${list} ${params}`).toBe(1);
      const object = response.body.results[0] as Row;
      expect(object.custom_fields.cf1).toBe('foo');
      return object;
    };
    await only('console-ports', 'name=Console Port 1');
    await only('console-server-ports', 'name=Console Server Port 1');
    const port = await only('power-ports', 'name=Power Port 1&maximum_draw=1000&allocated_draw=500');
    await only('power-outlets', `name=Power Outlet 1&power_port_id=${port.id}&feed_leg=A&status=enabled`);
    await only('interfaces', 'name=Interface 1&type=1000base-t&mgmt_only=true');
    const rear = await only('rear-ports', 'name=Rear Port 1&type=8p8c&positions=8');
    // create_port_mappings: the template mapping becomes the mapping between the device's own ports.
    const front = await only('front-ports', `name=Front Port 1&type=8p8c&rear_port_id=${rear.id}`);
    expect(front.rear_ports).toEqual([{ position: 1, rear_port: rear.id, rear_port_position: 2 }]);
    expect(rear.front_ports).toEqual([{ position: 2, front_port: front.id, front_port_position: 1 }]);

    const counted = (await api.get(`/api/dcim/devices/${device!.id}/`)).body as Row;
    expect(counted).toMatchObject({
      console_port_count: 1,
      console_server_port_count: 1,
      power_port_count: 1,
      power_outlet_count: 1,
      interface_count: 1,
      front_port_count: 1,
      rear_port_count: 1,
    });
    const typed = (await api.get(`/api/dcim/device-types/${device_type}/`)).body as Row;
    expect(typed).toMatchObject({
      console_port_template_count: 1,
      console_server_port_template_count: 1,
      power_port_template_count: 1,
      power_outlet_template_count: 1,
      interface_template_count: 1,
      front_port_template_count: 1,
      rear_port_template_count: 1,
    });
  });

  it("a template's bridge becomes the bridge between the device's interfaces (update_interface_bridges)", async () => {
    const { api } = shared.app;
    const { site, role } = objects;
    const [manufacturer] = (await api.get('/api/dcim/manufacturers/?limit=1')).body.results as Row[];
    const [type] = await createAll(api, '/api/dcim/device-types/', [
      { manufacturer: manufacturer!.id, model: 'Bridged', slug: 'bridged' },
    ]);
    const [br0] = await createAll(api, '/api/dcim/interface-templates/', [
      { device_type: type!.id, name: 'br0', type: 'bridge' },
    ]);
    await createAll(api, '/api/dcim/interface-templates/', [
      { device_type: type!.id, name: 'eth0', type: '1000base-t', bridge: br0!.id },
      { device_type: type!.id, name: 'eth1', type: '1000base-t', bridge: br0!.id },
    ]);
    const devices = await createAll(
      api,
      '/api/dcim/devices/',
      [1, 2].map((i) => ({ site: site.id, device_type: type!.id, role: role.id, name: `Bridged ${i}` })),
    );
    for (const device of devices) {
      const interfaces = (await api.get(`/api/dcim/interfaces/?device_id=${device.id}&ordering=name`)).body
        .results as Row[];
      const bridge = interfaces.find((i) => i.name === 'br0')!;
      expect(interfaces.map((i) => [i.name, i.bridge?.id ?? null])).toEqual([
        ['br0', null],
        ['eth0', bridge.id],
        ['eth1', bridge.id],
      ]);
    }
  });

  it("a power outlet's power port belongs to its device (PowerOutlet.clean)", async () => {
    const { api } = shared.app;
    const { site, type, role } = objects;
    const devices = await createAll(
      api,
      '/api/dcim/devices/',
      ['A', 'B'].map((name) => ({ site: site.id, device_type: type.id, role: role.id, name: `Outlet Device ${name}` })),
    );
    const [port] = await createAll(api, '/api/dcim/power-ports/', [{ device: devices[1]!.id, name: 'PSU' }]);
    const response = await api.post('/api/dcim/power-outlets/', {
      device: devices[0]!.id,
      name: 'Outlet',
      power_port: port!.id,
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ __all__: [`Parent power port (PSU) must belong to the same device`] });
  });

  it('a power port allocates no more than its maximum draw (PowerPort.clean)', async () => {
    const { api } = shared.app;
    const [device] = (await api.get('/api/dcim/devices/?limit=1')).body.results as Row[];
    const response = await api.post('/api/dcim/power-ports/', {
      device: device!.id,
      name: 'Overdrawn',
      maximum_draw: 100,
      allocated_draw: 200,
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ allocated_draw: ['Allocated draw cannot exceed the maximum draw (100W).'] });
  });
});

/**
 * NetBox 4.6.8 dcim/tests/test_models.py VCPositionTokenTestCase: `{vc_position}` (and `{vc_position:X}`) in a
 * device type's or module type's template becomes the device's virtual chassis position, or the fallback.
 * Each test gets its own device type and module type (NetBox's rolls back between tests).
 */
describe.each(DIALECTS)('{vc_position} in templates on %s', (dialect) => {
  const shared = useApp(dialect);
  let site: Row;
  let role: Row;
  let manufacturer: Row;
  beforeAll(async () => {
    const { api } = shared.app;
    site = (await createAll(api, '/api/dcim/sites/', [{ name: 'Test Site 1', slug: 'test-site-1' }]))[0]!;
    manufacturer = (
      await createAll(api, '/api/dcim/manufacturers/', [{ name: 'Test Manufacturer 1', slug: 'test-manufacturer-1' }])
    )[0]!;
    role = (await createAll(api, '/api/dcim/device-roles/', [{ name: 'Test Role 1', slug: 'test-role-1' }]))[0]!;
  });

  let serial = 0;
  /** A new device type and module type, and a device of the type (in a new virtual chassis at `position`). */
  async function scenario(templates: {
    device?: Row[];
    module?: Row[];
    position?: number;
  }): Promise<{ device: Row; install: () => Promise<void> }> {
    const { api } = shared.app;
    serial += 1;
    const [device_type] = await createAll(api, '/api/dcim/device-types/', [
      { manufacturer: manufacturer.id, model: `Device Type ${serial}`, slug: `device-type-${serial}` },
    ]);
    const [module_type] = await createAll(api, '/api/dcim/module-types/', [
      { manufacturer: manufacturer.id, model: `Module Type ${serial}` },
    ]);
    for (const template of templates.device ?? [])
      await createAll(api, '/api/dcim/interface-templates/', [{ device_type: device_type!.id, ...template }]);
    for (const template of templates.module ?? [])
      await createAll(api, '/api/dcim/interface-templates/', [{ module_type: module_type!.id, ...template }]);
    const chassis =
      templates.position === undefined
        ? {}
        : {
            virtual_chassis: (await createAll(api, '/api/dcim/virtual-chassis/', [{ name: `Test VC ${serial}` }]))[0]!
              .id,
            vc_position: templates.position,
          };
    const [device] = await createAll(api, '/api/dcim/devices/', [
      { name: `Device ${serial}`, device_type: device_type!.id, role: role.id, site: site.id, ...chassis },
    ]);
    const install = async () => {
      const [bay] = await createAll(api, '/api/dcim/module-bays/', [
        { device: device!.id, name: 'Bay 1', position: '1' },
      ]);
      await createAll(api, '/api/dcim/modules/', [
        { device: device!.id, module_bay: bay!.id, module_type: module_type!.id },
      ]);
    };
    return { device: device!, install };
  }

  async function interfacesOf(device: Row): Promise<Row[]> {
    return (await shared.app.api.get(`/api/dcim/interfaces/?device_id=${device.id}&ordering=name`)).body
      .results as Row[];
  }
  const namesOf = async (device: Row) => (await interfacesOf(device)).map((i) => i.name);
  const ge = { name: 'ge-{vc_position}/{module}/0', type: '1000base-t' };

  it('test_vc_position_token_in_vc', async () => {
    const { device, install } = await scenario({ module: [ge], position: 8 });
    await install();
    expect(await namesOf(device)).toEqual(['ge-8/1/0']);
  });
  it('test_vc_position_token_not_in_vc_default_fallback', async () => {
    const { device, install } = await scenario({ module: [ge] });
    await install();
    expect(await namesOf(device)).toEqual(['ge-0/1/0']);
  });
  it('test_vc_position_token_explicit_fallback', async () => {
    const { device, install } = await scenario({ module: [{ ...ge, name: 'ge-{vc_position:18}/{module}/0' }] });
    await install();
    expect(await namesOf(device)).toEqual(['ge-18/1/0']);
  });
  it('test_vc_position_token_explicit_fallback_ignored_when_in_vc', async () => {
    const { device, install } = await scenario({
      module: [{ ...ge, name: 'ge-{vc_position:99}/{module}/0' }],
      position: 2,
    });
    await install();
    expect(await namesOf(device)).toEqual(['ge-2/1/0']);
  });
  it('test_vc_position_token_device_type_template', async () => {
    const { device } = await scenario({ device: [{ ...ge, name: 'ge-{vc_position:0}/0/0' }], position: 3 });
    expect(await namesOf(device)).toEqual(['ge-3/0/0']);
  });
  it('test_vc_position_token_device_type_template_not_in_vc', async () => {
    const { device } = await scenario({ device: [{ ...ge, name: 'ge-{vc_position:0}/0/0' }] });
    expect(await namesOf(device)).toEqual(['ge-0/0/0']);
  });
  it('test_vc_position_token_label_resolution', async () => {
    const { device, install } = await scenario({
      module: [{ ...ge, label: 'Member {vc_position:0} / Slot {module}' }],
      position: 2,
    });
    await install();
    const [interface_] = await interfacesOf(device);
    expect([interface_!.name, interface_!.label]).toEqual(['ge-2/1/0', 'Member 2 / Slot 1']);
  });
  it('test_vc_position_token_interface_bridge_device_type_template', async () => {
    const { api } = shared.app;
    const { device: first } = await scenario({});
    const type = (first.device_type as Row).id;
    const [bridge] = await createAll(api, '/api/dcim/interface-templates/', [
      { device_type: type, name: 'br-{vc_position}', type: 'bridge' },
    ]);
    await createAll(api, '/api/dcim/interface-templates/', [
      { device_type: type, name: 'ge-{vc_position}/0/1', type: '1000base-t', bridge: bridge!.id },
    ]);
    const [chassis] = await createAll(api, '/api/dcim/virtual-chassis/', [{ name: 'Test VC bridge' }]);
    const [device] = await createAll(api, '/api/dcim/devices/', [
      {
        name: 'Device VC 5',
        device_type: type,
        role: role.id,
        site: site.id,
        virtual_chassis: chassis!.id,
        vc_position: 5,
      },
    ]);
    const interfaces = await interfacesOf(device!);
    const br = interfaces.find((i) => i.name === 'br-5')!;
    expect(interfaces.find((i) => i.name === 'ge-5/0/1')!.bridge).toMatchObject({ id: br.id });
  });
  it('test_vc_position_token_port_mapping_device_type_template', async () => {
    const { api } = shared.app;
    const { device: first } = await scenario({});
    const type = (first.device_type as Row).id;
    const [rear] = await createAll(api, '/api/dcim/rear-port-templates/', [
      { device_type: type, name: 'rp-{vc_position}/1', type: 'lc', positions: 1 },
    ]);
    await createAll(api, '/api/dcim/front-port-templates/', [
      {
        device_type: type,
        name: 'fp-{vc_position}/1',
        type: 'lc',
        positions: 1,
        rear_ports: [{ position: 1, rear_port: rear!.id, rear_port_position: 1 }],
      },
    ]);
    const [chassis] = await createAll(api, '/api/dcim/virtual-chassis/', [{ name: 'Test VC ports' }]);
    const [device] = await createAll(api, '/api/dcim/devices/', [
      {
        name: 'Device VC 6',
        device_type: type,
        role: role.id,
        site: site.id,
        virtual_chassis: chassis!.id,
        vc_position: 6,
      },
    ]);
    const front = (await api.get(`/api/dcim/front-ports/?device_id=${device!.id}`)).body.results as Row[];
    const rearPorts = (await api.get(`/api/dcim/rear-ports/?device_id=${device!.id}`)).body.results as Row[];
    expect(front.map((p) => p.name)).toEqual(['fp-6/1']);
    expect(rearPorts.map((p) => p.name)).toEqual(['rp-6/1']);
    expect(front[0]!.rear_ports).toEqual([{ position: 1, rear_port: rearPorts[0]!.id, rear_port_position: 1 }]);
  });
});
