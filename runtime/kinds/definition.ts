import type { Feature } from '../spec.js';

/**
 * A field as written in the model language (YAML), the input of a kind module's `resolve`. It lives beside
 * the kind modules so that they need nothing from the generator; generator/language.ts re-exports it.
 */

export type FieldType =
  | 'string'
  | 'text'
  | 'slug'
  | 'color'
  | 'email'
  | 'url'
  | 'timezone'
  | 'integer'
  | 'bigint'
  | 'decimal'
  | 'boolean'
  | 'date'
  | 'datetime'
  | 'json'
  | 'choice'
  | 'fk'
  | 'list'
  | 'object_types'
  | 'password'
  | 'm2m'
  | 'children'
  | 'content_type'
  | 'generic_fk'
  | 'ip_network'
  | 'ip_interface'
  | 'ip_family'
  | 'constant'
  | 'computed'
  | 'alias'
  | 'derived'
  | 'image';

export interface FieldDef {
  type: FieldType;
  description?: string;
  label?: string;
  help_text?: string;
  column?: string;
  max_length?: number;
  min_value?: number;
  max_value?: number;
  max_digits?: number;
  decimal_places?: number;
  blank?: boolean;
  nullable?: boolean;
  default?: unknown;
  required?: boolean;
  read_only?: boolean;
  write_only?: boolean;
  create_only?: boolean;
  stored?: boolean;
  hidden?: boolean;
  unique?: boolean;
  unicode?: boolean;
  filter?: boolean;
  choices?: string;
  raw?: boolean;
  to?: string;
  on_delete?: 'cascade' | 'protect' | 'set_null' | 'do_nothing';
  nested?: string[];
  filter_by?: string | null;
  items?: 'string' | 'integer' | 'ip_network';
  max_items?: number;
  allow_empty?: boolean;
  visible_only?: boolean;
  tree?: boolean;
  feature?: Feature;
  by?: string;
  types?: string[];
  type_field?: string;
  id_field?: string;
  allow_zero?: boolean;
  of?: string;
  value?: unknown;
  schema?: Record<string, unknown>;
  function?: string;
  uses?: string[];
  excludable?: boolean;
  referenced_by?: { model: string; field: string; otherwise: unknown };
  natural?: boolean;
  case?: 'upper' | 'lower';
  pattern?: string;
  reverse_of?: string;
  related_name?: string;
  query_names?: Record<string, string>;
  pattern_message?: string;
  filter_prefix?: string;
  upload_to?: string;
  file_name?: string;
  height_field?: string;
  width_field?: string;
  size_field?: string;
  /** `children`: the child model, its FK to the owner, item key → child field, the identifying key, the bound. */
  model?: string;
  parent?: string;
  keys?: Record<string, string>;
  identity?: string;
  fixed?: Record<string, string>;
  count_within?: string;
  count_message?: string;
  object?: string;
}
