import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadSettings } from '../../runtime/config.js';
import {
  caFileProblem,
  payloadUrlProblem,
  resolveCaFile,
  SAVE_LOOKUP_TIMEOUT_MS,
} from '../../runtime/domain/webhook-targets.js';
import type { HostLookup } from '../../runtime/events/targets.js';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-ca-'));
const allowed = path.join(folder, 'certs');
fs.mkdirSync(allowed);
fs.writeFileSync(path.join(allowed, 'ca.pem'), 'not really a certificate');
fs.writeFileSync(path.join(folder, 'secret.txt'), 'secret');
fs.symlinkSync(path.join(folder, 'secret.txt'), path.join(allowed, 'escape.pem'));

const settings = loadSettings({}, { WEBHOOK_CA_FILE_DIRS: [allowed] });
const defaults = loadSettings({}, {});

/** A resolver that knows a few names (and fails for the rest, as getaddrinfo does). */
const names: Record<string, string[]> = {
  'hooks.example.test': ['192.0.2.10', '2001:db8::10'],
  'metadata.example.test': ['192.0.2.10', '169.254.169.254'],
  'mapped.example.test': ['::ffff:169.254.169.254'],
};
const lookup: HostLookup = async (name) => {
  const addresses = names[name.toLowerCase()];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

describe('webhook targets', () => {
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('refuses literal addresses in WEBHOOK_DENIED_NETWORKS at save time', async () => {
    const problem = (url: string) => payloadUrlProblem(url, defaults, lookup);
    expect(await problem('http://169.254.169.254/latest/')).toBe(
      'Webhooks may not target 169.254.169.254: the address is in WEBHOOK_DENIED_NETWORKS.',
    );
    expect(await problem('http://[::ffff:a9fe:a9fe]/')).toMatch(/WEBHOOK_DENIED_NETWORKS/);
    expect(await problem('http://[fd00:ec2::254]/')).toMatch(/WEBHOOK_DENIED_NETWORKS/);
    expect(await problem('http://0251.0376.0251.0376/')).toMatch(/may not target 169\.254\.169\.254/);
    expect(await problem('http://10.0.0.1/')).toBeNull();
  });

  it('resolves host names at save time: one denied address refuses the name', async () => {
    const problem = (url: string) => payloadUrlProblem(url, defaults, lookup);
    expect(await problem('https://hooks.example.test/netbox')).toBeNull();
    expect(await problem('https://Metadata.Example.Test:8443/x')).toBe(
      'Webhooks may not target metadata.example.test: it resolves to 169.254.169.254, which is in ' +
        'WEBHOOK_DENIED_NETWORKS.',
    );
    expect(await problem('http://mapped.example.test/')).toMatch(/resolves to ::ffff:169\.254\.169\.254/);
    // Unresolvable: accepted, as NetBox accepts it (delivery resolves it again and records the failure).
    expect(await problem('http://unknown.example.test/')).toBeNull();
    // The system resolver, with loopback denied.
    const loopback = { ...defaults, WEBHOOK_DENIED_NETWORKS: ['127.0.0.0/8', '::1/128'] };
    expect(await payloadUrlProblem('http://localhost:9000/hook', loopback)).toMatch(
      /^Webhooks may not target localhost/,
    );
  });

  it('checks the host of a template when the template leaves it fixed', async () => {
    const problem = (url: string) => payloadUrlProblem(url, defaults, lookup);
    expect(await problem('http://metadata.example.test/sites/{{ data.slug }}')).toMatch(/169\.254\.169\.254/);
    expect(await problem(' http://169.254.169.254?site={{ data.slug }}')).toMatch(/WEBHOOK_DENIED_NETWORKS/);
    expect(await problem('http://hooks.example.test/{{ data.slug }}')).toBeNull();
    // The host (or the port) is only known after rendering: delivery checks it.
    expect(await problem('http://{{ data.host }}/')).toBeNull();
    expect(await problem('http://169.254.{{ data.octets }}/')).toBeNull();
    expect(await problem('http://metadata.example.test:{{ data.port }}/')).toBeNull();
  });

  it('accepts a name that takes too long to resolve (delivery checks it again)', async () => {
    vi.useFakeTimers();
    try {
      const pending = payloadUrlProblem('http://slow.example.test/', defaults, () => new Promise(() => undefined));
      await vi.advanceTimersByTimeAsync(SAVE_LOOKUP_TIMEOUT_MS);
      expect(await pending).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('takes CA files only from WEBHOOK_CA_FILE_DIRS, after following links', async () => {
    expect(caFileProblem('/etc/ssl/certs/ca-certificates.crt', defaults)).toMatch(/names no folder/);
    expect(caFileProblem(path.join(allowed, 'ca.pem'), settings)).toBeNull();
    expect(caFileProblem(`${allowed}/../secret.txt`, settings)).toMatch(/absolute, normalised/);
    expect(caFileProblem(path.join(folder, 'secret.txt'), settings)).toMatch(/must be inside/);
    expect(await resolveCaFile(path.join(allowed, 'ca.pem'), settings)).toBe(
      fs.realpathSync(path.join(allowed, 'ca.pem')),
    );
    await expect(resolveCaFile(path.join(allowed, 'escape.pem'), settings)).rejects.toThrow(/resolves outside/);
  });
});
