import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestApp, type TestApp } from '../support/app.js';
import { runCommand } from '../support/command.js';

/**
 * Modules and inventory items from pynetbox (Debian's python3-pynetbox, 7.0): a module installed in a bay gets
 * its type's components named with the bay's position, nested bays included, and inventory items form a tree
 * (test/pynetbox/modules.py). Skipped when the system Python cannot import pynetbox.
 */
const python = '/usr/bin/python3';
const script = path.resolve(import.meta.dirname, '../pynetbox/modules.py');
const hasPynetbox =
  fs.existsSync(python) && spawnSync(python, ['-c', 'import pynetbox'], { timeout: 30_000 }).status === 0;

describe.each(DIALECTS)('pynetbox modules and inventory on %s', (dialect) => {
  let app: TestApp;
  beforeAll(async () => {
    if (hasPynetbox) app = await startTestApp(dialect);
  });
  afterAll(async () => app?.close());

  it.skipIf(!hasPynetbox)('installs modules in bays and builds an inventory tree', async () => {
    const token = app.adminAuth.replace(/^Bearer /, '');
    const result = await runCommand(python, [script, app.baseUrl, token], { PYTHONUNBUFFERED: '1' }, 120_000);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain('con3/0, con3/1 and Sub 3');
    expect(result.output).toContain('both positions (con3/3)');
    expect(result.output).toContain('inventory items form a tree');
  });
});
