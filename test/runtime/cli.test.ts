import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSettings, SettingsError } from '../../runtime/config.js';

const root = path.resolve(import.meta.dirname, '../..');
const cli = path.join(root, 'bin', 'svc.js');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-cli-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function run(
  args: string[],
  env: Record<string, string> = {},
): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [cli, ...args], {
    cwd: work,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('settings', () => {
  it('use defaults, then the config file, then the environment', () => {
    expect(loadSettings({})).toMatchObject({
      PORT: 8000,
      PAGINATE_COUNT: 50,
      MAX_PAGE_SIZE: 1000,
      LOGIN_REQUIRED: false,
    });
    const file = path.join(work, 'config.yaml');
    fs.writeFileSync(file, 'PAGINATE_COUNT: 25\nEXEMPT_VIEW_PERMISSIONS: [dcim.site]\n');
    expect(loadSettings({ CONFIG_FILE: file })).toMatchObject({
      PAGINATE_COUNT: 25,
      EXEMPT_VIEW_PERMISSIONS: ['dcim.site'],
    });
    expect(loadSettings({ CONFIG_FILE: file, PAGINATE_COUNT: '10', EXEMPT_VIEW_PERMISSIONS: '["*"]' })).toMatchObject({
      PAGINATE_COUNT: 10,
      EXEMPT_VIEW_PERMISSIONS: ['*'],
    });
  });

  it.each([
    [{ PAGINATE_COUNT: 'many' }, 'Invalid setting PAGINATE_COUNT: must be an integer'],
    [{ EXEMPT_VIEW_PERMISSIONS: 'dcim.site' }, 'Invalid setting EXEMPT_VIEW_PERMISSIONS: must be JSON'],
    [
      { API_TOKEN_PEPPERS: '{"1": "short"}' },
      'Invalid setting API_TOKEN_PEPPERS: Pepper must be at least 50 characters in length',
    ],
    [
      { API_TOKEN_PEPPERS: '{"x": "' + 'p'.repeat(60) + '"}' },
      'Invalid setting API_TOKEN_PEPPERS: All keys must be integers',
    ],
    [{ DATABASE_URL: 'mysql://x' }, "Invalid setting DATABASE_URL: must start with 'sqlite:' or 'postgres://'"],
    [{ LOGIN_REQUIRED: 'maybe' }, 'Invalid setting LOGIN_REQUIRED: must be true or false'],
  ])('refuse %j naming the setting', (env, message) => {
    expect(() => loadSettings(env)).toThrow(SettingsError);
    expect(() => loadSettings(env)).toThrow(message);
  });

  it('stop start-up with the message', () => {
    const result = run(['serve'], { MAX_PAGE_SIZE: '-1' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('Invalid setting MAX_PAGE_SIZE: must be 0 or more');
  });

  it('stop start-up on a PLUGINS name that is no generated plugin', () => {
    const result = run(['serve'], { PLUGINS: '["bgp", "netbox_secrets"]' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      "Invalid setting PLUGINS: unknown plugin 'netbox_secrets' (generated plugins: bgp, netbox_dns)",
    );
  });
});

describe('the CLI', () => {
  it('prints its usage', () => {
    const result = run(['help']);
    expect(result.status).toBe(0);
    for (const command of ['serve', 'migrate', 'createsuperuser', 'webhook_receiver'])
      expect(result.stdout).toContain(command);
  });

  it('migrates, creates a superuser with a token, and serves on the SQLite default', async () => {
    expect(run(['migrate']).stdout).toContain('Applied: 0001_initial');
    expect(run(['migrate']).stdout).toContain('No migrations to apply.');
    expect(fs.existsSync(path.join(work, 'data', 'netbox.sqlite3'))).toBe(true);
    const created = run([
      'createsuperuser',
      '--username',
      'root',
      '--password',
      'Root-Password-1',
      '--email',
      'root@example.com',
      '--token',
    ]);
    expect(created.status, created.stderr).toBe(0);
    const header = /API token \(shown once\): (Bearer svc_\S+)/.exec(created.stdout)?.[1];
    expect(header).toBeDefined();
    expect(run(['createsuperuser', '--username', 'root', '--password', 'x']).status).toBe(1);

    const port = 20000 + Math.floor(Math.random() * 20000);
    const server = spawn(process.execPath, [cli, 'serve'], {
      cwd: work,
      env: { PATH: process.env.PATH, PORT: String(port) },
    });
    try {
      let output = '';
      server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      for (let i = 0; i < 100 && !output.includes('Serving the API'); i += 1)
        await new Promise((r) => setTimeout(r, 100));
      expect(output).toContain(`http://localhost:${port}/api/`);
      const response = await fetch(`http://127.0.0.1:${port}/api/dcim/sites/`, { headers: { Authorization: header! } });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { count: number }).count).toBe(0);
    } finally {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
  });

  it('runs a webhook receiver that prints each request and answers 200', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const receiver = spawn(process.execPath, [cli, 'webhook_receiver', '--port', String(port)], {
      cwd: work,
      env: { PATH: process.env.PATH },
    });
    try {
      let output = '';
      receiver.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const waitFor = async (text: string): Promise<void> => {
        for (let i = 0; i < 100 && !output.includes(text); i += 1) await new Promise((r) => setTimeout(r, 100));
      };
      await waitFor('Listening on');
      expect(output).toContain(`Listening on http://127.0.0.1:${port}/`);
      const response = await fetch(`http://127.0.0.1:${port}/hook?x=1`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Hook-Signature': 'abc' },
        body: '{"event":"created","data":{"id":1}}',
      });
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('Webhook received!\n');
      await waitFor('------------');
      expect(output).toMatch(/\[1\] .* 127\.0\.0\.1 "POST \/hook\?x=1 HTTP\/1\.1"/);
      expect(output.toLowerCase()).toContain('x-hook-signature: abc');
      expect(output).toContain('{\n    "event": "created",\n    "data": {\n        "id": 1\n    }\n}\n------------');
    } finally {
      receiver.kill('SIGTERM');
      expect(await new Promise((resolve) => receiver.once('exit', resolve))).toBe(0);
    }
  });
});
