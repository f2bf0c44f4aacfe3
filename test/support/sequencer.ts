import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds each test file took on a run of the whole suite (`npm run test:durations` writes it). */
const DURATIONS = 'test/durations.json';

/**
 * The order files start in: longest first, from the committed durations of an earlier run, so that the two
 * workers finish together instead of one running a long file alone at the end (vitest's own order uses its
 * results cache, which a clean clone such as CI's does not have, and falls back to file size). Files the table
 * does not know yet start first, larger first, as in vitest's order; the `api` project's files before the `unit`
 * project's.
 */
export default class DurationSequencer extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const durations = readDurations(path.join(root, DURATIONS));
    const seconds = (spec: TestSpecification): number =>
      durations[path.relative(root, spec.moduleId).split(path.sep).join('/')] ?? Infinity;
    return Promise.resolve(
      [...files].sort((a, b) => {
        if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
        const [first, second] = [seconds(a), seconds(b)];
        if (first !== second) return first > second ? -1 : 1;
        return fs.statSync(b.moduleId).size - fs.statSync(a.moduleId).size;
      }),
    );
  }
}

function readDurations(file: string): Record<string, number> {
  if (!fs.existsSync(file)) return {};
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, number>;
}
