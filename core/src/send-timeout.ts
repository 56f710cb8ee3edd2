import type { ServerResponse } from 'node:http';
import { constants, type Http2Stream } from 'node:http2';
import type { Logger } from './logger.ts';

/**
 * Destroys a response that makes no write progress for `ms` milliseconds while it has bytes the
 * client has not taken: a client that asked for a large body and reads nothing would otherwise
 * hold its connection (and the body's source) for ever. A stream that is only quiet (an event
 * stream between events: nothing waiting to be sent) is never cut. The connection's idle timer is what measures it — every chunk the client takes resets it —
 * armed only while this response is being written, so a slow handler before it or an idle
 * keep-alive after it is never cut by it. Destroying the response destroys a streamed source too.
 *
 * @example
 * ```ts
 * if (streaming || res.writableNeedDrain) watchSendProgress(res, 30_000, logger, 'GET /big');
 * ```
 */
export function watchSendProgress(res: ServerResponse, ms: number, logger: Logger, what: string): void {
  const stream = (res as ServerResponse & { stream?: Http2Stream }).stream;
  if (stream !== undefined) return watchStream(stream, ms, logger, what);
  const socket = res.socket;
  if (socket === null || typeof socket.setTimeout !== 'function' || res.writableFinished) return;
  const stalled = (): void => {
    // Nothing waiting to be taken: the stream is quiet (an event stream between events), not
    // stalled. Only a client that leaves bytes untaken is cut.
    if (res.writableLength === 0 && !res.writableNeedDrain) {
      res.setTimeout(ms);
      return;
    }
    logger.warn(`${what}: the client took nothing for send_timeout (${ms} ms); the connection is closed`);
    res.destroy();
  };
  const done = (): void => {
    res.off('timeout', stalled);
    socket.setTimeout(0);
  };
  res.setTimeout(ms, stalled);
  res.once('finish', done);
  res.once('close', done);
}

// HTTP/2: one stream of a connection many share, so the stream's own timer, never the socket's.
function watchStream(stream: Http2Stream, ms: number, logger: Logger, what: string): void {
  if (stream.closed) return;
  const stalled = (): void => {
    // Quiet (nothing buffered for the client): not stalled; watched again.
    if (stream.bufferSize === 0) {
      stream.setTimeout(ms);
      return;
    }
    logger.warn(`${what}: the client took nothing for send_timeout (${ms} ms); the stream is closed`);
    stream.close(constants.NGHTTP2_CANCEL);
  };
  stream.setTimeout(ms, stalled);
  stream.once('close', () => stream.setTimeout(0));
}
