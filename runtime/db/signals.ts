import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import pg from 'pg';
import { isConnectionError } from './errors.js';

/** What a signal tells the other processes: new tasks are due, or a cache is out of date. */
export type Topic = 'tasks' | 'auth' | 'grants' | 'custom_fields' | 'event_rules';

const CHANNEL = 'svc_signals';
/** Every process's signal connection carries this name, so that a writer can count the listeners. */
const APPLICATION_NAME = 'netbox-svc-signals';
const RECONNECT_MS = 1_000;
/** A silent network drop shows as an unanswered ping. */
const PING_MS = 5_000;
/** Longest wait for the other processes to confirm a cache signal. */
const CONFIRM_TIMEOUT_MS = 1_000;

/** A published signal awaiting its echo and the other processes' acknowledgements. */
interface Pending {
  at: number;
  echoed: boolean;
  acks: Set<string>;
  /** Called whenever an echo or an acknowledgement arrives. */
  changed: (() => void) | null;
}

/**
 * Signals between the processes sharing one PostgreSQL database (LISTEN/NOTIFY on one dedicated connection
 * per process): a signal published inside a transaction reaches every process, this one included, when the
 * transaction commits, and not at all when it rolls back. A process that receives a cache signal drops the
 * cache, then acknowledges it, so that the writer can wait until every listening process has (`confirmed`).
 * The same connection watches the database: its loss and its return are logged once each, it reconnects by
 * itself, and while it is away (signals are missed) every handler runs once a second, so caches last no
 * longer than that. On SQLite (one process writes) signals are no-ops.
 */
export class Signals {
  private readonly handlers = new Map<Topic, (() => void)[]>();
  private readonly allHandlers: (() => void)[] = [];
  private readonly origin = randomBytes(6).toString('hex');
  private readonly pending = new Map<string, Pending>();
  private sequence = 0;
  private client: pg.Client | null = null;
  /** What was last sent on each signal connection: the next statement waits for it (see send). */
  private readonly sending = new WeakMap<pg.Client, Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Whether the database answered the last time we asked (start-up checked it already). */
  private reachable = true;
  private connecting: Promise<void> | null = null;
  private nudging = false;
  private nudgeAgain = false;

  constructor(
    /** The PostgreSQL URL, or null on SQLite. */
    private readonly url: string | null,
    private readonly log: (message: string) => void,
  ) {}

  /** Runs `handler` whenever any process publishes `topic`, and while signals may have been missed. */
  on(topic: Topic, handler: () => void): void {
    this.handlers.set(topic, [...(this.handlers.get(topic) ?? []), handler]);
    this.allHandlers.push(handler);
  }

  /** Starts listening (PostgreSQL); resolves once listening or after the first failed attempt. */
  start(): Promise<void> {
    if (!this.url || this.client || this.connecting) return this.connecting ?? Promise.resolve();
    this.stopped = false;
    return this.connect();
  }

  /** Publishes `topic` with the transaction `trx` (delivered when it commits); returns a token for `confirmed`. */
  async publish(trx: Knex, topic: Topic): Promise<string | null> {
    if (!this.url) return null;
    const token = `${topic}:${this.origin}:${(this.sequence += 1)}`;
    const now = Date.now();
    // Signals of rolled-back transactions are never confirmed.
    for (const [old, entry] of this.pending) if (entry.at < now - 60_000) this.pending.delete(old);
    this.pending.set(token, { at: now, echoed: false, acks: new Set(), changed: null });
    await trx.raw('select pg_notify(?, ?)', [CHANNEL, token]);
    return token;
  }

  /**
   * Tells the other processes (and this one) that tasks are due, after a commit and outside its transaction:
   * a NOTIFY inside write transactions would make their commits wait for each other. One nudge is in flight
   * at a time; the nudges asked for meanwhile become one more when it is done. A lost nudge only delays a
   * delivery until the workers' next poll.
   */
  nudge(q: Knex): void {
    if (!this.url) return;
    if (this.nudging) {
      this.nudgeAgain = true;
      return;
    }
    this.nudging = true;
    // The signal connection when listening: the pool may have a queue of requests to serve first.
    const payload = `tasks:${this.origin}:0`;
    const sent = this.client
      ? this.send(this.client, 'select pg_notify($1, $2)', [CHANNEL, payload])
      : q.raw('select pg_notify(?, ?)', [CHANNEL, payload]);
    void Promise.resolve(sent)
      .catch(() => undefined)
      .finally(() => {
        this.nudging = false;
        if (!this.nudgeAgain) return;
        this.nudgeAgain = false;
        this.nudge(q);
      });
  }

