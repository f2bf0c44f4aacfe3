import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const BIN = '/usr/lib/postgresql/15/bin';

/** Whether a private PostgreSQL server can be made here (the server binaries are installed). */
export const canRunPrivatePostgres = fs.existsSync(path.join(BIN, 'initdb'));

/**
 * A PostgreSQL server of a test's own, on its own port under a temporary folder, which the test may stop
 * and start again (the shared server must never be stopped). Password authentication over TCP: user
 * `postgres`, password `secret`. Run as the `postgres` user when the tests run as root (initdb refuses root).
 */
export class PrivatePostgres {
  readonly url: string;
  private readonly dir: string;

  constructor(readonly port: number) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-pg-'));
    this.url = `postgres://postgres:secret@127.0.0.1:${port}/postgres`;
  }

  /** Creates the cluster and starts it. */
  init(): void {
    fs.writeFileSync(path.join(this.dir, 'pw'), 'secret\n');
    fs.mkdirSync(path.join(this.dir, 'data'));
    if (process.getuid?.() === 0) execFileSync('chown', ['-R', 'postgres', this.dir]);
    this.run('initdb', [
      '-D',
      path.join(this.dir, 'data'),
      '-U',
      'postgres',
      '--auth-host=scram-sha-256',
      '--auth-local=trust',
      `--pwfile=${path.join(this.dir, 'pw')}`,
      '--no-sync',
    ]);
    this.start();
  }

  start(): void {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
    this.run('pg_ctl', [
      '-D',
      path.join(this.dir, 'data'),
      '-o',
      options,
      '-l',
      path.join(this.dir, 'log'),
      '-w',
      'start',
    ]);
  }

  /** Stops the server (`fast`: ends every connection, as a crash or restart does to clients). */
  stop(): void {
    this.run('pg_ctl', ['-D', path.join(this.dir, 'data'), '-m', 'fast', '-w', 'stop']);
  }

  /** Stops the server if it runs and removes its folder. */
  destroy(): void {
    try {
      this.stop();
    } catch {
      // not running
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private run(program: string, args: string[]): void {
    const command = path.join(BIN, program);
    if (process.getuid?.() === 0)
      execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' });
    else execFileSync(command, args, { stdio: 'pipe' });
  }
}
