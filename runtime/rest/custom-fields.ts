import type { Knex } from 'knex';
import type { Dialect } from '../db/connect.js';
import { parseDateInput, parseDateTimeInput, renderTimestamp } from '../db/clock.js';
import { escapeLike, ilike } from '../db/sql.js';
import { lockKey } from '../db/transaction.js';
import { MAX_PROGRAM_SIZE } from '../db/regex.js';
import { RE2JS } from 're2js';
import type { FieldErrors } from '../http/errors.js';
import type { ModelInfo, Schema } from './schema.js';
import { decodeJson, parseBoolean } from './values.js';

/**
 * Custom fields: definitions are objects of the model with role `custom_field` (each naming the object
 * types it applies to); values live in each object's `custom_field_data` JSON column. This module
 * validates written values, renders `custom_fields` (objects as nested representations, one batch per
 * related type), builds the `cf_<name>` filters and keeps stored data in step with the definitions.
 */

export type CustomFieldType =
  | 'text'
  | 'longtext'
  | 'integer'
  | 'decimal'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'url'
  | 'json'
  | 'select'
  | 'multiselect'
  | 'object'
  | 'multiobject';

export interface CustomFieldDefinition {
  id: number;
  name: string;
  label: string;
  type: CustomFieldType;
  objectTypes: string[];
  relatedObjectType: string | null;
  required: boolean;
  unique: boolean;
  default: unknown;
  filterLogic: 'disabled' | 'loose' | 'exact';
  validationMinimum: number | null;
  validationMaximum: number | null;
  validationRegex: string;
  /** Choice values of select fields. */
  choices: string[];
  /** Their labels, in the same order. */
  choiceLabels: string[];
}

type Row = Record<string, unknown>;
type Condition = (query: Knex.QueryBuilder) => void;

/** Restricts a query on alias `r0` of a model to the objects the requesting user may view. */
export type RestrictView = (model: ModelInfo, query: Knex.QueryBuilder) => Promise<void>;

/** Loads nested representations of objects of one model (set by the read path). */
export type ObjectLoader = (label: string, ids: readonly number[]) => Promise<Record<string, unknown>[]>;

/** A checked value: what to store, or why it is invalid. */
export type CheckedValue = { ok: true; value: unknown } | { ok: false; error: string };

/** What a change to a definition looked like (for keeping stored data in step). */
export interface DefinitionChange {
  action: 'create' | 'update' | 'delete';
  before: Row | null;
  after: Row | null;
}

const num = (v: unknown): number | null => (v === null || v === undefined || v === '' ? null : Number(v));
const flag = (v: unknown): boolean => v === true || v === 1 || v === '1';
/** Custom field names are `[a-z0-9_]+`; anything else never reaches SQL text. */
const safeName = (name: string): string => name.replace(/[^A-Za-z0-9_]/g, '');
const objectTypesOf = (row: Row | null): string[] => (row ? ((decodeJson(row.object_types) ?? []) as string[]) : []);

/** The custom fields of every model, cached for `cacheSeconds` (local changes empty the cache at once). */
export class CustomFields {
  private cache: { at: number; all: CustomFieldDefinition[] } | null = null;
  private readonly perTransaction = new WeakMap<Knex, Promise<CustomFieldDefinition[]>>();
  /** Unique values claimed by the objects a transaction wrote so far (key → object id, null for a new one). */
  private readonly claims = new WeakMap<Knex, Map<string, number | null>>();

  constructor(
    private readonly schema: Schema,
    private readonly dialect: Dialect,
    private readonly cacheSeconds: number,
  ) {}

  /** The definition model, if the registry has one. */
  get model(): ModelInfo | undefined {
    return this.schema.withRole('custom_field');
  }

  invalidate(): void {
    this.cache = null;
  }

  /** The custom fields that apply to a model, in the definitions' order. */
  async forModel(q: Knex, model: ModelInfo): Promise<CustomFieldDefinition[]> {
    if (!model.hasCustomFields || !this.model) return [];
    return (await this.all(q)).filter((d) => d.objectTypes.includes(model.label));
  }

