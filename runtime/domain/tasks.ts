import type { Knex } from 'knex';
import type { Settings } from '../config.js';
import { renderTimestamp, timestampAt } from '../db/clock.js';
import { TASK_STATES } from '../events/tasks.js';
import { pythonRepr } from '../events/python-values.js';
import type { ModelInfo } from '../rest/schema.js';
import type { ComputeFunction, DeriveFunction, DomainEntry, FilterFunction } from './types.js';

/**
 * The background tasks (webhook deliveries) in the shape of NetBox's RQ jobs (core/api/serializers_/tasks.py
 * BackgroundTaskSerializer): each NetBox key is a field of the model derived from the delivery's record.
 * NetBox's webhook jobs run `extras.webhooks.send_webhook` with the event rule, object type, event type,
 * data, snapshots, timestamp, username and request as keyword arguments (extras/events.py).
 */

/** RQ's job statuses (rq.job.JobStatus). */
export const RQ_STATUSES = [
  'queued',
  'finished',
  'failed',
  'started',
  'deferred',
  'scheduled',
  'stopped',
  'canceled',
] as const;
export type RqStatus = (typeof RQ_STATUSES)[number];

/** The job function of NetBox's webhook deliveries. */
export const WEBHOOK_FUNCTION = 'extras.webhooks.send_webhook';

/** RQ truncates each argument's repr in a job's description to this many characters (Job.get_call_string). */
const DESCRIPTION_ARGUMENT_LENGTH = 75;

type Values = Record<string, unknown>;

/**
 * A task's RQ status: queued (due), scheduled (waiting for a retry: RQ's scheduled registry holds jobs whose
 * retry has an interval), started (an attempt is running), finished (delivered) or failed (given up).
 */
export function rqStatus(values: Values, at: number = Date.now()): RqStatus {
  switch (values.state) {
    case TASK_STATES.running:
      return 'started';
    case TASK_STATES.succeeded:
      return 'finished';
    case TASK_STATES.failed:
      return 'failed';
    default: {
      const next = values.next_attempt_at;
      return typeof next === 'string' && next > timestampAt(at) ? 'scheduled' : 'queued';
    }
  }
}

/** `value` with `keys` first, in that order (PostgreSQL's jsonb keeps its own order of an object's keys). */
function ordered(value: unknown, keys: readonly string[]): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const object = value as Values;
  const known = keys.filter((key) => Object.prototype.hasOwnProperty.call(object, key));
  const rest = Object.keys(object).filter((key) => !keys.includes(key));
  return Object.fromEntries([...known, ...rest].map((key) => [key, object[key]]));
}

/**
 * The keyword arguments NetBox enqueues `send_webhook` with, in its order, from the delivery's stored context
 * (`payload`) and the event rule's name; `request` only when the event came from a request.
 */
function webhookKwargs(values: Values): [string, unknown][] {
  const payload = (values.payload ?? {}) as Values;
  const kwargs: [string, unknown][] = [
    ['event_rule', values['event_rule.name'] ?? null],
    ['object_type', payload.object_type ?? null],
    ['event_type', values.event ?? null],
    ['data', payload.data ?? null],
    ['snapshots', ordered(payload.snapshots ?? null, ['prechange', 'postchange'])],
    ['timestamp', payload.timestamp ?? null],
    ['username', payload.username ?? null],
  ];
  if (payload.request !== undefined && payload.request !== null)
    kwargs.push(['request', ordered(payload.request, ['id', 'method', 'path', 'user'])]);
  return kwargs;
}

/** `kwargs`: each argument as Python's `str()` (the serializer's `str(value)`). */
function deriveKwargs(values: Values): Record<string, string> {
  return Object.fromEntries(
    webhookKwargs(values).map(([name, value]) => [name, typeof value === 'string' ? value : pythonRepr(value)]),
  );
}

