import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';

/** How a body held to its declared length ended. */
export type DeclaredOutcome = 'complete' | 'longer' | 'shorter' | 'gone';

/**
 * Streams `source` to `res` holding it to the `Content-Length` its handler declared, with
 * backpressure. Bytes past the declared length are never written (on a keep-alive connection
 * they would read as the start of a forged next response): the response ends at the declared
 * length and `'longer'` is returned. A source that ends short gives `'shorter'` (the caller must
 * close the connection: the client would wait for the rest), a client that left gives `'gone'`.
 * The source is destroyed whenever it is not read to its end. A source's error is thrown.
 *
 * @example
 * ```ts
 * const outcome = await sendDeclaredLength(source, res, 1024);
 * if (outcome !== 'complete') res.destroy();
 * ```
 */
export async function sendDeclaredLength(source: Readable, res: ServerResponse, declared: number): Promise<DeclaredOutcome> {
  let sent = 0;
  // Leaving the loop early (return or throw) destroys the source.
  for await (const chunk of source) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Uint8Array);
    const room = declared - sent;
    const part = bytes.length > room ? bytes.subarray(0, room) : bytes;
    if (part.length > 0 && !res.write(part)) await drainedOrClosed(res);
    sent += part.length;
    if (res.destroyed) return 'gone';
    if (bytes.length > room) {
      res.end();
      return 'longer';
    }
  }
  if (sent < declared) return 'shorter';
  res.end();
  return 'complete';
}

function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
