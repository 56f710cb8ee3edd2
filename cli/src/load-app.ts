import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { HickoryError, loadConfig, type Kernel, type ListenOptions, type LoggerOption, type ServerConfig } from '@hickory/core';
import { createApp } from '@hickory/app';
import { cliError, oneLine } from './errors.ts';
import { requestLog } from './request-log.ts';

/** An app built from a config file, ready to listen. */
export interface LoadedApp {
  /** The absolute path of the config file. */
  readonly file: string;
  /** The config file's `server` section. */
  readonly server: ServerConfig;
  /** The app (`createApp`, plus the request log when its logger does not write one itself), after `ready()`. */
  readonly app: Kernel;
}

/**
 * The absolute path of a config file that exists; otherwise `HICKORY_ERR_CLI_CONFIG` naming it.
 *
 * @example
 * ```ts
 * configFile('sandbox/config.ts'); // '/work/hickory/sandbox/config.ts'
 * ```
 */
export function configFile(path: string): string {
  const file = resolve(path);
  if (!existsSync(file)) throw cliError('HICKORY_ERR_CLI_CONFIG', file, 'no such file');
  if (!statSync(file).isFile()) throw cliError('HICKORY_ERR_CLI_CONFIG', file, 'it is not a file');
  return file;
}

/**
 * Loads a config file and builds its app with every plugin, then runs `ready()`. `logger` is the
 * app's logger unless the config file sets one; a logger that writes no line per request itself
 * (a `console`-like one) gets the `requestLog` plugin. Any problem (no file, a syntax error, an
 * unknown key, a bad value, a root that does not load) is thrown as one line naming the file.
 *
 * @example
 * ```ts
 * const { app, server } = await loadApp('sandbox/config.ts', serveLogger());
 * await app.listen(server);
 * ```
 */
export async function loadApp(path: string, logger: LoggerOption): Promise<LoadedApp> {
  const file = configFile(path);
  let server: ServerConfig;
  let app: Kernel;
  try {
    const loaded = await loadConfig(file);
    server = loaded.server;
    app = createApp({ logger, ...loaded.app });
    if (!app.logsRequests) app.use(requestLog);
    await app.ready();
  } catch (error) {
    throw describe(file, error);
  }
  return { file, server, app };
}

function describe(file: string, error: unknown): HickoryError {
  const message = oneLine(error instanceof Error ? error.message : String(error));
  // The core's own error already names the file; anything else gets the file added.
  if (error instanceof HickoryError && error.code === 'HICKORY_ERR_CONFIG_FILE') {
    return new HickoryError(error.code, message, { cause: error });
  }
  const wrapped = cliError('HICKORY_ERR_CLI_CONFIG', file, message);
  wrapped.cause = error;
  return wrapped;
}

/**
 * Listens as `hickory serve` does, turning a failure (address in use, no such address) into one
 * line naming the address.
 *
 * @example
 * ```ts
 * const { url } = await listenOn(app, '127.0.0.1', 8080);
 * ```
 */
export async function listenOn(app: Kernel, host: string, port: number, transport: Pick<ListenOptions, 'tls' | 'http2'> = {}): Promise<{ url: string }> {
  try {
    return await app.listen({ host, port, ...transport });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EADDRINUSE' ? 'the address is in use' : code === 'EADDRNOTAVAIL' ? 'no such address here' : (error as Error).message;
    throw cliError('HICKORY_ERR_CLI_LISTEN', host, port, oneLine(why));
  }
}
