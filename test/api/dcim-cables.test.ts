import { beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/app.js';
import { createAll, createTestDevice, useApp, type Row } from '../support/filtersets.js';
import { fillNewTables } from '../../runtime/domain/cable-store.js';

/**
 * Cables (NetBox 4.6's Cable, CableTermination, CableBundle): written with `a_terminations`/`b_terminations`
 * lists of `{object_type, object_id}`, validated as NetBox's Cable.clean and CableTermination.clean, stored as
 * cable terminations (served read-only), and read back on the cabled objects (`cable`, `cable_end`,
 * `link_peers`, `link_peers_type`, `_occupied`) and their filters.
 */
describe.each(DIALECTS)('cables on %s', (dialect) => {
  const shared = useApp(dialect);
  let device: Row;
  let other: Row;
  let ifaces: Row[];
  let peers: Row[];

  beforeAll(async () => {
    const { api } = shared.app;
    device = await createTestDevice(api, 'Cable Device 1');
    other = await createTestDevice(api, 'Cable Device 2');
    ifaces = await createAll(
      api,
      '/api/dcim/interfaces/',
      [1, 2, 3, 4, 5].map((i) => ({ device: device.id, name: `eth${i}`, type: '1000base-t' })),
    );
    peers = await createAll(
      api,
      '/api/dcim/interfaces/',
      [1, 2, 3, 4, 5].map((i) => ({ device: other.id, name: `eth${i}`, type: '1000base-t' })),
    );
  });

  const end = (...ids: number[]): Row[] => ids.map((id) => ({ object_type: 'dcim.interface', object_id: id }));

  it('creates a cable and shows it on both ends', async () => {
    const { api } = shared.app;
    const response = await api.post('/api/dcim/cables/', {
      a_terminations: end(ifaces[0]!.id),
      b_terminations: end(peers[0]!.id),
      type: 'cat6',
      label: 'C1',
      length: 3,
      length_unit: 'm',
    });
    expect(response.status, response.text).toBe(201);
    const cable = response.body as Row;
    // Each item as NetBox's GenericObjectSerializer: the type, the id and the object, nested.
    const item = (id: number, name: string): Row => ({
      ...end(id)[0],
      object: expect.objectContaining({
        id,
        name,
        display: name,
        device: expect.objectContaining({ id: expect.any(Number) }),
      }),
    });
    expect(cable.a_terminations).toEqual([item(ifaces[0]!.id, 'eth1')]);
    expect(cable.b_terminations).toEqual([item(peers[0]!.id, 'eth1')]);
    expect(cable.status).toEqual({ value: 'connected', label: 'Connected' });
    expect(cable.display).toBe('C1');
    const iface = (await api.get(`/api/dcim/interfaces/${ifaces[0]!.id}/`)).body as Row;
    expect(iface.cable).toMatchObject({ id: cable.id, label: 'C1', display: 'C1' });
    expect(iface.cable_end).toBe('A');
    expect(iface._occupied).toBe(true);
    expect(iface.link_peers_type).toBe('dcim.interface');
    expect(iface.link_peers.map((p: Row) => p.id)).toEqual([peers[0]!.id]);
    expect(iface.link_peers[0]).toMatchObject({ name: 'eth1', cable: { id: cable.id } });
    const peer = (await api.get(`/api/dcim/interfaces/${peers[0]!.id}/`)).body as Row;
    expect(peer.cable_end).toBe('B');
    const free = (await api.get(`/api/dcim/interfaces/${ifaces[4]!.id}/`)).body as Row;
    expect(free).toMatchObject({
      cable: null,
      cable_end: null,
      link_peers: [],
      link_peers_type: null,
      _occupied: false,
    });

    const terminations = (await api.get(`/api/dcim/cable-terminations/?cable_id=${cable.id}`)).body as Row;
    expect(terminations.count).toBe(2);
    expect(terminations.results[0]).toMatchObject({
      cable: { id: cable.id },
      cable_end: 'A',
      termination_type: 'dcim.interface',
      termination_id: ifaces[0]!.id,
      termination: { id: ifaces[0]!.id, name: 'eth1' },
    });
    expect((await api.post('/api/dcim/cable-terminations/', {})).status).toBe(405);

    const ids = async (query: string): Promise<number[]> => {
      const list = await api.get(`/api/dcim/interfaces/?device_id=${device.id}&${query}`);
      expect(list.status, list.text).toBe(200);
      return (list.body.results as Row[]).map((r) => r.id as number);
    };
    expect(await ids('cabled=true')).toEqual([ifaces[0]!.id]);
    expect(await ids('cabled=false')).toHaveLength(4);
    expect(await ids('occupied=true')).toEqual([ifaces[0]!.id]);
    expect(await ids(`cable_id=${cable.id}`)).toEqual([ifaces[0]!.id]);
    expect(await ids('cable_end=A')).toEqual([ifaces[0]!.id]);
    expect(await ids('cable_end=B')).toEqual([]);
    expect((await api.get('/api/dcim/interfaces/?cable_id=999999')).status).toBe(400);

    const cables = async (query: string): Promise<number[]> =>
      ((await api.get(`/api/dcim/cables/?${query}`)).body.results as Row[]).map((r) => r.id as number);
    expect(await cables(`device_id=${device.id}`)).toEqual([cable.id]);
    expect(await cables(`interface_id=${peers[0]!.id}`)).toEqual([cable.id]);
    expect(await cables(`termination_a_id=${ifaces[0]!.id}`)).toEqual([cable.id]);
    expect(await cables(`termination_b_id=${ifaces[0]!.id}`)).toEqual([]);
    expect(await cables(`site_id=${device.site.id}`)).toContain(cable.id);
    expect(await cables('termination_a_type=dcim.interface')).toContain(cable.id);
    expect(await cables('unterminated=false')).toContain(cable.id);
  });

  it('refuses what NetBox refuses', async () => {
    const { api } = shared.app;
    const refuse = async (body: Row): Promise<string> => {
      const response = await api.post('/api/dcim/cables/', body);
      expect(response.status, response.text).toBe(400);
      return response.text;
    };
    expect(await refuse({ a_terminations: end(ifaces[1]!.id) })).toContain('Must define A and B terminations');
    expect(await refuse({ a_terminations: end(ifaces[1]!.id), b_terminations: end(ifaces[1]!.id) })).toContain(
      'cannot connect to the same object',
    );
    expect(await refuse({ a_terminations: end(ifaces[0]!.id), b_terminations: end(ifaces[1]!.id) })).toContain(
      'Duplicate termination found',
    );
    expect(
      await refuse({ a_terminations: end(ifaces[1]!.id), b_terminations: end(peers[1]!.id), length: 2 }),
    ).toContain('Must specify a unit');
    const console = await createAll(api, '/api/dcim/console-ports/', [{ device: device.id, name: 'con0' }]);
    expect(
      await refuse({
        a_terminations: end(ifaces[1]!.id),
        b_terminations: [{ object_type: 'dcim.consoleport', object_id: console[0]!.id }],
      }),
    ).toContain('Incompatible termination types: interface and consoleport');
    const [lag] = await createAll(api, '/api/dcim/interfaces/', [{ device: device.id, name: 'lag9', type: 'lag' }]);
    expect(await refuse({ a_terminations: end(lag!.id), b_terminations: end(peers[1]!.id) })).toContain(
      'Cables cannot be terminated to Link Aggregation Group (LAG) interfaces',
    );
    await api.patch(`/api/dcim/interfaces/${ifaces[3]!.id}/`, { mark_connected: true });
    expect(await refuse({ a_terminations: end(ifaces[3]!.id), b_terminations: end(peers[3]!.id) })).toContain(
      'because it is marked as connected',
    );
    expect(
      await refuse({
        a_terminations: [{ object_type: 'dcim.interface', object_id: 987654 }],
        b_terminations: end(peers[1]!.id),
      }),
    ).toContain('987654');
    expect(await refuse({ a_terminations: 'x', b_terminations: end(peers[1]!.id) })).toContain('Expected a list');
  });

  it('updates a cable end and deletes a cable', async () => {
    const { api } = shared.app;
    const [bundle] = await createAll(api, '/api/dcim/cable-bundles/', [{ name: 'Bundle 1' }]);
    const created = await api.post('/api/dcim/cables/', {
      a_terminations: end(ifaces[1]!.id),
      b_terminations: end(peers[1]!.id),
      bundle: bundle!.id,
    });
    expect(created.status, created.text).toBe(201);
    const cable = created.body as Row;
    expect(cable.display).toBe(`#${cable.id}`);
    expect(cable.bundle).toMatchObject({ id: bundle!.id, name: 'Bundle 1' });
    expect((await api.get(`/api/dcim/cable-bundles/${bundle!.id}/`)).body.cable_count).toBe(1);
    const patched = await api.patch(`/api/dcim/cables/${cable.id}/`, {
      b_terminations: end(peers[2]!.id, peers[4]!.id),
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.b_terminations).toMatchObject(end(peers[2]!.id, peers[4]!.id));
    expect((await api.get(`/api/dcim/interfaces/${peers[1]!.id}/`)).body.cable).toBeNull();
    const iface = (await api.get(`/api/dcim/interfaces/${ifaces[1]!.id}/`)).body as Row;
    expect(iface.link_peers.map((p: Row) => p.id)).toEqual([peers[2]!.id, peers[4]!.id]);
    const changes = await api.get(`/api/core/object-changes/?changed_object_type=dcim.cabletermination&limit=100`);
    expect(changes.body.count).toBeGreaterThanOrEqual(4);
    expect((await api.delete(`/api/dcim/cables/${cable.id}/`)).status).toBe(204);
    expect((await api.get(`/api/dcim/interfaces/${ifaces[1]!.id}/`)).body.cable).toBeNull();
    expect((await api.get(`/api/dcim/cable-terminations/?cable_id=${cable.id}`)).status).toBe(400);
  });

  it('traces connected endpoints through two patch panels', async () => {
    const { api } = shared.app;
    const panel = async (owner: Row, name: string): Promise<{ rear: Row; fronts: Row[] }> => {
      const [rearPort] = await createAll(api, '/api/dcim/rear-ports/', [
        { device: owner.id, name: `${name} rear`, type: 'lc', positions: 2 },
      ]);
      const fronts = await createAll(
        api,
        '/api/dcim/front-ports/',
        [1, 2].map((i) => ({
          device: owner.id,
          name: `${name} front ${i}`,
          type: 'lc',
          rear_ports: [{ position: 1, rear_port: rearPort!.id, rear_port_position: i }],
        })),
      );
      return { rear: rearPort!, fronts };
    };
    const one = await panel(device, 'P1');
    const two = await panel(other, 'P2');
    const cable = async (a: Row[], b: Row[]): Promise<Row> => {
      const response = await api.post('/api/dcim/cables/', { a_terminations: a, b_terminations: b });
      expect(response.status, response.text).toBe(201);
      return response.body as Row;
    };
    const port = (type: string, id: number): Row[] => [{ object_type: type, object_id: id }];
    await cable(end(ifaces[2]!.id), port('dcim.frontport', one.fronts[1]!.id));
    const trunk = await cable(port('dcim.rearport', one.rear.id), port('dcim.rearport', two.rear.id));
    await cable(port('dcim.frontport', two.fronts[1]!.id), end(peers[3]!.id));
    const near = (await api.get(`/api/dcim/interfaces/${ifaces[2]!.id}/`)).body as Row;
    expect(near.connected_endpoints_type).toBe('dcim.interface');
    expect(near.connected_endpoints.map((e: Row) => e.id)).toEqual([peers[3]!.id]);
    expect(near.connected_endpoints_reachable).toBe(true);
    const far = (await api.get(`/api/dcim/interfaces/${peers[3]!.id}/`)).body as Row;
    expect(far.connected_endpoints.map((e: Row) => e.id)).toEqual([ifaces[2]!.id]);
    const unconnected = (await api.get(`/api/dcim/interfaces/${ifaces[4]!.id}/`)).body as Row;
    expect(unconnected).toMatchObject({
      connected_endpoints: null,
      connected_endpoints_type: null,
      connected_endpoints_reachable: false,
    });
    const trace = await api.get(`/api/dcim/interfaces/${ifaces[2]!.id}/trace/`);
    expect(trace.status, trace.text).toBe(200);
    const hops = trace.body as [Row[], Row, Row[]][];
    expect(hops).toHaveLength(3);
    expect(hops.map(([near, , far]) => [near.map((n) => n.name), far.map((n) => n.name)])).toEqual([
      [['eth3'], ['P1 front 2']],
      [['P1 rear'], ['P2 rear']],
      [['P2 front 2'], ['eth4']],
    ]);
    expect(hops[1]![1]).toMatchObject({ id: trunk.id, status: { value: 'connected', label: 'Connected' } });
    expect((await api.get(`/api/dcim/interfaces/${ifaces[4]!.id}/trace/`)).body).toEqual([]);

    // paths/ on the pass-through ports: the paths from both ends cross the rear ports and the used front ports.
    const paths = async (path: string): Promise<Row[]> => {
      const response = await api.get(path);
      expect(response.status, response.text).toBe(200);
      return response.body as Row[];
    };
    const throughRear = await paths(`/api/dcim/rear-ports/${one.rear.id}/paths/`);
    expect(throughRear).toHaveLength(2);
    expect(throughRear[0]).toMatchObject({
      id: expect.any(Number),
      is_active: true,
      is_complete: true,
      is_split: false,
    });
    const names = (p: Row): string[][] => (p.path as Row[][]).map((s) => s.map((n) => String(n.display)));
    expect(throughRear.map((p) => names(p)[0]![0]).sort()).toEqual(['eth3', 'eth4']);
    const fromNear = throughRear.find((p) => (p.path as Row[][])[0]![0]!.id === ifaces[2]!.id)!;
    expect((fromNear.path as Row[][]).map((s) => s.map((n) => n.id))[4]).toEqual([trunk.id]);
    expect((fromNear.path as Row[][])[0]![0]).toMatchObject({ name: 'eth3', device: { id: device.id } });
    expect((fromNear.path as Row[][]).at(-1)![0]).toMatchObject({ name: 'eth4' });
    expect(await paths(`/api/dcim/front-ports/${two.fronts[1]!.id}/paths/`)).toHaveLength(2);
    expect(await paths(`/api/dcim/front-ports/${one.fronts[0]!.id}/paths/`)).toEqual([]);
    expect((await api.get('/api/dcim/front-ports/999999/paths/')).status).toBe(404);

    // A database from before stored paths: the migration run that creates their table traces its cables.
    const { db, schema } = shared.app.context;
    const tables = ['dcim.cablepathnode', 'dcim.cablepath'].map((label) => schema.model(label).table);
    for (const table of tables) await db.knex(table).delete();
    const farEnds = async (): Promise<unknown> =>
      ((await api.get(`/api/dcim/interfaces/${ifaces[2]!.id}/`)).body as Row).connected_endpoints;
    expect(await farEnds()).toBeNull();
    await db.knex.transaction((trx) => fillNewTables(schema, db.dialect)(trx, new Set(tables)));
    expect(await farEnds()).toEqual([expect.objectContaining({ id: peers[3]!.id })]);

    // dcim/connected-device/: the device at the far end of a peer interface's complete path.
    const located = await api.get(
      `/api/dcim/connected-device/?peer_device=${encodeURIComponent(String(other.name))}&peer_interface=eth4`,
    );
    expect(located.status, located.text).toBe(200);
    expect(located.body).toMatchObject({ id: device.id, name: device.name, site: { id: device.site.id } });
    expect(located.body.device_type).toMatchObject({ id: device.device_type.id });
    const locate = async (query: string): Promise<{ status: number; body: Row }> => {
      const response = await api.get(`/api/dcim/connected-device/?${query}`);
      return { status: response.status, body: response.body as Row };
    };
    expect(await locate(`peer_device=${encodeURIComponent(String(other.name))}`)).toEqual({
      status: 400,
      body: { detail: 'Request must include "peer_device" and "peer_interface" filters.' },
    });
    expect(await locate('peer_device=nonesuch&peer_interface=eth4')).toEqual({
      status: 404,
      body: { detail: 'No Device matches the given query.' },
    });
    expect(await locate(`peer_device=${encodeURIComponent(String(other.name))}&peer_interface=eth99`)).toEqual({
      status: 404,
      body: { detail: 'No Interface matches the given query.' },
    });
    expect(await locate(`peer_device=${encodeURIComponent(String(other.name))}&peer_interface=eth5`)).toEqual({
      status: 404,
      body: { detail: 'Not found.' },
    });
    expect((await api.get('/api/dcim/')).body['connected-device']).toMatch(/\/api\/dcim\/connected-device\/$/);
    expect((await api.post('/api/dcim/connected-device/', {})).status).toBe(405);

    // connected: a complete, active path (eth1 ↔ eth1 directly, eth3 ↔ eth4 through the panels).
    const connected = async (value: string): Promise<number[]> => {
      const response = await api.get(`/api/dcim/interfaces/?device_id=${device.id}&connected=${value}&limit=100`);
      expect(response.status, response.text).toBe(200);
      return (response.body.results as Row[]).map((r) => r.id as number);
    };
    expect(await connected('true')).toEqual([ifaces[0]!.id, ifaces[2]!.id]);
    expect(await connected('false')).not.toContain(ifaces[2]!.id);
    expect((await api.get('/api/dcim/interfaces/?connected=maybe')).status).toBe(400);

    // A planned trunk makes the path inactive; removing it leaves the path incomplete.
    expect((await api.patch(`/api/dcim/cables/${trunk.id}/`, { status: 'planned' })).status).toBe(200);
    expect((await api.get(`/api/dcim/interfaces/${ifaces[2]!.id}/`)).body.connected_endpoints_reachable).toBe(false);
    expect(await connected('true')).toEqual([ifaces[0]!.id]);
    expect((await paths(`/api/dcim/rear-ports/${one.rear.id}/paths/`))[0]).toMatchObject({ is_active: false });
    expect((await api.delete(`/api/dcim/cables/${trunk.id}/`)).status).toBe(204);
    const cut = (await api.get(`/api/dcim/interfaces/${ifaces[2]!.id}/`)).body as Row;
    expect(cut.connected_endpoints).toBeNull();
    const list = await api.get(`/api/dcim/interfaces/?device_id=${device.id}&limit=100`);
    expect(list.status, list.text).toBe(200);
  });

  it('lists the paths across a circuit on its terminations', async () => {
    const { api } = shared.app;
    const post = async (path: string, body: Row): Promise<Row> => {
      const response = await api.post(path, body);
      expect(response.status, response.text).toBe(201);
      return response.body as Row;
    };
    const provider = await post('/api/circuits/providers/', { name: 'Paths Transit', slug: 'paths-transit' });
    const type = await post('/api/circuits/circuit-types/', { name: 'Paths Wave', slug: 'paths-wave' });
    const circuit = await post('/api/circuits/circuits/', { cid: 'PATH-1', provider: provider.id, type: type.id });
    const side = (term_side: string, owner: Row): Promise<Row> =>
      post('/api/circuits/circuit-terminations/', {
        circuit: circuit.id,
        term_side,
        termination_type: 'dcim.site',
        termination_id: owner.site.id,
      });
    const [a, z] = [await side('A', device), await side('Z', other)];
    const [near, far] = await createAll(api, '/api/dcim/interfaces/', [
      { device: device.id, name: 'wan0', type: '10gbase-x-sfpp' },
      { device: other.id, name: 'wan0', type: '10gbase-x-sfpp' },
    ]);
    const term = (id: number): Row[] => [{ object_type: 'circuits.circuittermination', object_id: id }];
    await post('/api/dcim/cables/', { a_terminations: end(near!.id), b_terminations: term(a.id) });
    const paths = async (id: number): Promise<Row[]> => {
      const response = await api.get(`/api/circuits/circuit-terminations/${id}/paths/`);
      expect(response.status, response.text).toBe(200);
      return response.body as Row[];
    };
    // Only the A side is cabled: one path, from wan0 through the circuit to the far termination's site (as
    // NetBox, a path that ends at a site is not complete; one that ends at a provider network is).
    const [alone] = await paths(a.id);
    expect(alone).toMatchObject({ is_complete: false, is_active: true, is_split: false });
    expect((alone!.path as Row[][]).at(-1)!.map((n) => n.id)).toEqual([other.site.id]);
    await post('/api/dcim/cables/', { a_terminations: term(z.id), b_terminations: end(far!.id) });
    const both = await paths(z.id);
    expect(both).toHaveLength(2);
    expect(both.map((p) => (p.path as Row[][]).at(-1)![0]!.id).sort()).toEqual([near!.id, far!.id].sort());
    expect(
      (
        await api.get(
          `/api/dcim/connected-device/?peer_device=${encodeURIComponent(String(other.name))}&peer_interface=wan0`,
        )
      ).body.id,
    ).toBe(device.id);
  });
});
