/**
 * A field kind: everything about one kind of field in one module, used by the generator (YAML, column,
 * TypeScript types, OpenAPI schemas, derived filters) and by the runtime (parse, decode, encode, present,
 * OPTIONS metadata, permission constraint values). Kind modules depend on `runtime/spec.ts` and small pure
 * helpers only, never on the generator or on the rest of the runtime, so that both may import them.
 */
import type { FieldDef } from './definition.js';
import type { ColumnType, FieldBase, FilterSpec, ModelSpec } from '../spec.js';

export type Json = Record<string, unknown>;

/** The outcome of parsing one written value: the stored value, or error messages for the field. */
export type Parsed = { ok: true; value: unknown } | { ok: false; errors: string[] };

export const ok = (value: unknown): Parsed => ({ ok: true, value });
export const fail = (...errors: string[]): Parsed => ({ ok: false, errors });

/** Any field spec: the built-in ones, or one of a kind registered later (a plugin, a test). */
export type AnyField = FieldBase & { kind: string };

/** What resolving a field's YAML definition may use besides the definition itself. */
export interface ResolveContext {
  /** The field's name, its model's app and label (`app.model`). */
  name: string;
  app: string;
  label: string;
  /** The properties every field has, resolved (name, column, label, nullable, read-only…), in spec order. */
  base: Omit<FieldBase, 'required'>;
  required: boolean;
  blank: boolean;
  nullable: boolean;
  stored: boolean;
  /** Reports an error at a property of the field (`''`: the field itself). */
  error(at: string, message: string): void;
  /** True when a model with this label exists. */
  hasModel(label: string): boolean;
  /** A field definition of another model, by label and field name. */
  fieldDef(label: string, field: string): FieldDef | undefined;
  /** A choice set by qualified name (`app.name`). */
  choiceSet(name: string): [string | number, string][] | undefined;
  /** The models a content type or generic relation may name (`types` or `feature`). */
  targets(at: string, anyByDefault?: boolean): string[];
  /** A database identifier shortened to the length both databases accept. */
  identifier(text: string): string;
}

/** What the TypeScript types of a field may use. */
export interface TypeContext {
  model: ModelSpec;
  models: ReadonlyMap<string, ModelSpec>;
  /** Name of the string-literal union of a choice field's values. */
  choiceTypeName(field: AnyField): string;
}

/** What a field's OpenAPI schemas may use. */
export interface SchemaContext {
  models: ReadonlyMap<string, ModelSpec>;
}

/** What a field's OPTIONS metadata may use (DRF's `actions.POST` entries). */
export interface OptionsContext {
  /** The verbose name of a model. */
  verboseName(label: string): string;
  /** The metadata of a related model's nested representation. */
  nestedChildren(label: string, keys: readonly string[] | null): Record<string, Json>;
}

/** What deriving a field's filters may use. */
export interface FilterContext {
  model: ModelSpec;
  models: ReadonlyMap<string, ModelSpec>;
  /** The field's YAML definition (`filter`, `filter_by`). */
  def: FieldDef | undefined;
}

/** A value filter derived from a stored field: what its values are and which lookups it takes. */
export type ValueFilter = Pick<Extract<FilterSpec, { kind: 'value' }>, 'valueKind' | 'lookups'>;

/** What a permission constraint may compare a field with. */
export type ConstraintValue = 'integer' | 'number' | 'boolean' | 'datetime' | 'text' | 'json';

export interface FieldKindModule<F extends AnyField = AnyField> {
  /** The spec kinds this module serves (`field.kind`). */
  kinds: readonly F['kind'][];

