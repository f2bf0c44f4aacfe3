import fs from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';

/** A permission granted to every authenticated user (NetBox's DEFAULT_PERMISSIONS). */
export type DefaultPermissions = Record<string, Record<string, unknown> | Record<string, unknown>[] | null>;

/** Every setting of the service; names follow NetBox where NetBox has one. */
export interface Settings {
  /** TCP port of the HTTP server (environment only). */
  PORT: number;
  /** Address the HTTP server listens on; empty: every address of the machine (environment only). */
  HOST: string;
  /** `sqlite:<path>` or `postgres://user@host:port/db` (environment only). */
  DATABASE_URL: string;
  /** Default page size of lists. */
  PAGINATE_COUNT: number;
  /** Largest page a client may ask for; 0 means unlimited. */
  MAX_PAGE_SIZE: number;
  /** Models (`app.model`, or `*`) that anonymous clients may read. */
  EXEMPT_VIEW_PERMISSIONS: string[];
  /** Anonymous clients may read nothing (not even exempt models or the API roots) while this is true. */
  LOGIN_REQUIRED: boolean;
  /** Pepper id → pepper (at least 50 characters) for v2 token digests. */
  API_TOKEN_PEPPERS: Record<string, string>;
  /** Writes are refused and token usage is not recorded. */
  MAINTENANCE_MODE: boolean;
  /** Permissions every authenticated user has: `app.action_model` → constraints or null. */
  DEFAULT_PERMISSIONS: DefaultPermissions;
  /** Folder for uploaded files. */
  MEDIA_ROOT: string;
  /** Folder that local data sources read from: a source's `file://` path is resolved inside it. */
  DATA_SOURCES_ROOT: string;
  /** URL prefix the service is mounted under, e.g. `/netbox`. */
  BASE_PATH: string;
  /** Apply pending migrations when the server starts. */
  AUTO_MIGRATE: boolean;
  /** Largest accepted request body, in bytes. */
  MAX_BODY_SIZE: number;
  /** Largest accepted uploaded file (bytes); larger uploads get a 413. */
  MAX_UPLOAD_SIZE: number;
  /** Prefixes and IP addresses outside any VRF must be unique. */
  ENFORCE_GLOBAL_UNIQUE: boolean;
  /** Lists answer 400 for query parameters that are no filter of theirs (NetBox ignores them). */
  STRICT_FILTERING: boolean;
  /** How long a server remembers a verified token (0: verify on every request). */
  CACHE_SECONDS: number;
  /** Allow creating legacy v1 tokens (plaintext stored in the database; deprecated). */
  ALLOW_TOKEN_V1: boolean;
  /** Request headers (e.g. `X-Forwarded-For`) that a trusted proxy sets to the client address; empty: the socket's. */
  HTTP_CLIENT_IP_HEADERS: string[];
  /** Key that signs session cookies (at least 50 characters); empty: derived from API_TOKEN_PEPPERS. */
  SECRET_KEY: string;
  /** Lifetime of a sign-in session, in seconds. */
  SESSION_COOKIE_AGE: number;
  /** Failed sign-ins (password or token provisioning) per client address and username before 429s. */
  LOGIN_FAILURE_LIMIT: number;
  /** The window, in seconds, over which failures are counted and for which a throttled client waits. */
  LOGIN_FAILURE_WINDOW: number;
  /** Further attempts after a failed webhook delivery, with exponential backoff. */
  WEBHOOK_RETRIES: number;
  /** Seconds before the first retry; each further retry waits twice as long. */
  WEBHOOK_RETRY_DELAY: number;
  /** Seconds a webhook delivery may take (connect, send, answer). */
  WEBHOOK_TIMEOUT: number;
  /**
   * Seconds beyond WEBHOOK_TIMEOUT before an attempt whose worker died runs again (recording it, a busy
   * machine): the margin that keeps a live but slow worker from being overtaken.
   */
  WEBHOOK_EXPIRY_MARGIN: number;
  /** Follow HTTP redirects of webhook receivers (otherwise a redirect is a failure). */
  WEBHOOK_FOLLOW_REDIRECTS: boolean;
  /** Networks (CIDR) webhooks may never connect to, whatever their URL's name resolves to. */
  WEBHOOK_DENIED_NETWORKS: string[];
  /** Folders a webhook's `ca_file_path` may point into; empty: CA files are refused. */
  WEBHOOK_CA_FILE_DIRS: string[];
  /** Host names the service answers to (Django's patterns: `*`, `.example.com`, `api.example.com`). */
  ALLOWED_HOSTS: string[];
  /** `serve` also runs a worker in its own process (default: on with SQLite, off with PostgreSQL). */
  EMBEDDED_WORKER: boolean;
  /** Deliveries a worker makes at the same time. */
  WORKER_CONCURRENCY: number;
  /** Milliseconds an idle worker waits before looking for due tasks again. */
  WORKER_POLL_INTERVAL: number;
  /** Days change records are kept (`svc housekeeping` deletes older ones); 0 keeps them for ever. */
  CHANGELOG_RETENTION: number;
  /** Generated plugins (folders of `models/plugins/`) this server loads, by name. */
  PLUGINS: string[];
}

