/**
 * Socket-level helpers of the kernel: answers written straight to Node's `ServerResponse`
 * (no hooks, no error documents) and the watch behind `onResponse`'s `completed`.
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { writeDefaultError } from './error-body.ts';
import { HTTPError } from './http-error.ts';
import { Response } from './response.ts';

/**
 * Resolves once the response was handed to the socket (`true`, on `'finish'`) or the connection
 * went away first (`false`). Call it when the request starts, so that no event is missed. The
 * connection's own `'close'` counts too: a pipelined response queued behind one that closed the
 * connection never gets a socket, so it would hear neither `'finish'` nor `'close'`.
 *
 * @example
 * ```ts
 * const completed = await responseOutcome(res); // false: the client left first
 * ```
 */
export function responseOutcome(res: ServerResponse): Promise<boolean> {
  // Asked once the response may already be written: then the answer is known.
  if (res.writableFinished) return Promise.resolve(true);
  const connection = res.req?.socket;
  if (res.destroyed || connection?.destroyed) return Promise.resolve(false);
  return new Promise((done) => {
    let leaveConnection: (() => void) | undefined;
    const settle = (completed: boolean) => () => {
      res.off('finish', onFinish);
      res.off('close', onClose);
      leaveConnection?.();
      done(completed || res.writableFinished);
    };
    const onFinish = settle(true);
    const onClose = settle(false);
    res.once('finish', onFinish);
    res.once('close', onClose);
    if (connection) leaveConnection = whenConnectionCloses(connection, onClose);
  });
}

// One 'close' listener per connection, however many pipelined responses wait on it: a listener
// each would pass Node's limit of ten (a "possible memory leak" warning) on a busy connection.
const waitingOn = new WeakMap<Socket, Set<() => void>>();

function whenConnectionCloses(connection: Socket, callback: () => void): () => void {
  let waiting = waitingOn.get(connection);
  if (waiting === undefined) {
    const callbacks = new Set<() => void>();
    waiting = callbacks;
    waitingOn.set(connection, callbacks);
    connection.once('close', () => {
      waitingOn.delete(connection);
      for (const waiter of callbacks) waiter();
    });
  }
  const callbacks = waiting;
  callbacks.add(callback);
  return () => callbacks.delete(callback);
}

/**
 * A last-resort plain-text answer that closes the connection: for requests that arrive while
 * the kernel is closing, or when the request objects cannot even be built.
 *
 * @example
 * ```ts
 * refuse(res, 500, 'Internal Server Error');
 * ```
 */
function refuse(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, STATUS_CODES[status], { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
  res.end(body);
}

/**
 * The last resort once building or writing a response failed: the default 500 error body (HTML or
 * JSON, as the client prefers) with `Connection: close`, or a destroyed connection when the head
 * is already out. Whatever an earlier, failed `writeHead` left behind (its reason phrase, its
 * headers) is dropped first, so the status line always reads `500 Internal Server Error`.
 * Never throws.
 *
 * @example
 * ```ts
 * answerInternalError(res);
 * ```
 */
export function answerInternalError(res: ServerResponse): void {
  try {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    const response = new Response();
    writeDefaultError(new HTTPError(500), res.req, response);
    const body = response.body as string;
    res.writeHead(500, STATUS_CODES[500], {
      'Content-Type': response.headerMap.get('content-type') as string,
      'Content-Length': Buffer.byteLength(body),
      Connection: 'close',
    });
    res.end(res.req.method === 'HEAD' ? undefined : body);
  } catch {
    res.destroy();
  }
}

/**
 * The 503 for a request that arrives on an open connection while `close()` runs.
 *
 * @example
 * ```ts
 * if (closing) return refuseWhileClosing(res);
 * ```
 */
export function refuseWhileClosing(res: ServerResponse): void {
  refuse(res, 503, 'The server is shutting down.');
}
