import type { Worker as Thread } from 'node:worker_threads';
import { startThread } from './thread.js';
import type { Receipt, ReceiverCommand, ReceiverMessage } from './webhook-receiver.js';

/** The main-thread side of the receiver thread (webhook-receiver.ts). */
export class ReceiverThread {
  private constructor(
    private readonly thread: Thread,
    readonly port: number,
  ) {}

  static async start(): Promise<ReceiverThread> {
    const thread = startThread(new URL('./webhook-receiver.ts', import.meta.url), null);
    const listening = await awaitMessage(thread, 'listening', null);
    return new ReceiverThread(thread, listening!.port);
  }

  /** Whether `count` requests arrived within `timeoutMs`. */
  async reached(count: number, timeoutMs: number): Promise<boolean> {
    const message = awaitMessage(this.thread, 'reached', timeoutMs);
    this.send({ kind: 'notify', count });
    return (await message) !== null;
  }

  /** Every request received so far. */
  async collect(): Promise<{ receipts: Receipt[] }> {
    const message = awaitMessage(this.thread, 'receipts', null);
    this.send({ kind: 'collect' });
    return (await message)!;
  }

  async close(): Promise<void> {
    await this.thread.terminate();
  }

  private send(command: ReceiverCommand): void {
    this.thread.postMessage(command);
  }
}

/** The thread's next message of `kind`, or null after `timeoutMs`; rejects when the thread fails. */
function awaitMessage<K extends ReceiverMessage['kind']>(
  thread: Thread,
  kind: K,
  timeoutMs: number | null,
): Promise<Extract<ReceiverMessage, { kind: K }> | null> {
  return new Promise((resolve, reject) => {
    const timer = timeoutMs === null ? null : setTimeout(() => settle(() => resolve(null)), timeoutMs);
    const onMessage = (message: ReceiverMessage): void => {
      if (message.kind === kind) settle(() => resolve(message as Extract<ReceiverMessage, { kind: K }>));
    };
    const onError = (error: Error): void => settle(() => reject(error));
    const onExit = (code: number): void =>
      settle(() => reject(new Error(`the webhook receiver thread exited with code ${code}`)));
    thread.on('message', onMessage);
    thread.once('error', onError);
    thread.once('exit', onExit);
    function settle(done: () => void): void {
      if (timer) clearTimeout(timer);
      thread.off('message', onMessage);
      thread.off('error', onError);
      thread.off('exit', onExit);
      done();
    }
  });
}
