import os from 'node:os';
import { createRequire } from 'node:module';
import type { Request, Response, Router } from 'express';
import { stringify as toYaml } from 'yaml';
import type { AppContext } from './app-context.js';
import { principalOf } from './app-context.js';
import { timestampAt } from '../db/clock.js';
import { stateOf } from './request-state.js';
import { sendDocument, sendJson, staticDocument } from './respond.js';
import { AuthenticationError, MethodNotAllowedError, PermissionDeniedError, ValidationError } from '../errors.js';
import { invalidChoice } from '../rest/filter-values.js';
import { convertToOpenApi30 } from './openapi-30.js';

const require = createRequire(import.meta.url);

/** Versions of the packages the service runs on, for `/api/status/`. */
function installedApps(): Record<string, string> {
  const names = ['better-sqlite3', 'express', 'handlebars', 'knex', 'pg', 'pg-boss', 'yaml'];
  const versions: Record<string, string> = {};
  for (const name of names) {
    try {
      versions[name] = (require(`${name}/package.json`) as { version: string }).version;
    } catch {
      // not installed
    }
  }
  return versions;
}

/**
 * `/api/` (app roots), `/api/<app>/` (endpoints), `/api/status/`, `/api/plugins/` and the OpenAPI document.
 * Other apps' extra roots (e.g. `/api/users/config/`) are mounted by their own modules.
 */
export function mountRoots(
  router: Router,
  app: AppContext,
  extraEndpoints: Record<string, Record<string, string>> = {},
): void {
  const apps = new Map<string, Record<string, string>>();
  for (const model of app.schema.endpoints()) {
    // A plugin's endpoints have their root at /plugins/<base_url>/.
    const root = model.listPath!.slice(1, -(model.spec.path!.length + 2));
    const endpoints = apps.get(root) ?? {};
    endpoints[model.spec.path!] = model.listPath!;
    apps.set(root, endpoints);
    for (const alias of model.spec.aliases) {
      const [appName, path] = alias.split('/') as [string, string];
      apps.set(appName, { ...(apps.get(appName) ?? {}), [path]: `/${alias}/` });
    }
  }
  for (const [appName, endpoints] of Object.entries(extraEndpoints)) {
    apps.set(appName, { ...(apps.get(appName) ?? {}), ...endpoints });
  }
  const plugins = app.registry.plugins.filter((p) => p.enabled);
  const readOnly = (handler: (req: Request, res: Response) => void | Promise<void>) => ({
    get: handler,
    other: (req: Request) => {
      throw new MethodNotAllowedError(req.method);
    },
  });
  const route = (path: string, handler: (req: Request, res: Response) => void | Promise<void>): void => {
    const h = readOnly(handler);
    router.route(path).get(h.get).all(h.other);
  };

  route('/', (_req, res) => {
    app.permissions.requireLogin(principalOf(res));
    const { apiRoot } = stateOf(res);
    const names = [...new Set([...apps.keys(), 'plugins', 'status'])].filter((n) => !n.includes('/')).sort();
    res.setHeader('Allow', 'GET, HEAD, OPTIONS');
    sendJson(res, 200, Object.fromEntries(names.map((name) => [name, `${apiRoot}/${name}/`])));
  });
  route('/status/', async (_req, res) => {
    app.permissions.requireLogin(principalOf(res));
    const apps = installedApps();
    const background = await backgroundStatus(app);
    sendJson(res, 200, {
      'django-version': null,
      hostname: os.hostname(),
      installed_apps: apps,
      'netbox-version': app.registry.version,
      'netbox-full-version': app.registry.version,
      'node-version': process.versions.node,
      plugins: Object.fromEntries(plugins.map((p) => [p.name, p.version])),
      'python-version': null,
      'rq-workers-running': background.workers.length,
      database: app.db.dialect,
      workers: background.workers,
      'background-queues': background.queues,
      warnings: app.watch?.warning ? [app.watch.warning] : [],
    });
  });
  route('/plugins/', (_req, res) => {
    app.permissions.requireLogin(principalOf(res));
    const { apiRoot } = stateOf(res);
    res.setHeader('Allow', 'GET, HEAD, OPTIONS');
    sendJson(res, 200, {
      'installed-plugins': `${apiRoot}/plugins/installed-plugins/`,
      ...Object.fromEntries(
        plugins
          .filter((p) => apps.has(`plugins/${p.baseUrl}`))
          .map((p) => [p.baseUrl, `${apiRoot}/plugins/${p.baseUrl}/`]),
      ),
    });
  });
  route('/plugins/installed-plugins/', (_req, res) => {
    const { user } = principalOf(res);
    if (!user) throw new AuthenticationError();
    if (!user.isSuperuser) throw new PermissionDeniedError();
    sendJson(
      res,
      200,
      plugins.map((p) => ({
        name: p.verboseName,
        package: p.name,
        author: p.author ?? null,
        author_email: null,
        description: p.description,
        version: p.version,
        release_track: '',
      })),
    );
  });
  for (const [name, endpoints] of apps) {
    route(`/${name}/`, (_req, res) => {
      app.permissions.requireLogin(principalOf(res));
      const { apiRoot } = stateOf(res);
      const sorted = Object.keys(endpoints).sort();
      res.setHeader('Allow', 'GET, HEAD, OPTIONS');
      sendJson(res, 200, Object.fromEntries(sorted.map((key) => [key, `${apiRoot}${endpoints[key]}`])));
    });
  }

  // Each rendering of the document (2.7 MB of JSON) is converted, encoded and compressed once, on first use, and
  // revalidated by its ETag. `oas=3.0` asks for OpenAPI 3.0.3 (what NetBox serves, and what Swagger UI reads).
  const renderings = {
    '3.1': documentRendering(() => app.registry.openapi),
    '3.0': documentRendering(() => convertToOpenApi30(app.registry.openapi)),
  };
  route('/schema/', (req, res) => {
    const state = stateOf(res);
    const oas = state.params.get('oas') || null; // empty is absent, as for every query parameter
    if (oas !== null && oas !== '3.0') throw new ValidationError({ oas: [invalidChoice(oas)] });
    const rendering = renderings[oas ?? '3.1'];
    const format = state.params.get('format');
    const wantsJson = format === 'json' || (format === null && (req.get('accept') ?? '').includes('application/json'));
    if (!wantsJson) return sendDocument(req, res, rendering.yaml());
    if (state.browsable || state.indent !== undefined) return sendJson(res, 200, rendering.document());
    sendDocument(req, res, rendering.json());
  });
}