  private async all(q: Knex): Promise<CustomFieldDefinition[]> {
    // Inside a write, definitions are read once per transaction: they may change in it, and may be rolled back.
    if (q.isTransaction) {
      let loaded = this.perTransaction.get(q);
      if (!loaded) this.perTransaction.set(q, (loaded = this.load(q)));
      return loaded;
    }
    const now = Date.now();
    if (this.cache && now - this.cache.at < this.cacheSeconds * 1000) return this.cache.all;
    const all = await this.load(q);
    this.cache = { at: now, all };
    return all;
  }

  private async load(q: Knex): Promise<CustomFieldDefinition[]> {
    const definitions = this.model!;
    const column = (name: string): string => definitions.fields.get(name)?.column ?? name;
    const rows = (await q(definitions.table).orderBy('weight').orderBy('name').select('*')) as Row[];
    const choiceSet = definitions.fields.get('choice_set');
    const setIds = rows.map((r) => num(r.choice_set_id)).filter((v): v is number => v !== null);
    const sets = new Map<number, string[]>();
    const labels = new Map<number, string[]>();
    if (choiceSet?.kind === 'fk' && setIds.length > 0) {
      const setModel = this.schema.model(choiceSet.target);
      // The set's resolved choices (base and extra), kept on its row when it is written; rows written before
      // that column existed have their extra choices only.
      const rows = (await q(setModel.table).whereIn('id', setIds).select('id', '_choices', 'extra_choices')) as Row[];
      for (const row of rows) {
        const pairs = (decodeJson(row._choices) ?? decodeJson(row.extra_choices) ?? []) as unknown[][];
        sets.set(
          Number(row.id),
          pairs.map((pair) => String(pair[0])),
        );
        labels.set(
          Number(row.id),
          pairs.map((pair) => String(pair[1] ?? pair[0])),
        );
      }
    }
    const all = rows.map((row): CustomFieldDefinition => ({
      id: Number(row.id),
      name: String(row.name),
      label: String(row.label ?? ''),
      type: String(row.type) as CustomFieldType,
      objectTypes: objectTypesOf(row),
      relatedObjectType: (row.related_object_type as string | null) ?? null,
      required: flag(row[column('required')]),
      unique: flag(row[column('unique')]),
      default: decodeJson(row[column('default')]),
      filterLogic: String(row.filter_logic ?? 'loose') as CustomFieldDefinition['filterLogic'],
      validationMinimum: num(row.validation_minimum),
      validationMaximum: num(row.validation_maximum),
      validationRegex: String(row.validation_regex ?? ''),
      choices: sets.get(num(row.choice_set_id) ?? -1) ?? [],
      choiceLabels: labels.get(num(row.choice_set_id) ?? -1) ?? [],
    }));
    return all;
  }

