import type { ServerResponse } from 'node:http';
import type { Exchange } from './current.ts';
import { answerConditional } from './etag.ts';
import { EventFrames } from './event-stream.ts';
import type { PipelineSettings } from './pipeline-settings.ts';
import { writeResponse } from './send.ts';
import { watchSendProgress } from './send-timeout.ts';
import { answerInternalError } from './server-response.ts';

/**
 * The last step: writes the final response on `res` (`Connection: close` while closing, the
 * request id header, an event stream bound to the app's closing, the `etag` key's tag or 304),
 * watched by `send_timeout` when the socket could not take it at once; a promise only while an
 * `app_iter` streams. A failure to write is logged and answered 500 where a head can still go.
 *
 * @example
 * ```ts
 * return writeFinal(exchange, res, this.settings, this.idHeader);
 * ```
 */
export function writeFinal(exchange: Exchange, res: ServerResponse, settings: PipelineSettings, idHeader: string | undefined): Promise<void> | undefined {
  const logger = settings.logger();
  try {
    const http1 = exchange.request.raw.httpVersionMajor !== 2;
    if (http1 && settings.closing()) exchange.response.headerMap.set('Connection', 'close');
    // Here, on the final response: an error's, an error document's or a replaced one carries it too.
    // A value the application set itself (its own id scheme, a plugin's) is kept.
    if (idHeader !== undefined && !exchange.response.headerMap.has(idHeader)) exchange.response.headerMap.set(idHeader, exchange.request.id);
    const iter = exchange.response.app_iter;
    // An event stream never ends by itself: it ends when the app closes.
    if (iter !== undefined && iter instanceof EventFrames) iter.endOn(settings.closingSignal);
    const measured = answerConditional(exchange.request, exchange.response, settings.etag === true);
    const streaming = writeResponse(exchange.request, exchange.response, res, logger, measured);
    // Only what the socket could not take at once needs watching: small answers never wait.
    if (streaming !== undefined || res.writableNeedDrain) watchSendProgress(res, settings.sendTimeout, logger, `${exchange.request.method} ${exchange.request.path}`);
    if (streaming !== undefined) {
      // Taken now: a finished response lets go of its socket.
      const socket = http1 ? res.socket : null;
      return streaming.then(() => closeIfClosing(socket, settings), (error: unknown) => sendFailed(error, exchange, res, settings));
    }
  } catch (error) {
    sendFailed(error, exchange, res, settings);
  }
  return undefined;
}

// A stream whose head went out before the app began closing said keep-alive: its connection is
// ended once the stream is done, so that close() need not wait for the client to hang up.
function closeIfClosing(socket: ServerResponse['socket'], settings: PipelineSettings): void {
  if (settings.closing()) socket?.destroySoon();
}

function sendFailed(error: unknown, exchange: Exchange, res: ServerResponse, settings: PipelineSettings): void {
  settings.logger().error(`failed to send the response to ${exchange.request.method} ${exchange.request.path}`, error);
  answerInternalError(res);
}
