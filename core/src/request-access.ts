import type { ServerResponse } from 'node:http';
import type { Ending } from './before-end.ts';
import type { CookieSigner } from './cookie-signer.ts';
import type { TrustHop } from './trust-proxy.ts';

// The one way in to a request's private end state (`#serverResponse`, `#ending`, `#cutOff`) and to
// what of its settings is read outside `Request` (its kernel's cookie signer, `trust_proxy`), filled
// by `Request`'s static block: the pipeline and the kit reach them through `request-end.ts`'s
// functions, `RequestHeaders` the settings. None of them is a name of `Request`'s public interface.
// Typed by `object` (a request's identity): naming `Request` here would close an import circle.
interface RequestAccess {
  answerOn(request: object, res: ServerResponse): void;
  closeEnding(request: object): Ending | undefined;
  cutOff(request: object): void;
  ended(request: object): boolean;
  signer(request: object): CookieSigner | undefined;
  trustProxy(request: object): TrustHop | undefined;
}

/**
 * Filled once by `Request`'s static block (core-internal; see {@link RequestAccess}).
 *
 * @example
 * ```ts
 * static { requestAccess.cutOff = (request) => { request.#cutOff = true; }; }
 * ```
 */
export const requestAccess = {} as RequestAccess;
