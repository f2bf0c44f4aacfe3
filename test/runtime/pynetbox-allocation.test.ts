import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import { runCommand } from '../support/command.js';

/**
 * Allocation from pynetbox (Debian's python3-pynetbox, 7.0): four concurrent clients take addresses of a
 * /28 with `available_ips.create()`, and the other allocation endpoints answer what pynetbox expects
 * (test/pynetbox/allocate.py). Skipped when the system Python cannot import pynetbox.
 */
const python = '/usr/bin/python3';
const script = path.resolve(import.meta.dirname, '../pynetbox/allocate.py');
const rangesScript = path.resolve(import.meta.dirname, '../pynetbox/allocate_ranges.py');
const hasPynetbox =
  fs.existsSync(python) && spawnSync(python, ['-c', 'import pynetbox'], { timeout: 30_000 }).status === 0;

describe.each(DIALECTS)('pynetbox allocation on %s', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    if (hasPynetbox) app = await startTestApp(dialect);
  });
  afterAll(async () => app?.close());

  it.skipIf(!hasPynetbox)('allocates 14 of 20 addresses of a /28 to 4 concurrent clients, none twice', async () => {
    const token = app.adminAuth.replace(/^Bearer /, '');
    const result = await runCommand(python, [script, app.baseUrl, token], { PYTHONUNBUFFERED: '1' }, 120_000);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('14 allocated, 6 refused with 409, none twice');
    expect(result.output).toContain('available_vlans.list()/create() work from pynetbox');
  });

  it.skipIf(!hasPynetbox)(
    'allocates from an ASN range and an IP range to 4 concurrent clients, none twice',
    async () => {
      const token = app.adminAuth.replace(/^Bearer /, '');
      const result = await runCommand(python, [rangesScript, app.baseUrl, token], { PYTHONUNBUFFERED: '1' }, 120_000);
      expect(result.code, result.output).toBe(0);
      expect(result.output).toContain('ASNs of a range of 14: 14 allocated, 6 refused with 409, none twice');
      expect(result.output).toContain('addresses of an IP range of 14: 14 allocated, 6 refused with 409, none twice');
    },
  );
});
