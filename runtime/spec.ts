/**
 * The contract between the generator and the runtime: the data that `generated/` emits for every model.
 * Everything here is plain, JSON-serialisable data; the runtime derives its behaviour from it.
 */
import type { RequestHandler, Router } from 'express';

export type Feature =
  | 'tags'
  | 'custom_fields'
  | 'change_logging'
  | 'events'
  | 'image_attachments'
  | 'contacts'
  | 'journaling'
  | 'bookmarks';
export type Role =
  | 'tag'
  | 'tagged_item'
  | 'user'
  | 'token'
  | 'custom_field'
  | 'group'
  | 'object_permission'
  | 'change_record'
  | 'background_task'
  | 'worker'
  | 'sign_in_attempt'
  | 'event_rule'
  | 'webhook'
  | 'object_type'
  | 'saved_filter'
  | 'export_template'
  | 'custom_link';
/** `do_nothing`: generic relations only; the object outlives its target (change records). */
export type OnDelete = 'cascade' | 'protect' | 'set_null' | 'do_nothing';

/** A database column type, shared by table specs and migrations. */
export type ColumnType =
  | { type: 'string'; maxLength: number }
  | { type: 'text' }
  | { type: 'integer' }
  | { type: 'bigint' }
  | { type: 'decimal'; precision: number; scale: number }
  | { type: 'boolean' }
  | { type: 'date' }
  | { type: 'datetime' }
  | { type: 'json' };

export interface ColumnSpec {
  name: string;
  column: ColumnType;
  nullable: boolean;
  /** Database default (JSON value), so that the column can be added to a table that has rows. */
  default?: unknown;
  /** `table.column` this column references (foreign key). */
  references?: string;
}

export interface IndexSpec {
  name: string;
  columns: string[];
  unique: boolean;
  /** Partial index: only rows where these columns are null. */
  whereNull?: string[];
  /** Compare the first column case-insensitively (lower()); the form of earlier migrations, read as `lower`. */
  caseInsensitive?: boolean;
  /** Columns compared case-insensitively (lower()). */
  lower?: string[];
  /** Partial index: only rows where these columns hold these values (NetBox's `condition=Q(...)`). */
  whereEquals?: Record<string, string | number | boolean>;
  /** Partial index: only rows where these columns do not hold these values (NetBox's `condition=~Q(...)`). */
  whereNotEquals?: Record<string, string | number | boolean>;
}

export interface TableSpec {
  name: string;
  columns: ColumnSpec[];
  indexes: IndexSpec[];
}

/** What every field spec has, whatever its kind. */
export interface FieldBase {
  name: string;
  /** Database column; absent for fields that are not stored. */
  column?: string;
  label: string;
  description?: string;
  helpText?: string;
  nullable: boolean;
  /** Required on create (POST/PUT). */
  required: boolean;
  readOnly: boolean;
  writeOnly: boolean;
  /** Writable on create, ignored on update. */
  createOnly: boolean;
  hidden: boolean;
  unique: boolean;
  /** Default on create; the string `now` on datetimes means the current time. */
  default?: unknown;
}

export type StringFormat = 'plain' | 'text' | 'slug' | 'unicode-slug' | 'color' | 'email' | 'url' | 'timezone';

