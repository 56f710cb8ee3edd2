import type { HickoryError } from '@hickory/core';
import { tableError } from '@hickory/core/kit';

/**
 * The error table of `hickory` (the command and `createProject`): each mistake a user can make on
 * the command line has one stable code. The command prints the message as one line and exits 1.
 *
 * @example
 * ```ts
 * CLI_ERRORS.HICKORY_ERR_CLI_EXISTS; // the message template
 * ```
 */
export const CLI_ERRORS = Object.freeze({
  HICKORY_ERR_CLI_USAGE: '%s (see hickory --help)',
  HICKORY_ERR_CLI_CONFIG: 'Cannot serve the configuration file %s: %s',
  HICKORY_ERR_CLI_LISTEN: 'Cannot listen on %s port %s: %s',
  HICKORY_ERR_CLI_TLS: '%s %s cannot be read (%s): give the PEM file of the private key (--tls-key) and of its certificate (--tls-cert).',
  HICKORY_ERR_CLI_WORKER: 'Worker %s stopped before it served (%s): stopping; the lines above say why',
  HICKORY_ERR_CLI_EXISTS: '%s already exists: choose a new folder name',
  HICKORY_ERR_CLI_TEMPLATE: 'Unknown template "%s": choose %s',
} as const);

/** A code of {@link CLI_ERRORS}. */
export type CliErrorCode = keyof typeof CLI_ERRORS;

/**
 * Builds a coded error of this package, filling `%s` in order.
 *
 * @example
 * ```ts
 * throw cliError('HICKORY_ERR_CLI_EXISTS', '/srv/my-app');
 * ```
 */
export function cliError(code: CliErrorCode, ...args: unknown[]): HickoryError {
  return tableError(CLI_ERRORS, code, ...args);
}

/**
 * Folds a message onto one line (tools such as esbuild report over several), so that the
 * command's error is always exactly one line on stderr.
 *
 * @example
 * ```ts
 * oneLine('Transform failed with 1 error:\n  x.ts:2:0: ERROR: Expected "}"'); // 'Transform failed with 1 error: x.ts:2:0: ...'
 * ```
 */
export function oneLine(message: string): string {
  return message.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}