  /**
   * Validates `custom_fields` of a write body and returns the data to store. On create every field gets the
   * given value or its default; on update the given keys are merged into the stored data. Errors go under
   * `custom_fields` (`{name: [message]}`).
   */
  async validate(
    q: Knex,
    model: ModelInfo,
    input: unknown,
    existing: Record<string, unknown> | null,
    errors: FieldErrors,
    objectId: number | null,
    restrictView?: RestrictView,
  ): Promise<Record<string, unknown> | null> {
    if (input !== undefined && input !== null && (typeof input !== 'object' || Array.isArray(input))) {
      errors.add(
        'custom_fields',
        'Invalid data format. Custom field data must be passed as a dictionary mapping field names to their values.',
      );
      return null;
    }
    const definitions = await this.forModel(q, model);
    const given = (input ?? {}) as Record<string, unknown>;
    const problems: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const name of Object.keys(given)) {
      if (!definitions.some((d) => d.name === name)) {
        problems[name] = `Custom field '${name}' does not exist for this object type.`;
      }
    }
    const data: Record<string, unknown> = { ...(existing ?? {}) };
    for (const definition of definitions) {
      const { name } = definition;
      if (Object.hasOwn(given, name)) data[name] = given[name];
      else if (existing === null || !Object.hasOwn(data, name)) data[name] = definition.default ?? null;
      const value = data[name];
      if (value === null || value === undefined || value === '') {
        data[name] = null;
        if (definition.required) problems[name] = [`Missing required custom field '${name}'.`];
        continue;
      }
      // Objects the writer names must be visible to them; stored ones were named by someone who could see them.
      const checked = await this.check(q, definition, value, Object.hasOwn(given, name) ? restrictView : undefined);
      if (!checked.ok) {
        problems[name] = [`Invalid value for custom field '${name}': ${checked.error}`];
        continue;
      }
      data[name] = checked.value;
      if (definition.unique && (await this.taken(q, model, definition, checked.value, objectId))) {
        problems[name] = [`Custom field '${name}' must have a unique value.`];
      }
    }
    if (Object.keys(problems).length > 0) {
      errors.set('custom_fields', problems);
      return null;
    }
    return data;
  }

  /**
   * Checks a (non-null) value against a field and normalises it for storage. Objects are looked up among
   * those `restrictView` leaves visible: a reference to an object the writer may not see is no reference.
   */
  async check(
    q: Knex,
    definition: CustomFieldDefinition,
    value: unknown,
    restrictView?: RestrictView,
  ): Promise<CheckedValue> {
    const fail = (error: string): CheckedValue => ({ ok: false, error });
    const ok = (v: unknown): CheckedValue => ({ ok: true, value: v });
    switch (definition.type) {
      case 'text':
      case 'longtext':
      case 'url': {
        if (typeof value !== 'string') return fail('Value must be a string.');
        if (definition.validationRegex && !safeRegExp(definition.validationRegex)?.test(value)) {
          return fail(`Values must match this regex: '${definition.validationRegex}'`);
        }
        if (definition.type === 'url' && !/^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(value)) return fail('Enter a valid URL.');
        return ok(value);
      }
      case 'integer':
      case 'decimal': {
        const number = typeof value === 'string' && definition.type === 'decimal' ? Number(value) : value;
        if (typeof number !== 'number' || !Number.isFinite(number)) {
          return fail(definition.type === 'integer' ? 'Value must be an integer.' : 'Value must be a decimal.');
        }
        if (definition.type === 'integer' && !Number.isSafeInteger(number)) return fail('Value must be an integer.');
        if (definition.validationMinimum !== null && number < definition.validationMinimum) {
          return fail(`Value must be at least ${definition.validationMinimum}`);
        }
        if (definition.validationMaximum !== null && number > definition.validationMaximum) {
          return fail(`Value must not exceed ${definition.validationMaximum}`);
        }
        return ok(number);
      }
      case 'boolean':
        return typeof value === 'boolean' ? ok(value) : fail('Value must be true or false.');
      case 'date':
        return typeof value === 'string' && parseDateInput(value)
          ? ok(value)
          : fail('Date values must be in ISO 8601 format (YYYY-MM-DD).');
      case 'datetime': {
        const parsed = typeof value === 'string' ? parseDateTimeInput(value) : null;
        return parsed
          ? ok(renderTimestamp(parsed))
          : fail('Date and time values must be in ISO 8601 format (YYYY-MM-DD HH:MM:SS).');
      }
      case 'json':
        return ok(value);
      case 'select':
        return typeof value === 'string' && definition.choices.includes(value)
          ? ok(value)
          : fail(`Invalid choice (${String(value)}). Available choices are: ${definition.choices.join(', ')}`);
      case 'multiselect': {
        if (!Array.isArray(value)) return fail('Value must be a list of choices.');
        const bad = (value as unknown[]).find((v) => typeof v !== 'string' || !definition.choices.includes(v));
        return bad === undefined
          ? ok(value)
          : fail(`Invalid choice(s) (${String(bad)}). Available choices are: ${definition.choices.join(', ')}`);
      }
      case 'object':
      case 'multiobject':
        return this.checkObjects(q, definition, value, restrictView);
    }
  }

  /** Object values: ids or attribute dicts of existing objects of the related type; stored as ids. */
  private async checkObjects(
    q: Knex,
    definition: CustomFieldDefinition,
    value: unknown,
    restrictView?: RestrictView,
  ): Promise<CheckedValue> {
    const single = definition.type === 'object';
    const target = definition.relatedObjectType ? this.schema.models.get(definition.relatedObjectType) : undefined;
    if (!target) return { ok: false, error: 'The related object type does not exist.' };
    if (!single && !Array.isArray(value)) return { ok: false, error: 'Value must be a list of object IDs.' };
    const ids: number[] = [];
    for (const item of single ? [value] : (value as unknown[])) {
      if (typeof item === 'number' && Number.isSafeInteger(item)) {
        const query = q({ r0: target.table }).where('r0.id', item).first('r0.id');
        if (restrictView) await restrictView(target, query);
        if (!(await query))
          return { ok: false, error: `Related object not found using the provided numeric ID: ${item}` };
        ids.push(item);
      } else if (item && typeof item === 'object' && !Array.isArray(item)) {
        const id = await findByAttributes(q, target, item as Record<string, unknown>, restrictView);
        if (typeof id === 'string') return { ok: false, error: id };
        ids.push(id);
      } else {
        return { ok: false, error: `Value must be an object ID, not ${typeof item}.` };
      }
    }
    return { ok: true, value: single ? ids[0] : [...new Set(ids)] };
  }

  /**
   * Whether another object holds the value: a stored one, or an earlier object of the same write. Concurrent
   * writes of the same value queue on a lock for it (PostgreSQL), so that only one of them sees it free.
   */
  private async taken(
    q: Knex,
    model: ModelInfo,
    definition: CustomFieldDefinition,
    value: unknown,
    objectId: number | null,
  ): Promise<boolean> {
    const key = `custom field unique ${model.label} ${definition.name} ${JSON.stringify(value)}`;
    if (q.isTransaction) {
      const claims = this.claims.get(q) ?? new Map<string, number | null>();
      this.claims.set(q, claims);
      const holder = claims.get(key);
      if (holder !== undefined && (holder === null || holder !== objectId)) return true;
      claims.set(key, objectId);
      await lockKey(q, this.dialect, key);
    }
    const name = safeName(definition.name);
    const query = q({ t0: model.table }).first('t0.id');
    if (this.dialect === 'sqlite') {
      query.whereRaw(`json_extract(t0.custom_field_data, '$.${name}') = json_extract(?, '$')`, [JSON.stringify(value)]);
    } else {
      query.whereRaw(`(t0.custom_field_data -> '${name}') = ?::jsonb`, [JSON.stringify(value)]);
    }
    if (objectId !== null) query.whereNot('t0.id', objectId);
    return Boolean(await query);
  }

  /** Renders `custom_fields` for a page: every field of the model, stored value or null. */
  async render(
    q: Knex,
    model: ModelInfo,
    datas: readonly Record<string, unknown>[],
    load: ObjectLoader,
  ): Promise<Record<string, unknown>[]> {
    const definitions = await this.forModel(q, model);
    const wanted = new Map<string, Set<number>>();
    for (const definition of definitions) {
      if ((definition.type !== 'object' && definition.type !== 'multiobject') || !definition.relatedObjectType)
        continue;
      const ids = wanted.get(definition.relatedObjectType) ?? new Set<number>();
      for (const data of datas) {
        const value = data[definition.name];
        for (const id of Array.isArray(value) ? value : [value]) if (Number.isSafeInteger(id)) ids.add(id as number);
      }
      wanted.set(definition.relatedObjectType, ids);
    }
    const objects = new Map<string, Map<number, unknown>>();
    for (const [label, ids] of wanted) {
      const loaded = ids.size > 0 && this.schema.models.has(label) ? await load(label, [...ids]) : [];
      objects.set(label, new Map(loaded.map((o) => [o.id as number, o])));
    }
    return datas.map((data) => {
      const out: Record<string, unknown> = {};
      for (const definition of definitions) {
        const value = data[definition.name] ?? null;
        const byId = objects.get(definition.relatedObjectType ?? '');
        if (value === null) out[definition.name] = null;
        else if (definition.type === 'object') out[definition.name] = byId?.get(value as number) ?? null;
        else if (definition.type === 'multiobject') {
          out[definition.name] = Array.isArray(value)
            ? value.flatMap((id) => (byId?.has(id as number) ? [byId.get(id as number)] : []))
            : [];
        } else out[definition.name] = value;
      }
      return out;
    });
  }

  /**
   * The condition of a `cf_<name>[__lookup]` parameter: null when the name is no (filterable) custom field
   * of the model (the parameter is then ignored like any unknown one), a message for invalid values.
   */
  /** Whether `cf_<name>[__<lookup>]` is a filter of the model (a custom field of it, filtering enabled). */
  async accepts(q: Knex, model: ModelInfo, name: string, lookup: string): Promise<boolean> {
    const definition = (await this.forModel(q, model)).find((d) => d.name === name);
    if (!definition || definition.filterLogic === 'disabled') return false;
    return lookup === '' || LOOKUPS[definition.type].includes(lookup);
  }

  async filter(
    q: Knex,
    model: ModelInfo,
    name: string,
    lookup: string,
    values: readonly string[],
  ): Promise<Condition | string | null> {
    const definition = (await this.forModel(q, model)).find((d) => d.name === name);
    if (!definition || definition.filterLogic === 'disabled') return null;
    if (lookup !== '' && !LOOKUPS[definition.type].includes(lookup)) return null;
    const key = safeName(definition.name);
    const sql =
      this.dialect === 'sqlite'
        ? `json_extract(t0.custom_field_data, '$.${key}')`
        : `(t0.custom_field_data ->> '${key}')`;
    const isNull: Condition = (w) => {
      w.whereRaw(`${sql} IS NULL`);
    };
    if (lookup === 'empty') {
      const wanted = parseBoolean(values[0] ?? '');
      if (wanted === null) return invalidChoice(values[0] ?? '');
      return (query) => (wanted ? query.where(isNull) : query.whereNot(isNull));
    }
    const wantsNull = values.includes('null');
    const given = values.filter((v) => v !== 'null');
    const orNull = (x: Knex.QueryBuilder): void => {
      if (wantsNull) x.orWhere(isNull);
    };
    const negate =
      (any: Condition): Condition =>
      (query) =>
        query.where((w) => w.whereNot(any).orWhere(isNull));

    switch (definition.type) {
      case 'integer':
      case 'decimal': {
        const numbers = given.map(Number);
        if (given.some((v) => v.trim() === '') || numbers.some((n) => !Number.isFinite(n))) return 'Enter a number.';
        const op = ({ lt: '<', lte: '<=', gt: '>', gte: '>=' } as Record<string, string>)[lookup] ?? '=';
        const value = this.dialect === 'sqlite' ? sql : `CAST(${sql} AS numeric)`;
        const any: Condition = (w) =>
          w.where((x) => {
            for (const n of numbers) x.orWhereRaw(`${value} ${op} ?`, [n]);
            orNull(x);
          });
        return lookup === 'n' ? negate(any) : any;
      }
      case 'boolean': {
        const flags = given.map(parseBoolean);
        const bad = given.find((_, i) => flags[i] === null);
        if (bad !== undefined) return invalidChoice(bad);
        const text = (f: boolean): string | number => (this.dialect === 'sqlite' ? (f ? 1 : 0) : String(f));
        return (w) =>
          w.where((x) => {
            for (const f of flags) x.orWhereRaw(`${sql} = ?`, [text(f!)]);
            orNull(x);
          });
      }
      case 'multiselect':
      case 'multiobject': {
        const elements: (string | number)[] = [];
        for (const value of given) {
          if (definition.type === 'multiobject' && !/^\d+$/.test(value)) return 'Enter a whole number.';
          elements.push(definition.type === 'multiobject' ? Number(value) : value);
        }
        const any: Condition = (w) =>
          w.where((x) => {
            for (const element of elements) {
              if (this.dialect === 'sqlite') {
                x.orWhereRaw(
                  `EXISTS (SELECT 1 FROM json_each(t0.custom_field_data, '$.${key}') WHERE json_each.value = ?)`,
                  [element],
                );
              } else {
                x.orWhereRaw(`(t0.custom_field_data -> '${key}') @> ?::jsonb`, [JSON.stringify([element])]);
              }
            }
            orNull(x);
          });
        return lookup === 'n' ? negate(any) : any;
      }
      case 'object': {
        if (given.some((v) => !/^\d+$/.test(v))) return 'Enter a whole number.';
        const any: Condition = (w) =>
          w.where((x) => {
            for (const value of given) x.orWhereRaw(`${sql} = ?`, [this.dialect === 'sqlite' ? Number(value) : value]);
            orNull(x);
          });
        return lookup === 'n' ? negate(any) : any;
      }
      default:
        return this.textCondition(definition, sql, lookup, given, orNull, negate);
    }
  }

  /** Text-like values (text, long text, URL, select, date, date-time, JSON): the string lookups. */
  private textCondition(
    definition: CustomFieldDefinition,
    sql: string,
    lookup: string,
    given: readonly string[],
    orNull: (x: Knex.QueryBuilder) => void,
    negate: (any: Condition) => Condition,
  ): Condition {
    const textual = definition.type === 'text' || definition.type === 'longtext' || definition.type === 'url';
    // Loose text filters match substrings, case-insensitively.
    const base = lookup === '' && textual && definition.filterLogic === 'loose' ? 'ic' : lookup;
    const negated = ['n', 'nic', 'nisw', 'niew', 'nie'].includes(base);
    const positive = base === 'n' ? '' : negated ? base.slice(1) : base;
    const comparisons: Record<string, string> = { lt: '<', lte: '<=', gt: '>', gte: '>=' };
    const any: Condition = (w) =>
      w.where((x) => {
        for (const value of given) {
          if (positive === '') x.orWhereRaw(`${sql} = ?`, [value]);
          else if (positive === 'ie') x.orWhereRaw(`lower(${sql}) = lower(?)`, [value]);
          else if (comparisons[positive]) x.orWhereRaw(`${sql} ${comparisons[positive]} ?`, [value]);
          else {
            const escaped = escapeLike(value);
            const pattern = positive === 'isw' ? `${escaped}%` : positive === 'iew' ? `%${escaped}` : `%${escaped}%`;
            x.orWhereRaw(ilike(this.dialect, sql), [pattern]);
          }
        }
        orNull(x);
      });
    return negated ? negate(any) : any;
  }

  /**
   * Keeps stored data in step with changed definitions (NetBox's behaviour): a new field (or a field given
   * new object types) writes its default into the existing objects' data, a renamed field moves its key, and
   * a deleted field (or removed object type) removes it.
   */
  async applyDefinitionChange(q: Knex, change: DefinitionChange): Promise<void> {
    const beforeTypes = objectTypesOf(change.before);
    const afterTypes = objectTypesOf(change.after);
    const beforeName = change.before ? safeName(String(change.before.name)) : null;
    const afterName = change.after ? safeName(String(change.after.name)) : null;
    const tables = (labels: string[]): string[] =>
      labels.flatMap((label) => {
        const model = this.schema.models.get(label);
        return model?.hasCustomFields ? [model.table] : [];
      });
    const removed = beforeName ? beforeTypes.filter((t) => !afterTypes.includes(t)) : [];
    for (const table of tables(removed)) await this.removeKey(q, table, beforeName!);
    if (beforeName && afterName && beforeName !== afterName) {
      for (const table of tables(afterTypes.filter((t) => beforeTypes.includes(t)))) {
        await this.renameKey(q, table, beforeName, afterName);
      }
    }
    const added = afterTypes.filter((t) => !beforeTypes.includes(t));
    if (afterName) {
      const initial = JSON.stringify(
        decodeJson(change.after![this.model?.fields.get('default')?.column ?? 'default']) ?? null,
      );
      for (const table of tables(added)) await this.setMissingKey(q, table, afterName, initial);
    }
  }

  private async removeKey(q: Knex, table: string, name: string): Promise<void> {
    if (this.dialect === 'sqlite') {
      await q.raw(`UPDATE ?? SET custom_field_data = json_remove(custom_field_data, '$.${name}')`, [table]);
    } else await q.raw(`UPDATE ?? SET custom_field_data = custom_field_data - '${name}'`, [table]);
  }

  private async renameKey(q: Knex, table: string, from: string, to: string): Promise<void> {
    if (this.dialect === 'sqlite') {
      await q.raw(
        `UPDATE ?? SET custom_field_data = json_remove(json_set(custom_field_data, '$.${to}', json_extract(custom_field_data, '$.${from}')), '$.${from}') WHERE json_type(custom_field_data, '$.${from}') IS NOT NULL`,
        [table],
      );
    } else {
      await q.raw(
        `UPDATE ?? SET custom_field_data = jsonb_set(custom_field_data - '${from}', '{${to}}', custom_field_data -> '${from}') WHERE jsonb_exists(custom_field_data, '${from}')`,
        [table],
      );
    }
  }

  private async setMissingKey(q: Knex, table: string, name: string, json: string): Promise<void> {
    if (this.dialect === 'sqlite') {
      await q.raw(
        `UPDATE ?? SET custom_field_data = json_set(custom_field_data, '$.${name}', json(?)) WHERE json_type(custom_field_data, '$.${name}') IS NULL`,
        [table, json],
      );
    } else {
      await q.raw(
        `UPDATE ?? SET custom_field_data = jsonb_set(custom_field_data, '{${name}}', ?::jsonb) WHERE NOT jsonb_exists(custom_field_data, '${name}')`,
        [table, json],
      );
    }
  }
}

