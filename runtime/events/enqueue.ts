import type { Knex } from 'knex';
import type { Settings } from '../config.js';
import type { Dialect } from '../db/connect.js';
import { now } from '../db/clock.js';
import type { DomainFunctions } from '../domain/types.js';
import type { CustomFields } from '../rest/custom-fields.js';
import { loadObjectsByIds, type ReadContext } from '../rest/fetch.js';
import { mergeChanges, recordedSnapshot, snapshotsOf } from '../rest/changelog.js';
import type { Change, Snapshot, WriteHook, WriteRequest } from '../rest/write-types.js';
import { selectKeys } from '../rest/params.js';
import type { ModelInfo, Schema } from '../rest/schema.js';
import { decodeRow } from '../rest/values.js';
import { withSiteRoot } from '../rest/marked-roots.js';
import { evaluateConditions } from './conditions.js';
import { createWebhookContext } from './context.js';
import type { DeliveryQueue } from './queue.js';
import type { QueuedTask, TaskStore } from './tasks.js';
import { chunks, rowsPerInsert, sqlBoolean } from '../db/sql.js';

type Row = Record<string, unknown>;

const EVENT_OF: Record<Change['action'], string> = {
  create: 'object_created',
  update: 'object_updated',
  delete: 'object_deleted',
};

interface Rule {
  id: number;
  objectTypes: string[];
  eventTypes: string[];
  conditions: unknown;
  webhook: number | null;
  actionData: Record<string, unknown> | null;
}

export interface EventsOptions {
  schema: Schema;
  dialect: Dialect;
  settings: Settings;
  domain: DomainFunctions;
  customFields: CustomFields;
  /** The task table (null when the registry has no background-task model: then nothing is queued). */
  tasks: TaskStore | null;
  /** Schedules the tasks (pg-boss jobs on PostgreSQL); null with the task table. */
  queue: DeliveryQueue | null;
}

/**
 * Event rules at write time: inside the write's transaction, each changed object of a model with the
 * `events` feature is matched against the enabled rules (object type, event type, conditions evaluated on
 * its REST representation), and every match becomes a queued background task holding the webhook context,
 * scheduled on the delivery queue (a pg-boss job on PostgreSQL) with the same transaction. A rolled-back
 * write leaves nothing; the request never waits for a delivery.
 */
export class EventQueue {
  /** Enabled webhook rules, kept until a rule changes here or a signal says one changed elsewhere. */
  private cache: { at: number; rules: Promise<Rule[]> } | null = null;
  /** Bumped by every invalidation: a load that began before one is not kept. */
  private generation = 0;
  private readonly rulesByTransaction = new WeakMap<Knex.Transaction, Promise<Rule[]>>();
  private readonly queuedIn = new WeakSet<readonly Change[]>();
  /** Representations rendered by a write after its changes, by its change list: `<label>:<id>` → object. */
  private readonly rendered = new WeakMap<readonly Change[], Map<string, Row>>();

  constructor(private readonly options: EventsOptions) {}

  invalidate(): void {
    this.cache = null;
    this.generation += 1;
  }

  /**
   * Enabled webhook rules: from the cache (CACHE_SECONDS, emptied by signals), except in a transaction that
   * changes rules itself, which reads its own.
   */
  private rules(trx: Knex.Transaction, changes: readonly Change[] = []): Promise<Rule[]> {
    const ruleModel = this.options.schema.withRole('event_rule');
    if (changes.some((c) => c.model === ruleModel)) {
      let own = this.rulesByTransaction.get(trx);
      if (!own) this.rulesByTransaction.set(trx, (own = this.loadRules(trx)));
      return own;
    }
    const now = Date.now();
    if (this.cache && now - this.cache.at < this.options.settings.CACHE_SECONDS * 1000) return this.cache.rules;
    const generation = this.generation;
    const rules = this.loadRules(trx);
    rules.then(
      () => generation === this.generation && (this.cache = { at: now, rules }),
      () => undefined,
    );
    return rules;
  }

  private async loadRules(trx: Knex.Transaction): Promise<Rule[]> {
    const model = this.options.schema.withRole('event_rule');
    if (!model || !this.options.schema.withRole('background_task')) return [];
    const field = (name: string) => model.fields.get(name)!;
    const rows = (await trx(model.table).where(
      field('enabled').column!,
      sqlBoolean(this.options.dialect, true),
    )) as Row[];
    return rows
      .map((row): Record<string, unknown> => ({ id: Number(row.id), ...decodeRow(model.spec.fields, row) }))
      .filter((rule) => rule.action_type === 'webhook')
      .map((rule) => ({
        id: Number(rule.id),
        objectTypes: (rule.object_types as string[] | null) ?? [],
        eventTypes: (rule.event_types as string[] | null) ?? [],
        conditions: rule.conditions,
        webhook: rule.action_object_id === null ? null : Number(rule.action_object_id),
        actionData: (rule.action_data as Record<string, unknown> | null) ?? null,
      }));
  }

  /** Whether some rule wants deletions of a model (then its objects are rendered before they go). */
  wantsDeletions(trx: Knex.Transaction, model: ModelInfo, changes: readonly Change[]): Promise<boolean> {
    return this.wants(trx, model, 'delete', changes);
  }

  /** Whether some enabled rule of a background task wants this event of the model's objects. */
  async wants(
    trx: Knex.Transaction,
    model: ModelInfo,
    action: Change['action'],
    changes: readonly Change[],
  ): Promise<boolean> {
    if (!this.options.tasks || model === this.options.tasks.model || !model.spec.features.includes('events'))
      return false;
    const rules = await this.rules(trx, changes);
    return rules.some((r) => r.objectTypes.includes(model.label) && r.eventTypes.includes(EVENT_OF[action]));
  }

