// What a streamed body may hold open until it is consumed: a Node stream (a file descriptor from
// the moment `createReadStream` is called), or an iterator that was started (a generator inside its
// `try`, holding a cursor or a file).
interface Destroyable {
  destroy(error?: Error): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}
interface Returnable {
  next(): unknown;
  return(): unknown;
}

/**
 * Lets go of a body that will not be sent (a `HEAD`, an error response that replaced it, a client
 * that left, a request answered 503 while its handler still ran): a stream is destroyed at once,
 * so that its file or socket is closed now, not when the collector gets to it; an iterator is told
 * to `return()`, which runs a started generator's `finally`. A stream that fails as it closes (a
 * file that could not be opened) is logged through `log`, never an uncaught `'error'`. Iterables
 * that were never iterated (arrays, generator functions' objects not yet started) hold nothing.
 *
 * @example
 * ```ts
 * if (request.method === 'HEAD') discardBody(response.app_iter, (error) => logger.warn('the body failed as it was dropped', error));
 * ```
 */
export function discardBody(iter: unknown, log?: (error: Error) => void): void {
  if (iter === undefined || iter === null || typeof iter !== 'object') return;
  const stream = iter as unknown as Partial<Destroyable>;
  if (typeof stream.destroy === 'function' && typeof stream.on === 'function') {
    // Added before destroy(): an open that fails later still emits 'error', and with no listener
    // that error would be uncaught.
    stream.on('error', (error: Error) => log?.(error));
    stream.destroy();
    return;
  }
  const iterator = iter as unknown as Partial<Returnable>;
  if (typeof iterator.next === 'function' && typeof iterator.return === 'function') {
    try {
      const closing = iterator.return();
      if (closing !== null && typeof closing === 'object' && typeof (closing as Promise<unknown>).then === 'function') {
        (closing as Promise<unknown>).then(undefined, (error: unknown) => log?.(error instanceof Error ? error : new Error(String(error))));
      }
    } catch (error) {
      log?.(error instanceof Error ? error : new Error(String(error)));
    }
  }
}
