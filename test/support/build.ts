import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Compiles the runtime into dist/ once per run (incrementally), as `npm run build` does: tests that start
 * real `svc` processes run the same plain JavaScript as production.
 */
export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '../..');
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
}