/** A rendering of the OpenAPI document and its JSON and YAML encodings, each made on first use. */
function documentRendering(render: () => Record<string, unknown>) {
  const once = <T>(make: () => T): (() => T) => {
    let value: T | undefined;
    return () => (value ??= make());
  };
  const document = once(render);
  return {
    document,
    json: once(() => staticDocument('application/json', JSON.stringify(document()))),
    yaml: once(() =>
      staticDocument(
        'application/vnd.oai.openapi; charset=utf-8',
        toYaml(document(), { aliasDuplicateObjects: false }),
      ),
    ),
  };
}

/** Workers seen in the last 30 seconds and the number of tasks per queue and state. */
async function backgroundStatus(
  app: AppContext,
): Promise<{ workers: Record<string, unknown>[]; queues: Record<string, Record<string, number>> }> {
  const workers = app.schema.withRole('worker');
  const tasks = app.tasks;
  const column = (name: string): string => workers!.fields.get(name)!.column!;
  const since = timestampAt(Date.now() - 30_000);
  const rows = workers
    ? ((await app.db
        .knex(workers.table)
        .where(column('last_heartbeat'), '>=', since)
        .orderBy(column('name'))
        .select({
          name: column('name'),
          pid: column('pid'),
          host: column('host'),
          started: column('started'),
        })) as Record<string, unknown>[])
    : [];
  return {
    workers: rows.map((r) => ({ name: r.name, pid: Number(r.pid), host: r.host, started: String(r.started) })),
    queues: tasks ? await tasks.depths() : {},
  };
}