export interface StringField extends FieldBase {
  kind: 'string';
  format: StringFormat;
  maxLength?: number;
  blank: boolean;
  /** Sort naturally (`ge-0/0/2` before `ge-0/0/10`) through a hidden `<column>_natural` key. */
  natural: boolean;
  /** Stored upper-case (MAC addresses, WWNs) or lower-case (DNS names). */
  case?: 'upper' | 'lower';
  /** A regular expression the value must match, and the error when it does not. */
  pattern?: string;
  patternMessage?: string;
}
export interface IntegerField extends FieldBase {
  kind: 'integer';
  /** Stored as a 64-bit integer. */
  big: boolean;
  min?: number;
  max?: number;
}
export interface DecimalField extends FieldBase {
  kind: 'decimal';
  maxDigits: number;
  decimalPlaces: number;
  min?: number;
  max?: number;
}
export interface BooleanField extends FieldBase {
  kind: 'boolean';
}
export interface DateField extends FieldBase {
  kind: 'date' | 'datetime';
}
export interface JsonField extends FieldBase {
  kind: 'json';
  /** `<prefix><key>` query parameters filter by the value's key (NetBox's AttributeFiltersMixin). */
  filterPrefix?: string;
}
export interface ChoiceField extends FieldBase {
  kind: 'choice';
  choices: [string | number, string][];
  /** Raw choices render as the bare value instead of `{value, label}`. */
  raw: boolean;
  blank: boolean;
}
export interface ForeignKeyField extends FieldBase {
  kind: 'fk';
  target: string;
  onDelete: OnDelete;
  /** Fields of the nested representation; null means the target's nested/brief set. */
  nested: string[] | null;
  /** The name by which filter paths reach this model's objects from the target. */
  relatedName?: string;
}
export interface ListField extends FieldBase {
  kind: 'list';
  items: 'string' | 'integer' | 'ip_network';
  maxItems?: number;
  /** False: an empty list is refused. */
  allowEmpty?: false;
  /** Bounds of integer items. */
  min?: number;
  max?: number;
}
export interface ObjectTypesField extends FieldBase {
  kind: 'object_types';
  /** Only models with this feature are valid values. */
  feature?: Feature;
  /** False: an empty list is refused. */
  allowEmpty?: false;
}
export interface PasswordField extends FieldBase {
  kind: 'password';
  maxLength: number;
}
/** A list of related objects through a join table: read as nested objects, written as ids. */
export interface ManyToManyField extends FieldBase {
  kind: 'm2m';
  target: string;
  /** Join table; `fromColumn` holds this model's ids and `toColumn` the target's. */
  through: string;
  /** `from_id`, or `to_id` for the other side of another model's field (`reverse_of`). */
  fromColumn: 'from_id' | 'to_id';
  toColumn: 'from_id' | 'to_id';
  /** `<model>.<field>` when this field is the other side of that field's join table. */
  reverseOf?: string;
  nested: string[] | null;
  /** Read and write the related objects as this attribute (e.g. tag slugs) instead of objects and ids. */
  by?: string;
  /** The name by which filter paths reach this model's objects from the target. */
  relatedName?: string;
}
/**
 * A list of child rows stored in another model's table (NetBox's nested `many=True` serializers over a
 * reverse relation, e.g. a front port's `rear_ports` over its port mappings): each item shows some of the
 * child's fields under keys of its own; writing the list reconciles the children (only the difference is
 * written, through the child model's write path: validated and change-logged).
 */
export interface ChildListField extends FieldBase {
  kind: 'children';
  /** The child model (`app.model`). */
  model: string;
  /** The child's FK field that points at the owner. */
  parent: string;
  /** Item key → child field, in the order items show them. */
  keys: { key: string; field: string }[];
  /** The item key that identifies a child within its owner (kept when its other values are unchanged). */
  identity: string;
  /** Child field → value every child of this list has (set on create, matched on read); empty: none. */
  fixed?: Record<string, string>;
  /** The owner's integer field that bounds how many children it may have, and the message when it would not. */
  countWithin?: { field: string; message: string };
  /**
   * Each item also shows, read-only under `object`, the object that a generic relation of the child names,
   * nested (NetBox's GenericObjectSerializer): the item keys of its type and id fields.
   */
  object?: { typeKey: string; idKey: string };
}
/** One content type, `app.model`, from a fixed list. */
export interface ContentTypeField extends FieldBase {
  kind: 'content_type';
  targets: string[];
}
/**
 * A generic relation: the object named by a content-type field and an id field of the same model, read
 * as the target's nested representation.
 */
export interface GenericRelationField extends FieldBase {
  kind: 'generic_fk';
  typeField: string;
  idField: string;
  targets: string[];
  onDelete: OnDelete;
  /** Only objects the requesting user may view: written (else not found) and shown (else null). */
  visibleOnly?: true;
  /** Target model → the name by which filter paths step to the target when it is of that model. */
  queryNames?: Record<string, string>;
  /** The name by which filter paths step from a target object to the objects pointing at it (a GenericRelation). */
  relatedName?: string;
}
/**
 * An IPv4/IPv6 network (`ip_network`, host bits clear) or an address with its mask (`ip_interface`).
 * Hidden columns `<column>_family`, `_start`, `_end` (32 hex digits) and `_len` make ordering and
 * containment tests numeric on both databases.
 */
