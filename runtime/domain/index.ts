/**
 * Named domain functions: model behaviour that YAML cannot declare. YAML refers to them as
 * `<module>.<function>`; the generated registry's type check proves that every name exists.
 */
export const domainFunctions = {
  'dcim.locationParentInSameSite': () => undefined,
  'users.validateUsername': () => undefined,
  'users.displayUser': () => undefined,
  'users.displayToken': () => undefined,
  'users.prepareToken': () => undefined,
  'users.presentToken': () => undefined,
} as const;

export type DomainFunctionName = keyof typeof domainFunctions;
