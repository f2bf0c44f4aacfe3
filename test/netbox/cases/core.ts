import { setSuperuser } from '../../support/app.js';
import { expect } from 'vitest';
import type { NetBoxTestCase } from '../generic.js';
import type { PortedClass } from '../harness.js';

/**
 * Ported from NetBox 4.6.8 core/tests/test_api.py: BackgroundTaskTestCase, whose RQ jobs are webhook
 * deliveries here. NetBox enqueues a dummy function; here a site created under an event rule queues a
 * delivery of `extras.webhooks.send_webhook`, and a failed job is a delivery taken and given up through the
 * queue, as a worker would. NetBox's `self.user.is_superuser = True` is the test user made a superuser.
 */

/** `queue.enqueue(...)`: a site whose creation queues a delivery; returns the task's id. */
async function enqueue(t: PortedClass, slug: string): Promise<string> {
  const site = await t.make('dcim.site', { name: slug, slug });
  const found = await t.admin.get(`${t.path()}?object_type=dcim.site&object_id=${site.id}`);
  expect(found.body.count, found.text).toBe(1);
  return found.body.results[0].id as string;
}

async function superuser(t: PortedClass, id: number): Promise<void> {
  await setSuperuser(t.app, id, true);
}

export const coreCases: NetBoxTestCase[] = [
  {
    // Every signed-in user reads object types (NetBox's IsAuthenticatedOrLoginNotRequired): the test user has
    // no permission at all.
    source: 'core/tests/test_api.py::ObjectTypeTestCase',
    model: 'core.objecttype',
    briefFields: [],
    mixins: [],
    setUp: async () => ({ createData: [] }),
    tests: {
      test_list_objects: async (t) => {
        const count = (await t.all()).length;
        const user = await t.user();
        const response = await user.client.get(t.path());
        expect(response.status, response.text).toBe(200);
        expect(response.body.count).toBe(count);
      },
      test_get_object: async (t) => {
        const [first] = await t.all();
        const user = await t.user();
        const response = await user.client.get(`${t.path()}${first!.id}/`);
        expect(response.status, response.text).toBe(200);
      },
    },
  },
  {
    source: 'core/tests/test_api.py::BackgroundTaskTestCase',
    model: 'core.backgroundtask',
    briefFields: [],
    // Only the class's own tests: it is no APIViewTestCase.
    mixins: [],
    setUp: async (t) => {
      const webhook = await t.make('extras.webhook', { name: 'Test', payload_url: 'http://192.0.2.1/hook' });
      await t.make('extras.eventrule', {
        name: 'Sites',
        object_types: ['dcim.site'],
        event_types: ['object_created'],
        action_type: 'webhook',
        action_object_type: 'extras.webhook',
        action_object_id: webhook.id,
      });
      return { createData: [] };
    },
    tests: {
      test_background_task_list: async (t) => {
        await enqueue(t, 'site-1');
        const user = await t.user();
        expect((await user.client.get(t.path())).status).toBe(403);
        await superuser(t, user.id);
        const response = await user.client.get(t.path());
        expect(response.status).toBe(200);
        expect(response.text).toContain('origin');
        expect(response.text).toContain('extras.webhooks.send_webhook(data=');
      },
      test_background_task: async (t) => {
        const id = await enqueue(t, 'site-1');
        const user = await t.user();
        const url = `${t.path()}${id}/`;
        expect((await user.client.get(url)).status).toBe(403);
        await superuser(t, user.id);
        const response = await user.client.get(url);
        expect(response.status).toBe(200);
        for (const text of [`"${id}"`, 'origin', 'meta', 'kwargs']) expect(response.text).toContain(text);
      },
      test_background_task_delete: async (t) => {
        const id = await enqueue(t, 'site-1');
        const user = await t.user();
        const url = `${t.path()}${id}/delete/`;
        expect((await user.client.get(url)).status).toBe(403);
        await superuser(t, user.id);
        expect((await user.client.post(url)).status).toBe(200);
        // RQ_Job.exists() and queue.job_ids: the task is gone, and no worker takes its delivery.
        expect((await t.admin.get(`${t.path()}${id}/`)).status).toBe(404);
        expect(await t.app.context.queue!.take(10, 'test worker')).toEqual([]);
      },
      test_background_task_requeue: async (t) => {
        // A job that fails: its delivery is taken and given up.
        const id = await enqueue(t, 'site-1');
        const queue = t.app.context.queue!;
        const [delivery] = await queue.take(1, 'test worker');
        await queue.settle([{ delivery: delivery!, error: 'Job failed', status: null, target: '', retry: false }]);
        expect((await t.admin.get(`${t.path()}${id}/`)).body.is_failed).toBe(true);
        const url = `${t.path()}${id}/requeue/`;
        const user = await t.user();
        expect((await user.client.post(url)).status).toBe(403);
        await superuser(t, user.id);
        expect((await user.client.post(url)).status).toBe(200);
        expect((await t.admin.get(`${t.path()}${id}/`)).body.is_failed).toBe(false);
      },
    },
    leftOut: {
      test_background_task_enqueue:
        'Force-enqueues a job deferred behind its dependencies; a delivery is never deferred (a later change of an object waits in the queue), and the enqueue action is not served.',
      test_background_task_stop:
        "Stops a job a worker is running; the stop action is not served: an attempt ends within WEBHOOK_TIMEOUT, and a worker's deliveries are taken over when it dies.",
      test_background_queue_list: 'core/background-queues/ is not served (/api/status/ reports the queues).',
      test_background_queue: 'core/background-queues/<name>/ is not served (/api/status/ reports the queues).',
      test_worker_list: 'core/background-workers/ is not served (/api/status/ counts the running workers).',
      test_worker: 'core/background-workers/<name>/ is not served (/api/status/ counts the running workers).',
    },
  },
];