export interface IpField extends FieldBase {
  kind: 'ip_network' | 'ip_interface';
  allowZero: boolean;
}
/** The family (4 or 6) of an IP field, rendered as a choice. */
export interface IpFamilyField extends FieldBase {
  kind: 'ip_family';
  of: string;
}
/**
 * An uploaded image (multipart only): stored under MEDIA_ROOT/`uploadTo`, read as its absolute URL. The
 * runtime fills the named integer fields with the image's dimensions and size.
 */
export interface ImageField extends FieldBase {
  kind: 'image';
  uploadTo: string;
  /** `{field}` / `{a|b}` / `{file}` template of the stored name (without extension). */
  fileName: string;
  heightField?: string;
  widthField?: string;
  sizeField?: string;
}
/** Renders another stored field's value under a second name (read-only). */
export interface AliasField extends FieldBase {
  kind: 'alias';
  of: string;
}
/** A fixed value (for NetBox keys whose feature this service does not have, e.g. cables). */
export interface ConstantField extends FieldBase {
  kind: 'constant';
  value: unknown;
  /** JSON Schema of the value, for the OpenAPI document. */
  schema: Record<string, unknown>;
}
/** A value computed for a page of objects by a domain function, in one batch. */
export interface ComputedField extends FieldBase {
  kind: 'computed';
  function: string;
  schema: Record<string, unknown>;
  /** Leave the key out unless the request renders the full representation (`exclude=` names it). */
  excludable: boolean;
  /**
   * Computed only for the objects that a relation of another model points at (counted with the page's other
   * counts, in the same statement); the others get `otherwise`, at no cost.
   */
  referencedBy?: { model: string; field: string; otherwise: unknown };
}

/**
 * A value derived from the same object's fields by a domain function, at render time: `uses` names the
 * fields (stored ones, or FK paths such as `event_rule.name`) read with the row, so it costs no query.
 */
export interface DerivedField extends FieldBase {
  kind: 'derived';
  function: string;
  uses: string[];
  /** JSON Schema of the value, for the OpenAPI document. */
  schema: Record<string, unknown>;
}

export type FieldSpec =
  | StringField
  | IntegerField
  | DecimalField
  | BooleanField
  | DateField
  | JsonField
  | ChoiceField
  | ForeignKeyField
  | ListField
  | ObjectTypesField
  | PasswordField
  | ManyToManyField
  | ChildListField
  | ContentTypeField
  | GenericRelationField
  | IpField
  | IpFamilyField
  | ConstantField
  | ComputedField
  | AliasField
  | DerivedField
  | ImageField;

export type FieldKind = FieldSpec['kind'];

/** A reverse count such as `site_count`, computed in one batched query per page. */
export interface CountSpec {
  name: string;
  /** The counted model and its FK, many-to-many or generic relation field pointing at this model. */
  model: string;
  field: string;
  /** Tree models: include objects attached to descendants. */
  cumulative: boolean;
  /** In nested representations: omit the key, or count there too. */
  nested: 'omit' | 'include';
  description?: string;
  /** The plugin that adds this count to a core model: shown while the plugin is enabled. */
  plugin?: string;
}

export type DisplaySpec =
  | { kind: 'field'; field: string }
  | { kind: 'template'; template: string; uses: string[] }
  /**
   * The first template whose fields (outside `[optional parts]`) are all set; `uses` may follow FKs
   * (`device_type.model`). Read plans fetch a path that only later templates use just for the rows that need it.
   */
  | { kind: 'first'; templates: string[]; uses: string[] }
  | { kind: 'function'; function: string; uses: string[] };

export interface OrderingSpec {
  field: string;
  descending: boolean;
  /** Put nulls first when ascending (PostgreSQL's default is last). */
  nullsFirst?: boolean;
}

/** Named lookup sets; a filter may also list its lookups explicitly. */
export type LookupSet = 'string' | 'text' | 'number' | 'exact' | 'relation' | 'none';
export type Lookups = LookupSet | readonly string[];

/** The lookup suffixes (`name__ic`) each kind of filter accepts; `''` is the filter itself. */
export const FILTER_LOOKUPS: Readonly<Record<LookupSet | 'tag' | 'search' | 'network' | 'request', readonly string[]>> =
  {
    string: ['', 'n', 'ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie', 'empty', 'regex', 'iregex'],
    /** The string lookups without `empty` (NetBox's text and integer-choice fields). */
    text: ['', 'n', 'ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie', 'regex', 'iregex'],
    number: ['', 'n', 'lt', 'lte', 'gt', 'gte', 'empty'],
    exact: [''],
    relation: ['', 'n'],
    none: [''],
    tag: ['', 'n', 'any'],
    search: [''],
    network: [''],
    request: [''],
  };

