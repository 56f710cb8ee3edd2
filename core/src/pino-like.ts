/**
 * One level's method of a pino-compatible logger: a message, or an object of fields and then a
 * message (pino's order).
 *
 * @example
 * ```ts
 * const info: LogMethod = (...args: unknown[]) => console.log(...args);
 * info({ bookId: 7 }, 'book added');
 * ```
 */
export interface LogMethod {
  (message: string, ...args: unknown[]): void;
  (fields: object, message?: string, ...args: unknown[]): void;
}

/**
 * A pino-compatible logger: pino itself, or anything with its level methods and `child()`.
 * `request.log` and `kernel.log` are of this type.
 *
 * @example
 * ```ts
 * import pino from 'pino';
 * const log: PinoLike = pino();
 * log.child({ reqId: 'a1' }).info({ bookId: 7 }, 'book added');
 * ```
 */
export interface PinoLike {
  fatal?: LogMethod;
  error: LogMethod;
  warn: LogMethod;
  info: LogMethod;
  debug: LogMethod;
  trace?: LogMethod;
  /** A logger that adds `bindings` to every line it writes. */
  child(bindings: Record<string, unknown>): PinoLike;
  /** pino's: whether a line of this level would be written now. */
  isLevelEnabled?(level: string): boolean;
}

/**
 * The methods that make an object a pino-compatible logger (see {@link isPinoLike}).
 *
 * @example
 * ```ts
 * const missing = PINO_METHODS.filter((name) => typeof candidate[name] !== 'function');
 * ```
 */
export const PINO_METHODS = Object.freeze(['info', 'warn', 'error', 'debug', 'child'] as const);

/**
 * True when `value` has pino's `info`, `warn`, `error`, `debug` and `child` methods.
 *
 * @example
 * ```ts
 * isPinoLike(pino()); // true
 * isPinoLike(console); // false: no child()
 * ```
 */
export function isPinoLike(value: unknown): value is PinoLike {
  if (typeof value !== 'object' || value === null) return false;
  for (const name of PINO_METHODS) if (typeof (value as Record<string, unknown>)[name] !== 'function') return false;
  return true;
}

const drop = (): void => {};

/**
 * A pino-compatible logger that writes nothing (`logger: false`); its children are itself, so a
 * request reading `request.log` builds nothing.
 *
 * @example
 * ```ts
 * SILENT_LOG.child({ reqId: 'a1' }) === SILENT_LOG; // true
 * ```
 */
export const SILENT_LOG: PinoLike = Object.freeze({
  fatal: drop,
  error: drop,
  warn: drop,
  info: drop,
  debug: drop,
  trace: drop,
  child: () => SILENT_LOG,
  isLevelEnabled: () => false,
});
