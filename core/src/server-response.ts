/**
 * Socket-level helpers of the kernel: answers written straight to Node's `ServerResponse`
 * (no hooks, no error documents) and the watch behind `onResponse`'s `completed`.
 */
import type { ServerResponse } from 'node:http';

/**
 * Resolves once the response was handed to the socket (`true`, on `'finish'`) or the connection
 * went away first (`false`). Call it when the request starts, so that no event is missed. The
 * connection's own `'close'` counts too: a pipelined response queued behind one that closed the
 * connection never gets a socket, so it would hear neither `'finish'` nor `'close'`.
 *
 * @example
 * ```ts
 * const outcome = responseOutcome(res);
 * await sendResponse(request, response, res, logger);
 * const completed = await outcome;
 * ```
 */
export function responseOutcome(res: ServerResponse): Promise<boolean> {
  const connection = res.req?.socket;
  if (res.destroyed || connection?.destroyed) return Promise.resolve(false);
  return new Promise((done) => {
    const settle = (completed: boolean) => () => {
      res.off('finish', onFinish);
      res.off('close', onClose);
      connection?.off('close', onClose);
      done(completed || res.writableFinished);
    };
    const onFinish = settle(true);
    const onClose = settle(false);
    res.once('finish', onFinish);
    res.once('close', onClose);
    connection?.once('close', onClose);
  });
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
export function refuse(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
  res.end(body);
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
