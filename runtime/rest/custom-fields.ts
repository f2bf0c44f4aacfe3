import type { Knex } from 'knex';
import type { Dialect } from '../db/connect.js';
import type { FieldErrors } from '../errors.js';
import { applyDefinitionChange } from './custom-field-changes.js';
import {
  loadDefinitions,
  type CheckedValue,
  type CustomFieldDefinition,
  type DefinitionChange,
  type ObjectLoader,
  type RestrictView,
} from './custom-field-definitions.js';
import { acceptsLookup, customFieldCondition } from './custom-field-filters.js';
import { renderCustomFields } from './custom-field-render.js';
import { CustomFieldValidator } from './custom-field-validation.js';
import type { ModelInfo, Schema } from './schema.js';

/**
 * Custom fields, as the rest of the runtime sees them: the definitions of every model, cached for
 * `cacheSeconds` (local changes empty the cache at once; inside a write, read once per transaction), and the
 * work done with them by the modules beside this one — validation (custom-field-validation.ts), rendering
 * (custom-field-render.ts), the `cf_` filters (custom-field-filters.ts) and keeping stored data in step with
 * changed definitions (custom-field-changes.ts). Their dialect SQL is in db/json-keys.ts.
 */
export class CustomFields {
  private cache: { at: number; all: CustomFieldDefinition[] } | null = null;
  /** Bumped by every invalidation: a load that began before one is not kept. */
  private generation = 0;
  /** Transactions that change definitions: they read their own (uncommitted) definitions every time. */
  private readonly changing = new WeakSet<Knex>();
  /** Other transactions read them at most once, when the cache is empty. */
  private readonly perTransaction = new WeakMap<Knex, Promise<CustomFieldDefinition[]>>();
  private readonly validator: CustomFieldValidator;

  constructor(
    private readonly schema: Schema,
    private readonly dialect: Dialect,
    private readonly cacheSeconds: number,
  ) {
    this.validator = new CustomFieldValidator(schema, dialect, (q, model) => this.forModel(q, model));
  }

  /** The definition model, if the registry has one. */
  get model(): ModelInfo | undefined {
    return this.schema.withRole('custom_field');
  }

  invalidate(): void {
    this.cache = null;
    this.generation += 1;
  }

  /**
   * A transaction that writes definitions reads them from itself from now on (they may change in it, and
   * may be rolled back); every other read, writes included, uses the cache that signals keep fresh.
   */
  changedIn(q: Knex): void {
    this.changing.add(q);
  }

  /** The custom fields that apply to a model, in the definitions' order. */
  async forModel(q: Knex, model: ModelInfo): Promise<CustomFieldDefinition[]> {
    if (!model.hasCustomFields || !this.model) return [];
    return (await this.all(q)).filter((d) => d.objectTypes.includes(model.label));
  }

  private async all(q: Knex): Promise<CustomFieldDefinition[]> {
    if (this.changing.has(q)) return loadDefinitions(q, this.schema, this.model!);
    const now = Date.now();
    if (this.cache && now - this.cache.at < this.cacheSeconds * 1000) return this.cache.all;
    let loaded = q.isTransaction ? this.perTransaction.get(q) : undefined;
    if (!loaded) {
      const generation = this.generation;
      loaded = loadDefinitions(q, this.schema, this.model!);
      if (q.isTransaction) this.perTransaction.set(q, loaded);
      const all = await loaded;
      if (generation === this.generation) this.cache = { at: now, all };
    }
    return loaded;
  }

  /**
   * Validates `custom_fields` of a write body and returns the data to store (see CustomFieldValidator).
   */
  validate(
    q: Knex,
    model: ModelInfo,
    input: unknown,
    existing: Record<string, unknown> | null,
    errors: FieldErrors,
    objectId: number | null,
    restrictView?: RestrictView,
  ): Promise<Record<string, unknown> | null> {
    return this.validator.validate(q, model, input, existing, errors, objectId, restrictView);
  }

  /** Checks a (non-null) value against a field and normalises it for storage. */
  check(
    q: Knex,
    definition: CustomFieldDefinition,
    value: unknown,
    restrictView?: RestrictView,
  ): Promise<CheckedValue> {
    return this.validator.check(q, definition, value, restrictView);
  }

  /** Renders `custom_fields` for a page: every field of the model, stored value or null. */
  async render(
    q: Knex,
    model: ModelInfo,
    datas: readonly Record<string, unknown>[],
    load: ObjectLoader,
  ): Promise<Record<string, unknown>[]> {
    return renderCustomFields(this.schema, await this.forModel(q, model), datas, load);
  }

  /** Whether `cf_<name>[__<lookup>]` is a filter of the model (a custom field of it, filtering enabled). */
  async accepts(q: Knex, model: ModelInfo, name: string, lookup: string): Promise<boolean> {
    return acceptsLookup(await this.definition(q, model, name), lookup);
  }

  /** The condition of a `cf_<name>[__lookup]` parameter (see customFieldCondition). */
  async filter(
    q: Knex,
    model: ModelInfo,
    name: string,
    lookup: string,
    values: readonly string[],
  ): Promise<((query: Knex.QueryBuilder) => void) | string | null> {
    return customFieldCondition(this.dialect, await this.definition(q, model, name), lookup, values);
  }

  /** Keeps stored data in step with a changed definition (see applyDefinitionChange). */
  applyDefinitionChange(q: Knex, change: DefinitionChange): Promise<void> {
    return applyDefinitionChange(q, this.schema, this.dialect, this.model, change);
  }

  private async definition(q: Knex, model: ModelInfo, name: string): Promise<CustomFieldDefinition | undefined> {
    return (await this.forModel(q, model)).find((d) => d.name === name);
  }
}
