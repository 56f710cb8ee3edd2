/** The RSS a benchmark child reports: after a GC at `start`, and the highest seen until `stop`. */
export type RssStats = { baseline: number; peak: number };

/**
 * Runs the child side of the memory protocol of the upload/download benchmarks: samples RSS every
 * 5 ms, answers `start` (GC, reset, 'started'), `stop` ({@link RssStats}) and `exit`, and announces
 * the server's port to the parent.
 *
 * @example
 * ```ts
 * reportRss(port); // in a child started with fork(..., { execArgv: ['--expose-gc', ...] })
 * ```
 */
export function reportRss(port: number): void {
  let peak = 0;
  let baseline = 0;
  setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5).unref();
  process.on('message', (message: string) => {
    if (message === 'start') {
      globalThis.gc?.();
      baseline = process.memoryUsage.rss();
      peak = baseline;
      process.send!('started');
    } else if (message === 'stop') {
      process.send!({ baseline, peak: Math.max(peak, process.memoryUsage.rss()) } satisfies RssStats);
    } else if (message === 'exit') {
      process.exit(0);
    }
  });
  process.send!({ port });
}
