import { expect } from 'vitest';
import type { NetBoxTestCase } from '../generic.js';
import { renderConfigTests } from './render-config.js';
import type { PortedClass } from '../harness.js';

/**
 * Ported from NetBox 4.6.8 virtualization/tests/test_api.py, for the served models. Config templates are not
 * served.
 */

type Json = Record<string, any>;
const description = { description: 'New description' };

/** NetBox's create_test_virtualmachine: a VM in a new cluster. */
async function virtualMachine(t: PortedClass, name: string): Promise<Json> {
  const type = await t.make('virtualization.clustertype', {
    name: `Type of ${name}`,
    slug: `type-${name}`.toLowerCase().replace(/[^a-z0-9-]/g, '-'),
  });
  const cluster = await t.make('virtualization.cluster', { name: `Cluster of ${name}`, type: type.id });
  return t.make('virtualization.virtualmachine', { name, cluster: cluster.id });
}

const vmTypesOf = (data: Json): Json[] => data.vmTypes as Json[];

export const virtualizationCases: NetBoxTestCase[] = [
  {
    source: 'virtualization/tests/test_api.py::ClusterTypeTestCase',
    model: 'virtualization.clustertype',
    briefFields: ['cluster_count', 'description', 'display', 'id', 'name', 'slug', 'url'],
    bulkUpdateData: description,
    setUp: async (t) => {
      await t.makeAll(
        'virtualization.clustertype',
        [1, 2, 3].map((i) => ({ name: `Cluster Type ${i}`, slug: `cluster-type-${i}` })),
      );
      return { createData: [4, 5, 6].map((i) => ({ name: `Cluster Type ${i}`, slug: `cluster-type-${i}` })) };
    },
  },
  {
    source: 'virtualization/tests/test_api.py::ClusterGroupTestCase',
    model: 'virtualization.clustergroup',
    briefFields: ['cluster_count', 'description', 'display', 'id', 'name', 'slug', 'url'],
    bulkUpdateData: description,
    setUp: async (t) => {
      await t.makeAll(
        'virtualization.clustergroup',
        [1, 2, 3].map((i) => ({ name: `Cluster Group ${i}`, slug: `cluster-type-${i}` })),
      );
      return { createData: [4, 5, 6].map((i) => ({ name: `Cluster Group ${i}`, slug: `cluster-type-${i}` })) };
    },
  },
  {
    source: 'virtualization/tests/test_api.py::ClusterTestCase',
    model: 'virtualization.cluster',
    briefFields: ['description', 'display', 'id', 'name', 'url', 'virtualmachine_count'],
    bulkUpdateData: { status: 'offline', comments: 'New comment' },
    setUp: async (t) => {
      const [type1, type2] = await t.makeAll('virtualization.clustertype', [
        { name: 'Cluster Type 1', slug: 'cluster-type-1' },
        { name: 'Cluster Type 2', slug: 'cluster-type-2' },
      ]);
      const [group1, group2] = await t.makeAll('virtualization.clustergroup', [
        { name: 'Cluster Group 1', slug: 'cluster-group-1' },
        { name: 'Cluster Group 2', slug: 'cluster-group-2' },
      ]);
      for (const i of [1, 2, 3])
        await t.make('virtualization.cluster', {
          name: `Cluster ${i}`,
          type: type1!.id,
          group: group1!.id,
          status: 'planned',
        });
      return {
        createData: [4, 5, 6].map((i) => ({
          name: `Cluster ${i}`,
          type: type2!.id,
          group: group2!.id,
          status: 'staging',
        })),
      };
    },
  },
  {
    source: 'virtualization/tests/test_api.py::VirtualMachineTypeTestCase',
    model: 'virtualization.virtualmachinetype',
    briefFields: ['description', 'display', 'id', 'name', 'slug', 'url'],
    userPermissions: ['dcim.view_platform', 'virtualization.view_virtualmachine'],
    setUp: async (t) => {
      const platforms = await t.makeAll(
        'dcim.platform',
        [1, 2, 3].map((i) => ({ name: `Platform ${i}`, slug: `platform-${i}` })),
      );
      const typeOf = (i: number, platform: number): Json => ({
        name: `Virtual Machine Type ${i}`,
        slug: `virtual-machine-type-${i}`,
        default_platform: platforms[platform]!.id,
        default_vcpus: [1, 2, 4][platform],
        default_memory: [1024, 2048, 4096][platform],
      });
      await t.makeAll('virtualization.virtualmachinetype', [typeOf(1, 0), typeOf(2, 1), typeOf(3, 2)]);
      return {
        createData: [typeOf(4, 0), typeOf(5, 1), typeOf(6, 2)],
        bulkUpdateData: {
          default_platform: platforms[2]!.id,
          default_vcpus: 8,
          default_memory: 8192,
          description: 'New description',
        },
      };
    },
  },
  {
    source: 'virtualization/tests/test_api.py::VirtualMachineTestCase',
    model: 'virtualization.virtualmachine',
    briefFields: ['description', 'display', 'id', 'name', 'url'],
    bulkUpdateData: { status: 'staged' },
    userPermissions: ['dcim.view_platform', 'virtualization.view_virtualmachinetype'],
    setUp: async (t) => {
      const clusterType = await t.make('virtualization.clustertype', {
        name: 'Cluster Type 1',
        slug: 'cluster-type-1',
      });
      const clusterGroup = await t.make('virtualization.clustergroup', {
        name: 'Cluster Group 1',
        slug: 'cluster-group-1',
      });
      const sites = await t.makeAll(
        'dcim.site',
        [1, 2, 3].map((i) => ({ name: `Site ${i}`, slug: `site-${i}` })),
      );
      const clusters: Json[] = [];
      for (const [i, scope] of [sites[0], sites[1], undefined].entries()) {
        clusters.push(
          await t.make('virtualization.cluster', {
            name: `Cluster ${i + 1}`,
            type: clusterType.id,
            ...(scope ? { scope_type: 'dcim.site', scope_id: scope.id, group: clusterGroup.id } : {}),
          }),
        );
      }
      const manufacturer = await t.make('dcim.manufacturer', { name: 'Manufacturer 1', slug: 'manufacturer-1' });
      const type = await t.make('dcim.devicetype', {
        manufacturer: manufacturer.id,
        model: 'Device Type 1',
        slug: 'device-type-1',
      });
      const role = await t.make('dcim.devicerole', { name: 'Device Role 1', slug: 'device-role-1' });
      const devices = [];
      for (const [i, name] of ['device1', 'device2'].entries())
        devices.push(
          await t.make('dcim.device', {
            name,
            site: sites[i]!.id,
            cluster: clusters[i]!.id,
            device_type: type.id,
            role: role.id,
          }),
        );
      const platforms = await t.makeAll(
        'dcim.platform',
        [1, 2, 3].map((i) => ({ name: `Platform ${i}`, slug: `platform-${i}` })),
      );
      const vmTypes = await t.makeAll('virtualization.virtualmachinetype', [
        {
          name: 'Virtual Machine Type 1',
          slug: 'virtual-machine-type-1',
          default_platform: platforms[0]!.id,
          default_vcpus: 2,
          default_memory: 4096,
        },
        {
          name: 'Virtual Machine Type 2',
          slug: 'virtual-machine-type-2',
          default_platform: platforms[1]!.id,
          default_vcpus: 4,
          default_memory: 8192,
        },
      ]);
      await t.makeAll('virtualization.virtualmachine', [
        {
          name: 'Virtual Machine 1',
          virtual_machine_type: vmTypes[0]!.id,
          site: sites[0]!.id,
          cluster: clusters[0]!.id,
          device: devices[0]!.id,
          platform: platforms[0]!.id,
          vcpus: 2,
          memory: 4096,
          local_context_data: { A: 1 },
        },
        { name: 'Virtual Machine 2', site: sites[0]!.id, cluster: clusters[0]!.id, local_context_data: { B: 2 } },
        {
          name: 'Virtual Machine 3',
          site: sites[0]!.id,
          cluster: clusters[0]!.id,
          local_context_data: { C: 3 },
          start_on_boot: 'on',
        },
      ]);
      return {
        createData: [
          {
            name: 'Virtual Machine 4',
            site: sites[1]!.id,
            cluster: clusters[1]!.id,
            device: devices[1]!.id,
            virtual_machine_type: vmTypes[0]!.id,
          },
          {
            name: 'Virtual Machine 5',
            site: sites[1]!.id,
            cluster: clusters[1]!.id,
            virtual_machine_type: vmTypes[1]!.id,
          },
          { name: 'Virtual Machine 6', site: sites[1]!.id },
          {
            name: 'Virtual Machine 7',
            cluster: clusters[2]!.id,
            virtual_machine_type: vmTypes[0]!.id,
            start_on_boot: 'on',
          },
        ],
        cluster: clusters[0]!.id,
        clusters,
        sites,
        platforms,
        vmTypes,
      };
    },
    tests: {
      ...renderConfigTests(),
      test_virtual_machine_type_defaults_applied_on_create: async (t, data) => {
        const [site, cluster, type] = [(data.sites as Json[])[1]!, (data.clusters as Json[])[1]!, vmTypesOf(data)[0]!];
        const user = await t.user();
        await user.addPermissions('virtualization.add_virtualmachine');
        const response = await user.client.post(t.path(), {
          name: 'Virtual Machine With Defaults',
          site: site.id,
          cluster: cluster.id,
          virtual_machine_type: type.id,
          platform: null,
          vcpus: null,
          memory: null,
        });
        expect(response.status, response.text).toBe(201);
        const vm = (await t.get(response.body.id as number))!;
        expect(vm.virtual_machine_type.id).toBe(type.id);
        expect(vm.platform.id).toBe(type.default_platform.id);
        expect(vm.vcpus).toBe(type.default_vcpus);
        expect(vm.memory).toBe(type.default_memory);
      },
      test_virtual_machine_type_defaults_do_not_override_explicit_values: async (t, data) => {
        const [site, cluster, type] = [(data.sites as Json[])[1]!, (data.clusters as Json[])[1]!, vmTypesOf(data)[0]!];
        const platform = (data.platforms as Json[])[2]!;
        const user = await t.user();
        await user.addPermissions('virtualization.add_virtualmachine');
        const response = await user.client.post(t.path(), {
          name: 'Virtual Machine With Explicit Values',
          site: site.id,
          cluster: cluster.id,
          virtual_machine_type: type.id,
          platform: platform.id,
          vcpus: 6,
          memory: 12288,
        });
        expect(response.status, response.text).toBe(201);
        const vm = (await t.get(response.body.id as number))!;
        expect(vm.virtual_machine_type.id).toBe(type.id);
        expect(vm.platform.id).toBe(platform.id);
        expect(Number(vm.vcpus)).toBe(6);
        expect(vm.memory).toBe(12288);
      },
      test_setting_virtual_machine_type_on_existing_vm_does_not_backfill_defaults: async (t, data) => {
        const vm = ((await t.admin.get(`${t.path()}?name=Virtual Machine 2`)).body.results as Json[])[0]!;
        const type = vmTypesOf(data)[1]!;
        const user = await t.user();
        await user.addPermissions('virtualization.change_virtualmachine');
        const response = await user.client.patch(`${t.path()}${vm.id}/`, { virtual_machine_type: type.id });
        expect(response.status, response.text).toBe(200);
        const after = (await t.get(vm.id as number))!;
        expect(after.virtual_machine_type.id).toBe(type.id);
        expect(after.platform).toBeNull();
        expect(after.vcpus).toBeNull();
        expect(after.memory).toBeNull();
      },
      test_config_context_included_by_default_in_list_view: async (t) => {
        const [vm] = await t.queryset();
        const user = await t.user();
        await user.addPermissions('virtualization.view_virtualmachine');
        const response = await user.client.get(`${t.path()}?id=${vm!.id}`);
        expect(response.body.results[0].config_context?.A).toBe(1);
      },
      test_config_context_excluded: async (t) => {
        const user = await t.user();
        await user.addPermissions('virtualization.view_virtualmachine');
        const response = await user.client.get(`${t.path()}?exclude=config_context`);
        expect(response.body.results[0]).not.toHaveProperty('config_context');
      },
      test_unique_name_per_cluster_constraint: async (t, data) => {
        const user = await t.user();
        await user.addPermissions('virtualization.add_virtualmachine');
        const response = await user.client.post(t.path(), { name: 'Virtual Machine 1', cluster: data.cluster });
        expect(response.status).toBe(400);
      },
      test_list_object_includes_nat_inside_on_primary_ip: async (t) => {
        const vm = await virtualMachine(t, 'natted-vm');
        const iface = await t.make('virtualization.vminterface', { virtual_machine: vm.id, name: 'eth0' });
        const real = await t.make('ipam.ipaddress', {
          address: '10.0.1.10/32',
          assigned_object_type: 'virtualization.vminterface',
          assigned_object_id: iface.id,
        });
        const nat = await t.make('ipam.ipaddress', { address: '198.51.100.20/32', nat_inside: real.id });
        expect((await t.admin.patch(`${t.path()}${vm.id}/`, { primary_ip4: nat.id })).status).toBe(200);
        const user = await t.user();
        await user.addPermissions('virtualization.view_virtualmachine', 'ipam.view_ipaddress');
        const response = await user.client.get(`${t.path()}?id=${vm.id}`);
        expect(response.status).toBe(200);
        const result = response.body.results[0];
        for (const field of ['primary_ip', 'primary_ip4']) {
          expect(result[field].address).toBe('198.51.100.20/32');
          expect(result[field].nat_inside.address).toBe('10.0.1.10/32');
          expect(result[field].nat_outside).toEqual([]);
        }
      },
      test_get_object_includes_nat_outside_on_primary_ip: async (t) => {
        const vm = await virtualMachine(t, 'real-ip-vm');
        const iface = await t.make('virtualization.vminterface', { virtual_machine: vm.id, name: 'eth0' });
        const real = await t.make('ipam.ipaddress', {
          address: '10.0.1.11/32',
          assigned_object_type: 'virtualization.vminterface',
          assigned_object_id: iface.id,
        });
        await t.make('ipam.ipaddress', { address: '198.51.100.21/32', nat_inside: real.id });
        expect((await t.admin.patch(`${t.path()}${vm.id}/`, { primary_ip4: real.id })).status).toBe(200);
        const user = await t.user();
        await user.addPermissions('virtualization.view_virtualmachine', 'ipam.view_ipaddress');
        const response = await user.client.get(`${t.path()}${vm.id}/?exclude=config_context`);
        expect(response.status).toBe(200);
        for (const field of ['primary_ip', 'primary_ip4']) {
          expect(response.body[field].address).toBe('10.0.1.11/32');
          expect(response.body[field].nat_inside).toBeNull();
          expect(response.body[field].nat_outside.map((ip: Json) => ip.address)).toEqual(['198.51.100.21/32']);
        }
      },
      test_get_object_includes_dns_name_on_primary_ip: async (t) => {
        const vm = await virtualMachine(t, 'dns-vm');
        const [eth0, eth1] = await t.makeAll('virtualization.vminterface', [
          { virtual_machine: vm.id, name: 'eth0' },
          { virtual_machine: vm.id, name: 'eth1' },
        ]);
        const assigned = (id: number): Json => ({
          assigned_object_type: 'virtualization.vminterface',
          assigned_object_id: id,
        });
        const ip4 = await t.make('ipam.ipaddress', {
          address: '192.0.2.40/32',
          dns_name: 'vm4.example.com',
          ...assigned(eth0!.id),
        });
        const ip6 = await t.make('ipam.ipaddress', {
          address: '2001:db8::40/128',
          dns_name: 'vm6.example.com',
          ...assigned(eth1!.id),
        });
        expect((await t.admin.patch(`${t.path()}${vm.id}/`, { primary_ip4: ip4.id, primary_ip6: ip6.id })).status).toBe(
          200,
        );
        const user = await t.user();
        await user.addPermissions('virtualization.view_virtualmachine', 'ipam.view_ipaddress');
        const response = await user.client.get(`${t.path()}${vm.id}/?exclude=config_context`);
        expect(response.status).toBe(200);
        expect(response.body.primary_ip4.dns_name).toBe('vm4.example.com');
        expect(response.body.primary_ip6.dns_name).toBe('vm6.example.com');
        expect(['vm4.example.com', 'vm6.example.com']).toContain(response.body.primary_ip.dns_name);
      },
    },
  },
  {
    source: 'virtualization/tests/test_api.py::VMInterfaceTestCase',
    model: 'virtualization.vminterface',
    briefFields: ['description', 'display', 'id', 'name', 'url', 'virtual_machine'],
    bulkUpdateData: description,
    userPermissions: ['virtualization.view_virtualmachine'],
    setUp: async (t) => {
      const vm = await virtualMachine(t, 'Virtual Machine 1');
      const interfaces = await t.makeAll(
        'virtualization.vminterface',
        [1, 2, 3].map((i) => ({ virtual_machine: vm.id, name: `Interface ${i}` })),
      );
      const vlans = await t.makeAll('ipam.vlan', [
        { name: 'VLAN 1', vid: 1 },
        { name: 'VLAN 2', vid: 2 },
        { name: 'VLAN 3', vid: 3 },
        { name: 'SVLAN 1', vid: 1001, qinq_role: 'svlan' },
      ]);
      const vrfs = await t.makeAll('ipam.vrf', [{ name: 'VRF 1' }, { name: 'VRF 2' }, { name: 'VRF 3' }]);
      const tagged = { mode: 'tagged', tagged_vlans: [vlans[0]!.id, vlans[1]!.id], untagged_vlan: vlans[2]!.id };
      return {
        createData: [
          { virtual_machine: vm.id, name: 'Interface 4', ...tagged, vrf: vrfs[0]!.id },
          { virtual_machine: vm.id, name: 'Interface 5', ...tagged, bridge: interfaces[0]!.id, vrf: vrfs[1]!.id },
          { virtual_machine: vm.id, name: 'Interface 6', ...tagged, parent: interfaces[1]!.id, vrf: vrfs[2]!.id },
          { virtual_machine: vm.id, name: 'Interface 7', mode: 'q-in-q', qinq_svlan: vlans[3]!.id },
        ],
      };
    },
    tests: {
      test_set_vminterface_as_object_in_custom_field: async (t) => {
        await t.make('extras.customfield', {
          name: 'associated_interface',
          type: 'object',
          related_object_type: 'virtualization.vminterface',
          object_types: ['ipam.prefix'],
          required: false,
        });
        const prefix = await t.make('ipam.prefix', { prefix: '10.0.0.0/12' });
        const [vmi] = await t.queryset();
        // NetBox does not check that the user may view the related object; here (issue 12) an object custom
        // field may only point at an object the user can see, so the user also views interfaces.
        const user = await t.user(['virtualization.view_vminterface']);
        await user.addPermissions('ipam.change_prefix');
        const response = await user.client.patch(`/api/ipam/prefixes/${prefix.id}/`, {
          custom_fields: { associated_interface: vmi!.id },
        });
        expect(response.status, response.text).toBe(200);
        expect(response.body.custom_fields.associated_interface.id).toBe(vmi!.id);
        expect((await t.get(prefix.id, 'ipam.prefix'))!.custom_fields.associated_interface).not.toBeNull();
      },
      test_bulk_delete_child_interfaces: async (t) => {
        const interface1 = ((await t.admin.get(`${t.path()}?name=Interface 1`)).body.results as Json[])[0]!;
        const vm = interface1.virtual_machine.id as number;
        // NetBox does not check that the user may view the related object; here (issue 12) an object custom
        // field may only point at an object the user can see, so the user also views interfaces.
        const user = await t.user(['virtualization.view_vminterface']);
        await user.addPermissions('virtualization.delete_vminterface');
        const child = await t.make('virtualization.vminterface', {
          virtual_machine: vm,
          name: 'Interface 1A',
          parent: interface1.id,
        });
        const count = async (): Promise<number> =>
          (await t.admin.get(`${t.path()}?virtual_machine_id=${vm}&limit=1`)).body.count as number;
        expect(await count()).toBe(4);
        await user.client.delete(`${t.path()}${interface1.id}/`);
        expect(await count()).toBe(4);
        await user.client.delete(t.path(), [{ id: interface1.id }, { id: child.id }]);
        expect(await count()).toBe(2);
      },
    },
  },
  {
    source: 'virtualization/tests/test_api.py::VirtualDiskTestCase',
    model: 'virtualization.virtualdisk',
    briefFields: ['description', 'display', 'id', 'name', 'size', 'url', 'virtual_machine'],
    bulkUpdateData: { size: 888 },
    userPermissions: ['virtualization.view_virtualmachine'],
    setUp: async (t) => {
      const vm = await virtualMachine(t, 'Virtual Machine 1');
      await t.makeAll(
        'virtualization.virtualdisk',
        [1, 2, 3].map((i) => ({ virtual_machine: vm.id, name: `Disk ${i}`, size: i * 10 })),
      );
      return {
        createData: [4, 5, 6].map((i) => ({ virtual_machine: vm.id, name: `Disk ${i}`, size: (i - 3) * 10 })),
      };
    },
  },
];
