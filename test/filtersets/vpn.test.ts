import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../support/client.js';
import { DIALECTS } from '../support/app.js';
import {
  changeLoggedTests,
  createAll,
  createTestDevice,
  filterSetSuite,
  useApp,
  type Row,
} from '../support/filtersets.js';

/** NetBox 4.6.8 vpn/tests/test_filtersets.py. */

/** NetBox's create_test_virtualmachine: a VM in Cluster 1 (of Cluster Type 1). */
async function createTestVirtualMachine(api: ApiClient, name: string): Promise<Row> {
  const [type] = await createAll(api, '/api/virtualization/cluster-types/', [
    { name: 'Cluster Type 1', slug: 'cluster-type-1' },
  ]);
  const [cluster] = await createAll(api, '/api/virtualization/clusters/', [{ name: 'Cluster 1', type: type!.id }]);
  return (await createAll(api, '/api/virtualization/virtual-machines/', [{ name, cluster: cluster!.id }]))[0]!;
}

const ikeProposal = (name: string, extra: Row = {}): Row => ({
  name,
  authentication_method: 'preshared-keys',
  encryption_algorithm: 'aes-128-cbc',
  authentication_algorithm: 'hmac-sha1',
  group: 14,
  ...extra,
});
const ipsecProposal = (name: string, extra: Row = {}): Row => ({
  name,
  encryption_algorithm: 'aes-128-cbc',
  authentication_algorithm: 'hmac-sha1',
  ...extra,
});

