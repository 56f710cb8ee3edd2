/**
 * `@hickory/websocket`: WebSockets on `ws`, reached by object dispatch. A `@websocket()` method is
 * walked to like any exposed method (guards and hooks first) and called with the socket once the
 * connection is upgraded.
 *
 * @example
 * ```ts
 * import { websocket, websocketPlugin } from '@hickory/websocket';
 * class Root {
 *   @websocket() echo(socket: WebSocket) {
 *     socket.on('message', (data, binary) => socket.send(data, { binary }));
 *   }
 * }
 * createKernel({ root: new Root() }).use(dispatchPlugin).use(websocketPlugin, { maxPayload: 65_536 });
 * ```
 */
export { websocketPlugin } from './plugin.ts';
export { websocket } from './decorator.ts';
export type { WebsocketOptions, AllowedOrigins } from './options.ts';
export { WEBSOCKET_ERRORS, type WebsocketErrorCode } from './errors.ts';
