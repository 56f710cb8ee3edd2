import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { ResolvedConfig } from './config.ts';

/**
 * A `node:http` server for the listener with the configured `headers_timeout`, `request_timeout`
 * and `keep_alive_timeout`, checked often enough to be enforced even when short.
 *
 * @example
 * ```ts
 * createHttpServer(kernel.config, kernel.callback()).listen(8080, '127.0.0.1');
 * ```
 */
export function createHttpServer(config: ResolvedConfig, listener: (req: IncomingMessage, res: ServerResponse) => void): Server {
  // Node checks both timeouts only every `connectionsCheckingInterval` (30 s by default), so a
  // short headers_timeout would not be enforced: check at a quarter of the shorter one (≤ 1 s).
  const checkEvery = Math.max(10, Math.min(1_000, Math.floor(Math.min(config.headers_timeout, config.request_timeout) / 4)));
  return createServer(
    {
      headersTimeout: config.headers_timeout,
      requestTimeout: config.request_timeout,
      keepAliveTimeout: config.keep_alive_timeout,
      connectionsCheckingInterval: checkEvery,
    },
    listener,
  );
}
