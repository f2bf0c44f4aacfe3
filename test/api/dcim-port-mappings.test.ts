import { beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/app.js';
import { createAll, createTestDevice, useApp, type Row } from '../support/filtersets.js';

/**
 * Front and rear ports' mappings (NetBox 4.6's PortMapping, a child list on both ports): written inline as a
 * front port's `rear_ports` or a rear port's `front_ports`, reconciled (unchanged mappings keep their row and
 * write no change record), validated, filtered by, and removed with their ports. The API cases of NetBox
 * 4.6.8 dcim/tests/test_port_mappings.py (ReconcilePortMappingsTestCase and PortMappingAPITestCase as far as
 * a client sees them: the mappings and their change records).
 */
describe.each(DIALECTS)('port mappings on %s', (dialect) => {
  const shared = useApp(dialect);
  let device: Row;
  let other: Row;
  let rear: Row[];

  beforeAll(async () => {
    const { api } = shared.app;
    device = await createTestDevice(api, 'Device 1');
    other = await createTestDevice(api, 'Device 2');
    rear = await createAll(
      api,
      '/api/dcim/rear-ports/',
      [1, 2, 3].map((i) => ({ device: device.id, name: `Rear Port ${i}`, type: '8p8c', positions: 4 })),
    );
  });

  /** The change records of port mappings since `after` (a change record id), by action. */
  const mappingChanges = async (after: number): Promise<Record<string, number>> => {
    const response = await shared.app.api.get(
      `/api/core/object-changes/?changed_object_type=dcim.portmapping&id__gt=${after}&limit=1000`,
    );
    expect(response.status, response.text).toBe(200);
    const actions: Record<string, number> = {};
    for (const change of response.body.results as Row[])
      actions[change.action.value] = (actions[change.action.value] ?? 0) + 1;
    return actions;
  };
  const lastChange = async (): Promise<number> =>
    ((await shared.app.api.get('/api/core/object-changes/?limit=1&ordering=-id')).body.results[0]?.id as number) ?? 0;

  const frontPort = async (name: string, body: Row): Promise<Row> =>
    (
      await createAll(shared.app.api, '/api/dcim/front-ports/', [{ device: device.id, name, type: '8p8c', ...body }])
    )[0]!;

  it('test_create_records_mappings_and_changelog: a front port is created with its rear ports', async () => {
    const { api } = shared.app;
    const before = await lastChange();
    const port = await frontPort('Front Port 1', {
      positions: 2,
      rear_ports: [
        { position: 2, rear_port: rear[2]!.id, rear_port_position: 2 },
        { position: 1, rear_port: rear[2]!.id },
      ],
    });
    expect(port.rear_ports).toEqual([
      { position: 1, rear_port: rear[2]!.id, rear_port_position: 1 },
      { position: 2, rear_port: rear[2]!.id, rear_port_position: 2 },
    ]);
    expect(await mappingChanges(before)).toEqual({ create: 2 });
    const rearPort = (await api.get(`/api/dcim/rear-ports/${rear[2]!.id}/`)).body as Row;
    expect(rearPort.front_ports).toEqual([
      { position: 1, front_port: port.id, front_port_position: 1 },
      { position: 2, front_port: port.id, front_port_position: 2 },
    ]);
    const change = (
      await api.get(`/api/core/object-changes/?changed_object_type=dcim.portmapping&id__gt=${before}&limit=1`)
    ).body.results[0] as Row;
    expect(change.changed_object).toEqual({
      id: change.changed_object_id,
      url: null,
      display: 'Front Port 1:1 to Rear Port 3:1',
    });
    expect(change.postchange_data).toMatchObject({ device: device.id, front_port: port.id, rear_port: rear[2]!.id });
    expect((await api.get(`/api/dcim/front-ports/?rear_port_id=${rear[2]!.id}`)).body.count).toBe(1);
    expect(
      (await api.get(`/api/dcim/rear-ports/?front_port_id=${port.id}`)).body.results.map((r: Row) => r.id),
    ).toEqual([rear[2]!.id]);
    const counted = (await api.get(`/api/dcim/devices/${device.id}/`)).body as Row;
    expect(counted.front_port_count).toBeGreaterThanOrEqual(1);
    expect((await api.delete(`/api/dcim/front-ports/${port.id}/`)).status).toBe(204);
    expect((await api.get(`/api/dcim/rear-ports/${rear[2]!.id}/`)).body.front_ports).toEqual([]);
  });

  it('reconciles: omitted lists stay, unchanged mappings write nothing, changed ones are deleted and created', async () => {
    const { api } = shared.app;
    const port = await frontPort('Front Port 2', {
      positions: 4,
      rear_ports: [
        { position: 1, rear_port: rear[0]!.id, rear_port_position: 1 },
        { position: 2, rear_port: rear[1]!.id, rear_port_position: 1 },
      ],
    });
    const url = `/api/dcim/front-ports/${port.id}/`;
    // test_update_omitting_rear_ports_preserves_mappings
    let before = await lastChange();
    let response = await api.patch(url, { description: 'Updated' });
    expect(response.status, response.text).toBe(200);
    expect(response.body.rear_ports).toEqual(port.rear_ports);
    expect(await mappingChanges(before)).toEqual({});
    // test_noop_resave_writes_nothing
    before = await lastChange();
    response = await api.patch(url, { rear_ports: port.rear_ports });
    expect(response.status, response.text).toBe(200);
    expect(await mappingChanges(before)).toEqual({});
    // test_unchanged_rows_survive_alongside_changed_rows
    before = await lastChange();
    response = await api.patch(url, {
      rear_ports: [
        { position: 1, rear_port: rear[0]!.id, rear_port_position: 1 },
        { position: 2, rear_port: rear[2]!.id, rear_port_position: 1 },
      ],
    });
    expect(response.status, response.text).toBe(200);
    expect(await mappingChanges(before)).toEqual({ delete: 1, create: 1 });
    // test_swapping_positions_preserves_constraints
    response = await api.patch(url, {
      rear_ports: [
        { position: 1, rear_port: rear[0]!.id, rear_port_position: 2 },
        { position: 2, rear_port: rear[0]!.id, rear_port_position: 1 },
      ],
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.rear_ports).toEqual([
      { position: 1, rear_port: rear[0]!.id, rear_port_position: 2 },
      { position: 2, rear_port: rear[0]!.id, rear_port_position: 1 },
    ]);
    // test_removing_a_mapping_records_delete
    before = await lastChange();
    response = await api.patch(url, { rear_ports: [{ position: 1, rear_port: rear[0]!.id, rear_port_position: 2 }] });
    expect(response.status, response.text).toBe(200);
    expect(await mappingChanges(before)).toEqual({ delete: 1 });
    // The rear port's side writes the same table.
    before = await lastChange();
    response = await api.patch(`/api/dcim/rear-ports/${rear[1]!.id}/`, {
      front_ports: [{ position: 3, front_port: port.id, front_port_position: 3 }],
    });
    expect(response.status, response.text).toBe(200);
    expect(await mappingChanges(before)).toEqual({ create: 1 });
    expect((await api.get(url)).body.rear_ports).toEqual([
      { position: 1, rear_port: rear[0]!.id, rear_port_position: 2 },
      { position: 3, rear_port: rear[1]!.id, rear_port_position: 3 },
    ]);
    expect((await api.delete(url)).status).toBe(204);
  });

  it('refuses bad mappings with the error under the list, and writes nothing', async () => {
    const { api } = shared.app;
    const [elsewhere] = await createAll(api, '/api/dcim/rear-ports/', [
      { device: other.id, name: 'Rear Port X', type: '8p8c' },
    ]);
    const post = (body: Row) =>
      api.post('/api/dcim/front-ports/', { device: device.id, name: 'Front Port 9', type: '8p8c', ...body });
    const cases: [Row, unknown][] = [
      [{ rear_ports: 'x' }, { rear_ports: ['Expected a list of items but got type "str".'] }],
      [
        { rear_ports: [{ position: 1, rear_port: 999999 }] },
        { rear_ports: [{ rear_port: ['Invalid pk "999999" - object does not exist.'] }] },
      ],
      [{ rear_ports: [{ rear_port: rear[0]!.id }] }, { rear_ports: [{ position: ['This field is required.'] }] }],
      [
        { rear_ports: [{ position: 0, rear_port: rear[0]!.id }] },
        { rear_ports: [{ position: ['Ensure this value is greater than or equal to 1.'] }] },
      ],
      [
        { rear_ports: [{ position: 1, rear_port: elsewhere!.id }] },
        { rear_ports: [{ rear_port: ['Rear port (Rear Port X) must belong to the same device'] }] },
      ],
      [
        { rear_ports: [{ position: 1, rear_port: rear[0]!.id, rear_port_position: 5 }] },
        {
          rear_ports: [
            { rear_port_position: ['Invalid rear port position (5): Rear port Rear Port 1 has only 4 positions.'] },
          ],
        },
      ],
      [
        {
          rear_ports: [
            { position: 1, rear_port: rear[0]!.id },
            { position: 2, rear_port: rear[0]!.id },
          ],
          positions: 2,
        },
        // Both items take the same rear port position: the second is refused.
        { rear_ports: [{}, { __all__: ['Port mapping with this Rear port and Rear port position already exists.'] }] },
      ],
      [
        {
          rear_ports: [
            { position: 1, rear_port: rear[0]!.id },
            { position: 2, rear_port: rear[1]!.id },
          ],
        },
        { positions: ['The number of positions cannot be less than the number of mapped rear ports (2)'] },
      ],
    ];
    for (const [body, errors] of cases) {
      const response = await post(body);
      expect(response.status, `${JSON.stringify(body)}: ${response.text}`).toBe(400);
      expect(response.body).toEqual(errors);
    }
    expect((await api.get('/api/dcim/front-ports/?name=Front Port 9')).body.count).toBe(0);
    const port = await frontPort('Front Port 8', {
      positions: 2,
      rear_ports: [
        { position: 1, rear_port: rear[0]!.id, rear_port_position: 3 },
        { position: 2, rear_port: rear[1]!.id, rear_port_position: 3 },
      ],
    });
    const response = await api.patch(`/api/dcim/front-ports/${port.id}/`, { positions: 1 });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      positions: ['The number of positions cannot be less than the number of mapped rear ports (2)'],
    });
    expect((await api.delete(`/api/dcim/front-ports/${port.id}/`)).status).toBe(204);
  });

  it('templates: front port templates map to rear port templates, counted on their type', async () => {
    const { api } = shared.app;
    const type = device.device_type.id as number;
    const [rearTemplate] = await createAll(api, '/api/dcim/rear-port-templates/', [
      { device_type: type, name: 'Rear Template 1', type: '8p8c', positions: 2 },
    ]);
    const [template] = await createAll(api, '/api/dcim/front-port-templates/', [
      {
        device_type: type,
        name: 'Front Template 1',
        type: '8p8c',
        rear_ports: [{ position: 1, rear_port: rearTemplate!.id, rear_port_position: 2 }],
      },
    ]);
    expect(template!.rear_ports).toEqual([{ position: 1, rear_port: rearTemplate!.id, rear_port_position: 2 }]);
    expect((await api.get(`/api/dcim/rear-port-templates/${rearTemplate!.id}/`)).body.front_ports).toEqual([
      { position: 2, front_port: template!.id, front_port_position: 1 },
    ]);
    expect((await api.get(`/api/dcim/front-port-templates/?rear_port_id=${rearTemplate!.id}`)).body.count).toBe(1);
    expect((await api.get(`/api/dcim/rear-port-templates/?front_port_id=${template!.id}`)).body.count).toBe(1);
    expect((await api.get(`/api/dcim/device-types/${type}/`)).body.front_port_template_count).toBe(1);
    expect((await api.get(`/api/dcim/device-types/?front_port_template_count=1`)).body.count).toBe(1);
    await api.delete(`/api/dcim/front-port-templates/${template!.id}/`);
    await api.delete(`/api/dcim/rear-port-templates/${rearTemplate!.id}/`);
  });
});
