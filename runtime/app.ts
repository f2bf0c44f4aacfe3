import type { Knex } from 'knex';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { AppContext } from './http/app-context.js';
import type { Principal } from './auth/principal.js';
import { Authenticator } from './auth/authenticate.js';
import { GrantStore } from './auth/grants.js';
import { PermissionService } from './auth/permissions.js';
import { mountProvision } from './http/provision.js';
import { mountAccount } from './http/account.js';
import { checkCsrf, cookiesOf, Sessions, SESSION_COOKIE } from './auth/sessions.js';
import { mountSessionPages } from './http/pages/sign-in.js';
import { LoginThrottle } from './auth/throttle.js';
import { clientIp } from './http/client-ip.js';
import type { Settings } from './config.js';
import type { Database } from './db/connect.js';
import { createDomainFunctions, domainFunctions } from './domain/index.js';
import type { DomainEntry } from './domain/types.js';
import { errorHandler } from './http/error-handler.js';
import { NotFoundError } from './errors.js';
import { jsonBody, multipartBody, requestState, trailingSlash } from './http/middleware.js';
import { mountSwaggerUi } from './http/swagger.js';
import { mountMedia } from './http/media.js';
import { mountPages } from './http/pages/index.js';
import { mountObjectLinks } from './http/pages/object-links.js';
import { CustomFields } from './rest/custom-fields.js';
import { createModelHandlers } from './http/handlers.js';
import { mountRoots } from './http/roots.js';
import { mountLocateActions } from './http/actions.js';
import { Schema } from './rest/schema.js';
import type { Registry } from './spec.js';
import type { Change } from './rest/write-types.js';
import { changeLogger } from './rest/changelog.js';
import { Signals, type Topic } from './db/signals.js';
import { BossQueue } from './events/boss-queue.js';
import { EventQueue } from './events/enqueue.js';
import type { DeliveryQueue } from './events/queue.js';
import { TableQueue } from './events/table-queue.js';
import { TaskStore } from './events/tasks.js';
import { WorkerWatch } from './events/watch.js';
import { Worker } from './events/worker.js';
import { mountTaskActions } from './http/task-actions.js';

