import { definePlugin, type Logger } from '@hickory/core';

/**
 * Logs one line per request (`GET /books/ 200 1.2ms`): 4xx as warnings, 5xx as errors. The
 * path is the one the client asked for, without the query string (which may hold secrets).
 *
 * @example
 * ```ts
 * createApp(config).use(requestLog, { logger: consoleLogger });
 * ```
 */
export const requestLog = definePlugin<{ logger?: Logger } | undefined>({
  name: 'hickory-request-log',
  apply(kernel, options) {
    const logger = options?.logger ?? kernel.logger;
    kernel.hooks.onResponse.tap('hickory-request-log', (request, _response, info) => {
      const line = `${request.raw.method ?? request.method} ${requestedPath(request.raw.url ?? request.url)} ${info.status} ${info.duration.toFixed(1)}ms${info.completed ? '' : ' (client left)'}`;
      if (info.status >= 500) logger.error(line);
      else if (info.status >= 400) logger.warn(line);
      else logger.info(line);
    });
  },
});

/**
 * A logger that prints every level, with a timestamp and the process id (for `hickory serve`).
 *
 * @example
 * ```ts
 * consoleLogger.info('listening');
 * ```
 */
export const consoleLogger: Logger = Object.freeze({
  info: (message: string, ...details: unknown[]) => console.log(stamp('info', message), ...details),
  warn: (message: string, ...details: unknown[]) => console.warn(stamp('warn', message), ...details),
  error: (message: string, ...details: unknown[]) => console.error(stamp('error', message), ...details),
});

function requestedPath(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

function stamp(level: string, message: string): string {
  return `${new Date().toISOString()} [${process.pid}] ${level} ${message}`;
}
