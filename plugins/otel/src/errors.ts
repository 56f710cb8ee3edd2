import type { HickoryError } from '@hickory/core';
import { tableError } from '@hickory/core/kit';

/** The error table of `@hickory/otel`: setup mistakes, thrown when the plugin is used. */
export const OTEL_ERRORS = Object.freeze({
  HICKORY_ERR_OTEL_OPTION: 'otelPlugin option "%s" %s.',
} as const);

/** A code of {@link OTEL_ERRORS}. */
export type OtelErrorCode = keyof typeof OTEL_ERRORS;

/**
 * Builds a coded error of this package.
 *
 * @example
 * ```ts
 * throw otelError('HICKORY_ERR_OTEL_OPTION', 'tracerProvider', 'must have getTracer()');
 * ```
 */
export function otelError(code: OtelErrorCode, ...args: unknown[]): HickoryError {
  return tableError(OTEL_ERRORS, code, ...args);
}
