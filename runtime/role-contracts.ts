/**
 * What the runtime relies on in the models that play a role: the fields it reads and writes by name, with
 * their kinds (and, for relations, the role of the model they point at). The generator checks every model
 * that declares a role against this table and reports a missing or mistyped field at its YAML line, so that
 * renaming such a field fails generation rather than a request.
 */
import type { FieldKind, Role } from './spec.js';

export interface RoleField {
  /** The kinds the field may have (`string` covers slug, text, email… in YAML). */
  kinds: readonly FieldKind[];
  /** fk and m2m fields: the role of the model they point at. */
  target?: Role;
}

const field = (...kinds: FieldKind[]): RoleField => ({ kinds });
const relation = (kind: 'fk' | 'm2m', target: Role): RoleField => ({ kinds: [kind], target });
const string = field('string');
const integer = field('integer');
const boolean = field('boolean');
const datetime = field('datetime');
const json = field('json');
const choice = field('choice');

/** Role → field name → what the field must be (keys kept, so that the runtime can type its accessors on them). */
export const ROLE_CONTRACTS = {
  tag: { name: string, slug: string, color: string, object_types: field('object_types') },
  tagged_item: { tag: relation('fk', 'tag'), object_type: field('string', 'content_type'), object_id: integer },
  user: {
    username: string,
    password: field('password'),
    is_active: boolean,
    is_superuser: boolean,
    last_login: datetime,
    config: json,
    session_generation: integer,
    groups: relation('m2m', 'group'),
  },
  token: {
    version: choice,
    key: string,
    user: relation('fk', 'user'),
    expires: datetime,
    last_used: datetime,
    enabled: boolean,
    write_enabled: boolean,
    pepper_id: integer,
    allowed_ips: field('list'),
    hmac_digest: string,
    plaintext: string,
  },
  custom_field: {
    object_types: field('object_types'),
    type: choice,
    related_object_type: field('content_type'),
    name: string,
    label: string,
    required: boolean,
    unique: boolean,
    default: json,
    filter_logic: choice,
    validation_minimum: field('decimal', 'integer'),
    validation_maximum: field('decimal', 'integer'),
    validation_regex: string,
    choice_set: field('fk'),
  },
  group: { name: string },
  object_permission: {
    enabled: boolean,
    object_types: field('object_types'),
    actions: field('list'),
    constraints: json,
    users: relation('m2m', 'user'),
    groups: relation('m2m', 'group'),
  },
  change_record: {
    time: datetime,
    user: relation('fk', 'user'),
    user_name: string,
    request_id: string,
    action: choice,
    changed_object_type: field('content_type'),
    changed_object_id: integer,
    related_object_type: field('content_type'),
    related_object_id: integer,
    object_repr: string,
    prechange_data: json,
    postchange_data: json,
  },
  background_task: {
    queue: string,
    state: choice,
    event: string,
    object_type: field('content_type'),
    object_id: integer,
    object: field('generic_fk'),
    event_rule: relation('fk', 'event_rule'),
    webhook: relation('fk', 'webhook'),
    request_id: string,
    payload: json,
    target: string,
    attempts: integer,
    enqueued_at: datetime,
    next_attempt_at: datetime,
    started_at: datetime,
    finished_at: datetime,
    response_status: integer,
    error_log: string,
    worker: string,
  },
  worker: {
    name: string,
    pid: integer,
    host: string,
    queues: field('list'),
    started: datetime,
    last_heartbeat: datetime,
  },
  sign_in_attempt: { address: string, username: string, time: datetime },
  event_rule: {
    object_types: field('object_types'),
    enabled: boolean,
    event_types: field('list'),
    conditions: json,
    action_type: choice,
    action_object_type: field('content_type'),
    action_object_id: integer,
    action_data: json,
  },
  saved_filter: {
    object_types: field('object_types'),
    slug: string,
    enabled: boolean,
    shared: boolean,
    parameters: json,
  },
  export_template: {
    object_types: field('object_types'),
    name: string,
    template_code: string,
    mime_type: string,
    file_name: string,
    file_extension: string,
    as_attachment: boolean,
  },
  custom_link: {
    object_types: field('object_types'),
    name: string,
    enabled: boolean,
    link_text: string,
    link_url: string,
    weight: integer,
    group_name: string,
    button_class: choice,
    new_window: boolean,
  },
  object_type: {
    app_label: string,
    app_name: string,
    model: string,
    model_name: string,
    model_name_plural: string,
    public: boolean,
    features: field('list'),
    is_plugin_model: boolean,
    rest_api_endpoint: string,
    description: string,
  },
  webhook: {
    payload_url: string,
    http_method: choice,
    http_content_type: string,
    additional_headers: string,
    body_template: string,
    secret: string,
    ssl_verification: boolean,
    ca_file_path: string,
  },
} as const satisfies Readonly<Record<Role, Readonly<Record<string, RoleField>>>>;
