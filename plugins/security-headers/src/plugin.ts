import { definePlugin, type Request, type Response } from '@hickory/core';
import { tapDirect } from '@hickory/core/kit';
import { headerTable, type HeaderTable, type SecurityHeadersOptions } from './options.ts';

// A header table of our own rather than `helmet` itself: helmet is Express middleware that sets
// headers on Node's response as a request arrives, so the responses Hickory builds later (error
// pages, 404s, static files, a `Response` a handler returns) would not all carry them, and HSTS
// could not follow `request.scheme` (which honours `trust_proxy`). The values and option names are
// helmet 8.3.0's; every value is made once, at `use()`.

/**
 * Security headers on every response (errors, 404 and static files included): helmet 8's defaults
 * — `Content-Security-Policy` (helmet's directives, merged with yours), `Cross-Origin-Opener-Policy`,
 * `Cross-Origin-Resource-Policy`, `Origin-Agent-Cluster`, `Referrer-Policy`,
 * `Strict-Transport-Security` (only when `request.scheme` is `https`), `X-Content-Type-Options`,
 * `X-DNS-Prefetch-Control`, `X-Download-Options`, `X-Frame-Options`,
 * `X-Permitted-Cross-Domain-Policies`, `X-XSS-Protection: 0` — and `X-Powered-By` removed. Each is
 * configurable or `false`; a header the handler set itself is kept (a page that needs its own CSP).
 *
 * @example
 * ```ts
 * createKernel({ root }).use(dispatchPlugin).use(securityHeadersPlugin, { contentSecurityPolicy: { directives: { imgSrc: ["'self'", 'https:'] } } });
 * ```
 */
export const securityHeadersPlugin = definePlugin<SecurityHeadersOptions | undefined>({
  name: 'security-headers',
  apply(kernel, options) {
    const table = headerTable(options);
    tapDirect(kernel.hooks.beforeSend, 'security-headers', (request, response) => addHeaders(table, request, response));
  },
});

function addHeaders(table: HeaderTable, request: Request, response: Response): undefined {
  const headers = response.headerMap;
  for (const { key, name, value } of table.always) if (!headers.hasKey(key)) headers.setKnown(key, name, value);
  const { hsts, csp } = table;
  if (hsts !== undefined && request.scheme === 'https' && !headers.hasKey(hsts.key)) headers.setKnown(hsts.key, hsts.name, hsts.value);
  if (csp !== undefined && !headers.hasKey(csp.key)) {
    if (typeof csp.value === 'string') headers.setKnown(csp.key, csp.name, csp.value);
    // Made per request by the app's functions: checked like any header a handler sets.
    else headers.set(csp.name, csp.value(request, response));
  }
  if (table.removePoweredBy) headers.delete('x-powered-by');
  return undefined;
}
