import { expose, wraps } from '@hickory/dispatch';
import { refuseLegacyDecorator } from '@hickory/dispatch/kit';
import { websocketError } from './errors.ts';

// Keyed by the method itself (as dispatch keeps its exposures): the handler a lookup calls is the
// one decorated, so other method decorators keyed by it (`@rate_limit`) still apply.
const marked = new WeakSet<Function>();

/**
 * Makes a controller method a WebSocket endpoint: reached by the same object-dispatch walk as any
 * exposed method (so `secure`, `SecureController`, `_lookup`, `_route` and `on_route` hooks apply
 * before the upgrade), it is called once the connection is upgraded, with the socket (a `ws`
 * `WebSocket`; with `use_context_locals: false`, `(request, socket)`). `websocketPlugin` must be in
 * use. A request without `Upgrade: websocket` is answered 426. Plain JavaScript:
 * `websocket()(function chat(socket) { … })`.
 *
 * @example
 * ```ts
 * class Root {
 *   @websocket() echo(socket: WebSocket) {
 *     socket.on('message', (data, binary) => socket.send(data, { binary }));
 *   }
 * }
 * ```
 */
export function websocket(): <F extends (...args: any[]) => unknown>(value: F, context?: ClassMethodDecoratorContext) => F {
  return (value, context) => {
    refuseLegacyDecorator('websocket', value, context);
    if (typeof value !== 'function') throw websocketError('HICKORY_ERR_WEBSOCKET_DECORATOR', `was applied to ${typeof value}, not a method`);
    if (context !== undefined && context.kind !== 'method') throw websocketError('HICKORY_ERR_WEBSOCKET_DECORATOR', `was applied to a ${String((context as { kind?: unknown }).kind)}`);
    // The plugin passes the socket itself: argument mapping must see no parameter to fill (a
    // `socket` it cannot find would be a 400 as soon as a `before` hook prepares the call), nor let
    // `/echo/anything` reach `echo(socket)` as a path argument. Two parameters, both supplied: with
    // `use_context_locals: false` the handler declares `(request, socket)`, as explicit mode asks.
    const name = context === undefined ? value.name : String(context.name);
    const standIn = { [name]: function (_request: unknown, _socket: unknown) {} }[name]!;
    wraps(standIn, { supplies: ['_request', '_socket'] })(value as (...args: unknown[]) => unknown);
    expose()(value, context);
    marked.add(value);
    return value;
  };
}

/**
 * True when `handler` was marked by {@link websocket}.
 *
 * @example
 * ```ts
 * isWebsocketHandler(Root.prototype.echo); // true
 * ```
 */
export function isWebsocketHandler(handler: Function | undefined): boolean {
  return handler !== undefined && marked.has(handler);
}