  /** REST representations as NetBox's events carry them: complete, with relative URLs. */
  async represent(q: Knex, model: ModelInfo, ids: readonly number[]): Promise<Map<number, Row>> {
    const { schema, dialect, settings, domain, customFields } = this.options;
    const base = settings.BASE_PATH;
    const ctx: ReadContext = {
      schema,
      dialect,
      settings,
      customFields,
      render: { apiRoot: `${base}/api`, siteRoot: base, domain, settings },
    };
    const objects = await loadObjectsByIds(q, ctx, model, selectKeys(model, new URLSearchParams()), ids);
    return new Map(objects.map((o) => [Number(o.id), o]));
  }

  /**
   * Keeps the complete representations of objects a write rendered after its last change (`marked`: rendered
   * under markedRoots()), so that its event hook does not read them again.
   */
  keep(changes: readonly Change[], model: ModelInfo, marked: readonly Row[]): void {
    let kept = this.rendered.get(changes);
    if (!kept) this.rendered.set(changes, (kept = new Map<string, Row>()));
    const base = this.options.settings.BASE_PATH;
    for (const object of marked) kept.set(`${model.label}:${String(object.id)}`, withSiteRoot(object, base));
  }

  /** The objects' representations kept by this write when it kept every one of them, else read now. */
  private async current(
    trx: Knex.Transaction,
    changes: readonly Change[],
    model: ModelInfo,
    ids: readonly number[],
  ): Promise<Map<number, Row>> {
    const kept = this.rendered.get(changes);
    const found = ids.map((id) => kept?.get(`${model.label}:${id}`));
    if (found.every((object) => object !== undefined)) return new Map(ids.map((id, i) => [id, found[i]!]));
    return this.represent(trx, model, ids);
  }

  readonly hook: WriteHook = async (trx, changes, request) => {
    const { tasks } = this.options;
    if (!tasks) return;
    const candidates = mergeChanges(
      changes.filter((c) => c.model.spec.features.includes('events') && c.model !== tasks.model),
    );
    if (candidates.length === 0) return;
    const rules = await this.rules(trx, changes);
    const matching = (change: Change): Rule[] =>
      rules.filter((r) => r.objectTypes.includes(change.model.label) && r.eventTypes.includes(EVENT_OF[change.action]));
    const relevant = candidates.filter((c) => matching(c).length > 0);
    if (relevant.length === 0) return;

    // The current state of created and updated objects, per model in one batch.
    const current = new Map<string, { data: Row; snapshot: Snapshot | null }>();
    const byModel = new Map<ModelInfo, number[]>();
    for (const change of relevant)
      if (change.action !== 'delete') byModel.set(change.model, [...(byModel.get(change.model) ?? []), change.id]);
    for (const [model, ids] of byModel) {
      const data = await this.current(trx, changes, model, ids);
      // The change logger's snapshots of this write, when it recorded every one of these objects.
      const recorded = ids.map((id) => recordedSnapshot(changes, model, id));
      const snapshots = recorded.every((s) => s !== undefined)
        ? new Map(ids.map((id, i) => [id, recorded[i]!]))
        : await snapshotsOf(trx, this.options.schema, model, ids);
      for (const [id, object] of data)
        current.set(`${model.label}:${id}`, { data: object, snapshot: snapshots.get(id) ?? null });
    }

    const time = new Date();
    const enqueuedAt = now();
    const rows: Row[] = [];
    for (const change of relevant) {
      const after = current.get(`${change.model.label}:${change.id}`);
      const data = change.action === 'delete' ? change.beforeData : after?.data;
      if (!data) continue;
      for (const rule of matching(change)) {
        const merged = { ...(rule.actionData ?? {}), ...data };
        if (!evaluateConditions(rule.conditions, merged)) continue;
        const context = createWebhookContext({
          eventType: EVENT_OF[change.action],
          time,
          objectType: change.model.label,
          username: request.principal.user?.username ?? null,
          data: merged,
          request: requestInfo(request),
          snapshots: { prechange: change.beforeSnapshot ?? null, postchange: after?.snapshot ?? null },
        });
        rows.push(
          tasks.encode({
            queue: 'default',
            state: 'queued',
            event: EVENT_OF[change.action],
            object_type: change.model.label,
            object_id: change.id,
            event_rule: rule.id,
            webhook: rule.webhook,
            request_id: request.requestId,
            payload: context,
            enqueued_at: enqueuedAt,
          }),
        );
      }
    }
    if (rows.length === 0) return;
    const queued: QueuedTask[] = [];
    const width = Object.keys(rows[0] ?? {}).length;
    const [typeColumn, idColumn] = [tasks.column('object_type'), tasks.column('object_id')];
    for (const chunk of chunks(rows, rowsPerInsert(this.options.dialect, width))) {
      const inserted = (await trx(tasks.model.table).insert(chunk).returning(['id', typeColumn, idColumn])) as Row[];
      for (const row of inserted)
        queued.push({ id: Number(row.id), objectType: String(row[typeColumn]), objectId: Number(row[idColumn]) });
    }
    await this.options.queue?.enqueue(trx, queued);
    this.queuedIn.add(changes);
  };

  /** Whether the write whose changes these are queued tasks (then workers are nudged after its commit). */
  queued(changes: readonly Change[]): boolean {
    return this.queuedIn.has(changes);
  }
}

function requestInfo(request: WriteRequest): { id: string; method: string; path: string; user: string | null } {
  return {
    id: request.requestId,
    method: request.method,
    path: request.path,
    user: request.principal.user?.username ?? null,
  };
}