/**
 * `description`: RQ's call string, `extras.webhooks.send_webhook(data={...}, event_rule=<EventRule: …>, …)`:
 * the keyword arguments sorted, each repr cut at 75 characters (followed by `...`).
 */
function deriveDescription(values: Values): string {
  const repr = (name: string, value: unknown): string => {
    if (name === 'event_rule') return value === null ? 'None' : `<EventRule: ${String(value)}>`;
    if (name === 'object_type') return value === null ? 'None' : `<ObjectType: ${String(value)}>`;
    return pythonRepr(value);
  };
  const cut = (text: string): string => {
    const chars = Array.from(text);
    return chars.length > DESCRIPTION_ARGUMENT_LENGTH
      ? `${chars.slice(0, DESCRIPTION_ARGUMENT_LENGTH).join('')}...`
      : text;
  };
  const args = webhookKwargs(values)
    .map(([name, value]) => `${name}=${cut(repr(name, value))}`)
    .sort();
  return `${WEBHOOK_FUNCTION}(${args.join(', ')})`;
}

/** `result`: what `send_webhook` returns on a 2xx; null until then and for failed deliveries (RQ keeps none). */
function deriveResult(values: Values): string | null {
  if (values.state !== TASK_STATES.succeeded) return null;
  return `Status ${String(values.response_status)} returned, webhook successfully processed.`;
}

/** `timeout`: how long an attempt may take (WEBHOOK_TIMEOUT), as RQ's job time-out. */
function deriveTimeout(_values: Values, settings: Settings): number {
  return settings.WEBHOOK_TIMEOUT;
}

/** `result_ttl`: how long a finished task is kept (CHANGELOG_RETENTION days); RQ's -1 when kept for ever. */
function deriveResultTtl(_values: Values, settings: Settings): number {
  return settings.CHANGELOG_RETENTION > 0 ? settings.CHANGELOG_RETENTION * 86_400 : -1;
}

/** `worker_name`: the worker of the last attempt; null before any. */
function deriveWorkerName(values: Values): string | null {
  return typeof values.worker === 'string' && values.worker !== '' ? values.worker : null;
}

/** `last_heartbeat`: the last time a worker reported on the task (its attempt's end, else its start). */
function deriveHeartbeat(values: Values): string | null {
  const last = values.finished_at ?? values.started_at ?? null;
  return typeof last === 'string' ? renderTimestamp(last) : null;
}

/**
 * `meta` (RQ's free-form job data): the delivery's details — the object, rule and webhook, the request, the
 * attempts so far, when the next is due, the last attempt's response status and URL, and the error log
 * (one line per failed attempt).
 */
function deriveMeta(values: Values): Values {
  const next = values.next_attempt_at;
  return {
    object_type: values.object_type ?? null,
    object_id: values.object_id ?? null,
    event_rule_id: values.event_rule ?? null,
    webhook_id: values.webhook ?? null,
    request_id: values.request_id || null,
    attempts: values.attempts ?? 0,
    next_attempt_at: typeof next === 'string' ? renderTimestamp(next) : null,
    response_status: values.response_status ?? null,
    url: values.target || null,
    error_log: values.error_log ?? '',
  };
}

/** `is_<status>`: whether the task's RQ status is that one. */
function statusIs(status: RqStatus): DeriveFunction {
  return (values) => rqStatus(values) === status;
}

/** The stored column of a field of the task model. */
function columnOf(model: ModelInfo, name: string): string {
  const column = model.fields.get(name)?.column;
  if (!column) throw new Error(`${model.label} has no stored field '${name}'`);
  return column;
}

/** Due queued tasks (on alias `alias`), at `at` (a stored timestamp). */
function due(query: Knex.QueryBuilder, model: ModelInfo, alias: string, at: string): void {
  const next = `${alias}.${columnOf(model, 'next_attempt_at')}`;
  void query
    .where(`${alias}.${columnOf(model, 'state')}`, TASK_STATES.queued)
    .where((q) => void q.whereNull(next).orWhere(next, '<=', at));
}

