import { expect } from 'vitest';
import type { NetBoxTestCase } from '../generic.js';
import type { PortedClass } from '../harness.js';

/** Ported from NetBox 4.6.8 vpn/tests/test_api.py. */

type Json = Record<string, any>;

/** NetBox's create_test_device: Site 1, Manufacturer 1, Device Type 1 and Device Role 1. */
async function testDevice(t: PortedClass, name: string): Promise<Json> {
  const site = await t.make('dcim.site', { name: 'Site 1', slug: 'site-1' });
  const manufacturer = await t.make('dcim.manufacturer', { name: 'Manufacturer 1', slug: 'manufacturer-1' });
  const type = await t.make('dcim.devicetype', {
    manufacturer: manufacturer.id,
    model: 'Device Type 1',
    slug: 'device-type-1',
  });
  const role = await t.make('dcim.devicerole', { name: 'Device Role 1', slug: 'device-role-1' });
  return t.make('dcim.device', { name, site: site.id, device_type: type.id, role: role.id });
}

/** An IKE proposal with the setUp values NetBox's classes share. */
const ikeProposal = (name: string): Json => ({
  name,
  authentication_method: 'preshared-keys',
  encryption_algorithm: 'aes-128-cbc',
  authentication_algorithm: 'hmac-sha1',
  group: 14,
});

const ipsecProposal = (name: string): Json => ({
  name,
  encryption_algorithm: 'aes-128-cbc',
  authentication_algorithm: 'hmac-sha1',
});

const CRYPTO_BRIEF = ['description', 'display', 'id', 'name', 'url'];