/** Lookups of a filter. */
export function filterLookups(filter: FilterSpec): readonly string[] {
  switch (filter.kind) {
    case 'value':
    case 'constant':
    case 'object_type':
    case 'list_item':
    case 'function':
    case 'count':
      return lookupList(filter.lookups);
    case 'relation':
      return lookupList(filter.lookups ?? 'relation');
    case 'network':
      // NetBox declares `mask_length__gte` and `__lte` only.
      return filter.op === 'mask_length' ? ['', 'gte', 'lte'] : FILTER_LOOKUPS.network;
    case 'present':
      return FILTER_LOOKUPS.exact;
    default:
      return FILTER_LOOKUPS[filter.kind];
  }
}

/** The suffixes of a named or explicit lookup set (`''`, the filter itself, first). */
export function lookupList(lookups: Lookups): readonly string[] {
  return typeof lookups === 'string' ? FILTER_LOOKUPS[lookups] : lookups;
}

/** Keys of the response to `POST …/tokens/provision/`, in NetBox's order (no pepper_id). */
export const TOKEN_PROVISION_KEYS: readonly string[] = [
  'id',
  'url',
  'display_url',
  'display',
  'version',
  'user',
  'key',
  'created',
  'expires',
  'last_used',
  'enabled',
  'write_enabled',
  'description',
  'allowed_ips',
  'token',
];

/**
 * A query filter. Value filters compare a column (optionally reached through FK `path`), relation filters
 * select by related object id or attribute, tag filters look at the tagged items.
 */
/** One step of a filter path, from a model to a related one. */
/** Where a `present` filter looks: a path, ending at a stored field or at a related model. */
export interface PresentPlace {
  path: FilterStep[];
  field?: string;
}

export type FilterStep =
  /** The model's FK field, to its target. */
  | { kind: 'fk'; field: string; target: string }
  /** The objects of `model` whose FK `field` points at the object. */
  | { kind: 'reverse'; model: string; field: string }
  /** The objects the model's many-to-many field lists. */
  | { kind: 'm2m'; field: string; target: string }
  /** The objects of `model` whose many-to-many field `field` lists the object. */
  | { kind: 'reverse_m2m'; model: string; field: string }
  /** The object the model's generic FK `field` points at, when it is a `target`. */
  | { kind: 'generic'; field: string; target: string }
  /** The objects of `model` whose generic FK `field` points at the object. */
  | { kind: 'reverse_generic'; model: string; field: string };

export type FilterSpec =
  | {
      kind: 'value';
      name: string;
      /** Steps from the model to the model that holds `field`. */
      path: FilterStep[];
      field: string;
      valueKind: 'string' | 'integer' | 'decimal' | 'boolean' | 'date' | 'datetime' | 'choice';
      lookups: Lookups;
      /** Base match is case-insensitive. */
      caseInsensitive?: boolean;
      /** Base match is a case-insensitive substring. */
      contains?: boolean;
    }
  | {
      kind: 'relation';
      name: string;
      /** Steps from the model; the last one reaches `target`. */
      path: FilterStep[];
      /** Further paths to `target`: an object matches when any path reaches one of the given objects. */
      or?: FilterStep[][];
      target: string;
      /** Target field the values are matched against (`id`, `slug`, `name`, …). */
      by: string;
      /** Match descendants of the given nodes too. */
      tree: boolean;
      /** Match strict descendants of the given nodes through the model's own parent (ancestor filters). */
      ancestor?: boolean;
      /** Lookups other than the usual `''` and `n`. */
      lookups?: Lookups;
    }
  /** Objects that carry the given tags: all of them, none (`__n`) or any (`__any`). */
  | { kind: 'tag'; name: string; by: 'slug' | 'id' }
  | { kind: 'search'; name: 'q' }
  | {
      kind: 'network';
      name: string;
      /** Steps from the model to the model that holds `field` (none: the model's own field). */
      path?: FilterStep[];
      /** The IP field compared. */
      field: string;
      op: 'exact' | 'address' | 'within' | 'within_include' | 'contains' | 'parent' | 'mask_length';
    }
  /** A filter that a domain function builds (values and lookup in, condition on alias `t0` out). */
  | { kind: 'function'; name: string; function: string; valueKind: 'string' | 'integer'; lookups: Lookups }
  /**
   * Objects created (`create`), updated (`update`) or either (`modify`) by the request with this id, per the
   * change records.
   */
  | { kind: 'request'; name: string; action: 'create' | 'update' | 'modify' }
  /**
   * A value that is the same for every object (a NetBox relation or counter this service does not serve):
   * the filter matches every object or none; `object` values name related objects that cannot exist.
   */
  | {
      kind: 'constant';
      name: string;
      value: unknown;
      valueKind: 'object' | 'boolean' | 'integer' | 'decimal' | 'string' | 'date' | 'datetime';
      lookups: Lookups;
    }
  /**
   * `true`: objects that have a value at `field` (or, without it, a related object at the path's end), or at
   * any of the places `or` adds; `false`: objects with none.
   */
  | ({ kind: 'present'; name: string; or?: PresentPlace[] } & PresentPlace)
  /** Numeric lookups on one of the model's counts. */
  | { kind: 'count'; name: string; count: string; lookups: Lookups }
  /**
   * Content types (`app.model`, or object type ids with `by: id`) held by a content_type field or listed by
   * an object_types field. Every lookup of the string set matches the type exactly; `n…` lookups exclude.
   */
  | { kind: 'object_type'; name: string; field: string; by: 'label' | 'id'; lookups: Lookups }
  /** A list field holds one of the values. */
  | { kind: 'list_item'; name: string; field: string; lookups: Lookups };

