import type { Lookup, Request, Response } from '@hickory/core';

/**
 * The {@link Lookup} of an OPTIONS request to a generic method with no OPTIONS handler: 204 with
 * the `Allow` value that select chose. One object and one closure per such request only.
 *
 * @example
 * ```ts
 * return new OptionsLookup(found.fn, 'GET, HEAD, POST, OPTIONS');
 * ```
 */
export class OptionsLookup implements Lookup {
  readonly loadBody = false;
  readonly handle: (request: Request, response: Response) => undefined;
  constructor(
    readonly target: Function,
    allow: string,
  ) {
    this.handle = (_request: Request, response: Response) => answerOptions(response, allow);
  }
}

function answerOptions(response: Response, allow: string): undefined {
  response.status = 204;
  response.headerMap.set('Allow', allow);
  return undefined;
}
