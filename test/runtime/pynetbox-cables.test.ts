import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import { runCommand } from '../support/command.js';

/**
 * Cables through patch panels and a circuit, traced by pynetbox (Debian's python3-pynetbox, 7.0), unchanged
 * (test/pynetbox/cables.py). Skipped when the system Python cannot import pynetbox.
 */
const python = '/usr/bin/python3';
const script = path.resolve(import.meta.dirname, '../pynetbox/cables.py');
const hasPynetbox =
  fs.existsSync(python) && spawnSync(python, ['-c', 'import pynetbox'], { timeout: 30_000 }).status === 0;

describe.each(DIALECTS)('pynetbox and cables on %s', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    if (hasPynetbox) app = await startTestApp(dialect);
  });
  afterAll(async () => app?.close());

  it.skipIf(!hasPynetbox)('traces cables through patch panels and a circuit', async () => {
    const token = app.adminAuth.replace(/^Bearer /, '');
    const result = await runCommand(python, [script, app.baseUrl, token], { PYTHONUNBUFFERED: '1' }, 120_000);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('OK: pynetbox 7.0 traces cables through patch panels and a circuit');
  });
});
