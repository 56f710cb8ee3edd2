import { HTTPError, type Response } from '@hickory/core';
import { dropBodyHeaders } from '@hickory/core/kit';
import type { PlainIssue } from './issues.ts';

/**
 * The 400 of a request whose arguments or body a schema rejected. It carries the issues, and its
 * response is always JSON (see {@link invalidInputResponse}).
 *
 * @example
 * ```ts
 * throw new InvalidInput('Invalid argument "id": Expected number', [{ message: 'Expected number', path: ['id'] }]);
 * ```
 */
export class InvalidInput extends HTTPError {
  readonly issues: readonly PlainIssue[];
  constructor(description: string, issues: readonly PlainIssue[]) {
    super(400, description);
    this.name = 'InvalidInput';
    this.issues = issues;
  }

  /** The JSON body: the default error fields and the issues. */
  override toJSON(): { code: number; title: string; description: string; issues: readonly PlainIssue[] } {
    return { ...super.toJSON(), issues: this.issues };
  }
}

/**
 * Writes the response for an {@link InvalidInput} into `response` and returns it (`undefined` for
 * any other error): JSON whatever the client's `Accept` says, as fastify answers validation
 * errors — the issues are data for the client, which the default HTML error page would drop.
 * Headers set before the error (a request id, CORS) are kept, as for any error response.
 *
 * @example
 * ```ts
 * kernel.hooks.onAbort.tap({ name: 'dispatch', stage: 1000 }, (error, _request, response) => invalidInputResponse(error, response));
 * ```
 */
export function invalidInputResponse(error: unknown, response: Response): Response | undefined {
  if (!(error instanceof InvalidInput)) return undefined;
  dropBodyHeaders(response);
  response.status = 400;
  response.headerMap.set('Content-Type', 'application/json; charset=utf-8');
  response.body = JSON.stringify(error);
  return response;
}
