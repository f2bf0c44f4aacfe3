import type { Knex } from 'knex';
import { RE2JS } from 're2js';
import { parseDateInput, parseDateTimeInput, renderTimestamp } from '../db/clock.js';
import type { Dialect } from '../db/connect.js';
import { whereJsonKeyEquals } from '../db/json-keys.js';
import { MAX_PROGRAM_SIZE } from '../db/regex.js';
import { lockKey } from '../db/transaction.js';
import type { FieldErrors } from '../errors.js';
import {
  safeName,
  type CheckedValue,
  type CustomFieldDefinition,
  type RestrictView,
} from './custom-field-definitions.js';
import type { ModelInfo, Schema } from './schema.js';

type Row = Record<string, unknown>;

/**
 * Validates the `custom_fields` of written objects against the definitions: types, choices, ranges, regexes,
 * objects the writer may see, and unique values (among stored objects and the objects of one write).
 */
export class CustomFieldValidator {
  /** Unique values claimed by the objects a transaction wrote so far (key → object id, null for a new one). */
  private readonly claims = new WeakMap<Knex, Map<string, number | null>>();

  constructor(
    private readonly schema: Schema,
    private readonly dialect: Dialect,
    private readonly forModel: (q: Knex, model: ModelInfo) => Promise<CustomFieldDefinition[]>,
  ) {}

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
    const query = q({ t0: model.table }).first('t0.id');
    whereJsonKeyEquals(query, this.dialect, 't0.custom_field_data', safeName(definition.name), JSON.stringify(value));
    if (objectId !== null) query.whereNot('t0.id', objectId);
    return Boolean(await query);
  }
}

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
