import type { IncomingMessage } from 'node:http';
import { HTTPError, type Request } from '@hickory/core';

// RFC 6455 §4.1: 16 random bytes, base64-encoded.
const KEY = /^[+/0-9A-Za-z]{22}==$/;

/**
 * Refuses, with its HTTP status, an upgrade `ws` would refuse by writing raw bytes on the socket:
 * here the refusal goes through the kernel (after hooks, error pages, the request log). `undefined`
 * when the request is a WebSocket handshake `ws` accepts.
 *
 * @example
 * ```ts
 * const refusal = handshakeRefusal(request); // an HTTPError(426) for a plain GET
 * ```
 */
export function handshakeRefusal(request: Request): HTTPError | undefined {
  if (!asksForWebsocket(request.headers['upgrade'])) {
    return new HTTPError(426, 'This URL is a WebSocket endpoint: connect with a WebSocket client (Upgrade: websocket).', { Upgrade: 'websocket' });
  }
  if (request.method !== 'GET') return new HTTPError(405, 'A WebSocket handshake is a GET request.', { Allow: 'GET' });
  const version = request.headers['sec-websocket-version'];
  if (version !== '13' && version !== '8') {
    return new HTTPError(426, 'Unsupported Sec-WebSocket-Version: this server speaks version 13 (RFC 6455).', { 'Sec-WebSocket-Version': '13, 8', Upgrade: 'websocket' });
  }
  const key = request.headers['sec-websocket-key'];
  if (typeof key !== 'string' || !KEY.test(key.trim())) return new HTTPError(400, 'Missing or invalid Sec-WebSocket-Key header.');
  return undefined;
}

/**
 * True for the head of a request that may become a WebSocket (a GET with `Upgrade: websocket`):
 * the upgrades this plugin accepts (`acceptUpgrades`). Any other request with an `Upgrade` header
 * (`h2c`, a POST) is served as a plain request where Node lets the server choose; one that reaches a
 * `@websocket()` method is then refused by {@link handshakeRefusal}.
 *
 * @example
 * ```ts
 * acceptUpgrades(kernel, isWebsocketUpgrade);
 * ```
 */
export function isWebsocketUpgrade(req: IncomingMessage): boolean {
  return req.method === 'GET' && asksForWebsocket(req.headers['upgrade']);
}

function asksForWebsocket(upgrade: string | string[] | undefined): boolean {
  return typeof upgrade === 'string' && upgrade.trim().toLowerCase() === 'websocket';
}
