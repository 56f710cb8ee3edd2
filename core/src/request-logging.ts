import type { ServerResponse } from 'node:http';
import type { PinoLike } from './pino-like.ts';
import type { Lookup, Request } from './request.ts';

/**
 * The kernel's line per request and its error lines, for apps that log through pino (the
 * pipeline makes one at `ready()` only then: other apps pay nothing per request). Logging never
 * throws: the response is already decided, a failing logger must not change it.
 *
 * @example
 * ```ts
 * const logging = new RequestLogging(() => kernel.log, 'x-request-id');
 * logging.completed(request, res, started);
 * // {"level":30,"reqId":"9f86d081-1","req":{"method":"GET","url":"/books/"},"res":{"statusCode":200},"responseTime":0.41,"msg":"request completed"}
 * ```
 */
export class RequestLogging {
  constructor(
    private readonly log: () => PinoLike,
    /** The response header that carries the request id back (`undefined`: none). */
    readonly idHeader: string | undefined,
  ) {}

  /** Writes the request's line: id, method, path (no query string: it may hold secrets), status, milliseconds. */
  completed(request: Request, res: ServerResponse, started: number): void {
    try {
      const log = this.log();
      if (log.isLevelEnabled !== undefined && !log.isLevelEnabled('info')) return;
      const raw = request.raw;
      log.info(
        {
          reqId: request.id,
          req: { method: raw.method, url: pathOf(raw.url ?? request.url), remoteAddress: raw.socket?.remoteAddress },
          res: { statusCode: res.statusCode },
          responseTime: performance.now() - started,
        },
        'request completed',
      );
    } catch {
      // See the class comment.
    }
  }

  /** Logs a request's failure with its id, the route found (`Controller.method`) and the error (with its stack, as pino's `err`). */
  failed(request: Request, error: unknown, message: string): void {
    try {
      this.log().error({ reqId: request.id, route: routeOf(request.lookup), err: error }, message);
    } catch {
      // See the class comment.
    }
  }
}

/**
 * A short description of what a lookup found, for logs: `Controller.method` for a controller
 * method, the target's name otherwise, `undefined` when there is nothing to name.
 *
 * @example
 * ```ts
 * routeOf(request.lookup); // 'BooksController.post'
 * ```
 */
export function routeOf(lookup: Lookup | undefined): string | undefined {
  if (lookup === undefined) return undefined;
  try {
    const target: unknown = lookup.target;
    const name = typeof target === 'function' ? target.name || '(anonymous)' : typeof target === 'string' ? target : undefined;
    const controller: unknown = (lookup as { controller?: unknown }).controller;
    const owner = typeof controller === 'object' && controller !== null ? (controller.constructor as { name?: unknown } | undefined)?.name : undefined;
    if (typeof owner === 'string' && owner !== '' && name !== undefined) return `${owner}.${name}`;
    return name;
  } catch {
    // A getter that throws names nothing; the error being logged matters more.
    return undefined;
  }
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