/** The embedded default: a SQLite file in `data/` of the working directory (created when missing). */
export const DEFAULT_DATABASE_URL = `sqlite:${path.join('data', 'netbox.sqlite3')}`;

type SettingKind = 'integer' | 'boolean' | 'string' | 'string-list' | 'object';

interface SettingDef {
  kind: SettingKind;
  /** Only from the environment, never from the config file. */
  envOnly?: boolean;
  default: (env: NodeJS.ProcessEnv) => unknown;
  check?: (value: never) => string | null;
}

const DEFINITIONS: Record<keyof Settings, SettingDef> = {
  PORT: {
    kind: 'integer',
    envOnly: true,
    default: () => 8000,
    check: (v: number) => (v > 0 && v < 65536 ? null : 'must be a TCP port'),
  },
  HOST: { kind: 'string', envOnly: true, default: () => '' },
  DATABASE_URL: {
    kind: 'string',
    envOnly: true,
    default: () => DEFAULT_DATABASE_URL,
    check: (v: string) =>
      /^(sqlite:|postgres(ql)?:\/\/)/.test(v) ? null : "must start with 'sqlite:' or 'postgres://'",
  },
  PAGINATE_COUNT: { kind: 'integer', default: () => 50, check: (v: number) => (v >= 1 ? null : 'must be at least 1') },
  MAX_PAGE_SIZE: { kind: 'integer', default: () => 1000, check: (v: number) => (v >= 0 ? null : 'must be 0 or more') },
  EXEMPT_VIEW_PERMISSIONS: {
    kind: 'string-list',
    default: () => [],
    check: (v: string[]) =>
      v.every((label) => label === '*' || /^[a-z_]+\.[a-z0-9]+$/.test(label))
        ? null
        : "items must be 'app.model' or '*'",
  },
  LOGIN_REQUIRED: { kind: 'boolean', default: () => false },
  API_TOKEN_PEPPERS: { kind: 'object', default: () => ({}), check: checkPeppers },
  MAINTENANCE_MODE: { kind: 'boolean', default: () => false },
  DEFAULT_PERMISSIONS: {
    kind: 'object',
    default: () => ({
      'users.view_token': { user: '$user' },
      'users.add_token': { user: '$user' },
      'users.change_token': { user: '$user' },
      'users.delete_token': { user: '$user' },
    }),
    check: (v: Record<string, unknown>) =>
      Object.keys(v).every((k) => /^[a-z_]+\.[a-z_]+_[a-z0-9]+$/.test(k)) ? null : "keys must be 'app.action_model'",
  },
  MEDIA_ROOT: { kind: 'string', default: () => 'media' },
  DATA_SOURCES_ROOT: { kind: 'string', default: () => 'data/sources' },
  BASE_PATH: {
    kind: 'string',
    default: () => '',
    check: (v: string) => (v === '' || /^\/[A-Za-z0-9/_-]*[^/]$/.test(v) ? null : "must be '' or like '/netbox'"),
  },
  AUTO_MIGRATE: { kind: 'boolean', default: () => true },
  ALLOW_TOKEN_V1: { kind: 'boolean', default: () => false },
  ENFORCE_GLOBAL_UNIQUE: { kind: 'boolean', default: () => true },
  STRICT_FILTERING: { kind: 'boolean', default: () => false },
  CACHE_SECONDS: {
    kind: 'integer',
    default: () => 2,
    check: (v: number) => (v >= 0 && v <= 300 ? null : 'must be between 0 and 300'),
  },
  MAX_UPLOAD_SIZE: {
    kind: 'integer',
    default: () => 10 * 1024 * 1024,
    check: (v: number) => (v > 0 ? null : 'must be positive'),
  },
  MAX_BODY_SIZE: {
    kind: 'integer',
    default: () => 10 * 1024 * 1024,
    check: (v: number) => (v > 0 ? null : 'must be positive'),
  },
  HTTP_CLIENT_IP_HEADERS: {
    kind: 'string-list',
    default: () => [],
    check: (v: string[]) => (v.every((h) => /^[A-Za-z0-9-]+$/.test(h)) ? null : 'items must be HTTP header names'),
  },
  SECRET_KEY: {
    kind: 'string',
    default: () => '',
    check: (v: string) => (v === '' || v.length >= 50 ? null : 'must be at least 50 characters in length'),
  },
  SESSION_COOKIE_AGE: {
    kind: 'integer',
    default: () => 14 * 24 * 3600,
    check: (v: number) => (v >= 60 ? null : 'must be at least 60'),
  },
  LOGIN_FAILURE_LIMIT: {
    kind: 'integer',
    default: () => 5,
    check: (v: number) => (v >= 1 ? null : 'must be at least 1'),
  },
  LOGIN_FAILURE_WINDOW: {
    kind: 'integer',
    default: () => 300,
    check: (v: number) => (v >= 1 ? null : 'must be at least 1'),
  },
  WEBHOOK_RETRIES: {
    kind: 'integer',
    default: () => 3,
    check: (v: number) => (v >= 0 && v <= 20 ? null : 'must be between 0 and 20'),
  },
  WEBHOOK_RETRY_DELAY: {
    kind: 'integer',
    default: () => 10,
    check: (v: number) => (v >= 0 ? null : 'must be 0 or more'),
  },
  WEBHOOK_TIMEOUT: {
    kind: 'integer',
    default: () => 10,
    check: (v: number) => (v >= 1 && v <= 600 ? null : 'must be between 1 and 600'),
  },
  WEBHOOK_EXPIRY_MARGIN: {
    kind: 'integer',
    default: () => 30,
    check: (v: number) => (v >= 1 && v <= 3600 ? null : 'must be between 1 and 3600'),
  },
  WEBHOOK_FOLLOW_REDIRECTS: { kind: 'boolean', default: () => false },
  WEBHOOK_DENIED_NETWORKS: {
    kind: 'string-list',
    // Link-local (cloud metadata services), "this network", and the IPv6 metadata addresses of EC2 and Alibaba.
    default: () => ['0.0.0.0/8', '169.254.0.0/16', '100.100.100.200/32', '::/128', 'fe80::/10', 'fd00:ec2::254/128'],
    check: (v: string[]) => (v.every(isNetwork) ? null : "items must be networks such as '169.254.0.0/16'"),
  },
  WEBHOOK_CA_FILE_DIRS: {
    kind: 'string-list',
    default: () => [],
    check: (v: string[]) => (v.every((dir) => path.isAbsolute(dir)) ? null : 'items must be absolute folder paths'),
  },
  ALLOWED_HOSTS: {
    kind: 'string-list',
    default: () => ['*'],
    check: (v: string[]) =>
      v.length > 0 && v.every((h) => h === '*' || /^\.?[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:.]+\]$/.test(h))
        ? null
        : "must list host names such as 'netbox.example.com', '.example.com' or '*'",
  },
  EMBEDDED_WORKER: {
    kind: 'boolean',
    default: (env) => !env.DATABASE_URL || env.DATABASE_URL.startsWith('sqlite:'),
  },
  WORKER_CONCURRENCY: {
    kind: 'integer',
    default: () => 32,
    check: (v: number) => (v >= 1 && v <= 256 ? null : 'must be between 1 and 256'),
  },
  WORKER_POLL_INTERVAL: {
    kind: 'integer',
    default: () => 500,
    check: (v: number) => (v >= 10 ? null : 'must be at least 10'),
  },
  CHANGELOG_RETENTION: {
    kind: 'integer',
    default: () => 90,
    check: (v: number) => (v >= 0 ? null : 'must be 0 or more'),
  },
  // Whether each name is a generated plugin is checked against the registry (runtime/plugins.ts).
  PLUGINS: { kind: 'string-list', default: () => [] },
};

