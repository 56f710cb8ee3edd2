import { createRequire } from 'node:module';
import type { LoggerOption } from '@hickory/core';

// pino-pretty is loaded only for a terminal: a server whose output is piped never pays for it.
const load = createRequire(import.meta.url);

/**
 * The app's `logger` under `hickory serve` when its config sets none: pino, one JSON line per
 * request on stdout, printed through pino-pretty when stdout is a terminal (piped output stays
 * JSON, for log collectors).
 *
 * @example
 * ```ts
 * createApp({ logger: serveLogger(), ...config.app });
 * ```
 */
export function serveLogger(stdout: { isTTY?: boolean } = process.stdout): LoggerOption {
  if (stdout.isTTY !== true) return true;
  const pretty = load('pino-pretty') as typeof import('pino-pretty');
  return { stream: pretty.build({ colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', sync: true }) };
}