export interface UniqueSpec {
  name: string;
  fields: string[];
  whereNull: string[];
  /** Every text field of the constraint compares case-insensitively. */
  caseInsensitive: boolean;
  /** The constraint applies only to objects whose fields hold these values. */
  condition?: Record<string, string | number | boolean>;
  /** The constraint applies only to objects whose fields do not hold these values. */
  exclude?: Record<string, string | number | boolean>;
  message: string;
  /** Single-field constraints report under the field, others under `__all__`. */
  errorKey: string;
}

/**
 * A model rule. Paths are field names joined by dots through foreign keys (`rack.site`); conditions and values
 * are expressions of `runtime/expression.ts`. Checks report `message` under `key` (`__all__` or a field) and
 * stop at the first failing rule, as NetBox's `clean()` does; `{path}` in a message is the value there (an
 * object's display text when the path ends at a foreign key). `set` rules run after every check passed.
 */
export type RuleSpec =
  /** The two paths end at the same value (when every key on the way to their ends is set, and `when` holds). */
  | { kind: 'same'; paths: [string, string]; when?: string; key: string; message: string }
  /** The field has a value (`required`), or has none (`forbidden`), when `when` holds. */
  | { kind: 'required' | 'forbidden'; field: string; when?: string; key: string; message: string }
  /** The object is invalid when the expression holds. */
  | { kind: 'invalid'; when: string; key: string; message: string }
  /** A domain validator, run at this point of the order. */
  | { kind: 'validator'; function: string }
  /** Computed and stored on save: the field takes the expression's value (when `when` holds). */
  | { kind: 'set'; field: string; to: string; when?: string };

export interface ReverseRelation {
  model: string;
  field: string;
  onDelete: OnDelete;
  /** A generic relation (type and id fields) rather than an FK. */
  generic?: boolean;
}

/** A value of an action's item: a JSON Schema, or a model's nested representation (`null` when nullable). */
export type ActionValue =
  { kind: 'schema'; schema: Record<string, unknown> } | { kind: 'model'; model: string; nullable: boolean };

/**
 * An endpoint below one object, `/<app>/<path>/{id}/<name>/`, served by a domain function. `allocate`
 * lists what is free under the object (GET) and creates objects of another model from it (POST, one or
 * several, under a lock so that concurrent requests never take the same thing); `list` answers GET with
 * a list of items (optionally paginated) or another rendering of them.
 */