/** Assembles the application context from the generated registry, the settings and an open database. */
export function createContext(
  registry: Registry,
  settings: Settings,
  db: Database,
  log: (message: string) => void = console.error,
): AppContext {
  const schema = new Schema(registry);
  // The generated registry proves each plugin function a DomainEntry (`satisfies` in generated/index.ts).
  const domain = createDomainFunctions({ ...domainFunctions, ...(registry.functions as Record<string, DomainEntry>) });
  for (const model of schema.models.values()) {
    for (const name of model.spec.validators) domain.check(name, 'validator');
    for (const rule of model.spec.rules) if (rule.kind === 'validator') domain.check(rule.function, 'validator');
    if (model.spec.hooks.prepare) domain.check(model.spec.hooks.prepare, 'prepare');
    if (model.spec.hooks.present) domain.check(model.spec.hooks.present, 'present');
    if (model.spec.hooks.created) domain.check(model.spec.hooks.created, 'created');
    if (model.spec.hooks.updated) domain.check(model.spec.hooks.updated, 'updated');
    if (model.spec.hooks.written) domain.check(model.spec.hooks.written, 'written');
    if (model.spec.display.kind === 'function') domain.check(model.spec.display.function, 'display');
    for (const field of model.spec.fields) {
      if (field.kind === 'computed') domain.check(field.function, 'compute');
      if (field.kind === 'derived') domain.check(field.function, 'derive');
    }
    for (const filter of model.spec.filters) if (filter.kind === 'function') domain.check(filter.function, 'filter');
    for (const name of model.spec.searchAlso) domain.check(name, 'filter');
    for (const action of model.spec.actions)
      domain.check(action.function, action.kind === 'allocate' ? 'allocator' : action.kind);
  }
  const [major, minor] = registry.version.split('.');
  const authenticator = new Authenticator(db.knex, schema, settings);
  const grants = new GrantStore(db.knex, schema, db.dialect, settings);
  const customFields = new CustomFields(schema, db.dialect, settings.CACHE_SECONDS);
  const signals = new Signals(db.dialect === 'postgres' ? settings.DATABASE_URL : null, log);
  // Verified tokens, permissions and custom field definitions are cached: a change to them is seen at once
  // by this process, and by the others as soon as its signal arrives (before the writer answers).
  const topicModels: [Topic, Set<string | undefined>][] = [
    ['auth', new Set([schema.withRole('token')?.label, schema.withRole('user')?.label])],
    ['grants', new Set((['user', 'group', 'object_permission'] as const).map((r) => schema.withRole(r)?.label))],
    ['custom_fields', new Set([customFields.model?.label])],
    ['event_rules', new Set([schema.withRole('event_rule')?.label])],
  ];
  const caches: Record<Exclude<Topic, 'tasks'>, { invalidate: () => void }> = {
    auth: authenticator,
    grants,
    custom_fields: customFields,
    event_rules: { invalidate: () => events.invalidate() },
  };
  for (const [topic] of topicModels) signals.on(topic, () => caches[topic as keyof typeof caches].invalidate());
  const topicsOf = (changes: readonly Change[]): Topic[] =>
    topicModels.filter(([, models]) => changes.some((c) => models.has(c.model.label))).map(([topic]) => topic);
  const forgetCaches = (changes: readonly Change[]): void => {
    for (const topic of topicsOf(changes)) caches[topic as keyof typeof caches].invalidate();
  };
  const signalled = new WeakMap<readonly Change[], (string | null)[]>();
  const definitions = customFields.model?.label;
  // Stored custom field data follows its definitions within the same transaction.
  const followDefinitions = async (trx: Knex.Transaction, changes: readonly Change[]): Promise<void> => {
    for (const change of changes) {
      if (change.model.label !== definitions) continue;
      customFields.changedIn(trx);
      const after =
        change.action === 'delete'
          ? null
          : ((await trx(change.model.table).where('id', change.id).first()) as Record<string, unknown>);
      await customFields.applyDefinitionChange(trx, { action: change.action, before: change.before, after });
    }
  };
  const tasks = schema.withRole('background_task') ? new TaskStore(db.knex, schema, db.dialect) : null;
  let queue: DeliveryQueue | null = null;
  if (tasks) {
    queue =
      db.dialect === 'postgres'
        ? new BossQueue(settings.DATABASE_URL, db.knex, tasks, settings, log)
        : new TableQueue(db.knex, tasks, settings);
  }
  const events = new EventQueue({ schema, dialect: db.dialect, settings, domain, customFields, tasks, queue });
  const context: AppContext = {
    registry,
    db,
    schema,
    settings,
    domain,
    permissions: new PermissionService(settings, schema, db.dialect),
    customFields,
    writeHooks: [
      followDefinitions,
      changeLogger({
        schema,
        dialect: db.dialect,
        domain,
        appNames: new Map(registry.apps.map((a) => [a.name, a.verboseName])),
        skipEmptyChanges: true,
      }),
      events.hook,
      async (trx, changes) => {
        forgetCaches(changes);
        signalled.set(changes, await Promise.all(topicsOf(changes).map((topic) => signals.publish(trx, topic))));
      },
    ],
    commitHooks: [
      async (changes) => {
        forgetCaches(changes);
        await Promise.all((signalled.get(changes) ?? []).map((token) => signals.confirmed(token)));
      },
      // A commit that queued tasks: an embedded worker looks at once, and workers elsewhere are nudged.
      (changes) => {
        if (!events.queued(changes)) return;
        context.worker?.wake();
        signals.nudge(db.knex);
      },
    ],
    authenticator,
    grants,
    sessions: new Sessions(db.knex, schema, settings),
    loginThrottle: new LoginThrottle(
      db.knex,
      schema,
      db.dialect,
      settings.LOGIN_FAILURE_LIMIT,
      settings.LOGIN_FAILURE_WINDOW,
    ),
    events,
    tasks,
    queue,
    signals,
    worker: null,
    watch: null,
    apiVersion: `${major}.${minor}`,
    log,
  };
  signals.on('tasks', () => context.worker?.wake());
  return context;
}

/**
 * Starts what runs beside the requests: the signal connection (PostgreSQL), the delivery queue, and a
 * worker when `worker` is true (default EMBEDDED_WORKER) and the registry has background tasks; a server
 * on PostgreSQL without one watches for a worker elsewhere.
 */
export async function startBackground(app: AppContext, options: { worker?: boolean } = {}): Promise<void> {
  const runWorker = (options.worker ?? app.settings.EMBEDDED_WORKER) && app.queue !== null;
  await app.signals.start();
  await app.queue?.start();
  if (runWorker && !app.worker) {
    app.worker = new Worker({
      q: app.db.knex,
      schema: app.schema,
      dialect: app.db.dialect,
      settings: app.settings,
      queue: app.queue!,
      log: app.log,
    });
    await app.worker.start();
  } else if (!runWorker && app.queue && app.db.dialect === 'postgres' && !app.watch) {
    app.watch = new WorkerWatch(app.db.knex, app.schema, app.log);
    app.watch.start();
  }
}