  /**
   * After the commit: resolves when this process has received its signal back and every other listening
   * process has acknowledged it (having dropped its cache), so that the next request to any server sees the
   * change. At most a second; at once while this process does not listen.
   */
  async confirmed(token: string | null): Promise<void> {
    const entry = token === null ? undefined : this.pending.get(token);
    const client = this.client;
    if (!entry || !client) return;
    try {
      const { rows } = await this.send<{ n: number }>(
        client,
        'select count(*)::int as n from pg_stat_activity where datname = current_database() and application_name = $1',
        [APPLICATION_NAME],
      );
      const others = Math.max(0, (rows[0]?.n ?? 1) - 1);
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          entry.changed = null;
          resolve();
        };
        const timer = setTimeout(done, CONFIRM_TIMEOUT_MS);
        timer.unref();
        // Settled when all have confirmed, or at once when the connection goes (nothing more can arrive).
        entry.changed = () => {
          if (this.client !== client || (entry.echoed && entry.acks.size >= others)) done();
        };
        entry.changed();
      });
    } catch {
      // The connection is going away: caches are dropped every second until it is back.
    } finally {
      this.pending.delete(token!);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = null;
    for (const entry of this.pending.values()) entry.changed?.();
    await client?.end().catch(() => undefined);
  }

  private connect(): Promise<void> {
    this.connecting = (async () => {
      const client = new pg.Client({
        connectionString: this.url!,
        connectionTimeoutMillis: 5_000,
        keepAlive: true,
        application_name: APPLICATION_NAME,
      });
      client.on('error', (error) => this.lost(client, error));
      client.on('end', () => this.lost(client, new Error('Connection terminated')));
      client.on('notification', (message) => this.receive(client, message.payload ?? ''));
      try {
        await client.connect();
        await client.query(`LISTEN ${CHANNEL}`);
      } catch (error) {
        client.removeAllListeners('end');
        await client.end().catch(() => undefined);
        this.lost(null, error);
        return;
      }
      if (this.stopped) {
        await client.end().catch(() => undefined);
        return;
      }
      this.client = client;
      this.schedulePing(client);
      if (!this.reachable) {
        this.reachable = true;
        this.log('PostgreSQL: the connection is back.');
        // Signals sent while we were away are lost: act as if each had arrived.
        for (const handler of this.allHandlers) handler();
      }
    })().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  /**
   * Reports a lost connection once, then tries again every second until the database answers; meanwhile
   * every handler runs at each try (no signal can arrive, so no cache may be trusted for long).
   */
  private lost(client: pg.Client | null, error: unknown): void {
    if (this.stopped) return;
    if (client !== null && client !== this.client) return;
    this.client = null;
    client?.removeAllListeners('end');
    void client?.end().catch(() => undefined);
    for (const entry of this.pending.values()) entry.changed?.();
    for (const handler of this.allHandlers) handler();
    if (this.reachable) {
      this.reachable = false;
      const reason = isConnectionError(error) ? 'the server cannot be reached' : (error as Error).message;
      this.log(`PostgreSQL: the connection is lost (${reason}); retrying every second.`);
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.stopped) void this.connect();
    }, RECONNECT_MS);
    this.timer.unref();
  }

  /**
   * Runs a statement on the signal connection after those sent before it: a pg client runs one at a time, and
   * queueing a query while another runs is deprecated (pg 9 refuses it).
   */
  private send<R extends pg.QueryResultRow = pg.QueryResultRow>(
    client: pg.Client,
    text: string,
    values?: unknown[],
  ): Promise<pg.QueryResult<R>> {
    const sent = (this.sending.get(client) ?? Promise.resolve()).then(() => client.query<R>(text, values));
    this.sending.set(
      client,
      sent.then(
        () => undefined,
        () => undefined,
      ),
    );
    return sent;
  }

  private schedulePing(client: pg.Client): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.client !== client) return;
      const timeout = setTimeout(() => this.lost(client, new Error('no answer to a ping')), PING_MS);
      this.send(client, 'select 1').then(
        () => {
          clearTimeout(timeout);
          if (this.client === client) this.schedulePing(client);
        },
        (error: unknown) => {
          clearTimeout(timeout);
          this.lost(client, error);
        },
      );
    }, PING_MS);
    this.timer.unref();
  }

  /** `<topic>:<origin>:<n>` runs the topic's handlers; `ack:<topic>:<origin>:<n>:<from>` confirms one of ours. */
  private receive(client: pg.Client, payload: string): void {
    const parts = payload.split(':');
    if (parts[0] === 'ack') {
      const [, topic, origin, sequence, from] = parts;
      const entry = origin === this.origin ? this.pending.get(`${topic}:${origin}:${sequence}`) : undefined;
      entry?.acks.add(from!);
      entry?.changed?.();
      return;
    }
    const [topic, origin] = parts;
    for (const handler of this.handlers.get(topic as Topic) ?? []) handler();
    if (origin === this.origin) {
      const entry = this.pending.get(payload);
      if (entry) entry.echoed = true;
      entry?.changed?.();
    } else if (topic !== 'tasks') {
      // Our cache is dropped: tell the writer.
      this.send(client, 'select pg_notify($1, $2)', [CHANNEL, `ack:${payload}:${this.origin}`]).catch(() => undefined);
    }
  }
}