describe.each(DIALECTS)('vpn filter sets on %s', (dialect) => {
  const shared = useApp(dialect);

  describe('TunnelGroupTestCase', () => {
    const suite = filterSetSuite(shared, 'vpn.tunnelgroup', async (api) => {
      await createAll(api, '/api/vpn/tunnel-groups/', [
        { name: 'Tunnel Group 1', slug: 'tunnel-group-1', description: 'foobar1' },
        { name: 'Tunnel Group 2', slug: 'tunnel-group-2', description: 'foobar2' },
        { name: 'Tunnel Group 3', slug: 'tunnel-group-3' },
      ]);
    });
    changeLoggedTests(suite);
    it('test_q', async () => expect(await suite.count({ q: 'foobar1' })).toBe(1));
    it('test_name', async () => expect(await suite.count({ name: ['Tunnel Group 1'] })).toBe(1));
    it('test_slug', async () => expect(await suite.count({ slug: ['tunnel-group-1'] })).toBe(1));
    it('test_description', async () => expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2));
  });

  describe('TunnelTestCase', () => {
    const suite = filterSetSuite(shared, 'vpn.tunnel', async (api) => {
      const [ike] = await createAll(api, '/api/vpn/ike-proposals/', [ikeProposal('IKE Proposal 1')]);
      const [ikePolicy] = await createAll(api, '/api/vpn/ike-policies/', [
        { name: 'IKE Policy 1', version: 1, mode: 'main', proposals: [ike!.id] },
      ]);
      const [ipsec] = await createAll(api, '/api/vpn/ipsec-proposals/', [ipsecProposal('IPSec Proposal 1')]);
      const [ipsecPolicy] = await createAll(api, '/api/vpn/ipsec-policies/', [
        { name: 'IPSec Policy 1', pfs_group: 14, proposals: [ipsec!.id] },
      ]);
      const profiles = await createAll(
        api,
        '/api/vpn/ipsec-profiles/',
        [1, 2].map((i) => ({
          name: `IPSec Profile ${i}`,
          mode: 'esp',
          ike_policy: ikePolicy!.id,
          ipsec_policy: ipsecPolicy!.id,
        })),
      );
      const groups = await createAll(
        api,
        '/api/vpn/tunnel-groups/',
        [1, 2, 3].map((i) => ({ name: `Tunnel Group ${i}`, slug: `tunnel-group-${i}` })),
      );
      await createAll(api, '/api/vpn/tunnels/', [
        {
          name: 'Tunnel 1',
          status: 'active',
          group: groups[0]!.id,
          encapsulation: 'gre',
          ipsec_profile: profiles[0]!.id,
          tunnel_id: 100,
          description: 'foobar1',
        },
        {
          name: 'Tunnel 2',
          status: 'planned',
          group: groups[1]!.id,
          encapsulation: 'ip-ip',
          ipsec_profile: profiles[0]!.id,
          tunnel_id: 200,
          description: 'foobar2',
        },
        {
          name: 'Tunnel 3',
          status: 'disabled',
          group: groups[2]!.id,
          encapsulation: 'ipsec-tunnel',
          ipsec_profile: null,
          tunnel_id: 300,
          description: 'foobar3',
        },
      ]);
      return { profiles, groups };
    });
    changeLoggedTests(suite);
    it('test_q', async () => expect(await suite.count({ q: 'foobar1' })).toBe(1));
    it('test_name', async () => expect(await suite.count({ name: ['Tunnel 1', 'Tunnel 2'] })).toBe(2));
    it('test_status', async () => expect(await suite.count({ status: ['active', 'planned'] })).toBe(2));
    it('test_group', async () => {
      const [a, b] = suite.data.groups;
      expect(await suite.count({ group_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ group: [a!.slug, b!.slug] })).toBe(2);
    });
    it('test_encapsulation', async () => expect(await suite.count({ encapsulation: ['gre', 'ip-ip'] })).toBe(2));
    it('test_ipsec_profile', async () => {
      const [a, b] = suite.data.profiles;
      expect(await suite.count({ ipsec_profile_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ ipsec_profile: [a!.name, b!.name] })).toBe(2);
    });
    it('test_tunnel_id', async () => expect(await suite.count({ tunnel_id: [100, 200] })).toBe(2));
    it('test_description', async () => expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2));
  });

  describe('TunnelTerminationTestCase', () => {
    const suite = filterSetSuite(shared, 'vpn.tunneltermination', async (api) => {
      const device = await createTestDevice(api, 'Device 1');
      const interfaces = await createAll(
        api,
        '/api/dcim/interfaces/',
        [1, 2, 3].map((i) => ({ device: device.id, name: `Interface ${i}`, type: 'virtual' })),
      );
      const vm = await createTestVirtualMachine(api, 'Virtual Machine 1');
      const vmInterfaces = await createAll(
        api,
        '/api/virtualization/interfaces/',
        [1, 2, 3].map((i) => ({ virtual_machine: vm.id, name: `Interface ${i}` })),
      );
      const addresses = await createAll(
        api,
        '/api/ipam/ip-addresses/',
        [1, 2, 3, 4, 5, 6].map((i) => ({ address: `192.168.0.${i}/32` })),
      );
      const tunnels = await createAll(
        api,
        '/api/vpn/tunnels/',
        [1, 2, 3].map((i) => ({ name: `Tunnel ${i}`, status: 'active', encapsulation: 'ip-ip' })),
      );
      const roles = [
        ['hub', 'spoke'],
        ['hub', 'spoke'],
        ['peer', 'peer'],
      ];
      await createAll(
        api,
        '/api/vpn/tunnel-terminations/',
        [0, 1, 2].flatMap((i) => [
          {
            tunnel: tunnels[i]!.id,
            role: roles[i]![0],
            termination_type: 'dcim.interface',
            termination_id: interfaces[i]!.id,
            outside_ip: addresses[2 * i]!.id,
          },
          {
            tunnel: tunnels[i]!.id,
            role: roles[i]![1],
            termination_type: 'virtualization.vminterface',
            termination_id: vmInterfaces[i]!.id,
            outside_ip: addresses[2 * i + 1]!.id,
          },
        ]),
      );
      return { interfaces, vmInterfaces, addresses, tunnels };
    });
    changeLoggedTests(suite);
    it('test_tunnel', async () => {
      const [a, b] = suite.data.tunnels;
      expect(await suite.count({ tunnel_id: [a!.id, b!.id] })).toBe(4);
      expect(await suite.count({ tunnel: [a!.name, b!.name] })).toBe(4);
    });
    it('test_role', async () => expect(await suite.count({ role: ['hub', 'spoke'] })).toBe(4));
    it('test_termination_type', async () => {
      expect(await suite.count({ termination_type: ['dcim.interface'] })).toBe(3);
      expect(await suite.count({ termination_type: ['virtualization.vminterface'] })).toBe(3);
    });
    it('test_interface', async () => {
      const [a, b] = suite.data.interfaces;
      expect(await suite.count({ interface_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ interface: [a!.name, b!.name] })).toBe(2);
    });
    it('test_vminterface', async () => {
      const [a, b] = suite.data.vmInterfaces;
      expect(await suite.count({ vminterface_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ vminterface: [a!.name, b!.name] })).toBe(2);
    });
    it('test_outside_ip', async () => {
      const [a, b] = suite.data.addresses;
      expect(await suite.count({ outside_ip_id: [a!.id, b!.id] })).toBe(2);
    });
  });

  describe('IKEProposalTestCase', () => {
    const suite = filterSetSuite(shared, 'vpn.ikeproposal', async (api) => {
      const proposals = await createAll(api, '/api/vpn/ike-proposals/', [
        ikeProposal('IKE Proposal 1', { group: 1, sa_lifetime: 1000, description: 'foobar1' }),
        ikeProposal('IKE Proposal 2', {
          authentication_method: 'certificates',
          encryption_algorithm: 'aes-192-cbc',
          authentication_algorithm: 'hmac-sha256',
          group: 2,
          sa_lifetime: 2000,
          description: 'foobar2',
        }),
        ikeProposal('IKE Proposal 3', {
          authentication_method: 'rsa-signatures',
          encryption_algorithm: 'aes-256-cbc',
          authentication_algorithm: 'hmac-sha512',
          group: 5,
          sa_lifetime: 3000,
          description: 'foobar3',
        }),
      ]);
      const policies = await createAll(
        api,
        '/api/vpn/ike-policies/',
        [0, 1, 2].map((i) => ({ name: `IKE Policy ${i + 1}`, proposals: [proposals[i]!.id] })),
      );
      return { policies };
    });
    changeLoggedTests(suite);
    it('test_q', async () => expect(await suite.count({ q: 'foobar1' })).toBe(1));
    it('test_name', async () => expect(await suite.count({ name: ['IKE Proposal 1', 'IKE Proposal 2'] })).toBe(2));
    it('test_description', async () => expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2));
    it('test_ike_policy', async () => {
      const [a, b] = suite.data.policies;
      expect(await suite.count({ ike_policy_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ ike_policy: [a!.name, b!.name] })).toBe(2);
    });
    it('test_authentication_method', async () =>
      expect(await suite.count({ authentication_method: ['preshared-keys', 'certificates'] })).toBe(2));
    it('test_encryption_algorithm', async () =>
      expect(await suite.count({ encryption_algorithm: ['aes-128-cbc', 'aes-192-cbc'] })).toBe(2));
    it('test_authentication_algorithm', async () =>
      expect(await suite.count({ authentication_algorithm: ['hmac-sha1', 'hmac-sha256'] })).toBe(2));
    it('test_group', async () => expect(await suite.count({ group: [1, 2] })).toBe(2));
    it('test_sa_lifetime', async () => expect(await suite.count({ sa_lifetime: [1000, 2000] })).toBe(2));
  });

  describe('IKEPolicyTestCase', () => {
    const suite = filterSetSuite(shared, 'vpn.ikepolicy', async (api) => {
      const proposals = await createAll(
        api,
        '/api/vpn/ike-proposals/',
        [1, 2, 3].map((i) => ikeProposal(`IKE Proposal ${i}`)),
      );
      // NetBox bulk-creates IKE Policy 3 as IKEv2 in aggressive mode, which its clean() refuses: here it is
      // IKEv2 without a mode (what test_version and test_mode count is the same).
      await createAll(api, '/api/vpn/ike-policies/', [
        { name: 'IKE Policy 1', version: 1, mode: 'main', description: 'foobar1', proposals: [proposals[0]!.id] },
        { name: 'IKE Policy 2', version: 1, mode: 'main', description: 'foobar2', proposals: [proposals[1]!.id] },
        { name: 'IKE Policy 3', version: 2, description: 'foobar3', proposals: [proposals[2]!.id] },
      ]);
      return { proposals };
    });
    changeLoggedTests(suite);
    it('test_q', async () => expect(await suite.count({ q: 'foobar1' })).toBe(1));
    it('test_name', async () => expect(await suite.count({ name: ['IKE Policy 1', 'IKE Policy 2'] })).toBe(2));
    it('test_description', async () => expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2));
    it('test_version', async () => expect(await suite.count({ version: [1] })).toBe(2));
    it('test_mode', async () => expect(await suite.count({ mode: ['main'] })).toBe(2));
    it('test_ike_proposal', async () => {
      const [a, b] = suite.data.proposals;
      expect(await suite.count({ ike_proposal_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ ike_proposal: [a!.name, b!.name] })).toBe(2);
    });
  });

  describe('IPSecProposalTestCase', () => {
    const suite = filterSetSuite(shared, 'vpn.ipsecproposal', async (api) => {
      const proposals = await createAll(api, '/api/vpn/ipsec-proposals/', [
        ipsecProposal('IPSec Proposal 1', {
          sa_lifetime_seconds: 1000,
          sa_lifetime_data: 1000,
          description: 'foobar1',
        }),
        ipsecProposal('IPSec Proposal 2', {
          encryption_algorithm: 'aes-192-cbc',
          authentication_algorithm: 'hmac-sha256',
          sa_lifetime_seconds: 2000,
          sa_lifetime_data: 2000,
          description: 'foobar2',
        }),
        ipsecProposal('IPSec Proposal 3', {
          encryption_algorithm: 'aes-256-cbc',
          authentication_algorithm: 'hmac-sha512',
          sa_lifetime_seconds: 3000,
          sa_lifetime_data: 3000,
          description: 'foobar3',
        }),
      ]);
      const policies = await createAll(
        api,
        '/api/vpn/ipsec-policies/',
        [0, 1, 2].map((i) => ({ name: `IPSec Policy ${i + 1}`, proposals: [proposals[i]!.id] })),
      );
      return { policies };
    });
    changeLoggedTests(suite);
    it('test_q', async () => expect(await suite.count({ q: 'foobar1' })).toBe(1));
    it('test_name', async () => expect(await suite.count({ name: ['IPSec Proposal 1', 'IPSec Proposal 2'] })).toBe(2));
    it('test_description', async () => expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2));
    it('test_ipsec_policy', async () => {
      const [a, b] = suite.data.policies;
      expect(await suite.count({ ipsec_policy_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ ipsec_policy: [a!.name, b!.name] })).toBe(2);
    });
    it('test_encryption_algorithm', async () =>
      expect(await suite.count({ encryption_algorithm: ['aes-128-cbc', 'aes-192-cbc'] })).toBe(2));
    it('test_authentication_algorithm', async () =>
      expect(await suite.count({ authentication_algorithm: ['hmac-sha1', 'hmac-sha256'] })).toBe(2));
    it('test_sa_lifetime_seconds', async () =>
      expect(await suite.count({ sa_lifetime_seconds: [1000, 2000] })).toBe(2));
    it('test_sa_lifetime_data', async () => expect(await suite.count({ sa_lifetime_data: [1000, 2000] })).toBe(2));
  });

  describe('IPSecPolicyTestCase', () => {
    const suite = filterSetSuite(shared, 'vpn.ipsecpolicy', async (api) => {
      const proposals = await createAll(api, '/api/vpn/ipsec-proposals/', [
        ipsecProposal('IPSec Policy 1'),
        ipsecProposal('IPSec Proposal 2'),
        ipsecProposal('IPSec Proposal 3'),
      ]);
      await createAll(
        api,
        '/api/vpn/ipsec-policies/',
        [1, 2, 5].map((group, i) => ({
          name: `IPSec Policy ${i + 1}`,
          pfs_group: group,
          description: `foobar${i + 1}`,
          proposals: [proposals[i]!.id],
        })),
      );
      return { proposals };
    });
    changeLoggedTests(suite);
    it('test_q', async () => expect(await suite.count({ q: 'foobar1' })).toBe(1));
    it('test_name', async () => expect(await suite.count({ name: ['IPSec Policy 1', 'IPSec Policy 2'] })).toBe(2));
    it('test_description', async () => expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2));
    it('test_pfs_group', async () => expect(await suite.count({ pfs_group: [1, 2] })).toBe(2));
    it('test_ipsec_proposal', async () => {
      const [a, b] = suite.data.proposals;
      expect(await suite.count({ ipsec_proposal_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ ipsec_proposal: [a!.name, b!.name] })).toBe(2);
    });
  });

  describe('IPSecProfileTestCase', () => {
    const suite = filterSetSuite(shared, 'vpn.ipsecprofile', async (api) => {
      const [ike] = await createAll(api, '/api/vpn/ike-proposals/', [ikeProposal('IKE Proposal 1')]);
      const [ipsec] = await createAll(api, '/api/vpn/ipsec-proposals/', [ipsecProposal('IPSec Proposal 1')]);
      const ikePolicies = await createAll(
        api,
        '/api/vpn/ike-policies/',
        [1, 2, 3].map((i) => ({ name: `IKE Policy ${i}`, version: 1, mode: 'main', proposals: [ike!.id] })),
      );
      const ipsecPolicies = await createAll(
        api,
        '/api/vpn/ipsec-policies/',
        [1, 2, 3].map((i) => ({ name: `IPSec Policy ${i}`, pfs_group: 14, proposals: [ipsec!.id] })),
      );
      await createAll(
        api,
        '/api/vpn/ipsec-profiles/',
        ['esp', 'esp', 'ah'].map((mode, i) => ({
          name: `IPSec Profile ${i + 1}`,
          mode,
          ike_policy: ikePolicies[i]!.id,
          ipsec_policy: ipsecPolicies[i]!.id,
          description: `foobar${i + 1}`,
        })),
      );
      return { ikePolicies, ipsecPolicies };
    });
    changeLoggedTests(suite);
    it('test_q', async () => expect(await suite.count({ q: 'foobar1' })).toBe(1));
    it('test_name', async () => expect(await suite.count({ name: ['IPSec Profile 1', 'IPSec Profile 2'] })).toBe(2));
    it('test_description', async () => expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2));
    it('test_mode', async () => expect(await suite.count({ mode: ['esp'] })).toBe(2));
    it('test_ike_policy', async () => {
      const [a, b] = suite.data.ikePolicies;
      expect(await suite.count({ ike_policy_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ ike_policy: [a!.name, b!.name] })).toBe(2);
    });
    it('test_ipsec_policy', async () => {
      const [a, b] = suite.data.ipsecPolicies;
      expect(await suite.count({ ipsec_policy_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ ipsec_policy: [a!.name, b!.name] })).toBe(2);
    });
  });

  describe('L2VPNTestCase', () => {
    const suite = filterSetSuite(shared, 'vpn.l2vpn', async (api) => {
      const targets = await createAll(
        api,
        '/api/ipam/route-targets/',
        ['1:1', '1:2', '1:3', '2:1', '2:2', '2:3'].map((name) => ({ name })),
      );
      await createAll(
        api,
        '/api/vpn/l2vpns/',
        [
          { name: 'L2VPN 1', slug: 'l2vpn-1', type: 'vxlan', status: 'active', identifier: 65001 },
          { name: 'L2VPN 2', slug: 'l2vpn-2', type: 'vpws', status: 'planned', identifier: 65002 },
          { name: 'L2VPN 3', slug: 'l2vpn-3', type: 'vpls', status: 'decommissioning' },
        ].map((l2vpn, i) => ({
          ...l2vpn,
          description: `foobar${i + 1}`,
          import_targets: [targets[i]!.id],
          export_targets: [targets[i + 3]!.id],
        })),
      );
      return { targets };
    });
    changeLoggedTests(suite);
    it('test_q', async () => expect(await suite.count({ q: 'foobar1' })).toBe(1));
    it('test_name', async () => expect(await suite.count({ name: ['L2VPN 1', 'L2VPN 2'] })).toBe(2));
    it('test_slug', async () => expect(await suite.count({ slug: ['l2vpn-1', 'l2vpn-2'] })).toBe(2));
    it('test_identifier', async () => expect(await suite.count({ identifier: ['65001', '65002'] })).toBe(2));
    it('test_type', async () => expect(await suite.count({ type: ['vxlan', 'vpws'] })).toBe(2));
    it('test_status', async () => {
      expect(await suite.count({})).toBe(3);
      expect(await suite.count({ status: ['active', 'planned'] })).toBe(2);
      expect(await suite.count({ status: ['decommissioning'] })).toBe(1);
    });
    it('test_description', async () => expect(await suite.count({ description: ['foobar1', 'foobar2'] })).toBe(2));
    it('test_import_targets', async () => {
      const [a, b] = suite.data.targets;
      expect(await suite.count({ import_target_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ import_target: [a!.name, b!.name] })).toBe(2);
    });
    it('test_export_targets', async () => {
      const [, , , a, b] = suite.data.targets;
      expect(await suite.count({ export_target_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ export_target: [a!.name, b!.name] })).toBe(2);
    });
  });

  describe('L2VPNTerminationTestCase', () => {
    const suite = filterSetSuite(shared, 'vpn.l2vpntermination', async (api) => {
      const device = await createTestDevice(api, 'Device 1');
      const interfaces = await createAll(
        api,
        '/api/dcim/interfaces/',
        [1, 2, 3].map((i) => ({ device: device.id, name: `Interface ${i}`, type: '1000base-t' })),
      );
      const vm = await createTestVirtualMachine(api, 'Virtual Machine 1');
      const vmInterfaces = await createAll(
        api,
        '/api/virtualization/interfaces/',
        [1, 2, 3].map((i) => ({ virtual_machine: vm.id, name: `Interface ${i}` })),
      );
      const vlans = await createAll(
        api,
        '/api/ipam/vlans/',
        [1, 2, 3].map((i) => ({ name: `VLAN ${i}`, vid: 100 + i })),
      );
      // NetBox bulk-creates three terminations of the VPWS L2VPN 2, which its clean() refuses (a point-to-point
      // L2VPN has two ends): here L2VPN 2 is a VXLAN (no test counts by type).
      const l2vpns = await createAll(api, '/api/vpn/l2vpns/', [
        { name: 'L2VPN 1', slug: 'l2vpn-1', type: 'vxlan', identifier: 65001 },
        { name: 'L2VPN 2', slug: 'l2vpn-2', type: 'vxlan', identifier: 65002 },
        { name: 'L2VPN 3', slug: 'l2vpn-3', type: 'vpls' },
      ]);
      const assigned = [
        ...vlans.map((v) => ['ipam.vlan', v.id] as const),
        ...interfaces.map((v) => ['dcim.interface', v.id] as const),
        ...vmInterfaces.map((v) => ['virtualization.vminterface', v.id] as const),
      ];
      await createAll(
        api,
        '/api/vpn/l2vpn-terminations/',
        assigned.map(([type, id], i) => ({
          l2vpn: l2vpns[i % 3]!.id,
          assigned_object_type: type,
          assigned_object_id: id,
        })),
      );
      return { device, interfaces, vm, vmInterfaces, vlans, l2vpns };
    });
    changeLoggedTests(suite);
    it('test_l2vpn', async () => {
      const [a, b] = suite.data.l2vpns;
      expect(await suite.count({ l2vpn_id: [a!.id, b!.id] })).toBe(6);
      expect(await suite.count({ l2vpn: [a!.slug, b!.slug] })).toBe(6);
    });
    it('test_termination_type', async () => expect(await suite.count({ assigned_object_type: ['ipam.vlan'] })).toBe(3));
    it('test_interface', async () => {
      const [a, b] = suite.data.interfaces;
      expect(await suite.count({ interface_id: [a!.id, b!.id] })).toBe(2);
    });
    it('test_vminterface', async () => {
      const [a, b] = suite.data.vmInterfaces;
      expect(await suite.count({ vminterface_id: [a!.id, b!.id] })).toBe(2);
    });
    it('test_vlan', async () => {
      const [a, b] = suite.data.vlans;
      expect(await suite.count({ vlan_id: [a!.id, b!.id] })).toBe(2);
      expect(await suite.count({ vlan: ['VLAN 1', 'VLAN 2'] })).toBe(2);
    });
    it('test_site', async () => {
      expect(await suite.count({ site_id: [suite.data.device.site.id] })).toBe(3);
      expect(await suite.count({ site: ['site-1'] })).toBe(3);
    });
    it('test_device', async () => {
      expect(await suite.count({ device_id: [suite.data.device.id] })).toBe(3);
      expect(await suite.count({ device: ['Device 1'] })).toBe(3);
    });
    it('test_virtual_machine', async () => {
      expect(await suite.count({ virtual_machine_id: [suite.data.vm.id] })).toBe(3);
      expect(await suite.count({ virtual_machine: ['Virtual Machine 1'] })).toBe(3);
    });
  });
});
