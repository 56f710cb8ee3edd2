import type { HickoryError } from '@hickory/core';
import { tableError } from '@hickory/core/kit';

/**
 * The error table of `@hickory/hooks`: each mistake in declaring hooks or transactions has one
 * stable code. Configuration mistakes surface at `ready()`, decorator mistakes where the
 * decorator is applied.
 *
 * @example
 * ```ts
 * HOOKS_ERRORS.HICKORY_ERR_HOOKS_CONFIG; // the message template
 * ```
 */
export const HOOKS_ERRORS = Object.freeze({
  HICKORY_ERR_HOOKS_LIST:
    'Hooks must be given as a list of hooks (instances of Hook, or objects with on_route, before, after or on_error methods, and a finite priority when they have one): %s.',
  HICKORY_ERR_HOOKS_DECORATOR:
    '@hooks(...) %s: use it on a controller class, with hooks as arguments: @hooks(new TimingHook()) class Admin { … }.',
  HICKORY_ERR_HOOKS_TRANSACTION_ARGS:
    'TransactionHook needs the functions start, start_ro, commit, rollback and clear: %s.',
  HICKORY_ERR_HOOKS_NO_TRANSACTION:
    'No transaction is open for %s: transaction() is answered from the TransactionHook\'s `before` (once routing, the checks and the body are done) until the response is final. Is the hook in force for this route (the `hooks` configuration or @hooks on a controller above it)? In explicit mode (use_context_locals: false), pass the request: transaction(request).',
  HICKORY_ERR_HOOKS_TRANSACTION_ENDED:
    'The transaction of %s has ended: its request was answered (past handler_timeout, its client left, or its response is final and the transaction is being committed or rolled back), so it is handed out no more. Work a handler does after that reaches neither the client nor the data; a streamed body is read after the transaction ended: read what it needs before returning (see docs/hooks.md, "When a transaction ends").',
  HICKORY_ERR_HOOKS_TRANSACTION_DECORATOR:
    '@%s %s: use @transactional() (or @transactional({ ignore_redirects: false })) on a controller class or method, and @after_commit(fn) / @after_rollback(fn) on a method, with a function.',
  HICKORY_ERR_HOOKS_SECURE_ARGS:
    '%s (secure: @secure(check) on a class or method, secure(controller, check) for a child; unlocked(controller) or @unlocked to open a part again).',
  HICKORY_ERR_HOOKS_SECURE_CHECK:
    'The permission check "%s" names no method of %s: define it on the controller (or as a static method of its class), or pass the function itself.',
  HICKORY_ERR_HOOKS_VIEWER_OPTIONS:
    'RequestViewerHook: %s.',
} as const);

/** A code of {@link HOOKS_ERRORS}. */
export type HooksErrorCode = keyof typeof HOOKS_ERRORS;

/**
 * Builds a coded error of this package, filling `%s` in order.
 *
 * @example
 * ```ts
 * throw hooksError('HICKORY_ERR_HOOKS_CONFIG', 0, 'a string');
 * ```
 */
export function hooksError(code: HooksErrorCode, ...args: unknown[]): HickoryError {
  return tableError(HOOKS_ERRORS, code, ...args);
}
