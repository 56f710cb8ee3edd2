// A throwaway PostgreSQL cluster for one test file: Debian's binaries, `initdb` into a fresh
// temporary folder, a server on a free port of 127.0.0.1 (its unix socket in that folder, never in
// /var/run), one database, and `stop()` that leaves neither a process nor a file behind.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './fixtures/cli/harness.ts';

const run = promisify(execFile);

/** A running throwaway cluster. */
export interface Cluster {
  /** `postgres://postgres@127.0.0.1:<port>/<database>` (trust authentication, loopback only). */
  readonly url: string;
  /** The server's process id (read from `postmaster.pid`). */
  readonly pid: number;
  /** Stops the server (smart, then fast after 3 s: clients still ending may leave first) and removes its folder; safe to call twice. */
  stop(): Promise<void>;
}

/**
 * The folder of Debian's PostgreSQL programs: the newest `/usr/lib/postgresql/<version>/bin`
 * holding an `initdb`, else what `pg_config --bindir` says; `undefined` when there is none.
 *
 * @example
 * ```ts
 * postgresBinaries(); // '/usr/lib/postgresql/15/bin'
 * ```
 */
function postgresBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((name) => /^\d+(\.\d+)?$/.test(name)) : [];
  for (const version of versions.sort((a, b) => Number(b) - Number(a))) {
    const bin = join(root, version, 'bin');
    if (existsSync(join(bin, 'initdb'))) return bin;
  }
  try {
    const bin = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000 }).trim();
    return existsSync(join(bin, 'initdb')) ? bin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why the PostgreSQL tests cannot run here, or `undefined` when they run. With `CI` set a missing
 * PostgreSQL is not a reason to skip: {@link startCluster} fails instead, naming the package.
 *
 * @example
 * ```ts
 * describe('the showcase on PostgreSQL', { skip: postgresSkipReason() }, () => { ... });
 * ```
 */
export function postgresSkipReason(): string | undefined {
  if (postgresBinaries() !== undefined || process.env['CI']) return undefined;
  return 'PostgreSQL is not installed (no initdb under /usr/lib/postgresql/*/bin): PostgreSQL tests skipped (apt-get install postgresql; with CI set they fail instead)';
}

// initdb and pg_ctl refuse to run as root: as root, they run as Debian's `postgres` user.
function asServerUser(bin: string, program: string, args: readonly string[]): [string, string[]] {
  const path = join(bin, program);
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, [...args]];
}

function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((entry) => entry.startsWith('postgres:'));
  if (line === undefined) throw new Error('Running as root, but there is no "postgres" user to run initdb as: apt-get install postgresql creates it.');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

// Every cluster still running, stopped synchronously when the process exits without stop().
const running = new Map<string, () => void>();
let exitHooked = false;

function hookExit(): void {
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', () => {
    for (const stop of running.values()) stop();
  });
}

// A process killed by a signal (a test runner ending a file that overran, SIGKILL) runs no
// handler: a detached watchdog of the cluster's own stops it and removes its folder once this
// process is gone, and ends by itself once the folder is (a stop() that ran).
const WATCHDOG = 'while [ -d "/proc/$1" ] && [ -d "$3" ]; do sleep 0.5; done; if [ -d "$3" ]; then "$2" -D "$3" stop -m immediate -w >/dev/null 2>&1; rm -rf "$4"; fi';

/**
 * Starts a throwaway cluster: `initdb` (trust authentication, UTF-8, no fsync: nothing here must
 * survive a crash) into a new temporary folder, `pg_ctl start` listening on 127.0.0.1 only, then
 * `CREATE DATABASE <database>`. Throws a message naming `apt-get install postgresql` when the
 * programs are missing.
 *
 * @example
 * ```ts
 * const cluster = await startCluster();
 * try { const pool = new pg.Pool({ connectionString: cluster.url }); … } finally { await cluster.stop(); }
 * ```
 */
export async function startCluster(database = 'hickory'): Promise<Cluster> {
  const bin = postgresBinaries();
  if (bin === undefined) throw new Error('PostgreSQL is not installed (no initdb under /usr/lib/postgresql/*/bin, no pg_config): apt-get install postgresql (.ci/run does).');
  if (!/^[a-z_][a-z0-9_]*$/.test(database)) throw new Error(`startCluster: ${JSON.stringify(database)} is not a plain database name.`);
  const dir = await mkdtemp(join(tmpdir(), 'hickory-pg-'));
  const data = join(dir, 'data');
  const log = join(dir, 'server.log');
  const user = serverUser();
  if (user !== undefined) await chown(dir, user.uid, user.gid);
  const ctl = (args: readonly string[]) => asServerUser(bin, 'pg_ctl', ['-D', data, ...args]);
  let started = false;
  const stopNow = () => {
    running.delete(dir);
    if (started) {
      const [command, args] = ctl(['stop', '-m', 'immediate', '-w', '-t', '10']);
      try {
        execFileSync(command, args, { stdio: 'ignore', timeout: 15_000 });
      } catch {
        // Already stopped: nothing left to end.
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  running.set(dir, stopNow);
  hookExit();
  try {
    const [initdb, initArgs] = asServerUser(bin, 'initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']);
    await run(initdb, initArgs, { timeout: 60_000 });
    const [shell, watchArgs] = asServerUser('/bin', 'sh', ['-c', WATCHDOG, 'hickory-pg-watchdog', String(process.pid), join(bin, 'pg_ctl'), data, dir]);
    spawn(shell, watchArgs, { detached: true, stdio: 'ignore' }).unref();
    let port = 0;
    // The port was free a moment ago; another process may take it first: try another, a few times.
    for (let attempt = 1; !started; attempt++) {
      port = await freePort();
      const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100`;
      const [command, args] = ctl(['start', '-w', '-t', '30', '-l', log, '-o', options]);
      try {
        await run(command, args, { timeout: 40_000 });
        started = true;
      } catch (error) {
        if (attempt >= 3) throw new Error(`pg_ctl start failed: ${(error as Error).message}\n${readLog(log)}`);
      }
    }
    const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    await run(join(bin, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', 'postgres', '-v', 'ON_ERROR_STOP=1', '-q', '-c', `CREATE DATABASE ${database}`], { timeout: 20_000 });
    let stopped: Promise<void> | undefined;
    return {
      url: `postgres://postgres@127.0.0.1:${port}/${database}`,
      pid,
      stop: () =>
        (stopped ??= (async () => {
          running.delete(dir);
          // A pool's end() resolves once it has asked its clients to end, not once their sockets
          // are closed: a fast stop racing those goodbyes kills them, and the client's 'error'
          // ("terminating connection due to administrator command") is then uncaught. A smart
          // stop waits for clients to leave; one still connected after 3 s is a leak, ended fast.
          const [smart, smartArgs] = ctl(['stop', '-m', 'smart', '-w', '-t', '3']);
          const [command, args] = ctl(['stop', '-m', 'fast', '-w', '-t', '30']);
          try {
            const gone = await run(smart, smartArgs, { timeout: 10_000 }).then(
              () => true,
              () => false,
            );
            if (!gone) await run(command, args, { timeout: 40_000 });
          } finally {
            await rm(dir, { recursive: true, force: true });
          }
        })()),
    };
  } catch (error) {
    stopNow();
    throw error;
  }
}

function readLog(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
