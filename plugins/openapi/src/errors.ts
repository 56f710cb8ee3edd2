import type { HickoryError } from '@hickory/core';
import { tableError } from '@hickory/core/kit';

/** The error table of `@hickory/openapi`: setup mistakes, thrown when the plugin is used or at `ready()`. */
export const OPENAPI_ERRORS = Object.freeze({
  HICKORY_ERR_OPENAPI_OPTION: 'openapiPlugin option "%s" %s.',
  HICKORY_ERR_OPENAPI_UI_FILES: 'The interactive page needs the swagger-ui-dist package, which could not be read (%s): install it (npm install swagger-ui-dist) or pass { ui: false }.',
} as const);

/** A code of {@link OPENAPI_ERRORS}. */
export type OpenapiErrorCode = keyof typeof OPENAPI_ERRORS;

/**
 * Builds a coded error of this package.
 *
 * @example
 * ```ts
 * throw openapiError('HICKORY_ERR_OPENAPI_OPTION', 'json', 'must be a path such as "/openapi.json"');
 * ```
 */
export function openapiError(code: OpenapiErrorCode, ...args: unknown[]): HickoryError {
  return tableError(OPENAPI_ERRORS, code, ...args);
}
