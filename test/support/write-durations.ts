// Writes test/durations.json (seconds per test file, hooks included) from a vitest JSON report of a whole-suite
// run: `npx vitest run --reporter=json --outputFile=report.json && npm run test:durations -- report.json`.
// test/support/sequencer.ts starts the longest files first from it.
import fs from 'node:fs';
import path from 'node:path';

interface Report {
  testResults: { name: string; startTime: number; endTime: number }[];
}

const [report] = process.argv.slice(2);
if (!report) {
  console.error('usage: npm run test:durations -- <vitest JSON report>');
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, '../..');
const { testResults } = JSON.parse(fs.readFileSync(report, 'utf8')) as Report;
const durations = Object.fromEntries(
  testResults
    .map((file): [string, number] => [
      path.relative(root, file.name).split(path.sep).join('/'),
      Math.round((file.endTime - file.startTime) / 100) / 10,
    ])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
);
fs.writeFileSync(path.join(root, 'test', 'durations.json'), `${JSON.stringify(durations, null, 2)}\n`);
console.log(`test/durations.json: ${Object.keys(durations).length} files`);
