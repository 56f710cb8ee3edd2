// Starts a framework's server in its own process and waits for the port it reports.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import type { RouteName } from '../routes.ts';
import type { Framework } from './server.ts';

const CHILD = fileURLToPath(new URL('./child.ts', import.meta.url));

/** A running server child. */
export interface ServerProcess {
  framework: Framework;
  port: number;
  pid: number;
  skipped: Partial<Record<RouteName, string>>;
  /** Closes the child's stdin (it closes its server and exits) and waits for it; kills it after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

/** How a server child is started, beyond the defaults. */
export interface StartOptions {
  /** How long to wait for the port (ms). */
  timeoutMs?: number;
  /** A command the child runs under, with its arguments (`['valgrind', '--tool=callgrind']`). */
  wrapper?: readonly string[];
  /** More Node options for the child, before the script (`['--import', './preload.ts']`). */
  nodeArgs?: readonly string[];
  /** The Node binary the child runs on (default: this process's). */
  node?: string;
}

/**
 * Spawns `servers/child.ts` for one framework with the same loader flags as this process.
 * `pid` is the process the command started: the wrapper's, when there is one (valgrind runs the
 * program in its own process).
 *
 * @example
 * ```ts
 * const server = await startServer('fastify');
 * await fetch(`http://127.0.0.1:${server.port}/hello`);
 * await server.stop();
 * ```
 */
export async function startServer(framework: Framework, options: StartOptions = {}): Promise<ServerProcess> {
  const { timeoutMs = 30_000, wrapper = [], nodeArgs = [], node = process.execPath } = options;
  const args = ['--conditions=source', '--import', 'tsx', ...nodeArgs, CHILD, framework];
  const [command, ...prefix] = wrapper.length > 0 ? [...wrapper, node] : [node];
  const child = spawn(command!, [...prefix, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${framework}: no port reported within ${timeoutMs} ms`)), timeoutMs);
    createInterface({ input: child.stdout! }).once('line', (text) => {
      clearTimeout(timer);
      resolve(text);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${framework}: the server process exited with code ${code} before reporting its port`));
    });
  }).catch((error: unknown) => {
    child.kill();
    throw error;
  });
  const { port, skipped } = JSON.parse(line) as { port: number; skipped: ServerProcess['skipped'] };
  return {
    framework,
    port,
    pid: child.pid!,
    skipped,
    async stop(graceMs = 5000) {
      if (child.exitCode !== null) return;
      child.stdin!.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