const TEXT_LOOKUPS = ['n', 'ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie', 'empty'];
const RANGE_LOOKUPS = ['n', 'lt', 'lte', 'gt', 'gte', 'empty'];
/** The lookups (`cf_<name>__<lookup>`) of each type; others are ignored like unknown parameters. */
const LOOKUPS: Record<CustomFieldType, string[]> = {
  text: TEXT_LOOKUPS,
  longtext: TEXT_LOOKUPS,
  url: TEXT_LOOKUPS,
  select: TEXT_LOOKUPS,
  json: ['empty'],
  integer: RANGE_LOOKUPS,
  decimal: RANGE_LOOKUPS,
  date: RANGE_LOOKUPS,
  datetime: RANGE_LOOKUPS,
  boolean: ['empty'],
  multiselect: ['n', 'empty'],
  object: ['n', 'empty'],
  multiobject: ['n', 'empty'],
};

const invalidChoice = (value: string): string => `Select a valid choice. ${value} is not one of the available choices.`;

/**
 * A validation regex (searched for in values, as Django's RegexValidator does), or null when it does not
 * compile. RE2 matches in linear time, so no value sent to a field can stall the server whatever its pattern.
 */
export function safeRegExp(pattern: string): { test(value: string): boolean } | null {
  try {
    const compiled = RE2JS.compile(pattern);
    return compiled.programSize() > MAX_PROGRAM_SIZE ? null : compiled;
  } catch {
    return null;
  }
}

/** The id of the one object whose stored columns equal the given attributes, or why there is none. */
async function findByAttributes(
  q: Knex,
  target: ModelInfo,
  attributes: Record<string, unknown>,
  restrictView?: RestrictView,
): Promise<number | string> {
  const query = q({ r0: target.table }).select('r0.id').limit(2);
  for (const [name, value] of Object.entries(attributes)) {
    const field = target.fields.get(name);
    const column = name === 'id' ? 'id' : field && 'column' in field && !field.hidden ? field.column : undefined;
    if (!column || (value !== null && typeof value === 'object')) {
      return `Related object not found using the provided attributes: ${JSON.stringify(attributes)}`;
    }
    query.where(`r0.${column}`, value as Knex.Value);
  }
  if (restrictView) await restrictView(target, query);
  const rows = (await query) as Row[];
  if (rows.length === 1) return Number(rows[0]!.id);
  return rows.length === 0
    ? `Related object not found using the provided attributes: ${JSON.stringify(attributes)}`
    : `Multiple objects match the provided attributes: ${JSON.stringify(attributes)}`;
}
