import { expect } from 'vitest';
import type { NetBoxTestCase } from '../generic.js';
import type { PortedClass } from '../harness.js';

/** Ported from NetBox 4.6.8 dcim/tests/test_api.py: cable bundles, cables and cable terminations. */

type Json = Record<string, any>;

/** Two devices (`prefix 1`, `prefix 2`) with interfaces eth0–eth9 each: interfaces[0–9] and [10–19]. */
async function twoDevices(t: PortedClass, prefix = 'Device'): Promise<Json[]> {
  const site = await t.make('dcim.site', { name: `${prefix} Site`, slug: `${prefix.toLowerCase()}-site` });
  const manufacturer = await t.make('dcim.manufacturer', {
    name: `${prefix} Manufacturer`,
    slug: `${prefix.toLowerCase()}-manufacturer`,
  });
  const type = await t.make('dcim.devicetype', {
    manufacturer: manufacturer.id,
    model: `${prefix} Device Type`,
    slug: `${prefix.toLowerCase()}-device-type`,
  });
  const role = await t.make('dcim.devicerole', {
    name: `${prefix} Role`,
    slug: `${prefix.toLowerCase()}-role`,
    color: 'ff0000',
  });
  const devices = await t.makeAll(
    'dcim.device',
    [1, 2].map((i) => ({ name: `${prefix} ${i}`, site: site.id, device_type: type.id, role: role.id })),
  );
  return t.makeAll(
    'dcim.interface',
    devices.flatMap((device) =>
      [...Array(10).keys()].map((i) => ({ device: device.id, name: `eth${i}`, type: '1000base-t' })),
    ),
  );
}

const end = (interface_: Json): Json[] => [{ object_type: 'dcim.interface', object_id: interface_.id }];

/** Cables 1–3 between interfaces 0–2 and 10–12. */
async function threeCables(t: PortedClass, interfaces: Json[]): Promise<void> {
  await t.makeAll(
    'dcim.cable',
    [0, 1, 2].map((i) => ({
      a_terminations: end(interfaces[i]!),
      b_terminations: end(interfaces[i + 10]!),
      label: `Cable ${i + 1}`,
    })),
  );
}

export const dcimCablesCases: NetBoxTestCase[] = [
  {
    source: 'dcim/tests/test_api.py::CableBundleTestCase',
    model: 'dcim.cablebundle',
    briefFields: ['description', 'display', 'id', 'name', 'url'],
    bulkUpdateData: { description: 'New description' },
    setUp: async (t) => {
      await t.makeAll(
        'dcim.cablebundle',
        [1, 2, 3].map((i) => ({ name: `Cable Bundle ${i}` })),
      );
      return { createData: [4, 5, 6].map((i) => ({ name: `Cable Bundle ${i}` })) };
    },
    tests: {
      test_cable_count: async (t) => {
        const user = await t.user();
        await user.addPermissions('dcim.view_cablebundle');
        const [bundle] = await t.queryset();
        const interfaces = await twoDevices(t, 'CB');
        await t.makeAll('dcim.cable', [
          { a_terminations: end(interfaces[0]!), b_terminations: end(interfaces[10]!), bundle: bundle!.id },
          { a_terminations: end(interfaces[1]!), b_terminations: end(interfaces[11]!), bundle: bundle!.id },
        ]);
        const response = await user.client.get(`${t.path()}${bundle!.id}/`);
        expect(response.status, response.text).toBe(200);
        expect(response.body.cable_count).toBe(2);
      },
    },
  },
  {
    source: 'dcim/tests/test_api.py::CableTestCase',
    model: 'dcim.cable',
    briefFields: ['description', 'display', 'id', 'label', 'url'],
    bulkUpdateData: { length: 100, length_unit: 'm' },
    setUp: async (t) => {
      const interfaces = await twoDevices(t);
      await threeCables(t, interfaces);
      return {
        createData: [
          {
            a_terminations: end(interfaces[4]!),
            b_terminations: end(interfaces[14]!),
            label: 'Cable 4',
            profile: 'single-1c1p',
          },
          {
            a_terminations: end(interfaces[5]!),
            b_terminations: end(interfaces[15]!),
            label: 'Cable 5',
            profile: 'single-1c1p',
          },
          { a_terminations: end(interfaces[6]!), b_terminations: end(interfaces[16]!), label: 'Cable 6' },
        ],
      };
    },
    leftOut: {
      test_update_object: 'NetBox sets it to None ("TODO: Allow updating cable terminations")',
      test_graphql_cable_termination_cached_filters: 'GraphQL is not served, by design',
    },
  },
  {
    source: 'dcim/tests/test_api.py::CableTerminationTestCase',
    model: 'dcim.cabletermination',
    briefFields: [
      'cable',
      'cable_end',
      'connector',
      'display',
      'id',
      'positions',
      'termination_id',
      'termination_type',
      'url',
    ],
    mixins: ['get', 'list'],
    setUp: async (t) => {
      await threeCables(t, await twoDevices(t));
      return { createData: [] };
    },
  },
];
