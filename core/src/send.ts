import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { sendDeclaredLength } from './declared-length.ts';
import { discardBody } from './discard-body.ts';
import { EventFrames } from './event-stream.ts';
import type { HeaderMap, HeaderValue } from './header-map.ts';
import type { Logger } from './logger.ts';
import type { Request } from './request.ts';
import type { AppIter, Response } from './response.ts';

const HTML = 'text/html; charset=utf-8';
// Headers that belong to one HTTP/1.1 connection, which HTTP/2 forbids (RFC 9113 §8.2.2).
const CONNECTION_HEADERS = ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade'];
const OCTETS = 'application/octet-stream';

/**
 * Writes a finished {@link Response} to Node's `ServerResponse`: a string or bytes with an exact
 * `Content-Length`, or `app_iter` streamed with backpressure (the source is destroyed when the
 * client goes away; a `Content-Length` the handler set is held to, or dropped when it is no byte
 * count). A 200 with no body or an empty one becomes 204; 204 and 304 never carry a body.
 * Without a promise when there is nothing to wait for: a string or bytes body is written at once
 * and `undefined` is returned; only a streamed `app_iter` gives a promise (settled when the stream
 * is done). `byteLength`, when the caller measured the body already (for its `ETag`), is its
 * `Content-Length`.
 *
 * @example
 * ```ts
 * const streaming = writeResponse(request, response, res, logger, answerConditional(request, response, true));
 * if (streaming) await streaming;
 * ```
 */
export function writeResponse(request: Request, response: Response, res: ServerResponse, logger: Logger, byteLength?: number): Promise<void> | undefined {
  const iter = response.app_iter;
  if (res.headersSent || res.destroyed) {
    // The client left (or was answered already): the stream is never read, so it is closed now.
    discardBody(iter, dropFailed(request, logger));
    return undefined;
  }
  // A file stream still opening: its head waits for the open, so that a file that cannot be opened
  // is a 500 of this request (HEAD included), never a 200 cut short or an uncaught 'error'.
  if (iter instanceof Readable && (iter as Readable & { pending?: boolean }).pending === true) return opened(iter).then(() => writeResponse(request, response, res, logger));
  const headers = response.headerMap;
  // HTTP/2 frames itself: a connection-specific header would make Node refuse the whole response.
  if (request.raw.httpVersionMajor === 2) for (const name of CONNECTION_HEADERS) headers.delete(name);
  let status = response.status;
  const body = response.body;
  // A 200 with nothing to send is a 204, as Pecan answers (an empty string included).
  if ((body === null || body.length === 0) && iter === undefined && status === 200) status = 204;
  if (status === 204 || status === 304 || (status >= 100 && status < 200)) {
    discardBody(iter, dropFailed(request, logger));
    headers.delete('content-length');
    headers.delete('transfer-encoding');
    res.writeHead(status, headers.toFlatArray() as string[]);
    res.end();
    return undefined;
  }
  // Framing is the kernel's: a body of known length goes with Content-Length alone, never with an
  // application's Transfer-Encoding too (RFC 9112 §6.3: a proxy may read either, and the two
  // readings smuggle a request).
  if (headers.hasKey('transfer-encoding') && (iter === undefined || headers.hasKey('content-length'))) headers.delete('transfer-encoding');
  if (iter !== undefined) {
    // A 200 stream with no declared length may turn out empty: a 204 then, as Pecan answers.
    // Event streams excepted: their head goes out at once, whenever the first event comes.
    const events = iter instanceof EventFrames;
    if (status === 200 && request.method !== 'HEAD' && !headers.hasKey('content-length') && !isOneChunk(iter) && !events) return streamOr204(iter, request, response, res, logger);
    if (!headers.hasKey('content-type')) headers.set('Content-Type', OCTETS);
    const declared = headers.hasKey('content-length') ? declaredLength(headers, request, logger) : undefined;
    res.writeHead(status, headers.toFlatArray() as string[]);
    if (events) res.flushHeaders();
    return streamBody(iter, res, request, logger, declared);
  }
  if (body === null) {
    headers.set('Content-Length', '0');
    res.writeHead(status, headers.toFlatArray() as string[]);
    res.end();
    return undefined;
  }
  if (typeof body === 'string') {
    if (!headers.hasKey('content-type')) headers.setKnown('content-type', 'Content-Type', HTML);
    headers.setKnown('content-length', 'Content-Length', String(byteLength ?? Buffer.byteLength(body)));
    res.writeHead(status, headers.toFlatArray() as string[]);
    res.end(request.method === 'HEAD' ? undefined : body);
    return undefined;
  }
  if (!headers.hasKey('content-type')) headers.setKnown('content-type', 'Content-Type', OCTETS);
  headers.setKnown('content-length', 'Content-Length', String(body.byteLength));
  res.writeHead(status, headers.toFlatArray() as string[]);
  res.end(request.method === 'HEAD' ? undefined : body);
  return undefined;
}

