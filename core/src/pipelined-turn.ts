import type { IncomingMessage, ServerResponse } from 'node:http';

// On each connection's socket: the response to the latest request received on it, so that a
// request pipelined behind it can tell whether that one is done and keeps the connection open.
const LATEST = Symbol('hickory.latestResponse');

type Connection = NonNullable<IncomingMessage['socket']> & { [LATEST]?: ServerResponse };

/**
 * Serves a request, unless the client pipelined it behind a response that closes the connection:
 * that request will never be answered, so its handler must not run (it could change data for
 * nobody). Node queues a pipelined request's response (it has no socket yet) behind the one
 * before it:
 * - when that one is written already (a synchronous handler), the request is served at once —
 *   or never, if that response closes the connection (`Connection: close`);
 * - when that one is still under way, the request waits until the connection passes to it, and
 *   is never served if the connection closes first.
 * A request that is not pipelined (its response has the socket) is served at once.
 *
 * @example
 * ```ts
 * server.on('request', (req, res) => whenItsTurn(req, res, serve));
 * ```
 */
export function whenItsTurn(req: IncomingMessage, res: ServerResponse, serve: (req: IncomingMessage, res: ServerResponse) => void): void {
  const socket = req.socket as Connection | null | undefined;
  if (socket == null) return serve(req, res);
  const ahead = socket[LATEST];
  socket[LATEST] = res;
  if (res.socket != null || ahead === undefined) return serve(req, res);
  if (ahead.writableEnded) return closesConnection(ahead) ? undefined : serve(req, res);
  // No 'close' listener: a connection that closes first never hands its socket over, and the
  // waiting response goes away with it (a listener per queued request would pile up on the socket).
  res.once('socket', () => {
    // Node hands the socket over inside the previous response's 'finish': serve once that is done.
    queueMicrotask(() => serve(req, res));
  });
  return undefined;
}

// Node marks the last response of a connection (`Connection: close` from the app or the client,
// HTTP/1.0 without keep-alive) in `_last`; the header is read too, should that field ever change.
function closesConnection(res: ServerResponse): boolean {
  if ((res as ServerResponse & { _last?: unknown })._last === true) return true;
  const value = res.getHeader('connection');
  return typeof value === 'string' && /(^|[\s,])close($|[\s,])/i.test(value);
}
