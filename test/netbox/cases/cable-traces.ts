import { expect } from 'vitest';
import type { PortedClass } from '../harness.js';

/**
 * NetBox 4.6.8 dcim/tests/test_api.py's cable path tests of device components: ComponentTraceMixin.test_trace
 * (a component cabled to a peer on a new device, traced in one segment) and the pass-through ports'
 * test_front_port_paths / test_rear_port_paths (`paths/` answers 200).
 */

type Json = Record<string, any>;

const end = (type: string, id: number): Json[] => [{ object_type: type, object_id: id }];

/** ComponentTraceMixin.test_trace for a component whose peer is a `peerLabel` on a `Peer Device`. */
export function traceTest(peerLabel: string): (t: PortedClass) => Promise<void> {
  return async (t) => {
    const obj = await t.get((await t.queryset())[0]!.id as number);
    const [site] = await t.all('dcim.site');
    const [type] = await t.all('dcim.devicetype');
    const [role] = await t.all('dcim.devicerole');
    const peerDevice = await t.make('dcim.device', {
      site: site!.id,
      device_type: type!.id,
      role: role!.id,
      name: 'Peer Device',
    });
    const typed = peerLabel === 'dcim.interface' ? { type: '1000base-t' } : {};
    const peer = await t.make(peerLabel, { device: peerDevice.id, name: 'Peer Termination', ...typed });
    await t.make('dcim.cable', {
      a_terminations: end(t.model, obj!.id),
      b_terminations: end(peerLabel, peer.id),
      label: 'Cable 1',
    });
    const user = await t.user();
    await user.addPermissions(`dcim.view_${t.model.split('.')[1]}`);
    const response = await user.client.get(`${t.path()}${obj!.id}/trace/`);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toHaveLength(1);
    const [segment] = response.body as [Json[], Json, Json[]][];
    expect(segment![0][0]!.name).toBe(obj!.name);
    expect(segment![1].label).toBe('Cable 1');
    expect(segment![2][0]!.name).toBe('Peer Termination');
  };
}

/** test_front_port_paths / test_rear_port_paths: a port cabled to an interface answers its `paths/`. */
export function pathsTest(): (t: PortedClass) => Promise<void> {
  return async (t) => {
    const [device] = await t.all('dcim.device');
    const iface = await t.make('dcim.interface', { device: device!.id, name: 'Interface 1', type: '1000base-t' });
    const rear = await t.make('dcim.rearport', { device: device!.id, name: 'Rear Port 10', type: '8p8c' });
    let port = rear;
    if (t.model === 'dcim.frontport')
      port = await t.make('dcim.frontport', {
        device: device!.id,
        name: 'Front Port 10',
        type: '8p8c',
        rear_ports: [{ position: 1, rear_port: rear.id, rear_port_position: 1 }],
      });
    await t.make('dcim.cable', {
      a_terminations: end('dcim.interface', iface.id),
      b_terminations: end(t.model, port.id),
    });
    const user = await t.user();
    await user.addPermissions(`dcim.view_${t.model.split('.')[1]}`);
    const response = await user.client.get(`${t.path()}${port.id}/paths/`);
    expect(response.status, response.text).toBe(200);
  };
}
