import type { IncomingMessage } from 'node:http';

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
 *
 * @example
 * ```ts
 * request.environ['HTTP_USER_AGENT'];
 * request.environ['hickory.original_exception']; // set by abort()
 * ```
 */
export function buildEnviron(request: EnvironSource): Environ {
  const raw = request.raw;
  const env: Environ = Object.create(null);
  const socket = raw.socket as (typeof raw.socket & { encrypted?: boolean }) | undefined;
  const host = raw.headers.host ?? '';
  const colon = host.lastIndexOf(':');
  const hasPort = colon > host.lastIndexOf(']');
  env['REQUEST_METHOD'] = request.method;
  env['SCRIPT_NAME'] = '';
  env['PATH_INFO'] = request.path;
  env['QUERY_STRING'] = request.query_string;
  env['CONTENT_TYPE'] = raw.headers['content-type'] ?? '';
  env['CONTENT_LENGTH'] = raw.headers['content-length'] ?? '';
  env['SERVER_NAME'] = hasPort ? host.slice(0, colon) : host || (socket?.localAddress ?? '');
  env['SERVER_PORT'] = hasPort ? host.slice(colon + 1) : String(socket?.localPort ?? '');
  env['SERVER_PROTOCOL'] = `HTTP/${raw.httpVersion}`;
  env['REMOTE_ADDR'] = socket?.remoteAddress ?? '';
  env['REMOTE_PORT'] = String(socket?.remotePort ?? '');
  env['wsgi.url_scheme'] = socket?.encrypted ? 'https' : 'http';
  for (const name of Object.keys(raw.headers)) {
    if (name === 'content-type' || name === 'content-length') continue;
    const value = raw.headers[name];
    env[`HTTP_${name.toUpperCase().replace(/-/g, '_')}`] = Array.isArray(value) ? value.join(', ') : value;
  }
  return env;
}
