// npm's `prepare` hook, run after `npm install` and `npm ci` in this folder: compiles dist/ (`npm run build`) so
// that the `svc` command works straight after installing. An install without the dev dependencies has no
// TypeScript (`npm ci --omit=dev`; `npm prune --omit=dev` after building, as the README's "Deploying on
// PostgreSQL" allows): it keeps the dist/ it was shipped with, says so when there is none, and never fails.
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');

function hasTypeScript() {
  try {
    require.resolve('typescript/bin/tsc', { paths: [root] });
    return true;
  } catch {
    return false;
  }
}

if (!hasTypeScript()) {
  if (!fs.existsSync(path.join(root, 'dist', 'runtime', 'cli.js'))) {
    console.error(
      "svc: dist/ is not built and TypeScript is not installed: build it with the dev dependencies ('npm ci' builds it), as the README's \"Deploying on PostgreSQL\" says.",
    );
  }
  process.exit(0);
}
// The npm that runs this hook runs the build, with this Node.js; another package manager's `npm` from PATH.
const npmCli = process.env.npm_execpath;
const [command, args] = npmCli && /\.[cm]?js$/.test(npmCli) ? [process.execPath, [npmCli]] : ['npm', []];
const result = spawnSync(command, [...args, 'run', 'build', '--silent'], {
  cwd: root,
  stdio: 'inherit',
  shell: command === 'npm' && process.platform === 'win32',
});
process.exit(result.status ?? 1);
