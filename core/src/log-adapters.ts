import type { Logger } from './logger.ts';
import type { LogMethod, PinoLike } from './pino-like.ts';

type Level = 'info' | 'warn' | 'error';

/**
 * The kernel's `Logger` (`logger.error(message, ...details)`, as plugins call it) on top of a
 * pino-compatible logger: an `Error` among the details becomes pino's `err` field (type,
 * message, stack), anything else goes in `details`.
 *
 * @example
 * ```ts
 * const logger = pinoAsLogger(pino());
 * logger.error('template failed', error); // {"level":50,"err":{"type":"Error",…},"msg":"template failed"}
 * ```
 */
export function pinoAsLogger(log: PinoLike): Logger {
  const level =
    (name: Level) =>
    (message: string, ...details: unknown[]): void => {
      if (details.length === 0) log[name](message);
      else log[name](fieldsOf(details), message);
    };
  return Object.freeze({ info: level('info'), warn: level('warn'), error: level('error') });
}

function fieldsOf(details: readonly unknown[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const rest: unknown[] = [];
  for (const detail of details) {
    if (detail instanceof Error && fields['err'] === undefined) fields['err'] = detail;
    else rest.push(detail);
  }
  if (rest.length > 0) fields['details'] = rest;
  return fields;
}

/**
 * A pino-compatible face for a `console`-like logger (one with only `info`, `warn` and `error`),
 * so that `request.log` works whatever the kernel was given: the fields (with the child's
 * bindings) are passed after the message; `debug` and `trace` lines are dropped, `fatal` is an error.
 *
 * @example
 * ```ts
 * loggerAsPino(console).child({ reqId: 'a1' }).info({ bookId: 7 }, 'book added');
 * // console.info('book added', { reqId: 'a1', bookId: 7 })
 * ```
 */
export function loggerAsPino(logger: Logger, bindings: Readonly<Record<string, unknown>> = {}): PinoLike {
  const level =
    (name: Level): LogMethod =>
    (first: unknown, ...rest: unknown[]): void => {
      if (typeof first === 'string') {
        if (Object.keys(bindings).length === 0) logger[name](first, ...rest);
        else logger[name](first, ...rest, bindings);
        return;
      }
      const [message, ...args] = rest;
      if (first instanceof Error) {
        // pino's `log.error(err)`: the error is the detail, its message the line's.
        logger[name](typeof message === 'string' ? message : first.message, first, ...args, ...(Object.keys(bindings).length === 0 ? [] : [bindings]));
        return;
      }
      const fields = typeof first === 'object' && first !== null ? { ...bindings, ...first } : { ...bindings, value: first };
      logger[name](typeof message === 'string' ? message : '', ...args, fields);
    };
  const drop = (): void => {};
  return Object.freeze({
    fatal: level('error'),
    error: level('error'),
    warn: level('warn'),
    info: level('info'),
    debug: drop,
    trace: drop,
    child: (more: Record<string, unknown>) => loggerAsPino(logger, { ...bindings, ...more }),
  });
}
