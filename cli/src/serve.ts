import cluster from 'node:cluster';
import { createServer, type AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { readFile } from 'node:fs/promises';
import type { Kernel, ListenOptions, Logger, LoggerOption } from '@hickory/core';
import { cliError, oneLine } from './errors.ts';
import { listenOn, loadApp } from './load-app.ts';
import { guardProcess } from './process-guard.ts';
import { consoleLogger } from './request-log.ts';
import { serveLogger } from './serve-logger.ts';
import { superviseWorkers, WORKER_PORT_ENV, type WorkerMessage } from './workers.ts';

/** Options of `hickory serve`. */
export interface ServeOptions {
  /** Path of the config file (`.js`, `.mjs`, `.ts`, `.json`). */
  config: string;
  /** Overrides `server.port` of the config file (0 picks a free port). */
  port?: number;
  /** Overrides `server.host` of the config file. */
  host?: string;
  /**
   * Worker processes to run with `node:cluster`, supervised by this one (a worker that dies is
   * replaced; 1 is one supervised worker). Not given: one per core in production, else the app is
   * served from this very process.
   */
  workers?: number;
  /** `--tls-key`/`--tls-cert`: PEM files of the private key and its certificate (HTTPS). */
  tlsKey?: string;
  tlsCert?: string;
  /** `--http2`: HTTP/2 over TLS, HTTP/1.1 for clients that do not offer it. */
  http2?: boolean;
  /**
   * Where the lifecycle lines go (signals, workers; default: the console). Given, it is also the
   * app's logger, with the `requestLog` plugin; not given, the app logs through pino
   * ({@link serveLogger}) unless its config file sets `logger`.
   */
  logger?: Logger;
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
function defaultWorkers(env: NodeJS.ProcessEnv = process.env): number {
  return env.NODE_ENV === 'production' ? availableParallelism() : 1;
}

/**
 * `hickory serve`: loads the config file, serves the app, prints `hickory serving <url>`, logs a
 * line per request (pino JSON on stdout, pretty in a terminal) and shuts down gracefully on SIGINT/SIGTERM (in-flight requests finish, then
 * the process exits 0). A rejection or exception nothing handled is logged and never ends the
 * server (see `guardProcess`). With workers this process loads the app once to check it, then
 * supervises them: a worker that dies is replaced, and a signal stops them all gracefully.
 * Problems are thrown as one-line errors naming the file or the address.
 *
 * @example
 * ```ts
 * await serve({ config: 'sandbox/config.ts', workers: 2 });
 * ```
 */
export async function serve(options: ServeOptions): Promise<void> {
  const logger = options.logger ?? consoleLogger;
  const appLogger = options.logger ?? serveLogger();
  if (cluster.isWorker) return serveWorker(options, logger, appLogger);
  const workers = options.workers ?? defaultWorkers();
  if (options.workers !== undefined || workers > 1) {
    // Fail fast with one line, rather than once per worker.
    const { app, server } = await loadApp(options.config, false);
    await app.close();
    const host = options.host ?? server.host;
    const port = options.port ?? server.port;
    superviseWorkers(workers, port === 0 ? await freePort(host) : port, logger);
    return;
  }
  const { app, server } = await loadApp(options.config, appLogger);
  guardProcess(app, logger, 'keep-serving');
  // Before the URL is printed: whoever reads it may signal at once.
  closeOnSignals(app, logger);
  const { url } = await listenOn(app, options.host ?? server.host, options.port ?? server.port, await transport(options));
  console.log(`hickory serving ${url}`);
  process.send?.({ hickory: 'listening', url } satisfies WorkerMessage);
}

async function serveWorker(options: ServeOptions, logger: Logger, appLogger: LoggerOption): Promise<void> {
  try {
    const { app, server } = await loadApp(options.config, appLogger);
    guardProcess(app, logger, 'replace');
    closeOnSignals(app, logger);
    const port = Number(process.env[WORKER_PORT_ENV] ?? options.port ?? server.port);
    const { url } = await listenOn(app, options.host ?? server.host, port, await transport(options));
    process.send?.({ hickory: 'listening', url } satisfies WorkerMessage);
  } catch (error) {
    // The primary prints it once and stops the others, rather than every worker printing it.
    const message = oneLine((error as Error).message);
    process.send?.({ hickory: 'failed', message } satisfies WorkerMessage, () => process.exit(1));
  }
}

// `listen()`'s TLS and HTTP/2 options from the files `--tls-key`/`--tls-cert` name.
async function transport(options: ServeOptions): Promise<Pick<ListenOptions, 'tls' | 'http2'>> {
  if (options.tlsKey === undefined || options.tlsCert === undefined) return {};
  const read = (file: string, what: string): Promise<string> =>
    readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw cliError('HICKORY_ERR_CLI_TLS', what, file, error.code ?? error.message);
    });
  const [key, cert] = await Promise.all([read(options.tlsKey, '--tls-key'), read(options.tlsCert, '--tls-cert')]);
  return { tls: { key, cert }, http2: options.http2 === true };
}

/**
 * Closes the app gracefully on the first SIGINT or SIGTERM, then exits 0 (1 if closing failed).
 *
 * @example
 * ```ts
 * closeOnSignals(app, consoleLogger);
 * ```
 */
function closeOnSignals(app: Kernel, logger: Logger): void {
  let closing = false;
  const stop = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    logger.info(`${signal}: closing gracefully`);
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('closing failed', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

// A port that is free on `host` now, for workers that must all serve the same one.
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => reject(cliError('HICKORY_ERR_CLI_LISTEN', host, 0, oneLine(error.message))));
    probe.listen(0, host, () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
