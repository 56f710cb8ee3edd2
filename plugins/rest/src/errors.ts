import type { HickoryError } from '@hickory/core';
import { tableError } from '@hickory/core/kit';

/**
 * The error table of `@hickory/rest`: every mistake in declaring a `RestController` has one
 * stable code here. They surface at `ready()` for controllers reachable from the root, and when
 * a controller is first routed otherwise (one made by a `_lookup`).
 *
 * @example
 * ```ts
 * REST_ERRORS.HICKORY_ERR_REST_ACTION_METHOD; // the message template
 * ```
 */
export const REST_ERRORS = Object.freeze({
  HICKORY_ERR_REST_ACTIONS_SHAPE:
    '%s._custom_actions must be an object mapping an action name to a list of HTTP methods, e.g. static _custom_actions = { checkout: [\'POST\'] } (got %s).',
  HICKORY_ERR_REST_ACTION_NAME:
    '%s._custom_actions: %s cannot be an action segment: %s.',
  HICKORY_ERR_REST_ACTION_VERBS:
    '%s._custom_actions["%s"] must be a non-empty list of HTTP methods, e.g. [\'POST\'] (got %s).',
  HICKORY_ERR_REST_ACTION_VERB:
    '%s._custom_actions["%s"]: %s is not an HTTP method: use methods such as GET, POST, PUT, PATCH or DELETE.',
  HICKORY_ERR_REST_ACTION_METHOD:
    '%s._custom_actions names "%s", but no exposed method answers it for %s: define %s() or %s() and mark it with @expose(), or map a segment that is not an identifier with route("%s", fn).',
} as const);

/** A code of {@link REST_ERRORS}. */
export type RestErrorCode = keyof typeof REST_ERRORS;

/**
 * Builds a coded error of this package, filling `%s` in order.
 *
 * @example
 * ```ts
 * throw restError('HICKORY_ERR_REST_ACTION_METHOD', 'Books', 'checkout', 'checkout');
 * ```
 */
export function restError(code: RestErrorCode, ...args: unknown[]): HickoryError {
  return tableError(REST_ERRORS, code, ...args);
}
