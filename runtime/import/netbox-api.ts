/**
 * A running NetBox's REST API (or this service's: it is API-compatible) read as an import source. Its "tables"
 * are the list endpoints it serves (found from `/api/` and each app's root), and its rows are the objects of a
 * list, read page by page in id order (`id__gt` and `ordering=id`, so that no endpoint is held in memory) and
 * turned into API input by the field kinds of the model that serves the same path here: a related object
 * becomes its id, a choice its value, tags their ids, custom field objects their ids, an image its path below the
 * media folder (its file is downloaded from the URL the API gave, with the token: `download`).
 *
 * The token goes in the `Authorization` header as NetBox reads it (netbox/netbox/api/authentication.py): the
 * keyword is `Token` or `Bearer` either way, and the token's version comes from its value: a v2 token starts
 * with `nbt_` (NetBox; `svc_` here) and is `<prefix><key>.<secret>`, anything else is a v1 token. So a v2 token
 * is sent as `Bearer <token>` and a v1 token as `Token <token>`, as NetBox's documentation writes them.
 */
import type { ModelInfo, Schema } from '../rest/schema.js';
import type { FieldSpec } from '../spec.js';
import { ImportError } from './import-error.js';
import { isKnownRelease, NEWEST_RELEASE, OLDEST_RELEASE } from './netbox-versions.js';
import type { NetboxSource } from './netbox-database.js';

type Row = Record<string, unknown>;

/** Errors of a connection closed by the other side, for which a read is tried again. */
const RESET = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/** Ids per request when rows are read by id (a tree's levels): the URL stays short. */
const IDS_PER_REQUEST = 100;

/** A NetBox REST API source: a NetboxSource whose tables are list paths and whose rows are API input. */
export interface NetboxApiSource extends NetboxSource {
  readonly shape: 'api';
  /** The model served at each list path that both sides serve. */
  readonly modelAt: ReadonlyMap<string, ModelInfo>;
  /** Every id of a list (tokens to issue again). */
  ids(listPath: string): Promise<number[]>;
  /** The content of an image file whose path a row read gave (null when the source does not serve it). */
  download(file: string): Promise<Buffer | null>;
}

/** The `Authorization` header for a token, v1 (`Token …`) or v2 (`Bearer nbt_…`); a full header is kept. */
export function authorizationHeader(token: string): string {
  const value = token.trim();
  if (/^(token|bearer)\s+\S+$/i.test(value)) return value;
  return /^(nbt|svc)_[^.]+\..+$/.test(value) ? `Bearer ${value}` : `Token ${value}`;
}

/** Opens a NetBox API by its base URL (`https://netbox.example.com`, with or without `/api`). */
export async function openNetboxApi(url: string, token: string, schema: Schema): Promise<NetboxApiSource> {
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    throw new ImportError(`${url} is not a URL.`);
  }
  const root = `${base.origin}${base.pathname.replace(/\/+$/, '').replace(/\/api$/, '')}/api`;
  const client = new ApiReader(root, authorizationHeader(token), base.origin);
  const status = await client.getJson('/status/', 'status');
  const full = status && typeof status === 'object' ? (status as Row)['netbox-version'] : undefined;
  if (typeof full !== 'string') {
    throw new ImportError(`${client.shown} is not a NetBox API (its /api/status/ shows no netbox-version).`);
  }
  const match = /^(\d+)\.(\d+)/.exec(full);
  const version = match ? `${Number(match[1])}.${Number(match[2])}` : '';
  if (!isKnownRelease(version)) {
    throw new ImportError(
      `${client.shown} runs NetBox ${full}: this importer reads NetBox ${OLDEST_RELEASE} to ${NEWEST_RELEASE}.`,
    );
  }
  // The list endpoints the source serves: every app's root lists them.
  const tables = new Map<string, Set<string>>();
  const apps = await client.getJson('/', 'root');
  for (const appUrl of Object.values((apps ?? {}) as Row)) {
    if (typeof appUrl !== 'string') continue;
    const appPath = client.pathOf(appUrl);
    if (!appPath || appPath === '/status/') continue;
    const endpoints = await client.getJson(appPath, 'root').catch(() => null);
    if (!endpoints || typeof endpoints !== 'object' || Array.isArray(endpoints)) continue;
    for (const endpoint of Object.values(endpoints as Row)) {
      const path = typeof endpoint === 'string' ? client.pathOf(endpoint) : null;
      if (path) tables.set(path, new Set());
    }
  }
  const modelAt = new Map<string, ModelInfo>();
  for (const model of schema.models.values()) {
    if (model.listPath && tables.has(model.listPath)) modelAt.set(model.listPath, model);
  }
  return new ApiSource(client, version, tables, modelAt);
}

