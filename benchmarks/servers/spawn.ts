// Starts a framework's server in its own process and waits for the port it reports.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { RouteName } from '../routes.ts';
import { serverFile } from './built.ts';
import type { Framework } from './server.ts';

/** A running server child. */
export interface ServerProcess {
  framework: Framework;
  port: number;
  pid: number;
  skipped: Partial<Record<RouteName, string>>;
  /** The file `@hickory/core` resolved to in the child: `…/core/dist/index.js` when built, `…/core/src/index.ts` under the source condition. */
  core: string;
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
  /** A file of `servers/` the child preloads (`app`: the variant made by createApp), by name without extension. */
  preload?: string;
  /**
   * Run the compiled server (benchmarks/dist, importing the packages' `dist/`, as users run
   * them; `buildServers()` makes it) instead of the TypeScript sources under tsx with the
   * `source` condition.
   */
  built?: boolean;
}

/**
 * Spawns `servers/child.ts` for one framework, under tsx with the `source` condition (or its
 * compiled twin with `built`). `pid` is the process the command started: the wrapper's, when
 * there is one (valgrind runs the program in its own process; `taskset` becomes it).
 *
 * @example
 * ```ts
 * const server = await startServer('fastify');
 * await fetch(`http://127.0.0.1:${server.port}/hello`);
 * await server.stop();
 * ```
 */
export async function startServer(framework: Framework, options: StartOptions = {}): Promise<ServerProcess> {
  const { timeoutMs = 30_000, wrapper = [], nodeArgs = [], node = process.execPath, preload, built = false } = options;
  const loader = built ? [] : ['--conditions=source', '--import', 'tsx'];
  const preloads = preload === undefined ? [] : ['--import', serverFile(preload, built)];
  const args = [...loader, ...preloads, ...nodeArgs, serverFile('child', built), framework];
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
  const { port, skipped, core } = JSON.parse(line) as Pick<ServerProcess, 'port' | 'skipped' | 'core'>;
  return {
    framework,
    port,
    pid: child.pid!,
    skipped,
    core,
    async stop(graceMs = 5000) {
      if (child.exitCode !== null) return;
      child.stdin!.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
