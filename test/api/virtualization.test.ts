import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';

/**
 * Virtualization as an operator uses it: cluster types and groups, clusters scoped to a site or location
 * (with their hosts, VMs and allocations), virtual machines (where they run, unique names, primary
 * addresses, filters) and their interfaces (ordering, relations, VLANs, addresses).
 */
describe.each(DIALECTS)('virtualization on %s', (dialect) => {
  let app: TestApp;
  const id: Record<string, any> = {};

  const create = async (path: string, body: unknown): Promise<any> => {
    const response = await app.api.post(path, body);
    expect(response.status, response.text).toBe(201);
    return response.body;
  };
  const list = async (path: string): Promise<Record<string, any>[]> => {
    const response = await app.api.get(path);
    expect(response.status, response.text).toBe(200);
    return response.body.results;
  };
  const names = async (path: string): Promise<string[]> => (await list(path)).map((o) => o.name);
  const vmPath = '/api/virtualization/virtual-machines/';
  const postVm = (body: Record<string, unknown>) => app.api.post(vmPath, body);
  const vm = (body: Record<string, unknown>): Promise<any> => create(vmPath, body);

  beforeAll(async () => {
    app = await startTestApp(dialect);
    id.europe = (await create('/api/dcim/regions/', { name: 'Europe', slug: 'europe' })).id;
    id.par1 = (await create('/api/dcim/sites/', { name: 'PAR1', slug: 'par1', region: id.europe })).id;
    id.ams1 = (await create('/api/dcim/sites/', { name: 'AMS1', slug: 'ams1' })).id;
    id.hallA = (await create('/api/dcim/locations/', { name: 'Hall A', slug: 'hall-a', site: id.par1 })).id;
    id.acme = (await create('/api/tenancy/tenants/', { name: 'Acme', slug: 'acme' })).id;
    id.vmware = (await create('/api/virtualization/cluster-types/', { name: 'VMware', slug: 'vmware' })).id;
    id.proxmox = (await create('/api/virtualization/cluster-types/', { name: 'Proxmox', slug: 'proxmox' })).id;
    id.prod = (await create('/api/virtualization/cluster-groups/', { name: 'Prod', slug: 'prod' })).id;
    id.server = (await create('/api/dcim/device-roles/', { name: 'Server', slug: 'server' })).id;
    const manufacturer = await create('/api/dcim/manufacturers/', { name: 'Dell', slug: 'dell' });
    id.r640 = (
      await create('/api/dcim/device-types/', { manufacturer: manufacturer.id, model: 'R640', slug: 'r640' })
    ).id;
    id.ubuntu = (await create('/api/dcim/platforms/', { name: 'Ubuntu', slug: 'ubuntu' })).id;
    const clusters = await create('/api/virtualization/clusters/', [
      { name: 'c1', type: id.vmware, group: id.prod, scope_type: 'dcim.site', scope_id: id.par1 },
      { name: 'c2', type: id.vmware, scope_type: 'dcim.location', scope_id: id.hallA },
      { name: 'c3', type: id.proxmox },
    ]);
    for (const cluster of clusters) id[cluster.name] = cluster.id;
    const host = (name: string, site: number, cluster: number | null) =>
      create('/api/dcim/devices/', { name, device_type: id.r640, role: id.server, site, cluster });
    id.host1 = (await host('host1', id.par1, id.c1)).id;
    id.host2 = (await host('host2', id.ams1, null)).id;
  });
  afterAll(async () => app?.close());

  describe('clusters', () => {
    it('counts the clusters of each type and group', async () => {
      expect(await list('/api/virtualization/cluster-types/?fields=name,cluster_count')).toEqual([
        { name: 'Proxmox', cluster_count: 1 },
        { name: 'VMware', cluster_count: 2 },
      ]);
      const group = (await app.api.get(`/api/virtualization/cluster-groups/${id.prod}/?brief=1`)).body;
      expect(group).toEqual({
        id: id.prod,
        url: `${app.baseUrl}/api/virtualization/cluster-groups/${id.prod}/`,
        display: 'Prod',
        name: 'Prod',
        slug: 'prod',
        description: '',
        cluster_count: 1,
      });
    });

    it('scopes clusters to a site or a location and filters them by the cached site', async () => {
      const c1 = (await app.api.get(`/api/virtualization/clusters/${id.c1}/`)).body;
      expect(c1.scope_type).toBe('dcim.site');
      expect(c1.scope_id).toBe(id.par1);
      expect(c1.scope).toEqual({
        id: id.par1,
        url: `${app.baseUrl}/api/dcim/sites/${id.par1}/`,
        display: 'PAR1',
        name: 'PAR1',
        description: '',
        slug: 'par1',
      });
      expect(c1.type.display).toBe('VMware');
      expect(c1.status).toEqual({ value: 'active', label: 'Active' });
      const c2 = (await app.api.get(`/api/virtualization/clusters/${id.c2}/`)).body;
      expect(c2.scope.name).toBe('Hall A');
      expect(await names(`/api/virtualization/clusters/?site_id=${id.par1}`)).toEqual(['c1', 'c2']);
      expect(await names('/api/virtualization/clusters/?site=par1')).toEqual(['c1', 'c2']);
      expect(await names(`/api/virtualization/clusters/?location_id=${id.hallA}`)).toEqual(['c2']);
      expect(await names('/api/virtualization/clusters/?region=europe')).toEqual(['c1', 'c2']);
      expect(await names('/api/virtualization/clusters/?type=proxmox')).toEqual(['c3']);
      expect(await names('/api/virtualization/clusters/?group_id=null')).toEqual(['c2', 'c3']);
      const rescoped = await app.api.patch(`/api/virtualization/clusters/${id.c3}/`, {
        scope_type: 'dcim.site',
        scope_id: id.ams1,
      });
      expect(rescoped.status, rescoped.text).toBe(200);
      expect(await names(`/api/virtualization/clusters/?site_id=${id.ams1}`)).toEqual(['c3']);
      const unscoped = await app.api.patch(`/api/virtualization/clusters/${id.c3}/`, {
        scope_type: null,
        scope_id: null,
      });
      expect(unscoped.body.scope).toBeNull();
      expect(await names(`/api/virtualization/clusters/?site_id=${id.ams1}`)).toEqual([]);
      const twin = await app.api.post('/api/virtualization/clusters/', {
        name: 'c1',
        type: id.proxmox,
        group: id.prod,
      });
      expect(twin.body).toEqual({ __all__: ['Cluster with this Group and Name already exists.'] });
    });

    it('keeps host devices at the cluster’s site', async () => {
      const elsewhere = await app.api.post('/api/dcim/devices/', {
        name: 'host9',
        device_type: id.r640,
        role: id.server,
        site: id.ams1,
        cluster: id.c1,
      });
      expect(elsewhere.body).toEqual({ cluster: ['The assigned cluster belongs to a different site (PAR1)'] });
      const host = (await app.api.get(`/api/dcim/devices/${id.host1}/`)).body;
      expect(host.cluster).toEqual({
        id: id.c1,
        url: `${app.baseUrl}/api/virtualization/clusters/${id.c1}/`,
        display: 'c1',
        name: 'c1',
        description: '',
      });
    });
  });

  describe('virtual machines', () => {
    it('runs somewhere: a site, a cluster (whose site it takes) or a host device', async () => {
      expect((await postVm({ name: 'nowhere' })).body).toEqual({
        __all__: ['A virtual machine must be assigned to a site, cluster, or device.'],
      });
      const web = await vm({ name: 'web01', cluster: id.c1, vcpus: 2, memory: 4096, disk: 40000, role: id.server });
      expect(web.site).toEqual({
        id: id.par1,
        url: `${app.baseUrl}/api/dcim/sites/${id.par1}/`,
        display: 'PAR1',
        name: 'PAR1',
        description: '',
        slug: 'par1',
      });
      expect(web.display).toBe('web01');
      expect(web.vcpus).toBe(2);
      expect(web.status).toEqual({ value: 'active', label: 'Active' });
      expect(web.start_on_boot).toEqual({ value: 'off', label: 'Off' });
      expect(web.cluster.name).toBe('c1');
      id.web01 = web.id;
      const inLocation = await vm({ name: 'web02', cluster: id.c2, vcpus: 1.5, memory: 2048 });
      expect(inLocation.site.id).toBe(id.par1);
      const standalone = await vm({ name: 'app01', device: id.host2 });
      expect(standalone.site.id).toBe(id.ams1);
      expect(standalone.device).toEqual({
        id: id.host2,
        url: `${app.baseUrl}/api/dcim/devices/${id.host2}/`,
        display: 'host2',
        name: 'host2',
        description: '',
      });
      const siteOnly = await vm({ name: 'lonely', site: id.ams1 });
      expect(siteOnly.cluster).toBeNull();

      expect((await postVm({ name: 'x', cluster: id.c1, site: id.ams1 })).body).toEqual({
        cluster: ['The selected cluster (c1) is not assigned to this site (AMS1).'],
      });
      expect((await postVm({ name: 'x', device: id.host2, site: id.par1 })).body).toEqual({
        site: ['The selected device (host2) is not assigned to this site (PAR1).'],
      });
      expect((await postVm({ name: 'x', device: id.host1 })).body).toEqual({
        cluster: ["Must specify the assigned device's cluster (c1) when assigning host device host1."],
      });
      expect((await postVm({ name: 'x', device: id.host1, cluster: id.c3 })).body).toEqual({
        device: ['The selected device (host1) is not assigned to this cluster (c3).'],
      });
      const onHost = await vm({ name: 'web03', device: id.host1, cluster: id.c1, vcpus: 0.5 });
      expect(onHost.site.id).toBe(id.par1);
      expect((await postVm({ name: 'x', site: id.ams1, vcpus: 0 })).body).toEqual({
        vcpus: ['Ensure this value is greater than or equal to 0.01.'],
      });
      expect((await postVm({ name: 'x', site: id.ams1, local_context_data: [1, 2] })).body).toEqual({
        local_context_data: ['JSON data must be in object form. Example: {"foo": 123}'],
      });

      const c1 = (await app.api.get(`/api/virtualization/clusters/${id.c1}/`)).body;
      expect(c1.device_count).toBe(1);
      expect(c1.virtualmachine_count).toBe(2);
      expect(c1.allocated_vcpus).toBe(2.5);
      expect(c1.allocated_memory).toBe(4096);
      expect(c1.allocated_disk).toBe(40000);
      const c3 = (await app.api.get(`/api/virtualization/clusters/${id.c3}/`)).body;
      expect([c3.virtualmachine_count, c3.allocated_vcpus, c3.allocated_memory, c3.allocated_disk]).toEqual([
        0,
        null,
        null,
        null,
      ]);
      const site = (await app.api.get(`/api/dcim/sites/${id.par1}/`)).body;
      expect(site.virtualmachine_count).toBe(3);
      const blocked = await app.api.delete(`/api/virtualization/clusters/${id.c2}/`);
      expect(blocked.status).toBe(409);
      expect(blocked.body).toEqual({
        detail: `Unable to delete object. 1 dependent objects were found: web02 (${inLocation.id})`,
      });
    });

    it('keeps names unique per cluster or host (and tenant), whatever their case', async () => {
      expect((await postVm({ name: 'WEB01', cluster: id.c1 })).body).toEqual({
        __all__: ['Virtual machine name must be unique per cluster.'],
      });
      await vm({ name: 'db01', cluster: id.c1, tenant: id.acme });
      expect((await postVm({ name: 'DB01', cluster: id.c1, tenant: id.acme })).body).toEqual({
        __all__: ['Virtual machine name must be unique per cluster and tenant.'],
      });
      expect((await postVm({ name: 'App01', device: id.host2 })).body).toEqual({
        __all__: ['Virtual machine name must be unique per device.'],
      });
      await vm({ name: 'tenant-app', device: id.host2, tenant: id.acme });
      expect((await postVm({ name: 'Tenant-App', device: id.host2, tenant: id.acme })).body).toEqual({
        __all__: ['Virtual machine name must be unique per device and tenant.'],
      });
      // Another cluster, another tenant, or a plain site: no conflict.
      const fine = [
        await vm({ name: 'web01', cluster: id.c3 }),
        await vm({ name: 'web01', cluster: id.c1, tenant: id.acme }),
        await vm({ name: 'lonely', site: id.ams1 }),
      ];
      const renamed = await app.api.patch(`${vmPath}${fine[0].id}/`, { name: 'Web01' });
      expect(renamed.status).toBe(200);
      for (const other of fine) expect((await app.api.delete(`${vmPath}${other.id}/`)).status).toBe(204);
    });

    it('takes primary addresses from its own interfaces and filters', async () => {
      const [eth0] = await create('/api/virtualization/interfaces/', [{ virtual_machine: id.web01, name: 'eth0' }]);
      const other = (await list(`${vmPath}?name=app01`))[0]!;
      const [foreign] = await create('/api/virtualization/interfaces/', [{ virtual_machine: other.id, name: 'eth0' }]);
      const assign = (address: string, iface: number) =>
        create('/api/ipam/ip-addresses/', {
          address,
          assigned_object_type: 'virtualization.vminterface',
          assigned_object_id: iface,
        });
      const v4 = await assign('10.0.0.10/24', eth0.id);
      const v6 = await assign('2001:db8::10/64', eth0.id);
      const elsewhere = await assign('10.0.0.20/24', foreign.id);
      const path = `${vmPath}${id.web01}/`;
      expect((await app.api.patch(path, { primary_ip4: elsewhere.id })).body).toEqual({
        primary_ip4: ['The specified IP address (10.0.0.20/24) is not assigned to this VM.'],
      });
      expect((await app.api.patch(path, { primary_ip4: v6.id })).body).toEqual({
        primary_ip4: ['Must be an IPv4 address. (2001:db8::10/64 is an IPv6 address.)'],
      });
      const withV4 = await app.api.patch(path, { primary_ip4: v4.id });
      expect(withV4.status, withV4.text).toBe(200);
      expect(withV4.body.primary_ip4.address).toBe('10.0.0.10/24');
      expect(withV4.body.primary_ip).toEqual(withV4.body.primary_ip4);
      const withV6 = await app.api.patch(path, { primary_ip6: v6.id });
      expect(withV6.body.primary_ip.address).toBe('2001:db8::10/64');
      expect(withV6.body.interface_count).toBe(1);

      const byName = async (query: string): Promise<string[]> => names(`${vmPath}?limit=0&${query}`);
      expect(await byName('has_primary_ip=true')).toEqual(['web01']);
      expect(await byName('cluster=c1')).toEqual(['db01', 'web01', 'web03']);
      expect(await byName(`cluster_id=${id.c2}`)).toEqual(['web02']);
      expect(await byName('cluster_type=vmware')).toEqual(['db01', 'web01', 'web02', 'web03']);
      expect(await byName('cluster_group=prod&tenant=acme')).toEqual(['db01']);
      expect(await byName('site=ams1')).toEqual(['app01', 'lonely', 'tenant-app']);
      expect(await byName('device=host2')).toEqual(['app01', 'tenant-app']);
      expect(await byName('region=europe&role=server')).toEqual(['web01']);
      expect(await byName('q=WEB0')).toEqual(['web01', 'web02', 'web03']);
      expect(await byName('vcpus__gte=1.5')).toEqual(['web01', 'web02']);
    });
  });

  describe('interfaces', () => {
    beforeAll(async () => {
      const vlans = await create('/api/ipam/vlans/', [
        { vid: 10, name: 'users' },
        { vid: 20, name: 'voice' },
        { vid: 30, name: 'amsterdam-only', site: id.ams1 },
        { vid: 100, name: 'service' },
      ]);
      for (const vlan of vlans) id[`vlan${vlan.vid}`] = vlan.id;
      id.vm2 = (await vm({ name: 'if-vm2', cluster: id.c3 })).id;
    });
    const path = '/api/virtualization/interfaces/';
    const iface = (body: Record<string, unknown>): Promise<any> => create(path, { virtual_machine: id.web01, ...body });
    const post = (body: Record<string, unknown>) => app.api.post(path, { virtual_machine: id.web01, ...body });

    it('orders names naturally per virtual machine', async () => {
      await create(
        path,
        ['eth10', 'eth2', 'eth1', 'eth1.20'].map((name) => ({ virtual_machine: id.web01, name })),
      );
      expect(await names(`${path}?virtual_machine_id=${id.web01}`)).toEqual([
        'eth0',
        'eth1',
        'eth1.20',
        'eth2',
        'eth10',
      ]);
      const eth2 = (await list(`${path}?virtual_machine=web01&name=eth2`))[0]!;
      expect(eth2.display).toBe('eth2');
      expect(eth2.virtual_machine).toEqual({
        id: id.web01,
        url: `${app.baseUrl}/api/virtualization/virtual-machines/${id.web01}/`,
        display: 'web01',
        name: 'web01',
        description: '',
      });
      expect(eth2.enabled).toBe(true);
      expect((await post({ name: 'eth2' })).body).toEqual({
        __all__: ['Interface with this Virtual machine and Name already exists.'],
      });
      expect((await app.api.get(`${vmPath}${id.web01}/`)).body.interface_count).toBe(5);
      expect(await names(`${path}?cluster=c1&name=eth0`)).toEqual(['eth0']);
    });

    it('keeps parent and bridge interfaces on the same virtual machine', async () => {
      const eth1 = (await list(`${path}?virtual_machine_id=${id.web01}&name=eth1`))[0]!;
      const sub = await iface({ name: 'eth1.30', parent: eth1.id });
      expect(sub.parent).toEqual({
        id: eth1.id,
        url: `${app.baseUrl}/api/virtualization/interfaces/${eth1.id}/`,
        display_url: `${app.baseUrl}/virtualization/interfaces/${eth1.id}/`,
        display: 'eth1',
        virtual_machine: expect.objectContaining({ id: id.web01, name: 'web01' }),
        name: 'eth1',
      });
      const br = await iface({ name: 'br0' });
      expect((await iface({ name: 'tap0', bridge: br.id })).bridge.name).toBe('br0');
      const remote = await create(path, { virtual_machine: id.vm2, name: 'eth0' });
      expect((await post({ name: 'x', parent: remote.id })).body).toEqual({
        parent: ['The selected parent interface (eth0) belongs to a different virtual machine (if-vm2).'],
      });
      expect((await post({ name: 'x', bridge: remote.id })).body).toEqual({
        bridge: ['The selected bridge interface (eth0) belongs to a different virtual machine (if-vm2).'],
      });
      expect((await app.api.patch(`${path}${sub.id}/`, { parent: sub.id })).body).toEqual({
        parent: ['An interface cannot be its own parent.'],
      });
      expect((await app.api.patch(`${path}${br.id}/`, { bridge: br.id })).body).toEqual({
        bridge: ['An interface cannot be bridged to itself.'],
      });
      expect(await names(`${path}?parent_id=${eth1.id}`)).toEqual(['eth1.30']);
      expect(await names(`${path}?bridge_id=${br.id}`)).toEqual(['tap0']);
    });

    it('carries VLANs by mode; clearing the mode clears them', async () => {
      const trunk = await iface({
        name: 'ens1',
        mode: 'tagged',
        untagged_vlan: id.vlan10,
        tagged_vlans: [id.vlan20, id.vlan100],
      });
      expect(trunk.mode).toEqual({ value: 'tagged', label: 'Tagged' });
      expect(trunk.untagged_vlan.display).toBe('users (10)');
      expect(trunk.tagged_vlans).toEqual([
        {
          id: id.vlan20,
          url: `${app.baseUrl}/api/ipam/vlans/${id.vlan20}/`,
          display: 'voice (20)',
          vid: 20,
          name: 'voice',
          description: '',
        },
        expect.objectContaining({ vid: 100 }),
      ]);
      const mac = await create('/api/dcim/mac-addresses/', {
        mac_address: '00-50-56-AB-CD-EF',
        assigned_object_type: 'virtualization.vminterface',
        assigned_object_id: trunk.id,
      });
      const primary = await app.api.patch(`${path}${trunk.id}/`, { primary_mac_address: mac.id });
      expect(primary.body.mac_address).toBe('00:50:56:AB:CD:EF');
      // Without a mode, NetBox drops the untagged VLAN of a VM interface rather than refusing it.
      const routed = await iface({ name: 'ens2', untagged_vlan: id.vlan10 });
      expect(routed.untagged_vlan).toBeNull();
      expect((await post({ name: 'x', mode: 'tagged', tagged_vlans: [id.vlan30] })).body).toEqual({
        tagged_vlans: [
          "VLAN amsterdam-only (30) must belong to the same site as the interface's parent virtual machine, or it must be global.",
        ],
      });
      expect((await post({ name: 'x', mode: 'access', untagged_vlan: id.vlan30 })).body).toEqual({
        untagged_vlan: [
          "The untagged VLAN (amsterdam-only (30)) must belong to the same site as the interface's parent virtual machine, or it must be global.",
        ],
      });
      expect((await post({ name: 'x', mode: 'access', qinq_svlan: id.vlan100 })).body).toEqual({
        qinq_svlan: ['Only Q-in-Q interfaces may specify a service VLAN.'],
      });
      expect((await post({ name: 'x', mode: 'tagged', tagged_vlans: [{ id: id.vlan10 }] })).body).toEqual({
        tagged_vlans: ['Incorrect type. Expected pk value, received dict.'],
      });
      expect((await post({ name: 'x', mode: 'tagged', tagged_vlans: [99] })).body).toEqual({
        tagged_vlans: ['Invalid pk "99" - object does not exist.'],
      });
      const only = async (query: string): Promise<string[]> => names(`${path}?limit=0&${query}`);
      expect(await only(`vlan_id=${id.vlan20}`)).toEqual(['ens1']);
      expect(await only('vlan=10')).toEqual(['ens1']);
      expect(await only('mac_address=00:50:56:ab:cd:ef')).toEqual(['ens1']);

      const access = await app.api.patch(`${path}${trunk.id}/`, { mode: 'access' });
      expect(access.status, access.text).toBe(200);
      expect(access.body.tagged_vlans).toEqual([]);
      expect(access.body.untagged_vlan.vid).toBe(10);
      const cleared = await app.api.patch(`${path}${trunk.id}/`, { mode: null });
      expect(cleared.status, cleared.text).toBe(200);
      expect(cleared.body.mode).toBeNull();
      expect(cleared.body.untagged_vlan).toBeNull();
      expect(await only(`vlan_id=${id.vlan10}`)).toEqual([]);
    });

    it('counts addresses and goes with its virtual machine', async () => {
      const ens3 = await iface({ name: 'ens3' });
      await create('/api/ipam/ip-addresses/', [
        { address: '10.9.0.1/24', assigned_object_type: 'virtualization.vminterface', assigned_object_id: ens3.id },
        { address: '10.9.0.2/24', assigned_object_type: 'virtualization.vminterface', assigned_object_id: ens3.id },
      ]);
      expect((await app.api.get(`${path}${ens3.id}/`)).body.count_ipaddresses).toBe(2);
      const gone = await vm({ name: 'short-lived', site: id.ams1 });
      const [first] = await create(path, [{ virtual_machine: gone.id, name: 'eth0' }]);
      expect((await app.api.delete(`${vmPath}${gone.id}/`)).status).toBe(204);
      expect((await app.api.get(`${path}${first.id}/`)).status).toBe(404);
    });
  });

  describe('virtual machine types, virtual disks and FHRP groups', () => {
    it("gives a new machine its type's defaults, and counts the machines of each type", async () => {
      const type = await create('/api/virtualization/virtual-machine-types/', {
        name: 'Small',
        slug: 'small',
        default_platform: id.ubuntu,
        default_vcpus: 2,
        default_memory: 2048,
      });
      const small = await vm({ name: 'typed1', cluster: id.c3, virtual_machine_type: type.id, memory: 512 });
      expect([small.platform?.id, Number(small.vcpus), small.memory]).toEqual([id.ubuntu, 2, 512]);
      expect(small.virtual_machine_type).toMatchObject({ id: type.id, name: 'Small', slug: 'small' });
      const duplicate = await app.api.post('/api/virtualization/virtual-machine-types/', {
        name: 'SMALL',
        slug: 'small-2',
      });
      expect(duplicate.status).toBe(400);
      expect(JSON.stringify(duplicate.body)).toContain('Virtual machine type name must be unique.');
      const [counted] = await list(`/api/virtualization/virtual-machine-types/?id=${type.id}`);
      expect(counted!.virtual_machine_count).toBe(1);
      const refused = await app.api.delete(`/api/virtualization/virtual-machine-types/${type.id}/`);
      expect(refused.status).toBe(409);
    });

    it('counts the FHRP groups of an interface, and lists the addresses of a group', async () => {
      const machine = await vm({ name: 'fhrp1', cluster: id.c3 });
      const eth0 = await create('/api/virtualization/interfaces/', { virtual_machine: machine.id, name: 'eth0' });
      const group = await create('/api/ipam/fhrp-groups/', { protocol: 'vrrp2', group_id: 7, name: 'edge' });
      expect(group.display).toBe('edge VRRPv2: 7');
      await create('/api/ipam/ip-addresses/', {
        address: '198.51.100.1/24',
        assigned_object_type: 'ipam.fhrpgroup',
        assigned_object_id: group.id,
      });
      const assignment = await create('/api/ipam/fhrp-group-assignments/', {
        group: group.id,
        interface_type: 'virtualization.vminterface',
        interface_id: eth0.id,
        priority: 100,
      });
      expect(assignment.interface).toMatchObject({ id: eth0.id, name: 'eth0' });
      expect(assignment.display).toBe('edge VRRPv2: 7 (100)');
      const duplicate = await app.api.post('/api/ipam/fhrp-group-assignments/', {
        group: group.id,
        interface_type: 'virtualization.vminterface',
        interface_id: eth0.id,
        priority: 50,
      });
      expect(duplicate.status).toBe(400);
      const [counted] = await list(`/api/virtualization/interfaces/?id=${eth0.id}&fields=count_fhrp_groups`);
      expect(counted).toEqual({ count_fhrp_groups: 1 });
      const [listed] = await list(`/api/ipam/fhrp-groups/?id=${group.id}`);
      expect(listed!.ip_addresses.map((a: { address: string }) => a.address)).toEqual(['198.51.100.1/24']);
      expect(await list(`/api/ipam/ip-addresses/?fhrpgroup_id=${group.id}`)).toHaveLength(1);
      // Deleting the interface deletes its assignments.
      expect((await app.api.delete(`/api/virtualization/interfaces/${eth0.id}/`)).status).toBe(204);
      expect(await list(`/api/ipam/fhrp-group-assignments/?group_id=${group.id}`)).toEqual([]);
    });

    it("keeps a machine's disk at the total of its virtual disks", async () => {
      const machine = await vm({ name: 'disks1', cluster: id.c3, disk: 5 });
      const disksPath = '/api/virtualization/virtual-disks/';
      const disk = async (): Promise<unknown> => (await app.api.get(`${vmPath}${machine.id}/`)).body.disk;
      const [a] = await create(disksPath, [
        { virtual_machine: machine.id, name: 'sda', size: 100 },
        { virtual_machine: machine.id, name: 'sdb', size: 50 },
      ]);
      expect(await disk()).toBe(150);
      const [counted] = await list(`${vmPath}?id=${machine.id}&fields=virtual_disk_count`);
      expect(counted).toEqual({ virtual_disk_count: 2 });
      expect(await names(`${vmPath}?virtual_disk_count__gte=2`)).toContain('disks1');
      expect((await app.api.patch(`${disksPath}${a.id}/`, { size: 30 })).status).toBe(200);
      expect(await disk()).toBe(80);
      // Another size than the disks' total is refused; none takes their total.
      const refused = await app.api.patch(`${vmPath}${machine.id}/`, { disk: 10 });
      expect(refused.status).toBe(400);
      expect(refused.body.disk).toEqual([
        'The specified disk size (10) must match the aggregate size of assigned virtual disks (80).',
      ]);
      const cleared = await app.api.patch(`${vmPath}${machine.id}/`, { disk: null });
      expect(cleared.status, cleared.text).toBe(200);
      expect(cleared.body.disk).toBe(80);
      const duplicate = await app.api.post(disksPath, { virtual_machine: machine.id, name: 'sda', size: 1 });
      expect(duplicate.status).toBe(400);
      expect((await app.api.delete(`${disksPath}${a.id}/`)).status).toBe(204);
      expect(await disk()).toBe(50);
      const rest = await list(`${disksPath}?virtual_machine_id=${machine.id}`);
      expect(
        (
          await app.api.delete(
            disksPath,
            rest.map((d) => ({ id: d.id })),
          )
        ).status,
      ).toBe(204);
      expect(await disk()).toBeNull();
      // The machine's disk follows without a change record of its own (NetBox's QuerySet.update()); the PATCH
      // that left it unchanged records nothing either.
      const changes = await list(
        `/api/core/object-changes/?changed_object_type=virtualization.virtualmachine&changed_object_id=${machine.id}`,
      );
      expect(changes.map((c) => c.action.value)).toEqual(['create']);
    });
  });
});
