import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '@hickory/core';
import { cliError } from './errors.ts';

/** What a worker (or a `--reload` child) tells its supervisor over IPC. */
export type WorkerMessage =
  | { readonly hickory: 'listening'; readonly url: string }
  | { readonly hickory: 'failed'; readonly message: string };

// Past this, a worker that ignores SIGTERM is killed (the app's own close_timeout is 5 s).
const STOP_DEADLINE_MS = 15_000;

/**
 * The environment variable that tells every worker the port to serve: the supervisor picks a free
 * one when the configured port is 0, so that a replacement serves the URL that was announced.
 */
export const WORKER_PORT_ENV = 'HICKORY_WORKER_PORT';

/**
 * Runs `count` workers with `node:cluster` (each re-runs this command and serves the app on `port`), prints
 * `hickory serving <url> (<count> workers)` once all listen, replaces a worker that dies (and logs
 * `worker <pid> serving` when its replacement listens), and on
 * SIGINT/SIGTERM stops them all gracefully and exits 0. A worker that fails before it serves
 * stops everything with one line on stderr and exit code 1, rather than restarting forever.
 *
 * @example
 * ```ts
 * if (cluster.isPrimary) superviseWorkers(4, 8080, consoleLogger);
 * ```
 */
export function superviseWorkers(count: number, port: number, logger: Logger): void {
  const served = new Set<number>();
  let announced = false;
  let stopping = false;
  let exitCode = 0;

  const fork = (): Worker => {
    const worker = cluster.fork({ [WORKER_PORT_ENV]: String(port) });
    worker.on('message', (message: WorkerMessage) => {
      if (message?.hickory === 'listening') {
        served.add(worker.id);
        if (announced) logger.info(`worker ${worker.process.pid} serving`);
        else if (served.size >= count) {
          announced = true;
          console.log(`hickory serving ${message.url} (${count} workers)`);
          process.send?.(message);
        }
      } else if (message?.hickory === 'failed') {
        fail(message.message);
      }
    });
    return worker;
  };

  const alive = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead());

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal}: stopping ${alive().length} workers gracefully`);
    if (alive().length === 0) process.exit(exitCode);
    for (const worker of alive()) worker.process.kill('SIGTERM');
    setTimeout(() => {
      for (const worker of alive()) worker.process.kill('SIGKILL');
    }, STOP_DEADLINE_MS).unref();
  };

  const fail = (message: string) => {
    if (stopping) return;
    console.error(`hickory: ${message}`);
    exitCode = 1;
    stop('SIGTERM');
  };

  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (code !== 0 && code !== null && exitCode === 0) exitCode = 1;
      if (alive().length === 0) process.exit(exitCode);
      return;
    }
    const how = signal ?? `exit code ${code}`;
    if (!served.has(worker.id)) return fail(cliError('HICKORY_ERR_CLI_WORKER', worker.process.pid, how).message);
    served.delete(worker.id);
    logger.error(`worker ${worker.process.pid} died (${how}); starting another`);
    fork();
  });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  for (let i = 0; i < count; i++) fork();
}
