import { ROLE_CONTRACTS, type RoleField } from '../runtime/role-contracts.js';
import type { FieldSpec, ModelSpec, Role } from '../runtime/spec.js';
import type { ModelDef } from './language.js';
import { ModelError, type LoadedFile } from './load.js';
import type { ModelGraph } from './resolve.js';
import { pluginFunctionEntries, type DomainCatalog, type DomainFunctionKind } from './domain-catalog.js';
import type { PluginSource } from './plugins.js';

export type { DomainCatalog, DomainFunctionKind };

/** The kind of domain function each kind of action names. */
const ACTION_FUNCTION_KINDS = { allocate: 'allocator', list: 'list', locate: 'locate', run: 'run' } as const;

/** Reports at `models.<name>.<at>` of one model's file. */
type ModelReporter = (at: string, message: string) => void;

function forEachModel(
  files: readonly LoadedFile[],
  errors: ModelError[],
  visit: (def: ModelDef, label: string, error: ModelReporter) => void,
): void {
  for (const file of files) {
    for (const [name, def] of Object.entries(file.doc.models)) {
      visit(def, `${file.doc.app}.${name}`, (at, message) => {
        errors.push(new ModelError(file.path, `models.${name}.${at}`, message));
      });
    }
  }
}

/**
 * Checks the models that play a role against what the runtime reads and writes in them (ROLE_CONTRACTS):
 * one model per role, each contract field present with its kind, relations to the models of their roles.
 * Runs on a sound graph only, so that a field refused earlier is not reported again as missing.
 */
export function checkRoleContracts(files: readonly LoadedFile[], graph: ModelGraph): ModelError[] {
  const errors: ModelError[] = [];
  const byLabel = new Map(graph.models.map((m) => [m.label, m]));
  const players = new Map<Role, string>();
  forEachModel(files, errors, (_def, label, error) => {
    for (const [index, role] of (byLabel.get(label)?.roles ?? []).entries()) {
      const other = players.get(role);
      if (other) error(`roles.${index}`, `role '${role}' is already played by '${other}'`);
      else players.set(role, label);
    }
  });
  forEachModel(files, errors, (_def, label, error) => {
    const model = byLabel.get(label);
    for (const [index, role] of (model?.roles ?? []).entries()) checkRole(model!, role, index, players, error);
  });
  return errors;
}

/**
 * The runtime's catalog with the functions of each plugin's `functions.ts`, whose names must start with the
 * plugin's (`<plugin>.<function>`) so that no plugin takes a name of the runtime's or another plugin's.
 */
export function withPluginFunctions(
  catalog: DomainCatalog,
  plugins: readonly PluginSource[],
): { catalog: DomainCatalog; errors: ModelError[] } {
  const merged = new Map(catalog);
  const errors: ModelError[] = [];
  for (const plugin of plugins) {
    if (!plugin.functions) continue;
    for (const entry of pluginFunctionEntries(plugin.functions)) {
      const position = { line: entry.line, col: 1 };
      if (!entry.name.startsWith(`${plugin.name}.`)) {
        const message = `'${entry.name}': a plugin's functions are named '${plugin.name}.<function>'`;
        errors.push(new ModelError(plugin.functions.path, '', message, position));
      } else merged.set(entry.name, entry.kind);
    }
  }
  return { catalog: merged, errors };
}

/**
 * Checks that every domain function a model names exists (in the runtime or the model's own plugin) with the
 * kind its use needs. A plugin's functions serve its own models only: the core and other plugins run without it.
 */
export function checkDomainFunctionNames(
  files: readonly LoadedFile[],
  catalog: DomainCatalog,
  plugins: ReadonlySet<string> = new Set(),
): ModelError[] {
  const errors: ModelError[] = [];
  forEachModel(files, errors, (def, label, error) => {
    const app = label.slice(0, label.indexOf('.'));
    checkDomainFunctions(def, catalog, (at, name, message) => {
      const owner = name.slice(0, name.indexOf('.'));
      if (plugins.has(owner) && owner !== app)
        error(at, `'${name}' is a function of plugin '${owner}'; only its own models may name it`);
      else if (message) error(at, message);
    });
  });
  return errors;
}

function checkRole(
  model: ModelSpec,
  role: Role,
  index: number,
  players: ReadonlyMap<Role, string>,
  error: ModelReporter,
): void {
  for (const [name, wanted] of Object.entries<RoleField>(ROLE_CONTRACTS[role])) {
    const field = model.fields.find((f) => f.name === name);
    if (!field) {
      error(`roles.${index}`, `role '${role}' needs a field '${name}' (${describeKinds(wanted.kinds)})`);
      continue;
    }
    if (!wanted.kinds.includes(field.kind)) {
      error(
        `fields.${name}.type`,
        `role '${role}' needs '${name}' to be ${describeKinds(wanted.kinds)}, not ${field.kind}`,
      );
      continue;
    }
    const target = wanted.target ? players.get(wanted.target) : undefined;
    if (target && targetOf(field) !== target) {
      error(`fields.${name}.to`, `role '${role}' needs '${name}' to point at '${target}' (role '${wanted.target}')`);
    }
  }
}

function targetOf(field: FieldSpec): string | undefined {
  return field.kind === 'fk' || field.kind === 'm2m' ? field.target : undefined;
}

function describeKinds(kinds: readonly string[]): string {
  return kinds.map((k) => `${/^[aeiou]/.test(k) ? 'an' : 'a'} ${k} field`).join(' or ');
}

/**
 * Each place a model names a domain function, with the kind the place needs: `report` hears of every name,
 * with the message of what is wrong with it (undefined when it exists with that kind).
 */
function checkDomainFunctions(
  def: ModelDef,
  catalog: DomainCatalog,
  report: (at: string, name: string, message: string | undefined) => void,
): void {
  const check = (at: string, name: string, kind: DomainFunctionKind): void => {
    const found = catalog.get(name);
    if (!found) report(at, name, `unknown domain function '${name}'`);
    else if (found !== kind)
      report(at, name, `'${name}' is ${withArticle(found)} function, not ${withArticle(kind)} function`);
    else report(at, name, undefined);
  };
  for (const [index, name] of (def.validators ?? []).entries()) check(`validators.${index}`, name, 'validator');
  if (def.hooks?.prepare) check('hooks.prepare', def.hooks.prepare, 'prepare');
  if (def.hooks?.present) check('hooks.present', def.hooks.present, 'present');
  if (def.hooks?.created) check('hooks.created', def.hooks.created, 'created');
  if (def.hooks?.updated) check('hooks.updated', def.hooks.updated, 'updated');
  if (def.hooks?.written) check('hooks.written', def.hooks.written, 'written');
  if (typeof def.display === 'object' && !Array.isArray(def.display))
    check('display.function', def.display.function, 'display');
  for (const [name, field] of Object.entries(def.fields)) {
    if (field.type === 'computed' && field.function) check(`fields.${name}.function`, field.function, 'compute');
    if (field.type === 'derived' && field.function) check(`fields.${name}.function`, field.function, 'derive');
  }
  for (const [name, filter] of Object.entries(def.filters ?? {})) {
    if (filter && 'function' in filter) check(`filters.${name}.function`, filter.function, 'filter');
  }
  for (const [index, name] of (def.search_also ?? []).entries()) check(`search_also.${index}`, name, 'filter');
  for (const [name, action] of Object.entries(def.actions ?? {})) {
    check(`actions.${name}.function`, action.function, ACTION_FUNCTION_KINDS[action.kind]);
  }
}

/** A function kind with its indefinite article (`a validator`, `an updated`). */
function withArticle(kind: string): string {
  return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
}
