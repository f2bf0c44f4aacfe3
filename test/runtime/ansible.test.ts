import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import { runCommand } from '../support/command.js';

/**
 * Ansible's NetBox collection (Debian's `ansible` bundles netbox.netbox) against the real server: a playbook
 * that builds a site and allocates prefixes and addresses from their parents (first_available, state: new),
 * then the nb_inventory plugin with its defaults and with groups. Skipped when ansible-playbook or the
 * collection is missing. The second runs of the playbooks (the collection's lookups find what the first made:
 * idempotency) run on SQLite only: what they add on PostgreSQL is the filters' SQL, which the filter suites run
 * on both databases.
 */
const playbooks = path.resolve(import.meta.dirname, '../ansible');
const hasAnsible =
  spawnSync('ansible-playbook', ['--version'], { timeout: 60_000 }).status === 0 &&
  spawnSync('ansible-galaxy', ['collection', 'list', 'netbox.netbox'], {
    timeout: 60_000,
    encoding: 'utf8',
  }).stdout?.includes('netbox.netbox');

describe.each(DIALECTS)('Ansible netbox.netbox collection on %s', (dialect) => {
  let app: TestApp;
  let home: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    if (!hasAnsible) return;
    app = await startTestApp(dialect);
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-ansible-'));
    const token = app.adminAuth.replace(/^Bearer /, '');
    env = {
      HOME: home,
      ANSIBLE_LOCAL_TEMP: path.join(home, 'tmp'),
      ANSIBLE_NOCOLOR: '1',
      ANSIBLE_HOST_KEY_CHECKING: 'False',
      ANSIBLE_INVENTORY_UNPARSED_WARNING: 'False',
      ANSIBLE_LOCALHOST_WARNING: 'False',
      // The collection's modules and pynetbox need Debian's Python.
      ANSIBLE_PYTHON_INTERPRETER: '/usr/bin/python3',
      NETBOX_URL: app.baseUrl,
      NETBOX_API: app.baseUrl,
      NETBOX_TOKEN: token,
    };
  });
  afterAll(async () => {
    await app?.close();
    if (home) fs.rmSync(home, { recursive: true, force: true });
  });

  it.skipIf(!hasAnsible)(
    'builds a site and allocates prefixes and addresses with first_available and state: new',
    async () => {
      const played = await runCommand('ansible-playbook', [path.join(playbooks, 'allocate.yml')], env, 300_000, home);
      expect(played.code, played.output).toBe(0);
      expect(played.output).toContain('ALLOCATED 10.77.0.0/24 10.77.1.0/24 10.77.0.1/24 10.77.0.2/24');
      expect(played.output).toMatch(/localhost\s+: ok=7\s+changed=6\s+unreachable=0\s+failed=0/);
      const site = await app.api.get('/api/dcim/sites/?slug=ansible-dc');
      expect(site.body.count).toBe(1);
      const prefixes = await app.api.get('/api/ipam/prefixes/?within=10.77.0.0/16');
      expect(prefixes.body.results.map((p: any) => [p.prefix, p.description])).toEqual([
        ['10.77.0.0/24', 'ansible first'],
        ['10.77.1.0/24', 'ansible second'],
      ]);
      const addresses = await app.api.get('/api/ipam/ip-addresses/?parent=10.77.0.0/24');
      expect(addresses.body.results.map((a: any) => [a.address, a.description])).toEqual([
        ['10.77.0.1/24', 'ansible web'],
        ['10.77.0.2/24', 'ansible db'],
      ]);

      // Again: the site and the container are there already; the allocations take the next free ones.
      if (dialect !== 'sqlite') return;
      const again = await runCommand('ansible-playbook', [path.join(playbooks, 'allocate.yml')], env, 300_000, home);
      expect(again.code, again.output).toBe(0);
      expect(again.output).toContain('ALLOCATED 10.77.2.0/24 10.77.3.0/24 10.77.2.1/24 10.77.2.2/24');
    },
    300_000,
  );

  it.skipIf(!hasAnsible)(
    'assigns addresses to interfaces, sets primary IPs and adds a config context by site, with the default settings',
    async () => {
      const site = (await app.api.get('/api/dcim/sites/?slug=ansible-dc')).body.results[0];
      const maker = await app.api.post('/api/dcim/manufacturers/', { name: 'Edge Maker', slug: 'edge-maker' });
      const type = await app.api.post('/api/dcim/device-types/', {
        manufacturer: maker.body.id,
        model: 'Edge 24',
        slug: 'edge-24',
      });
      const role = await app.api.post('/api/dcim/device-roles/', { name: 'Edge', slug: 'edge' });
      const edge = { name: 'edge1', device_type: type.body.id, role: role.body.id, site: site.id };
      expect((await app.api.post('/api/dcim/devices/', edge)).status).toBe(201);

      const played = await runCommand('ansible-playbook', [path.join(playbooks, 'assign.yml')], env, 300_000, home);
      expect(played.code, played.output).toBe(0);
      expect(played.output).toContain('ASSIGNED 10.78.0.1/24 10.78.0.123');
      expect(played.output).toMatch(/localhost\s+: ok=12\s+changed=10\s+unreachable=0\s+failed=0/);

      const [device] = (await app.api.get('/api/dcim/devices/?name=edge1')).body.results;
      const [deviceIp] = (await app.api.get('/api/ipam/ip-addresses/?address=10.78.0.1/24')).body.results;
      expect(deviceIp.assigned_object).toMatchObject({ name: 'eth0', device: { name: 'edge1' } });
      expect(device.primary_ip4.id).toBe(deviceIp.id);
      const [vm] = (await app.api.get('/api/virtualization/virtual-machines/?name=edge-vm1')).body.results;
      const [vmIp] = (await app.api.get('/api/ipam/ip-addresses/?address=10.78.1.1/24')).body.results;
      expect(vmIp.assigned_object).toMatchObject({ name: 'eth0', virtual_machine: { name: 'edge-vm1' } });
      expect(vm.primary_ip4.id).toBe(vmIp.id);
      const [context] = (await app.api.get('/api/extras/config-contexts/?name=Edge+NTP')).body.results;
      expect(context.sites.map((s: { slug: string }) => s.slug)).toEqual(['ansible-dc']);

      // Again: everything is found where it is, nothing changes.
      if (dialect !== 'sqlite') return;
      const again = await runCommand('ansible-playbook', [path.join(playbooks, 'assign.yml')], env, 300_000, home);
      expect(again.code, again.output).toBe(0);
      expect(again.output).toMatch(/localhost\s+: ok=12\s+changed=0\s+unreachable=0\s+failed=0/);
    },
    300_000,
  );

  it.skipIf(!hasAnsible)(
    'lists devices and VMs with nb_inventory, by default and grouped',
    async () => {
      const create = async (url: string, body: unknown): Promise<Record<string, any>> => {
        const response = await app.api.post(url, body);
        expect(response.status, response.text).toBe(201);
        return response.body;
      };
      const site = (await app.api.get('/api/dcim/sites/?slug=ansible-dc')).body.results[0];
      const maker = await create('/api/dcim/manufacturers/', { name: 'Acme', slug: 'acme' });
      const type = await create('/api/dcim/device-types/', {
        manufacturer: maker.id,
        model: 'Switch 48',
        slug: 'switch-48',
      });
      const role = await create('/api/dcim/device-roles/', { name: 'Leaf', slug: 'leaf' });
      const leaf = await create('/api/dcim/devices/', {
        name: 'leaf1',
        device_type: type.id,
        role: role.id,
        site: site.id,
      });
      const mgmt = await create('/api/dcim/interfaces/', { device: leaf.id, name: 'mgmt0', type: '1000base-t' });
      const ip = await create('/api/ipam/ip-addresses/', {
        address: '10.77.0.10/24',
        assigned_object_type: 'dcim.interface',
        assigned_object_id: mgmt.id,
      });
      expect((await app.api.patch(`/api/dcim/devices/${leaf.id}/`, { primary_ip4: ip.id })).status).toBe(200);
      await create('/api/ipam/services/', {
        parent_object_type: 'dcim.device',
        parent_object_id: leaf.id,
        name: 'ssh',
        protocol: 'tcp',
        ports: [22],
      });
      const clusterType = await create('/api/virtualization/cluster-types/', { name: 'KVM', slug: 'kvm' });
      const cluster = await create('/api/virtualization/clusters/', { name: 'Cluster 1', type: clusterType.id });
      await create('/api/virtualization/virtual-machines/', { name: 'vm1', cluster: cluster.id, role: role.id });

      const listed = await runCommand(
        'ansible-inventory',
        ['-i', path.join(playbooks, 'netbox.yml'), '--list'],
        env,
        300_000,
        home,
      );
      expect(listed.code, listed.output).toBe(0);
      const inventory = JSON.parse(listed.output.slice(listed.output.indexOf('{'))) as Record<string, any>;
      const hosts = inventory._meta.hostvars as Record<string, any>;
      expect(Object.keys(hosts).sort()).toEqual(['edge-vm1', 'edge1', 'leaf1', 'vm1']);
      expect(hosts.leaf1).toMatchObject({
        ansible_host: '10.77.0.10',
        primary_ip4: '10.77.0.10',
        sites: ['ansible-dc'],
        device_roles: ['leaf'],
        device_types: ['switch-48'],
        manufacturers: ['acme'],
        is_virtual: false,
        status: { value: 'active', label: 'Active' },
      });
      expect(hosts.vm1).toMatchObject({ cluster: 'Cluster 1', cluster_type: 'kvm', is_virtual: true });

      const grouped = await runCommand(
        'ansible-inventory',
        ['-i', path.join(playbooks, 'grouped.netbox.yml'), '--list'],
        env,
        300_000,
        home,
      );
      expect(grouped.code, grouped.output).toBe(0);
      const groups = JSON.parse(grouped.output.slice(grouped.output.indexOf('{'))) as Record<string, any>;
      expect(groups['sites_ansible-dc'].hosts.sort()).toEqual(['edge1', 'leaf1']);
      expect(groups.device_roles_leaf.hosts.sort()).toEqual(['leaf1', 'vm1']);
      expect(groups['cluster_Cluster 1'].hosts).toEqual(['vm1']);
      expect(groups.status_active.hosts.sort()).toEqual(['edge-vm1', 'edge1', 'leaf1', 'vm1']);
    },
    300_000,
  );
});