/** Requests to the API: JSON, with the token; what goes wrong is an ImportError of one line. */
class ApiReader {
  /** The base URL as messages show it. */
  readonly shown: string;

  constructor(
    private readonly root: string,
    private readonly authorization: string,
    private readonly origin: string,
  ) {
    this.shown = root.replace(/\/api$/, '');
  }

  /** The path below `/api` of a URL the API gave (its host may differ behind a proxy), or null. */
  pathOf(url: string): string | null {
    try {
      const path = new URL(url, this.origin).pathname;
      const at = path.indexOf('/api/');
      return at >= 0 ? path.slice(at + 4) : null;
    } catch {
      return null;
    }
  }

  /**
   * A file the API linked to, by the path of its URL, from the API's own origin: the token never goes to another
   * host than the one it was given for. Null when the source does not serve it (a file missing from its media).
   */
  async getFile(urlPath: string): Promise<Buffer | null> {
    const response = await this.get(new URL(urlPath, this.origin).href, '*/*');
    if (!response.ok) {
      await response.body?.cancel();
      return null;
    }
    return Buffer.from(await response.arrayBuffer());
  }

  async getJson(path: string, what: 'status' | 'root' | 'list'): Promise<unknown> {
    const response = await this.get(`${this.root}${path}`, 'application/json');
    if (response.status === 401 || response.status === 403) {
      const detail = await response
        .json()
        .then((body) => (body as Row | null)?.detail)
        .catch(() => undefined);
      throw new ImportError(
        `The NetBox API ${this.shown} refused the token (${response.status}${typeof detail === 'string' ? `: ${detail}` : ''}): give a valid API token with --token.`,
      );
    }
    if (what === 'status' && response.status === 404) {
      throw new ImportError(`${this.shown} is not a NetBox API (it serves no /api/status/).`);
    }
    if (!response.ok) {
      throw new ImportError(`The NetBox API ${this.shown} answered ${response.status} for ${path}.`);
    }
    try {
      return await response.json();
    } catch {
      throw new ImportError(
        what === 'status'
          ? `${this.shown} is not a NetBox API (its /api/status/ is not JSON).`
          : `The NetBox API ${this.shown} answered ${path} with something other than JSON.`,
      );
    }
  }

