import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

const cli = path.resolve(import.meta.dirname, '../../bin/svc.js');

/** A real `svc` process (the compiled CLI, as production runs it). */
export interface SvcProcess {
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output: () => string;
  /** Resolves once `text` appears in its output; rejects when it exits first or after `timeoutMs`. */
  waitFor: (text: string | RegExp, timeoutMs?: number) => Promise<void>;
  /** Resolves with its exit code (after `stop`, `kill`, or by itself). */
  exited: Promise<number | null>;
  /** SIGTERM, then waits for the exit. */
  stop: () => Promise<number | null>;
}

/** Starts `svc <args>` with only `env` (plus PATH and HOME) in its environment. */
export function startSvc(args: string[], env: Record<string, string>, cwd?: string): SvcProcess {
  const child = spawn(process.execPath, [cli, ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer): void => {
    output += chunk.toString();
    for (const listener of listeners) listener();
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitFor = (text: string | RegExp, timeoutMs = 30_000): Promise<void> =>
    new Promise((resolve, reject) => {
      const found = (): boolean => (typeof text === 'string' ? output.includes(text) : text.test(output));
      const check = (): void => {
        if (!found()) return;
        done();
        resolve();
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`svc ${args[0]} did not print ${String(text)} within ${timeoutMs} ms:\n${output}`));
      }, timeoutMs);
      void exited.then((code) => {
        if (found()) return;
        done();
        reject(new Error(`svc ${args[0]} exited with ${code} before printing ${String(text)}:\n${output}`));
      });
      const done = (): void => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      check();
    });
  return {
    child,
    output: () => output,
    waitFor,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A TCP port nobody listens on at the moment. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
