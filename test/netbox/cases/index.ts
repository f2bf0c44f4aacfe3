import type { NetBoxTestCase } from '../generic.js';
import { circuitsCases } from './circuits.js';
import { coreCases } from './core.js';
import { coreDataCases } from './core-data.js';
import { dcimCases } from './dcim.js';
import { dcimCablesCases } from './dcim-cables.js';
import { dcimChassisCases } from './dcim-chassis.js';
import { dcimComponentsCases } from './dcim-components.js';
import { dcimMacCases } from './dcim-mac.js';
import { dcimModulesCases } from './dcim-modules.js';
import { dcimPortsCases } from './dcim-ports.js';
import { extrasCases } from './extras.js';
import { ipamCases } from './ipam.js';
import { ipamRangeCases } from './ipam-ranges.js';
import { tenancyCases } from './tenancy.js';
import { usersCases } from './users.js';
import { virtualizationCases } from './virtualization.js';
import { vpnCases } from './vpn.js';
import { wirelessCases } from './wireless.js';

/** Every ported NetBox API test case class. */
export const NETBOX_CASES: NetBoxTestCase[] = [
  ...circuitsCases,
  ...coreCases,
  ...coreDataCases,
  ...dcimCases,
  ...dcimCablesCases,
  ...dcimChassisCases,
  ...dcimComponentsCases,
  ...dcimMacCases,
  ...dcimModulesCases,
  ...dcimPortsCases,
  ...extrasCases,
  ...ipamCases,
  ...ipamRangeCases,
  ...tenancyCases,
  ...usersCases,
  ...virtualizationCases,
  ...vpnCases,
  ...wirelessCases,
];

/** Models with an endpoint whose NetBox test case class is not ported, with the reason. */
export const NOT_PORTED: Record<string, string> = {
  'core.objectchange':
    'NetBox 4.6.8 has no test_api.py case for change records (they are tested in core/tests/test_changelog.py); test/api/changelog.test.ts covers them.',
};

/**
 * Parts of NetBox's API tests that no class here ports, for every class: the GraphQL test case
 * (APIViewTestCases.GraphQLTestCase, mixed into every APIViewTestCase), the query-count baselines of
 * test_list_objects (`assert_expected_query_count`, Django's own queries), and each app's AppTestCase.test_root
 * (the API roots are covered by test/api/contract.test.ts).
 */
export const NOT_PORTED_EVERYWHERE = [
  'GraphQLTestCase (GraphQL is not served, by design)',
  "assert_expected_query_count in test_list_objects (Django query counts; test/api/query-count.test.ts pins this service's)",
  'AppTestCase.test_root of each app (covered by test/api/contract.test.ts)',
];