/** Stops the worker, the queue and the signal connection (before the database is closed). */
export async function stopBackground(app: AppContext): Promise<void> {
  await app.worker?.stop();
  app.worker = null;
  app.watch?.stop();
  app.watch = null;
  await app.queue?.stop();
  await app.signals.stop();
}

/** The Express application: middleware, the API roots and every model's generated routes. */
export function createApp(app: AppContext): Express {
  const server = express();
  server.disable('x-powered-by');
  server.set('etag', false);
  const basePath = app.settings.BASE_PATH;

  const router = express.Router({ strict: true, caseSensitive: true });
  router.use(requestState(app.apiVersion, basePath, app.schema, app.settings.ALLOWED_HOSTS));
  router.use(trailingSlash);
  mountSessionPages(router, {
    q: app.db.knex,
    schema: app.schema,
    settings: app.settings,
    sessions: app.sessions,
    throttle: app.loginThrottle,
  });
  mountPages(router, app);
  router.use(jsonBody(app.settings.MAX_BODY_SIZE));
  router.use(multipartBody(app.settings.MAX_UPLOAD_SIZE, app.settings.MAX_BODY_SIZE));
  router.use('/api', async (req: Request, res: Response, next: NextFunction) => {
    res.locals.principal = await authenticate(app, req);
    next();
  });
  mountSwaggerUi(router, basePath);
  mountMedia(router, app);

  const api = express.Router({ strict: true, caseSensitive: true });
  // Further endpoints of a model (`aliases`) serve its routes under another path.
  const aliases = [...app.schema.endpoints()].flatMap((model) =>
    model.spec.aliases.map((alias) => ({ from: `/${alias}/`, to: model.listPath! })),
  );
  if (aliases.length > 0) {
    api.use((req, _res, next) => {
      const alias = aliases.find((a) => req.url.startsWith(a.from));
      if (alias) req.url = alias.to + req.url.slice(alias.from.length);
      next();
    });
  }
  mountProvision(api, app);
  mountAccount(api, app);
  mountTaskActions(api, app);
  const users = app.schema.withRole('user');
  const located = mountLocateActions(api, app);
  if (users?.fields.get('config'))
    located[users.spec.app] = { ...located[users.spec.app], config: `/${users.spec.app}/config/` };
  mountRoots(api, app, located);
  api.use(modelRoutes(app));
  api.use(() => {
    throw new NotFoundError();
  });
  router.use('/api', api);
  mountObjectLinks(router, app);
  router.use(() => {
    throw new NotFoundError();
  });

  server.use(basePath || '/', router);
  server.use(errorHandler(app.schema, app.registry.version, app.log));
  return server;
}

/**
 * Every model's routes, each on a router of its own, found by a table lookup of the request's path prefix
 * (`/<app>/<model path>/`, or deeper for plugins) rather than by walking every model's routes in turn.
 */
function modelRoutes(app: AppContext): express.RequestHandler {
  const routers = new Map<string, express.Router>();
  for (const model of app.schema.endpoints()) {
    const mount = app.registry.routes[model.label];
    if (!mount || !model.listPath) continue;
    const router = express.Router({ strict: true, caseSensitive: true });
    mount(router, createModelHandlers(app, model));
    routers.set(model.listPath, router);
  }
  return (req, res, next) => {
    const path = req.path;
    // `/a/b/c/`: the longest of `/a/`, `/a/b/`, `/a/b/c/` that is a model's path.
    let found: express.Router | undefined;
    for (let end = path.indexOf('/', 1); end > 0; end = path.indexOf('/', end + 1))
      found = routers.get(path.slice(0, end + 1)) ?? found;
    if (found) found(req, res, next);
    else next();
  };
}

/**
 * Who makes a request: the token of its `Authorization` header, else the session of its cookie (unsafe
 * methods then need the CSRF header), else nobody. A copy: the authenticator hands out cached results.
 */
async function authenticate(app: AppContext, req: Request): Promise<Principal> {
  const header = req.get('authorization');
  let principal: Principal = { user: null, token: null };
  if (header) {
    const address = clientIp(req, app.settings.HTTP_CLIENT_IP_HEADERS);
    principal = { ...((await app.authenticator.authenticate(header, address)) ?? principal) };
  } else {
    const session = cookiesOf(req)[SESSION_COOKIE];
    const user = session ? await app.sessions.userOf(session) : null;
    if (user) {
      checkCsrf(req);
      principal = { user, token: null };
    }
  }
  if (principal.user && !principal.user.isSuperuser) principal.grants = await app.grants.grantsFor(principal.user);
  return principal;
}
