import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/**
 * Application services and service templates (NetBox 4.6's ipam.Service and ipam.ServiceTemplate): a protocol
 * and ports, on a device or a virtual machine, optionally bound to IP addresses; shown and ordered by port.
 */
describe.each(DIALECTS)('services on %s', (dialect) => {
  let app: TestApp;
  const id: Record<string, number> = {};
  const create = async (path: string, body: unknown): Promise<Record<string, any>> => {
    const response = await app.api.post(path, body);
    expect(response.status, response.text).toBe(201);
    return response.body;
  };
  const names = async (query: string): Promise<string[]> => {
    const response = await app.api.get(`/api/ipam/services/?${query}`);
    expect(response.status, response.text).toBe(200);
    return response.body.results.map((s: any) => s.name);
  };

  beforeAll(async () => {
    app = await startTestApp(dialect);
    const site = await create('/api/dcim/sites/', { name: 'Svc site', slug: 'svc-site' });
    const manufacturer = await create('/api/dcim/manufacturers/', { name: 'Svc maker', slug: 'svc-maker' });
    const type = await create('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'M', slug: 'm' });
    const role = await create('/api/dcim/device-roles/', { name: 'Svc role', slug: 'svc-role' });
    id.device = (
      await create('/api/dcim/devices/', { name: 'web1', device_type: type.id, role: role.id, site: site.id })
    ).id;
    const clusterType = await create('/api/virtualization/cluster-types/', { name: 'Svc ct', slug: 'svc-ct' });
    const cluster = await create('/api/virtualization/clusters/', { name: 'Svc cluster', type: clusterType.id });
    id.vm = (await create('/api/virtualization/virtual-machines/', { name: 'vm1', cluster: cluster.id })).id;
    id.ip = (await create('/api/ipam/ip-addresses/', { address: '192.0.2.10/24' })).id;
  });
  afterAll(async () => app?.close());

  it('creates services on devices and VMs, shown as name (PROTOCOL/ports) and ordered by protocol and lowest port', async () => {
    const ssh = await create('/api/ipam/services/', {
      parent_object_type: 'dcim.device',
      parent_object_id: id.device,
      name: 'SSH',
      protocol: 'tcp',
      ports: [22],
      ipaddresses: [id.ip],
    });
    expect(Object.keys(ssh)).toEqual([
      'id',
      'url',
      'display_url',
      'display',
      'parent_object_type',
      'parent_object_id',
      'parent',
      'name',
      'protocol',
      'ports',
      'ipaddresses',
      'description',
      'owner',
      'comments',
      'tags',
      'custom_fields',
      'created',
      'last_updated',
    ]);
    expect(ssh).toMatchObject({
      display: 'SSH (TCP/22)',
      protocol: { value: 'tcp', label: 'TCP' },
      parent: { id: id.device, name: 'web1' },
      ipaddresses: [{ id: id.ip, address: '192.0.2.10/24' }],
    });
    await create('/api/ipam/services/', {
      parent_object_type: 'virtualization.virtualmachine',
      parent_object_id: id.vm,
      name: 'Web',
      protocol: 'tcp',
      ports: [443, 80, 81, 82],
    });
    const dns = await create('/api/ipam/services/', {
      parent_object_type: 'dcim.device',
      parent_object_id: id.device,
      name: 'DNS',
      protocol: 'udp',
      ports: [53],
    });
    expect((await app.api.get(`/api/ipam/services/?name=Web`)).body.results[0].display).toBe('Web (TCP/80-82, 443)');
    expect(await names('')).toEqual(['SSH', 'Web', 'DNS']);
    expect((await app.api.get(`/api/ipam/services/${dns.id}/?brief=1`)).body).toEqual({
      id: dns.id,
      url: `${app.baseUrl}/api/ipam/services/${dns.id}/`,
      display: 'DNS (UDP/53)',
      name: 'DNS',
      protocol: { value: 'udp', label: 'UDP' },
      ports: [53],
      description: '',
    });
  });

  it('filters by parent, port, address and protocol', async () => {
    expect(await names(`device_id=${id.device}`)).toEqual(['SSH', 'DNS']);
    expect(await names('device=web1')).toEqual(['SSH', 'DNS']);
    expect(await names(`virtual_machine_id=${id.vm}`)).toEqual(['Web']);
    expect(await names('virtual_machine=vm1')).toEqual(['Web']);
    expect(await names('parent_object_type=virtualization.virtualmachine')).toEqual(['Web']);
    expect(await names('port=81')).toEqual(['Web']);
    expect(await names('port=22&port=53')).toEqual(['SSH', 'DNS']);
    expect(await names(`ip_address_id=${id.ip}`)).toEqual(['SSH']);
    expect(await names('ip_address=192.0.2.10/24')).toEqual(['SSH']);
    expect(await names('protocol=udp')).toEqual(['DNS']);
    expect(await names('q=we')).toEqual(['Web']);
    expect((await app.api.get('/api/ipam/services/?device_id=x')).status).toBe(400);
  });

  it('validates ports, protocol and parent', async () => {
    const base = { parent_object_type: 'dcim.device', parent_object_id: id.device, name: 'Bad', protocol: 'tcp' };
    const tooHigh = await app.api.post('/api/ipam/services/', { ...base, ports: [70000] });
    expect(tooHigh.status).toBe(400);
    expect(tooHigh.body.ports).toEqual(['Ensure this value is less than or equal to 65535.']);
    expect((await app.api.post('/api/ipam/services/', { ...base, ports: [] })).body.ports).toEqual([
      'This list may not be empty.',
    ]);
    expect((await app.api.post('/api/ipam/services/', { ...base, ports: [1], protocol: 'icmp' })).status).toBe(400);
    const parentType = await app.api.post('/api/ipam/services/', {
      ...base,
      ports: [1],
      parent_object_type: 'dcim.site',
    });
    expect(parentType.body.parent_object_type).toEqual(['Invalid content type: dcim.site']);
    const missing = await app.api.post('/api/ipam/services/', { ...base, ports: [1], parent_object_id: 999999 });
    expect(missing.status).toBe(400);
  });

  it('goes with its parent, and templates keep unique names', async () => {
    const template = await create('/api/ipam/service-templates/', { name: 'HTTPS', protocol: 'tcp', ports: [443] });
    expect(template.display).toBe('HTTPS (TCP/443)');
    expect(
      (await app.api.post('/api/ipam/service-templates/', { name: 'HTTPS', protocol: 'tcp', ports: [1] })).status,
    ).toBe(400);
    expect((await app.api.get('/api/ipam/service-templates/?port=443')).body.count).toBe(1);
    expect((await app.api.delete(`/api/virtualization/virtual-machines/${id.vm}/`)).status).toBe(204);
    expect(await names('')).toEqual(['SSH', 'DNS']);
  });
});
