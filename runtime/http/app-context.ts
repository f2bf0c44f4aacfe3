import type { Response } from 'express';
import type { Settings } from '../config.js';
import type { Database } from '../db/connect.js';
import type { DomainFunctions } from '../domain/types.js';
import type { PermissionService } from '../auth/permissions.js';
import type { Principal } from '../auth/principal.js';
import type { Authenticator } from '../auth/authenticate.js';
import type { GrantStore } from '../auth/grants.js';
import type { Sessions } from '../auth/sessions.js';
import type { LoginThrottle } from '../auth/throttle.js';
import type { Signals } from '../db/signals.js';
import type { EventQueue } from '../events/enqueue.js';
import type { DeliveryQueue } from '../events/queue.js';
import type { TaskStore } from '../events/tasks.js';
import type { WorkerWatch } from '../events/watch.js';
import type { Worker } from '../events/worker.js';
import type { CustomFields } from '../rest/custom-fields.js';
import type { ReadContext } from '../rest/fetch.js';
import type { Schema } from '../rest/schema.js';
import type { Change, WriteHook } from '../rest/write-types.js';
import type { RequestState } from './request-state.js';
import type { Registry } from '../spec.js';

/** Everything the HTTP layer needs, assembled once at start-up by the composition root. */
export interface AppContext {
  registry: Registry;
  db: Database;
  schema: Schema;
  settings: Settings;
  domain: DomainFunctions;
  permissions: PermissionService;
  customFields: CustomFields;
  writeHooks: WriteHook[];
  /** Runs after a write's transaction committed (before the response). */
  commitHooks: ((changes: readonly Change[]) => void | Promise<void>)[];
  authenticator: Authenticator;
  /** Object permissions of users, cached. */
  grants: GrantStore;
  /** Signed cookie sessions of people signed in with a browser. */
  sessions: Sessions;
  /** Slows down repeated failed sign-ins and token provisioning. */
  loginThrottle: LoginThrottle;
  /** Event rules: matched and queued inside each write's transaction. */
  events: EventQueue;
  /** The background-task table (null when the registry has none). */
  tasks: TaskStore | null;
  /** Where deliveries wait: pg-boss jobs on PostgreSQL, the task table on SQLite (null without tasks). */
  queue: DeliveryQueue | null;
  /** Signals between the processes of one PostgreSQL database (new tasks, caches to drop). */
  signals: Signals;
  /** A worker running in this process (EMBEDDED_WORKER), started by `startBackground`. */
  worker: Worker | null;
  /** A server without a worker watches for one elsewhere (PostgreSQL), for /api/status/. */
  watch: WorkerWatch | null;
  /** `major.minor` of the package version. */
  apiVersion: string;
  log: (message: string) => void;
}

/** The authenticated principal attached by the authentication middleware. */
export function principalOf(res: Response): Principal {
  return (res.locals.principal as Principal | undefined) ?? { user: null, token: null };
}

/** How a request renders objects: the app's models and settings, with the request's absolute URL roots. */
export function readContextFor(app: AppContext, res: Response): ReadContext {
  const state = res.locals.state as RequestState;
  const principal = principalOf(res);
  return {
    schema: app.schema,
    dialect: app.db.dialect,
    settings: app.settings,
    customFields: app.customFields,
    render: { apiRoot: state.apiRoot, siteRoot: state.siteRoot, domain: app.domain, settings: app.settings },
    viewable: (model) => {
      if (!app.permissions.allows(principal, model, 'view')) return (query) => void query.whereRaw('1 = 0');
      const restriction = app.permissions.require(principal, model, 'view');
      return restriction.all ? null : (query) => app.permissions.apply(query, model, restriction, principal);
    },
  };
}
