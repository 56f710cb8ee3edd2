import { definePlugin, HTTPError, Response, type Lookup, type Request } from '@hickory/core';
import { tapDirect, writeDefaultError } from '@hickory/core/kit';
import { exposureOf, handlerCallOf } from '@hickory/dispatch/kit';
import { refusalOf } from './cross-origin.ts';
import { trustedOriginsOf, type CsrfOptions } from './options.ts';

/**
 * Cross-site request forgery protection without tokens, as Go 1.25's `CrossOriginProtection`:
 * an unsafe request (any method but GET, HEAD and OPTIONS) that a browser sent from another site
 * (`Sec-Fetch-Site`, else `Origin` against the request's own host) is refused with 403 before its
 * handler, its hooks or its body are touched. `trustedOrigins` are let through; a handler exposed
 * with `@expose({ csrf: false })` is exempt (a webhook). The refusal happens once routing has found
 * the handler (an exemption is a property of the handler), in an `afterLookup` tap; a request that
 * reaches no handler (404, 405) is refused with the same 403, so that another site learns nothing
 * of the routes.
 *
 * @example
 * ```ts
 * createKernel({ root }).use(dispatchPlugin).use(csrfPlugin, { trustedOrigins: ['https://sso.example.com'] });
 * ```
 */
export const csrfPlugin = definePlugin<CsrfOptions | undefined>({
  name: 'csrf',
  apply(kernel, options) {
    const trusted = trustedOriginsOf(options);
    tapDirect(kernel.hooks.afterLookup, 'csrf', (lookup, request) => {
      const refusal = refusalOf(request, trusted);
      if (refusal !== undefined && !exempt(lookup)) throw refused(request, refusal);
      return undefined;
    });
    // No handler was found (no lookup yet): the 404 or 405 of a refused request becomes its 403.
    kernel.hooks.onAbort.tap('csrf', (error, request) => {
      if ((error.status !== 404 && error.status !== 405) || request.lookup !== undefined) return undefined;
      const refusal = refusalOf(request, trusted);
      if (refusal === undefined) return undefined;
      const answer = new Response();
      writeDefaultError(refused(request, refusal), request.raw, answer);
      return answer;
    });
  },
});

function refused(request: Request, refusal: string): HTTPError {
  return new HTTPError(403, `Cross-origin ${request.method} refused (${refusal}): this site accepts such requests only from its own pages.`);
}

// `@expose({ csrf: false })` on the handler, or (for a `when()` handler) on its generic method.
function exempt(lookup: Lookup): boolean {
  const call = handlerCallOf(lookup);
  if (call === undefined) return false;
  const own = exposureOf(call.handler);
  if (own?.csrf !== undefined) return own.csrf === false;
  const generic = own?.when?.target;
  return generic !== undefined && exposureOf(Reflect.get(call.controller, generic))?.csrf === false;
}
