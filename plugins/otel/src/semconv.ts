// The names of OpenTelemetry's HTTP semantic conventions (stable, semantic-conventions v1.45:
// docs/http/http-spans.md and http-metrics.md), written out rather than imported from
// @opentelemetry/semantic-conventions: the plugin depends on @opentelemetry/api alone.
export const ATTR_HTTP_REQUEST_METHOD = 'http.request.method';
export const ATTR_HTTP_REQUEST_METHOD_ORIGINAL = 'http.request.method_original';
export const ATTR_HTTP_RESPONSE_STATUS_CODE = 'http.response.status_code';
export const ATTR_HTTP_ROUTE = 'http.route';
export const ATTR_URL_PATH = 'url.path';
export const ATTR_URL_SCHEME = 'url.scheme';
export const ATTR_SERVER_ADDRESS = 'server.address';
export const ATTR_SERVER_PORT = 'server.port';
export const ATTR_CLIENT_ADDRESS = 'client.address';
export const ATTR_USER_AGENT_ORIGINAL = 'user_agent.original';
export const ATTR_NETWORK_PROTOCOL_VERSION = 'network.protocol.version';
export const ATTR_ERROR_TYPE = 'error.type';

export const METRIC_HTTP_SERVER_REQUEST_DURATION = 'http.server.request.duration';
/** The boundaries the conventions advise for `http.server.request.duration`, in seconds. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

// The methods of RFC 9110 and PATCH (RFC 5789): any other is `_OTHER`, so that a client cannot
// make a span name or a metric series out of whatever it sends.
const KNOWN_METHODS = new Set(['CONNECT', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'TRACE']);

/**
 * `http.request.method` of a request: the method, or `_OTHER` for one the conventions do not know.
 *
 * @example
 * ```ts
 * knownMethod('GET'); // 'GET'
 * knownMethod('PURGE'); // '_OTHER'
 * ```
 */
export function knownMethod(method: string): string {
  return KNOWN_METHODS.has(method) ? method : '_OTHER';
}

/**
 * The span's name: `{method} {route}`, the method alone without a route, `HTTP` for an unknown one.
 *
 * @example
 * ```ts
 * spanName('GET', '/books/{id}'); // 'GET /books/{id}'
 * ```
 */
export function spanName(method: string, route: string | undefined): string {
  const shown = method === '_OTHER' ? 'HTTP' : method;
  return route === undefined ? shown : `${shown} ${route}`;
}

/**
 * `server.address` and `server.port` from a `host[:port]` (`[::1]:8080` for IPv6).
 *
 * @example
 * ```ts
 * splitHost('books.example:8080'); // { address: 'books.example', port: 8080 }
 * ```
 */
export function splitHost(host: string): { address: string; port: number | undefined } {
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(host);
  if (match === null) return { address: host, port: undefined };
  const address = match[1]!.startsWith('[') ? match[1]!.slice(1, -1) : match[1]!;
  return { address, port: match[2] === undefined ? undefined : Number(match[2]) };
}