/**
 * `position`: a due queued task's place in its queue (0 first: the due queued tasks of the queue before it, in
 * the order workers take them); null for the others, as RQ has none outside the queue. One query per page.
 */
const computePositions: ComputeFunction = async (ctx, model, ids) => {
  const at = timestampAt(Date.now());
  const queue = columnOf(model, 'queue');
  const ahead = ctx.q({ p: model.table }).count('*').whereRaw(`p.${queue} = t.${queue}`).whereRaw('p.id < t.id');
  due(ahead, model, 'p', at);
  const query = ctx.q({ t: model.table }).select('t.id', ahead.as('position')).whereIn('t.id', ids);
  due(query, model, 't', at);
  const rows = (await query) as { id: number | string; position: number | string }[];
  const positions = new Map<number, unknown>(ids.map((id) => [id, null]));
  for (const row of rows) positions.set(Number(row.id), Number(row.position));
  return positions;
};

/** `?status=`: tasks by RQ status (those the service never has — deferred, stopped, canceled — match none). */
const filterByStatus: FilterFunction = async (_ctx, model, values) => {
  const unknown = values.find((v) => !(RQ_STATUSES as readonly string[]).includes(v));
  if (unknown !== undefined) return `Select a valid choice. ${unknown} is not one of the available choices.`;
  const at = timestampAt(Date.now());
  const state = `t0.${columnOf(model, 'state')}`;
  const next = `t0.${columnOf(model, 'next_attempt_at')}`;
  const stateOf: Partial<Record<RqStatus, string>> = {
    started: TASK_STATES.running,
    finished: TASK_STATES.succeeded,
    failed: TASK_STATES.failed,
  };
  return (query) =>
    void query.where((any) => {
      void any.whereRaw('1 = 0');
      for (const value of new Set(values)) {
        const status = value as RqStatus;
        const stored = stateOf[status];
        if (stored) void any.orWhere(state, stored);
        else if (status === 'queued')
          void any.orWhere(
            (q) =>
              void q.where(state, TASK_STATES.queued).andWhere((d) => void d.whereNull(next).orWhere(next, '<=', at)),
          );
        else if (status === 'scheduled')
          void any.orWhere((q) => void q.where(state, TASK_STATES.queued).andWhere(next, '>', at));
      }
    });
};

export const taskFunctions = {
  'core.taskDescription': { kind: 'derive', fn: deriveDescription },
  'core.taskKwargs': { kind: 'derive', fn: deriveKwargs },
  'core.taskResult': { kind: 'derive', fn: deriveResult },
  'core.taskTimeout': { kind: 'derive', fn: deriveTimeout },
  'core.taskResultTtl': { kind: 'derive', fn: deriveResultTtl },
  'core.taskWorkerName': { kind: 'derive', fn: deriveWorkerName },
  'core.taskStatus': { kind: 'derive', fn: (values: Values) => rqStatus(values) },
  'core.taskMeta': { kind: 'derive', fn: deriveMeta },
  'core.taskHeartbeat': { kind: 'derive', fn: deriveHeartbeat },
  'core.taskIsFinished': { kind: 'derive', fn: statusIs('finished') },
  'core.taskIsQueued': { kind: 'derive', fn: statusIs('queued') },
  'core.taskIsFailed': { kind: 'derive', fn: statusIs('failed') },
  'core.taskIsStarted': { kind: 'derive', fn: statusIs('started') },
  'core.taskIsDeferred': { kind: 'derive', fn: statusIs('deferred') },
  'core.taskIsCanceled': { kind: 'derive', fn: statusIs('canceled') },
  'core.taskIsScheduled': { kind: 'derive', fn: statusIs('scheduled') },
  'core.taskIsStopped': { kind: 'derive', fn: statusIs('stopped') },
  'core.taskPositions': { kind: 'compute', fn: computePositions },
  'core.taskStatusFilter': { kind: 'filter', fn: filterByStatus },
} satisfies Record<string, DomainEntry>;
