import type { HickoryError } from '@hickory/core';
import { tableError } from '@hickory/core/kit';

/** The error table of `@hickory/session`: setup mistakes (thrown at `use()`, store creation or `ready()`) and misuse. */
export const SESSION_ERRORS = Object.freeze({
  HICKORY_ERR_SESSION_OPTION: 'sessionPlugin option "%s" %s.',
  HICKORY_ERR_SESSION_SECRET:
    'sessionPlugin needs `secret`: a string of at least 32 characters, or a non-empty list of them (the first signs, all verify: put a new secret first to rotate keys). Got %s. Generate one with `node -e "console.log(crypto.randomBytes(32).toString(\'base64url\'))"` and keep it out of the code.',
  HICKORY_ERR_SESSION_STORE: 'The session store option "%s" %s.',
  HICKORY_ERR_SESSION_UNAVAILABLE:
    'request.session is not available for %s: sessions are loaded before routing by sessionPlugin (a beforeRoute tap: a request a plugin used before it answered, such as a static file, has none). Read it in a guard, a hook, a handler or a later tap, and check that the app uses sessionPlugin from @hickory/session.',
  HICKORY_ERR_SESSION_STORE_TIMEOUT: 'The session store did not answer %s within %s ms: check the database, or raise `timeout` in sqlStore(db, { timeout }).',
} as const);

/** A code of {@link SESSION_ERRORS}. */
export type SessionErrorCode = keyof typeof SESSION_ERRORS;

/**
 * Builds a coded error of this package.
 *
 * @example
 * ```ts
 * throw sessionError('HICKORY_ERR_SESSION_OPTION', 'cookie.maxAge', 'must be a whole number of seconds above 0');
 * ```
 */
export function sessionError(code: SessionErrorCode, ...args: unknown[]): HickoryError {
  return tableError(SESSION_ERRORS, code, ...args);
}
