/**
 * What `svc import-netbox` needs to know about NetBox's database that the registry cannot say: where NetBox
 * keeps what it keeps elsewhere than the service does. Everything else follows from the registry by NetBox's
 * own conventions — a model's rows are in the table of the same name, a field in the column of its name
 * (`<name>_id` for a foreign key or a content type), a many-to-many field in the join table `<table>_<name>`
 * with `<model>_id` and `<target model>_id` — so a model that lands later is imported without a change here.
 */
import type { Knex } from 'knex';
import type { Dialect } from '../db/connect.js';
import type { Schema } from '../rest/schema.js';
import { rebuildAllPaths } from './cable-store.js';

/** Where one model's rows come from, when it is not NetBox's convention. */
export interface NetboxModelMap {
  /** The NetBox table, when its name differs (per release: the first whose version the source has wins). */
  table?: string | readonly { since: string; table: string }[];
  /** Field → NetBox column, when its name differs from the field's (or `<field>_id`). */
  columns?: Readonly<Record<string, string>>;
  /** Field → a value read from another table by the object's id (`users_userconfig.data` for a user's config). */
  joined?: Readonly<Record<string, { table: string; key: string; column: string }>>;
  /**
   * Field → a value NetBox keeps in another table since a release, reached through a column of this one (an
   * interface's MAC address, in its primary MAC address object since 4.2).
   */
  lookups?: Readonly<Record<string, { since: string; column: string; table: string; value: string }>>;
  /** Field → how NetBox's value becomes the service's. */
  values?: Readonly<Record<string, NetboxValueTransform>>;
  /** Many-to-many field → NetBox's join table, when NetBox declares the relation on the other model. */
  joins?: Readonly<Record<string, { table: string; from: string; to: string }>>;
  /**
   * Generic relations that NetBox kept as separate foreign keys before a release: the first column that is set
   * names the object, of the model given beside it (a prefix's `site_id` before its `scope` in 4.2).
   */
  /**
   * How NetBox releases before `before` kept the model: field → column (null: that release had none) and
   * constant values (the first entry that applies wins for each field).
   */
  earlier?: readonly {
    before: string;
    columns?: Readonly<Record<string, string | null>>;
    constants?: Readonly<Record<string, unknown>>;
  }[];
  legacyGeneric?: readonly { before: string; type: string; id: string; columns: Readonly<Record<string, string>> }[];
  /**
   * Child lists that NetBox releases before `before` kept as columns of this model, one item at most: item key →
   * column, and item key → constant (a front port's rear port and position before 4.6's port mappings).
   */
  earlierLists?: Readonly<
    Record<
      string,
      { before: string; columns: Readonly<Record<string, string>>; constants?: Readonly<Record<string, unknown>> }
    >
  >;
}

/** Recomputes values that NetBox keeps as its own bookkeeping (left out of the import), in the import's transaction. */
export type AfterImport = (q: Knex, schema: Schema, dialect: Dialect) => Promise<void>;

/** Conversions of NetBox values that differ in shape from the service's API input. */
export type NetboxValueTransform =
  /** PostgreSQL integer ranges (`{"[1,4095)"}`) → `[[1, 4094]]`. */
  'int_ranges';

const FRONT_PORT_COLUMNS = {
  before: '4.6',
  columns: { rear_port: 'rear_port_id', rear_port_position: 'rear_port_position' },
  constants: { position: 1 },
};

export const NETBOX_IMPORT = {
  /** Models keyed by label. Models that are the service's own bookkeeping have no NetBox source (`null`). */
  models: {
    'core.backgroundtask': null,
    'core.worker': null,
    'users.signinattempt': null,
    'extras.taggeditem': null,
    'core.objecttype': null,
    // Traced again after the import (afterImport): NetBox's nodes name content type ids of its own database.
    'dcim.cablepath': null,
    'dcim.cablepathnode': null,
    'circuits.circuittermination': {
      legacyGeneric: [
        {
          before: '4.2',
          type: 'termination_type',
          id: 'termination_id',
          columns: { site_id: 'dcim.site', provider_network_id: 'circuits.providernetwork' },
        },
      ],
    },
    'ipam.prefix': {
      legacyGeneric: [{ before: '4.2', type: 'scope_type', id: 'scope_id', columns: { site_id: 'dcim.site' } }],
    },
    'virtualization.cluster': {
      legacyGeneric: [{ before: '4.2', type: 'scope_type', id: 'scope_id', columns: { site_id: 'dcim.site' } }],
    },
    'ipam.service': {
      legacyGeneric: [
        {
          before: '4.3',
          type: 'parent_object_type',
          id: 'parent_object_id',
          columns: { device_id: 'dcim.device', virtual_machine_id: 'virtualization.virtualmachine' },
        },
      ],
    },
    // Before 4.6 a front port (template) mapped to one position of one rear port, in its own columns; 4.6's
    // migration made each a port mapping of the front port's position 1.
    'dcim.frontport': { earlierLists: { rear_ports: FRONT_PORT_COLUMNS } },
    'dcim.frontporttemplate': { earlierLists: { rear_ports: FRONT_PORT_COLUMNS } },
    'users.objectpermission': {
      joins: {
        groups: { table: 'users_group_object_permissions', from: 'objectpermission_id', to: 'group_id' },
        users: { table: 'users_user_object_permissions', from: 'objectpermission_id', to: 'user_id' },
      },
    },
    // Tokens: v1 tokens kept their secret in `key` until 4.5 made room for v2 tokens (key, pepper and digest)
    // and moved it to `plaintext`. The secret is given back as the write's `token`, as when it was created.
    'users.token': {
      columns: { token: 'plaintext' },
      earlier: [{ before: '4.5', columns: { plaintext: 'key', token: 'key', key: null }, constants: { version: 1 } }],
    },
    'core.objectchange': {
      table: [
        { since: '4.1', table: 'core_objectchange' },
        { since: '4.0', table: 'extras_objectchange' },
      ],
    },
    'users.user': { joined: { config: { table: 'users_userconfig', key: 'user_id', column: 'data' } } },
    'ipam.vlangroup': { values: { vid_ranges: 'int_ranges' } },
  } as Readonly<Record<string, NetboxModelMap | null>>,
  /** Object tags: NetBox's tagged items (content type, object id, tag). */
  taggedItems: { table: 'extras_taggeditem', type: 'content_type_id', object: 'object_id', tag: 'tag_id' },
  /** Content types and the ids object types are stored as. */
  contentTypes: 'django_content_type',
  /** Tables every NetBox database has: a database without them is not NetBox's. */
  signature: ['django_migrations', 'django_content_type', 'dcim_device'] as readonly string[],
  /**
   * NetBox's own bookkeeping, never data to move: Django's tables, the search cache, user preferences and
   * sessions, and cable paths (the service traces them from the cables it imported). They are left out of the
   * report's list of tables without a home.
   */
  internalTables: [
    /^django_/,
    /^auth_permission$/,
    /^auth_group_permissions$/,
    /^users_group_permissions$/,
    /^users_user_user_permissions$/,
    /^extras_cachedvalue$/,
    /^dcim_cablepath$/,
    /^core_objecttype$/,
    /^social_auth_/,
    /^taggit_/,
  ] as readonly RegExp[],
  /** Run once every object is written: cable paths are traced from the imported cables. */
  afterImport: [rebuildAllPaths] as readonly AfterImport[],
} as const;
