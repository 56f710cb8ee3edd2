import { createRequire } from 'node:module';
import type { DestinationStream, LoggerOptions } from 'pino';
import { coreError } from './errors.ts';
import { loggerAsPino, pinoAsLogger } from './log-adapters.ts';
import { silentLogger, stderrLogger, type Logger } from './logger.ts';
import { isPinoLike, PINO_METHODS, SILENT_LOG, type PinoLike } from './pino-like.ts';

/**
 * pino's options (`logger: { level: 'warn' }`), plus `stream`: where the lines go (default stdout).
 *
 * @example
 * ```ts
 * const options: PinoOptions = { level: 'debug', stream: pino.destination('/var/log/app.log') };
 * ```
 */
export interface PinoOptions extends LoggerOptions {
  /** A pino destination or any writable stream (default: stdout). */
  stream?: DestinationStream | NodeJS.WritableStream;
}

/**
 * What the `logger` configuration key takes: `true` (pino, JSON lines to stdout), pino's
 * options, a pino-compatible logger, a `console`-like object (warnings and errors only, no line
 * per request), or `false` (silence).
 *
 * @example
 * ```ts
 * const option: LoggerOption = { level: 'warn' };
 * ```
 */
export type LoggerOption = boolean | Logger | PinoLike | PinoOptions;

/**
 * How a kernel logs, made from its `logger` option: `logger` for the kernel and plugins
 * (`message, ...details`), `log` for pino-style lines (`request.log`, `kernel.log`), and whether
 * each request gets a line and an `X-Request-Id`.
 *
 * @example
 * ```ts
 * const { log, requests } = loggingFor(true); // pino to stdout; requests === true
 * ```
 */
export interface Logging {
  readonly logger: Logger;
  readonly log: PinoLike;
  readonly requests: boolean;
}

// pino's own option names (pino 10), so that a typo fails at ready() instead of being ignored.
const PINO_OPTION_KEYS = new Set([
  'transport', 'safe', 'name', 'serializers', 'timestamp', 'level', 'customLevels', 'useOnlyCustomLevels',
  'levelComparison', 'mixin', 'mixinMergeStrategy', 'redact', 'levelVal', 'messageKey', 'errorKey', 'nestedKey',
  'enabled', 'browser', 'base', 'formatters', 'msgPrefix', 'hooks', 'depthLimit', 'edgeLimit', 'onChild', 'crlf',
  'stream',
]);
const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
// Any of these on an object says it is meant as a logger rather than as pino's options.
const LOGGER_SIGNS = ['info', 'warn', 'error', 'debug', 'child', 'fatal', 'trace'];

/**
 * Checks a `logger` option and throws `HICKORY_ERR_LOGGER_METHODS` (an object meant as a logger
 * that lacks a method), `HICKORY_ERR_LOGGER_LEVEL` (a level pino does not know) or
 * `HICKORY_ERR_LOGGER_OPTIONS` (not a logger, nor pino's options). The kernel runs it at `ready()`.
 *
 * @example
 * ```ts
 * checkLoggerOption({ level: 'verbose' }); // throws HICKORY_ERR_LOGGER_LEVEL
 * ```
 */
export function checkLoggerOption(option: unknown): void {
  if (option === undefined || typeof option === 'boolean') return;
  if (typeof option !== 'object' || option === null || Array.isArray(option)) {
    throw coreError('HICKORY_ERR_LOGGER_OPTIONS', describeValue(option), 'true, false, pino options such as { level: "warn" }, or a logger object');
  }
  const fields = option as Record<string, unknown>;
  if (LOGGER_SIGNS.some((name) => fields[name] !== undefined)) {
    const needed = typeof fields['child'] === 'function' ? PINO_METHODS : (['info', 'warn', 'error'] as const);
    const missing = needed.filter((name) => typeof fields[name] !== 'function');
    if (missing.length > 0) throw coreError('HICKORY_ERR_LOGGER_METHODS', missing.map((name) => `${name}()`).join(', '));
    return;
  }
  for (const key of Object.keys(fields)) {
    if (!PINO_OPTION_KEYS.has(key)) throw coreError('HICKORY_ERR_LOGGER_OPTIONS', `an object with the key "${key}"`, `pino's options (${[...PINO_OPTION_KEYS].join(', ')}), or a logger object`);
  }
  const level = fields['level'];
  if (level === undefined) return;
  const custom = typeof fields['customLevels'] === 'object' && fields['customLevels'] !== null ? Object.keys(fields['customLevels']) : [];
  const known = [...LEVELS, ...custom];
  if (typeof level !== 'string' || !known.includes(level)) throw coreError('HICKORY_ERR_LOGGER_LEVEL', describeValue(level), known.join(', '));
}

/**
 * The {@link Logging} for a `logger` option (left out: warnings and errors to stderr). Throws
 * as {@link checkLoggerOption} does, and `HICKORY_ERR_LOGGER_PINO` when pino refuses its options.
 *
 * @example
 * ```ts
 * const { logger } = loggingFor(console); // console's warn/error, no line per request
 * ```
 */
export function loggingFor(option: unknown): Logging {
  checkLoggerOption(option);
  if (option === false) return { logger: silentLogger, log: SILENT_LOG, requests: false };
  if (option === undefined) return { logger: stderrLogger, log: loggerAsPino(stderrLogger), requests: false };
  if (isPinoLike(option)) return { logger: pinoAsLogger(option), log: option, requests: true };
  if (typeof option === 'object' && option !== null && typeof (option as Logger).info === 'function') {
    return { logger: option as Logger, log: loggerAsPino(option as Logger), requests: false };
  }
  const log = makePino(option === true ? {} : (option as PinoOptions));
  return { logger: pinoAsLogger(log), log, requests: true };
}

// pino is loaded only by apps that log through it: the others do not pay for its start-up.
const load = createRequire(import.meta.url);

function makePino(options: PinoOptions): PinoLike {
  const { stream, ...rest } = options;
  try {
    const pino = load('pino') as typeof import('pino').default;
    return stream === undefined ? pino(rest) : pino(rest, stream as DestinationStream);
  } catch (error) {
    throw coreError('HICKORY_ERR_LOGGER_PINO', (error as Error)?.message ?? String(error), error);
  }
}

function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : typeof value === 'function' ? 'a function' : String(value);
}
