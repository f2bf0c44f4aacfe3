import type {
  CreatedFunction,
  WrittenFunction,
  Allocator,
  ComputeFunction,
  DeriveFunction,
  ListFunction,
  LocateFunction,
  RunFunction,
  DisplayFunction,
  FilterFunction,
  DomainEntry,
  DomainFunctions,
  PrepareFunction,
  PresentFunction,
  UpdatedFunction,
  ValidatorFunction,
} from './types.js';
import { cableFunctions } from './cables.js';
import { cableTraceFunctions } from './cable-trace.js';
import { cableLookupFunctions } from './cable-lookups.js';
import { cableStoreFunctions } from './cable-store.js';
import { chassisFunctions } from './chassis.js';
import { circuitsFunctions } from './circuits.js';
import { coreFunctions } from './core.js';
import { configTemplateFunctions } from './config-templates.js';
import { dataSourceFunctions } from './data-sources.js';
import { eventFunctions } from './events.js';
import { customFieldFunctions } from './custom-fields.js';
import { dcimFunctions } from './dcim.js';
import { extrasFunctions } from './extras.js';
import { savedObjectFunctions } from './saved-objects.js';
import { instantiateFunctions } from './instantiate.js';
import { ipamFunctions } from './ipam.js';
import { fhrpFunctions } from './fhrp.js';
import { macAddressFunctions } from './mac-addresses.js';
import { moduleFunctions } from './modules.js';
import { ipamFilterFunctions } from './ipam-filters.js';
import { vlanFunctions } from './vlans.js';
import { ipamAllocationFunctions } from './ipam-allocation.js';
import { ipRangeFunctions } from './ip-ranges.js';
import { asnRangeFunctions } from './asn-ranges.js';
import { rackElevationFunctions } from './rack-elevation.js';
import { rackFunctions } from './racks.js';
import { serviceFunctions } from './services.js';
import { taskFunctions } from './tasks.js';
import { choiceSetFunctions } from './choice-sets.js';
import { usersFunctions } from './users.js';
import { virtualizationFunctions } from './virtualization.js';
import { vpnFunctions } from './vpn.js';
import { wirelessFunctions } from './wireless.js';

/**
 * Named domain functions: model behaviour that YAML cannot declare. YAML refers to them as
 * `<module>.<function>`; the generated registry's type check proves that every name exists. Each module
 * exports its own table (`<app>Functions`).
 */
export const domainFunctions = {
  ...cableFunctions,
  ...cableTraceFunctions,
  ...cableLookupFunctions,
  ...cableStoreFunctions,
  ...chassisFunctions,
  ...circuitsFunctions,
  ...coreFunctions,
  ...configTemplateFunctions,
  ...dataSourceFunctions,
  ...eventFunctions,
  ...customFieldFunctions,
  ...dcimFunctions,
  ...extrasFunctions,
  ...savedObjectFunctions,
  ...instantiateFunctions,
  ...ipamFunctions,
  ...fhrpFunctions,
  ...macAddressFunctions,
  ...moduleFunctions,
  ...ipamFilterFunctions,
  ...vlanFunctions,
  ...ipamAllocationFunctions,
  ...ipRangeFunctions,
  ...asnRangeFunctions,
  ...rackElevationFunctions,
  ...rackFunctions,
  ...serviceFunctions,
  ...taskFunctions,
  ...choiceSetFunctions,
  ...usersFunctions,
  ...virtualizationFunctions,
  ...vpnFunctions,
  ...wirelessFunctions,
} satisfies Record<string, DomainEntry>;

export type DomainFunctionName = keyof typeof domainFunctions;

/** Typed access by name; `check` fails start-up when a model names a function of the wrong kind. */
export function createDomainFunctions(entries: Record<string, DomainEntry> = domainFunctions): DomainFunctions & {
  check(name: string, kind: DomainEntry['kind']): void;
} {
  const entry = (name: string, kind: DomainEntry['kind']): DomainEntry => {
    const found = entries[name];
    if (!found || found.kind !== kind) throw new Error(`domain function ${name} is not a ${kind} function`);
    return found;
  };
  const fn = <T>(name: string, kind: DomainEntry['kind']): T => entry(name, kind).fn as T;
  return {
    display: (name, values) => fn<DisplayFunction>(name, 'display')(values),
    validator: (name) => fn<ValidatorFunction>(name, 'validator'),
    validatesBatch: (name) => {
      const found = entry(name, 'validator');
      return found.kind === 'validator' && found.batch === true;
    },
    prepare: (name) => fn<PrepareFunction>(name, 'prepare'),
    present: (name) => fn<PresentFunction>(name, 'present'),
    created: (name) => fn<CreatedFunction>(name, 'created'),
    updated: (name) => fn<UpdatedFunction>(name, 'updated'),
    written: (name) => fn<WrittenFunction>(name, 'written'),
    compute: (name) => fn<ComputeFunction>(name, 'compute'),
    derive: (name) => fn<DeriveFunction>(name, 'derive'),
    filter: (name) => fn<FilterFunction>(name, 'filter'),
    allocator: (name) => fn<Allocator>(name, 'allocator'),
    list: (name) => fn<ListFunction>(name, 'list'),
    locate: (name) => fn<LocateFunction>(name, 'locate'),
    run: (name) => fn<RunFunction>(name, 'run'),
    check: (name, kind) => void entry(name, kind),
  };
}
