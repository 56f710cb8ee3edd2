/**
 * Where the kernel and plugins log: any `console`-like object (pino and friends fit).
 *
 * @example
 * ```ts
 * createKernel({ logger: { info: () => {}, warn: console.warn, error: console.error } });
 * ```
 */
export interface Logger {
  info(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  error(message: string, ...details: unknown[]): void;
}

const noop = () => {};

/** A logger that drops everything (`logger: false`). */
export const silentLogger: Logger = Object.freeze({ info: noop, warn: noop, error: noop });

/**
 * The default logger: warnings and errors to stderr, prefixed with `[hickory]`.
 *
 * @example
 * ```ts
 * stderrLogger.error('template failed', error);
 * ```
 */
export const stderrLogger: Logger = Object.freeze({
  info: noop,
  warn: (message: string, ...details: unknown[]) => console.warn(`[hickory] ${message}`, ...details),
  error: (message: string, ...details: unknown[]) => console.error(`[hickory] ${message}`, ...details),
});

/**
 * Wraps a logger so that logging never throws: an error whose `stack` getter throws, a value
 * `util.inspect` cannot print, or a logger that fails would otherwise turn an error path into an
 * unhandled rejection. What cannot be logged is reduced to the message alone, on stderr.
 *
 * @example
 * ```ts
 * const logger = guardLogger(userLogger);
 * logger.error('failed', weirdThrownValue); // never throws
 * ```
 */
export function guardLogger(logger: Logger): Logger {
  const level =
    (name: keyof Logger) =>
    (message: string, ...details: unknown[]): void => {
      try {
        logger[name](message, ...details);
      } catch {
        try {
          process.stderr.write(`[hickory] ${name}: ${String(message)} (its details could not be logged)\n`);
        } catch {
          // Nowhere left to report it; the caller must go on all the same.
        }
      }
    };
  return Object.freeze({ info: level('info'), warn: level('warn'), error: level('error') });
}
