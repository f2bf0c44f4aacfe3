import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, type ExpectStatic } from 'vitest';

/**
 * A first run that cannot crash: on a Node.js older than package.json's `engines`, `npm install` and `npm ci`
 * stop before fetching anything (`.npmrc`: engine-strict), and every other command (`npm start`, `npm test`,
 * `npm run …`, `node bin/svc.js …`) prints one line naming the Node.js it needs and how to get it (exit code 1).
 * The old Node.js is the machine's `/usr/bin/node` (v20 here); the npm commands run in a temporary folder that
 * holds only the files they read, with an empty npm cache and `offline` set, so that nothing is downloaded.
 */
const root = path.resolve(import.meta.dirname, '../..');
const requireCjs = createRequire(import.meta.url);
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  name: string;
  engines: { node: string };
  scripts: Record<string, string>;
};
const range = pkg.engines.node;
const { satisfies } = requireCjs('../../bin/check-node.cjs') as {
  satisfies: (version: string, range: string) => boolean;
};

const OLD_NODE = '/usr/bin/node';
const oldVersion = fs.existsSync(OLD_NODE)
  ? spawnSync(OLD_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim().replace(/^v/, '')
  : '';
const oldNpm = path.join(path.dirname(OLD_NODE), 'npm');
const skipReason = !oldVersion
  ? `${OLD_NODE} is missing`
  : satisfies(oldVersion, range)
    ? `${OLD_NODE} is Node.js ${oldVersion}, which engines (${range}) accepts`
    : !fs.existsSync(oldNpm)
      ? `${OLD_NODE} has no npm beside it`
      : '';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-first-run-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
let folders = 0;

/** A fresh folder with these files of the project (and its own npm cache). */
function copyProject(files: string[]): string {
  const folder = path.join(work, `project-${++folders}`);
  for (const file of files) {
    fs.mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
    fs.copyFileSync(path.join(root, file), path.join(folder, file));
  }
  return folder;
}

/**
 * Runs a command with the old Node.js first on PATH. The environment is built here, not inherited: the test runs
 * under .ci/node.sh's PATH and npm's `npm_config_*` variables.
 */
async function runOld(
  command: string,
  args: string[],
  cwd: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const env = {
    PATH: [path.dirname(OLD_NODE), '/usr/bin', '/bin'].join(path.delimiter),
    HOME: path.join(cwd, 'home'),
    npm_config_cache: path.join(cwd, 'npm-cache'),
    npm_config_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
  return new Promise((resolve) => {
    execFile(command, args, { cwd, env, encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

/**
 * Exactly one of our lines, naming the range and the Node.js that runs; the remedy varies with platform and
 * command. `expect` is the test's own: the tests that run npm run side by side.
 */
function expectOneLine(expect: ExpectStatic, stderr: string, remedy: RegExp): void {
  const lines = stderr.split('\n').filter((line) => line.includes(' needs Node.js '));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(
    `${pkg.name} needs Node.js ${range} (package.json engines) but this is Node.js ${oldVersion} (${OLD_NODE}): `,
  );
  expect(lines[0]).toMatch(remedy);
}

const nodeSh = process.platform === 'linux' && process.arch === 'x64';
const tryAgain = nodeSh
  ? /: run '\. \.ci\/node\.sh' to install a supported Node\.js into \.node\/ .*, then try again\.$/
  : /: install a Node\.js in that range \(https:\/\/nodejs\.org\/\), then try again\.$/;

describe.skipIf(skipReason)(
  `with an old Node.js first on PATH${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  // Each npm mostly waits: side by side, the whole describe takes about as long as its slowest test.
  { concurrent: true },
  () => {
    const installFiles = ['package.json', 'package-lock.json', '.npmrc', 'bin/check-node.cjs', '.ci/node.sh'];

    it.for(['install', 'ci'])('npm %s stops before fetching anything', async (command, { expect }) => {
      const folder = copyProject(installFiles);
      const result = await runOld(oldNpm, [command], folder);
      expect(result.status).not.toBe(0);
      expect(result.stderr).toContain('EBADENGINE');
      expect(result.stderr).toContain(`Required: ${JSON.stringify({ node: range })}`);
      expect(result.stderr).toContain(`"node":"v${oldVersion}"`);
      expect(fs.existsSync(path.join(folder, 'node_modules'))).toBe(false);
      expect(fs.existsSync(path.join(folder, 'npm-cache', '_cacache'))).toBe(false);
    });

    it('npm install with the engine check overridden stops in preinstall, with the line', async ({ expect }) => {
      // Without dependencies, so that the install reaches the project's own scripts without fetching.
      const folder = copyProject(installFiles.filter((file) => file !== 'package-lock.json'));
      const manifest = { ...pkg, dependencies: {}, devDependencies: {} };
      fs.writeFileSync(path.join(folder, 'package.json'), JSON.stringify(manifest, null, 2));
      const result = await runOld(oldNpm, ['install', '--engine-strict=false'], folder);
      expect(result.status).not.toBe(0);
      expectOneLine(expect, result.stderr, nodeSh ? /, then 'npm ci'\.$/ : /, then try again\.$/);
      expect(fs.existsSync(path.join(folder, 'dist'))).toBe(false);
    });

    it.for(['start', 'test', 'run build', 'run svc -- help'])(
      'npm %s prints the line and fails',
      async (command, { expect }) => {
        const folder = copyProject(['package.json', '.npmrc', 'bin/check-node.cjs', 'bin/svc.js', '.ci/node.sh']);
        const result = await runOld(oldNpm, command.split(' '), folder);
        expect(result.status).not.toBe(0);
        expectOneLine(expect, result.stderr, tryAgain);
      },
    );

    it('node bin/svc.js serve prints the line and exits with 1', async ({ expect }) => {
      const result = await runOld(OLD_NODE, [path.join(root, 'bin', 'svc.js'), 'serve'], root);
      expect(result.status).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr.split('\n')).toHaveLength(2); // the line and its newline
      expectOneLine(expect, result.stderr, tryAgain);
    });
  },
);

describe('with a Node.js that engines accepts', () => {
  it('the check passes silently', () => {
    const result = spawnSync(process.execPath, [path.join(root, 'bin', 'check-node.cjs')], { encoding: 'utf8' });
    expect([result.status, result.stdout, result.stderr]).toEqual([0, '', '']);
  });

  it('the prepare hook without TypeScript (a production install) does not fail', () => {
    const folder = copyProject(['package.json', 'bin/build-on-install.cjs']);
    const run = () =>
      spawnSync(process.execPath, [path.join(folder, 'bin', 'build-on-install.cjs')], {
        cwd: folder,
        env: { PATH: process.env.PATH },
        encoding: 'utf8',
      });
    const unbuilt = run();
    expect(unbuilt.status).toBe(0);
    expect(unbuilt.stderr).toContain('svc: dist/ is not built and TypeScript is not installed');
    fs.mkdirSync(path.join(folder, 'dist', 'runtime'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'dist', 'runtime', 'cli.js'), '');
    expect([run().status, run().stderr]).toEqual([0, '']);
  });
});

describe('every command checks first', () => {
  it.each(Object.entries(pkg.scripts))(
    'npm script %s starts with the check, or with bin/svc.js which makes it',
    (_, script) => {
      expect(script).toMatch(/^node bin\/(check-node\.cjs( &&|$)|svc\.js( |$))/);
    },
  );

  it('engines accepts no Node.js that a dependency refuses (npm, with engine-strict, would refuse to install)', () => {
    const semver = requireCjs('semver') as { subset: (sub: string, sup: string) => boolean };
    const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { optional?: boolean; engines?: { node?: string } | string[] }>;
    };
    expect(fs.readFileSync(path.join(root, '.npmrc'), 'utf8')).toMatch(/^engine-strict=true$/m);
    const refusing = Object.entries(lock.packages).flatMap(([name, entry]) => {
      const wanted = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      return !entry.optional && wanted && !semver.subset(range, wanted) ? [`${name}: ${wanted}`] : [];
    });
    expect(refusing).toEqual([]);
  });

  it.each([
    ['22.12.0', '>=22.12', true],
    ['22.11.9', '>=22.12', false],
    ['v20.20.2', '^22.13 || ^24 || >=26', false],
    ['22.13.0', '^22.13 || ^24 || >=26', true],
    ['23.1.0', '^22.13 || ^24 || >=26', false],
    ['24.21.0', '^22.13 || ^24 || >=26', true],
    ['25.0.0', '^22.13 || ^24 || >=26', false],
    ['30.0.0-pre', '^22.13 || ^24 || >=26', true],
    ['22.14.0', '~22.13', false],
    ['23.0.0', '>22', true],
    ['22.99.0', '<=22', true],
    ['22.13.1', '22.13', true],
    ['20.10.0', '>=20 <20.10 || 21', false],
  ])('Node.js %s is in %s: %s', (version, wanted, expected) => {
    expect(satisfies(version, wanted)).toBe(expected);
  });
});
