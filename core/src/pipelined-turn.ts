import type { IncomingMessage, ServerResponse } from 'node:http';

// On a connection's socket while requests are pipelined on it: the response of the latest one,
// queued behind the response being written. Cleared when it gets the socket, so that an idle
// connection keeps no response (nor what its listeners hold) alive.
const QUEUED = Symbol('hickory.queuedResponse');

type Connection = NonNullable<IncomingMessage['socket']> & { [QUEUED]?: ServerResponse; _httpMessage?: ServerResponse | null };

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
  if (res.socket != null || socket == null) return serve(req, res);
  // The response just before this one: the latest queued, or the one Node is writing now.
  const ahead = socket[QUEUED] ?? socket._httpMessage ?? undefined;
  socket[QUEUED] = res;
  const ready = ahead === undefined || ahead.writableEnded;
  // No 'close' listener: a connection that closes first never hands its socket over, and the
  // waiting response goes away with it (a listener per queued request would pile up on the socket).
  res.once('socket', () => {
    if (socket[QUEUED] === res) socket[QUEUED] = undefined;
    // Node hands the socket over inside the previous response's 'finish': serve once that is done.
    if (!ready) queueMicrotask(() => serve(req, res));
  });
  if (ready && !(ahead !== undefined && closesConnection(ahead))) serve(req, res);
  return undefined;
}

// Node marks the last response of a connection (`Connection: close` from the app or the client,
// HTTP/1.0 without keep-alive) in `_last`; the header is read too, should that field ever change.
function closesConnection(res: ServerResponse): boolean {
  if ((res as ServerResponse & { _last?: unknown })._last === true) return true;
  const value = res.getHeader('connection');
  return typeof value === 'string' && /(^|[\s,])close($|[\s,])/i.test(value);
}
