import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Compiles the runtime into dist/ (incrementally), which `svc` processes run. */
export function buildDist(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
}

/** A `svc worker` process, as production runs it. */
export interface WorkerProcess {
  /** Lines it printed (its log). */
  output: () => string;
  /** CPU time it used so far, in ms (Linux). */
  cpuMs: () => number;
  stop: () => Promise<void>;
}

/** Starts `svc worker` on `databaseUrl` with `env` settings; resolves once it says it is running. */
export async function startWorkerProcess(databaseUrl: string, env: Record<string, string>): Promise<WorkerProcess> {
  const child: ChildProcess = spawn(process.execPath, [path.join(root, 'bin', 'svc.js'), 'worker'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: databaseUrl, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (output.includes(' running (')) done(null);
    }, 20);
    child.once('exit', (code) => done(new Error(`svc worker exited with ${code}: ${output}`)));
    function done(error: Error | null): void {
      clearInterval(timer);
      if (error) reject(error);
      else resolve();
    }
  });
  return {
    output: () => output,
    cpuMs: () => {
      // utime and stime, in clock ticks of 10 ms, are the 14th and 15th fields of /proc/<pid>/stat.
      const fields = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(fields[11]) + Number(fields[12])) * 10;
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