  /**
   * A GET with the token. A connection the other side closed while it was being reused (a keep-alive socket that
   * timed out, a proxy that dropped it) is tried again, up to three times: every request here only reads.
   */
  private async get(url: string, accept: string, attempt = 1): Promise<Response> {
    try {
      return await fetch(url, {
        headers: { Authorization: this.authorization, Accept: accept },
        redirect: 'follow',
        signal: AbortSignal.timeout(60_000),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      if (attempt < 3 && cause?.code !== undefined && RESET.has(cause.code)) return this.get(url, accept, attempt + 1);
      throw new ImportError(
        `Cannot reach the NetBox API ${this.shown}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
      );
    }
  }
}

class ApiSource implements NetboxApiSource {
  readonly shape = 'api';
  readonly contentTypes = new Map<number, string>();
  /** Image files of the rows read: path below the media folder → the path of the URL that serves it. */
  private readonly files = new Map<string, string>();

  constructor(
    private readonly client: ApiReader,
    readonly version: string,
    readonly tables: ReadonlyMap<string, ReadonlySet<string>>,
    readonly modelAt: ReadonlyMap<string, ModelInfo>,
  ) {}

  async count(listPath: string): Promise<number> {
    const body = (await this.client.getJson(`${listPath}?limit=1&brief=1`, 'list').catch(() => null)) as Row | null;
    return body && typeof body.count === 'number' ? body.count : 0;
  }

  async page(listPath: string, after: number, limit: number, ids?: readonly number[]): Promise<Row[]> {
    if (ids) {
      const rows: Row[] = [];
      for (let start = 0; start < ids.length; start += IDS_PER_REQUEST) {
        const chunk = ids.slice(start, start + IDS_PER_REQUEST);
        const query = chunk.map((id) => `id=${id}`).join('&');
        rows.push(...(await this.list(listPath, `${query}&ordering=id&limit=${chunk.length}`)));
      }
      return rows.filter((r) => Number(r.id) > after);
    }
    const rows = await this.list(listPath, `id__gt=${after}&ordering=id&limit=${limit}`);
    if (rows.some((r) => Number(r.id) <= after)) {
      throw new ImportError(`The NetBox API ${this.client.shown} does not filter ${listPath} by id__gt.`);
    }
    return rows;
  }

  rowsWhere(): Promise<Row[]> {
    return Promise.resolve([]);
  }

  async pairs(listPath: string, a: string, b: string): Promise<[number, number | null][]> {
    const pairs: [number, number | null][] = [];
    for (let after = 0; ;) {
      const rows = await this.page(listPath, after, 1000);
      if (rows.length === 0) return pairs;
      for (const row of rows)
        pairs.push([Number(row[a]), row[b] === null || row[b] === undefined ? null : Number(row[b])]);
      after = Number(rows.at(-1)!.id);
    }
  }

  async ids(listPath: string): Promise<number[]> {
    const ids: number[] = [];
    for (let after = 0; ;) {
      const body = (await this.client.getJson(
        `${listPath}?id__gt=${after}&ordering=id&limit=1000&brief=1`,
        'list',
      )) as Row;
      const results = Array.isArray(body?.results) ? (body.results as Row[]) : [];
      if (results.length === 0) return ids;
      ids.push(...results.map((r) => Number(r.id)));
      after = ids.at(-1)!;
    }
  }

  async download(file: string): Promise<Buffer | null> {
    const url = this.files.get(file);
    if (url === undefined) return null;
    this.files.delete(file);
    const path = new URL(url, 'http://source').pathname;
    return this.client.getFile(path);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private async list(listPath: string, query: string): Promise<Row[]> {
    const body = (await this.client.getJson(`${listPath}?${query}`, 'list')) as Row | null;
    const results = body && Array.isArray(body.results) ? (body.results as Row[]) : [];
    const model = this.modelAt.get(listPath);
    const onFile = (file: string, url: string): void => void this.files.set(file, url);
    return model ? results.map((object) => inputOf(model, object, onFile)) : results;
  }
}

/**
 * An object as the API shows it → the API input that writes it again (keys the model does not have dropped);
 * `onFile` learns each image's path below the media folder and the URL it came as.
 */
export function inputOf(model: ModelInfo, object: Row, onFile?: (file: string, url: string) => void): Row {
  const row: Row = { id: object.id };
  for (const key of ['created', 'last_updated'] as const) if (key in object) row[key] = object[key];
  for (const field of model.spec.fields) {
    if (!(field.name in object)) continue;
    const value = valueOf(field, object[field.name]);
    row[field.name] = value;
    const url = object[field.name];
    if (field.kind === 'image' && typeof value === 'string' && value !== '' && typeof url === 'string')
      onFile?.(value, url);
  }
  if (Array.isArray(object.tags)) row.tags = object.tags.map(idOf);
  if (object.custom_fields && typeof object.custom_fields === 'object') {
    row.custom_fields = Object.fromEntries(
      Object.entries(object.custom_fields as Row).map(([name, value]) => [name, customValue(value)]),
    );
  }
  return row;
}

function valueOf(field: FieldSpec, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  switch (field.kind) {
    case 'fk':
      return idOf(value);
    case 'm2m':
      return Array.isArray(value) ? value.map(idOf) : value;
    case 'children':
      // Each item's keys as written (a termination's nested `object` left out), a nested object as its id.
      return Array.isArray(value)
        ? value.map((item: Row) => Object.fromEntries(field.keys.map(({ key }) => [key, idOf(item[key])])))
        : value;
    case 'choice':
      return typeof value === 'object' && !Array.isArray(value) && 'value' in value ? (value as Row).value : value;
    case 'image':
      // A URL below the source's media folder: the file's path there.
      return typeof value === 'string' ? decodeURIComponent(value.replace(/^.*?\/media\//, '')) : value;
    default:
      return value;
  }
}

function idOf(value: unknown): unknown {
  return value && typeof value === 'object' && 'id' in value ? (value as Row).id : value;
}

/** A custom field's value: an object (or a list of them) as its id (ids). */
function customValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(idOf);
  return value && typeof value === 'object' && 'id' in value ? (value as Row).id : value;
}
