import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, TEST_PEPPER } from '../support/app.js';

/**
 * pynetbox compatibility: the real server, started through the CLI as an operator would, is driven by
 * test/pynetbox/check.py with the pynetbox that Debian packages (python3-pynetbox, 7.0). Skipped when the
 * system Python cannot import pynetbox.
 */
const root = path.resolve(import.meta.dirname, '../..');
const cli = path.join(root, 'bin', 'svc.js');
const script = path.join(root, 'test', 'pynetbox', 'check.py');
const python = '/usr/bin/python3';
const hasPynetbox =
  fs.existsSync(python) && spawnSync(python, ['-c', 'import pynetbox'], { timeout: 30_000 }).status === 0;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pynetbox-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** A TCP port that nothing listens on right now. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Runs a command to its end; its exit code and interleaved output. */
async function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: work, env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      output += `\n[killed after ${timeoutMs} ms]`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

async function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}

describe.each(DIALECTS)('pynetbox against the server on %s', (dialect) => {
  it.skipIf(!hasPynetbox)(
    'passes test/pynetbox/check.py (needs /usr/bin/python3 with pynetbox: apt-get install python3-pynetbox)',
    async () => {
      const database = await createTestDatabase(dialect);
      const port = await freePort();
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATABASE_URL: database.url,
        PORT: String(port),
        API_TOKEN_PEPPERS: JSON.stringify({ 1: TEST_PEPPER }),
        // A small page, so that pynetbox's `.all()` / `.filter()` (which ask for limit=0) walk several pages.
        MAX_PAGE_SIZE: '25',
      };
      let server: ChildProcess | undefined;
      try {
        const created = await run(
          process.execPath,
          [cli, 'createsuperuser', '--username', 'pynetbox', '--password', 'Pynetbox-Password-1', '--token'],
          env,
          60_000,
        );
        expect(created.code, created.output).toBe(0);
        // pynetbox sends `Authorization: Token <value>`; the service reads the version from the `svc_` prefix.
        const token = /API token \(shown once\): Bearer (svc_\S+)/.exec(created.output)?.[1];
        expect(token, created.output).toBeDefined();

        const started = spawn(process.execPath, [cli, 'serve'], { cwd: work, env });
        server = started;
        let log = '';
        started.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()));
        started.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()));
        for (let i = 0; i < 300 && !log.includes('Serving the API') && started.exitCode === null; i += 1)
          await new Promise((resolve) => setTimeout(resolve, 100));
        expect(log, 'the server did not start').toContain(`http://localhost:${port}/api/`);

        const checked = await run(
          python,
          [script],
          { ...env, NETBOX_URL: `http://127.0.0.1:${port}`, NETBOX_TOKEN: token, PYTHONUNBUFFERED: '1' },
          240_000,
        );
        expect(checked.code, `check.py failed:\n${checked.output}\n--- server log ---\n${log}`).toBe(0);
        expect(checked.output).toContain('OK: 7 checks passed');
        // Several pages were walked with the small MAX_PAGE_SIZE.
        expect(checked.output).toMatch(/filter\(\) fetched [2-9] pages/);
      } finally {
        if (server) await stop(server);
        await database.drop();
      }
    },
    300_000,
  );
});
