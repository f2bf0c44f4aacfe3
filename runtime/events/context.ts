/**
 * The context a webhook's templates are rendered against, which is also its default JSON body
 * (reference §13.3). Keys appear in NetBox's order; `request`, `snapshots` and `context` only when present.
 */

/** Keys of the context in the order NetBox's default body lists them. */
export const WEBHOOK_CONTEXT_KEYS = [
  'event',
  'timestamp',
  'object_type',
  'username',
  'request_id',
  'data',
  'request',
  'snapshots',
  'context',
] as const;

export interface WebhookRequestInfo {
  id: string;
  method: string;
  path: string;
  user: string | null;
}

export interface WebhookSnapshots {
  prechange: Record<string, unknown> | null;
  postchange: Record<string, unknown> | null;
}

/** A type alias (not an interface) so that it is assignable to `Record<string, unknown>`. */
export type WebhookContext = {
  /** `created`, `updated`, `deleted`, `job_started` or `job_ended` (see webhookEventName). */
  event: string;
  /** Python's `datetime.isoformat()` of the event time, e.g. `2026-03-06T15:11:23.503000+00:00`. */
  timestamp: string;
  /** `<app_label>.<model>`. */
  object_type: string;
  /** Deprecated in NetBox (removal in 4.7), still sent. */
  username: string | null;
  /** Deprecated in NetBox, still sent: the request's id or null. */
  request_id: string | null;
  /** The object's REST representation (with the rule's action_data merged in first). */
  data: unknown;
  request?: WebhookRequestInfo;
  snapshots?: WebhookSnapshots;
  /** Extra context from callbacks, only when non-empty. */
  context?: Record<string, unknown>;
};

const EVENT_NAMES: Readonly<Record<string, string>> = {
  object_created: 'created',
  object_updated: 'updated',
  object_deleted: 'deleted',
  job_started: 'job_started',
  job_completed: 'job_ended',
  job_failed: 'job_ended',
  job_errored: 'job_ended',
};

/** The `event` value of the context for an event type (`object_created` → `created`; unknown ones unchanged). */
export function webhookEventName(eventType: string): string {
  return Object.prototype.hasOwnProperty.call(EVENT_NAMES, eventType) ? (EVENT_NAMES[eventType] as string) : eventType;
}

/** Python's `timezone.now().isoformat()`: microseconds (omitted when zero) and `+00:00`. */
export function formatEventTimestamp(date: Date): string {
  const iso = date.toISOString();
  const milliseconds = date.getUTCMilliseconds();
  return `${iso.slice(0, 19)}${milliseconds ? `.${String(milliseconds).padStart(3, '0')}000` : ''}+00:00`;
}

export interface WebhookContextInput {
  eventType: string;
  time: Date;
  objectType: string;
  username: string | null;
  data: unknown;
  request?: WebhookRequestInfo | null;
  snapshots?: WebhookSnapshots | null;
  context?: Record<string, unknown> | null;
}

/** Builds the context from an event, in NetBox's key order. */
export function createWebhookContext(input: WebhookContextInput): WebhookContext {
  const context: WebhookContext = {
    event: webhookEventName(input.eventType),
    timestamp: formatEventTimestamp(input.time),
    object_type: input.objectType,
    username: input.username,
    request_id: input.request?.id ?? null,
    data: input.data,
  };
  if (input.request) context.request = input.request;
  if (input.snapshots) context.snapshots = input.snapshots;
  if (input.context && Object.keys(input.context).length > 0) context.context = input.context;
  return context;
}

/** A copy of the context with NetBox's keys first, in order, then any others in their own order. */
export function orderWebhookContext(context: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const known = new Set<string>(WEBHOOK_CONTEXT_KEYS);
  const entries = [
    ...WEBHOOK_CONTEXT_KEYS.filter((key) => Object.prototype.hasOwnProperty.call(context, key)).map(
      (key) => [key, context[key]] as const,
    ),
    ...Object.entries(context).filter(([key]) => !known.has(key)),
  ];
  return Object.fromEntries(entries);
}
