/**
 * The shapes a write passes around (its context, prepared objects, changes, snapshots, hooks): types only,
 * so that the write, delete, change-log, uniqueness and event modules share them without importing each other.
 */
import type { Knex } from 'knex';
import type { Principal, Restriction, AuthUser } from '../auth/principal.js';
import type { Settings } from '../config.js';
import type { Dialect } from '../db/connect.js';
import type { DomainFunctions } from '../domain/types.js';
import type { FieldErrors } from '../errors.js';
import type { RelatedResolver } from './related.js';
import type { ModelInfo, Schema } from './schema.js';
import type { TagOps } from './tags.js';

type Row = Record<string, unknown>;

/** An object's stored state: fields by name (FKs as ids, many-to-many as id lists, tags as names). */
export type Snapshot = Record<string, unknown>;

/** One change made by a write, for change logging and event rules. */
export interface Change {
  action: 'create' | 'update' | 'delete';
  model: ModelInfo;
  id: number;
  /** The row before the change (update, delete). */
  before: Row | null;
  /** The object before the change with its many-to-many fields and tags (change-logged models). */
  beforeSnapshot?: Snapshot | null;
  /** An update that wrote neither the object's tags nor its many-to-many lists (they are as before). */
  listsKept?: boolean;
  /** A create's many-to-many lists as it wrote them (ids in order), by field name. */
  lists?: Snapshot;
  /** The object's REST representation just before it was deleted, when an event rule wants it. */
  beforeData?: Row;
  message: string;
}

/** Everything a write needs; `q` is the write's transaction. */
export interface WriteContext {
  q: Knex.Transaction;
  schema: Schema;
  dialect: Dialect;
  settings: Settings;
  domain: DomainFunctions;
  user: AuthUser | null;
  /** The requesting user's restriction for an action (custom ones included) on a model; undefined: none. */
  grantOf: (model: ModelInfo, action: string) => Restriction | undefined;
  resolver: RelatedResolver;
  /** Validates and normalises `custom_fields` of a body; returns the data to store. */
  customFields: (
    model: ModelInfo,
    input: unknown,
    existing: Record<string, unknown> | null,
    errors: FieldErrors,
    id: number | null,
  ) => Promise<Record<string, unknown> | null>;
  /** Every change of this transaction, in order. */
  changes: Change[];
  /** REST representations of objects about to be deleted, when events need them (else null). */
  representDeleted?: (model: ModelInfo, ids: readonly number[]) => Promise<Map<number, Row> | null>;
  /** Stored files (relative to MEDIA_ROOT): written by this write (removed if it fails), and no longer used. */
  files: { written: string[]; obsolete: string[] };
  /**
   * An import from another system (`svc import-netbox`): a body's `id`, `created`, `last_updated` and read-only
   * stored fields are kept, passwords arrive hashed, and `created` hooks do not run (the source's objects,
   * components included, are imported as they are).
   */
  importing?: boolean;
  /**
   * Objects are written without first asking whether their unique values are taken or whether the objects their
   * stored foreign keys name exist: the database's unique indexes and foreign keys refuse them, and invalid input
   * stops the write (CheckAgain); the caller then runs the write again without this, to answer with NetBox's
   * complete error body.
   */
  optimisticUniques?: boolean;
}

/** One object of a write after validation. */
export interface PreparedItem {
  input: Record<string, unknown>;
  /** Existing id (updates) or the new id once inserted. */
  id: number | null;
  existingRow: Row | null;
  existing: Record<string, unknown> | null;
  /** Field name → value after the write. */
  values: Record<string, unknown>;
  tags: TagOps | null;
  customFields: Record<string, unknown> | null;
  message: string;
  errors: FieldErrors;
  transient: Record<string, unknown>;
}

/** Result of a create or update: the ids in request order and per-object data for the response. */
export interface WriteResult {
  ids: number[];
  transient: Map<number, Record<string, unknown>>;
}

/** What a write hook learns about the request that made the changes. */
export interface WriteRequest {
  requestId: string;
  method: string;
  path: string;
  principal: Principal;
}

/** Runs inside a write's transaction after its changes (change records, event jobs). */
export type WriteHook = (trx: Knex.Transaction, changes: readonly Change[], request: WriteRequest) => Promise<void>;
