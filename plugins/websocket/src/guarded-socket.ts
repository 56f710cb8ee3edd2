import { isThenable } from '@hickory/core/kit';
import { WebSocket } from 'ws';

/**
 * A `ws` `WebSocket` class whose listeners cannot crash the process: what one throws, or the
 * promise an `async` listener rejects with, goes to `failed` (the plugin logs it and closes the
 * socket with 1011) instead of becoming an uncaught exception or an unhandled rejection, which
 * Node's default would turn into the end of every other connection too. A listener that throws
 * stops the others of that event, as `EventEmitter.emit` does. (`ws` builds its sockets from the
 * class given in `WebSocketServer`'s `WebSocket` option; `EventEmitter`'s own `captureRejections`
 * cannot be set through `ws`'s constructor.)
 *
 * @example
 * ```ts
 * const wss = new WebSocketServer({ noServer: true, WebSocket: guardedSocketClass((ws, error) => log(error)) });
 * ```
 */
export function guardedSocketClass(failed: (socket: WebSocket, error: unknown) => void): typeof WebSocket {
  return class GuardedSocket extends WebSocket {
    override emit(event: string | symbol, ...args: unknown[]): boolean {
      // 'error' keeps EventEmitter's own handling: the plugin always listens to it.
      if (event === 'error') return super.emit(event, ...args);
      const listeners = this.rawListeners(event);
      for (const listener of listeners) {
        try {
          const value: unknown = Reflect.apply(listener, this, args);
          if (isThenable(value)) Promise.resolve(value).catch((error: unknown) => failed(this, error));
        } catch (error) {
          failed(this, error);
          break;
        }
      }
      return listeners.length > 0;
    }
  };
}
