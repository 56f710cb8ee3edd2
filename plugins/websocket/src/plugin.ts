import { definePlugin, HTTPError, type Kernel, type Lookup, type Request, type Response } from '@hickory/core';
import { acceptUpgrades, checkOptionNames, isThenable, takeUpgrade, tapDirect } from '@hickory/core/kit';
import { dispatchPlugin } from '@hickory/dispatch';
import { annotateRoutes, handlerCallOf, type HandlerCall } from '@hickory/dispatch/kit';
import { WebSocketServer, type WebSocket } from 'ws';
import { isWebsocketHandler } from './decorator.ts';
import { guardedSocketClass } from './guarded-socket.ts';
import { handshakeRefusal, isWebsocketUpgrade } from './handshake.ts';
import { Keepalive } from './keepalive.ts';
import { checkOptions, normalOrigin, type Settings, type WebsocketOptions } from './options.ts';

// Close codes (RFC 6455 §7.4.1).
const GOING_AWAY = 1001;
const INTERNAL_ERROR = 1011;

/**
 * WebSockets on `ws`, routed by object dispatch: an upgrade request walks the tree like any GET
 * (host check, `on_route` hooks, guards such as `secure`, `afterLookup` taps, `before` hooks), and
 * only when it reaches a `@websocket()` method is the connection upgraded and the method called
 * with the socket. Anything that refuses it on the way is answered with its HTTP status, never
 * upgraded; so is a cross-site `Origin` (403) and a request that is no WebSocket handshake (426).
 * Messages over `maxPayload` close the socket (1009); ping/pong drops dead peers; `app.close()`
 * closes every socket with 1001 at once, and terminates what has not closed within
 * `close_timeout`. Sockets come from servers started by `listen()` (`hickory serve` too).
 *
 * @example
 * ```ts
 * createApp({ root: new Root(), plugins: [[websocketPlugin, { allowedOrigins: ['https://app.example.com'] }]] });
 * ```
 */
export const websocketPlugin = definePlugin<WebsocketOptions | undefined>({
  name: 'websocket',
  dependencies: [dispatchPlugin],
  apply(kernel, options) {
    checkOptionNames('websocket', options, ['maxPayload', 'allowedOrigins', 'pingInterval']);
    const settings = checkOptions(options);
    const failed = (socket: WebSocket, error: unknown): void => {
      kernel.logger.error('websocket: a handler failed; the socket is closed with 1011', error);
      if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close(INTERNAL_ERROR);
    };
    const wss = new WebSocketServer({ noServer: true, maxPayload: settings.maxPayload, WebSocket: guardedSocketClass(failed) });
    const keepalive = new Keepalive(wss.clients, settings.pingInterval);
    // Started here, outside any request: a timer made inside one would keep its context alive.
    kernel.hooks.ready.tap('websocket', () => keepalive.start());
    closeWithTheApp(kernel, wss, keepalive);
    // The servers listen() starts hand this plugin WebSocket handshakes; other requests with an
    // Upgrade header (h2c) are served as plain requests where Node allows it (core's upgrade.ts).
    acceptUpgrades(kernel, isWebsocketUpgrade);

    // After the other plugins' taps (the hooks plugin's `before` hooks are at stage 0): every
    // check and hook has said yes when the connection is upgraded.
    tapDirect(
      kernel.hooks.beforeHandle,
      'websocket',
      (lookup: Lookup, request: Request, response: Response) => {
        const call = handlerCallOf(lookup);
        if (call === undefined || !isWebsocketHandler(call.handler)) return undefined;
        const refusal = handshakeRefusal(request) ?? originRefusal(request, settings);
        if (refusal !== undefined) throw refusal;
        if (kernel.closingSignal.aborted) throw new HTTPError(503, 'The server is shutting down.');
        const taken = takeUpgrade(request);
        if (taken === undefined) throw new HTTPError(426, 'This connection cannot be upgraded to a WebSocket (use HTTP/1.1).', { Upgrade: 'websocket' });
        // For after hooks, onResponse taps and the request log: the answer was the 101.
        response.status = 101;
        wss.handleUpgrade(request.raw, taken.socket, taken.head, (socket) => {
          socket.on('error', peerError(kernel, request.path));
          keepalive.watch(socket);
          if (kernel.closingSignal.aborted) socket.close(GOING_AWAY);
          else callHandler(call, request, socket, failed);
        });
        return response;
      },
      { stage: 10 },
    );
  },
});

// Protocol errors (a message over maxPayload: 1009) are the peer's; ws closes the socket. Made
// out here: a closure made inside the tap would share its scope, and so keep the request (and its
// response) alive as long as the socket lives.
function peerError(kernel: Kernel, path: string): (error: Error) => void {
  return (error) => kernel.logger.info(`websocket ${path}: ${error.message}`);
}

// The handler runs inside the upgrade request's context: `request` is importable while it runs
// (not in listeners it adds, which run as messages come).
function callHandler(call: HandlerCall, request: Request, socket: WebSocket, failed: (socket: WebSocket, error: unknown) => void): void {
  try {
    const value: unknown = call.handler.apply(call.controller, request.use_context_locals ? [socket] : [request, socket]);
    if (isThenable(value)) Promise.resolve(value).catch((error: unknown) => failed(socket, error));
  } catch (error) {
    failed(socket, error);
  }
}

function originRefusal(request: Request, settings: Settings): HTTPError | undefined {
  const origin = request.headers['origin'];
  // Not a browser: nothing a page's cookies could be abused by.
  if (origin === undefined) return undefined;
  if (typeof origin !== 'string') return new HTTPError(400, 'More than one Origin header.');
  const allowed = settings.allowed === undefined ? origin !== 'null' && normalOrigin(origin) === request.host_url : settings.allowed(origin);
  return allowed ? undefined : new HTTPError(403, `Origin ${origin} may not open a WebSocket here (websocketPlugin's allowedOrigins).`);
}

// Closing begins: every socket is told 1001 at once (an open socket would keep `server.close()`
// waiting), and what has not finished closing by `close_timeout` is cut.
function closeWithTheApp(kernel: Kernel, wss: WebSocketServer, keepalive: Keepalive): void {
  kernel.closingSignal.addEventListener(
    'abort',
    () => {
      keepalive.stop();
      for (const socket of wss.clients) socket.close(GOING_AWAY, 'The server is shutting down.');
      if (wss.clients.size === 0) return;
      const cut = setTimeout(() => {
        for (const socket of wss.clients) socket.terminate();
      }, kernel.config.close_timeout ?? 5_000);
      cut.unref();
    },
    { once: true },
  );
}

// In `hickory routes` and `app.routes()`: `websocket: true`.
annotateRoutes((_way, handler) => (isWebsocketHandler(handler) ? { websocket: true } : undefined));