export interface ActionSpec {
  /** URL segment, e.g. `available-ips`. */
  name: string;
  /**
   * allocate and list: below each object (`/<app>/<path>/{id}/<name>/`); locate: at the app's root
   * (`/<app>/<name>/`), answering the one object of this model that the query parameters lead to; run: POST
   * below each object, the object and the request body in, what the function answers out (the object itself
   * when the action declares no `item`).
   */
  kind: 'allocate' | 'list' | 'locate' | 'run';
  description?: string;
  /**
   * run: the custom action (NetBox's `<app>.<action>_<model>` permission, e.g. `render_config`) the user needs on
   * the object besides view; its constraints apply as NetBox's `restrict()` does.
   */
  permission?: string;
  /** run: the function writes, in one write transaction (change records and events as any write). */
  writes?: boolean;
  /**
   * run: `not_found` is NetBox's TokenWritePermission (render/, render-config/): a write-enabled token is required,
   * and an object the user may not view or act on is not found (404); otherwise (sync/) a user without the view
   * or the action's permission gets 403, as NetBox's `has_perm` checks answer.
   */
  denied?: 'not_found';
  /** The domain function: an allocator (`allocate`), a list function (`list`) or a locate function (`locate`). */
  function: string;
  /** allocate: the model whose objects POST creates (its `add` permission applies). */
  creates?: string;
  /** allocate: fields of the created model that the allocator fills in. */
  assigns: string[];
  /** allocate: keys of a request item besides the created model's fields; list: query parameters. */
  parameters: Record<string, Record<string, unknown>>;
  /** The keys of one item of the GET response. */
  item: Record<string, ActionValue>;
  /** list: items come in pages like a model list (`count`, `next`, `previous`, `results`). */
  paginated: boolean;
  /** list: each item is an array of the item's values in key order (a trace's triples), not an object. */
  tuple?: boolean;
  /** list: further media types of the GET response (e.g. `image/svg+xml`), chosen by a parameter. */
  media: string[];
}

export interface ModelSpec {
  /** `app.model`, e.g. `dcim.site`. */
  label: string;
  app: string;
  name: string;
  className: string;
  verboseName: string;
  verboseNamePlural: string;
  description?: string;
  /** Endpoint path under the app (`sites`), or null for a model without endpoint. */
  path: string | null;
  readOnly: boolean;
  /** NetBox's `_netbox_private`: the model's object type is not public. */
  private?: true;
  /** NetBox's IsAuthenticatedOrLoginNotRequired: signed-in users (anyone without LOGIN_REQUIRED) may read. */
  openView?: true;
  /** The API renders `id` as a string (NetBox's RQ task ids are strings); lookups still take the number. */
  stringId?: true;
  table: string;
  tree: boolean;
  features: Feature[];
  roles: Role[];
  display: DisplaySpec;
  ordering: OrderingSpec[];
  fields: FieldSpec[];
  counts: CountSpec[];
  /** Key order of the full representation. */
  output: string[];
  brief: string[];
  /** Representation when nested in another object, if it differs from `brief`. */
  nested: string[];
  search: string[];
  /** Filter functions whose matches `?q=` adds to those of the searched fields (the text is their value). */
  searchAlso: string[];
  /** Further endpoints (`<app>/<path>`) serving the same list and details. */
  aliases: string[];
  /** The FK or generic relation whose target change records name as the related object. */
  relatedObject?: string;
  filters: FilterSpec[];
  uniques: UniqueSpec[];
  /** Extra non-unique indexes (field names). */
  indexes: string[][];
  validators: string[];
  /** Declared rules (NetBox's common `clean()` and `save()` patterns), checked in order before `validators`. */
  rules: RuleSpec[];
  /**
   * Write hooks: `created` runs in the write's transaction after objects are created, `updated` after objects
   * are updated (each writes other objects through the write path: validated, change-logged, evented);
   * `written` after objects are created, updated or deleted, keeping related objects' stored values (no checks,
   * no change records).
   */
  hooks: { prepare?: string; present?: string; created?: string; updated?: string; written?: string };
  /** The model this template model's objects become when a `created` hook instantiates them. */
  instantiates?: string;
  /** Columns of other models whose values became objects of this one (an interface's MAC address column). */
  movedFrom?: MovedColumnSpec[];
  /** FKs of other models that point at this one (deletion rules). */
  reverse: ReverseRelation[];
  /** Endpoints below each object (`available-ips`, `elevation`). */
  actions: ActionSpec[];
  /** The plugin that defines the model; its endpoint is then under `/plugins/<baseUrl>/`. */
  plugin?: { name: string; baseUrl: string };
  /**
   * NetBox's SharedObjectQuerySet: users other than superusers see only the objects whose boolean `flag` field
   * is true or whose `user` FK names them (anonymous clients: the shared ones), whatever their permissions.
   */
  shared?: { flag: string; user: string };
}

