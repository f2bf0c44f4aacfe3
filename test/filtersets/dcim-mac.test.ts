import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/app.js';
import { changeLoggedTests, createAll, filterSetSuite, patchAll, useApp } from '../support/filtersets.js';

/** NetBox 4.6.8 dcim/tests/test_filtersets.py for MAC addresses (MACAddressTestCase). */
describe.each(DIALECTS)('dcim-mac filter sets on %s', (dialect) => {
  const shared = useApp(dialect);

  describe('MACAddressTestCase', () => {
    const suite = filterSetSuite(shared, 'dcim.macaddress', async (api) => {
      // create_test_device and create_test_virtualmachine: one site, type and role; one cluster.
      const [site] = await createAll(api, '/api/dcim/sites/', [{ name: 'Site 1', slug: 'site-1' }]);
      const [manufacturer] = await createAll(api, '/api/dcim/manufacturers/', [
        { name: 'Manufacturer 1', slug: 'manufacturer-1' },
      ]);
      const [type] = await createAll(api, '/api/dcim/device-types/', [
        { manufacturer: manufacturer!.id, model: 'Device Type 1', slug: 'device-type-1' },
      ]);
      const [role] = await createAll(api, '/api/dcim/device-roles/', [
        { name: 'Device Role 1', slug: 'device-role-1' },
      ]);
      const devices = await createAll(
        api,
        '/api/dcim/devices/',
        [1, 2, 3].map((i) => ({ name: `Device ${i}`, site: site!.id, device_type: type!.id, role: role!.id })),
      );
      const interfaces = await createAll(
        api,
        '/api/dcim/interfaces/',
        devices.map((d, i) => ({ device: d.id, name: `Interface ${i + 1}`, type: '1000base-t' })),
      );
      const [clusterType] = await createAll(api, '/api/virtualization/cluster-types/', [
        { name: 'Cluster Type 1', slug: 'cluster-type-1' },
      ]);
      const [cluster] = await createAll(api, '/api/virtualization/clusters/', [
        { name: 'Cluster 1', type: clusterType!.id },
      ]);
      const virtual_machines = await createAll(
        api,
        '/api/virtualization/virtual-machines/',
        [1, 2, 3].map((i) => ({ name: `Virtual Machine ${i}`, cluster: cluster!.id })),
      );
      const vm_interfaces = await createAll(
        api,
        '/api/virtualization/interfaces/',
        virtual_machines.map((vm, i) => ({ virtual_machine: vm.id, name: `Interface ${i + 1}` })),
      );
      const on = (type: string, object: Record<string, any>) => ({
        assigned_object_type: type,
        assigned_object_id: object.id,
      });
      const device = (i: number) => on('dcim.interface', interfaces[i]!);
      const vm = (i: number) => on('virtualization.vminterface', vm_interfaces[i]!);
      const mac_addresses = await createAll(api, '/api/dcim/mac-addresses/', [
        // Device MACs
        { mac_address: '00-00-00-01-01-01', ...device(0) },
        { mac_address: '00-00-00-02-01-01', ...device(1) },
        { mac_address: '00-00-00-03-01-01', ...device(2) },
        { mac_address: '00-00-00-03-01-02', ...device(2) },
        // VM MACs
        { mac_address: '00-00-00-04-01-01', ...vm(0) },
        { mac_address: '00-00-00-05-01-01', ...vm(1) },
        { mac_address: '00-00-00-06-01-01', ...vm(2) },
        { mac_address: '00-00-00-06-01-02', ...vm(2) },
        // unassigned
        { mac_address: '00-00-00-07-01-01' },
      ]);
      // Set MAC addresses as primary (offset by 4 for the VM interfaces).
      await patchAll(
        api,
        '/api/dcim/interfaces/',
        interfaces.map((iface, i) => ({ id: iface.id, primary_mac_address: mac_addresses[i]!.id })),
      );
      await patchAll(
        api,
        '/api/virtualization/interfaces/',
        vm_interfaces.map((iface, i) => ({ id: iface.id, primary_mac_address: mac_addresses[i + 4]!.id })),
      );
      return { devices, interfaces, virtual_machines, vm_interfaces };
    });
    changeLoggedTests(suite);
    it('test_mac_address', async () => {
      expect(await suite.count({ mac_address: ['00-00-00-01-01-01', '00-00-00-02-01-01'] })).toBe(2);
    });
    it('test_device', async () => {
      const devices = suite.data.devices.slice(0, 2);
      expect(await suite.count({ device_id: [devices[0]!.id, devices[1]!.id] })).toBe(2);
      expect(await suite.count({ device: [devices[0]!.name, devices[1]!.name] })).toBe(2);
    });
    it('test_virtual_machine', async () => {
      const vms = suite.data.virtual_machines.slice(0, 2);
      expect(await suite.count({ virtual_machine_id: [vms[0]!.id, vms[1]!.id] })).toBe(2);
      expect(await suite.count({ virtual_machine: [vms[0]!.name, vms[1]!.name] })).toBe(2);
    });
    it('test_interface', async () => {
      const interfaces = suite.data.interfaces.slice(0, 2);
      expect(await suite.count({ interface_id: [interfaces[0]!.id, interfaces[1]!.id] })).toBe(2);
      expect(await suite.count({ interface: [interfaces[0]!.name, interfaces[1]!.name] })).toBe(2);
    });
    it('test_vminterface', async () => {
      const interfaces = suite.data.vm_interfaces.slice(0, 2);
      expect(await suite.count({ vminterface_id: [interfaces[0]!.id, interfaces[1]!.id] })).toBe(2);
      expect(await suite.count({ vminterface: [interfaces[0]!.name, interfaces[1]!.name] })).toBe(2);
    });
    it('test_assigned', async () => {
      expect(await suite.count({ assigned: true })).toBe(8);
      expect(await suite.count({ assigned: false })).toBe(1);
    });
    it('test_primary', async () => {
      expect(await suite.count({ primary: true })).toBe(6);
      expect(await suite.count({ primary: false })).toBe(3);
    });
  });
});
