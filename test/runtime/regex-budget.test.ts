import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const compiled = path.resolve(import.meta.dirname, '../../dist/runtime/events/python-regex.js');

/** Matches a trivial pattern for `ms` in a loop; prints how many matches and how many did not match. */
const child = `
const { compilePythonRegex, matchPythonRegex } = await import(${JSON.stringify(compiled)});
const regex = compilePythonRegex('^order-');
let matches = 0, failures = 0;
console.log('ready');
const end = Date.now() + 1500;
while (Date.now() < end) {
  try { if (matchPythonRegex(regex, 'order-5')) matches += 1; else failures += 1; } catch { failures += 1; }
}
console.log(JSON.stringify({ matches, failures }));
`;

describe('the regex time budget of conditions', () => {
  it('is not spent by a process that does not get the CPU (a busy machine), only by a match that runs', async () => {
    const process_ = spawn(process.execPath, ['--input-type=module', '-e', child], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    process_.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    while (!output.includes('ready')) await new Promise((resolve) => setTimeout(resolve, 10));
    // Freeze the process for longer than the budget, again and again, as a scheduler under load would.
    for (let i = 0; i < 8; i += 1) {
      process_.kill('SIGSTOP');
      await new Promise((resolve) => setTimeout(resolve, 120));
      process_.kill('SIGCONT');
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    await new Promise((resolve) => process_.once('exit', resolve));
    const result = JSON.parse(output.split('\n')[1]!) as { matches: number; failures: number };
    expect(result.matches).toBeGreaterThan(100);
    expect(result.failures).toBe(0);
  });
});
