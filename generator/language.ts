/** The model language as parsed from YAML (see model-language.schema.json). */
import type { FieldDef } from '../runtime/kinds/definition.js';

export type { FieldDef, FieldType } from '../runtime/kinds/definition.js';

export interface CountDef {
  model: string;
  field: string;
  cumulative?: boolean;
  nested?: 'omit' | 'include';
  description?: string;
}

export interface UniqueDef {
  name?: string;
  fields: string[];
  where_null?: string[];
  condition?: Record<string, string | number | boolean>;
  exclude?: Record<string, string | number | boolean>;
  case_insensitive?: boolean;
  message?: string;
}

/** A lookup set by name, or the lookup suffixes a filter accepts besides itself. */
export type LookupsDef = 'string' | 'text' | 'number' | 'exact' | 'relation' | string[];

export interface PathFilterDef {
  /** One path, or several that end at the same model: an object matches when any of them does. */
  path: string | string[];
  by?: string;
  tree?: boolean;
  /** String values: the base match ignores case (NetBox's iexact filters). */
  case_insensitive?: boolean;
  /** String values: the base match is a case-insensitive substring (NetBox's icontains filters). */
  contains?: boolean;
  lookups?: LookupsDef;
  description?: string;
}

export interface FunctionFilterDef {
  function: string;
  values?: 'string' | 'integer';
  lookups?: LookupsDef;
  description?: string;
}

export interface NetworkFilterDef {
  network: string;
  op: 'exact' | 'address' | 'within' | 'within_include' | 'contains' | 'parent' | 'mask_length';
  description?: string;
}

export interface ConstantFilterDef {
  constant: unknown;
  values: 'object' | 'boolean' | 'integer' | 'decimal' | 'string' | 'date' | 'datetime';
  lookups?: LookupsDef;
  description?: string;
}

export interface PresentFilterDef {
  /** A path, or several: any of them reaching a value counts. */
  present: string | string[];
  description?: string;
}

export interface CountFilterDef {
  count: string;
  lookups?: LookupsDef;
  description?: string;
}

export type FilterDef =
  PathFilterDef | FunctionFilterDef | NetworkFilterDef | ConstantFilterDef | PresentFilterDef | CountFilterDef;

export interface ActionDef {
  kind: 'allocate' | 'list' | 'locate' | 'run';
  description?: string;
  function: string;
  /** run: the custom action (besides view) the user needs on the object, e.g. `render_config`. */
  permission?: string;
  /** run: the function writes (it runs in a write transaction, change-logged). */
  writes?: boolean;
  /** run: the answer without the permission: 403 (NetBox's has_perm) or 404 (its restricted queryset). */
  denied?: 'forbidden' | 'not_found';
  creates?: string;
  assigns?: string[];
  parameters?: Record<string, Record<string, unknown>>;
  /** JSON Schemas, or `{ model, nullable }` for a model's nested representation. */
  item?: Record<string, Record<string, unknown>>;
  paginated?: boolean;
  tuple?: boolean;
  media?: string[];
}

/** Where a rule's error goes and what it says (`key` defaults to `__all__`). */
interface RuleError {
  key?: string;
  message: string;
}

/**
 * A model rule (see `RuleSpec` in runtime/spec.ts): one of `same`, `required`, `forbidden`, `invalid`,
 * `validator` or `set` per entry.
 */
export type RuleDef =
  | (RuleError & { same: [string, string]; when?: string })
  | (RuleError & { required: string; when?: string })
  | (RuleError & { forbidden: string; when?: string })
  | (RuleError & { invalid: string })
  | { validator: string }
  | { set: string; to: string | number | boolean | null; when?: string };

export interface ModelDef {
  description?: string;
  verbose_name?: string;
  verbose_name_plural?: string;
  class_name?: string;
  path?: string | null;
  read_only?: boolean;
  private?: boolean;
  open_view?: boolean;
  string_id?: boolean;
  shared?: { flag: string; user: string };
  tree?: boolean;
  display?: string | string[] | { function: string; uses: string[] };
  ordering?: (string | { field: string; nulls?: 'first' | 'last' })[];
  features?: (
    | 'tags'
    | 'custom_fields'
    | 'change_logging'
    | 'events'
    | 'image_attachments'
    | 'contacts'
    | 'journaling'
    | 'bookmarks'
  )[];
  roles?: (
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
  )[];
  /** Traits included, in order (`<trait>` of this app or `<app>.<trait>`); see generator/traits.ts. */
  traits?: string[];
  aliases?: string[];
  fields: Record<string, FieldDef>;
  counts?: Record<string, CountDef>;
  unique_together?: UniqueDef[];
  /** false: no brief form (the complete representation). */
  brief?: string[] | false;
  nested?: string[];
  output?: string[];
  search?: string[];
  search_also?: string[];
  related_object?: string;
  filters?: Record<string, FilterDef | false>;
  indexes?: string[][];
  validators?: string[];
  rules?: RuleDef[];
  hooks?: { prepare?: string; present?: string; created?: string; updated?: string; written?: string };
  /** The model this template model's objects become when instantiated (NetBox's component_model). */
  instantiates?: string;
  /** Columns of other models whose values became objects of this model (moved by the migration that drops them). */
  moved_from?: MovedFromDef[];
  actions?: Record<string, ActionDef>;
}

/** A column of another model whose values became objects of this one (see MovedColumnSpec). */
export interface MovedFromDef {
  model: string;
  column: string;
  /** This model's field the value goes to. */
  field: string;
  /** This model's generic relation that is pointed at the row the value came from. */
  assign: string;
  /** The other model's FK to this one that is pointed at the new object. */
  link: string;
}

/** A named part of models (NetBox's mixins), included by the models that list it under `traits`. */
export type TraitDef = Partial<
  Pick<
    ModelDef,
    | 'traits'
    | 'features'
    | 'fields'
    | 'counts'
    | 'unique_together'
    | 'filters'
    | 'rules'
    | 'search'
    | 'indexes'
    | 'validators'
    | 'hooks'
    | 'display'
    | 'ordering'
    | 'related_object'
    | 'brief'
    | 'nested'
    | 'instantiates'
  >
> & { description?: string };

export interface ModelFile {
  app: string;
  verbose_name?: string;
  description?: string;
  templates?: Record<string, unknown>;
  choices?: Record<string, [string | number, string][]>;
  traits?: Record<string, TraitDef>;
  /** A plugin's additions to core models, by label. */
  extends?: Record<string, { counts: Record<string, CountDef> }>;
  models: Record<string, ModelDef>;
}
