import { spawn } from 'node:child_process';

/**
 * Runs a program to its end (killed after `timeoutMs`): its exit code and interleaved output. The
 * environment is this process's plus `env`.
 */
export function runCommand(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
  timeoutMs = 60_000,
  cwd?: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      output += `\n[killed after ${timeoutMs} ms]`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
