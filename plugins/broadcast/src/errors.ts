import type { HickoryError } from '@hickory/core';
import { tableError } from '@hickory/core/kit';

/** The error table of `@hickory/broadcast`. */
export const BROADCAST_ERRORS = Object.freeze({
  HICKORY_ERR_BROADCAST_CHANNEL: 'Broadcast channel %s is not a channel name: use lower-case letters, digits and _ (a PostgreSQL identifier of at most 63 characters, such as "books").',
  HICKORY_ERR_BROADCAST_MESSAGE: 'A message on channel "%s" %s.',
  HICKORY_ERR_BROADCAST_CLOSED: 'The broadcast is closed: %s.',
} as const);

/** A code of {@link BROADCAST_ERRORS}. */
export type BroadcastErrorCode = keyof typeof BROADCAST_ERRORS;

/**
 * Builds a coded error of this package.
 *
 * @example
 * ```ts
 * throw broadcastError('HICKORY_ERR_BROADCAST_CHANNEL', JSON.stringify('Books!'));
 * ```
 */
export function broadcastError(code: BroadcastErrorCode, ...args: unknown[]): HickoryError {
  return tableError(BROADCAST_ERRORS, code, ...args);
}