function isNetwork(text: string): boolean {
  const [base = '', mask, extra] = text.split('/');
  const family = isIP(base);
  if (family === 0 || extra !== undefined) return false;
  if (mask === undefined) return true;
  return /^\d+$/.test(mask) && Number(mask) <= (family === 4 ? 32 : 128);
}

/** Every setting name with its kind and default, for documentation and `svc settings`. */
export const SETTING_NAMES = Object.keys(DEFINITIONS) as (keyof Settings)[];

/** A setting that cannot be used: start-up stops with this message. */
export class SettingsError extends Error {}

function checkPeppers(value: Record<string, unknown>): string | null {
  for (const [id, pepper] of Object.entries(value)) {
    if (!/^\d+$/.test(id)) return 'All keys must be integers';
    if (Number(id) > 32767) return 'Key values must be between 0 and 32767, inclusive';
    if (typeof pepper !== 'string') return 'Pepper value must be a string';
    if (pepper.length < 50) return 'Pepper must be at least 50 characters in length';
  }
  return null;
}

/**
 * Loads settings: environment variables win over the config file (`CONFIG_FILE`, default `config.yaml` in the
 * working directory if present, YAML or JSON), which wins over defaults. List and object settings given in the
 * environment are JSON. Throws SettingsError naming the first bad setting.
 */
