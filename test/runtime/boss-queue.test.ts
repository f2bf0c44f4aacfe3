import { describe, expect, it } from 'vitest';
import { Worker } from '../../runtime/events/worker.js';
import { DIALECTS, startTestApp } from '../support/app.js';
import { Receiver, until } from '../support/receiver.js';

describe.runIf(DIALECTS.includes('postgres'))('deliveries as pg-boss jobs', () => {
  it("records a delivery whose worker died on its last attempt as failed, and lets the object's next one go", async () => {
    const receiver = new Receiver();
    await receiver.start();
    const app = await startTestApp('postgres', {
      settings: { WEBHOOK_TIMEOUT: 1, WEBHOOK_EXPIRY_MARGIN: 2, WEBHOOK_RETRIES: 0, WORKER_POLL_INTERVAL: 50 },
    });
    const worker = new Worker({
      q: app.db.knex,
      schema: app.context.schema,
      dialect: app.db.dialect,
      settings: app.context.settings,
      queue: app.context.queue!,
      log: () => undefined,
    });
    try {
      const webhook = await app.api.post('/api/extras/webhooks/', {
        name: 'expiry',
        payload_url: `${receiver.url}/{{event}}`,
      });
      const rule = await app.api.post('/api/extras/event-rules/', {
        name: 'expiry',
        object_types: ['dcim.site'],
        event_types: ['object_created', 'object_updated'],
        action_type: 'webhook',
        action_object_type: 'extras.webhook',
        action_object_id: webhook.body.id,
      });
      expect(rule.status, rule.text).toBe(201);
      const site = await app.api.post('/api/dcim/sites/', { name: 'Expiry', slug: 'expiry' });
      // A worker takes the creation's delivery and dies before sending it: its job stays active.
      const [taken] = await app.context.queue!.take(1, 'a worker that dies');
      expect(taken?.task.object_id).toBe(site.body.id);
      await app.api.patch(`/api/dcim/sites/${site.body.id}/`, { description: 'later' });
      // The update waits behind the active job until it expires (WEBHOOK_TIMEOUT + WEBHOOK_EXPIRY_MARGIN) and fails for good.
      await worker.start();
      await until(() => receiver.received.length > 0, 50_000);
      expect(receiver.received.map((r) => r.url)).toEqual(['/updated']);
      // The worker records the outcome just after the receiver has answered.
      const tasksPath = `/api/core/background-tasks/?object_id=${site.body.id}&ordering=id`;
      await until(async () => (await app.api.get(tasksPath)).body.results[1]?.status !== 'started', 10_000);
      const tasks = (await app.api.get(tasksPath)).body;
      expect(tasks.results.map((t: any) => [t.kwargs.event_type, t.status, t.meta.attempts])).toEqual([
        ['object_created', 'failed', 1],
        ['object_updated', 'finished', 1],
      ]);
      expect(tasks.results[0].meta.error_log).toMatch(/attempt 1: No answer within 3 seconds/);
    } finally {
      await worker.stop();
      await app.close();
      await receiver.stop();
    }
  }, 90_000);
});
