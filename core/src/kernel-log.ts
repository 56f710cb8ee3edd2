import { loggerAsPino, pinoAsLogger } from './log-adapters.ts';
import { guardLogger, type Logger } from './logger.ts';
import { loggingFor, type Logging } from './logger-option.ts';
import { isPinoLike, SILENT_LOG, type PinoLike } from './pino-like.ts';
import type { Request } from './request.ts';
import { RequestLogging } from './request-logging.ts';

/**
 * Where a kernel logs, in both faces: `logger` (`logger.error(message, ...details)`, guarded so
 * that logging never throws) and `log` (pino-style). Made from the `logger` option when the
 * kernel is made; a mistaken option is kept in `error` for `ready()` to report, with the default
 * logger in force until then.
 *
 * @example
 * ```ts
 * const log = new KernelLog(true); // pino to stdout, a line per request
 * log.logger.error('failed', error);
 * ```
 */
export class KernelLog {
  /** The guarded `message, ...details` logger. */
  logger: Logger;
  /** The pino-style face: pino itself when the app logs through pino, else a face over `logger`. */
  log: PinoLike;
  /** True when the kernel writes a line per request and sends the request id back. */
  readonly requests: boolean;
  /** What was wrong with the `logger` option, if anything (reported by `ready()`). */
  readonly error: unknown;

  constructor(option: unknown) {
    let logging: Logging;
    let error: unknown;
    try {
      logging = loggingFor(option);
    } catch (refused) {
      error = refused;
      logging = loggingFor(undefined);
    }
    this.logger = guardLogger(logging.logger);
    this.log = logging.log;
    this.requests = logging.requests;
    this.error = error;
  }

  /** Replaces the logger (either kind); the line per request stays as configured. */
  replace(logger: Logger | PinoLike): void {
    const pino = isPinoLike(logger);
    this.logger = guardLogger(pino ? pinoAsLogger(logger) : logger);
    this.log = pino ? logger : loggerAsPino(this.logger);
  }

  /**
   * `request.log`: a child of `log` bound to the request id. A logger whose `child()` fails
   * leaves the request a silent one rather than failing it.
   */
  readonly forRequest = (request: Request): PinoLike => {
    try {
      return this.log.child({ reqId: request.id });
    } catch (error) {
      this.logger.error("the logger's child() failed; request.log writes nothing for this request", error);
      return SILENT_LOG;
    }
  };

  /**
   * The line per request and the id header (`request_id_header`, `false`: none) when requests are
   * logged; `undefined` otherwise, so that the pipeline pays nothing for it.
   */
  requestLogging(requestIdHeader: string | false): RequestLogging | undefined {
    if (!this.requests) return undefined;
    return new RequestLogging(() => this.log, requestIdHeader === false ? undefined : headerName(requestIdHeader));
  }
}

// `x-request-id` → `X-Request-Id`, as headers are usually written.
function headerName(lowerCase: string): string {
  return lowerCase.replace(/(^|-)([a-z])/g, (_all, dash: string, letter: string) => dash + letter.toUpperCase());
}
