import type { Request } from '@hickory/core';

// Go's safe methods: always allowed (an application must change nothing on them).
const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Why `request` is a cross-origin browser request to refuse, or `undefined` when it is allowed:
 * the algorithm of Go 1.25's `http.CrossOriginProtection`. GET, HEAD and OPTIONS are allowed.
 * `Sec-Fetch-Site` first (every browser since 2023 sends it): `same-origin` or `none` (the user
 * typed the address, a bookmark) is allowed, any other value (`cross-site`, `same-site`) refused
 * unless the `Origin` is trusted. Without it, an `Origin` whose host is the request's own host
 * (`request.host`: behind trusted proxies the forwarded one) is allowed, another refused unless
 * trusted; with neither header the request is not a browser's cross-origin one (curl, a server), allowed.
 *
 * @example
 * ```ts
 * refusalOf(request, new Set()); // 'Sec-Fetch-Site: cross-site'
 * ```
 */
export function refusalOf(request: Request, trusted: ReadonlySet<string>): string | undefined {
  if (SAFE_METHODS.has(request.method)) return undefined;
  const headers = request.raw.headers;
  const site = headers['sec-fetch-site'];
  const origin = headers.origin;
  if (site !== undefined && site !== '') {
    if (site === 'same-origin' || site === 'none') return undefined;
    return origin !== undefined && trusted.has(origin) ? undefined : `Sec-Fetch-Site: ${site}`;
  }
  if (origin === undefined || origin === '') return undefined;
  if (sameHost(origin, request.host) || trusted.has(origin)) return undefined;
  return `Origin: ${origin}`;
}

// As Go compares `Origin`'s host with `Host`: the scheme is not compared (an HTTP page posting to
// the HTTPS site passes, as with Go; HSTS closes that door). The port is, its default left out.
function sameHost(origin: string, host: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // `null` (a sandboxed frame, a file) is no host
  }
  const own = host.toLowerCase();
  if (url.host === own) return true;
  const defaultPort = url.protocol === 'https:' ? ':443' : url.protocol === 'http:' ? ':80' : undefined;
  return defaultPort !== undefined && `${url.host}${defaultPort}` === own;
}
