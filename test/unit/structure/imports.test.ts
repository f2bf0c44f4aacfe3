import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The import rules of `npm run lint` (.dependency-cruiser.js): the repository passes them, and a copy of it with
 * one import added fails them, naming the rule (a cycle, a layer crossed, generated code imported below the
 * composition root).
 */

const root = path.resolve(import.meta.dirname, '../../..');
const cli = path.join(root, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');
const config = path.join(root, '.dependency-cruiser.js');
const FOLDERS = ['runtime', 'generator', 'generated'];

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: { name: string }[];
}

async function violationsIn(dir: string): Promise<Violation[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [cli, '--config', config, '--output-type', 'json', '--no-progress', ...FOLDERS],
    { cwd: dir, maxBuffer: 64 * 1024 * 1024 },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  return (JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

const copies: string[] = [];

/** A copy of the TypeScript sources (and tsconfig.json) in a temporary folder, with node_modules linked. */
function copyOfRepository(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-imports-'));
  copies.push(dir);
  for (const folder of FOLDERS) {
    fs.cpSync(path.join(root, folder), path.join(dir, folder), {
      recursive: true,
      filter: (source) => fs.statSync(source).isDirectory() || source.endsWith('.ts'),
    });
  }
  fs.copyFileSync(path.join(root, 'tsconfig.json'), path.join(dir, 'tsconfig.json'));
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

/** Puts `line` at the top of a file of the copy. */
function prepend(dir: string, file: string, line: string): void {
  const target = path.join(dir, file);
  fs.writeFileSync(target, `${line}\n${fs.readFileSync(target, 'utf8')}`);
}

function edit(dir: string, file: string, from: string, to: string): void {
  const target = path.join(dir, file);
  const text = fs.readFileSync(target, 'utf8');
  expect(text).toContain(from);
  fs.writeFileSync(target, text.replace(from, to));
}

afterEach(() => {
  for (const dir of copies.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('import rules', () => {
  it('hold for the repository as it is', async () => {
    expect(await violationsIn(root)).toEqual([]);
  });

  it('fail on a copy of it with imports that break them, each naming its rule', async () => {
    const dir = copyOfRepository();
    // 1. The REST layer reaching for the HTTP layer's app context (which imports the REST layer back).
    prepend(dir, 'runtime/rest/fetch.ts', "import type { AppContext } from '../http/app-context.js';");
    // 2. A cycle inside one layer: display.ts imports values.ts, and now values.ts imports display.ts.
    prepend(dir, 'runtime/rest/values.ts', "import type { displayOf } from './display.js';");
    // 3. A lower layer importing a higher one, without a cycle.
    prepend(dir, 'runtime/db/sql.ts', "import { SIGNATURE_HEADER } from '../events/signature.js';");
    // 4. Generated code imported below the composition root.
    prepend(dir, 'runtime/http/roots.ts', "import { registry } from '../../generated/index.js';");
    // 5. Generated models name each other's nested types (type cycles, allowed); a value import is a real cycle.
    edit(
      dir,
      'generated/dcim/site.ts',
      "import type { ASNNested } from '../ipam/asn.js';",
      "import { ASNNested } from '../ipam/asn.js';",
    );
    const violations = await violationsIn(dir);
    const from = (file: string): string[] =>
      violations.filter((v) => v.from === file).map((v) => `${v.rule.name} → ${v.to}`);
    const cycles = (file: string): Violation[] =>
      violations.filter((v) => v.rule.name === 'no-circular' && v.cycle?.some((step) => step.name === file));

    expect(from('runtime/rest/fetch.ts')).toContain('layer-rest → runtime/http/app-context.ts');
    expect(cycles('runtime/http/app-context.ts').length).toBeGreaterThan(0);

    const withinRest = cycles('runtime/rest/values.ts');
    expect(withinRest.map((v) => v.cycle!.map((step) => step.name).sort())).toContainEqual([
      'runtime/rest/display.ts',
      'runtime/rest/values.ts',
    ]);
    expect(from('runtime/rest/values.ts').filter((v) => !v.startsWith('no-circular'))).toEqual([]);

    expect(from('runtime/db/sql.ts')).toEqual(['layer-db → runtime/events/signature.ts']);

    expect(from('runtime/http/roots.ts')).toContain('runtime-imports-generated-at-the-root → generated/index.ts');

    expect(violations.some((v) => v.rule.name === 'no-circular-generated')).toBe(true);
  });
});
