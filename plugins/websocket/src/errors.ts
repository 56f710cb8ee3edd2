import type { HickoryError } from '@hickory/core';
import { tableError } from '@hickory/core/kit';

/** The error table of `@hickory/websocket`: setup mistakes, thrown at `@websocket()` or `ready()`. */
export const WEBSOCKET_ERRORS = Object.freeze({
  HICKORY_ERR_WEBSOCKET_OPTION: 'websocketPlugin option "%s" %s.',
  HICKORY_ERR_WEBSOCKET_DECORATOR: '@websocket() %s: it marks a public instance method, as @expose does (plain JavaScript: websocket()(function chat(socket) { … })).',
} as const);

/** A code of {@link WEBSOCKET_ERRORS}. */
export type WebsocketErrorCode = keyof typeof WEBSOCKET_ERRORS;

/**
 * Builds a coded error of this package.
 *
 * @example
 * ```ts
 * throw websocketError('HICKORY_ERR_WEBSOCKET_OPTION', 'maxPayload', 'must be a positive integer (bytes)');
 * ```
 */
export function websocketError(code: WebsocketErrorCode, ...args: unknown[]): HickoryError {
  return tableError(WEBSOCKET_ERRORS, code, ...args);
}
