// Stops on a Node.js that package.json's `engines.node` does not accept (older, or an odd-numbered release) with
// one line and exit code 1, instead of letting native modules crash (better-sqlite3 13 segfaults on Node.js 20).
// Requiring this file is the check.
//
// Who runs it, so that every command stops the same way:
// - `npm install` / `npm ci`: npm itself, before anything is fetched: `.npmrc` sets `engine-strict`, so npm
//   refuses a Node.js outside `engines` (npm 7+ runs the project's own `preinstall` only after it has fetched
//   and built every dependency, too late). `preinstall` runs this file as well, for installs that override the
//   engine check (`--force`, `--engine-strict=false`) or package managers that skip it;
// - every npm script starts with `node bin/check-node.cjs &&` (test/runtime/first-run.test.ts holds them to it),
//   except those that run bin/svc.js, which requires this file first, as vitest.config.ts does for `npx vitest`.
//
// Plain CommonJS without dependencies or syntax newer than Node.js 8, so that any old Node.js can run it.
'use strict';

const fs = require('fs');
const path = require('path');

/**
 * [major, minor, patch] of a version such as 'v20.20.2' or '22.13' (missing parts are null).
 * @param {string} text
 * @returns {Array<number | null> | null}
 */
function parseVersion(text) {
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:[-+].*)?$/.exec(text);
  return match && [1, 2, 3].map((i) => (match[i] === undefined ? null : Number(match[i])));
}

/**
 * @param {number[]} a
 * @param {number[]} b
 */
function compareVersions(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

/**
 * A partial version's lowest full version ('22' → 22.0.0) and the first version above it ('22' → 23.0.0).
 * @param {Array<number | null>} v
 * @returns {[number[], number[]]}
 */
function boundsOf(v) {
  const last = v[2] !== null ? 2 : v[1] !== null ? 1 : 0;
  const low = v.map((part) => (part === null ? 0 : part));
  return [low, low.map((part, i) => (i < last ? part : i === last ? part + 1 : 0))];
}

/**
 * One comparator ('>=22.13', '^24', '<=23', '22') as bounds on full versions: [['>=', [22, 13, 0]], ['<', …]].
 * @param {string} text
 * @returns {Array<['>=' | '<', number[]]>}
 */
function parseComparator(text) {
  const match = /^(>=|<=|>|<|=|\^|~)?(.+)$/.exec(text);
  const v = match && parseVersion(match[2]);
  if (!v) throw new Error(`cannot read the version range comparator '${text}'`);
  const [low, above] = boundsOf(v);
  switch (match[1] || '=') {
    case '>=':
      return [['>=', low]];
    case '<':
      return [['<', low]];
    case '>':
      return [['>=', above]];
    case '<=':
      return [['<', above]];
    case '^':
      return [
        ['>=', low],
        ['<', [v[0] + 1, 0, 0]],
      ];
    case '~':
      return [
        ['>=', low],
        ['<', v[1] === null ? [v[0] + 1, 0, 0] : [v[0], v[1] + 1, 0]],
      ];
    default:
      return [
        ['>=', low],
        ['<', above],
      ];
  }
}

/**
 * Whether `version` is in `range`: alternatives joined by `||`, each of comparators joined by spaces, as npm
 * writes them (`^22.13 || >=24`); `^` and `~` as for versions 1.0.0 and up; no wildcards or hyphen ranges.
 * @param {string} version
 * @param {string} range
 * @returns {boolean}
 */
function satisfies(version, range) {
  const v = boundsOf(parseVersion(version))[0];
  return range.split('||').some((alternative) =>
    alternative
      .trim()
      .split(/\s+/)
      .every((comparator) =>
        parseComparator(comparator).every(([op, bound]) => (op === '>=') === compareVersions(v, bound) >= 0),
      ),
  );
}

/**
 * How to get a suitable Node.js here: .ci/node.sh where it works (Linux x86-64), an installer elsewhere.
 * @param {string} root
 */
function describeRemedy(root) {
  const script = path.join(root, '.ci', 'node.sh');
  if (process.platform !== 'linux' || process.arch !== 'x64' || !fs.existsSync(script)) {
    return 'install a Node.js in that range (https://nodejs.org/), then try again';
  }
  const relative = path.relative(process.cwd(), script);
  const shown = relative.startsWith('..') || path.isAbsolute(relative) ? script : relative;
  // An install that overrode the engine check has left native modules built for the old Node.js, which
  // `npm install` would keep: `npm ci` starts afresh.
  const then = process.env.npm_lifecycle_event === 'preinstall' ? "then 'npm ci'" : 'then try again';
  return `run '. ${shown}' to install a supported Node.js into .node/ and put it first on PATH in this shell, ${then}`;
}

function checkNode() {
  const root = path.join(__dirname, '..');
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- typed by the JSDoc cast, which the rule cannot see
  const pkg = /** @type {{ name: string, engines?: { node?: string } }} */ (
    JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
  );
  const range = pkg.engines && pkg.engines.node;
  if (!range || satisfies(process.version, range)) return;
  const running = `Node.js ${process.version.slice(1)} (${process.execPath})`;
  process.stderr.write(
    `${pkg.name} needs Node.js ${range} (package.json engines) but this is ${running}: ${describeRemedy(root)}.\n`,
  );
  process.exit(1);
}

checkNode();
module.exports = { satisfies };
