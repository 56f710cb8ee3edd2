import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { loadConfig, type Kernel } from '@hickory/core';
import { createApp } from './create-app.ts';
import { consoleLogger, requestLog } from './request-log.ts';

/** Options of `hickory serve`. */
export interface ServeOptions {
  /** Path of the config file (`.js`, `.mjs`, `.ts`, `.json`). */
  config: string;
  /** Overrides `server.port` of the config file. */
  port?: number;
  /** Overrides `server.host` of the config file. */
  host?: string;
  /** Processes to run with `node:cluster`; 1 serves from this process. */
  workers?: number;
}

/**
 * The number of workers when `--workers` is not given: one per core in production
 * (`NODE_ENV=production`), else a single process.
 *
 * @example
 * ```ts
 * defaultWorkers({ NODE_ENV: 'production' }); // e.g. 2 on a two-core machine
 * ```
 */
export function defaultWorkers(env: NodeJS.ProcessEnv = process.env): number {
  return env.NODE_ENV === 'production' ? availableParallelism() : 1;
}

/**
 * `hickory serve`: loads the config file, serves the app, logs a line per request and shuts down
 * gracefully on SIGINT/SIGTERM. With several workers, this process supervises them: a worker that
 * dies is replaced, and a signal stops them all gracefully.
 *
 * @example
 * ```ts
 * await serve({ config: 'sandbox/config.ts', workers: 2 });
 * ```
 */
export async function serve(options: ServeOptions): Promise<void> {
  const workers = options.workers ?? defaultWorkers();
  if (workers > 1 && cluster.isPrimary) {
    // Load once here so that a broken config fails fast, before any worker starts.
    const { server } = await loadConfig(options.config);
    superviseWorkers(workers, options.host ?? server.host);
    return;
  }
  await serveHere(options);
}

async function serveHere(options: ServeOptions): Promise<Kernel> {
  const { server, app: config } = await loadConfig(options.config);
  const app = createApp({ logger: consoleLogger, ...config }).use(requestLog);
  await app.ready();
  const { url } = await app.listen({ port: options.port ?? server.port, host: options.host ?? server.host });
  if (cluster.isWorker) process.send?.({ hickory: 'listening', url });
  else console.log(`hickory serving ${url}`);
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    consoleLogger.info(`${signal}: closing gracefully`);
    app.close().then(
      () => process.exit(0),
      (error) => {
        consoleLogger.error('close failed', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  return app;
}

function superviseWorkers(count: number, host: string): void {
  let stopping = false;
  let announced = false;
  const start = () => {
    const worker = cluster.fork();
    worker.on('message', (message: { hickory?: string; url?: string }) => {
      if (message?.hickory === 'listening' && !announced) {
        announced = true;
        console.log(`hickory serving ${message.url} (${count} workers, host ${host})`);
      }
    });
  };
  for (let i = 0; i < count; i++) start();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    consoleLogger.error(`worker ${worker.process.pid} died (${signal ?? code}); starting another`);
    start();
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    consoleLogger.info(`${signal}: stopping ${count} workers gracefully`);
    const alive = Object.values(cluster.workers ?? {});
    if (alive.length === 0) process.exit(0);
    for (const worker of alive) worker?.process.kill('SIGTERM');
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
