import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import { runCommand } from '../support/command.js';

/**
 * Plugins from pynetbox (Debian's python3-pynetbox, 7.0), unchanged: `nb.plugins.bgp.session.create()`,
 * `.filter()`, `.save()`, `.delete()` against the BGP plugin (test/pynetbox/bgp.py), and the NetBox DNS
 * example plugin's model-language rules (test/pynetbox/dns.py). Skipped when the system Python cannot import
 * pynetbox.
 */
const python = '/usr/bin/python3';
const script = path.resolve(import.meta.dirname, '../pynetbox/bgp.py');
const dnsScript = path.resolve(import.meta.dirname, '../pynetbox/dns.py');
const hasPynetbox =
  fs.existsSync(python) && spawnSync(python, ['-c', 'import pynetbox'], { timeout: 30_000 }).status === 0;

describe.each(DIALECTS)('pynetbox and the BGP plugin on %s', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    if (hasPynetbox) app = await startTestApp(dialect, { settings: { PLUGINS: ['bgp', 'netbox_dns'] } });
  });
  afterAll(async () => app?.close());

  it.skipIf(!hasPynetbox)('creates, filters, updates and deletes sessions through nb.plugins.bgp', async () => {
    const token = app.adminAuth.replace(/^Bearer /, '');
    const result = await runCommand(python, [script, app.baseUrl, token], { PYTHONUNBUFFERED: '1' }, 120_000);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('OK: pynetbox 7.0 creates, filters, updates and deletes BGP sessions');
  });

  it.skipIf(!hasPynetbox)('drives the NetBox DNS plugin through nb.plugins.netbox_dns', async () => {
    const token = app.adminAuth.replace(/^Bearer /, '');
    const result = await runCommand(python, [dnsScript, app.baseUrl, token], { PYTHONUNBUFFERED: '1' }, 120_000);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('OK: pynetbox 7.0 drives the NetBox DNS plugin through nb.plugins.netbox_dns');
  });
});
