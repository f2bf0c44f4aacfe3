import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/**
 * Provider accounts and networks, circuit groups, virtual circuits and VLAN translation policies as a client sees
 * them: nested accounts, group assignments and rules, display texts, NetBox's clean() rules, and protected objects.
 */
describe.each(DIALECTS)('provider networks, circuit groups and virtual circuits on %s', (dialect) => {
  let app: TestApp;
  const id: Record<string, number> = {};

  const create = async (path: string, body: Record<string, unknown>): Promise<Record<string, any>> => {
    const response = await app.api.post(path, body);
    expect(response.status, response.text).toBe(201);
    return response.body;
  };
  const get = async (path: string): Promise<Record<string, any>> => {
    const response = await app.api.get(path);
    expect(response.status, response.text).toBe(200);
    return response.body;
  };

  beforeAll(async () => {
    app = await startTestApp(dialect);
    id.lumen = (await create('/api/circuits/providers/', { name: 'Lumen', slug: 'lumen' })).id;
    id.arelion = (await create('/api/circuits/providers/', { name: 'Arelion', slug: 'arelion' })).id;
    id.billing = (await create('/api/circuits/provider-accounts/', { provider: id.lumen, account: '1001' })).id;
    id.ops = (
      await create('/api/circuits/provider-accounts/', { provider: id.lumen, account: '0999', name: 'Ops' })
    ).id;
    id.other = (await create('/api/circuits/provider-accounts/', { provider: id.arelion, account: '42' })).id;
    id.mpls = (await create('/api/circuits/provider-networks/', { provider: id.lumen, name: 'MPLS' })).id;
    id.type = (await create('/api/circuits/circuit-types/', { name: 'Transit', slug: 'transit' })).id;
    id.circuit = (await create('/api/circuits/circuits/', { cid: 'L-1', provider: id.lumen, type: id.type })).id;
    id.vctype = (await create('/api/circuits/virtual-circuit-types/', { name: 'EVPL', slug: 'evpl' })).id;
    id.vc = (
      await create('/api/circuits/virtual-circuits/', { cid: 'VC-1', provider_network: id.mpls, type: id.vctype })
    ).id;
    id.group = (await create('/api/circuits/circuit-groups/', { name: 'Backbone', slug: 'backbone' })).id;
  });
  afterAll(async () => app?.close());

  it("nests a provider's accounts, ordered by account, and shows an account with its name", async () => {
    const lumen = await get(`/api/circuits/providers/${id.lumen}/`);
    expect(lumen.accounts.map((a: { display: string }) => a.display)).toEqual(['0999 (Ops)', '1001']);
    expect(Object.keys(lumen.accounts[0])).toEqual(['id', 'url', 'display_url', 'display', 'name', 'account']);
  });

  it("keeps a provider's account names unique when given", async () => {
    await create('/api/circuits/provider-accounts/', { provider: id.lumen, account: '2000' });
    const twice = await app.api.post('/api/circuits/provider-accounts/', {
      provider: id.lumen,
      account: '3000',
      name: 'Ops',
    });
    expect(twice.status).toBe(400);
    expect(twice.body).toEqual({
      __all__: ['Constraint “circuits_provideraccount_unique_provider_name” is violated.'],
    });
    await create('/api/circuits/provider-accounts/', { provider: id.arelion, account: '3000', name: 'Ops' });
  });

  it("refuses a circuit or virtual circuit whose account is another provider's", async () => {
    const circuit = await app.api.post('/api/circuits/circuits/', {
      cid: 'L-2',
      provider: id.lumen,
      provider_account: id.other,
      type: id.type,
    });
    expect(circuit.status).toBe(400);
    expect(circuit.body).toEqual({ provider_account: ['The assigned account must belong to the assigned provider.'] });
    const virtual = await app.api.post('/api/circuits/virtual-circuits/', {
      cid: 'VC-2',
      provider_network: id.mpls,
      provider_account: id.other,
      type: id.vctype,
    });
    expect(virtual.status).toBe(400);
    expect(virtual.body).toEqual({
      provider_account: ['The assigned account must belong to the provider of the assigned network.'],
    });
  });

  it('terminates a circuit at a provider network, which then cannot be deleted', async () => {
    const termination = await create('/api/circuits/circuit-terminations/', {
      circuit: id.circuit,
      term_side: 'Z',
      termination_type: 'circuits.providernetwork',
      termination_id: id.mpls,
    });
    expect(termination.termination).toMatchObject({ id: id.mpls, display: 'MPLS' });
    const list = await get(`/api/circuits/circuit-terminations/?provider_network_id=${id.mpls}`);
    expect(list.count).toBe(1);
    expect((await get(`/api/circuits/circuits/?provider_network_id=${id.mpls}`)).count).toBe(1);
    const deleted = await app.api.delete(`/api/circuits/provider-networks/${id.mpls}/`);
    expect(deleted.status).toBe(409);
  });

  it("nests a circuit's group assignments and shows an assignment with its priority", async () => {
    const assignment = await create('/api/circuits/circuit-group-assignments/', {
      group: id.group,
      member_type: 'circuits.circuit',
      member_id: id.circuit,
      priority: 'primary',
    });
    expect(assignment.display).toBe('Backbone (Primary)');
    expect(assignment.member).toMatchObject({ id: id.circuit, display: 'L-1' });
    const onVirtual = await create('/api/circuits/circuit-group-assignments/', {
      group: id.group,
      member_type: 'circuits.virtualcircuit',
      member_id: id.vc,
    });
    expect(onVirtual.display).toBe('Backbone');
    const circuit = await get(`/api/circuits/circuits/${id.circuit}/`);
    expect(circuit.assignments).toEqual([
      {
        id: assignment.id,
        url: assignment.url,
        display: 'Backbone (Primary)',
        group: assignment.group,
        priority: { value: 'primary', label: 'Primary' },
      },
    ]);
    expect((await get(`/api/circuits/circuit-groups/${id.group}/`)).circuit_count).toBe(2);
    expect((await get(`/api/circuits/circuit-group-assignments/?q=VC-1`)).count).toBe(1);
    expect((await get(`/api/circuits/circuit-group-assignments/?provider=lumen`)).count).toBe(2);
    expect((await get(`/api/circuits/circuit-group-assignments/?provider_id=${id.arelion}`)).count).toBe(0);
    expect((await app.api.get('/api/circuits/circuit-group-assignments/?provider_id=x')).status).toBe(400);
    const twice = await app.api.post('/api/circuits/circuit-group-assignments/', {
      group: id.group,
      member_type: 'circuits.circuit',
      member_id: id.circuit,
    });
    expect(twice.status).toBe(400);
  });

  it('terminates a virtual circuit only at a virtual interface', async () => {
    const manufacturer = await create('/api/dcim/manufacturers/', { name: 'Acme', slug: 'acme' });
    const type = await create('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'R1', slug: 'r1' });
    const role = await create('/api/dcim/device-roles/', { name: 'Router', slug: 'router' });
    const site = await create('/api/dcim/sites/', { name: 'PAR1', slug: 'par1' });
    const device = await create('/api/dcim/devices/', {
      name: 'r1',
      device_type: type.id,
      role: role.id,
      site: site.id,
    });
    const physical = await create('/api/dcim/interfaces/', { device: device.id, name: 'eth0', type: '1000base-t' });
    const sub = await create('/api/dcim/interfaces/', {
      device: device.id,
      name: 'eth0.9',
      type: 'virtual',
      parent: physical.id,
    });
    const refused = await app.api.post('/api/circuits/virtual-circuit-terminations/', {
      virtual_circuit: id.vc,
      interface: physical.id,
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      __all__: ['Virtual circuits may be terminated only to virtual interfaces.'],
    });
    const termination = await create('/api/circuits/virtual-circuit-terminations/', {
      virtual_circuit: id.vc,
      interface: sub.id,
    });
    expect(termination.display).toBe('VC-1: Peer termination');
    expect(termination.role).toEqual({ value: 'peer', label: 'Peer' });
    expect((await get(`/api/dcim/interfaces/?virtual_circuit_id=${id.vc}`)).results.map((i: any) => i.id)).toEqual([
      sub.id,
    ]);
    expect((await get(`/api/dcim/interfaces/?virtual_circuit_termination_id=${termination.id}`)).count).toBe(1);
  });

  it("nests a VLAN translation policy's rules and links the policy from an interface", async () => {
    const policy = await create('/api/ipam/vlan-translation-policies/', { name: 'Carrier' });
    await create('/api/ipam/vlan-translation-rules/', { policy: policy.id, local_vid: 200, remote_vid: 2200 });
    const first = await create('/api/ipam/vlan-translation-rules/', {
      policy: policy.id,
      local_vid: 100,
      remote_vid: 2100,
    });
    expect(first.display).toBe('100 -> 2100 (Carrier)');
    const again = await app.api.post('/api/ipam/vlan-translation-rules/', {
      policy: policy.id,
      local_vid: 300,
      remote_vid: 2100,
    });
    expect(again.status).toBe(400);
    const shown = await get(`/api/ipam/vlan-translation-policies/${policy.id}/`);
    expect(shown.rules.map((r: { display: string }) => r.display)).toEqual([
      '100 -> 2100 (Carrier)',
      '200 -> 2200 (Carrier)',
    ]);
    expect(shown.rules[0].policy).toMatchObject({ id: policy.id, name: 'Carrier' });
    expect((await get('/api/ipam/vlan-translation-rules/?q=2200')).count).toBe(1);
    const [device] = (await get('/api/dcim/devices/?name=r1')).results;
    const port = await create('/api/dcim/interfaces/', {
      device: device.id,
      name: 'eth1',
      type: '1000base-t',
      vlan_translation_policy: policy.id,
    });
    expect(port.vlan_translation_policy).toEqual({
      id: policy.id,
      url: policy.url,
      display: 'Carrier',
      name: 'Carrier',
      description: '',
    });
    expect((await get('/api/dcim/interfaces/?vlan_translation_policy=Carrier')).count).toBe(1);
    expect((await app.api.delete(`/api/ipam/vlan-translation-policies/${policy.id}/`)).status).toBe(409);
  });
});
