import knex, { type Knex } from 'knex';
import { loadSettings, type Settings } from '../../../runtime/config.js';
import { createDomainFunctions, domainFunctions } from '../../../runtime/domain/index.js';
import { applySetRules, checkRules } from '../../../runtime/rest/rules.js';
import type { WriteItemContext } from '../../../runtime/domain/types.js';
import type { AuthUser } from '../../../runtime/auth/principal.js';
import { FieldErrors } from '../../../runtime/errors.js';
import { schema } from '../support/models.js';

/**
 * Hand-built write contexts for domain validators and prepare hooks, on the repository's own models. `q`
 * refuses to run a query (a rule that needs one belongs in an API test), unless a test hands in a real
 * knex instance.
 */

export { schema };

const DEFAULTS = loadSettings({});

/** Default settings (no environment), with overrides. */
export function settingsWith(overrides: Partial<Settings> = {}): Settings {
  return { ...DEFAULTS, ...overrides };
}

const noQueries = new Proxy(() => undefined, {
  apply: () => {
    throw new Error('this rule ran a query');
  },
  get: (_target, property) => {
    throw new Error(`this rule used the query builder (${String(property)})`);
  },
}) as unknown as Knex;

/** A knex stand-in whose every query finds nothing: for rules that only look for conflicting rows. */
export function emptyQueries(): Knex {
  const chain: unknown = new Proxy(() => undefined, {
    apply: () => chain,
    get: (_target, property) =>
      property === 'then' ? (resolve: (value: unknown) => void) => resolve(undefined) : () => chain,
  });
  return chain as Knex;
}

/** A knex instance that only builds SQL (better-sqlite3 in memory, never connected unless a query runs). */
export function sqlBuilder(): Knex {
  return knex({ client: 'better-sqlite3', connection: { filename: ':memory:' }, useNullAsDefault: true });
}

export interface ItemOptions {
  /** Values before the write (an update); absent for a create. */
  existing?: Record<string, unknown>;
  /** The body as the client sent it (default: `values`). */
  input?: Record<string, unknown>;
  id?: number;
  user?: AuthUser | null;
  grantOf?: WriteItemContext['grantOf'];
  /** Objects written before this one in the same request. */
  earlier?: WriteItemContext['earlier'];
  settings?: Partial<Settings>;
  q?: Knex;
}

/** The context of one object of model `label` being written with `values` (merged over `existing`). */
export function writeItem(label: string, values: Record<string, unknown>, options: ItemOptions = {}): WriteItemContext {
  const existing = options.existing ?? null;
  return {
    q: options.q ?? noQueries,
    schema,
    dialect: 'sqlite',
    settings: settingsWith(options.settings),
    model: schema.model(label),
    user: options.user ?? null,
    grantOf: options.grantOf ?? (() => undefined),
    id: options.id ?? (existing ? 1 : null),
    values: { ...existing, ...values },
    existing,
    input: options.input ?? { ...values },
    errors: new FieldErrors(),
    transient: {},
    earlier: options.earlier ?? [],
  };
}

/** The errors a validator added, as the API would return them. */
export function errorsAfter(item: WriteItemContext): Record<string, unknown> {
  return item.errors.errors;
}

/** Runs the validator or prepare hook YAML names `name` on the item; returns the errors it added. */
export async function runNamed(
  name: keyof typeof domainFunctions,
  item: WriteItemContext,
): Promise<Record<string, unknown>> {
  const entry = domainFunctions[name];
  if (entry.kind !== 'validator' && entry.kind !== 'prepare') throw new Error(`${name} is not a validator or hook`);
  await entry.fn(item);
  return errorsAfter(item);
}

/** Checks the declared rules of the item's model (YAML `rules:`, validators among them); returns the errors. */
export async function checkModelRules(item: WriteItemContext): Promise<Record<string, unknown>> {
  await checkRules({ q: item.q, schema, domain: createDomainFunctions() }, item);
  return errorsAfter(item);
}

/** Applies the `set` rules of the item's model (values computed on save) to its values. */
export async function applyModelSetRules(item: WriteItemContext): Promise<Record<string, unknown>> {
  await applySetRules({ q: item.q, schema, domain: createDomainFunctions() }, item);
  return item.values;
}
