import { Worker } from 'node:worker_threads';

/**
 * A worker thread running a TypeScript entry of the benchmark with `workerData`. tsx's hooks do not reach
 * worker threads on Node 20, so the thread loads its entry through tsx's own API.
 */
export function startThread(entry: URL, workerData: unknown): Worker {
  const api = import.meta.resolve('tsx/esm/api');
  const source = `import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry.href)}, ${JSON.stringify(entry.href)}))`;
  return new Worker(source, { eval: true, workerData });
}
