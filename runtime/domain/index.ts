import type {
  ComputeFunction,
  DisplayFunction,
  FilterFunction,
  DomainEntry,
  DomainFunctions,
  PrepareFunction,
  PresentFunction,
  ValidatorFunction,
} from './types.js';
import { locationParentInSameSite } from './dcim.js';
import { displayToken, displayUser, prepareToken, presentToken, validateUsername } from './users.js';

/**
 * Named domain functions: model behaviour that YAML cannot declare. YAML refers to them as
 * `<module>.<function>`; the generated registry's type check proves that every name exists.
 */
export const domainFunctions = {
  'dcim.locationParentInSameSite': { kind: 'validator', fn: locationParentInSameSite },
  'users.displayToken': { kind: 'display', fn: displayToken },
  'users.displayUser': { kind: 'display', fn: displayUser },
  'users.prepareToken': { kind: 'prepare', fn: prepareToken },
  'users.presentToken': { kind: 'present', fn: presentToken },
  'users.validateUsername': { kind: 'validator', fn: validateUsername },
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
    prepare: (name) => fn<PrepareFunction>(name, 'prepare'),
    present: (name) => fn<PresentFunction>(name, 'present'),
    compute: (name) => fn<ComputeFunction>(name, 'compute'),
    filter: (name) => fn<FilterFunction>(name, 'filter'),
    check: (name, kind) => void entry(name, kind),
  };
}
