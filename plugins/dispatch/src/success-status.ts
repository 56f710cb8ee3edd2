import { exposureRecord } from './exposure.ts';

/**
 * Why a `status` option (of `expose` or `when`) is refused, or `undefined` when it is a success
 * status (an integer from 200 to 299): what the handler answers when it returns normally.
 *
 * @example
 * ```ts
 * statusOptionProblem(201); // undefined
 * statusOptionProblem(404); // '`status` must be a success status …'
 * ```
 */
export function statusOptionProblem(status: unknown): string | undefined {
  if (status === undefined || (Number.isInteger(status) && (status as number) >= 200 && (status as number) <= 299)) return undefined;
  return '`status` must be a success status from 200 to 299 (errors are answered with abort(), redirects with redirect())';
}

/**
 * Records the success status of `fn` (stacked decorators must agree); a conflict's message, or
 * `undefined`.
 *
 * @example
 * ```ts
 * recordStatus(Books.prototype.create, 201); // undefined
 * ```
 */
export function recordStatus(fn: Function, status: number | undefined): string | undefined {
  if (status === undefined) return undefined;
  const record = exposureRecord(fn);
  if (record.status !== undefined && record.status !== status) return `the method already answers ${record.status}: one success status per method`;
  record.status = status;
  return undefined;
}
