import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createSecureServer } from 'node:http2';
import { createServer as createHttpsServer } from 'node:https';
import type { ResolvedConfig } from './config.ts';

/** A certificate and its private key (PEM text or bytes), for `listen({ tls })`. */
export interface TlsOptions {
  readonly key: string | Buffer;
  readonly cert: string | Buffer;
}

/**
 * A `node:http` server for the listener with the configured `headers_timeout`, `request_timeout`
 * and `keep_alive_timeout`, checked often enough to be enforced even when short.
 *
 * @example
 * ```ts
 * createHttpServer(kernel.config, kernel.callback()).listen(8080, '127.0.0.1');
 * ```
 */
export function createHttpServer(config: ResolvedConfig, listener: (req: IncomingMessage, res: ServerResponse) => void, tls?: TlsOptions, http2 = false): Server {
  // Node checks both timeouts only every `connectionsCheckingInterval` (30 s by default), so a
  // short headers_timeout would not be enforced: check at a quarter of the shorter one (≤ 1 s).
  const checkEvery = Math.max(10, Math.min(1_000, Math.floor(Math.min(config.headers_timeout, config.request_timeout) / 4)));
  const timeouts = {
    headersTimeout: config.headers_timeout,
    requestTimeout: config.request_timeout,
    keepAliveTimeout: config.keep_alive_timeout,
    connectionsCheckingInterval: checkEvery,
  };
  if (tls === undefined) return createServer(timeouts, listener);
  if (!http2) return createHttpsServer({ ...timeouts, key: tls.key, cert: tls.cert }, listener) as unknown as Server;
  // HTTP/2 with HTTP/1.1 for clients that do not offer h2 (ALPN). Node's compatibility API gives
  // the listener request/response objects shaped like node:http's; the kernel reads the few
  // places where they differ (`:authority`, a body without Content-Length, connection headers).
  // HTTP/1.1 connections on it get the same timeouts as a plain server.
  const server = createSecureServer({ key: tls.key, cert: tls.cert, allowHTTP1: true, ...timeouts }, listener as unknown as Parameters<typeof createSecureServer>[1]);
  return server as unknown as Server;
}
