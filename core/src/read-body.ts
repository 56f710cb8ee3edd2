import type { IncomingMessage } from 'node:http';
import { checkContentEncoding, decodeContent } from './content-encoding.ts';
import { HTTPError } from './http-error.ts';
import { unreadUpgradeBody } from './upgrade-body.ts';

/**
 * True when the request carries a body: a non-zero `Content-Length` or any `Transfer-Encoding`;
 * over HTTP/2 (which has no `Transfer-Encoding`), any stream its headers did not end.
 *
 * @example
 * ```ts
 * if (hasBody(req)) await readBody(req, 1 << 20);
 * ```
 */
export function hasBody(raw: IncomingMessage): boolean {
  const length = raw.headers['content-length'];
  if (length !== undefined) return length !== '0';
  return raw.headers['transfer-encoding'] !== undefined || (raw.httpVersionMajor === 2 && !endedWithHeaders(raw));
}

/**
 * True for an HTTP/2 request whose HEADERS frame ended its stream (no body follows).
 *
 * @example
 * ```ts
 * if (req.httpVersionMajor === 2 && !endedWithHeaders(req)) await readBody(req, limit);
 * ```
 */
export function endedWithHeaders(raw: IncomingMessage): boolean {
  return (raw as IncomingMessage & { stream?: { endAfterHeaders?: boolean } }).stream?.endAfterHeaders !== false;
}

/**
 * Reads the whole body into a Buffer, refusing more than `limit` bytes with 413 (before reading
 * when `Content-Length` says so) and a body that ends before its `Content-Length` with 400. A
 * body sent with `Content-Encoding` (gzip, deflate, br) is decoded, its decoded bytes held to the
 * same limit; another encoding → 415 before anything is read.
 *
 * @example
 * ```ts
 * const bytes = await readBody(req, 1024 * 1024);
 * ```
 */
export function readBody(raw: IncomingMessage, limit: number): Promise<Buffer> {
  const encoding = raw.headers['content-encoding'];
  if (encoding === undefined) return readRawBody(raw, limit);
  try {
    if (checkContentEncoding(encoding).length === 0) return readRawBody(raw, limit);
  } catch (error) {
    return Promise.reject(error);
  }
  return readRawBody(raw, limit).then((bytes) => decodeContent(bytes, encoding, limit));
}

function readRawBody(raw: IncomingMessage, limit: number): Promise<Buffer> {
  const unread = unreadUpgradeBody(raw);
  if (unread !== undefined) return Promise.reject(unread);
  const declared = raw.headers['content-length'];
  const expected = declared === undefined ? -1 : Number(declared);
  if (expected > limit) {
    return Promise.reject(tooLarge(limit));
  }
  // Someone else consumed or cut the stream already: waiting for 'end' would hang the request.
  if (raw.readableEnded) return Promise.resolve(Buffer.alloc(0));
  if (raw.destroyed) return Promise.reject(shortBody(expected, 0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('error', onError);
      raw.off('close', onClose);
      if (error) {
        // Stop reading a body we refuse; the error response closes the connection.
        raw.resume();
        reject(error);
      } else {
        resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
      }
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) finish(tooLarge(limit));
      else chunks.push(chunk);
    };
    const onEnd = () => {
      if (expected >= 0 && received !== expected) finish(shortBody(expected, received));
      else finish(null);
    };
    const onError = () => finish(shortBody(expected, received));
    const onClose = () => finish(shortBody(expected, received));
    raw.on('data', onData);
    raw.on('end', onEnd);
    raw.on('error', onError);
    raw.on('close', onClose);
  });
}

function tooLarge(limit: number): HTTPError {
  return new HTTPError(413, `The request body is larger than the limit of ${limit} bytes.`, { Connection: 'close' });
}

function shortBody(expected: number, received: number): HTTPError {
  const what = expected >= 0 ? `${received} of the ${expected} bytes its Content-Length announced` : `${received} bytes`;
  return new HTTPError(400, `The request body ended early, after ${what}.`, { Connection: 'close' });
}
