import type { Knex } from 'knex';
import type { AuthUser, Restriction } from '../auth/principal.js';
import type { Settings } from '../config.js';
import type { Dialect } from '../db/connect.js';
import type { FieldErrors } from '../errors.js';
import type { ModelInfo, Schema } from '../rest/schema.js';

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
  /**
   * The valid objects of the same request written before this one (not stored yet while validating): what
   * they will be (their id when they are updates), so that rules between objects (rack space) see them.
   */
  earlier: readonly { id: number | null; values: Record<string, unknown> }[];
}

/** What batch functions (computed values, filters) may use. */
export interface BatchContext {
  q: Knex;
  schema: Schema;
  dialect: Dialect;
  settings: Settings;
  /** Rendered objects of any model (as nested in another object), loaded in one batch. */
  load?: (label: string, keys: readonly string[], ids: readonly number[]) => Promise<Record<string, unknown>[]>;
  /** The tags of the page's objects (rendered, with `id`), when the page renders them. */
  tags?: ReadonlyMap<number, readonly unknown[]>;
  /** The requesting user, for filters that depend on who asks (NetBox's `usable`); absent: anonymous. */
  user?: { id: number; isSuperuser: boolean } | null;
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

/** What an action's domain function may use: the batch context (with `load`) and the user's view rights. */
export interface ActionContext extends BatchContext {
  load: NonNullable<BatchContext['load']>;
  /** `http://host[:port][BASE_PATH]`, for links to object pages. */
  siteRoot: string;
  /** Limits a query on alias `t0` of a model to what the user may view (false: the user may view none). */
  restrictView: (label: string, query: Knex.QueryBuilder) => boolean;
}

/** The object an action runs below: its id and its field values (FKs as ids). */
export interface ActionParent {
  id: number;
  values: Record<string, unknown>;
}

/**
 * Allocates objects below a parent (free addresses of a prefix, free VIDs of a VLAN group). `list` and
 * `allocate` agree on the order (first available first).
 */
export interface Allocator {
  /** Up to `limit` free items, rendered as the action's items (GET). */
  list(ctx: ActionContext, parent: ActionParent, limit: number): Promise<Record<string, unknown>[]>;
  /** Errors of a request item's own parameters (empty when valid), checked before anything is taken. */
  check(ctx: ActionContext, parent: ActionParent, request: Record<string, unknown>): Record<string, string[]>;
  /**
   * Under the action's lock: the bodies that create the objects (each request with the assigned fields and
   * without the action's own parameters), or null when there is not enough room for all of them.
   */
  allocate(
    ctx: ActionContext,
    parent: ActionParent,
    requests: readonly Record<string, unknown>[],
  ): Promise<Record<string, unknown>[] | null>;
}

/** What a `list` action answers: items (the runtime paginates them if the action says so), or a document. */
export type ListResult = { items: Record<string, unknown>[] } | { body: string; contentType: string };

/** A `list` action: the parent and its parsed query parameters in, items or another rendering out. */
export type ListFunction = (
  ctx: ActionContext,
  parent: ActionParent,
  params: Record<string, unknown>,
) => Promise<ListResult>;

/**
 * A `locate` action: the query parameters in, the id of the one object of the action's model they lead to out
 * (null: none, a 404). It throws a 4xx (e.g. BadRequestError) for parameters that are missing or wrong.
 */
export type LocateFunction = (ctx: ActionContext, params: Record<string, unknown>) => Promise<number | null>;

/** What a `run` action's function may use: the action context, the user, and writes through the write path. */
export interface RunContext extends ActionContext {
  /** The model of the object the action runs on (a function may serve several models). */
  model: ModelInfo;
  user: AuthUser | null;
  /** The request's X-Request-ID. */
  requestId: string;
  /**
   * The write path (creates, updates and deletes validated, change-logged and evented as a client's), in the
   * action's transaction; only for actions that declare `writes` (else it throws).
   */
  write: Pick<CreatedContext, 'create' | 'update' | 'remove'>;
  /** The user's restriction for a custom action on a model (undefined: none), e.g. `view` of another model. */
  restriction: (label: string, action: string) => Restriction | undefined;
}

/**
 * What a `run` action answers: a JSON value, a document of one of its media types, or (`object`) the object it
 * ran on, read again in full. `status` defaults to 200.
 */
export type RunResult =
  | { json: unknown; status?: number }
  | { body: string; contentType: string; status?: number; headers?: Record<string, string> }
  | { object: true };

/**
 * A `run` action (POST below an object): the object, the request body (a JSON object) and the media type the
 * client accepts (`application/json` or one of the action's `media`) in, the answer out. It throws a 4xx
 * (ValidationError, BadRequestError) for a request it refuses.
 */
export type RunFunction = (
  ctx: RunContext,
  parent: ActionParent,
  body: Record<string, unknown>,
  media: string,
) => Promise<RunResult>;

export type DisplayFunction = (values: Record<string, unknown>) => string;
/**
 * A derived field's value from the object's fields named in its `uses` (decoded; FK paths by their dotted
 * name) and the settings, at render time: no I/O.
 */
export type DeriveFunction = (values: Record<string, unknown>, settings: Settings) => unknown;
export type ValidatorFunction = (item: WriteItemContext) => void | Promise<void>;
export type PrepareFunction = (item: WriteItemContext) => void | Promise<void>;
/**
 * What a write hook (`created`, `updated`) may do: read in the write's transaction, and write through the same
 * write path, so that what it writes is validated, change-logged and evented as a client's write would be.
 */
export interface CreatedContext {
  q: Knex;
  schema: Schema;
  dialect: Dialect;
  settings: Settings;
  /**
   * Creates objects as a bulk POST would (validated, all or none, change-logged, events, custom field defaults);
   * the ids in order. An invalid object fails the whole write with its errors.
   */
  create(model: ModelInfo, bodies: readonly Record<string, unknown>[]): Promise<number[]>;
  /** Updates objects as a bulk PATCH would. */
  update(model: ModelInfo, updates: readonly { id: number; input: Record<string, unknown> }[]): Promise<void>;
  /** Deletes objects as a bulk DELETE would (deletion rules, change records, events). */
  remove(model: ModelInfo, ids: readonly number[]): Promise<void>;
}

/**
 * After objects of a model are created, in the write's transaction: writes other objects, e.g. a device's
 * components from its type's templates.
 */
export type CreatedFunction = (
  ctx: CreatedContext,
  model: ModelInfo,
  created: readonly { id: number; values: Record<string, unknown> }[],
) => Promise<void>;
/**
 * After objects of a model are updated by a client (not when they only follow a related object), in the write's
 * transaction: writes other objects, e.g. a zone's managed records. `before` holds the stored values the
 * update started from.
 */
export type UpdatedFunction = (
  ctx: CreatedContext,
  model: ModelInfo,
  updated: readonly { id: number; values: Record<string, unknown>; before: Record<string, unknown> }[],
) => Promise<void>;
/**
 * Runs after objects of a model were created, updated or deleted (their values then as they were), in the
 * write's transaction: updates values of related objects as NetBox's signal handlers do with
 * `QuerySet.update()`, without checks or change records.
 */
export type WrittenFunction = (
  ctx: Pick<CreatedContext, 'q' | 'schema' | 'dialect' | 'settings'>,
  model: ModelInfo,
  written: readonly { id: number; values: Record<string, unknown> }[],
) => Promise<void>;
/** Adjusts a rendered object; `transient` is set only in the response to the write that created it. */
export type PresentFunction = (object: Record<string, unknown>, transient: Record<string, unknown> | undefined) => void;

export type DomainEntry =
  | { kind: 'display'; fn: DisplayFunction }
  /**
   * `batch`: the validator's checks hold when a whole batch is validated before any of it is stored — it reads
   * no rows of its own model that another object of the same write could change, or it reads `earlier` for
   * them (and leaves out the stored rows of `earlier` updates). Objects of a model whose validators all say so
   * are validated together and inserted in multi-row statements; otherwise one at a time, each stored before
   * the next is validated.
   */
  | { kind: 'validator'; fn: ValidatorFunction; batch?: true }
  | { kind: 'prepare'; fn: PrepareFunction }
  | { kind: 'present'; fn: PresentFunction }
  | { kind: 'created'; fn: CreatedFunction }
  | { kind: 'updated'; fn: UpdatedFunction }
  | { kind: 'written'; fn: WrittenFunction }
  | { kind: 'compute'; fn: ComputeFunction }
  | { kind: 'derive'; fn: DeriveFunction }
  | { kind: 'filter'; fn: FilterFunction }
  | { kind: 'allocator'; fn: Allocator }
  | { kind: 'locate'; fn: LocateFunction }
  | { kind: 'list'; fn: ListFunction }
  | { kind: 'run'; fn: RunFunction };

/** Typed access to the named domain functions. */
export interface DomainFunctions {
  display(name: string, values: Record<string, unknown>): string;
  validator(name: string): ValidatorFunction;
  /** Whether the named validator holds for a batch validated before it is stored (its entry's `batch`). */
  validatesBatch(name: string): boolean;
  prepare(name: string): PrepareFunction;
  present(name: string): PresentFunction;
  created(name: string): CreatedFunction;
  updated(name: string): UpdatedFunction;
  written(name: string): WrittenFunction;
  compute(name: string): ComputeFunction;
  derive(name: string): DeriveFunction;
  filter(name: string): FilterFunction;
  allocator(name: string): Allocator;
  list(name: string): ListFunction;
  locate(name: string): LocateFunction;
  run(name: string): RunFunction;
}
