import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../runtime/config.js';
import {
  caFileProblem,
  guardedLookup,
  payloadUrlProblem,
  resolveCaFile,
} from '../../runtime/domain/webhook-targets.js';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-ca-'));
const allowed = path.join(folder, 'certs');
fs.mkdirSync(allowed);
fs.writeFileSync(path.join(allowed, 'ca.pem'), 'not really a certificate');
fs.writeFileSync(path.join(folder, 'secret.txt'), 'secret');
fs.symlinkSync(path.join(folder, 'secret.txt'), path.join(allowed, 'escape.pem'));

const settings = loadSettings({}, { WEBHOOK_CA_FILE_DIRS: [allowed] });
const defaults = loadSettings({}, {});

/** Resolves `host` through the guarded lookup: the address, or the error's message. */
const resolve = (host: string, networks: string[]): Promise<string> =>
  new Promise((done) => {
    const lookup = guardedLookup({ ...settings, WEBHOOK_DENIED_NETWORKS: networks });
    lookup(host, { family: 0 }, (error, address) => done(error ? error.message : String(address)));
  });

describe('webhook targets', () => {
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('refuses literal addresses in WEBHOOK_DENIED_NETWORKS at save time, names only when sent', () => {
    expect(payloadUrlProblem('http://169.254.169.254/latest/', defaults)).toMatch(/WEBHOOK_DENIED_NETWORKS/);
    expect(payloadUrlProblem('http://[::ffff:a9fe:a9fe]/', defaults)).toMatch(/WEBHOOK_DENIED_NETWORKS/);
    expect(payloadUrlProblem('http://[fd00:ec2::254]/', defaults)).toMatch(/WEBHOOK_DENIED_NETWORKS/);
    expect(payloadUrlProblem('http://metadata.internal/', defaults)).toBeNull();
    expect(payloadUrlProblem('http://{{ data.host }}/', defaults)).toBeNull();
    expect(payloadUrlProblem('http://10.0.0.1/', defaults)).toBeNull();
  });

  it('refuses a name that resolves into a denied network when the request is sent', async () => {
    expect(await resolve('localhost', ['127.0.0.0/8', '::1/128'])).toMatch(/may not target/);
    expect(await resolve('localhost', ['169.254.0.0/16'])).toMatch(/^(127\.0\.0\.1|::1)$/);
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
