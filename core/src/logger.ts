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
