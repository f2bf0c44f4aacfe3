import type { Knex } from 'knex';
import type { Restriction } from '../auth/grants.js';
import type { Settings } from '../config.js';
import type { Dialect } from '../db/connect.js';
import type { FieldErrors } from '../http/errors.js';
import type { ModelInfo, Schema } from '../rest/schema.js';

/** The authenticated user of a request. */
export interface AuthUser {
  id: number;
  username: string;
  isSuperuser: boolean;
  isActive: boolean;
}

/** What a validator or prepare hook sees of one object being written. */
export interface WriteItemContext {
  q: Knex;
  schema: Schema;
  dialect: Dialect;
  settings: Settings;
  model: ModelInfo;
  user: AuthUser | null;
  /** The requesting user's restriction for an action (custom ones included) on a model; undefined: none. */
  grantOf: (model: ModelInfo, action: string) => Restriction | undefined;
  /** The object's id (null while creating). */
  id: number | null;
  /** Field name → value after the write (existing values merged with the written ones; FKs as ids). */
  values: Record<string, unknown>;
  /** Field name → value before the write; null on create. */
  existing: Record<string, unknown> | null;
  /** The body of this object as the client sent it. */
  input: Record<string, unknown>;
  errors: FieldErrors;
  /** Per-object data handed from `prepare` to `present` (e.g. a token's plaintext). */
  transient: Record<string, unknown>;
}

/** What batch functions (computed values, filters) may use. */
export interface BatchContext {
  q: Knex;
  schema: Schema;
  dialect: Dialect;
  settings: Settings;
  /** Rendered objects of any model (as nested in another object), loaded in one batch. */
  load?: (label: string, keys: readonly string[], ids: readonly number[]) => Promise<Record<string, unknown>[]>;
}

/** Computes one value per object of a page (e.g. a prefix's children), in a bounded number of queries. */
export type ComputeFunction = (
  ctx: BatchContext,
  model: ModelInfo,
  ids: readonly number[],
) => Promise<Map<number, unknown>>;
/**
 * A filter: the request's values and lookup (`''`, or a suffix such as `n` or `gte` that the YAML allows)
 * in, a condition on alias `t0` out (or an error message for a 400).
 */
export type FilterFunction = (
  ctx: BatchContext,
  model: ModelInfo,
  values: readonly string[],
  lookup: string,
) => Promise<((query: Knex.QueryBuilder) => void) | string>;

export type DisplayFunction = (values: Record<string, unknown>) => string;
export type ValidatorFunction = (item: WriteItemContext) => void | Promise<void>;
export type PrepareFunction = (item: WriteItemContext) => void | Promise<void>;
/** Adjusts a rendered object; `transient` is set only in the response to the write that created it. */
export type PresentFunction = (object: Record<string, unknown>, transient: Record<string, unknown> | undefined) => void;

export type DomainEntry =
  | { kind: 'display'; fn: DisplayFunction }
  | { kind: 'validator'; fn: ValidatorFunction }
  | { kind: 'prepare'; fn: PrepareFunction }
  | { kind: 'present'; fn: PresentFunction }
  | { kind: 'compute'; fn: ComputeFunction }
  | { kind: 'filter'; fn: FilterFunction };

/** Typed access to the named domain functions. */
export interface DomainFunctions {
  display(name: string, values: Record<string, unknown>): string;
  validator(name: string): ValidatorFunction;
  prepare(name: string): PrepareFunction;
  present(name: string): PresentFunction;
  compute(name: string): ComputeFunction;
  filter(name: string): FilterFunction;
}
