import type { Knex } from 'knex';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import type { AppContext } from './app-context.js';
import type { Principal } from './auth/permissions.js';
import { Authenticator } from './auth/authenticate.js';
import { GrantStore } from './auth/grants.js';
import { PermissionService } from './auth/permissions.js';
import { mountProvision } from './auth/provision.js';
import { mountAccount } from './auth/account.js';
import { checkCsrf, cookiesOf, mountSessionPages, Sessions, SESSION_COOKIE } from './auth/sessions.js';
import { LoginThrottle } from './auth/throttle.js';
import { clientIp } from './http/client-ip.js';
import type { Settings } from './config.js';
import type { Database } from './db/connect.js';
import { createDomainFunctions } from './domain/index.js';
import { errorHandler } from './http/error-handler.js';
import { NotFoundError } from './http/errors.js';
import { jsonBody, multipartBody, requestState, trailingSlash } from './http/middleware.js';
import { mountSwaggerUi } from './http/swagger.js';
import { mountMedia } from './http/media.js';
import { mountPages } from './http/pages/index.js';
import { CustomFields } from './rest/custom-fields.js';
import { createModelHandlers } from './rest/handlers.js';
import { mountRoots } from './rest/roots.js';
import { Schema } from './rest/schema.js';
import type { Registry } from './spec.js';
import type { Change } from './rest/write.js';
import { changeLogger } from './rest/changelog.js';
import { Boss } from './events/boss.js';
import { EventQueue } from './events/enqueue.js';
import { Worker } from './events/worker.js';
import { mountTaskActions } from './events/api.js';

/** Assembles the application context from the generated registry, the settings and an open database. */
export function createContext(
  registry: Registry,
  settings: Settings,
  db: Database,
  log: (message: string) => void = console.error,
): AppContext {
  const schema = new Schema(registry);
  const domain = createDomainFunctions();
  for (const model of schema.models.values()) {
    for (const name of model.spec.validators) domain.check(name, 'validator');
    if (model.spec.hooks.prepare) domain.check(model.spec.hooks.prepare, 'prepare');
    if (model.spec.hooks.present) domain.check(model.spec.hooks.present, 'present');
    if (model.spec.display.kind === 'function') domain.check(model.spec.display.function, 'display');
    for (const field of model.spec.fields) if (field.kind === 'computed') domain.check(field.function, 'compute');
    for (const filter of model.spec.filters) if (filter.kind === 'function') domain.check(filter.function, 'filter');
    for (const name of model.spec.searchAlso) domain.check(name, 'filter');
  }
  const [major, minor] = registry.version.split('.');
  const authenticator = new Authenticator(db.knex, schema, settings);
  const grants = new GrantStore(db.knex, schema, db.dialect, settings);
  // Verified tokens and permissions are cached: a change to a token, user, group or permission is seen at once.
  const authModels = new Set([schema.withRole('token')?.label, schema.withRole('user')?.label]);
  const grantModels = new Set(
    (['user', 'group', 'object_permission'] as const).map((role) => schema.withRole(role)?.label),
  );
  const customFields = new CustomFields(schema, db.dialect, settings.CACHE_SECONDS);
  const definitions = customFields.model?.label;
  const forgetCaches = (changes: readonly Change[]): void => {
    if (changes.some((c) => authModels.has(c.model.label))) authenticator.invalidate();
    if (changes.some((c) => grantModels.has(c.model.label))) grants.invalidate();
    if (changes.some((c) => c.model.label === definitions)) customFields.invalidate();
  };
  // Stored custom field data follows its definitions within the same transaction.
  const followDefinitions = async (trx: Knex.Transaction, changes: readonly Change[]): Promise<void> => {
    for (const change of changes) {
      if (change.model.label !== definitions) continue;
      const after =
        change.action === 'delete'
          ? null
          : ((await trx(change.model.table).where('id', change.id).first()) as Record<string, unknown>);
      await customFields.applyDefinitionChange(trx, { action: change.action, before: change.before, after });
    }
  };
  const boss = db.dialect === 'postgres' ? new Boss(settings.DATABASE_URL, log) : null;
  const events = new EventQueue({ schema, dialect: db.dialect, settings, domain, customFields, boss });
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
      async (_trx, changes) => forgetCaches(changes),
    ],
    // A commit may have queued tasks: an embedded worker looks at once.
    commitHooks: [forgetCaches, () => context.worker?.wake()],
    authenticator,
    grants,
    sessions: new Sessions(db.knex, schema, settings),
    loginThrottle: new LoginThrottle(settings.LOGIN_FAILURE_LIMIT, settings.LOGIN_FAILURE_WINDOW),
    events,
    boss,
    worker: null,
    apiVersion: `${major}.${minor}`,
    log,
  };
  return context;
}

/** Starts the embedded worker when EMBEDDED_WORKER is on and the registry has background tasks. */
export async function startBackground(app: AppContext): Promise<void> {
  if (!app.settings.EMBEDDED_WORKER || !app.schema.withRole('background_task') || app.worker) return;
  app.worker = new Worker({
    q: app.db.knex,
    schema: app.schema,
    dialect: app.db.dialect,
    settings: app.settings,
    boss: app.boss,
    log: app.log,
  });
  await app.worker.start();
}

/** Stops the embedded worker and pg-boss (before the database is closed). */
export async function stopBackground(app: AppContext): Promise<void> {
  await app.worker?.stop();
  app.worker = null;
  await app.boss?.stop();
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
  mountRoots(
    api,
    app,
    users?.fields.get('config') ? { [users.spec.app]: { config: `/${users.spec.app}/config/` } } : {},
  );
  for (const model of app.schema.endpoints()) {
    const mount = app.registry.routes[model.label];
    if (mount) mount(api, createModelHandlers(app, model));
  }
  api.use(() => {
    throw new NotFoundError();
  });
  router.use('/api', api);
  router.use(() => {
    throw new NotFoundError();
  });

  server.use(basePath || '/', router);
  server.use(errorHandler(app.schema, app.registry.version, app.log));
  return server;
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
