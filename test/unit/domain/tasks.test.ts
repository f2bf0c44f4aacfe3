import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../../runtime/config.js';
import { timestampAt } from '../../../runtime/db/clock.js';
import { rqStatus, taskFunctions } from '../../../runtime/domain/tasks.js';

/** Background tasks as NetBox's RQ jobs: the derived keys of a delivery's record (runtime/domain/tasks.ts). */

const settings = loadSettings({}, { WEBHOOK_TIMEOUT: 10, CHANGELOG_RETENTION: 90 });
const derive = (name: keyof typeof taskFunctions, values: Record<string, unknown>): unknown => {
  const entry = taskFunctions[name];
  if (entry.kind !== 'derive') throw new Error(`${name} is not a derive function`);
  return entry.fn(values, settings);
};

const payload = {
  event: 'created',
  timestamp: '2026-03-06T15:11:23.503000+00:00',
  object_type: 'dcim.site',
  username: 'admin',
  request_id: 'r-1',
  data: { id: 7, name: 'Sïte “7”', tags: [], latitude: null, active: true, description: 'x'.repeat(80) },
  // As PostgreSQL's jsonb returns it: shorter keys first.
  request: { id: 'r-1', path: '/api/dcim/sites/', user: 'admin', method: 'POST' },
  snapshots: { postchange: { name: 'Sïte' }, prechange: null },
};
const record = { payload, event: 'object_created', 'event_rule.name': 'Sites' };

describe('the RQ status of a delivery', () => {
  const now = Date.parse('2026-03-06T15:00:00Z');
  it.each([
    ['queued', null, 'queued'],
    ['queued', timestampAt(now - 1_000), 'queued'],
    ['queued', timestampAt(now + 60_000), 'scheduled'],
    ['running', null, 'started'],
    ['succeeded', null, 'finished'],
    ['failed', null, 'failed'],
  ])('%s (next attempt %s) → %s', (state, next, status) => {
    expect(rqStatus({ state, next_attempt_at: next }, now)).toBe(status);
  });

  it('sets exactly one is_<status> flag', () => {
    const flags = (values: Record<string, unknown>): string[] =>
      Object.keys(taskFunctions)
        .filter((name) => name.startsWith('core.taskIs'))
        .filter((name) => derive(name as keyof typeof taskFunctions, values) === true);
    expect(flags({ state: 'failed', next_attempt_at: null })).toEqual(['core.taskIsFailed']);
    expect(flags({ state: 'running', next_attempt_at: null })).toEqual(['core.taskIsStarted']);
    expect(flags({ state: 'queued', next_attempt_at: timestampAt(Date.now() + 60_000) })).toEqual([
      'core.taskIsScheduled',
    ]);
  });
});

describe('send_webhook’s arguments', () => {
  it('are NetBox’s keyword arguments in its order, as Python’s str()', () => {
    expect(derive('core.taskKwargs', record)).toEqual({
      event_rule: 'Sites',
      object_type: 'dcim.site',
      event_type: 'object_created',
      data: `{'id': 7, 'name': 'Sïte “7”', 'tags': [], 'latitude': None, 'active': True, 'description': '${'x'.repeat(80)}'}`,
      snapshots: "{'prechange': None, 'postchange': {'name': 'Sïte'}}",
      timestamp: '2026-03-06T15:11:23.503000+00:00',
      username: 'admin',
      request: "{'id': 'r-1', 'method': 'POST', 'path': '/api/dcim/sites/', 'user': 'admin'}",
    });
  });

  it('leave out the request of an event without one, and name a deleted rule None', () => {
    const kwargs = derive('core.taskKwargs', {
      payload: { ...payload, request: undefined, username: null },
      event: 'object_deleted',
      'event_rule.name': null,
    }) as Record<string, string>;
    expect(Object.keys(kwargs)).not.toContain('request');
    expect(kwargs).toMatchObject({ event_rule: 'None', username: 'None', event_type: 'object_deleted' });
  });

  it('make RQ’s description: sorted, each repr cut at 75 characters', () => {
    const description = derive('core.taskDescription', record) as string;
    expect(description).toBe(
      'extras.webhooks.send_webhook(' +
        [
          "data={'id': 7, 'name': 'Sïte “7”', 'tags': [], 'latitude': None, 'active': True,...",
          'event_rule=<EventRule: Sites>',
          "event_type='object_created'",
          'object_type=<ObjectType: dcim.site>',
          // 76 characters: the closing brace goes.
          "request={'id': 'r-1', 'method': 'POST', 'path': '/api/dcim/sites/', 'user': 'admin'...",
          "snapshots={'prechange': None, 'postchange': {'name': 'Sïte'}}",
          "timestamp='2026-03-06T15:11:23.503000+00:00'",
          "username='admin'",
        ].join(', ') +
        ')',
    );
  });
});

describe('the outcome and details of a delivery', () => {
  it('gives a delivered task send_webhook’s result, and none to the others', () => {
    expect(derive('core.taskResult', { state: 'succeeded', response_status: 204 })).toBe(
      'Status 204 returned, webhook successfully processed.',
    );
    for (const state of ['queued', 'running', 'failed'])
      expect(derive('core.taskResult', { state, response_status: 500 })).toBeNull();
  });

  it('keeps the attempts, the last response and the error log in meta', () => {
    expect(
      derive('core.taskMeta', {
        object_type: 'dcim.site',
        object_id: 7,
        event_rule: 2,
        webhook: null,
        request_id: '',
        attempts: 2,
        next_attempt_at: '2026-03-06T15:00:00.000000Z',
        response_status: 502,
        target: 'https://example.com/hook',
        error_log: 'a\nb',
      }),
    ).toEqual({
      object_type: 'dcim.site',
      object_id: 7,
      event_rule_id: 2,
      webhook_id: null,
      request_id: null,
      attempts: 2,
      next_attempt_at: '2026-03-06T15:00:00Z',
      response_status: 502,
      url: 'https://example.com/hook',
      error_log: 'a\nb',
    });
  });

  it('reports the worker, its last heartbeat and the time-outs from the settings', () => {
    expect(derive('core.taskWorkerName', { worker: '' })).toBeNull();
    expect(derive('core.taskWorkerName', { worker: 'host:42' })).toBe('host:42');
    expect(derive('core.taskHeartbeat', { started_at: null, finished_at: null })).toBeNull();
    expect(derive('core.taskHeartbeat', { started_at: '2026-03-06T15:00:00.000000Z', finished_at: null })).toBe(
      '2026-03-06T15:00:00Z',
    );
    expect(
      derive('core.taskHeartbeat', {
        started_at: '2026-03-06T15:00:00.000000Z',
        finished_at: '2026-03-06T15:00:01.500000Z',
      }),
    ).toBe('2026-03-06T15:00:01.500000Z');
    expect(derive('core.taskTimeout', {})).toBe(10);
    expect(derive('core.taskResultTtl', {})).toBe(90 * 86_400);
    expect(taskFunctions['core.taskResultTtl'].fn({}, { ...settings, CHANGELOG_RETENTION: 0 })).toBe(-1);
  });
});