// Settles once a stream that is still opening (a file stream before its descriptor is open) is
// ready, or rejects with the reason it could not open (`ENOENT`, `EACCES`, `EMFILE`).
function opened(stream: Readable): Promise<void> {
  return new Promise((resolve, reject) => {
    const ready = (): void => {
      stream.off('error', failed);
      resolve();
    };
    const failed = (error: Error): void => {
      stream.off('ready', ready);
      reject(error);
    };
    stream.once('ready', ready);
    stream.once('error', failed);
  });
}

function dropFailed(request: Request, logger: Logger): (error: Error) => void {
  return (error) => logger.warn(`${request.method} ${request.path}: the body that was not sent failed as it was closed`, error);
}

function isOneChunk(iter: AppIter): boolean {
  return typeof iter === 'string' || iter instanceof Uint8Array;
}

// Reads up to the first chunk that is not empty before the status line: none at all → 204 (the
// source is done); else 200 and the stream, that chunk first.
async function streamOr204(iter: AppIter, request: Request, response: Response, res: ServerResponse, logger: Logger): Promise<void> {
  const source = iter as AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;
  const it = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : (source as Iterable<string | Uint8Array>)[Symbol.iterator]();
  let first = await it.next();
  while (!first.done && first.value.length === 0) first = await it.next();
  if (res.headersSent || res.destroyed) {
    await it.return?.();
    return;
  }
  const headers = response.headerMap;
  if (first.done) {
    headers.delete('transfer-encoding');
    res.writeHead(204, headers.toFlatArray() as string[]);
    res.end();
    return;
  }
  if (!headers.hasKey('content-type')) headers.set('Content-Type', OCTETS);
  res.writeHead(200, headers.toFlatArray() as string[]);
  await streamBody(resumed(first.value, it), res, request, logger, undefined);
}

// The rest of a source whose first chunk was read; stopping early stops the source too.
async function* resumed(
  first: string | Uint8Array,
  it: AsyncIterator<string | Uint8Array> | Iterator<string | Uint8Array>,
): AsyncGenerator<string | Uint8Array> {
  let done = false;
  try {
    yield first;
    for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
    done = true;
  } finally {
    if (!done) await it.return?.();
  }
}

async function streamBody(iter: AppIter, res: ServerResponse, request: Request, logger: Logger, declared: number | undefined): Promise<void> {
  const source = iter instanceof Readable ? iter : Readable.from(iter as Iterable<string | Uint8Array>, { objectMode: false });
  if (request.method === 'HEAD') {
    discardBody(source, dropFailed(request, logger));
    res.end();
    return;
  }
  const what = `${request.method} ${request.path}`;
  try {
    if (declared === undefined) {
      // pipeline waits on the client (backpressure) and destroys the source if the client leaves.
      await pipeline(source, res);
      return;
    }
    const outcome = await sendDeclaredLength(source, res, declared);
    if (outcome === 'longer') {
      // The declared bytes went out, nothing more: the framing was wrong, so the connection is not reused.
      logger.warn(`${what}: the body was longer than the ${declared} bytes its Content-Length declared; the rest was dropped and the connection closed`);
      (res.socket ?? res.req?.socket)?.destroySoon();
    } else if (outcome === 'shorter') {
      logger.warn(`${what}: the body ended before the ${declared} bytes its Content-Length declared; the connection is closed so the client does not wait for the rest`);
      res.destroy();
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ERR_STREAM_PREMATURE_CLOSE' && code !== 'ECONNRESET' && code !== 'EPIPE') logger.error(`streaming the body of ${what} failed`, error);
    source.destroy();
    res.destroy();
  }
}

// The Content-Length a handler set for a streamed body, as the one number the stream is then held
// to and the header then says. Clients read `5 ` and `5, 5` as 5 (RFC 9110 §8.6), so the kernel
// must too: unchecked, the bytes past 5 would read as a forged next response. A value that is no
// byte count (`abc`, `5, 6`) is dropped and Node frames the body itself (chunked), since each
// client or proxy would read it its own way.
function declaredLength(headers: HeaderMap, request: Request, logger: Logger): number | undefined {
  const value = headers.get('content-length')!;
  const length = byteCount(value);
  if (length === undefined) {
    headers.delete('content-length');
    logger.warn(`${request.method} ${request.path}: the Content-Length ${JSON.stringify(value)} set for a streamed body is not a byte count; it was dropped and the body sent without it`);
    return undefined;
  }
  headers.setKnown('content-length', 'Content-Length', String(length));
  return length;
}

// Header values are printable ASCII and tabs (HeaderMap checks them), so trim() strips only OWS.
function byteCount(value: HeaderValue): number | undefined {
  const parts = typeof value === 'string' ? value.split(',') : value.flatMap((one) => one.split(','));
  let count: number | undefined;
  for (const part of parts) {
    const digits = part.trim();
    if (!/^\d{1,15}$/.test(digits)) return undefined;
    const n = Number(digits);
    if (count !== undefined && n !== count) return undefined;
    count = n;
  }
  return count;
}
