/** The RSS a benchmark child reports: after a GC at `start`, and the highest seen until `stop`. */
export type RssStats = { baseline: number; peak: number };

/**
 * Runs the child side of the memory protocol of the upload/download benchmarks: samples RSS every
 * 5 ms, answers `start` (GC, reset, 'started'), `stop` ({@link RssStats}) and `exit`, and announces
 * the server's port to the parent. With `gcEveryMs` it also runs a full GC that often while
 * measuring: for the download, where the question is what the server holds (a buffered file would
 * stay) and the peak otherwise mostly shows how long the collector let 64 KiB chunks already sent lie
 * around (0 to 32 MiB from one run to the next, for `node:http` as for Hickory). The upload benchmark
 * measures throughput in the same window, so it leaves the collector alone.
 *
 * @example
 * ```ts
 * reportRss(port, { gcEveryMs: 250 }); // in a child started with fork(..., { execArgv: ['--expose-gc', ...] })
 * ```
 */
export function reportRss(port: number, options: { gcEveryMs?: number } = {}): void {
  let peak = 0;
  let baseline = 0;
  let collecting: NodeJS.Timeout | undefined;
  setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5).unref();
  process.on('message', (message: string) => {
    if (message === 'start') {
      globalThis.gc?.();
      baseline = process.memoryUsage.rss();
      peak = baseline;
      if (options.gcEveryMs) collecting = setInterval(() => globalThis.gc?.(), options.gcEveryMs);
      process.send!('started');
    } else if (message === 'stop') {
      clearInterval(collecting);
      process.send!({ baseline, peak: Math.max(peak, process.memoryUsage.rss()) } satisfies RssStats);
    } else if (message === 'exit') {
      process.exit(0);
    }
  });
  process.send!({ port });
}