export function loadSettings(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Settings> = {}): Settings {
  const file = readConfigFile(env);
  const result: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(DEFINITIONS) as [keyof Settings, SettingDef][]) {
    let value: unknown;
    if (name in overrides) value = overrides[name];
    else if (env[name] !== undefined && env[name] !== '') value = parseEnv(name, def.kind, env[name]);
    else if (!def.envOnly && file[name] !== undefined) value = file[name];
    else value = def.default(env);
    checkKind(name, def.kind, value);
    const problem = def.check?.(value as never);
    if (problem) throw new SettingsError(`Invalid setting ${name}: ${problem}`);
    result[name] = value;
  }
  for (const name of Object.keys(file)) {
    if (!(name in DEFINITIONS)) throw new SettingsError(`Unknown setting ${name} in the config file`);
    if (DEFINITIONS[name as keyof Settings].envOnly) {
      throw new SettingsError(`Setting ${name} is read from the environment only`);
    }
  }
  return Object.freeze(result) as unknown as Settings;
}

function readConfigFile(env: NodeJS.ProcessEnv): Record<string, unknown> {
  const explicit = env.CONFIG_FILE;
  const file = explicit || 'config.yaml';
  if (!fs.existsSync(file)) {
    if (explicit) throw new SettingsError(`Config file ${explicit} (CONFIG_FILE) does not exist`);
    return {};
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new SettingsError(`Config file ${file} is not valid YAML/JSON: ${(error as Error).message}`);
  }
  if (parsed === null || parsed === undefined) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed))
    throw new SettingsError(`Config file ${file} must be a mapping`);
  return parsed as Record<string, unknown>;
}

function parseEnv(name: string, kind: SettingKind, raw: string): unknown {
  switch (kind) {
    case 'integer':
      if (!/^-?\d+$/.test(raw.trim())) throw new SettingsError(`Invalid setting ${name}: must be an integer`);
      return Number(raw);
    case 'boolean': {
      const lowered = raw.trim().toLowerCase();
      if (['true', '1', 'yes', 'on'].includes(lowered)) return true;
      if (['false', '0', 'no', 'off'].includes(lowered)) return false;
      throw new SettingsError(`Invalid setting ${name}: must be true or false`);
    }
    case 'string':
      return raw;
    case 'string-list':
    case 'object':
      try {
        return JSON.parse(raw);
      } catch {
        throw new SettingsError(
          `Invalid setting ${name}: must be JSON (e.g. ${kind === 'object' ? '{"1": "…"}' : '["app.model"]'})`,
        );
      }
  }
}

function checkKind(name: string, kind: SettingKind, value: unknown): void {
  const ok =
    kind === 'integer'
      ? Number.isInteger(value)
      : kind === 'boolean'
        ? typeof value === 'boolean'
        : kind === 'string'
          ? typeof value === 'string'
          : kind === 'string-list'
            ? Array.isArray(value) && value.every((v) => typeof v === 'string')
            : typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!ok) {
    const expected = {
      integer: 'an integer',
      boolean: 'true or false',
      string: 'a string',
      'string-list': 'a list of strings',
      object: 'a mapping',
    }[kind];
    throw new SettingsError(`Invalid setting ${name}: must be ${expected}`);
  }
}
