import type { IncomingMessage } from 'node:http';
import type { ClientConnection } from './client-connection.ts';

/** The WSGI-style environ of a request: a null-prototype, writable object. */
export type Environ = Record<string, unknown>;

/** What {@link buildEnviron} reads of a request (a `Request` is one). */
export interface EnvironSource {
  readonly raw: IncomingMessage;
  readonly method: string;
  readonly path: string;
  readonly query_string: string;
}

/**
 * Builds the WSGI-style environ of a request: `REQUEST_METHOD`, `SCRIPT_NAME`, `PATH_INFO`,
 * `QUERY_STRING`, `CONTENT_TYPE`, `CONTENT_LENGTH`, `SERVER_NAME`, `SERVER_PORT`,
 * `SERVER_PROTOCOL`, `REMOTE_ADDR`, `REMOTE_PORT`, `wsgi.url_scheme` and one `HTTP_*` key per header.
 * Scheme, host and remote address are the `connection`'s (what trusted proxies reported, with
 * `trust_proxy`), so that they agree with `request.scheme`, `request.host` and `request.remote_addr`.
 *
 * @example
 * ```ts
 * request.environ['HTTP_USER_AGENT'];
 * request.environ['hickory.original_exception']; // set by abort()
 * ```
 */
export function buildEnviron(request: EnvironSource, connection: ClientConnection): Environ {
  const raw = request.raw;
  const env: Environ = Object.create(null);
  env['REQUEST_METHOD'] = request.method;
  env['SCRIPT_NAME'] = '';
  env['PATH_INFO'] = request.path;
  env['QUERY_STRING'] = request.query_string;
  env['CONTENT_TYPE'] = raw.headers['content-type'] ?? '';
  env['CONTENT_LENGTH'] = raw.headers['content-length'] ?? '';
  const [name, port] = serverNameAndPort(raw, connection);
  env['SERVER_NAME'] = name;
  env['SERVER_PORT'] = port;
  env['SERVER_PROTOCOL'] = `HTTP/${raw.httpVersion}`;
  env['REMOTE_ADDR'] = connection.remoteAddr;
  env['REMOTE_PORT'] = connection.remotePort;
  env['wsgi.url_scheme'] = connection.scheme;
  for (const name of Object.keys(raw.headers)) {
    if (name === 'content-type' || name === 'content-length') continue;
    const value = raw.headers[name];
    env[`HTTP_${name.toUpperCase().replace(/-/g, '_')}`] = Array.isArray(value) ? value.join(', ') : value;
  }
  // PEP 3333 rebuilds URLs from HTTP_HOST first: it must name the host the client asked for.
  if (connection.hostForwarded) env['HTTP_HOST'] = connection.host;
  return env;
}

// Without a Host header (HTTP/1.0) the address the socket reached; otherwise the host's parts, and
// when it names no port, the socket's port (direct) or the scheme's default (through a proxy).
function serverNameAndPort(raw: IncomingMessage, connection: ClientConnection): [string, string] {
  const host = connection.hostForwarded || raw.headers.host !== undefined ? connection.host : '';
  const colon = host.lastIndexOf(':');
  if (colon > host.lastIndexOf(']')) return [host.slice(0, colon), host.slice(colon + 1)];
  if (connection.forwarded && host) return [host, connection.scheme === 'https' ? '443' : '80'];
  const socket = raw.socket as IncomingMessage['socket'] | undefined;
  return [host || (socket?.localAddress ?? ''), String(socket?.localPort ?? '')];
}

/**
 * Keeps an environ in step with a rewritten request header (`request.set_header`): `key` is the
 * header's lower-case name, `value` its new value (`undefined`: removed). `CONTENT_TYPE` is always
 * present in an environ, so a removed `Content-Type` leaves it empty rather than absent.
 *
 * @example
 * ```ts
 * rewriteEnvironHeader(request.environ, 'accept', 'application/json'); // HTTP_ACCEPT
 * ```
 */
export function rewriteEnvironHeader(env: Environ, key: string, value: string | undefined): void {
  const envKey = key === 'content-type' ? 'CONTENT_TYPE' : `HTTP_${key.toUpperCase().replace(/-/g, '_')}`;
  if (value === undefined && envKey !== 'CONTENT_TYPE') delete env[envKey];
  else env[envKey] = value ?? '';
}