export const vpnCases: NetBoxTestCase[] = [
  {
    source: 'vpn/tests/test_api.py::TunnelGroupTestCase',
    model: 'vpn.tunnelgroup',
    briefFields: ['description', 'display', 'id', 'name', 'slug', 'tunnel_count', 'url'],
    bulkUpdateData: { description: 'New description' },
    setUp: async (t) => {
      await t.makeAll(
        'vpn.tunnelgroup',
        [1, 2, 3].map((i) => ({ name: `Tunnel Group ${i}`, slug: `tunnel-group-${i}` })),
      );
      return {
        createData: [4, 5, 6].map((i) => ({ name: `Tunnel Group ${i}`, slug: `tunnel-group-${i}` })),
      };
    },
  },
  {
    source: 'vpn/tests/test_api.py::TunnelTestCase',
    model: 'vpn.tunnel',
    briefFields: ['description', 'display', 'id', 'name', 'url'],
    bulkUpdateData: { status: 'planned', encapsulation: 'gre', description: 'New description' },
    setUp: async (t) => {
      const groups = await t.makeAll('vpn.tunnelgroup', [
        { name: 'Tunnel Group 1', slug: 'tunnel-group-1' },
        { name: 'Tunnel Group 2', slug: 'tunnel-group-2' },
      ]);
      await t.makeAll(
        'vpn.tunnel',
        [1, 2, 3].map((i) => ({ name: `Tunnel ${i}`, status: 'active', group: groups[0]!.id, encapsulation: 'ip-ip' })),
      );
      return {
        createData: [
          { name: 'Tunnel 4', status: 'disabled', group: groups[1]!.id, encapsulation: 'gre' },
          { name: 'Tunnel 5', status: 'disabled', group: groups[1]!.id, encapsulation: 'gre' },
          { name: 'Tunnel 6', status: 'disabled', encapsulation: 'gre' },
        ],
      };
    },
  },
  {
    source: 'vpn/tests/test_api.py::TunnelTerminationTestCase',
    model: 'vpn.tunneltermination',
    briefFields: ['display', 'id', 'url'],
    bulkUpdateData: { role: 'peer' },
    userPermissions: ['vpn.view_tunnel'],
    setUp: async (t) => {
      const device = await testDevice(t, 'Device 1');
      const interfaces = await t.makeAll(
        'dcim.interface',
        [1, 2, 3, 4, 5, 6].map((i) => ({ device: device.id, name: `Interface ${i}`, type: 'virtual' })),
      );
      const tunnel = await t.make('vpn.tunnel', { name: 'Tunnel 1', status: 'active', encapsulation: 'ip-ip' });
      const on = (i: number): Json => ({ termination_type: 'dcim.interface', termination_id: interfaces[i]!.id });
      await t.makeAll(
        'vpn.tunneltermination',
        [0, 1, 2].map((i) => ({ tunnel: tunnel.id, role: 'hub', ...on(i) })),
      );
      return { createData: [3, 4, 5].map((i) => ({ tunnel: tunnel.id, role: 'peer', ...on(i) })) };
    },
  },
  {
    source: 'vpn/tests/test_api.py::IKEProposalTestCase',
    model: 'vpn.ikeproposal',
    briefFields: CRYPTO_BRIEF,
    bulkUpdateData: {
      authentication_method: 'certificates',
      encryption_algorithm: 'aes-192-cbc',
      authentication_algorithm: 'hmac-md5',
      group: 19,
      description: 'New description',
    },
    setUp: async (t) => {
      await t.makeAll(
        'vpn.ikeproposal',
        [1, 2, 3].map((i) => ikeProposal(`IKE Proposal ${i}`)),
      );
      return {
        createData: [4, 5, 6].map((i) => ({
          name: `IKE Proposal ${i}`,
          authentication_method: 'certificates',
          encryption_algorithm: 'aes-256-cbc',
          authentication_algorithm: 'hmac-sha256',
          group: 19,
        })),
      };
    },
  },
  {
    source: 'vpn/tests/test_api.py::IKEPolicyTestCase',
    model: 'vpn.ikepolicy',
    briefFields: CRYPTO_BRIEF,
    bulkUpdateData: { version: 1, mode: 'aggressive', description: 'New description', preshared_key: 'New key' },
    setUp: async (t) => {
      const proposals = await t.makeAll('vpn.ikeproposal', [
        ikeProposal('IKE Proposal 1'),
        ikeProposal('IKE Proposal 2'),
      ]);
      const ids = proposals.map((p) => p.id);
      await t.makeAll(
        'vpn.ikepolicy',
        [1, 2, 3].map((i) => ({ name: `IKE Policy ${i}`, version: 1, mode: 'main', proposals: ids })),
      );
      return {
        createData: [4, 5, 6].map((i) => ({ name: `IKE Policy ${i}`, version: 1, mode: 'main', proposals: ids })),
      };
    },
  },
  {
    source: 'vpn/tests/test_api.py::IPSecProposalTestCase',
    model: 'vpn.ipsecproposal',
    briefFields: CRYPTO_BRIEF,
    bulkUpdateData: {
      encryption_algorithm: 'aes-192-cbc',
      authentication_algorithm: 'hmac-md5',
      description: 'New description',
    },
    setUp: async (t) => {
      await t.makeAll(
        'vpn.ipsecproposal',
        [1, 2, 3].map((i) => ipsecProposal(`IPSec Proposal ${i}`)),
      );
      return {
        createData: [4, 5, 6].map((i) => ({
          name: `IPSec Proposal ${i}`,
          encryption_algorithm: 'aes-256-cbc',
          authentication_algorithm: 'hmac-sha256',
        })),
      };
    },
  },
  {
    source: 'vpn/tests/test_api.py::IPSecPolicyTestCase',
    model: 'vpn.ipsecpolicy',
    briefFields: CRYPTO_BRIEF,
    bulkUpdateData: { pfs_group: 5, description: 'New description' },
    setUp: async (t) => {
      const proposals = await t.makeAll('vpn.ipsecproposal', [
        ipsecProposal('IPSec Policy 1'),
        ipsecProposal('IPSec Proposal 2'),
      ]);
      const ids = proposals.map((p) => p.id);
      await t.makeAll(
        'vpn.ipsecpolicy',
        [1, 2, 3].map((i) => ({ name: `IPSec Policy ${i}`, pfs_group: 14, proposals: ids })),
      );
      return {
        createData: [4, 5, 6].map((i) => ({ name: `IPSec Policy ${i}`, pfs_group: 16, proposals: ids })),
      };
    },
  },
  {
    source: 'vpn/tests/test_api.py::IPSecProfileTestCase',
    model: 'vpn.ipsecprofile',
    briefFields: CRYPTO_BRIEF,
    userPermissions: ['vpn.view_ikepolicy', 'vpn.view_ipsecpolicy'],
    setUp: async (t) => {
      const ike = await t.make('vpn.ikeproposal', ikeProposal('IKE Proposal 1'));
      const ipsec = await t.make('vpn.ipsecproposal', ipsecProposal('IPSec Proposal 1'));
      const ikePolicies = await t.makeAll(
        'vpn.ikepolicy',
        [1, 2].map((i) => ({ name: `IKE Policy ${i}`, version: 1, mode: 'main', proposals: [ike.id] })),
      );
      const ipsecPolicies = await t.makeAll(
        'vpn.ipsecpolicy',
        [1, 2].map((i) => ({ name: `IPSec Policy ${i}`, pfs_group: 14, proposals: [ipsec.id] })),
      );
      await t.makeAll(
        'vpn.ipsecprofile',
        [1, 2, 3].map((i) => ({
          name: `IPSec Profile ${i}`,
          mode: 'esp',
          ike_policy: ikePolicies[0]!.id,
          ipsec_policy: ipsecPolicies[0]!.id,
        })),
      );
      return {
        createData: [
          { name: 'IPSec Profile 4', mode: 'ah', ike_policy: ikePolicies[1]!.id, ipsec_policy: ipsecPolicies[1]!.id },
        ],
        bulkUpdateData: {
          mode: 'ah',
          ike_policy: ikePolicies[1]!.id,
          ipsec_policy: ipsecPolicies[1]!.id,
          description: 'New description',
        },
      };
    },
  },
  {
    source: 'vpn/tests/test_api.py::L2VPNTestCase',
    model: 'vpn.l2vpn',
    briefFields: ['description', 'display', 'id', 'identifier', 'name', 'slug', 'type', 'url'],
    bulkUpdateData: { description: 'New description' },
    setUp: async (t) => {
      await t.makeAll('vpn.l2vpn', [
        { name: 'L2VPN 1', slug: 'l2vpn-1', type: 'vxlan', identifier: 650001, status: 'active' },
        { name: 'L2VPN 2', slug: 'l2vpn-2', type: 'vpws', identifier: 650002, status: 'planned' },
        { name: 'L2VPN 3', slug: 'l2vpn-3', type: 'vpls', status: 'decommissioning' },
      ]);
      return {
        createData: [
          { name: 'L2VPN 4', slug: 'l2vpn-4', type: 'vxlan', identifier: 33343344, status: 'active' },
          { name: 'L2VPN 5', slug: 'l2vpn-5', type: 'vxlan', identifier: 33343345, status: 'planned' },
          { name: 'L2VPN 6', slug: 'l2vpn-6', type: 'vpws', identifier: 33343346, status: 'decommissioning' },
        ],
      };
    },
    tests: {
      test_status_filter: async (t) => {
        const user = await t.user();
        await user.addPermissions('vpn.view_l2vpn');
        const count = async (query: string): Promise<number> => {
          const response = await user.client.get(`${t.path()}${query}`);
          expect(response.status).toBe(200);
          return response.body.count as number;
        };
        expect(await count('')).toBe(3);
        expect(await count('?status=active')).toBe(1);
        expect(await count('?status=active&status=planned')).toBe(2);
        expect(await count('?status=decommissioning')).toBe(1);
      },
    },
  },
  {
    source: 'vpn/tests/test_api.py::L2VPNTerminationTestCase',
    model: 'vpn.l2vpntermination',
    briefFields: ['display', 'id', 'l2vpn', 'url'],
    userPermissions: ['dcim.view_location', 'vpn.view_l2vpn'],
    setUp: async (t) => {
      const vlans = await t.makeAll(
        'ipam.vlan',
        [1, 2, 3, 4, 5, 6, 7].map((i) => ({ name: `VLAN ${i}`, vid: 650 + i })),
      );
      const l2vpns = await t.makeAll('vpn.l2vpn', [
        { name: 'L2VPN 1', slug: 'l2vpn-1', type: 'vxlan', identifier: 650001 },
        { name: 'L2VPN 2', slug: 'l2vpn-2', type: 'vpws', identifier: 650002 },
        { name: 'L2VPN 3', slug: 'l2vpn-3', type: 'vpls' },
      ]);
      const on = (i: number): Json => ({ assigned_object_type: 'ipam.vlan', assigned_object_id: vlans[i]!.id });
      await t.makeAll(
        'vpn.l2vpntermination',
        [0, 1, 2].map((i) => ({ l2vpn: l2vpns[0]!.id, ...on(i) })),
      );
      return {
        createData: [3, 4, 5].map((i) => ({ l2vpn: l2vpns[0]!.id, ...on(i) })),
        bulkUpdateData: { l2vpn: l2vpns[2]!.id },
      };
    },
  },
];