export interface AppSpec {
  name: string;
  verboseName: string;
  description?: string;
  models: string[];
}

/** A plugin: a folder of model files under `models/plugins/<name>/`, loaded when `PLUGINS` names it. */
export interface PluginSpec {
  /** The folder name, the app label of its models and the name `PLUGINS` uses. */
  name: string;
  verboseName: string;
  version: string;
  /** URL segment of its API: `/api/plugins/<baseUrl>/`. */
  baseUrl: string;
  description: string;
  author?: string;
  /** Service versions it supports (inclusive), as NetBox's `min_version`/`max_version`. */
  minVersion?: string;
  maxVersion?: string;
  /** Labels of its models. */
  models: string[];
  /** Its own migrations, applied when it is first enabled. */
  migrations: Migration[];
  /** Whether `PLUGINS` names it (set by the runtime's enablePlugins; generated plugins are off). */
  enabled?: boolean;
}

/**
 * A column of another model (`table.column`) whose values became objects of this model: each non-null value
 * is an object (its `value` column), assigned to the row it came from through a generic relation
 * (`typeColumn` = `type`, `idColumn` = the row's id), and the row's `link` FK points at it. The migration that
 * drops the column moves its values first; the NetBox importer does the same for releases that had the column.
 */
export interface MovedColumnSpec {
  /** The model that had the column, its table, the column and the FK (column) that now points here. */
  model: string;
  table: string;
  column: string;
  link: string;
  /** This model's table, the column the value goes to and the generic relation's columns. */
  into: string;
  value: string;
  typeColumn: string;
  idColumn: string;
  /** `created`/`last_updated` columns of this model, stamped with the migration's time. */
  timestamps: string[];
}

export interface MigrationOp {
  op:
    | 'createTable'
    | 'dropTable'
    | 'addColumn'
    | 'dropColumn'
    | 'alterColumn'
    | 'createIndex'
    | 'dropIndex'
    | 'moveToRows';
  table: string;
  columns?: ColumnSpec[];
  column?: ColumnSpec;
  columnName?: string;
  index?: IndexSpec;
  indexName?: string;
  /** moveToRows: the values of `table.columnName` become rows (see MovedColumnSpec), before the column goes. */
  move?: MovedColumnSpec;
}

export interface Migration {
  name: string;
  ops: MigrationOp[];
}

export interface Registry {
  /** Package version, e.g. 4.6.0. */
  version: string;
  apps: AppSpec[];
  models: Record<string, ModelSpec>;
  /** Express route mounting per model label (only models with an endpoint). */
  routes: Record<string, MountRoutes>;
  migrations: Migration[];
  /** Every generated plugin, enabled or not, sorted by name. */
  plugins: PluginSpec[];
  /** The OpenAPI 3 document. */
  openapi: Record<string, unknown>;
  /**
   * The plugins' own domain functions by name, beside the runtime's: each a `DomainEntry` (domain/types.ts, a
   * layer above this module; the generated registry checks them against it).
   */
  functions?: Readonly<Record<string, { readonly kind: string }>>;
}

/** Handlers the runtime provides for one model's endpoint. */
export interface ModelHandlers {
  list: RequestHandler;
  create: RequestHandler;
  bulkUpdate: RequestHandler;
  bulkDelete: RequestHandler;
  retrieve: RequestHandler;
  update: RequestHandler;
  destroy: RequestHandler;
  options: RequestHandler;
  methodNotAllowed: RequestHandler;
  /** The handlers of one of the model's actions (by name). */
  action(name: string): ActionHandlers;
}

/** Handlers of an action endpoint (`post` answers 405 on `list` actions). */
export interface ActionHandlers {
  get: RequestHandler;
  post: RequestHandler;
  options: RequestHandler;
}

/** How a client refers to a related object on write: an id, a numeric string or identifying attributes. */
export type RelatedInput = number | string | Record<string, unknown>;

/** A tag in a write body: its id or `{name}` / `{slug}`. */
export type TagInput = number | { name?: string; slug?: string; id?: number };

/** Mounts one model's routes on a router (generated per model). */
export type MountRoutes = (router: Router, handlers: ModelHandlers) => void;