  // --- The model language (generator) ---
  /** YAML `type` values resolved by this module (`slug`, `text`… are string fields). */
  types: readonly string[];
  /** YAML properties allowed beyond the common ones (`max_length`…). */
  properties: readonly string[];
  /** JSON Schemas of properties that no built-in kind has (for kinds registered later). */
  propertySchemas?: Readonly<Record<string, Json>>;
  /** Not a database column unless `stored: true` (default: stored). */
  derived?: boolean;
  /** Read-only unless `read_only: false`. */
  readOnly?: boolean;
  /** Write-only unless `write_only: false`. */
  writeOnly?: boolean;
  /** Never required by default, even when stored. */
  optional?: boolean;
  /** The column of a field of this kind (default: `column` or the field's name when stored, else none). */
  columnName?(name: string, def: FieldDef, stored: boolean): string | undefined;
  /** YAML definition → spec; the common properties are in `ctx.base`. */
  resolve(def: FieldDef, ctx: ResolveContext): F;
  /** Checks the other fields of the model that this one names (`of`, `type_field`…). */
  checkReferences?(field: F, byName: ReadonlyMap<string, AnyField>, error: (at: string, message: string) => void): void;

  // --- What the generator emits ---
  /** The database column type; null when the kind has no column of its own. */
  column(field: F): ColumnType | null;
  /** TypeScript type of the stored value (rows and writes). */
  valueType(field: F, ctx: TypeContext): string;
  /** TypeScript type of the written value, when it differs (e.g. related objects). */
  writeType?(field: F, ctx: TypeContext): string;
  /** TypeScript type in the API representation (default: the value type, nullable when not stored). */
  readType?(field: F, ctx: TypeContext): string;
  /** JSON Schema of a rendered value, without null. */
  readSchema(field: F, ctx: SchemaContext): Json;
  /** JSON Schema of a written value, without null. */
  writeSchema(field: F, ctx: SchemaContext): Json;
  /** The value filter of a stored field (derived, or named by a path filter), or null. */
  valueFilter?(field: F): ValueFilter | null;
  /** The filters derived from the field (default: its value filter under its name). */
  filters?(field: F, ctx: FilterContext): FilterSpec[];

  // --- What the runtime does with values ---
  /** A written value (not null) → the value to store, or DRF's error messages. */
  parse?(field: F, value: unknown): Parsed;
  /** A database value (not null) → its JavaScript value, the same on both dialects. */
  decode?(field: F, raw: unknown): unknown;
  /** A JavaScript value (not null) → the database value. */
  encode?(field: F, value: unknown, dialect: 'sqlite' | 'postgres'): unknown;
  /** A decoded value → its API representation. */
  present?(field: F, value: unknown): unknown;
  /** Fills DRF's OPTIONS metadata of the field (`type`, `max_length`, `choices`…). */
  options(field: F, meta: Json, readOnly: boolean, ctx: OptionsContext): void;
  /** What a permission constraint may compare the field with. */
  constraintValue(field: F): ConstraintValue;
}

/** A kind module typed by its spec, stored beside the others. */
export function defineKind<F extends AnyField>(module: FieldKindModule<F>): FieldKindModule<F> {
  return module;
}

/** `{type, enum}` for choice values (the type only when all values share it). */
export function enumSchema(values: readonly (string | number)[]): Json {
  const types = new Set(
    values.map((v) => (typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : 'string')),
  );
  return types.size === 1 ? { type: [...types][0], enum: [...values] } : { enum: [...values] };
}

/** Python's name for a JSON value's type, as DRF prints it. */
export function pythonType(value: unknown): string {
  if (value === null) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'object') return 'dict';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return typeof value;
}

/** DRF's message for an empty list where one is required. */
export const EMPTY_LIST = 'This list may not be empty.';

/** Decodes JSON stored as text (SQLite) or as a value (PostgreSQL). */
export function decodeJsonValue(raw: unknown): unknown {
  return typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw;
}

/** Decodes a number stored as a number or as text (PostgreSQL bigint and numeric). */
export function decodeNumber(raw: unknown): unknown {
  return typeof raw === 'number' ? raw : Number(raw);
}

/** A relation's related_name; `{model}` is only for traits (where the including model's name replaces it). */
export function relatedName(name: string, error: (at: string, message: string) => void): string {
  if (name.includes('{model}')) error('related_name', "'{model}' stands for the including model's name: traits only");
  return name;
}
